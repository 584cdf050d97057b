"""What a loss reaches from its targets' distribution alone (the marginal level: the class
entropy for cross-entropy, the variance for squared error), per element of the recorded
values. A loss far below it has learned from the inputs; one that cannot get below it
has learned only what every sample shares."""

from __future__ import annotations

import math

from torch_investigate.agent.checks.common import target_of


def marginal_level(calls: list) -> float | None:
    """The loss per element that predicting the targets' distribution alone reaches (the
    class entropy for cross-entropy, the variance for squared error), from the targets the
    recorded calls saw; None for other losses."""
    fn = calls[0].fn
    ys = [target_of(c) for c in calls]
    if fn in ("cross_entropy", "nll_loss"):
        counts: dict[str, int] = {}
        for c, y in zip(calls, ys, strict=True):
            for k, n in (y.values or {}).items():
                if c.ignore_index is None or k != str(c.ignore_index):
                    counts[k] = counts.get(k, 0) + n
        total = sum(counts.values())
        return -sum(n / total * math.log(n / total) for n in counts.values()) if total else None
    if fn in ("binary_cross_entropy", "binary_cross_entropy_with_logits"):
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
