"""Which modules' parameters an optimizer receives, which modules are frozen, and
whether one module object lies inside another.

Modules are compared as objects (`model.encoder` and `self.model.encoder` both denote
the `Encoder()` built in `Net.__init__`), falling back to the expression text with
`self.` removed when resolution fails.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from tools.code import syntax as sx
from tools.code.analysis import Analysis
from tools.code.flow import Obj, Value
from tools.code.names import is_optimizer, last

PARAMETER_METHODS = ("parameters", "named_parameters")


@dataclass(eq=False)
class ModuleRef:
    """A module (or parameter) expression and the objects it denotes."""

    value: Value
    objects: list[Obj]

    @property
    def text(self) -> str:
        return normalized_text(self.value.node)


@dataclass(eq=False)
class ParamSource:
    module: ModuleRef  # `model.encoder` in `model.encoder.parameters()`
    call: Value  # the `.parameters()` call
    filtered: bool  # passes through a `requires_grad` filter: frozen ones are excluded


@dataclass(eq=False)
class OptimizerSite:
    ctor: Value
    name: str  # `Adam`
    sources: list[ParamSource]
    explicit: bool  # some parameters are given as plain tensors (`[w, b]`)
    params_arg: Value | None = None
    groups: list[Value] = field(default_factory=list)


def normalized_text(node: Node) -> str:
    text = sx.flat(node).replace(" ", "")
    return text.removeprefix("self.")


def module_ref(a: Analysis, v: Value) -> ModuleRef:
    return ModuleRef(v, [o for o in a.flow.objects(v, budget=120) if o.kind != "unknown"])


def optimizers(a: Analysis) -> list[OptimizerSite]:
    cached = getattr(a, "_optimizers", None)
    if cached is None:
        cached = [_site(a, v) for v in _optimizer_ctors(a)]
        a._optimizers = cached  # type: ignore[attr-defined]
    return cached


def _optimizer_ctors(a: Analysis) -> list[Value]:
    out = []
    for unit in a.index.units.values():
        for call in unit.call_nodes:
            fn = sx.call_function(call)
            if fn is None:
                continue
            resolved = unit.resolve_callee(fn)[1]
            if is_optimizer(resolved) and last(resolved)[:1].isupper():
                out.append(a.flow.value(unit, call))
    return out


def _site(a: Analysis, ctor: Value) -> OptimizerSite:
    fn = sx.call_function(ctor.node)
    name = last(ctor.frame.unit.resolve_callee(fn)[1]) if fn is not None else "optimizer"
    arg = sx.argument(ctor.node, 0, "params")
    if arg is None:
        return OptimizerSite(ctor, name, [], explicit=True)
    params = Value(arg, ctor.frame)
    sources: list[ParamSource] = []
    explicit = False
    for origin in a.flow.trace(params, dataflow=True, enter_models=False, budget=300):
        nodes = [*origin.path, origin.value]
        filtered = any(_is_filter(p.node) for p in nodes)
        found = False
        for p in nodes:
            if p.node.type == "call" and sx.method_name(p.node) in PARAMETER_METHODS:
                recv = sx.receiver(p.node)
                if recv is not None:
                    sources.append(ParamSource(module_ref(a, Value(recv, p.frame)), p, filtered))
                    found = True
                    break
        if not found and origin.kind in ("name", "attribute", "element", "param"):
            explicit = True
    return OptimizerSite(ctor, name, _unique(sources), explicit, params_arg=params)


def _is_filter(node: Node) -> bool:
    """`filter(lambda p: p.requires_grad, ...)` or `[p for p in ... if p.requires_grad]`."""
    if "requires_grad" not in sx.text(node):
        return False
    if node.type == "call":
        fn = sx.call_function(node)
        return fn is not None and sx.text(fn) == "filter"
    return node.type in ("list_comprehension", "generator_expression", "set_comprehension")


def _unique(sources: list[ParamSource]) -> list[ParamSource]:
    seen: set[int] = set()
    out = []
    for s in sources:
        if s.call.node.id not in seen:
            seen.add(s.call.node.id)
            out.append(s)
    return out


def owner_class_id(a: Analysis, obj: Obj) -> int | None:
    """The repo class in whose methods obj was constructed (`self.fc = nn.Linear()`)."""
    if obj.ctor is None or obj.ctor.frame.scope is None:
        return None
    owner = a.flow.class_of_method(obj.ctor.frame.scope)
    return owner[2].id if owner is not None else None


def same_object(a: Obj, b: Obj) -> bool:
    if a.kind != b.kind:
        return False
    if a.kind == "instance":
        if a.node is None or b.node is None or a.node.id != b.node.id:
            return False
        return a.ctor is None or b.ctor is None or a.ctor.node.id == b.ctor.node.id
    if a.kind == "external":
        return a.ctor is not None and b.ctor is not None and a.ctor.node.id == b.ctor.node.id
    return False


def inside(a: Analysis, inner: Obj, outer: Obj, depth: int = 0) -> bool:
    """inner is outer, or a submodule built inside outer's class (transitively)."""
    if same_object(inner, outer):
        return True
    if outer.kind != "instance" or outer.node is None or depth > 4:
        return False
    owner = owner_class_id(a, inner)
    if owner is None:
        return False
    if owner == outer.node.id:
        return True
    # inner lives in a class that is itself a submodule of outer
    for cls_id, (unit, symbol) in a.flow._classes.items():  # noqa: SLF001 - same package
        if cls_id == owner:
            holder = Obj("instance", unit, unit.definitions.get(symbol.qualname), symbol)
            return _class_inside(a, holder, outer, depth + 1)
    return False


def _class_inside(a: Analysis, holder: Obj, outer: Obj, depth: int) -> bool:
    """Some instance of holder's class is built inside outer's class."""
    if holder.node is None or outer.node is None:
        return False
    if holder.node.id == outer.node.id:
        return True
    if depth > 4 or outer.symbol is None:
        return False
    for unit in a.index.units.values():
        for call in unit.call_nodes:
            scope = sx.enclosing_function(call)
            if scope is None:
                continue
            owner = a.flow.class_of_method(scope)
            if owner is None or owner[2].id != outer.node.id:
                continue
            fn = sx.call_function(call)
            if fn is None:
                continue
            for obj in a.flow.objects(a.flow.value(unit, fn), budget=40):
                if obj.kind == "class" and obj.node is not None and obj.node.id == holder.node.id:
                    return True
                if obj.kind == "class" and obj.symbol is not None:
                    sub = Obj("instance", obj.unit, obj.node, obj.symbol)
                    if _class_inside(a, holder, sub, depth + 1):
                        return True
    return False


def covers(a: Analysis, source: ModuleRef, target: ModuleRef) -> bool:
    """The parameters of source include those of target."""
    if source.objects and target.objects:
        return any(inside(a, t, s) for t in target.objects for s in source.objects)
    s, t = source.text, target.text
    return t == s or t.startswith(s + ".")
