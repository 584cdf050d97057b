"""Values that come from a model: outputs of a module with parameters, its parameters,
the `forward` of every repo nn.Module class, and the model calls a value depends on."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import Analysis
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.flow import EvalContext, Flow, Obj, Origin, Value
from torch_investigate.tools.code.names import PARAMETERIZED_LAYERS, looks_like_model, torch_layer
from torch_investigate.tools.code.records import Symbol
from torch_investigate.tools.code.scopes import class_methods


def is_model_origin(o: Origin) -> bool:
    """A value produced by a module with parameters: a repo model, a torch layer."""
    if o.kind == "module_call" and o.module is not None:
        if o.module.kind == "instance":
            return True
        layer = torch_layer(o.module.resolved)
        return layer is not None and (layer in PARAMETERIZED_LAYERS or layer in ("Sequential",))
    if o.kind == "call" and o.node.type == "call":
        fn = sx.call_function(o.node)
        unit = o.value.frame.unit
        return fn is not None and not unit.is_module_function(fn) and looks_like_model(sx.flat(fn))
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
    frame: EvalContext


def forward_methods(a: Analysis) -> Iterator[ForwardMethod]:
    """`forward` of every repo nn.Module class, with `self` bound to the class."""
    for cls in a.index.module_classes():
        located = a.flow.class_node(cls)
        if located is None:
            continue
        unit, node = located
        for method in class_methods(node):
            if sx.function_name(method) == "forward":
                frame = EvalContext(unit, method, {}, Obj("instance", unit, node, cls))
                yield ForwardMethod(unit, method, cls, frame)


def upstream_model_calls(flow: Flow, root: Value, depth: int = 3) -> list[Origin]:
    """Model calls the value depends on: those feeding it directly, then those feeding
    their inputs (`head(encoder(x))` -> head, encoder), up to `depth` levels."""
    found: list[Origin] = []
    seen: set[int] = set()
    frontier = [root]
    for _ in range(depth):
        nxt: list[Value] = []
        for v in frontier:
            for o in model_origins(flow, v):
                if o.node.id in seen:
                    continue
                seen.add(o.node.id)
                found.append(o)
                args = o.node.child_by_field_name("arguments")
                if args is not None:
                    nxt += [Value(a, o.value.frame) for a in args.named_children]
        frontier = nxt
    return found
