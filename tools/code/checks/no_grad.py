"""The training forward run with autograd off: `torch.no_grad()` / `inference_mode()` /
`set_grad_enabled(False)` around a model call whose output reaches the backward'd
loss (in the loop, in a decorated helper, or inside the model's own forward).

Evaluation under no_grad is fine (it does not feed a backward), and so is a frozen
module run under no_grad when its parameters are not optimized (a linear probe, a
target network).
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import LoopContext
from torch_investigate.tools.code.checks.base import (
    CheckContext,
    Spot,
    check,
    finding,
    observe,
    spot,
)
from torch_investigate.tools.code.checks.graph_cuts import (
    backward_root,
    no_grad_block,
    reaches_return,
)
from torch_investigate.tools.code.checks.model_values import (
    forward_methods,
    model_origins,
    upstream_model_calls,
)
from torch_investigate.tools.code.event_kinds import decorated_no_grad
from torch_investigate.tools.code.events import Occurrence
from torch_investigate.tools.code.flow import Origin, Value
from torch_investigate.tools.code.losses import loss_calls
from torch_investigate.tools.code.params import is_trained, module_ref
from torch_investigate.tools.records import Finding

NAME = "no_grad_training"


@check(NAME, "no_grad_training")
def no_grad_training(ctx: CheckContext) -> Iterator[Finding]:
    """A model call that feeds the loss runs with gradients disabled."""
    seen: set[tuple[str, int]] = set()
    for found in [*_in_training_loops(ctx), *_in_forward(ctx)]:
        key = (found.file or "", found.line or 0)
        if key not in seen:
            seen.add(key)
            yield found


def _in_training_loops(ctx: CheckContext) -> Iterator[Finding]:
    a = ctx.analysis
    for loop in a.training_loops:
        occurrences = loop.occurrences
        if loop.loop is not None:  # with the grad state the function enters the loop with
            around = a.programs.flatten(a.program(loop.region))
            occurrences = [o for o in around if loop.loop in o.loops] or occurrences
        forwards = {o.event.value.node.id: o for o in occurrences if o.kind == "forward"}
        outer_off = _loop_runs_without_grad(ctx, loop)
        for back in (o for o in loop.occurrences if o.kind == "backward"):
            root = backward_root(back.event.value)
            if root is None:
                continue
            for origin in _upstream(ctx, root):
                occurrence = forwards.get(origin.node.id)
                disabled = outer_off or (occurrence is not None and occurrence.grad_disabled)
                if not disabled or not _optimized(ctx, origin):
                    continue
                yield _finding(ctx, origin, _cause(ctx, origin, occurrence, outer_off, loop), back)


def _upstream(ctx: CheckContext, root: Value) -> list[Origin]:
    """Model calls feeding the prediction side of the loss (targets are excluded: a
    target network under no_grad is right)."""
    losses = {lc.value.node.id: lc for lc in loss_calls(ctx.analysis)}
    inputs: list[Value] = []
    for origin in ctx.flow.trace(root, dataflow=True, enter_models=False, budget=250):
        for step in origin.path:
            lc = losses.get(step.node.id)
            if lc is not None and lc.input is not None:
                inputs.append(Value(lc.input.node, step.frame))
    starts = inputs or [root]
    found: dict[int, Origin] = {}
    for start in starts:
        for o in upstream_model_calls(ctx.flow, start):
            found.setdefault(o.node.id, o)
    return list(found.values())


def _loop_runs_without_grad(ctx: CheckContext, loop: LoopContext) -> Node | None:
    """The loop itself sits in a no_grad block or a decorated function."""
    region = loop.region
    anchor = loop.loop.value.node if loop.loop is not None else None
    if anchor is not None:
        block = no_grad_block(anchor, region.unit, stop=region.node)
        if block is not None:
            return block
    if region.node is not None and decorated_no_grad(region.node, region.unit):
        return region.node
    return None


def _optimized(ctx: CheckContext, origin: Origin) -> bool:
    fn = sx.call_function(origin.node)
    if fn is None:
        return True
    return is_trained(ctx.analysis, module_ref(ctx.analysis, Value(fn, origin.value.frame)))


def _cause(
    ctx: CheckContext,
    origin: Origin,
    occurrence: Occurrence | None,
    outer: Node | None,
    loop: LoopContext,
) -> Spot:
    """Where gradients were turned off for this call."""
    unit = origin.value.frame.unit
    block = no_grad_block(origin.node, unit)
    if block is not None:
        return spot(ctx, Value(block, origin.value.frame))
    if occurrence is not None:
        for helper in occurrence.via:
            if helper.disables_grad:
                return spot(ctx, Value(helper.function, origin.value.frame))
        program = ctx.analysis.program(loop.region)
        for o in reversed(ctx.analysis.programs.flatten(program)):
            if o.kind == "grad_off":
                return spot(ctx, o.event.value)
    if outer is not None:
        return spot(ctx, Value(outer, loop.loop.value.frame if loop.loop else origin.value.frame))
    return spot(ctx, origin.value)


def _finding(ctx: CheckContext, origin: Origin, cause: Spot, back: Occurrence) -> Finding:
    at = spot(ctx, origin.value)
    back_at = spot(ctx, back.event.value)
    return finding(
        "no_grad_training",
        at,
        confidence="high",
        evidence=[
            observe(cause, "autograd is disabled here"),
            observe(at, "for this model call"),
            observe(back_at, "whose output reaches this backward"),
        ],
        why=(
            "Under no_grad the call records no graph: the parameters it uses get no gradient "
            "(backward raises if nothing else requires grad, or silently skips them when "
            "another branch does), so that part of the model never trains."
        ),
        confirm=(
            f"Print torch.is_grad_enabled() just before {at.file}:{at.line} during training "
            "(False), and the output's requires_grad; then move the call out of the "
            "no-grad context and check those parameters get gradients."
        ),
    )


def _in_forward(ctx: CheckContext) -> Iterator[Finding]:
    """A model's own forward decorated with, or computing its output inside, no_grad."""
    used = _trained_classes(ctx)
    for fm in forward_methods(ctx.analysis):
        if used is not None and fm.symbol.id not in used:
            continue
        if decorated_no_grad(fm.node, fm.unit):
            at = spot(ctx, Value(fm.node, fm.frame))
            yield finding(
                "no_grad_training",
                at,
                confidence="high",
                evidence=[
                    observe(at, f"{fm.symbol.name}.forward is decorated to run without gradients")
                ],
                why="Every call of the model records no graph, so no parameter receives a gradient.",
                confirm=(
                    "Check `model(x).requires_grad` in training (False); then remove the "
                    f"decorator at {at.file}:{at.line}."
                ),
            )
            continue
        body = sx.function_body(fm.node)
        if body is None:
            continue
        for node in sx.descendants(body):
            if (
                node.type != "with_statement"
                or no_grad_block(node.named_children[-1], fm.unit, stop=fm.node) is None
            ):
                continue
            for inner in sx.descendants(node):
                if inner.type != "assignment" or not reaches_return(inner, fm.node):
                    continue
                right = inner.child_by_field_name("right")
                origins = (
                    model_origins(ctx.flow, Value(right, fm.frame)) if right is not None else []
                )
                if origins and all(_optimized(ctx, o) for o in origins):
                    at = spot(ctx, Value(inner, fm.frame))
                    yield finding(
                        "no_grad_training",
                        at,
                        confidence="medium",
                        evidence=[
                            observe(
                                spot(ctx, Value(node, fm.frame)),
                                f"{fm.symbol.name}.forward disables gradients here",
                            ),
                            observe(at, "around a layer whose output the forward returns"),
                        ],
                        why=(
                            "The layers called inside the block record no graph in training "
                            "either, so their parameters never receive a gradient."
                        ),
                        confirm=(
                            "After one backward, print .grad of a parameter of that layer "
                            f"(None); then move {at.file}:{at.line} out of the block."
                        ),
                    )
                    break


def _trained_classes(ctx: CheckContext) -> set[str] | None:
    """Model classes called in training loops (None when none could be resolved)."""
    out: set[str] = set()
    for loop in ctx.analysis.training_loops:
        for o in loop.occurrences:
            if o.kind == "forward":
                out |= {obj.symbol.id for obj in o.event.objects if obj.symbol is not None}
    return out or None
