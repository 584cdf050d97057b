"""Whose rows an expression holds: whether a value reads the rows of a given array (a
`Member`), through the data flow, never through names.

An array is matched by the binding that holds it (a local, a parameter), as `self.<attr>`
of its class, or as one expression (`v[perm]`). A value computed from it keeps its rows
(`torch.from_numpy(x)`, `x * 2`, `model(x)`); what only describes it (`len(x)`,
`x.shape`) or reorders it by value (`sorted(x)`) does not.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.flow import Flow
from torch_investigate.tools.code.names import last
from torch_investigate.tools.code.scopes import Binding
from torch_investigate.tools.code.values import Origin, Value

# What describes an array without its rows, or reorders it by value: a value computed
# through one of these no longer follows the array's row order.
METADATA_CALLS = frozenset({"len", "size", "numel", "nelement", "dim", "ndimension"})
METADATA_ATTRIBUTES = frozenset({"shape", "ndim", "dtype", "device"})
SORTING_CALLS = frozenset({"sorted", "natsorted", "sort", "argsort"})
TRACE_BUDGET = 80
MAX_HOPS = 2  # origins continued through a loop's iterable or a model call's inputs


@dataclass(frozen=True, eq=False)
class Member:
    """One array as the code holds it: a name at the bindings it reads (a local, a
    parameter), `self.<attr>` of one class, or one expression (`v[perm]`)."""

    unit: FileUnit
    home: Node  # where its pairings are looked for: its function, module root or class
    name: str
    bindings: frozenset[int] = frozenset()  # binding targets (a parameter: `parameters`)
    cls: Node | None = None  # `self.<attr>`: the class
    anchor: Node | None = None  # one expression, matched by identity

    @property
    def key(self) -> tuple[object, ...]:
        return (
            self.name,
            self.bindings,
            self.cls.id if self.cls is not None else 0,
            self.anchor.id if self.anchor is not None else 0,
        )


class Rows:
    """Whose rows values hold, memoized per question."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        self._reads: dict[tuple[object, ...], tuple[frozenset[int], bool]] = {}
        self._traces: dict[tuple[object, ...], list[tuple[list[Value], Origin | None]]] = {}

    # ---- members -----------------------------------------------------------------------

    def member_at(self, unit: FileUnit, node: Node) -> Member:
        """The array node denotes where it is read."""
        fn = sx.enclosing_function(node)
        home = fn if fn is not None else unit.tree.root_node
        if node.type == "identifier":
            found = self.flow.lookup(sx.text(node), self.flow.frame_at(unit, node), node)
            return Member(unit, home, sx.text(node), frozenset(b.target.id for b, _ in found))
        cls = self._self_class(node)
        if cls is not None:
            attr = node.child_by_field_name("attribute")
            return Member(unit, cls, sx.text(attr) if attr else "", cls=cls)
        return Member(unit, home, sx.flat(node), anchor=node)

    def bound(self, unit: FileUnit, b: Binding) -> Member:
        """The array a binding holds."""
        if b.target.type == "attribute":
            cls = self._self_class(b.target)
            attr = b.target.child_by_field_name("attribute")
            if cls is not None and attr is not None:
                return Member(unit, cls, sx.text(attr), cls=cls)
        home = b.scope if b.scope is not None else unit.tree.root_node
        return Member(unit, home, b.name, frozenset({b.target.id}))

    def _self_class(self, node: Node) -> Node | None:
        if node.type != "attribute":
            return None
        obj = node.child_by_field_name("object")
        fn = sx.enclosing_function(node)
        if obj is None or fn is None or obj.type != "identifier":
            return None
        params = sx.parameter_names(fn)
        owner = self.flow.class_of_method(fn)
        if not params or params[0] != sx.text(obj) or owner is None:
            return None
        return owner[2]

    def holds(self, v: Value, m: Member) -> bool:
        """Whether the expression v reads the array m."""
        n = v.node
        if m.anchor is not None:
            return n.id == m.anchor.id
        if m.cls is not None:
            attr = n.child_by_field_name("attribute") if n.type == "attribute" else None
            cls = self._self_class(n) if attr is not None and sx.text(attr) == m.name else None
            return cls is not None and cls.id == m.cls.id
        if n.type != "identifier" or sx.text(n) != m.name:
            return False
        return any(b.target.id in m.bindings for b, _ in self.flow.lookup(m.name, v.frame, n))

    # ---- what a value derives from -----------------------------------------------------

    def derives(self, item: Value, members: tuple[Member, ...]) -> frozenset[int]:
        """Which members (positions) the item's rows come from."""
        return self._facts(item, members)[0]

    def _facts(self, item: Value, members: tuple[Member, ...]) -> tuple[frozenset[int], bool]:
        """(members the item's rows come from, whether it holds data at all: not only
        literals, lengths and shapes)."""
        found = {k for k, m in enumerate(members) if m.anchor and sx.contains(item.node, m.anchor)}
        data = bool(found)
        for read in _reads(item.node, item.frame.unit):
            ks, is_data = self._read(Value(read, item.frame), members)
            found |= ks
            data = data or is_data
        return frozenset(found), data

    def _read(self, v: Value, members: tuple[Member, ...]) -> tuple[frozenset[int], bool]:
        if v.node.type == "identifier":
            at = self.flow.lookup(sx.text(v.node), v.frame, v.node)
            where: object = (sx.text(v.node), frozenset(b.target.id for b, _ in at))
        else:
            where = v.node.id
        key = (tuple(m.key for m in members), where)
        if key not in self._reads:
            self._reads[key] = (frozenset(), False)  # a cycle reads as nothing
            self._reads[key] = self._follow(v, members, MAX_HOPS)
        return self._reads[key]

    def _follow(
        self, v: Value, members: tuple[Member, ...], hops: int
    ) -> tuple[frozenset[int], bool]:
        direct = frozenset(k for k, m in enumerate(members) if self.holds(v, m))
        if direct:
            return direct, True
        found: set[int] = set()
        data = False
        for steps, origin in self._paths(v):
            for step in steps:
                found |= {k for k, m in enumerate(members) if self.holds(step, m)}
            if origin is None:
                continue
            node = origin.node
            data = data or node.type not in ("integer", "float", "string", "true", "false", "none")
            if hops and origin.kind == "element":
                found |= self._follow(origin.value, members, hops - 1)[0]
            elif hops and origin.kind in ("call", "module_call") and node.type == "call":
                for arg in sx.call_args(node)[0]:  # a model's output follows its inputs' rows
                    found |= self._follow(Value(arg, origin.value.frame), members, hops - 1)[0]
        return frozenset(found), data

    def _paths(self, v: Value) -> list[tuple[list[Value], Origin | None]]:
        """The values passed going back from v, on each traced path, up to where the rows
        stop following (then no origin) or to the origin. Traced once per value."""
        if v.key not in self._traces:
            out: list[tuple[list[Value], Origin | None]] = []
            for origin in self.flow.trace(
                v, dataflow=True, enter_models=False, budget=TRACE_BUDGET
            ):
                steps: list[Value] = []
                reached: Origin | None = origin
                for step in origin.path[1:]:
                    if _breaks_rows(step.node, step.frame.unit):
                        reached = None
                        break
                    steps.append(step)
                out.append((steps, reached))
            self._traces[v.key] = out
        return self._traces[v.key]


def _reads(node: Node, unit: FileUnit) -> Iterator[Node]:
    """Names and `obj.attr` chains an expression reads as data: not a subscript's index,
    a callee's own name, a module, nor what only describes an array (`len(x)`, `x.shape`)."""
    stack = [node]
    while stack:
        n = stack.pop()
        t = n.type
        if t == "identifier":
            yield n
        elif t == "attribute":
            attr = n.child_by_field_name("attribute")
            if attr is not None and sx.text(attr) in METADATA_ATTRIBUTES:
                continue
            if sx.dotted(n) is not None:
                yield n
            else:
                stack += [c for c in (n.child_by_field_name("object"),) if c is not None]
        elif t == "subscript":
            stack += [c for c in (n.child_by_field_name("value"),) if c is not None]
        elif t == "call":
            if _breaks_rows(n, unit):
                continue
            fn = sx.call_function(n)
            if fn is not None and fn.type == "attribute" and not unit.is_module_function(fn):
                stack += [c for c in (fn.child_by_field_name("object"),) if c is not None]
            args = n.child_by_field_name("arguments")
            if args is not None:
                stack.append(args)
        elif t == "keyword_argument":
            stack += [c for c in (n.child_by_field_name("value"),) if c is not None]
        elif t not in ("lambda", "string", "comment"):
            stack += n.named_children


def _breaks_rows(node: Node, unit: FileUnit) -> bool:
    """`len(x)`, `x.size(0)`, `x.shape`, `sorted(x)`: the result does not follow x's rows."""
    if node.type == "attribute":
        attr = node.child_by_field_name("attribute")
        return attr is not None and sx.text(attr) in METADATA_ATTRIBUTES
    if node.type != "call":
        return False
    fn = sx.call_function(node)
    name = sx.method_name(node) or (last(unit.resolve_callee(fn)[1]) if fn else "")
    return name in METADATA_CALLS or name in SORTING_CALLS
