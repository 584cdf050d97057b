"""Parameters the module does not register: layers kept in plain lists/dicts or weights
kept as plain tensors (invisible to `model.parameters()`), and layers or parameters
created inside `forward` (fresh random weights on every call).

`nn.ModuleList` / `nn.ModuleDict` / `nn.ParameterList`, a plain list later passed to
`nn.Sequential(*layers)`, a list of already registered attributes, and lazily built
layers (`if self.fc is None:`) are fine.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext, check, finding, observe, spot
from torch_investigate.tools.code.checks.model_values import forward_methods
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.flow import EvalContext, Value
from torch_investigate.tools.code.models import forward_reads
from torch_investigate.tools.code.names import (
    CONTAINER_LAYERS,
    PARAMETERIZED_LAYERS,
    is_parameter_ctor,
    last,
    torch_layer,
)
from torch_investigate.tools.code.records import Symbol
from torch_investigate.tools.records import Finding

REGISTERING_CALLS = frozenset({"add_module", "register_module", "register_parameter", "setattr"})


@check("unregistered_parameters", "unregistered_parameters")
def unregistered_parameters(ctx: CheckContext) -> Iterator[Finding]:
    """Layers in plain lists/dicts, or trainable tensors as plain attributes."""
    for cls in ctx.index.module_classes():
        located = ctx.flow.class_node(cls)
        if located is None:
            continue
        unit, node = located
        reads = forward_reads(ctx.analysis, cls)
        registered = _registered_elsewhere(unit, node)
        for attr, bindings in unit.scopes.class_attributes(node).items():
            if attr not in reads or attr in registered:
                continue
            for b in bindings:
                if b.value is None or b.scope is None:
                    continue
                what = _unregistered(ctx, unit, b.value, node, attr)
                if what is not None:
                    at_node, description = what
                    yield _unregistered_finding(ctx, unit, at_node, cls, attr, description)
                    break


def _registered_elsewhere(unit: FileUnit, class_node: Node) -> set[str]:
    """Attributes passed to a container or registration call inside the class."""
    out: set[str] = set()
    for call in unit.call_nodes:
        if not (class_node.start_byte <= call.start_byte < class_node.end_byte):
            continue
        fn = sx.call_function(call)
        resolved = unit.resolve_callee(fn)[1] if fn is not None else ""
        if torch_layer(resolved) in CONTAINER_LAYERS or last(resolved) in REGISTERING_CALLS:
            args = call.child_by_field_name("arguments")
            if args is None:
                continue
            for d in sx.descendants(args):
                if (
                    d.type == "attribute"
                    and sx.text(d.child_by_field_name("object") or d) == "self"
                ):
                    attr = d.child_by_field_name("attribute")
                    if attr is not None:
                        out.add(sx.text(attr))
    return out


def _is_module_ctor(unit: FileUnit, node: Node, ctx: CheckContext) -> bool:
    if node.type != "call":
        return False
    fn = sx.call_function(node)
    if fn is None:
        return False
    resolved = unit.resolve_callee(fn)[1]
    if torch_layer(resolved) is not None:
        return True
    repo = ctx.index.find_class(last(resolved), unit.file) if last(resolved)[:1].isupper() else None
    return repo is not None and repo.is_nn_module


def _trainable_tensor(node: Node) -> bool:
    """`torch.randn(..., requires_grad=True)` or `....requires_grad_()` (a plain tensor)."""
    if node.type != "call":
        return False
    if sx.method_name(node) == "requires_grad_":
        arg = sx.argument(node, 0, "requires_grad")
        return arg is None or sx.flat(arg) == "True"
    flag = sx.argument(node, None, "requires_grad")
    return flag is not None and sx.flat(flag) == "True"


def _unregistered(
    ctx: CheckContext, unit: FileUnit, value: Node, class_node: Node, attr: str
) -> tuple[Node, str] | None:
    if value.type == "call" and sx.text(sx.call_function(value) or value) in ("list", "tuple"):
        inner = sx.argument(value, 0)  # `list(nn.Linear(a, b) for ...)`
        if inner is not None:
            value = inner
    if value.type in ("list", "tuple", "set"):
        elements = [c for c in value.named_children if c.type != "comment"]
        if any(_is_module_ctor(unit, e, ctx) for e in elements):
            return value, "a plain list of layers"
    if value.type in ("list_comprehension", "generator_expression"):
        body = value.child_by_field_name("body")
        if body is not None and _is_module_ctor(unit, body, ctx):
            return value, "a plain list of layers"
    if value.type in ("dictionary", "dictionary_comprehension"):
        values = [p.child_by_field_name("value") for p in value.named_children if p.type == "pair"]
        if value.type == "dictionary_comprehension":
            body = value.child_by_field_name("body")
            values = [body.child_by_field_name("value")] if body is not None else []
        if any(v is not None and _is_module_ctor(unit, v, ctx) for v in values):
            return value, "a plain dict of layers"
    if value.type == "call" and _trainable_tensor(value):
        fn = sx.call_function(value)
        if fn is not None and not is_parameter_ctor(unit.resolve_callee(fn)[1]):
            return value, "a plain tensor with requires_grad=True (not an nn.Parameter)"
    if (
        value.type in ("list", "dictionary")
        and not value.named_children
        or sx.flat(value) in ("list()", "dict()")
    ):
        return _filled_later(ctx, unit, class_node, attr)
    return None


def _filled_later(
    ctx: CheckContext, unit: FileUnit, class_node: Node, attr: str
) -> tuple[Node, str] | None:
    """`self.layers = []` then `self.layers.append(nn.Linear(...))` in the class."""
    for call in unit.call_nodes:
        if not (class_node.start_byte <= call.start_byte < class_node.end_byte):
            continue
        recv = sx.receiver(call)
        if (
            recv is None
            or sx.flat(recv) != f"self.{attr}"
            or sx.method_name(call) not in ("append", "extend", "insert")
        ):
            continue
        args, _ = sx.call_args(call)
        items = args[-1:] if args else []
        for item in items:
            candidates = [item] if item.type != "list" else list(item.named_children)
            for c in candidates:
                if _is_module_ctor(unit, c, ctx) or _bound_to_module(ctx, unit, c):
                    return call, "a plain list filled with layers"
    return None


def _bound_to_module(ctx: CheckContext, unit: FileUnit, node: Node) -> bool:
    """A local name whose value is a layer: `layer = nn.Linear(...)`."""
    if node.type != "identifier":
        return False
    frame = ctx.flow.frame_at(unit, node)
    return any(
        b.value is not None and _is_module_ctor(f.unit, b.value, ctx)
        for b, f in ctx.flow.lookup(sx.text(node), frame, node)
    )


def _unregistered_finding(
    ctx: CheckContext, unit: FileUnit, node: Node, cls: Symbol, attr: str, what: str
) -> Finding:
    at = spot(ctx, (unit.file, node))
    return finding(
        "unregistered_parameters",
        at,
        confidence="high" if "layers" in what else "medium",
        evidence=[
            observe(at, f"`self.{attr}` of {cls.name} is {what}"),
            observe(at, f"{cls.name}.forward uses `self.{attr}`", attribute=attr),
        ],
        why=(
            "nn.Module only registers modules and nn.Parameters assigned as attributes: these "
            "weights are missing from model.parameters(), so the optimizer never updates them "
            "(and .to(device) / state_dict skip them)."
        ),
        confirm=(
            f"Compare sum(p.numel() for p in model.parameters()) with the layers in "
            f"`self.{attr}` (they are missing); then wrap it in nn.ModuleList / nn.ModuleDict "
            f"(or nn.Parameter) at {at.file}:{at.line} and check its weights change."
        ),
    )


@check("params_created_in_forward", "params_created_in_forward")
def params_created_in_forward(ctx: CheckContext) -> Iterator[Finding]:
    """nn layers, nn.Parameter or requires_grad tensors built inside forward."""
    for fm in forward_methods(ctx.analysis):
        for node in _forward_bodies(ctx, fm.symbol, fm.node, fm.frame):
            for call in sx.calls_in(node):
                what = _created(ctx, fm.unit, call)
                if what is None or _lazy(call):
                    continue
                at = spot(ctx, Value(call, fm.frame))
                yield finding(
                    "params_created_in_forward",
                    at,
                    confidence="high",
                    evidence=[
                        observe(at, f"{what} is created on every call of {fm.symbol.name}.forward")
                    ],
                    why=(
                        "Each forward builds fresh, randomly initialized weights that are not "
                        "in model.parameters() when the optimizer is made: whatever a step "
                        "changes is thrown away at the next call, so the output stays random."
                    ),
                    confirm=(
                        "Call the model twice on the same input in eval mode (outputs differ); "
                        f"then build the layer in __init__ instead of {at.file}:{at.line}."
                    ),
                )


def _forward_bodies(ctx: CheckContext, cls: Symbol, fn: Node, frame: EvalContext) -> list[Node]:
    """forward's body and the bodies of the methods it calls on self."""
    out, todo, seen = [], [fn], set()
    while todo:
        current = todo.pop()
        if current.id in seen:
            continue
        seen.add(current.id)
        body = sx.function_body(current)
        if body is None:
            continue
        out.append(body)
        for call in sx.calls_in(body):
            recv = sx.receiver(call)
            name = sx.method_name(call)
            if recv is not None and sx.flat(recv) == "self" and name:
                found = ctx.flow.method(cls, name)
                if found is not None and name != "__init__":
                    todo.append(found[1])
    return out


def _created(ctx: CheckContext, unit: FileUnit, call: Node) -> str | None:
    fn = sx.call_function(call)
    if fn is None:
        return None
    resolved = unit.resolve_callee(fn)[1]
    layer = torch_layer(resolved)
    if layer in PARAMETERIZED_LAYERS:
        return f"nn.{layer}"
    if is_parameter_ctor(resolved):
        return "an nn.Parameter"
    if _trainable_tensor(call) and resolved.startswith("torch."):
        return "a requires_grad tensor"
    if last(resolved)[:1].isupper():
        repo = ctx.index.find_class(last(resolved), unit.file)
        if repo is not None and repo.is_nn_module:
            return f"a {repo.name} module"
    return None


def _lazy(call: Node) -> bool:
    """Built once behind a guard: `if self.fc is None:` / `if not hasattr(self, ...)`."""
    for anc in sx.ancestors(call):
        if anc.type == "function_definition":
            return False
        if anc.type == "if_statement":
            cond = sx.flat(anc.child_by_field_name("condition") or anc)
            if "is None" in cond or "hasattr" in cond or " not in self." in cond:
                return True
    return False
