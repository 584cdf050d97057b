"""Weight decay large enough to dominate the gradient: >= 0.1 with SGD/Adam/RMSprop
(coupled L2), >= 0.5 with AdamW (decoupled, where 0.1 is common). Low confidence: the
right value depends on the learning rate and the data."""

from __future__ import annotations

from collections.abc import Iterator

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext, check, finding, observe, spot
from torch_investigate.tools.code.consts import number_value
from torch_investigate.tools.code.flow import Value
from torch_investigate.tools.code.params import optimizers
from torch_investigate.tools.records import Finding

NAME = "excessive_weight_decay"
COUPLED_LIMIT = 0.1
DECOUPLED_LIMIT = 0.5


@check(NAME, "excessive_weight_decay")
def excessive_weight_decay(ctx: CheckContext) -> Iterator[Finding]:
    """weight_decay >= 0.1 (>= 0.5 for AdamW)."""
    for opt in optimizers(ctx.analysis):
        arg = sx.argument(opt.ctor.node, None, "weight_decay")
        if arg is None:
            continue
        value = number_value(ctx.analysis, Value(arg, opt.ctor.frame))
        limit = DECOUPLED_LIMIT if opt.name == "AdamW" else COUPLED_LIMIT
        if value is None or value < limit:
            continue
        at = spot(ctx, opt.ctor)
        yield finding(
            "excessive_weight_decay",
            at,
            confidence="low",
            evidence=[observe(at, f"{opt.name} with weight_decay={value:g}", weight_decay=value)],
            why=(
                f"weight_decay={value:g} pulls every weight toward zero each step with a force "
                "that can exceed the loss gradient: weights shrink while the loss stays flat."
            ),
            confirm=(
                "Log the weight norm and the loss for a few hundred steps (norm falling, loss "
                f"flat); then retry with weight_decay=0 (or 1e-4) at {at.file}:{at.line}."
            ),
        )
