"""Stage 7: predictions compared with labels counted from another origin (levels decoded
from 0 against jar labels from 1). The program's own `==` matches few of them, while the
same predictions one value up (or down) match more than always answering the most
frequent label would: the model learned the classes and the metric compares two
encodings. A model that is simply poor matches no better shifted than as written, and one
whose errors fall on a neighbour (an ordinal model off by one now and then) still
matches best as written."""

from __future__ import annotations

import math

from torch_investigate.agent.checks.input_moments import CHANCE_SE
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.tools.tracefile.trace import Frame, Trace


def shifted_labels(t: Trace) -> tuple[str, Frame | None] | None:
    """(the observation, where the comparison is) when the last evaluation pass matches
    clearly better shifted by one value than as written."""
    if not t.eval_shifted or not t.eval_matches or t.eval_values is None:
        return None
    last = max(step for step, *_ in t.eval_matches)
    matched = sum(m for step, m, _ in t.eval_matches if step == last)
    compared = sum(n for step, _, n in t.eval_matches if step == last)
    up = sum(u for step, u, _, _ in t.eval_shifted if step == last)
    down = sum(d for step, _, d, _ in t.eval_shifted if step == last)
    counts = [c for _, c in t.eval_values.first_labels]
    if not compared or not counts:
        return None
    majority = max(counts) / sum(counts)
    written, best = matched / compared, max(up, down) / compared
    # beyond what matching this many labels by chance moves a share (a model still at
    # chance matches about the same shifted or not)
    margin = CHANCE_SE * math.sqrt(majority * (1 - majority) / compared)
    if not (best > majority + margin and best > written + margin and written < majority):
        return None
    side = "up" if up >= down else "down"
    text = (
        f"at the last evaluation {fmt(100 * written)}% of the predictions equal their labels "
        f"(the most frequent label alone would give {fmt(100 * majority)}%), but "
        f"{fmt(100 * best)}% equal them one value {side}: the predictions and the labels "
        "count the classes from different origins"
    )
    return text, t.eval_shift_frame
