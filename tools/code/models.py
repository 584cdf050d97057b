"""Facts about the repo's nn.Module classes: their submodules, whether they behave
differently in train() and eval(), what forward reads."""

from __future__ import annotations

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import Analysis
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.flow import Obj
from torch_investigate.tools.code.names import (
    BATCHNORM_LAYERS,
    CONTAINER_LAYERS,
    MODE_DEPENDENT_LAYERS,
    PARAMETERIZED_LAYERS,
    is_parameter_ctor,
    last,
    torch_layer,
)
from torch_investigate.tools.code.records import Symbol

MODE_DEPENDENT_FUNCTIONS = frozenset(
    {"dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "batch_norm"}
)


def class_calls(a: Analysis, symbol: Symbol) -> list[tuple[FileUnit, Node, str]]:
    """(unit, call, resolved callee) of every call inside the class and its repo bases."""
    out = []
    for cls in a.flow.class_chain(symbol):
        located = a.flow.class_node(cls)
        if located is None:
            continue
        unit, node = located
        for call in unit.call_nodes:
            if node.start_byte <= call.start_byte < node.end_byte:
                fn = sx.call_function(call)
                out.append((unit, call, unit.resolve_callee(fn)[1] if fn is not None else ""))
    return out


def _uses_layers(
    a: Analysis, symbol: Symbol, layers: frozenset[str], functions: frozenset[str], seen: set[str]
) -> bool:
    if symbol.id in seen:
        return False
    seen.add(symbol.id)
    for unit, _call, resolved in class_calls(a, symbol):
        name = last(resolved)
        if torch_layer(resolved) in layers:
            return True
        if resolved.startswith("torch.nn.functional.") and name in functions:
            return True
        if name[:1].isupper():
            repo = a.index.find_class(resolved if "." not in resolved else name, unit.file)
            if (
                repo is not None
                and repo.is_nn_module
                and _uses_layers(a, repo, layers, functions, seen)
            ):
                return True
    return False


def has_mode_dependent_layers(a: Analysis, symbol: Symbol) -> bool:
    """Dropout or BatchNorm anywhere in the class or the repo modules it builds."""
    return _uses_layers(a, symbol, MODE_DEPENDENT_LAYERS, MODE_DEPENDENT_FUNCTIONS, set())


def mode_dependent(a: Analysis, obj: Obj) -> bool:
    """The module behaves differently in train() and eval(): a repo class with dropout or
    BatchNorm, or a torch container (`nn.Sequential(...)`) built with one."""
    if obj.kind == "instance" and obj.symbol is not None:
        return has_mode_dependent_layers(a, obj.symbol)
    if obj.kind != "external" or obj.ctor is None:
        return False
    if torch_layer(obj.resolved) in MODE_DEPENDENT_LAYERS:
        return True
    unit = obj.ctor.frame.unit
    for call in sx.calls_in(obj.ctor.node):
        fn = sx.call_function(call)
        resolved = unit.resolve_callee(fn)[1] if fn is not None else ""
        if torch_layer(resolved) in MODE_DEPENDENT_LAYERS:
            return True
        repo = (
            a.index.find_class(last(resolved), unit.file) if last(resolved)[:1].isupper() else None
        )
        if repo is not None and repo.is_nn_module and has_mode_dependent_layers(a, repo):
            return True
    return False


def has_batchnorm(a: Analysis, symbol: Symbol) -> bool:
    return _uses_layers(a, symbol, BATCHNORM_LAYERS, frozenset({"batch_norm"}), set())


def parameterized_submodules(a: Analysis, symbol: Symbol) -> dict[str, list[Obj]]:
    """attr -> the objects `self.attr` holds, for attributes that own parameters
    (torch layers with weights, containers, repo modules, nn.Parameter)."""
    out: dict[str, list[Obj]] = {}
    for cls in a.flow.class_chain(symbol):
        located = a.flow.class_node(cls)
        if located is None:
            continue
        unit, node = located
        for attr, bindings in unit.scopes.class_attributes(node).items():
            if attr in out:
                continue
            for b in bindings:
                if b.value is None or b.value.type != "call":
                    continue
                fn = sx.call_function(b.value)
                resolved = unit.resolve_callee(fn)[1] if fn is not None else ""
                layer = torch_layer(resolved)
                if (
                    is_parameter_ctor(resolved)
                    or layer in PARAMETERIZED_LAYERS
                    or layer in CONTAINER_LAYERS
                ):
                    out.setdefault(attr, [])
                    continue
                if layer is None and last(resolved)[:1].isupper():
                    repo = a.index.find_class(last(resolved), unit.file)
                    if repo is not None and repo.is_nn_module:
                        out.setdefault(attr, [])
    return out


def forward_reads(a: Analysis, symbol: Symbol) -> set[str]:
    """Attributes `self.X` read in forward (and the methods forward calls on self)."""
    located = a.flow.method(symbol, "forward")
    if located is None:
        return set()
    unit, fn = located
    seen_methods: set[int] = set()
    reads: set[str] = set()
    todo = [fn]
    while todo:
        current = todo.pop()
        if current.id in seen_methods:
            continue
        seen_methods.add(current.id)
        body = sx.function_body(current)
        if body is None:
            continue
        for node in sx.descendants(body):
            if node.type != "attribute":
                continue
            obj = node.child_by_field_name("object")
            attr = node.child_by_field_name("attribute")
            if obj is None or attr is None or sx.text(obj) != "self":
                continue
            name = sx.text(attr)
            reads.add(name)
            method = a.flow.method(symbol, name)
            if method is not None:
                todo.append(method[1])
    return reads
