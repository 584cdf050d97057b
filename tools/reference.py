"""Reference values for the checks in the seed tutorial (seeds/001), computed with torch.

The tests pin the tutorial's numbers with these functions, and hold the checks' own
torch-free closed forms (the chance level of an uninformed classifier, the marginal
level of predicting the label frequencies) to what torch computes here. The examples
print the same numbers as standalone scripts.

Imports only the standard library and torch, so the tracer could import it inside the
sandboxed process.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import torch
import torch.nn.functional as F

__all__ = [
    "BroadcastMSE",
    "ConfusionMetrics",
    "QuadraticRun",
    "accumulated_grad",
    "bce_at_zero_logit",
    "broadcast_mse",
    "ce_equal_logits",
    "prior_cross_entropy",
    "confusion_counts",
    "confusion_metrics",
    "sgd_quadratic",
]


# ---- chance-level losses (stage 4: is the loss scale plausible?) ----


def bce_at_zero_logit(target: float = 1.0) -> float:
    """Binary cross-entropy with logits at logit 0: ln 2 ≈ 0.693147 for either class.

    sigmoid(0) = 0.5, so -log(0.5) whether the target is 1 or 0. A typical
    scale for an uncertain binary classifier at the start, not a required
    initial value.
    """
    logit = torch.zeros(1, dtype=torch.float64)
    return F.binary_cross_entropy_with_logits(
        logit, torch.tensor([target], dtype=torch.float64)
    ).item()


def ce_equal_logits(num_classes: int = 2) -> float:
    """Cross-entropy when all ``num_classes`` logits are equal: ln C.

    0.693147 for two classes, 1.386294 for four, 2.302585 for ten. The value
    does not depend on which class is the target.
    """
    if num_classes < 1:
        raise ValueError(f"num_classes must be >= 1, got {num_classes}")
    logits = torch.zeros(1, num_classes, dtype=torch.float64)
    return F.cross_entropy(logits, torch.tensor([0])).item()


def prior_cross_entropy(class_counts: Sequence[int]) -> float:
    """Best loss of a model that ignores its input: the entropy of the label frequencies.

    Cross-entropy is minimized by predicting the class frequencies p_c for every
    sample, giving -sum p_c ln p_c. Balanced classes give ln C (0.693147 for two);
    counts [90, 10] give 0.325083. A training loss that settles here, rather than
    below it, means the predictions carry no information about the input.
    Classes with zero count contribute nothing.
    """
    counts = torch.as_tensor(class_counts, dtype=torch.float64)
    if counts.ndim != 1 or counts.numel() == 0 or bool((counts < 0).any()):
        raise ValueError("class_counts must be a non-empty list of non-negative counts")
    total = counts.sum()
    if total <= 0:
        raise ValueError("class_counts must not all be zero")
    p = counts[counts > 0] / total
    return float(-(p * p.log()).sum().item()) + 0.0  # + 0.0 turns -0.0 into 0.0


# ---- the broadcast trap (stage 3) ----


@dataclass(frozen=True)
class BroadcastMSE:
    """Predictions [N, 1] minus targets [N]: what broadcasting actually computes."""

    diff_shape: tuple[int, ...]  # (N, N): every prediction against every target
    diff: list[list[float]]  # the pairwise matrix pred[i] - target[j]
    broadcast: float  # mean of the squared pairwise matrix (the wrong MSE)
    intended: float  # mean of (pred[i] - target[i])^2 (the diagonal, the intended MSE)


def broadcast_mse(
    pred: Sequence[float] | torch.Tensor = (1.0, 2.0, 3.0),
    target: Sequence[float] | torch.Tensor = (1.0, 2.0, 3.0),
) -> BroadcastMSE:
    """MSE of predictions shaped [N, 1] against targets shaped [N].

    ``pred - target`` broadcasts to an [N, N] matrix of all pairwise differences.
    For predictions 1, 2, 3 against targets 1, 2, 3 the matrix is
    [[0, -1, -2], [1, 0, -1], [2, 1, 0]], whose squared mean is 12/9 = 4/3,
    although every prediction matches its own target (intended MSE 0).
    ``pred`` is reshaped to a column whatever its input shape; ``target`` is flattened.
    """
    p = torch.as_tensor(pred, dtype=torch.float64).reshape(-1, 1)  # [N, 1]
    t = torch.as_tensor(target, dtype=torch.float64).reshape(-1)  # [N]
    if p.shape[0] != t.shape[0]:
        raise ValueError(f"pred has {p.shape[0]} values, target {t.shape[0]}")
    diff = p - t  # [N, N]
    return BroadcastMSE(
        diff_shape=tuple(diff.shape),
        diff=diff.tolist(),
        broadcast=(diff**2).mean().item(),
        intended=((p.reshape(-1) - t) ** 2).mean().item(),
    )


# ---- gradient accumulation (stage 6: missing zero_grad) ----


def accumulated_grad(w: float = 1.0, n_backward: int = 2) -> float:
    """``w.grad`` after ``n_backward`` backward passes of L = w² without clearing.

    Each pass adds dL/dw = 2w, so at w = 1 the gradient is 2 after one backward
    and 4 after a second: PyTorch accumulates into ``.grad``, it does not replace it.
    Closed form: ``n_backward * 2 * w``.
    """
    if n_backward < 0:
        raise ValueError(f"n_backward must be >= 0, got {n_backward}")
    param = torch.tensor(w, dtype=torch.float64, requires_grad=True)
    for _ in range(n_backward):
        loss = param**2  # a new graph each time, as in a training loop
        loss.backward()
    return 0.0 if param.grad is None else param.grad.item()


# ---- step size on a quadratic (stage 8: divergence) ----


@dataclass(frozen=True)
class QuadraticRun:
    """Plain SGD on L = 0.5 w²: weights and losses before each step and after the last."""

    lr: float
    weights: list[float]  # steps + 1 values, weights[0] is the start
    losses: list[float]  # 0.5 * w**2 for each entry of weights

    @property
    def factor(self) -> float:
        """w_new / w = 1 - lr (dL/dw = w)."""
        return 1.0 - self.lr

    @property
    def loss_ratio(self) -> float:
        """L_new / L = (1 - lr)²: 0.25 at lr 0.5, 1.44 at lr 2.2 (the loss grows)."""
        return self.factor**2

    @property
    def diverges(self) -> bool:
        """True when |1 - lr| > 1, i.e. lr outside (0, 2) for this quadratic only."""
        return abs(self.factor) > 1.0


def sgd_quadratic(w: float = 1.0, lr: float = 0.5, steps: int = 5) -> QuadraticRun:
    """Run ``torch.optim.SGD`` on L = 0.5 w² and record the trajectory.

    One step gives w_new = (1 - lr) w. lr = 0.5 halves w every step; lr = 2.2
    flips the sign and multiplies |w| by 1.2, so the loss grows by 1.44 per
    step. The threshold lr = 2 belongs to this quadratic, not to networks in general.
    """
    if steps < 0:
        raise ValueError(f"steps must be >= 0, got {steps}")
    param = torch.tensor(w, dtype=torch.float64, requires_grad=True)
    optimizer = torch.optim.SGD([param], lr=lr)
    weights = [param.item()]
    for _ in range(steps):
        optimizer.zero_grad()
        loss = 0.5 * param**2
        loss.backward()
        optimizer.step()
        weights.append(param.item())
    return QuadraticRun(lr=lr, weights=weights, losses=[0.5 * v * v for v in weights])


# ---- confusion counts (stage 7: metrics) ----


@dataclass(frozen=True)
class ConfusionMetrics:
    """Binary metrics from counts; precision/recall are 0.0 when their denominator is 0."""

    tn: int
    fp: int
    fn: int
    tp: int
    accuracy: float
    precision: float
    recall: float


def confusion_metrics(tn: int, fp: int, fn: int, tp: int) -> ConfusionMetrics:
    """Accuracy, precision and recall from a confusion matrix.

    TN=60, FP=10, FN=20, TP=30 gives accuracy 90/120 = 0.75, precision
    30/40 = 0.75 and recall 30/50 = 0.6. Convention (as in the rings report):
    a metric whose denominator is zero is 0.0, e.g. precision when nothing is
    predicted positive.
    """
    if min(tn, fp, fn, tp) < 0:
        raise ValueError("confusion counts must be non-negative")
    total = tn + fp + fn + tp
    return ConfusionMetrics(
        tn=tn,
        fp=fp,
        fn=fn,
        tp=tp,
        accuracy=(tp + tn) / total if total else 0.0,
        precision=tp / (tp + fp) if tp + fp else 0.0,
        recall=tp / (tp + fn) if tp + fn else 0.0,
    )


def confusion_counts(
    logits: torch.Tensor, targets: torch.Tensor, threshold: float = 0.5
) -> ConfusionMetrics:
    """Recompute binary metrics from raw logits and 0/1 targets of any matching numel.

    Predicted class 1 means sigmoid(logit) >= threshold, i.e. logit >= logit(threshold);
    at the usual 0.5 that is logit >= 0. Used to check a repo's own reported metric.
    """
    if not 0.0 < threshold < 1.0:
        raise ValueError(f"threshold must be in (0, 1), got {threshold}")
    logits = logits.detach().reshape(-1)
    targets = targets.detach().reshape(-1)
    if logits.numel() != targets.numel():
        raise ValueError(f"{logits.numel()} logits but {targets.numel()} targets")
    cut = math.log(threshold / (1.0 - threshold))
    predicted = logits >= cut
    actual = targets >= 0.5
    return confusion_metrics(
        tn=int((~predicted & ~actual).sum()),
        fp=int((predicted & ~actual).sum()),
        fn=int((~predicted & actual).sum()),
        tp=int((predicted & actual).sum()),
    )
