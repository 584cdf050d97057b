"""What an expression is, as far as renaming needs to know: a repo module, a repo class
or an instance of one, a repo function, a library object, an argparse namespace, a
loaded config, or unknown.

It decides whether `x.name` reaches the repo's `name` (rename it with the definition) or a
library's (keep it). Inference is small and local: a name's kind joins the kinds of the
values bound to it; a parameter's joins the arguments at every call the repo makes of
its function (unknown once the function escapes as a value); a call's result is an
instance of the class called, a function's returns, or a library's object. Recursion is
cut by answering unknown, which only ever keeps more names.
"""

from __future__ import annotations

import builtins

from tree_sitter import Node

from torch_investigate.evals.rename.bindings import Binding, Scope, Value, lookup
from torch_investigate.evals.rename.callsyntax import (
    argument_for,
    is_generator,
    is_site,
    returned_values,
)
from torch_investigate.evals.rename.hierarchy import ClassHierarchy
from torch_investigate.evals.rename.kind import (
    CONFIG_LOADERS,
    OPAQUE_CALLS,
    SAME_AS_ARGUMENT,
    SELF_RETURNING,
    UNKNOWN,
    WEAK_LIB,
    Kind,
    join,
)
from torch_investigate.evals.rename.program import (
    ClassInfo,
    FunctionInfo,
    NodeKey,
    Program,
    node_key,
)
from torch_investigate.tools.code.syntax import text


class Kinds:
    def __init__(self, program: Program) -> None:
        self.p = program
        self._bindings: dict[tuple, Kind] = {}
        self._returns: dict[NodeKey, Kind] = {}
        self._params: dict[tuple, Kind] = {}
        self._busy: set[tuple] = set()
        self._calls: dict[NodeKey, list[tuple[Node, Scope, bool]]] | None = None
        self._escaped: set[NodeKey] = set()
        self.classes = ClassHierarchy(program, self.of)

    # ---- expressions -----------------------------------------------------------------

    def of(self, node: Node, scope: Scope) -> Kind:
        t = node.type
        if t == "identifier":
            b = lookup(scope, text(node))
            if b is None:
                b = self.star_binding(scope, text(node))
            if b is None:
                name = text(node)
                return Kind("lib", path=f"builtins.{name}") if hasattr(builtins, name) else UNKNOWN
            return self.binding(b)
        if t == "attribute":
            obj = node.child_by_field_name("object")
            attr = node.child_by_field_name("attribute")
            if obj is None or attr is None:
                return UNKNOWN
            return self.member(self.of(obj, scope), text(attr))
        if t == "call":
            return self.call(node, scope)
        if t == "subscript":
            value = node.child_by_field_name("value")
            k = self.of(value, scope) if value is not None else UNKNOWN
            if k.tag == "config":
                return k
            return WEAK_LIB if k.tag == "lib" else UNKNOWN
        if t in ("parenthesized_expression",) and node.named_children:
            return self.of(node.named_children[0], scope)
        if t in ("conditional_expression",):
            parts = [c for c in node.named_children]
            if len(parts) == 3:
                return join([self.of(parts[0], scope), self.of(parts[2], scope)])
            return UNKNOWN
        if t in ("boolean_operator",):
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if left is not None and right is not None:
                return join([self.of(left, scope), self.of(right, scope)])
            return UNKNOWN
        if t in ("string", "concatenated_string", "integer", "float", "true", "false", "none",
                 "list", "dictionary", "set", "tuple", "list_comprehension",
                 "dictionary_comprehension", "set_comprehension", "generator_expression",
                 "comparison_operator", "not_operator"):  # fmt: skip
            return WEAK_LIB
        return UNKNOWN

    # ---- names -----------------------------------------------------------------------

    def binding(self, b: Binding) -> Kind:
        key = ("b", *b.key)
        if key in self._bindings:
            return self._bindings[key]
        if key in self._busy:
            return UNKNOWN
        self._busy.add(key)
        try:
            k = self._binding(b)
        finally:
            self._busy.discard(key)
        self._bindings[key] = k
        return k

    def _binding(self, b: Binding) -> Kind:
        file = b.scope.file
        if b.role == "class" and b.definition is not None:
            return Kind("class", frozenset({node_key(file, b.definition)}))
        if b.role == "def" and b.definition is not None:
            fn = self.p.function(file, b.definition)
            if fn is not None and fn.is_property:
                return self.returns(fn)
            return Kind("function", frozenset({node_key(file, b.definition)}))
        if b.role == "import":
            kinds = []
            for target in b.imports:
                if target.file is not None and target.name is None:
                    kinds.append(Kind("module", frozenset({target.file})))
                elif target.file is not None and target.name is not None:
                    kinds.append(self.module_member(target.file, target.name))
                else:
                    kinds.append(Kind("lib", path=target.library))
            return join(kinds)
        if b.role == "param":
            return self.param(b)
        kinds = [self._value(v, b.scope) for v in b.values]
        return join(kinds)

    def _value(self, v: Value, scope: Scope) -> Kind:
        if v.node is None:
            return UNKNOWN
        if v.how == "expr":
            if not v.index:
                return self.of(v.node, scope)
            return self._element(v.node, v.index, scope)
        if v.how == "with":
            return self.of(v.node, scope)
        if v.how == "except":
            return Kind("lib", strong=False)
        if v.how == "iter":
            return UNKNOWN  # items of a container: anything
        return UNKNOWN

    def _element(self, node: Node, index: tuple[int, ...], scope: Scope) -> Kind:
        if node.type in ("tuple", "expression_list", "list") and index:
            items = [c for c in node.named_children if c.type != "comment"]
            if index[0] < len(items):
                rest = index[1:]
                item = items[index[0]]
                return self.of(item, scope) if not rest else self._element(item, rest, scope)
            return UNKNOWN
        if node.type == "call" and index == (0,):
            func = node.child_by_field_name("function")
            if func is not None and func.type == "attribute":
                attr = func.child_by_field_name("attribute")
                if attr is not None and text(attr) == "parse_known_args":
                    return Kind("namespace")
        return UNKNOWN

    def star_binding(self, scope: Scope, name: str) -> Binding | None:
        """A module-level name that only a `from repo_module import *` provides."""
        module = scope
        while module.parent is not None:
            module = module.parent
        for target in module.star_imports:
            if target.file is None:
                continue
            inner = self.p.module_scope(target.file)
            if inner is not None and name in inner.bindings:
                return inner.bindings[name]
        return None

    def module_member(self, file: str, name: str) -> Kind:
        sub = self.p.repo.submodule(file, name)
        if sub is not None:
            return Kind("module", frozenset({sub}))
        scope = self.p.module_scope(file)
        if scope is None:
            return UNKNOWN
        b = scope.bindings.get(name) or self.star_binding(scope, name)
        return self.binding(b) if b is not None else UNKNOWN

    def param(self, b: Binding) -> Kind:
        fn = self.p.function(b.scope.file, b.definition) if b.definition is not None else None
        if fn is None:
            return UNKNOWN  # a lambda's
        position = next((i for i, p in enumerate(fn.params) if p.binding is b), None)
        if position is None:
            return UNKNOWN
        param = fn.params[position]
        if position == 0 and fn.owner is not None and not fn.is_static:
            key = node_key(fn.owner.file, fn.owner.node)
            tag = "class" if fn.is_classmethod else "instance"
            return Kind(tag, frozenset({key, *self.classes.subclass_keys(fn.owner)}))
        if param.kind in ("varargs", "kwargs"):
            return WEAK_LIB
        if b.annotation is not None:
            k = self._annotation(b.annotation, fn.scope.parent or fn.scope)
            if not k.is_unknown:
                return k
        return self.param_from_calls(fn, position)

    def _annotation(self, node: Node, scope: Scope) -> Kind:
        inner = node.named_children[0] if node.type == "type" and node.named_children else node
        if inner.type in ("identifier", "attribute"):
            k = self.of(inner, scope)
            if k.tag == "class":
                return Kind("instance", k.refs)
        return UNKNOWN

    # ---- members ---------------------------------------------------------------------

    def member(self, k: Kind, name: str) -> Kind:
        if k.tag == "module":
            return join([self.module_member(f, name) for f in k.refs])
        if k.tag in ("class", "instance"):
            found = []
            for key in k.refs:
                cls = self.p.classes.get(key)
                if cls is None:
                    return UNKNOWN
                owner = self.classes.find_member(cls, name)
                if owner is None:
                    base = self.classes.library_base(cls)
                    if base is None:
                        return UNKNOWN
                    found.append(Kind("lib", path=f"{base}.{name}"))
                    continue
                found.append(self._member_kind(owner, name, k.tag == "instance"))
            return join(found)
        if k.tag == "lib":
            if not k.strong:
                return UNKNOWN
            return Kind("lib", path=f"{k.path}.{name}" if k.path else None)
        if k.tag == "config":
            return k if name in ("get", "items", "values", "keys") else UNKNOWN
        return UNKNOWN

    def _member_kind(self, cls: ClassInfo, name: str, instance: bool) -> Kind:
        kinds = []
        for m in cls.members.get(name, []):
            if m.how == "method" and m.function is not None:
                if m.function.is_property:
                    kinds.append(self.returns(m.function))
                else:
                    kinds.append(Kind("function", frozenset({node_key(cls.file, m.function.node)})))
            elif (
                m.annotation is not None
                and not (k := self._annotation(m.annotation, cls.outer)).is_unknown
            ):
                kinds.append(k)
            elif m.value is not None:
                kinds.append(self.of(m.value, m.scope))
            else:
                kinds.append(UNKNOWN)
        return join(kinds)

    # ---- calls -----------------------------------------------------------------------

    def call(self, node: Node, scope: Scope) -> Kind:
        func = node.child_by_field_name("function")
        if func is None:
            return UNKNOWN
        if func.type == "identifier" and text(func) == "super":
            return self.super_kind(scope)
        callee = self.of(func, scope)
        if callee.tag == "class":
            return Kind("instance", callee.refs)
        if callee.tag == "function":
            return join([self.returns(self.p.functions[k]) for k in callee.refs])
        if callee.tag == "instance":
            return self.instance_call(callee)
        if callee.tag == "lib":
            return self._library_call(func, callee, node, scope)
        return UNKNOWN

    def _library_call(self, func: Node, callee: Kind, node: Node, scope: Scope) -> Kind:
        path = callee.path or ""
        if path in CONFIG_LOADERS:
            return Kind("config")
        if path in SAME_AS_ARGUMENT:
            args = node.child_by_field_name("arguments")
            first = args.named_children[0] if args is not None and args.named_children else None
            return self.of(first, scope) if first is not None else UNKNOWN
        if path in OPAQUE_CALLS:
            return UNKNOWN
        if func.type == "attribute":
            attr = func.child_by_field_name("attribute")
            obj = func.child_by_field_name("object")
            name = text(attr) if attr is not None else ""
            if name == "parse_args":
                return Kind("namespace")
            if obj is not None:
                receiver = self.of(obj, scope)
                if receiver.tag == "instance":
                    return receiver if name in SELF_RETURNING else WEAK_LIB
                if receiver.tag == "config":
                    return receiver
        return Kind("lib", path=None)

    def instance_call(self, k: Kind) -> Kind:
        """Calling an instance: its forward() under nn.Module, else its __call__."""
        kinds = []
        for key in k.refs:
            cls = self.p.classes.get(key)
            if cls is None:
                return UNKNOWN
            for name in ("forward", "__call__"):
                owner = self.classes.find_member(cls, name)
                fn = next(
                    (m.function for m in owner.members[name] if m.function is not None), None
                ) if owner is not None else None  # fmt: skip
                if fn is not None:
                    kinds.append(self.returns(fn))
                    break
            else:
                return UNKNOWN
        return join(kinds)

    def super_kind(self, scope: Scope) -> Kind:
        s: Scope | None = scope
        while s is not None and s.kind != "function":
            s = s.parent
        fn = self.p.function(s.file, s.node) if s is not None else None
        if fn is None or fn.owner is None:
            return UNKNOWN
        bases = self.classes.mro(fn.owner)[1:]
        if bases:
            return Kind("instance", frozenset(node_key(c.file, c.node) for c in bases))
        lib = self.classes.library_base(fn.owner)
        return Kind("lib", path=lib) if lib else UNKNOWN

    def returns(self, fn: FunctionInfo) -> Kind:
        key = node_key(fn.file, fn.node)
        if key in self._returns:
            return self._returns[key]
        busy = ("r", *key)
        if busy in self._busy:
            return UNKNOWN
        self._busy.add(busy)
        try:
            values = list(returned_values(fn.node))
            if any(v is None for v in values) and len(values) > 1:
                k = UNKNOWN
            elif not values or is_generator(fn.node):
                k = UNKNOWN if values or is_generator(fn.node) else WEAK_LIB
            else:
                k = join([self.of(v, fn.scope) for v in values if v is not None])
        finally:
            self._busy.discard(busy)
        self._returns[key] = k
        return k

    # ---- parameters from call sites --------------------------------------------------

    def param_from_calls(self, fn: FunctionInfo, position: int) -> Kind:
        key = (*node_key(fn.file, fn.node), position)
        if key in self._params:
            return self._params[key]
        busy = ("p", *key)
        if busy in self._busy:
            return UNKNOWN
        self._busy.add(busy)
        try:
            k = self._param_from_calls(fn, position)
        finally:
            self._busy.discard(busy)
        self._params[key] = k
        return k

    def _param_from_calls(self, fn: FunctionInfo, position: int) -> Kind:
        calls = self.calls_of(fn)
        fkey = node_key(fn.file, fn.node)
        if fkey in self._escaped or not calls:
            return UNKNOWN
        param = fn.params[position]
        kinds = []
        for call, scope, bound in calls:
            offset = 1 if bound and fn.owner is not None and not fn.is_static else 0
            arg = argument_for(call, position - offset, param.name, param.kind)
            if arg is None:
                return UNKNOWN  # a default, or a splat: unknown
            kinds.append(self.of(arg, scope))
        return join(kinds)

    def calls_of(self, fn: FunctionInfo) -> list[tuple[Node, Scope, bool]]:
        if self._calls is None:
            self._index_calls()
        assert self._calls is not None
        return self._calls.get(node_key(fn.file, fn.node), [])

    def _index_calls(self) -> None:
        """Every call whose callee is a repo function (or a class: its __init__), and
        every function that escapes as a value (callbacks: their parameters stay
        unknown)."""
        self._calls = {}
        for fs in self.p.files.values():
            callee_nodes = set()
            for use in fs.calls:
                func = use.node.child_by_field_name("function")
                if func is None:
                    continue
                callee_nodes.add(node_key(fs.file, func))
                k = self.of(func, use.scope)
                bound = func.type == "attribute"
                for fn in self._callees(k):
                    is_init = fn.name == "__init__" and k.tag == "class"
                    self._calls.setdefault(node_key(fn.file, fn.node), []).append(
                        (use.node, use.scope, bound or is_init)
                    )
            for use in fs.names:
                if node_key(fs.file, use.node) in callee_nodes or use.binding is None:
                    continue
                b = use.binding
                if b.role == "def" and b.definition is not None and use.node not in b.sites:
                    if not is_site(use.node, b):
                        self._escaped.add(node_key(b.scope.file, b.definition))
            for use in fs.attributes:
                if node_key(fs.file, use.node.parent) in callee_nodes:
                    continue
                # a method passed as a value (`callback=self.on_step`): it escapes
                k = self.of(use.node.parent, use.scope) if use.node.parent is not None else None
                if k is not None and k.tag == "function":
                    self._escaped |= set(k.refs)

    def _callees(self, k: Kind) -> list[FunctionInfo]:
        if k.tag == "function":
            return [self.p.functions[r] for r in k.refs if r in self.p.functions]
        if k.tag == "class":
            out = []
            for ref in k.refs:
                cls = self.p.classes.get(ref)
                owner = self.classes.find_member(cls, "__init__") if cls is not None else None
                if owner is not None:
                    out += [m.function for m in owner.members["__init__"] if m.function]
            return out
        return []
