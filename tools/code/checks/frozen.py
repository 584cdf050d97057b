"""Parameters frozen (requires_grad=False, or a submodule put in eval() "to freeze it")
while the optimizer still receives them: the intent and the effect disagree.

An intentionally frozen part excluded from the optimizer (a `requires_grad` filter, an
explicit parameter list without it) does not fire; nor does a freeze undone later
(`requires_grad = True` in a fine-tuning phase).
"""

from __future__ import annotations

from collections.abc import Iterator

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext, check, finding, observe, spot
from torch_investigate.tools.code.flow import Value
from torch_investigate.tools.code.names import EVALUATION_NAME
from torch_investigate.tools.code.params import (
    Freeze,
    OptimizerSite,
    ParamSource,
    covers,
    freezes,
    optimizers,
    unfreezes,
)
from torch_investigate.tools.records import Finding

NAME = "frozen_parameters"


@check(NAME, "frozen_parameters")
def frozen_parameters(ctx: CheckContext) -> Iterator[Finding]:
    """requires_grad=False or .eval() on parameters the optimizer is given."""
    a = ctx.analysis
    all_freezes = freezes(a)
    thawed = unfreezes(a)
    for fr in all_freezes:
        covering = [
            (opt, s)
            for opt in optimizers(a)
            for s in opt.sources
            if not s.filtered and covers(a, s.module, fr.ref) and _applies(ctx, fr, opt)
        ]
        if not covering or any(covers(a, u.ref, fr.ref) for u in thawed):
            continue
        if fr.kind == "eval":
            covering = [(o, s) for o, s in covering if not covers(a, fr.ref, s.module)]
            if not covering or EVALUATION_NAME.search(
                ctx.index.enclosing_symbol(fr.at.file, fr.at.line)
            ):
                continue  # the whole model, or an evaluation routine: not a freeze
            if any(f.kind == "requires_grad" and covers(a, f.ref, fr.ref) for f in all_freezes):
                continue  # frozen for real; eval() only fixes BatchNorm/dropout
            yield _eval_finding(ctx, fr, *covering[0])
        else:
            yield _requires_grad_finding(ctx, fr, covering)


def _applies(ctx: CheckContext, fr: Freeze, opt: OptimizerSite) -> bool:
    """The freeze is in force while this optimizer trains: both in one function (or a
    script's top level), the freeze in a model's constructor, or the freezing function
    runs the loop that steps this optimizer. (Freezing the encoder after pretraining,
    for a probe with its own optimizer, is a new phase, not a contradiction.)"""
    where = sx.enclosing_function(fr.at.node)
    if where is None or where == sx.enclosing_function(opt.ctor.node):
        return True
    if sx.function_name(where) == "__init__":
        return True
    for loop in ctx.analysis.training_loops:
        if loop.region.node is None or loop.region.node.id != where.id:
            continue
        for o in loop.occurrences:
            if o.kind == "step" and o.event.receiver is not None:
                objs = ctx.flow.objects(Value(o.event.receiver, o.event.value.frame), budget=60)
                if any(x.ctor is not None and x.ctor.node.id == opt.ctor.node.id for x in objs):
                    return True
    return False


def _requires_grad_finding(
    ctx: CheckContext, fr: Freeze, covering: list[tuple[OptimizerSite, ParamSource]]
) -> Finding:
    a = ctx.analysis
    opt, source = covering[0]
    at = spot(ctx, fr.at)
    everything = fr.whole and any(covers(a, fr.ref, s.module) for _, s in covering)
    what = "all the parameters it optimizes" if everything else f"parameters of `{fr.ref.text}`"
    return finding(
        "frozen_parameters",
        at,
        confidence="medium" if everything else "low",
        evidence=[
            observe(at, f"sets requires_grad=False on {what}"),
            observe(
                spot(ctx, opt.ctor),
                f"yet {opt.name} is given `{source.module.text}.parameters()` without a requires_grad filter",
            ),
        ],
        why=(
            "Frozen tensors get no gradient, so the optimizer skips them: if they were meant "
            "to train (they were handed to the optimizer), that part of the model never "
            "changes" + (" and the loss cannot fall at all." if everything else ".")
        ),
        confirm=(
            "Print [n for n, p in model.named_parameters() if not p.requires_grad] at the "
            f"training step; if those should train, drop the freeze at {at.file}:{at.line} "
            "(or pass only trainable parameters to the optimizer if the freeze is intended)."
        ),
    )


def _eval_finding(
    ctx: CheckContext, fr: Freeze, opt: OptimizerSite, source: ParamSource
) -> Finding:
    at = spot(ctx, fr.at)
    return finding(
        "frozen_parameters",
        at,
        confidence="medium",
        evidence=[
            observe(at, f"puts `{fr.ref.text}` in eval mode, as if to freeze it"),
            observe(
                spot(ctx, opt.ctor),
                f"but {opt.name} still updates it through `{source.module.text}.parameters()`",
            ),
        ],
        why=(
            "eval() only switches dropout and BatchNorm behaviour; the parameters still get "
            "gradients and the optimizer keeps changing them (and a later model.train() "
            "undoes the eval())."
        ),
        confirm=(
            f"Record a weight of `{fr.ref.text}` before and after a few steps (it changes); "
            "if it should stay fixed, set requires_grad_(False) on it and leave it out of "
            "the optimizer."
        ),
        title="a submodule frozen with eval() is still trained by the optimizer",
    )
