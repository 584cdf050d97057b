"""Stage 4: padding the loss scores. For a next-token model the tracer counts, in each
training batch, the positions the loss scores and those in a padded tail: to the end of a
sequence, the input and the target are one value (tools/trace/target_order.py). Text
does not end every sequence in a run of one token predicted after itself; padding does.
When such tails are a large share of what the loss scores, the pad value was never
given the loss's ignore_index (`y[len(ix) + 1:] = -1` dropped): the model learns to
predict padding after padding, and the loss falls below what the text allows while the
model is no better at it. A mask the program multiplies into an element-wise loss that keeps
no target of the pad value is that ignore_index written by hand."""

from __future__ import annotations

from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.tools.tracefile.trace import LossCall, Trace

# the share of scored positions in padded tails beyond which padding dominates the loss
PADDED = 0.25


def scored_padding(t: Trace, calls: list[LossCall]) -> tuple[LossCall, str] | None:
    """(the loss call, the observation) when padding is a large share of what a
    next-token loss scores."""
    s = t.target_is_input
    if not s.scored or s.padded < PADDED * s.scored or len(s.pad_values) != 1:
        return None
    c = next((c for c in calls if s.pad_frame and c.frame == s.pad_frame), calls[0])
    v = s.pad_values[0]
    m = c.mask
    if m and m["kept_values"] is not None and v not in m["kept_values"]:
        # a 0/1 mask multiplied into the element-wise loss drops every padded target: the
        # program ignores its padding by hand, not with the loss's ignore_index
        return None
    text = (
        f"{fmt(100 * s.padded / s.scored)}% of the {s.scored} target positions the training "
        f"loss at {c.frame} scores are padding: from some position to the end of the "
        f"sequence, the model's input and its target are both {v} (padding predicted after "
        f"padding), while the loss ignores only index {c.ignore_index}"
    )
    return c, text
