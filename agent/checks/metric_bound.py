"""Stage 7: the program's accuracy against the tracer's count on the same evaluation
rows. For each evaluation loader batch the tracer classifies the rows from the forward
the program ran on them and the batch's own targets (tools/trace/shadow_eval.py); the
program's `==` count over as many rows must agree with it within chance. An accuracy far
under the tracer's, pass after pass, pairs the predictions with other labels than the
batches hold (labels gathered in a second pass over a shuffling loader): the inputs and
the model are the same, so only the metric's own arithmetic differs."""

from __future__ import annotations

import math

from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.tools.tracefile.trace import Frame, Trace

CHANCE_SE = 3.0  # standard errors of the difference beyond which it is no chance
MIN_GAP = 0.1  # and the accuracies must differ this much, at least


def _per_pass(rows) -> dict[int, tuple[int, int]]:
    out: dict[int, tuple[int, int]] = {}
    for step, hits, n in rows:
        h, m = out.get(step, (0, 0))
        out[step] = (h + hits, m + n)
    return out


def accuracy_gap(t: Trace) -> tuple[str, Frame | None] | None:
    """(the observation, where the program compares) when every evaluation pass after
    training began counts clearly fewer right than the tracer does on the same rows."""
    tracer, program = _per_pass(t.shadow_correct), _per_pass(t.eval_matches)
    passes = [
        s for s in sorted(set(tracer) & set(program)) if s > 0 and tracer[s][1] == program[s][1]
    ]
    if len(passes) < 2:
        return None
    for s in passes:
        (right, n), (matched, _) = tracer[s], program[s]
        a, b = right / n, matched / n
        se = math.sqrt((a * (1 - a) + b * (1 - b)) / n)
        if a - b <= max(MIN_GAP, CHANCE_SE * se):
            return None
    s = passes[-1]
    (right, n), (matched, _) = tracer[s], program[s]
    text = (
        f"in every one of {len(passes)} evaluation passes the program counts far fewer right "
        f"than its model gets on the same {n} evaluation rows: after {s} steps the model's "
        f"outputs match their batches' own targets on {fmt(100 * right / n)}% of the rows, "
        f"the program's own comparison on {fmt(100 * matched / n)}%: its predictions are "
        "compared with other labels than the ones they were made for"
    )
    return text, t.eval_shift_frame


def tracer_learns(t: Trace) -> bool:
    """The tracer's own count on the evaluation batches is clearly better than the
    program's: the evaluation rows relate to their targets; the program's metric does not
    show it."""
    return accuracy_gap(t) is not None


def saturated_compares(t: Trace) -> list:
    """Evaluation comparisons of a squashed model output (a sigmoid's, a softmax's, a
    tanh's) with a threshold at or beyond its range, every one of which came out one
    value (tools/trace/saturated.py): predictions made from them ignore the model."""
    return [o for o in t.ops if o.kind == "saturated_compare" and o.total and o.kept == o.total]
