"""Which arrays the code lines up row by row (features with their labels), found from the
data flow, never from the arrays' names.

Two arrays are a pair when the code lines them up by position: both reach one call that
pairs its arguments (`zip`, `TensorDataset`, a loss's prediction and target, or a repo
function or class that pairs the parameters they fill), both are indexed by one index
(`(x[i], y[i])`, or `x[idx]` and `y[idx]` in one function), or a function returns them in
one tuple that its callers pair. An array is matched by the binding that holds it (or
`self.<attr>` of its class, or one expression such as `v[perm]`), so renamed code pairs
the same way. Everything is bounded (a depth for calls followed, trace budgets):
unresolved code means "no pairing found", never a pair.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.flow import Flow
from torch_investigate.tools.code.names import last
from torch_investigate.tools.code.rows import Member, Rows
from torch_investigate.tools.code.scopes import statement_bindings
from torch_investigate.tools.code.values import KEEP_VALUE_METHODS, Value

# Calls that line their array arguments up row by row (what the API does).
PAIRING_CALLS = frozenset(
    {
        "zip",
        "TensorDataset",
        "StackDataset",
        "train_test_split",
        "column_stack",
        "from_tensor_slices",
        "fit",
        "DataFrame",
        "from_dict",
    }
)
DEPTH = 2  # calls followed into a callee or out to the callers
MAX_CALLERS = 8


SiteKind = Literal["call", "return", "literal", "index"]


@dataclass(frozen=True, eq=False)
class Site:
    """Expressions lined up at one place: a call's arguments, a tuple's items, a dict's
    values, or the arrays that one index variable selects rows of."""

    node: Node
    kind: SiteKind
    items: tuple[Value, ...]


class Pairing(Rows):
    def __init__(self, flow: Flow, losses: Mapping[int, tuple[int, int]]) -> None:
        super().__init__(flow)
        self.losses = losses  # loss call id -> (prediction node id, target node id)
        self._sites: dict[int, list[Site]] = {}
        self._bound: dict[int, list[tuple[frozenset[str], frozenset[str]]]] = {}

    # ---- where values are lined up -----------------------------------------------------

    def sites(self, unit: FileUnit, home: Node) -> list[Site]:
        """Every place under home (a function, module root or class) that lines values up."""
        if home.id not in self._sites:
            self._sites[home.id] = list(self._find_sites(unit, home))
        return self._sites[home.id]

    def _find_sites(self, unit: FileUnit, home: Node) -> Iterator[Site]:
        by_index: dict[tuple[str, frozenset[int]], list[Node]] = {}
        for node in sx.descendants(home, into_scopes=True):
            t = node.type
            if t == "call":
                items = _call_items(node)
                if len(items) >= 2:
                    yield Site(node, "call", tuple(self.flow.value(unit, i) for i in items))
            elif t in ("tuple", "expression_list", "list", "dictionary"):
                parts = _literal_items(node)
                kind = "return" if _return_path(node) is not None else "literal"
                if len(parts) >= 2:
                    yield Site(node, kind, tuple(self.flow.value(unit, i) for i in parts))
            elif t == "subscript":
                index = _index_of(node)
                if index is not None and index.type == "identifier":
                    at = self.flow.lookup(sx.text(index), self.flow.frame_at(unit, index), index)
                    key = (sx.text(index), frozenset(b.target.id for b, _ in at))
                    by_index.setdefault(key, []).append(node)
        for nodes in by_index.values():
            if len(nodes) >= 2:
                yield Site(nodes[0], "index", tuple(self.flow.value(unit, n) for n in nodes))

    # ---- pairs ---------------------------------------------------------------------------

    def paired(self, a: Member, b: Member) -> bool | None:
        """True when the code lines a and b up row by row; False when each is lined up
        with other arrays and never with the other; None when no pairing was found."""
        if self._lined(a, b, DEPTH):
            return True
        members = (a, b)
        if self._partners(0, members, DEPTH) and self._partners(1, members, DEPTH):
            return False
        return None

    def partners(self, m: Member) -> list[Value]:
        """Arrays lined up row by row with m (none of them computed from m)."""
        return self._partners(0, (m,), DEPTH)

    def _lined(self, a: Member, b: Member, depth: int) -> bool:
        members = (a, b)
        for site, facts in self._relevant(members, (0, 1)):
            for i, (di, _) in enumerate(facts):
                if di != {0}:
                    continue
                for j, (dj, _) in enumerate(facts):
                    if dj == {1} and self._lined_up(site, i, j, depth):
                        return True
        return False

    def _partners(self, k: int, members: tuple[Member, ...], depth: int) -> list[Value]:
        out: list[Value] = []
        for site, facts in self._relevant(members, (k,)):
            for i, (di, _) in enumerate(facts):
                if di != {k}:
                    continue
                for j, (dj, data) in enumerate(facts):
                    if not dj and data and self._lined_up(site, i, j, depth):
                        out.append(site.items[j])
        return out

    def _relevant(
        self, members: tuple[Member, ...], need: tuple[int, ...]
    ) -> Iterator[tuple[Site, list[tuple[frozenset[int], bool]]]]:
        """The sites of the members' region where each needed member's rows may be, with
        every item's facts. Tracing is the cost: a site is traced only when, for each
        needed member, an item names a variable its rows can reach in the region."""
        homes: list[Member] = []  # the members whose homes hold the others'
        for m in members:
            if not any(_within(m, h) for h in homes):
                homes = [h for h in homes if not _within(h, m)] + [m]
        carriers = {k: self._carriers(members[k], [h.home for h in homes]) for k in need}
        for site in (s for h in homes for s in self.sites(h.unit, h.home)):
            if all(
                any(_may_hold(item.node, carriers[k], members[k]) for item in site.items)
                for k in need
            ):
                yield site, [self._facts(item, members) for item in site.items]

    def _carriers(self, m: Member, homes: list[Node]) -> frozenset[str]:
        """Names that may hold m's rows in the homes: m's own, and every name bound from
        an expression that reads one of them (to a fixed point)."""
        names = {m.name} if m.anchor is None else set()
        if m.anchor is not None:
            statement = sx.statement_of(m.anchor)
            for node in (statement, *statement.named_children):
                names |= {_bound_word(b.target) for b in statement_bindings(node, None)}
        assignments = [a for home in homes for a in self._assignments(home)]
        while True:
            grown = names | {t for targets, read in assignments if read & names for t in targets}
            if grown == names:
                return frozenset(names)
            names = grown

    def _assignments(self, home: Node) -> list[tuple[frozenset[str], frozenset[str]]]:
        """(names bound, names read) of every binding statement under home."""
        if home.id not in self._bound:
            out = []
            for node in sx.descendants(home, into_scopes=True):
                bindings = [b for b in statement_bindings(node, None) if b.value is not None]
                if bindings and node.type not in ("function_definition", "class_definition"):
                    read = frozenset(w for b in bindings for w in _words(b.value))  # type: ignore[arg-type]
                    out.append((frozenset(_bound_word(b.target) for b in bindings), read))
            self._bound[home.id] = out
        return self._bound[home.id]

    def _lined_up(self, site: Site, i: int, j: int, depth: int) -> bool:
        """Whether the site lines item i up with item j row by row."""
        a, b = site.items[i], site.items[j]
        if site.kind == "index":
            return True
        index_a, index_b = _row_index(a.node), _row_index(b.node)
        if index_a is not None and index_a == index_b:
            return True
        if site.kind == "return":
            return depth > 0 and self._callers_pair(site, i, j, depth - 1)
        if site.kind != "call":
            return False
        loss = self.losses.get(site.node.id)
        if loss is not None:
            return {a.node.id, b.node.id} == set(loss)
        return self._call_pairs(site.node, a, b, depth)

    def _call_pairs(self, call: Node, a: Value, b: Value, depth: int) -> bool:
        fn = sx.call_function(call)
        if fn is None:
            return False
        at = Value(call, a.frame)
        repo = False
        for callee in self.flow.objects(Value(fn, a.frame), budget=120):
            target = None
            if callee.kind == "function" and callee.node is not None and callee.unit:
                target = (callee.unit, callee.node)
            elif callee.kind == "class" and callee.symbol is not None:
                target = self.flow.method(callee.symbol, "__init__")
            if target is None:
                continue
            repo = True
            if depth > 0 and self._params_pair(target[0], target[1], at, a, b, depth - 1):
                return True
        if repo:  # a repo callee is judged by what it does, not by its name
            return False
        unit = a.frame.unit
        name = sx.method_name(call) or last(unit.resolve_callee(fn)[1])
        return name in PAIRING_CALLS

    def _params_pair(
        self, unit: FileUnit, fn: Node, call: Value, a: Value, b: Value, depth: int
    ) -> bool:
        """Whether fn lines up the parameters that a and b fill, itself or (a
        constructor) through the attributes it stores them in."""
        filled: dict[int, str] = {}
        for name in sx.parameter_names(fn):
            arg = self.flow.argument_for(fn, call, name)
            if arg is not None:
                filled[arg.node.id] = name
        params = fn.child_by_field_name("parameters")
        if a.node.id not in filled or b.node.id not in filled or params is None:
            return False
        pa, pb = (Member(unit, fn, filled[v.node.id], frozenset({params.id})) for v in (a, b))
        if self._lined(pa, pb, depth):
            return True
        owner = self.flow.class_of_method(fn)
        if owner is None:
            return False
        stored_a, stored_b = self._stored(unit, owner[2], fn, (pa, pb))
        return any(self._lined(x, y, depth) for x in stored_a for y in stored_b)

    def _stored(
        self, unit: FileUnit, cls: Node, fn: Node, members: tuple[Member, Member]
    ) -> tuple[list[Member], list[Member]]:
        """`self.<attr>` members of cls that fn fills from each of the two members."""
        out: tuple[list[Member], list[Member]] = ([], [])
        for attr, bindings in unit.scopes.class_attributes(cls).items():
            for b in bindings:
                if b.scope is None or b.scope.id != fn.id or b.value is None:
                    continue
                value = _select(b.value, b.index)
                ks = self.derives(self.flow.value(unit, value), members)
                if len(ks) == 1:
                    out[next(iter(ks))].append(Member(unit, cls, attr, cls=cls))
        return out

    def _callers_pair(self, site: Site, i: int, j: int, depth: int) -> bool:
        """A returned tuple's items i and j, lined up by a caller of the function."""
        fn = sx.enclosing_function(site.node)
        path_a, path_b = _return_path(site.items[i].node), _return_path(site.items[j].node)
        if fn is None or path_a is None or path_b is None:
            return False
        for call in self.flow.callers(fn)[:MAX_CALLERS]:
            parent = call.node.parent
            if parent is not None and parent.type == "list_splat":  # zip(*f())
                outer = parent.parent.parent if parent.parent is not None else None
                if outer is not None and outer.type == "call":
                    fn_node = sx.call_function(outer)
                    unit = call.frame.unit
                    name = sx.method_name(outer) or last(unit.resolve_callee(fn_node)[1])
                    if name in PAIRING_CALLS:
                        return True
            if parent is None or parent.type != "assignment":
                continue
            bindings = statement_bindings(parent, call.frame.scope)
            held_a = [b for b in bindings if b.index == path_a]
            held_b = [b for b in bindings if b.index == path_b]
            unit = call.frame.unit
            for x in held_a:
                for y in held_b:
                    if self._lined(self.bound(unit, x), self.bound(unit, y), depth):
                        return True
        return False


# ---- syntax -------------------------------------------------------------------------------


def _within(m: Member, other: Member) -> bool:
    return m.unit is other.unit and sx.contains(other.home, m.home)


def _words(node: Node) -> set[str]:
    """Every identifier under node, attribute names included (`self.x` -> self, x)."""
    return {
        sx.text(n)
        for n in (node, *sx.descendants(node, into_scopes=True))
        if n.type == "identifier"
    }


def _bound_word(target: Node) -> str:
    if target.type == "attribute":
        attr = target.child_by_field_name("attribute")
        return sx.text(attr) if attr is not None else ""
    return sx.text(target)


def _may_hold(node: Node, carriers: frozenset[str], m: Member) -> bool:
    if m.anchor is not None and sx.contains(node, m.anchor):
        return True
    return not carriers.isdisjoint(_words(node))


def _call_items(call: Node) -> list[Node]:
    """A call's arguments, with list, tuple and dict literals opened (`cat([a, b])`)."""
    positional, keywords = sx.call_args(call)
    items: list[Node] = []
    for arg in [*positional, *keywords.values()]:
        if arg.type in ("list_splat", "dictionary_splat"):
            continue
        if arg.type in ("list", "tuple", "dictionary"):
            items += _literal_items(arg)
        else:
            items.append(arg)
    return items


def _literal_items(node: Node) -> list[Node]:
    if node.type == "dictionary":
        return [
            v
            for c in node.named_children
            if c.type == "pair" and (v := c.child_by_field_name("value")) is not None
        ]
    return [c for c in node.named_children if c.type not in ("comment", "list_splat")]


def _index_of(subscript: Node) -> Node | None:
    parts = subscript.children_by_field_name("subscript")
    return parts[0] if len(parts) == 1 else None


def _row_index(node: Node) -> str | None:
    """The index an item selects rows by, through conversions: `torch.from_numpy(x[i])`,
    `x[i].float()` -> `i`."""
    while True:
        if node.type == "parenthesized_expression" and node.named_children:
            node = node.named_children[0]
        elif node.type == "call":
            recv = sx.receiver(node)
            positional, _ = sx.call_args(node)
            if recv is not None and sx.method_name(node) in KEEP_VALUE_METHODS | {"astype"}:
                node = recv
            elif recv is None and len(positional) == 1:
                node = positional[0]
            else:
                return None
        elif node.type == "subscript":
            parts = node.children_by_field_name("subscript")
            return ",".join(sx.flat(p) for p in parts) if parts else None
        else:
            return None


def _return_path(node: Node) -> tuple[int, ...] | None:
    """Where node sits in a returned tuple: `return (a, b), c` -> b: (0, 1); None when
    it is not returned."""
    path: list[int] = []
    current = node
    while current.parent is not None:
        parent = current.parent
        if parent.type == "return_statement":
            return tuple(reversed(path))
        if parent.type == "parenthesized_expression":
            current = parent
            continue
        if parent.type not in ("tuple", "expression_list"):
            return None
        items = [c for c in parent.named_children if c.type != "comment"]
        path.append(next(i for i, c in enumerate(items) if c.id == current.id))
        current = parent
    return None


def _select(value: Node, index: tuple[int, ...]) -> Node:
    """The part of a tuple value a binding at `index` holds: `a, b = x, y` -> b: `y`."""
    for position in index:
        while value.type == "parenthesized_expression" and value.named_children:
            value = value.named_children[0]
        if value.type not in ("tuple", "expression_list", "list"):
            return value
        items = [c for c in value.named_children if c.type != "comment"]
        if position >= len(items):
            return value
        value = items[position]
    return value
