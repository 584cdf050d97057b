"""A parameters() generator that another consumer exhausted before the optimizer (or the clip) reads it."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import (
    CheckContext,
    finding,
    observe,
    spot,
)
from torch_investigate.tools.code.flow import EvalContext, Value
from torch_investigate.tools.code.names import (
    CLIPPING_FUNCTIONS,
    is_optimizer,
    last,
    looks_like_model,
    torch_layer,
)
from torch_investigate.tools.code.params import (
    PARAMETER_METHODS,
)
from torch_investigate.tools.records import Finding

ITERATING_BUILTINS = frozenset(
    {
        "list",
        "tuple",
        "set",
        "sorted",
        "sum",
        "zip",
        "enumerate",
        "map",
        "filter",
        "any",
        "all",
        "max",
        "min",
    }
)


def _exhausted_generators(ctx: CheckContext) -> Iterator[Finding]:
    for unit in ctx.index.units.values():
        for raw in unit.raw_assignments:
            if (
                raw.target.type != "identifier"
                or sx.method_name(raw.value) not in PARAMETER_METHODS
            ):
                continue
            if raw.value.parent is None or raw.value.parent.type != "assignment":
                continue
            frame = ctx.flow.frame_at(unit, raw.value)
            if not _module_receiver(ctx, Value(raw.value, frame)):
                continue  # `bucket.parameters()` of a DDP bucket returns a list
            uses = _consumers(ctx, unit, raw.target, frame)
            if len(uses) >= 2:
                yield _exhausted_finding(ctx, Value(raw.value, frame), sx.text(raw.target), uses)


def _module_receiver(ctx: CheckContext, call: Value) -> bool:
    """`.parameters()` called on an nn.Module (resolved, or named like a model)."""
    recv = sx.receiver(call.node)
    if recv is None:
        return False
    for obj in ctx.flow.objects(Value(recv, call.frame), budget=60):
        if obj.kind == "instance" and obj.symbol is not None and obj.symbol.is_nn_module:
            return True
        if (
            obj.kind == "external"
            and obj.ctor is not None
            and torch_layer(obj.resolved) is not None
        ):
            return True
    return looks_like_model(sx.flat(recv)) or sx.flat(recv) == "self"


def _consumers(
    ctx: CheckContext, unit, target: Node, frame: EvalContext
) -> list[tuple[Value, str]]:
    """Uses of the generator name that iterate it, in execution order (a use inside a
    loop that starts after the assignment counts twice: it runs again)."""
    name = sx.text(target)
    scope = frame.scope or unit.tree.root_node
    uses: list[tuple[Value, str]] = []
    for node in sx.descendants(scope):
        if node.type != "identifier" or sx.text(node) != name or node.start_byte <= target.end_byte:
            continue
        parent = node.parent
        if (
            parent is None
            or parent.type == "assignment"
            and parent.child_by_field_name("left") == node
        ):
            break  # rebound: later uses see a new generator
        kind = _consumer_kind(ctx, unit, node)
        if kind is None:
            continue
        v = Value(node, frame)
        uses.append((v, kind))
        if _repeated(node, target):  # a loop body runs the consumer again
            uses.append((v, kind))
    return uses


def _repeated(node: Node, after: Node) -> bool:
    """node sits in the body (not the header) of a loop that starts after `after`."""
    for anc in sx.ancestors(node):
        if anc.type not in sx.LOOP_TYPES or anc.start_byte <= after.end_byte:
            continue
        header = [anc.child_by_field_name("right"), anc.child_by_field_name("condition")]
        if not any(part is not None and sx.contains(part, node) for part in header):
            return True
    return False


def _consumer_kind(ctx: CheckContext, unit, node: Node) -> str | None:
    parent = node.parent
    if parent is None:
        return None
    if parent.type == "for_statement" and parent.child_by_field_name("right") == node:
        return "loop"
    if parent.type == "for_in_clause":
        return "loop"
    if parent.type == "pair" and parent.child_by_field_name("value") == node:
        key = parent.child_by_field_name("key")
        if key is not None and sx.text(key).strip("\"'") == "params":
            return "optimizer"  # a param group `{"params": gen, "lr": ...}` an optimizer reads
    if (
        parent.type == "argument_list"
        and parent.parent is not None
        and parent.parent.type == "call"
    ):
        call = parent.parent
        fn = sx.call_function(call)
        resolved = unit.resolve_callee(fn)[1] if fn is not None else ""
        if is_optimizer(resolved):
            return "optimizer"
        if last(resolved) in CLIPPING_FUNCTIONS:
            return "clip"
        if resolved in ITERATING_BUILTINS:
            return "call"
    return None


def _exhausted_finding(
    ctx: CheckContext, made: Value, name: str, uses: list[tuple[Value, str]]
) -> Finding:
    first, first_kind = uses[0]
    victim, victim_kind = uses[1]
    made_at = spot(ctx, made)
    first_at = spot(ctx, first)
    victim_at = spot(ctx, victim)
    evidence = [
        observe(made_at, f"`{name}` is a generator: it can be iterated once"),
        observe(first_at, "the first consumer exhausts it"),
        observe(
            victim_at,
            "so this one receives nothing"
            + (" (it runs again each iteration)" if victim.node.id == first.node.id else ""),
        ),
    ]
    fix = f"make it a list at {made_at.file}:{made_at.line}: `{name} = list(...)`"
    if victim_kind == "optimizer":
        return finding(
            "optimizer_missing_params",
            victim_at,
            confidence="high",
            evidence=evidence,
            why="The optimizer is built from an empty iterator: it owns no parameters (or raises), so nothing is updated.",
            confirm=f"Print len(optimizer.param_groups[0]['params']) (0); then {fix}.",
        )
    return finding(
        "tiny_grad_clip",
        victim_at,
        confidence="high" if victim_kind == "clip" else "medium",
        evidence=evidence,
        why=(
            "The gradient clipping after the first consumer iterates an empty generator: it "
            "clips nothing and reports a zero norm, so the intended limit never applies "
            "(and any logic keyed to the norm is wrong)."
        ),
        confirm=f"Print the norm the clipping call returns (0.0 after the first pass); then {fix}.",
        title="gradient clipping iterates an exhausted parameters() generator",
    )
