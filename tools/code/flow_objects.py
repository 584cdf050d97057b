"""Which object an expression denotes: the `objects` half of `Flow` (see tools.code.flow).

A mixin: it uses `Flow`'s frames, bindings, callers and budgets through `self`.
"""

from __future__ import annotations

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.names import CONVENTIONAL_ALIASES, last
from torch_investigate.tools.code.values import (
    MAX_CALL_DEPTH,
    MAX_IMPORT_HOPS,
    MAX_NESTING,
    SAME_OBJECT_METHODS,
    SHARED_BUDGET,
    STEP_BUDGET,
    EvalContext,
    Obj,
    Value,
)


class ObjectResolution:
    # ---- objects -------------------------------------------------------------------------

    def objects(self, start: Value, *, budget: int = STEP_BUDGET) -> list[Obj]:
        """Which objects the expression may denote (callees, receivers, modules)."""
        key = start.key
        # Questions nest (resolving a callee asks about its receiver, a parameter asks
        # about call sites); a question already being answered up the stack, or too
        # deep a nesting, is a cycle and answers `unknown`.
        if key in self._active or len(self._active) >= MAX_NESTING:
            return [Obj("unknown", expr=start)]
        top = not self._active
        if top and self._memo_enabled and key in self._memo:
            return self._memo[key]
        if top:  # nested questions share one budget, so nesting cannot multiply the work
            self._shared_budget = SHARED_BUDGET
        self._active.add(key)
        try:
            out: list[Obj] = []
            seen: set[tuple[object, ...]] = set()
            work: list[Value | Obj] = [start]
            while work and budget > 0 and self._shared_budget > 0:
                item = work.pop()
                if isinstance(item, Obj):
                    out.append(item)
                    continue
                if item.key in seen:
                    continue
                seen.add(item.key)
                budget -= 1
                self._shared_budget -= 1
                work.extend(reversed(self._object_step(item)))
            result = _unique_objs(out)
        finally:
            self._active.discard(key)
        if top and self._memo_enabled and self._shared_budget > 0:  # complete answers only
            self._memo[key] = result
        return result

    def _object_step(self, v: Value) -> list[Value | Obj]:
        n = v.node
        t = n.type
        if t == "identifier":
            return self._name_objects(v)
        if t == "attribute":
            obj_node = n.child_by_field_name("object")
            attr = n.child_by_field_name("attribute")
            if obj_node is None or attr is None:
                return [Obj("unknown", expr=v)]
            members: list[Value | Obj] = []
            for base in self.objects(Value(obj_node, v.frame), budget=80):
                members += self.member(base, sx.text(attr), v)
            return members or [Obj("unknown", expr=v)]
        if t == "call":
            return self._call_objects(v)
        if t in ("parenthesized_expression", "await") and n.named_children:
            return [Value(n.named_children[0], v.frame, v.index)]
        if t == "conditional_expression":
            branches = [c for c in n.named_children]
            return [Value(branches[0], v.frame), Value(branches[-1], v.frame)] if branches else []
        if t == "subscript":
            container = n.child_by_field_name("value")
            if container is not None:
                index = n.named_children[1] if len(n.named_children) > 1 else None
                return self._element_objects(Value(container, v.frame), index)
        if t in ("tuple", "expression_list", "list", "pattern_list") and v.index:
            items = [c for c in n.named_children if c.type != "comment"]
            if v.index[0] < len(items):
                return [Value(items[v.index[0]], v.frame, v.index[1:])]
        return [Obj("unknown", expr=v)]

    def _name_objects(self, v: Value) -> list[Value | Obj]:
        name = sx.text(v.node)
        found = self.lookup(name, v.frame, v.node)
        if not found:
            return self._global_objects(name, v)
        out: list[Value | Obj] = []
        for binding, frame in found:
            if binding.kind == "for":
                if binding.value is not None:
                    out += self._element_objects(Value(binding.value, frame))
                continue
            for item in self.binding_values(binding, frame):
                out.append(item)
        return out or [Obj("unknown", expr=v)]

    def _global_objects(self, name: str, v: Value) -> list[Value | Obj]:
        """A name bound by an import (or nowhere: a builtin or a star import)."""
        unit = v.frame.unit
        target = unit.imports.get(name)
        if target is None:
            alias = CONVENTIONAL_ALIASES.get(name)
            return [Obj("external", resolved=alias)] if alias else [Obj("unknown", expr=v)]
        return self._import_objects(unit, target, v)

    def _import_objects(
        self, unit: FileUnit, target: str, v: Value, hops: int = 0
    ) -> list[Value | Obj]:
        # Re-exports can form cycles (`a` imports x from `b`, `b` from `a`): bounded hops.
        if hops > MAX_IMPORT_HOPS:
            return [Obj("unknown", expr=v)]
        module = self.index.module_for(target, unit)
        if module is not None:
            return [Obj("module", module)]
        if "." in target:
            prefix, _, member = target.rpartition(".")
            module = (
                self.index.module_for(prefix, unit)
                if prefix.strip(".")
                else self.index.module_for(prefix + ".", unit)
            )
            if module is not None:
                return self._module_member(module, member, v, hops + 1)
        if target.startswith("."):
            return [Obj("unknown", expr=v)]
        return [Obj("external", resolved=target)]

    def _module_member(
        self, module: FileUnit, member: str, v: Value, hops: int = 0
    ) -> list[Value | Obj]:
        frame = EvalContext(module, None)
        table = self.bindings(frame)
        found = table.get(member)
        if found:
            out: list[Value | Obj] = []
            for b in found[-2:]:
                out += self.binding_values(b, frame)
            return out
        target = module.imports.get(member)
        if target is not None:
            return self._import_objects(module, target, v, hops + 1)
        return [Obj("unknown", expr=v)]

    def _definition_obj(self, unit: FileUnit, node: Node) -> Obj:
        if node.type == "class_definition" and node.id in self._classes:
            cls_unit, symbol = self._classes[node.id]
            return Obj("class", cls_unit, node, symbol)
        qualname = unit.qualname_of(node)
        symbol = self.index.symbol(f"{unit.file}:{qualname}") if qualname else None
        return Obj("function", unit, node, symbol)

    def member(self, base: Obj, attr: str, v: Value) -> list[Value | Obj]:
        if base.kind == "instance" and base.symbol is not None:
            out: list[Value | Obj] = []
            for unit, b in self.attribute_bindings(base.symbol, attr):
                frame = EvalContext(unit, b.scope, {}, base)
                if (
                    b.scope is not None
                    and sx.function_name(b.scope) == "__init__"
                    and base.ctor is not None
                ):
                    frame = self.bind_call(unit, b.scope, base.ctor, base)
                out += self.binding_values(b, frame)
            if not out:
                located = self.method(base.symbol, attr)
                if located is not None:
                    unit, node = located
                    fn = self._definition_obj(unit, node)
                    fn.self_obj = base
                    out.append(fn)
            return out
        if base.kind == "class" and base.symbol is not None:
            located = self.method(base.symbol, attr)
            if located is not None:
                return [self._definition_obj(*located)]
            return [
                item
                for unit, b in self.attribute_bindings(base.symbol, attr)
                for item in self.binding_values(b, EvalContext(unit, b.scope))
            ]
        if base.kind == "module" and base.unit is not None:
            return self._module_member(base.unit, attr, v)
        if base.kind == "external" and base.ctor is None and base.resolved:
            return [Obj("external", resolved=f"{base.resolved}.{attr}")]
        return []

    def _call_objects(self, v: Value) -> list[Value | Obj]:
        n = v.node
        method = sx.method_name(n)
        if method in SAME_OBJECT_METHODS:
            recv = sx.receiver(n)
            if recv is not None:
                return [Value(recv, v.frame)]
        fn = sx.call_function(n)
        if fn is None:
            return [Obj("unknown", expr=v)]
        out: list[Value | Obj] = []
        for callee in self.objects(Value(fn, v.frame), budget=120):
            if callee.kind == "class":
                out.append(Obj("instance", callee.unit, callee.node, callee.symbol, ctor=v))
            elif callee.kind == "function" and callee.node is not None and callee.unit is not None:
                if v.frame.depth >= MAX_CALL_DEPTH:
                    continue
                frame = self.bind_call(callee.unit, callee.node, v, callee.self_obj)
                out += self.return_values(frame, v.index)
            elif (
                callee.kind == "external"
                and callee.ctor is None
                and last(callee.resolved)[:1].isupper()
            ):
                out.append(Obj("external", resolved=callee.resolved, ctor=v))
            else:
                out.append(Obj("unknown", expr=v))
        return out or [Obj("unknown", expr=v)]

    def _element_objects(self, container: Value, index: Node | None = None) -> list[Value | Obj]:
        """Objects held by a list / ModuleList / Sequential (`for block in self.blocks`,
        `model[0]`); an integer index picks one element, anything else all of them."""
        out: list[Value | Obj] = []
        for obj in self.objects(container, budget=60):
            if obj.kind == "external" and obj.ctor is not None:
                if last(obj.resolved) == "Sequential":
                    args, _ = sx.call_args(obj.ctor.node)
                    out += [Value(a, obj.ctor.frame) for a in args]
                else:
                    first = sx.argument(obj.ctor.node, 0)
                    if first is not None:
                        out += self._literal_elements(Value(first, obj.ctor.frame))
            elif obj.kind == "unknown" and obj.expr is not None:
                out += self._literal_elements(obj.expr)
        position = sx.number(index) if index is not None else None
        if position is not None and out and -len(out) <= int(position) < len(out):
            return [out[int(position)]]
        return out

    def _literal_elements(self, v: Value) -> list[Value | Obj]:
        n = v.node
        if n.type in ("list", "tuple"):
            return [Value(c, v.frame) for c in n.named_children if c.type != "comment"]
        if n.type in ("list_comprehension", "generator_expression"):
            body = n.child_by_field_name("body")
            return [Value(body, v.frame)] if body is not None else []
        return []

    def return_values(self, frame: EvalContext, index: tuple[int, ...] = ()) -> list[Value]:
        scope = frame.scope
        if scope is None:
            return []
        body = sx.function_body(scope)
        if body is None:
            return []
        if scope.type == "lambda":
            return [Value(body, frame, index)]
        returned = self._returns.get(scope.id)
        if returned is None:
            returned = [
                node.named_children[0]
                for node in sx.descendants(body)
                if node.type == "return_statement" and node.named_children
            ]
            self._returns[scope.id] = returned
        return [Value(node, frame, index) for node in returned]


def _unique_objs(objs: list[Obj]) -> list[Obj]:
    """One of each object; an instance known only by its class (an annotation, `self`)
    is dropped when a constructed instance of that class is there too."""
    constructed = {
        o.node.id for o in objs if o.kind == "instance" and o.ctor is not None and o.node
    }
    seen: set[tuple[object, ...]] = set()
    out = []
    for o in objs:
        if (
            o.kind == "instance"
            and o.ctor is None
            and o.node is not None
            and o.node.id in constructed
        ):
            continue
        k = o.key if o.kind != "unknown" else ("unknown", o.expr.key if o.expr else None)
        if k not in seen:
            seen.add(k)
            out.append(o)
    return out
