"""Which modules' parameters an optimizer receives, which modules are frozen, and
whether one module object lies inside another.

Modules are compared as objects (`model.encoder` and `self.model.encoder` both denote
the `Encoder()` built in `Net.__init__`), falling back to the expression text with
`self.` removed when resolution fails.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import Analysis
from torch_investigate.tools.code.event_kinds import manual_update_or_reset
from torch_investigate.tools.code.flow import Obj, Value
from torch_investigate.tools.code.names import is_optimizer, last

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
    """torch.optim constructions, and hand-written updates over `m.parameters()`."""
    return a.memo(
        "optimizers", lambda: [*(_site(a, v) for v in _optimizer_ctors(a)), *_manual_updates(a)]
    )


def _manual_updates(a: Analysis) -> list[OptimizerSite]:
    """`for p in model.parameters(): p.data -= lr * p.grad`: an optimizer written out."""
    sites = []
    for unit in a.index.units.values():
        if b".grad" not in unit.source:
            continue
        for fn_or_root in [unit.tree.root_node, *unit.definitions.values()]:
            for node in sx.descendants(fn_or_root):
                if node.type != "for_statement":
                    continue
                iterable = node.child_by_field_name("right")
                body = node.child_by_field_name("body")
                if iterable is None or body is None or iterable.type != "call":
                    continue
                if sx.method_name(iterable) not in PARAMETER_METHODS:
                    continue
                if not any(manual_update_or_reset(s) == "step" for s in body.named_children):
                    continue
                recv = sx.receiver(iterable)
                frame = a.flow.frame_at(unit, node)
                if recv is None:
                    continue
                source = ParamSource(
                    module_ref(a, Value(recv, frame)), Value(iterable, frame), False
                )
                sites.append(OptimizerSite(Value(node, frame), "manual update", [source], False))
    unique: dict[int, OptimizerSite] = {s.ctor.node.id: s for s in sites}
    return list(unique.values())


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
    if outer.kind == "external" and outer.ctor is not None and depth <= 4:
        return _in_container(a, inner, outer, depth)
    if outer.kind != "instance" or outer.node is None or depth > 4:
        return False
    # `model.features` of one Backbone() is not inside another Backbone(): when both
    # the instance that built inner and outer are known, compare the instances.
    holder = inner.ctor.frame.self_obj if inner.ctor is not None else None
    if (
        holder is not None
        and holder.kind == "instance"
        and holder.ctor is not None
        and outer.ctor is not None
    ):
        return same_object(holder, outer) or inside(a, holder, outer, depth + 1)
    owner = owner_class_id(a, inner)
    if owner is None:
        return False
    if owner == outer.node.id:
        return True
    # inner lives in a class that is itself a submodule of outer
    located = a.flow.class_by_id(owner)
    if located is None:
        return False
    unit, symbol = located
    holder = Obj("instance", unit, unit.definitions.get(symbol.qualname), symbol)
    return _class_inside(a, holder, outer, depth + 1)


def _in_container(a: Analysis, inner: Obj, outer: Obj, depth: int) -> bool:
    """inner is one of the modules a torch container was built from:
    `nn.Sequential(nn.Linear(...), head)` holds that Linear and whatever `head` is."""
    assert outer.ctor is not None
    ctor = outer.ctor.node
    if inner.ctor is not None and inner.ctor.frame.unit is outer.ctor.frame.unit:
        if (
            ctor.start_byte < inner.ctor.node.start_byte
            and inner.ctor.node.end_byte <= ctor.end_byte
        ):
            return True
    args, _ = sx.call_args(ctor)
    for arg in args:
        if arg.type in ("identifier", "attribute"):
            for held in a.flow.objects(Value(arg, outer.ctor.frame), budget=40):
                if held.kind != "unknown" and inside(a, inner, held, depth + 1):
                    return True
    return False


def _class_inside(a: Analysis, holder: Obj, outer: Obj, depth: int) -> bool:
    """Some instance of holder's class is built inside outer's class (transitively)."""
    if holder.node is None or outer.node is None:
        return False
    target = holder.node.id
    graph = a.memo("builds", lambda: _class_builds(a))
    todo, seen = [outer.node.id], set()
    while todo:
        current = todo.pop()
        if current == target:
            return True
        if current in seen:
            continue
        seen.add(current)
        todo.extend(graph.get(current, ()))
    return False


def _class_builds(a: Analysis) -> dict[int, set[int]]:
    """class node id -> ids of the repo classes its methods instantiate (one pass)."""
    graph: dict[int, set[int]] = {}
    class_names = a.index.class_names()
    for unit in a.index.units.values():
        for call in unit.call_nodes:
            fn = sx.call_function(call)
            if fn is None:
                continue
            name_node = fn.child_by_field_name("attribute") if fn.type == "attribute" else fn
            if name_node is None or sx.text(name_node) not in class_names:
                continue
            scope = sx.enclosing_function(call)
            owner = a.flow.class_of_method(scope) if scope is not None else None
            if owner is None:
                continue
            for obj in a.flow.objects(a.flow.value(unit, fn), budget=40):
                if obj.kind == "class" and obj.node is not None:
                    graph.setdefault(owner[2].id, set()).add(obj.node.id)
    return graph


def covers(a: Analysis, source: ModuleRef, target: ModuleRef) -> bool:
    """The parameters of source include those of target."""
    if source.objects and target.objects:
        return any(inside(a, t, s) for t in target.objects for s in source.objects)
    s, t = source.text, target.text
    return t == s or t.startswith(s + ".")


@dataclass(eq=False)
class Freeze:
    """A statement meant to stop some parameters from training."""

    ref: ModuleRef  # the module (or the module owning the frozen tensor)
    at: Value  # the statement
    whole: bool  # every parameter of ref (not one tensor, not a name-filtered subset)
    kind: str  # "requires_grad" or "eval"


def freezes(a: Analysis) -> list[Freeze]:
    """`requires_grad = False`, `requires_grad_(False)` and submodule `.eval()` calls."""
    return a.memo("freezes", lambda: list(_find_freezes(a, False)))


def unfreezes(a: Analysis) -> list[Freeze]:
    """`requires_grad = True` / `requires_grad_()`: a later phase trains them again."""
    return a.memo(
        "unfreezes", lambda: [f for f in _find_freezes(a, True) if f.kind == "requires_grad"]
    )


def _find_freezes(a: Analysis, value: bool):
    for unit in a.index.units.values():
        if b"requires_grad" not in unit.source and b".eval()" not in unit.source:
            continue  # most files never freeze anything: skip the walk
        assignments = [
            b.target.parent for b in _attribute_targets(unit) if b.target.parent is not None
        ]
        for node in sorted([*assignments, *unit.call_nodes], key=lambda n: n.start_byte):
            if node.type == "assignment":
                found = _freeze_assignment(a, unit, node, value)
            else:
                found = _freeze_call(a, unit, node, value)
            if found is not None:
                yield found


def _attribute_targets(unit) -> list:
    """Bindings whose target is `x.requires_grad` anywhere in the file."""
    scopes = unit.scopes
    tables = [scopes.module, *scopes.functions.values()]
    return [
        b
        for table in tables
        for name, bindings in table.items()
        if name.endswith(".requires_grad")
        for b in bindings
        if b.kind == "assign"
    ]


def _freeze_assignment(a: Analysis, unit, node: Node, value: bool) -> Freeze | None:
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    if left is None or right is None or sx.flat(right) != str(value) or left.type != "attribute":
        return None
    attr = left.child_by_field_name("attribute")
    obj = left.child_by_field_name("object")
    if attr is None or obj is None or sx.text(attr) != "requires_grad":
        return None
    v = a.flow.value(unit, node)
    return _freeze_target(a, Value(obj, v.frame), v)


def _freeze_call(a: Analysis, unit, node: Node, value: bool) -> Freeze | None:
    method = sx.method_name(node)
    recv = sx.receiver(node)
    if recv is None:
        return None
    v = a.flow.value(unit, node)
    if method == "requires_grad_":
        arg = sx.argument(node, 0, "requires_grad")
        given = True if arg is None else sx.flat(arg) not in ("False", "0")
        if given != value:
            return None
        return _freeze_target(a, Value(recv, v.frame), v)
    if (
        not value and method == "eval" and recv.type == "attribute"
    ):  # `model.encoder.eval()`: a part of a model; whole-model eval is not a freeze
        return Freeze(module_ref(a, Value(recv, v.frame)), v, True, "eval")
    return None


def _freeze_target(a: Analysis, target: Value, at: Value) -> Freeze | None:
    """`p` of `for p in m.parameters()` -> m; `m.weight` -> m (one tensor); `m` -> m."""
    node = target.node
    if node.type == "identifier":
        for binding, frame in a.flow.lookup(sx.text(node), target.frame, node):
            if binding.kind != "for" or binding.value is None:
                continue
            iterable = binding.value
            if (
                iterable.type == "call"
                and sx.text(sx.call_function(iterable) or iterable) == "list"
            ):
                inner = sx.argument(iterable, 0)
                iterable = inner if inner is not None else iterable
            if iterable.type == "call" and sx.method_name(iterable) in PARAMETER_METHODS:
                recv = sx.receiver(iterable)
                if recv is not None:
                    loop = next(
                        (
                            x
                            for x in sx.ancestors(binding.target)
                            if x.type in ("for_statement", "for_in_clause")
                        ),
                        None,
                    )
                    conditional = _guarded_between(at.node, loop)
                    return Freeze(
                        module_ref(a, Value(recv, frame)), at, not conditional, "requires_grad"
                    )
        return Freeze(module_ref(a, target), at, True, "requires_grad")
    if node.type == "attribute":
        attr = node.child_by_field_name("attribute")
        obj = node.child_by_field_name("object")
        if attr is not None and obj is not None and sx.text(attr) in ("weight", "bias"):
            return Freeze(module_ref(a, Value(obj, target.frame)), at, False, "requires_grad")
        return Freeze(module_ref(a, target), at, True, "requires_grad")
    return None


def _guarded_between(node: Node, loop: Node | None) -> bool:
    """An `if` between node and the loop that binds its variable (a name filter)."""
    for anc in sx.ancestors(node):
        if loop is not None and anc.id == loop.id:
            return False
        if anc.type in ("if_statement", "conditional_expression"):
            return True
    return False


def is_trained(a: Analysis, ref: ModuleRef) -> bool:
    """The module's parameters are optimized and not frozen. Unresolvable -> True (the
    cautious answer for checks that skip frozen modules)."""
    if any(covers(a, f.ref, ref) for f in freezes(a) if f.whole and f.kind == "requires_grad"):
        return False
    opts = optimizers(a)
    if not opts or not ref.objects:
        return True
    if any(o.explicit and not o.sources for o in opts):
        return True
    return any(covers(a, s.module, ref) and not s.filtered for o in opts for s in o.sources)
