"""Stage 4: a loss masked to the elements whose input was filled. A per-element label
(promo / not per day) is trained through an element-wise loss times a 0/1 mask; the
tracer reads the model's input vector at each kept and dropped element
(tools/trace/filled_rows.py). When every kept element's input is one and the same vector
(the fill of a missing day: zeros and a missing flag) while the dropped ones carry data,
the loss is taken exactly where the model was given nothing to go on, and never where it
was: the mask's convention is inverted (`weight = gap` where `weight = ~gap` was meant).

A masked model that predicts what was hidden (an imputer, masked tokens) also trains on
the filled elements only, by design: its target is the input itself, so on the visible
(dropped) elements an input channel equals the target; that mask is left alone. So is a
mask that keeps the same position in every sample (a summary row)."""

from __future__ import annotations

from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.tools.tracefile.trace import LossCall

# the share of dropped elements that may hold the fill vector too (a real day that
# happens to equal it); the kept ones must all hold it
STRAY = 0.05


def filled_rows(calls: list[LossCall]) -> tuple[LossCall, str] | None:
    """(the first loss call, the observation) when in most calls of one loss site the
    mask keeps exactly the elements whose input is one fill vector."""
    read = [c for c in calls if c.mask and "kept_filled" in c.mask]
    if len(read) < 2 or 2 * len(read) < len(calls):
        return None
    for c in read:
        m = c.mask
        dropped = m["total"] - m["kept"]
        if not (0 < m["kept"] < m["total"]) or m["kept_filled"] != m["kept"]:
            return None
        if m["dropped_filled"] > STRAY * dropped or m["target_in_input"]:
            return None
    if not any(c.mask["varies"] for c in read):
        return None
    kept = sum(c.mask["kept"] for c in read)
    total = sum(c.mask["total"] for c in read)
    stray = sum(c.mask["dropped_filled"] for c in read)
    c = read[0]
    text = (
        f"the {c.fn} loss at {c.frame} is multiplied by a 0/1 mask that keeps {kept} of "
        f"{total} elements over {len(read)} calls, and the model's input at every kept "
        f"element is one and the same feature vector (a filled-in value), while "
        f"{fmt(100 * (1 - stray / (total - kept)))}% of the dropped elements carry other "
        "inputs: the loss is taken only where the model was given nothing to go on, and "
        "never on the elements with data"
    )
    return c, text
