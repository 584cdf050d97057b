"""Where a value comes from: `trace` follows an expression back through names,
`self.attr`, parameters, return values and model forwards to the expressions that
made it (see `tools.code.flow` for the two modes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.names import (
    CONTAINER_LAYERS,
    PARAMETERIZED_LAYERS,
    last,
    looks_like_model,
    loss_class_kind,
    torch_layer,
)
from torch_investigate.tools.code.values import (
    KEEP_VALUE_FUNCTIONS,
    KEEP_VALUE_METHODS,
    MAX_CALL_DEPTH,
    MAX_NESTING,
    STEP_BUDGET,
    Obj,
    Origin,
    Value,
)

if TYPE_CHECKING:
    from torch_investigate.tools.code.flow import Flow


class Tracer:
    def __init__(self, flow: Flow) -> None:
        self.flow = flow

    def trace(
        self,
        start: Value,
        *,
        dataflow: bool = False,
        enter_models: bool = True,
        budget: int = STEP_BUDGET,
    ) -> list[Origin]:
        """Where the value of start comes from (see the module docstring)."""
        if len(self.flow._active) >= MAX_NESTING:
            return [Origin("expr", start, [start])]
        out: list[Origin] = []
        seen: set[tuple[object, ...]] = set()
        steps = [budget]
        stack: list[tuple[Value, list[Value]]] = [(start, [start])]
        while stack:
            v, path = stack.pop()
            if steps[0] <= 0:
                break
            if v.key in seen:
                continue
            seen.add(v.key)
            steps[0] -= 1
            result = self._trace_step(v, dataflow=dataflow, enter_models=enter_models)
            if isinstance(result, Origin):
                result.path = path
                out.append(result)
                continue
            for nxt in reversed(result):
                stack.append((nxt, [*path, nxt]))
        # The same expression reached in two frames (another `self`, another caller) is
        # one origin for the checks.
        unique: dict[tuple[int, str], Origin] = {}
        for origin in out:
            unique.setdefault((origin.node.id, origin.kind), origin)
        return list(unique.values())

    def _trace_step(self, v: Value, *, dataflow: bool, enter_models: bool) -> Origin | list[Value]:
        n = v.node
        t = n.type
        if t in ("parenthesized_expression", "await", "expression_statement") and n.named_children:
            return [Value(n.named_children[0], v.frame, v.index)]
        if t == "identifier":
            return self._trace_name(v)
        if t == "attribute":
            return self._trace_attribute(v, dataflow=dataflow)
        if t == "call":
            return self._trace_call(v, dataflow=dataflow, enter_models=enter_models)
        if t == "subscript":
            container = n.child_by_field_name("value")
            return [Value(container, v.frame)] if container is not None else Origin("expr", v, [])
        if t == "conditional_expression":
            parts = n.named_children
            return [Value(parts[0], v.frame, v.index), Value(parts[-1], v.frame, v.index)]
        if t in ("tuple", "expression_list", "list", "pattern_list") and v.index:
            items = [c for c in n.named_children if c.type != "comment"]
            if v.index[0] < len(items):
                return [Value(items[v.index[0]], v.frame, v.index[1:])]
        if t == "augmented_assignment":
            return self._trace_augmented(v, dataflow=dataflow)
        if dataflow:
            parts = _operands(n)
            if parts is not None:
                return [Value(p, v.frame) for p in parts]
        return Origin("expr", v, [])

    def _trace_name(self, v: Value) -> Origin | list[Value]:
        name = sx.text(v.node)
        found = self.flow.lookup(name, v.frame, v.node)
        if not found:
            return Origin("name", v, [])
        nexts: list[Value] = []
        for binding, frame in found:
            if binding.kind == "for":
                if binding.value is not None:
                    return Origin("element", Value(binding.value, frame, binding.index), [])
                continue
            if binding.kind == "param" and name not in frame.bound:
                values = [x for x in self.flow.param_values(name, frame) if isinstance(x, Value)]
                if not values:
                    return Origin("param", Value(binding.target, frame), [])
                nexts += [Value(x.node, x.frame, v.index or x.index) for x in values]
                continue
            for item in self.flow.binding_values(binding, frame):
                if isinstance(item, Value):
                    nexts.append(
                        Value(
                            item.node, item.frame, item.index + v.index if item.index else v.index
                        )
                    )
                    if _empty_list(item):
                        nexts += _appended(name, binding, frame)
        return nexts or Origin("name", v, [])

    def _trace_attribute(self, v: Value, *, dataflow: bool) -> Origin | list[Value]:
        obj_node = v.node.child_by_field_name("object")
        attr = v.node.child_by_field_name("attribute")
        if obj_node is None or attr is None:
            return Origin("attribute", v, [])
        nexts: list[Value] = []
        for base in self.flow.objects(Value(obj_node, v.frame), budget=80):
            if base.kind in ("instance", "module", "class"):
                nexts += [
                    x for x in self.flow.member(base, sx.text(attr), v) if isinstance(x, Value)
                ]
        if nexts:
            return nexts
        if dataflow and sx.text(attr) not in ("weight", "bias"):
            return [Value(obj_node, v.frame)]  # `out.logits`, `batch.x`: a field of the object
        return Origin("attribute", v, [])

    def _trace_augmented(self, v: Value, *, dataflow: bool) -> Origin | list[Value]:
        if not dataflow:
            return Origin("expr", v, [])
        left = v.node.child_by_field_name("left")
        right = v.node.child_by_field_name("right")
        nexts = [Value(right, v.frame)] if right is not None else []
        if left is not None and left.type == "identifier":
            earlier = [
                (b, f)
                for b, f in self.flow.lookup(sx.text(left), v.frame, v.node)
                if b.target.start_byte < v.node.start_byte
            ]
            for binding, frame in earlier:
                nexts += [
                    x for x in self.flow.binding_values(binding, frame) if isinstance(x, Value)
                ]
        return nexts

    def _trace_call(self, v: Value, *, dataflow: bool, enter_models: bool) -> Origin | list[Value]:
        n = v.node
        fn = sx.call_function(n)
        module_function = v.frame.unit.is_module_function(fn)
        method = None if module_function else sx.method_name(n)
        recv = None if module_function else sx.receiver(n)
        if method in KEEP_VALUE_METHODS and recv is not None:
            return [Value(recv, v.frame, v.index)]
        if fn is None:
            return Origin("call", v, [])
        resolved = v.frame.unit.resolve_callee(fn)[1]
        if resolved == "map" and dataflow and v.index:
            # `a, b = map(torch.from_numpy, (x, y))`: element i is the function applied to
            # element i of the iterable
            items = sx.argument(n, 1, "iterable")
            if items is not None:
                return [Value(items, v.frame, v.index)]
        if resolved.startswith("torch.") and last(resolved) in KEEP_VALUE_FUNCTIONS:
            first = sx.argument(n, 0, "input")
            if first is not None:
                return [Value(first, v.frame, v.index)]
        nexts: list[Value] = []
        module: Obj | None = None
        for callee in self.flow.objects(Value(fn, v.frame), budget=120):
            if callee.kind == "function" and callee.node is not None and callee.unit is not None:
                if v.frame.depth < MAX_CALL_DEPTH:
                    frame = self.flow.bind_call(callee.unit, callee.node, v, callee.self_obj)
                    nexts += self.flow.return_values(frame, v.index)
            elif callee.kind == "instance" and callee.symbol is not None:
                if not callee.symbol.is_nn_module:
                    continue
                if not enter_models:
                    return Origin("module_call", v, [], callee)
                located = self.flow.method(callee.symbol, "forward")
                if located is not None and v.frame.depth < MAX_CALL_DEPTH:
                    frame = self.flow.bind_call(located[0], located[1], v, callee)
                    nexts += self.flow.return_values(frame, v.index)
                else:
                    module = callee
            elif callee.kind == "external" and callee.ctor is not None:
                if last(callee.resolved) == "Sequential" and enter_models:
                    nexts += self._sequential_output(callee, v)
                else:
                    module = module or callee
        if nexts:
            return nexts
        if module is not None and not (dataflow and _stateless(module)):
            return Origin("module_call", v, [], module)
        if dataflow and not module_function and looks_like_model(sx.flat(fn)):
            if not any(
                o.kind != "unknown" for o in self.flow.objects(Value(fn, v.frame), budget=60)
            ):
                return Origin("call", v, [])  # `model(x)` with `model` unresolved
        if dataflow:
            parts = [recv] if recv is not None else []
            args, kwargs = sx.call_args(n)
            parts += [a for a in args if a.type not in ("list_splat", "dictionary_splat")]
            parts += list(kwargs.values())
            if parts:
                return [Value(p, v.frame) for p in parts]
        return Origin("call", v, [])

    def _sequential_output(self, seq: Obj, v: Value) -> list[Value]:
        """`nn.Sequential(a, b, c)(x)` returns c's output. Tracing the last element's
        expression reaches its constructor (`nn.Softmax(dim=1)`), which `describe_call`
        names like a call of that layer."""
        assert seq.ctor is not None
        args, _ = sx.call_args(seq.ctor.node)
        return [Value(args[-1], seq.ctor.frame)] if args else []


def _operands(n: Node) -> list[Node] | None:
    """Sub-expressions a value is computed from, for dataflow tracing."""
    t = n.type
    if t == "binary_operator":
        return [
            c
            for c in (n.child_by_field_name("left"), n.child_by_field_name("right"))
            if c is not None
        ]
    if t in ("unary_operator", "not_operator"):
        arg = n.child_by_field_name("argument")
        return [arg] if arg is not None else []
    if t in ("boolean_operator", "comparison_operator"):
        return [c for c in n.named_children if c.type not in ("comment",)]
    if t in ("list", "tuple", "expression_list", "set"):
        return [c for c in n.named_children if c.type not in ("comment", "list_splat")]
    if t in ("list_comprehension", "generator_expression", "set_comprehension"):
        body = n.child_by_field_name("body")
        return [body] if body is not None else []
    if t == "dictionary":
        return [
            c.child_by_field_name("value")
            for c in n.named_children
            if c.type == "pair" and c.child_by_field_name("value") is not None
        ]
    return None


def _stateless(module: Obj) -> bool:
    """A torch.nn module without parameters (a loss, an activation, dropout): dataflow
    goes through it to its inputs rather than stopping as at a model layer."""
    if module.kind != "external":
        return False
    layer = torch_layer(module.resolved)
    return loss_class_kind(module.resolved) is not None or (
        layer is not None and layer not in PARAMETERIZED_LAYERS and layer not in CONTAINER_LAYERS
    )


def _empty_list(v: Value) -> bool:
    """`xs = []` (or `xs, ys = [], []`): a list the code fills later."""
    n = v.node
    if v.index and n.type in ("tuple", "expression_list"):
        items = [c for c in n.named_children if c.type != "comment"]
        n = items[v.index[0]] if v.index[0] < len(items) else n
    return n.type == "list" and not n.named_children


def _appended(name: str, binding, frame) -> list[Value]:
    """What `name.append(x)` / `name.extend(x)` put into a list bound empty, in the same
    function after the binding: a list filled in a loop holds what was appended."""
    scope = frame.scope
    out = []
    for call in frame.unit.call_nodes:
        recv = sx.receiver(call)
        if (
            sx.method_name(call) in ("append", "extend")
            and recv is not None
            and recv.type == "identifier"
            and sx.text(recv) == name
            and call.start_byte > binding.target.start_byte
            and (scope is None or sx.contains(scope, call))
            and sx.enclosing_function(call) == scope
        ):
            arg = sx.argument(call, 0)
            if arg is not None:
                out.append(Value(arg, frame))
    return out
