"""Helpers several checks share: model-derived values, graph cuts, forward methods."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from tools.code import syntax as sx
from tools.code.analysis import Analysis
from tools.code.events import disables_grad
from tools.code.extract import FileUnit
from tools.code.flow import Flow, Frame, Obj, Origin, Value
from tools.code.names import PARAMETERIZED_LAYERS, last, looks_like_model, torch_layer
from tools.code.records import Symbol
from tools.code.scopes import class_methods

# Names that hold recurrent state (truncated BPTT detaches these on purpose).
STATE_NAME = re.compile(r"hidden|state|(^|_)(hx|cx|mems?|memory)($|_|\d)", re.IGNORECASE)
CUT_METHODS = frozenset({"detach", "item", "numpy", "tolist"})
REWRAP_FUNCTIONS = frozenset(
    {
        "torch.tensor",
        "torch.as_tensor",
        "torch.from_numpy",
        "torch.Tensor",
        "torch.FloatTensor",
        "torch.autograd.Variable",
        "torch.autograd.variable.Variable",
        "numpy.array",
        "numpy.asarray",
        "float",
        "int",
    }
)


@dataclass(frozen=True)
class Cut:
    """An operation whose result carries no gradient back to its operand."""

    how: str  # `.detach()`, `.item()`, `.data`, `torch.tensor(...)`
    node: Node  # the whole cut expression
    operand: Node
    rewrap_requires_grad: bool = False  # torch.tensor(x, requires_grad=True)


def cut_of(node: Node, unit: FileUnit) -> Cut | None:
    if node.type == "call":
        method = sx.method_name(node)
        recv = sx.receiver(node)
        if method in CUT_METHODS and recv is not None:
            return Cut(f".{method}()", node, recv)
        fn = sx.call_function(node)
        resolved = unit.resolve_callee(fn)[1] if fn is not None else ""
        if resolved in REWRAP_FUNCTIONS or (resolved == "Variable"):
            arg = sx.argument(node, 0, "data")
            if arg is None or arg.type in ("list", "tuple", "integer", "float", "string"):
                return None
            flag = sx.argument(node, None, "requires_grad")
            return Cut(
                f"{last(resolved) if '.' in resolved else resolved}(...)",
                node,
                arg,
                flag is not None and sx.flat(flag) == "True",
            )
    if node.type == "attribute":
        attr = node.child_by_field_name("attribute")
        obj = node.child_by_field_name("object")
        if attr is not None and obj is not None and sx.text(attr) == "data":
            parent = node.parent
            if parent is not None and parent.type in ("assignment", "augmented_assignment"):
                if parent.child_by_field_name("left") == node:
                    return None
            if parent is not None and parent.type == "attribute":  # p.data.add_(...)
                return None
            return Cut(".data", node, obj)
    return None


def is_model_origin(o: Origin) -> bool:
    """A value produced by a module with parameters: a repo model, a torch layer."""
    if o.kind == "module_call" and o.module is not None:
        if o.module.kind == "instance":
            return True
        layer = torch_layer(o.module.resolved)
        return layer is not None and (layer in PARAMETERIZED_LAYERS or layer in ("Sequential",))
    if o.kind == "call" and o.node.type == "call":
        fn = sx.call_function(o.node)
        return fn is not None and looks_like_model(sx.flat(fn))
    if o.kind == "element" and o.node.type == "call":  # `for p in model.parameters()`
        return sx.method_name(o.node) in ("parameters", "named_parameters")
    if o.kind == "attribute" and o.node.type == "attribute":  # `self.fc.weight`
        attr = o.node.child_by_field_name("attribute")
        return attr is not None and sx.text(attr) in ("weight", "bias")
    return False


def model_origins(flow: Flow, v: Value) -> list[Origin]:
    return [
        o
        for o in flow.trace(v, dataflow=True, enter_models=False, budget=250)
        if is_model_origin(o)
    ]


def module_objects(origins: list[Origin]) -> list[Obj]:
    return [o.module for o in origins if o.module is not None]


@dataclass(eq=False)
class ForwardMethod:
    unit: FileUnit
    node: Node  # the function_definition
    symbol: Symbol  # the nn.Module class
    frame: Frame


def forward_methods(a: Analysis) -> Iterator[ForwardMethod]:
    """`forward` of every repo nn.Module class, with `self` bound to the class."""
    for cls in a.index.module_classes():
        located = a.flow.class_node(cls)
        if located is None:
            continue
        unit, node = located
        for method in class_methods(node):
            if sx.function_name(method) == "forward":
                frame = Frame(unit, method, {}, Obj("instance", unit, node, cls))
                yield ForwardMethod(unit, method, cls, frame)


def in_no_grad_block(node: Node, unit: FileUnit, stop: Node | None = None) -> bool:
    for anc in sx.ancestors(node):
        if stop is not None and anc.id == stop.id:
            return False
        if anc.type == "with_statement":
            clause = next((c for c in anc.named_children if c.type == "with_clause"), None)
            if clause is not None and any(disables_grad(i, unit) for i in clause.named_children):
                return True
    return False
