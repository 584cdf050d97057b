"""Following values through the repo: what an expression holds and where it came from.

Two questions the checks ask, both answered across local names, `self.attr`,
parameters (through the repo's call sites) and return values:

* `objects(v)`: which object an expression denotes, for callees and receivers:
  `self.crit` -> the `nn.CrossEntropyLoss()` built in `Trainer.__init__`'s caller,
  `model` -> an instance of the repo class `Net`.
* `trace(v)`: where a value comes from. In identity mode only operations that keep
  the value (`.view`, `[...]`, `.to`) are followed, so `probs.view(-1, C)` traces to
  the `F.softmax(...)` that made it; in dataflow mode arithmetic and tensor methods are
  followed too, and every node passed is on the path (so a `.detach()` on the way is
  visible).

Everything is bounded (a step budget per question, shared by the questions it nests, a
depth for call chains) because static resolution of Python is a heuristic: an
unresolved name is an `unknown` object or a `name` origin, never an error. This module
answers `objects`; `tools.code.provenance` walks values for `trace`; the value types
live in `tools.code.values`.
"""

from __future__ import annotations

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.flow_objects import ObjectResolution
from torch_investigate.tools.code.index import CodeIndex
from torch_investigate.tools.code.names import last
from torch_investigate.tools.code.provenance import Tracer
from torch_investigate.tools.code.records import Symbol
from torch_investigate.tools.code.scopes import Binding, class_methods
from torch_investigate.tools.code.values import (
    SHARED_BUDGET,
    STEP_BUDGET,
    EvalContext,
    Obj,
    Origin,
    Value,
)

__all__ = ["Flow", "EvalContext", "Obj", "Origin", "Value"]


class Flow(ObjectResolution):
    def __init__(self, index: CodeIndex) -> None:
        self.index = index
        self._callers: dict[int, list[Value]] | None = None
        self._active: set[tuple[object, ...]] = set()  # objects() questions in progress
        self._memo: dict[tuple[object, ...], list[Obj]] = {}
        self._memo_enabled = True
        self._shared_budget = SHARED_BUDGET
        self._returns: dict[int, list[Node]] = {}  # function node id -> returned expressions
        self._tracer = Tracer(self)
        self._classes: dict[int, tuple[FileUnit, Symbol]] = {}
        for unit in index.units.values():
            for s in unit.symbols:
                if s.kind == "class":
                    node = unit.definitions.get(s.qualname)
                    if node is not None:
                        self._classes[node.id] = (unit, s)

    # ---- frames and values ---------------------------------------------------------

    def frame_at(self, unit: FileUnit, node: Node) -> EvalContext:
        return EvalContext(unit, sx.enclosing_function(node))

    def value(self, unit: FileUnit, node: Node) -> Value:
        return Value(node, self.frame_at(unit, node))

    def bindings(self, frame: EvalContext) -> dict[str, list[Binding]]:
        return frame.unit.scopes.of_function(frame.scope)

    def class_of_method(self, fn: Node) -> tuple[FileUnit, Symbol, Node] | None:
        """The class whose body defines fn directly."""
        parent = fn.parent
        if parent is not None and parent.type == "decorated_definition":
            parent = parent.parent
        if parent is None or parent.type != "block" or parent.parent is None:
            return None
        cls = parent.parent
        if cls.type != "class_definition" or cls.id not in self._classes:
            return None
        unit, symbol = self._classes[cls.id]
        return unit, symbol, cls

    def class_by_id(self, node_id: int) -> tuple[FileUnit, Symbol] | None:
        """The repo class whose definition node has this id."""
        return self._classes.get(node_id)

    def class_node(self, symbol: Symbol) -> tuple[FileUnit, Node] | None:
        unit = self.index.units.get(symbol.file)
        node = unit.definitions.get(symbol.qualname) if unit is not None else None
        return (unit, node) if unit is not None and node is not None else None

    def class_chain(self, symbol: Symbol) -> list[Symbol]:
        """The class and its repo base classes, nearest first."""
        chain: list[Symbol] = []
        todo = [symbol]
        while todo and len(chain) < 8:
            current = todo.pop(0)
            if any(c.id == current.id for c in chain):
                continue
            chain.append(current)
            for base in current.bases:
                found = self.index.find_class(base.split("[", 1)[0], current.file)
                if found is not None:
                    todo.append(found)
        return chain

    def attribute_bindings(self, symbol: Symbol, attr: str) -> list[tuple[FileUnit, Binding]]:
        out: list[tuple[FileUnit, Binding]] = []
        for cls in self.class_chain(symbol):
            located = self.class_node(cls)
            if located is None:
                continue
            unit, node = located
            table = unit.scopes.class_attributes(node)
            out += [(unit, b) for b in table.get(attr, [])]
            if out:
                break
        return out

    def method(self, symbol: Symbol, name: str) -> tuple[FileUnit, Node] | None:
        for cls in self.class_chain(symbol):
            located = self.class_node(cls)
            if located is None:
                continue
            unit, node = located
            for m in class_methods(node):
                if sx.function_name(m) == name:
                    return unit, m
        return None

    # ---- names -----------------------------------------------------------------------

    def lookup(self, name: str, frame: EvalContext, at: Node) -> list[tuple[Binding, EvalContext]]:
        """Bindings of name visible at node `at`: the latest before it in the same scope
        (plus later ones inside an enclosing loop, which a later iteration sees), then
        enclosing functions, then the module."""
        current: EvalContext | None = frame
        while current is not None:
            table = self.bindings(current)
            found = table.get(name)
            if found:
                if current is not frame:  # an outer scope: the function runs after it all
                    return [(b, current) for b in found[-3:]]
                return [(b, current) for b in _visible(found, at, current.scope)]
            current = self._outer_frame(current)
        return []

    def _outer_frame(self, frame: EvalContext) -> EvalContext | None:
        if frame.scope is None:
            return None
        outer = sx.enclosing_function(frame.scope)
        return EvalContext(frame.unit, outer)

    def binding_values(self, binding: Binding, frame: EvalContext) -> list[Value | Obj]:
        """What a binding may hold, as values to follow or objects it denotes."""
        if binding.kind == "param":
            return self.param_values(binding.name, frame)
        if binding.kind == "def":
            assert binding.value is not None
            return [self._definition_obj(frame.unit, binding.value)]
        if binding.value is None:
            return []
        if binding.kind == "for":
            return [Value(binding.value, frame, binding.index)]  # element of the iterable
        return [Value(binding.value, frame, binding.index)]

    def param_values(self, name: str, frame: EvalContext) -> list[Value | Obj]:
        if name in frame.bound:
            return [frame.bound[name]]
        scope = frame.scope
        if scope is None:
            return []
        params = sx.parameter_names(scope)
        owner = self.class_of_method(scope)
        if owner is not None and params and params[0] == name and not _is_static(scope):
            if frame.self_obj is not None:
                return [frame.self_obj]
            unit, symbol, node = owner
            return [Obj("instance", unit, node, symbol)]
        out: list[Value | Obj] = []
        for call in self.callers(scope)[:12]:
            arg = self.argument_for(scope, call, name)
            if arg is not None:
                out.append(arg)
        default = sx.parameter_default(scope, name)
        if default is not None:
            out.append(Value(default, EvalContext(frame.unit, sx.enclosing_function(scope))))
        # An annotation naming a repo class is the declared type: an instance of it (with
        # no constructor, so it matches any instance) whatever the callers pass.
        annotation = sx.parameter_annotation(scope, name)
        dotted = sx.dotted(annotation)
        found = self.index.find_class(dotted, frame.unit.file) if dotted else None
        located = self.class_node(found) if found is not None else None
        if found is not None and located is not None:
            out.append(Obj("instance", located[0], located[1], found))
        return out

    def argument_for(self, fn: Node, call: Value, name: str) -> Value | None:
        """The argument a call passes for parameter `name` of fn."""
        params = sx.parameter_names(fn)
        positional, keywords = sx.call_args(call.node)
        if name in keywords:
            return Value(keywords[name], call.frame)
        # Methods are called through an instance (`obj.m(a)`, `Net(a)`, `model(x)`), so
        # the first argument fills the parameter after `self`.
        offset = 1 if self.class_of_method(fn) is not None and not _is_static(fn) else 0
        try:
            position = params.index(name) - offset
        except ValueError:
            return None
        if 0 <= position < len(positional) and positional[position].type not in (
            "list_splat",
            "dictionary_splat",
        ):
            return Value(positional[position], call.frame)
        return None

    def bind_call(
        self, fn: FileUnit, fn_node: Node, call: Value, self_obj: Obj | None
    ) -> EvalContext:
        bound: dict[str, Value] = {}
        for name in sx.parameter_names(fn_node):
            arg = self.argument_for(fn_node, call, name)
            if arg is not None:
                bound[name] = arg
        return EvalContext(fn, fn_node, bound, self_obj, call.frame.depth + 1)

    # ---- callers -----------------------------------------------------------------------

    def callers(self, definition: Node) -> list[Value]:
        """Repo call sites of a function, or constructor calls of a class (for __init__)."""
        if self._callers is None:
            # Lookups made while the table is built see it empty; their answers are
            # partial, so nothing is memoized until it is complete.
            self._callers = {}
            self._memo_enabled = False
            try:
                self._callers = self._build_callers()
            finally:
                self._memo_enabled = True
        self._shared_budget = SHARED_BUDGET
        key = definition.id
        if sx.function_name(definition) == "__init__":
            owner = self.class_of_method(definition)
            if owner is not None:
                key = owner[2].id
        return self._callers.get(key, [])

    def _build_callers(self) -> dict[int, list[Value]]:
        names: set[str] = set()
        for unit in self.index.units.values():
            names.update(q.rsplit(".", 1)[-1] for q in unit.definitions)
        names |= self._instance_names(names)
        table: dict[int, list[Value]] = {}
        for unit in self.index.units.values():
            for call in unit.call_nodes:
                fn = sx.call_function(call)
                if fn is None:
                    continue
                name_node = fn.child_by_field_name("attribute") if fn.type == "attribute" else fn
                if name_node is None or sx.text(name_node) not in names:
                    continue
                v = self.value(unit, call)
                for obj in self.objects(Value(fn, v.frame), budget=60):
                    if obj.kind in ("function", "class") and obj.node is not None:
                        table.setdefault(obj.node.id, []).append(v)
                    elif obj.kind == "instance" and obj.node is not None:
                        # `model(x, y)` runs the class's forward (through nn.Module's
                        # __call__) or its own __call__
                        for method in class_methods(obj.node):
                            if sx.function_name(method) in ("forward", "__call__"):
                                table.setdefault(method.id, []).append(v)
        return table

    def _instance_names(self, definitions: set[str]) -> set[str]:
        """Names an instance of a repo class is bound to (`model = GPT(cfg)`,
        `self.net = Net()`): calls through them are calls of the class's forward."""
        out: set[str] = set()
        for unit in self.index.units.values():
            for call in unit.call_nodes:
                fn = sx.call_function(call)
                parent = call.parent
                if fn is None or parent is None or parent.type != "assignment":
                    continue
                if sx.text(fn).rsplit(".", 1)[-1] not in definitions:
                    continue
                left = parent.child_by_field_name("left")
                if left is not None and left.type in ("identifier", "attribute"):
                    out.add(sx.text(left).rsplit(".", 1)[-1])
        return out

    # ---- tracing values ----------------------------------------------------------------

    def trace(
        self,
        start: Value,
        *,
        dataflow: bool = False,
        enter_models: bool = True,
        budget: int = STEP_BUDGET,
    ) -> list[Origin]:
        """Where the value of start comes from (see the module docstring)."""
        return self._tracer.trace(
            start, dataflow=dataflow, enter_models=enter_models, budget=budget
        )

    # ---- conveniences ------------------------------------------------------------------

    def describe_call(self, origin: Origin) -> str | None:
        """What a terminal call computes: `softmax` for F.softmax/torch.softmax/x.softmax(),
        `Softmax` for a call of an nn.Softmax module, None when unknown."""
        if origin.kind == "module_call" and origin.module is not None:
            return origin.module.name or None
        if origin.kind != "call" or origin.node.type != "call":
            return None
        fn = sx.call_function(origin.node)
        if fn is None:
            return None
        resolved = origin.value.frame.unit.resolve_callee(fn)[1]
        if resolved.startswith(("torch.", "numpy.", "scipy.")):
            return last(resolved)
        method = sx.method_name(origin.node)
        if method is not None:
            return method
        return last(resolved) if resolved else None


def _visible(found: list[Binding], at: Node, scope: Node | None) -> list[Binding]:
    before = [b for b in found if b.target.start_byte < at.start_byte and not _inside(at, b)]
    if not before:
        return found if scope is None or found[0].kind != "param" else found[:1]
    latest = before[-1]
    chosen = [latest]
    if latest.kind == "param":
        return chosen
    # Inside a loop, a binding later in the loop body reaches the next iteration.
    loop = _enclosing_loop(at, scope)
    if loop is not None:
        chosen += [
            b for b in found if b.target.start_byte > at.start_byte and sx.contains(loop, b.target)
        ]
    return chosen


def _inside(at: Node, binding: Binding) -> bool:
    """`x = f(x)`: the use on the right does not see the binding it is part of."""
    if binding.kind in ("assign", "augassign") and binding.value is not None:
        return sx.contains(binding.value, at)
    return False


def _enclosing_loop(node: Node, scope: Node | None) -> Node | None:
    for anc in sx.ancestors(node):
        if scope is not None and anc.id == scope.id:
            return None
        if anc.type in sx.LOOP_TYPES:
            return anc
    return None


def _is_static(fn: Node) -> bool:
    parent = fn.parent
    if parent is None or parent.type != "decorated_definition":
        return False
    return any(sx.flat(d) == "staticmethod" for d in sx.decorators_of(fn))
