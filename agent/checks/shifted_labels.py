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
    clearly better shifted by one value than as written, and the pass before it (when
    there is one) the same way: an encoding holds from pass to pass, a model that draws
    its answers afresh (a head rebuilt at every call) lines up with a neighbour only by
    chance, once."""
    if not t.eval_shifted or not t.eval_matches or t.eval_values is None:
        return None
    counts = [c for _, c in t.eval_values.first_labels]
    if not counts:
        return None
    majority = max(counts) / sum(counts)
    steps = sorted({step for step, *_ in t.eval_matches})
    found = [_shifted_pass(t, step, majority) for step in steps[-2:]]
    if any(f is None for f in found) or len({side for side, *_ in found}) != 1:
        return None
    side, written, best = found[-1]
    if not _offset_ranges(t, side):
        return None
    text = (
        f"at the last evaluation {fmt(100 * written)}% of the predictions equal their labels "
        f"(the most frequent label alone would give {fmt(100 * majority)}%), but "
        f"{fmt(100 * best)}% equal them one value {side}"
        f"{' (and so at the evaluation before)' if len(found) > 1 else ''}: the predictions "
        "and the labels count the classes from different origins"
    )
    return text, t.eval_shift_frame


def _shifted_pass(t: Trace, step: int, majority: float) -> tuple[str, float, float] | None:
    """(side, share as written, share shifted) when this pass matches clearly better
    shifted than as written and than the most frequent label, else None."""
    matched = sum(m for s, m, _ in t.eval_matches if s == step)
    compared = sum(n for s, _, n in t.eval_matches if s == step)
    up = sum(u for s, u, _, _ in t.eval_shifted if s == step)
    down = sum(d for s, _, d, _ in t.eval_shifted if s == step)
    if not compared:
        return None
    written, best = matched / compared, max(up, down) / compared
    # beyond what matching this many labels by chance moves a share (a model still at
    # chance matches about the same shifted or not)
    margin = CHANCE_SE * math.sqrt(majority * (1 - majority) / compared)
    if not (best > majority + margin and best > written + margin and written < majority):
        return None
    return ("up" if up >= down else "down"), written, best


def _offset_ranges(t: Trace, side: str) -> bool:
    """Two encodings of the classes: the labels' values lie one value up (or down) from
    the predictions' at an end of their range (levels 0..4 against labels 1..5). Classes
    the model maps onto each other in a cycle (a head rebuilt at every call, class 2 taken
    for 0) keep one range: predictions and labels take the same values."""
    v = t.eval_values
    labels = set(v.labels) if v is not None else set()
    preds = {value for _, counts in (v.passes if v is not None else []) for value, _ in counts}
    if not labels or not preds:
        return True  # the values were not kept (too many): the matches decide
    step = 1 if side == "up" else -1
    return min(labels) - min(preds) == step or max(labels) - max(preds) == step


# rounding must remove at least this share of the errors the truncating cast makes
ROUNDING_HELPS = 0.25


def truncated_answers(t: Trace) -> tuple[str, Frame | None] | None:
    """(the observation, where the cast is) when the program compares integer answers
    cast from the model's real values by truncation (`score.long()`: 2.97 becomes 2) and
    the same values rounded would match their labels clearly more often, at the last
    evaluation pass and the one before it (when there is one). A floor the labels were
    made with (a bucket of a real value) matches best as written and stays."""
    if not t.eval_rounded or not t.eval_matches:
        return None
    steps = sorted({step for step, *_ in t.eval_rounded})
    shares = [_rounding_gain(t, step) for step in steps[-2:]]
    if any(s is None for s in shares):
        return None
    written, rounded = shares[-1]  # type: ignore[misc]
    frame = t.eval_rounded[-1][3]
    text = (
        f"at the last evaluation {fmt(100 * written)}% of the integer answers equal their "
        f"labels; they are cast from the model's real values by truncation (at {frame}), and "
        f"the same values rounded would match {fmt(100 * rounded)}%: the metric drops the "
        "fraction of each answer instead of rounding it"
    )
    return text, frame


def _rounding_gain(t: Trace, step: int) -> tuple[float, float] | None:
    matched = sum(m for s, m, _ in t.eval_matches if s == step)
    compared = sum(n for s, _, n in t.eval_matches if s == step)
    rounded = sum(h for s, h, _, _ in t.eval_rounded if s == step)
    same = sum(n for s, _, n, _ in t.eval_rounded if s == step)
    if not compared or same != compared:
        return None
    written, better = matched / compared, rounded / compared
    margin = CHANCE_SE * math.sqrt(max(written * (1 - written), 1 / compared) / compared)
    if better <= written + margin or 1 - better > (1 - ROUNDING_HELPS) * (1 - written):
        return None
    return written, better
