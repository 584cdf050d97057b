"""The loss a task calls for, read from what the run fed the loss: the targets' values
and dtype and the prediction's shape (the trace's loss calls), not the loss's name.

- integer class ids in [0, C) with one output per class (C > 1): cross-entropy;
- 0/1 targets with one output per sample: BCE-with-logits;
- real-valued targets given to a classification loss: MSE.
"""

from __future__ import annotations

from collections.abc import Iterator

from torch_investigate.agent.fix.mechanical.base import Candidate, FixContext, at
from torch_investigate.evals.seeding import sites
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.records import Finding
from torch_investigate.tools.tracefile.records import LossCall

# loss kind -> (module class, functional name, target cast)
LOSSES = {
    "cross_entropy": ("CrossEntropyLoss", "cross_entropy", ".long()"),
    "bce_logits": ("BCEWithLogitsLoss", "binary_cross_entropy_with_logits", ".float()"),
    "mse": ("MSELoss", "mse_loss", ".float()"),
}
CLASSIFICATION = frozenset({"cross_entropy", "nll", "bce_logits", "bce"})


def _values(c: LossCall) -> list[float] | None:
    hist = c.target.values
    if not hist:
        return None
    try:
        return sorted(float(v) for v in hist)
    except ValueError:
        return None


def wanted(c: LossCall, kind: str) -> str | None:
    """The loss kind the observed call needs, or None when it already fits (or the run
    cannot tell)."""
    shape = c.input.shape
    outputs = shape[1] if len(shape) >= 2 else 1
    values = _values(c)
    integral = values is not None and all(v == int(v) for v in values)
    if integral and values and outputs > 1 and values[0] >= 0 and values[-1] < outputs:
        return None if kind in ("cross_entropy", "nll") else "cross_entropy"
    if integral and values and set(values) <= {0.0, 1.0} and outputs == 1:
        return None if kind in ("bce_logits", "bce") else "bce_logits"
    many = values is None or not integral
    if many and kind in CLASSIFICATION and "float" in c.target.dtype:
        return "mse"
    return None


def right_losses(ctx: FixContext, f: Finding, calls: list[sites.LossCall]) -> Iterator[Candidate]:
    if ctx.trace is None:
        return
    src = ctx.source
    for lc in calls:
        line = sx.line(lc.node)
        seen = [
            c
            for c in ctx.trace.train_loss_calls()
            if c.frame is not None and (c.frame.file, c.frame.line) == (lc.file, line)
        ]
        if not seen:
            continue
        kind = wanted(seen[0], lc.kind)
        if kind is None:
            continue
        cls, fn, cast = LOSSES[kind]
        edits = []
        if lc.ctor is not None:
            nn, imports = src.torch_expr(lc.ctor_file, "torch.nn")
            edits += [*imports, src.replace(lc.ctor_file, lc.ctor, f"{nn}.{cls}()", anchor=True)]
            what = f"`{sx.flat(lc.ctor)}` -> `{nn}.{cls}()` ({at(lc.ctor_file, lc.ctor)})"
        else:
            callee = sx.call_function(lc.node)
            if callee is None:
                continue
            functional, imports = src.torch_expr(lc.file, "torch.nn.functional")
            edits += [*imports, src.replace(lc.file, callee, f"{functional}.{fn}", anchor=True)]
            what = f"`{sx.flat(callee)}` -> `{functional}.{fn}` ({at(lc.file, lc.node)})"
        target = lc.target
        if target is not None and not sx.text(target).endswith(cast):
            edits.append(src.replace(lc.file, target, src.operand(target) + cast))
        yield Candidate(f"{what}: the loss the targets call for", tuple(edits))
