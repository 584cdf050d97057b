"""Gradient clipping so tight the update is negligible: `clip_grad_norm_` with a
max_norm below 0.1, `clip_grad_value_` with a clip value below 0.01 (literals,
constants and argparse defaults). Clipping at 1.0 (or 0.25 for RNNs) is ordinary.
"""

from __future__ import annotations

from collections.abc import Iterator

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext, check, finding, observe, spot
from torch_investigate.tools.code.consts import number_value
from torch_investigate.tools.code.flow import Value
from torch_investigate.tools.code.names import last
from torch_investigate.tools.records import Finding

NAME = "tiny_grad_clip"
MIN_NORM = 0.1
MIN_VALUE = 0.01


@check(NAME, "tiny_grad_clip")
def tiny_grad_clip(ctx: CheckContext) -> Iterator[Finding]:
    """clip_grad_norm_(max_norm < 0.1) or clip_grad_value_(clip_value < 0.01)."""
    for unit in ctx.index.units.values():
        for call in unit.call_nodes:
            fn = sx.call_function(call)
            name = last(unit.resolve_callee(fn)[1]) if fn is not None else ""
            if name in ("clip_grad_norm_", "clip_grad_norm"):
                arg, limit, label = sx.argument(call, 1, "max_norm"), MIN_NORM, "max_norm"
            elif name == "clip_grad_value_":
                arg, limit, label = sx.argument(call, 1, "clip_value"), MIN_VALUE, "clip_value"
            else:
                continue
            v = ctx.flow.value(unit, call)
            value = number_value(ctx.analysis, Value(arg, v.frame)) if arg is not None else None
            if value is None or value >= limit or value <= 0:
                continue
            at = spot(ctx, v)
            evidence = [observe(at, f"{label}={value:g}", **{label: value})]
            if arg is not None and sx.number(arg) is None:
                evidence.append(observe(at, f"`{sx.flat(arg)}` resolves to {value:g}"))
            yield finding(
                "tiny_grad_clip",
                at,
                confidence="medium",
                evidence=evidence,
                why=(
                    f"Gradients are clipped to {label}={value:g}; typical gradient norms are "
                    "far larger, so every step is shrunk by orders of magnitude and the "
                    "effective learning rate is tiny: the loss creeps or looks flat."
                ),
                confirm=(
                    "Log the norm clip_grad_norm_ returns (the pre-clip norm) for a few steps; "
                    f"if it is far above {value:g}, raise the threshold at {at.file}:{at.line} "
                    "(e.g. 1.0) or drop the clipping and compare."
                ),
            )
