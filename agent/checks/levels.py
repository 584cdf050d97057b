"""Reference loss levels: what a loss reaches from its targets' distribution alone (the
marginal level: the class entropy for cross-entropy, the variance for squared error, per
element of the recorded values) and an uninformed classifier's chance level (ln C, ln 2).
A loss far below the marginal level has learned from the inputs; one that cannot get
below it has learned only what every sample shares."""

from __future__ import annotations

import math

from torch_investigate.agent.checks.loss_operands import target_of
from torch_investigate.tools.trace.loss_kinds import BINARY_TARGET, INDEX_TARGET
from torch_investigate.tools.tracefile.trace import Trace


def marginal_level(calls: list) -> float | None:
    """The loss per element that predicting the targets' distribution alone reaches (the
    class entropy for cross-entropy, the variance for squared error), from the targets the
    recorded calls saw; None for other losses."""
    fn = calls[0].fn
    ys = [target_of(c) for c in calls]
    if fn in INDEX_TARGET:
        counts: dict[str, int] = {}
        for c, y in zip(calls, ys, strict=True):
            for k, n in (y.values or {}).items():
                if c.ignore_index is None or k != str(c.ignore_index):
                    counts[k] = counts.get(k, 0) + n
        total = sum(counts.values())
        return -sum(n / total * math.log(n / total) for n in counts.values()) if total else None
    if fn in BINARY_TARGET:
        means = [y.mean for y in ys if y.mean is not None]
        if not means:
            return None
        p = min(max(sum(means) / len(means), 1e-6), 1 - 1e-6)
        return -(p * math.log(p) + (1 - p) * math.log(1 - p))
    if fn == "mse_loss":
        moments = [(y.mean, y.std) for y in ys if y.mean is not None and y.std is not None]
        if not moments:
            return None
        mu = sum(m for m, _ in moments) / len(moments)
        return sum(sd**2 + (m - mu) ** 2 for m, sd in moments) / len(moments)
    return None


def per_element(c) -> float | None:
    """What one recorded value of this call's site is, per element: 1 for a mean, the
    element count for a sum."""
    if c.reduction == "mean":
        return 1.0
    if c.reduction == "sum" and c.contributing_elements:
        return float(c.contributing_elements)
    return None


LN2 = math.log(2.0)  # 0.693147: BCE at logit 0, or CE of two equal logits


def is_classification(fn: str) -> bool:
    return fn in (*INDEX_TARGET, *BINARY_TARGET)


def element_chance(fn: str, input_shape: list[int]) -> float | None:
    """Loss of an uninformed classifier per element: ln C for C classes, ln 2 for one
    binary logit."""
    if fn in BINARY_TARGET:
        return LN2
    if fn in INDEX_TARGET and len(input_shape) >= 2 and input_shape[1] > 1:
        return math.log(input_shape[1])
    return None


def summed_elements(c) -> int | None:
    """How many elements a loss call adds up (reduction='sum'), None when it averages."""
    if c.reduction != "sum":
        return None
    return c.contributing_elements or c.total_elements or None


def chance_level(c) -> float | None:
    """An uninformed classifier's value of this loss call: the per-element level, times
    the elements it adds up when it sums them (a summed loss is not compared with a
    per-element level)."""
    per = element_chance(c.fn, c.input.shape)
    if per is None or c.reduction == "sum" and summed_elements(c) is None:
        return None
    return per * (summed_elements(c) or 1)


def plateau(t: Trace, *, above: float, flat: float) -> tuple[float, float] | None:
    """(level, chance) when the training loss stopped improving over the second half of
    the run (it fell less than `flat` of itself) while still above `above` x the chance
    level; None otherwise or when the loss has no chance level."""
    calls = t.train_loss_calls()
    chance = chance_level(calls[0]) if calls else None
    curve = t.curve()
    if chance is None or len(curve) < 40:
        return None
    half = curve[len(curve) // 2 :]
    k = max(3, len(half) // 5)
    start, end = sum(half[:k]) / k, sum(half[-k:]) / k
    if end > above * chance and (start - end) < flat * abs(start):
        return end, chance
    return None
