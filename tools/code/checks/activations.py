"""An output activation the loss applies again: softmax into CrossEntropyLoss, softmax
into NLLLoss, sigmoid into BCEWithLogitsLoss, ReLU on logits.

The loss input is traced back through local names, `self.attr`, reshapes and the
model's forward (`model(x)` -> `Net.forward`'s return), so the activation is found
wherever it was applied. log_softmax before NLLLoss is right, and before
cross_entropy harmless (log_softmax is idempotent): neither fires.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from torch_investigate.tools.code.checks.base import (
    CheckContext,
    Spot,
    check,
    finding,
    observe,
    spot,
)
from torch_investigate.tools.code.losses import LossCall, loss_calls
from torch_investigate.tools.records import Finding

NAME = "softmax_before_ce"
MAX_LOSS_EVIDENCE = 3


@dataclass
class _Hit:
    category: str
    activation: str
    at: Spot
    losses: list[tuple[Spot, LossCall]] = field(default_factory=list)
    path: list[str] = field(default_factory=list)


def _category(loss_kind: str, activation: str) -> str | None:
    if loss_kind in ("cross_entropy", "nll") and activation == "softmax":
        return "softmax_before_ce"
    if loss_kind == "bce_logits" and activation in ("sigmoid", "expit"):
        return "sigmoid_before_bce_logits"
    if loss_kind in ("cross_entropy", "bce_logits", "nll") and activation in ("relu", "relu6"):
        return "activation_misuse"  # logits (or log-probabilities) forced >= 0
    return None


@check(NAME, "softmax_before_ce", "sigmoid_before_bce_logits", "activation_misuse")
def activation_before_loss(ctx: CheckContext) -> Iterator[Finding]:
    """An activation on the loss input that the loss applies (or forbids) itself."""
    hits: dict[tuple[str, str, int], _Hit] = {}
    for lc in loss_calls(ctx.analysis):
        if lc.input is None or lc.kind not in ("cross_entropy", "nll", "bce_logits"):
            continue
        for origin in ctx.flow.trace(lc.input):
            name = ctx.flow.describe_call(origin)
            category = _category(lc.kind, name.lower()) if name else None
            if category is None:
                continue
            at = spot(ctx, origin.value)
            hit = hits.setdefault((category, at.file, at.line), _Hit(category, name.lower(), at))
            hit.losses.append((spot(ctx, lc.value), lc))
            if not hit.path:
                hit.path = [p.text for p in origin.path]
    for hit in hits.values():
        yield _finding(hit)


def _finding(hit: _Hit) -> Finding:
    loss_spot, lc = hit.losses[0]
    evidence = [observe(hit.at, f"{hit.activation} applied here", activation=hit.activation)]
    for s, other in hit.losses[:MAX_LOSS_EVIDENCE]:
        evidence.append(
            observe(s, f"its output reaches {other.name} as the input", loss=other.name)
        )
    if len(hit.path) > 2:
        evidence.append(
            observe(
                loss_spot,
                "value path from the loss input back to the activation: " + " <- ".join(hit.path),
                path=hit.path,
            )
        )
    where = f"{hit.at.file}:{hit.at.line}"
    inp = lc.input.text if lc.input is not None else "the loss input"
    if hit.category == "softmax_before_ce" and lc.kind == "nll":
        why = (
            f"{lc.name} expects log-probabilities, but gets softmax probabilities: it then "
            "minimizes -p[y] instead of -log p[y], a weak gradient that vanishes as p "
            "saturates, so training stalls."
        )
        confirm = (
            f"On one batch, check that rows of `{inp}` sum to 1; then use log_softmax "
            f"instead of softmax at {where} and compare the loss curve over a few hundred steps."
        )
        return finding(
            hit.category,
            hit.at,
            confidence="high",
            evidence=evidence,
            why=why,
            confirm=confirm,
            title="softmax output passed to NLLLoss, which expects log-probabilities",
        )
    if hit.category == "softmax_before_ce":
        why = (
            f"{lc.name} applies log_softmax to its input itself; fed probabilities it computes "
            "log_softmax(softmax(z)). The inputs are squeezed into [0, 1], the loss cannot "
            "fall much below its starting value and the gradients are small: learning "
            "stalls or crawls."
        )
        confirm = (
            f"On one batch, check that rows of `{inp}` sum to 1 (provenance: softmax at "
            f"{where}); then pass the logits (drop that softmax) and compare the loss curve "
            "over a few hundred steps."
        )
        return finding(
            hit.category,
            hit.at,
            confidence="high",
            evidence=evidence,
            why=why,
            confirm=confirm,
        )
    if hit.category == "sigmoid_before_bce_logits":
        why = (
            f"{lc.name} applies a sigmoid itself; a sigmoid output gets a second one and lands "
            "in [0.5, 0.73], so predictions cannot approach 0 and the loss flattens early."
        )
        confirm = (
            f"On one batch, check `{inp}` lies in (0, 1); then remove the sigmoid at {where} "
            "(or switch to BCELoss) and compare the loss curves."
        )
        return finding(
            hit.category,
            hit.at,
            confidence="high",
            evidence=evidence,
            why=why,
            confirm=confirm,
        )
    why = (
        f"The logits fed to {lc.name} pass through a ReLU: every class score is >= 0 and "
        "units below zero get no gradient, so the output layer can get stuck."
    )
    confirm = (
        f"Count the zero entries of `{inp}` on one batch; then remove the ReLU at {where} "
        "and compare the loss curves."
    )
    return finding(
        hit.category,
        hit.at,
        confidence="medium",
        evidence=evidence,
        why=why,
        confirm=confirm,
        title="ReLU applied to the logits a classification loss reads",
    )
