"""Loss calls: `F.cross_entropy(out, y)`, `criterion(out, y)`, `self.crit(out, y)`.

A module-form call is recognised by what its callee denotes (an `nn.XLoss()` built
anywhere in the repo and passed around), not by its name.
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import Analysis
from torch_investigate.tools.code.flow import Value
from torch_investigate.tools.code.names import last, loss_class_kind, loss_function_kind
from torch_investigate.tools.code.scopes import Binding


@dataclass(eq=False)
class LossCall:
    value: Value  # the call
    kind: str  # cross_entropy, nll, bce_logits, mse, ...
    name: str  # for messages: `CrossEntropyLoss` or `F.cross_entropy`
    input: Value | None  # what the loss reads as the prediction
    target: Value | None
    ctor: Value | None = None  # module form: where the loss object was built

    @property
    def functional(self) -> bool:
        return self.ctor is None


def loss_calls(a: Analysis) -> list[LossCall]:
    return a.memo("loss_calls", lambda: _find(a))


def _find(a: Analysis) -> list[LossCall]:
    # Module-form calls need a loss object built somewhere in the repo; without one,
    # resolving every call would only cost time.
    builds_losses = any(
        loss_class_kind(unit.resolve_callee(sx.call_function(call))[1]) is not None
        for unit in a.index.units.values()
        for call in unit.call_nodes
    )
    holders = _loss_holder_names(a) if builds_losses else set()
    found: list[LossCall] = []
    for unit in a.index.units.values():
        for call in unit.call_nodes:
            fn = sx.call_function(call)
            if fn is None:
                continue
            v = a.flow.value(unit, call)
            resolved = unit.resolve_callee(fn)[1]
            kind = loss_function_kind(resolved)
            if kind is not None:
                found.append(_make(v, kind, f"F.{last(resolved)}", None))
                continue
            simple = _simple_name(fn)
            if fn.type != "call" and simple not in holders:
                continue
            for obj in a.flow.objects(Value(fn, v.frame), budget=120):
                if obj.kind == "external" and obj.ctor is not None:
                    kind = loss_class_kind(obj.resolved)
                    if kind is not None:
                        found.append(_make(v, kind, last(obj.resolved), obj.ctor))
                        break
    return found


def _make(v: Value, kind: str, name: str, ctor: Value | None) -> LossCall:
    first = sx.argument(v.node, 0, "input")
    second = sx.argument(v.node, 1, "target")
    return LossCall(
        value=v,
        kind=kind,
        name=name,
        input=Value(first, v.frame) if first is not None else None,
        target=Value(second, v.frame) if second is not None else None,
        ctor=ctor,
    )


def _simple_name(fn: Node) -> str:
    if fn.type == "attribute":
        attr = fn.child_by_field_name("attribute")
        return sx.text(attr) if attr is not None else ""
    return sx.text(fn)


def _loss_holder_names(a: Analysis) -> set[str]:
    """Names that may hold a loss object: targets of loss constructions, every parameter
    of a repo function (losses are passed around) and attributes set from parameters."""
    names: set[str] = set()
    for assignment in a.index.assignments:
        if assignment.kind == "loss":
            names.add(assignment.target.rsplit(".", 1)[-1])
    for unit in a.index.units.values():
        for symbol in unit.symbols:
            names.update(symbol.params)
        for node in unit.definitions.values():
            if node.type != "class_definition":
                continue
            for attr, bindings in unit.scopes.class_attributes(node).items():
                if any(_from_name(b) for b in bindings):
                    names.add(attr)
    return names


def _from_name(b: Binding) -> bool:
    return b.value is not None and b.value.type in ("identifier", "attribute", "subscript", "call")
