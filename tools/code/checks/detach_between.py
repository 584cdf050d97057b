"""The autograd graph cut between two models in the training loop: features cut (detach,
.data, a numpy round trip) before the next model consumes them while the module that made
them is still in the optimizer and not frozen (a frozen encoder by accident)."""

from __future__ import annotations

from collections.abc import Iterator

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext, finding, observe, spot
from torch_investigate.tools.code.checks.graph_cuts import STATE_NAME, assigned_names, cut_of
from torch_investigate.tools.code.checks.model_values import model_origins, module_objects
from torch_investigate.tools.code.flow import Value
from torch_investigate.tools.code.params import covers, freezes, module_ref, optimizers
from torch_investigate.tools.records import Finding


def between_models(ctx: CheckContext) -> Iterator[Finding]:
    a = ctx.analysis
    for loop in a.training_loops:
        if loop.loop is None:
            continue
        body = loop.loop.value.node.child_by_field_name("body")
        if body is None:
            continue
        frame = loop.loop.value.frame
        forwards = [
            o
            for o in loop.occurrences
            if o.kind == "forward" and o.event.value.frame.unit is frame.unit
        ]
        for node in sx.descendants(body):
            cut = cut_of(node, frame.unit)
            if cut is None:
                continue
            statement = sx.statement_of(node)
            targets = [t for t in assigned_names(statement) if "." not in t]
            if not targets or any(STATE_NAME.search(t) for t in targets):
                continue
            if sx.flat(cut.operand) in targets:
                continue
            origins = model_origins(ctx.flow, Value(cut.operand, frame))
            producers = module_objects(origins)
            if not producers or not _still_trained(ctx, Value(cut.operand, frame), origins):
                continue
            consumer = next(
                (
                    f
                    for f in forwards
                    if f.event.value.node.start_byte > statement.end_byte
                    and set(targets)
                    & sx.identifiers_in(
                        f.event.value.node.child_by_field_name("arguments") or f.event.value.node
                    )
                ),
                None,
            )
            if consumer is None:
                continue
            at = spot(ctx, Value(node, frame))
            yield finding(
                "detached_graph",
                at,
                confidence="medium",
                evidence=[
                    observe(
                        spot(ctx, origins[0].value),
                        "features from a module whose parameters the optimizer updates",
                    ),
                    observe(at, f"are cut with {cut.how}"),
                    observe(spot(ctx, consumer.event.value), "before the next model consumes them"),
                ],
                why=(
                    f"Nothing before the {cut.how} gets a gradient: the module producing the "
                    "features is in the optimizer but never changes (a frozen encoder by "
                    "accident)."
                ),
                confirm=(
                    "Record one weight of that module before and after a few steps (unchanged); "
                    f"then remove the {cut.how} at {at.file}:{at.line} and compare."
                ),
            )


def _still_trained(ctx: CheckContext, operand: Value, origins: list) -> bool:
    """The module behind the cut is optimized and not frozen (else the cut is intended)."""
    a = ctx.analysis
    refs = []
    for o in origins:
        fn = sx.call_function(o.node) if o.node.type == "call" else None
        if fn is not None:
            refs.append(module_ref(a, Value(fn, o.value.frame)))
    if not refs:
        return False
    frozen = [
        f for f in freezes(a) if any(covers(a, f.ref, r) or covers(a, r, f.ref) for r in refs)
    ]
    if frozen:
        return False
    return any(
        covers(a, s.module, r) and not s.filtered
        for opt in optimizers(a)
        for s in opt.sources
        for r in refs
    )
