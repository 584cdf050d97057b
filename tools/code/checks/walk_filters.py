"""One collection walked twice, by walks that drop different elements, to build two
arrays the code lines up row by row: the features skip the days without weather, the
labels the days without a till export, and the two are cut to the shorter length or
zipped. From the first element that one walk drops and the other keeps, every row
carries a later element's label.

Only the candidates are found here, never a finding: which arrays belong together comes
from the data flow (`tools.code.pairing`), the walks from `walk_orders`, and what each
walk drops from the code around its loop (`if <test>: continue`, an append under
`if <test>:`, a comprehension's `if`). The run decides (agent/checks/pairing_filters.py):
the smallest change, both arrays built from the elements that both walks keep, is made
in a copy, and only pairs that then transfer clearly better confirm anything. Two walks
that drop by the same test, or arrays the code does not line up, are no candidates."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext
from torch_investigate.tools.code.checks.walk_orders import (
    ADDERS,
    Walk,
    _helper_calls,
    _one_function,
    _read,
    sorters,
    walks,
)
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.pairing import Pairing

LOOPS = frozenset({"for_statement", "while_statement"})
ELEMENT = "e_"  # the element's name in the filtering comprehension the edit writes


@dataclass(frozen=True)
class Drop:
    """Where a walk may leave an element out: `test` true keeps it (`keeps`) or drops
    it; no test when the walk drops by other means (an `except: continue`)."""

    at: Node
    test: Node | None
    keeps: bool


@dataclass(frozen=True, eq=False)
class Side:
    """One of the two arrays: its walk, what the walk drops, and how the scope that
    pairs the arrays hands the collection over."""

    walk: Walk
    drops: tuple[Drop, ...]
    read: Node  # where the scope reads the array: the helper call, or the walk's list
    held: Node  # the collection's name in that scope: the call's argument, or the walked name
    call: Node | None = None  # the helper call; None for a walk in the scope itself

    @property
    def line(self) -> int:
        """Where the array is made in the scope that pairs: the call, else the loop."""
        return sx.line(self.call if self.call is not None else self.walk.loop)


@dataclass(frozen=True)
class FilteredPair:
    unit: FileUnit  # the file of the scope that pairs the arrays (every edit is there)
    collection: str
    first: Side
    second: Side  # the later of the two in that scope

    def __repr__(self) -> str:
        return (
            f"FilteredPair({self.collection!r} at {self.unit.file}:{self.first.line} and "
            f"{self.unit.file}:{self.second.line})"
        )

    def edits(self) -> list[tuple[int, int, str, str]] | None:
        """(start byte, end byte, old, new) in `unit`, latest first: each array built from
        the elements both walks keep; None when a walk's test cannot be written there."""
        keeps = [_keep(s) for s in (self.first, self.second)]
        if any(k is None for k in keeps):
            return None
        tests = [k for k in keeps if k]
        if not tests:
            return None
        c = self.collection
        new = f"[{ELEMENT} for {ELEMENT} in {c} if {' and '.join(tests)}]"
        out = [
            (s.held.start_byte, s.held.end_byte, sx.text(s.held), new)
            for s in (self.first, self.second)
        ]
        return sorted(out, reverse=True)


def filtered_pairs(ctx: CheckContext, pairing: Pairing) -> Iterator[FilteredPair]:
    """Every two arrays the code lines up row by row, built by walks of one collection in
    one order that drop elements by different tests."""
    by = sorters(ctx.index.units.values())
    all_walks = [
        w for unit in ctx.index.units.values() if b"for " in unit.source for w in walks(unit, by)
    ]
    if len(all_walks) < 2:
        return
    seen: set[tuple[int, int]] = set()
    for unit, a, b in [*_local_pairs(all_walks), *_helper_pairs(ctx, all_walks)]:
        if a.walk.order != b.walk.order or _signature(a) == _signature(b):
            continue
        if not (a.drops or b.drops) or sx.text(a.held) != sx.text(b.held):
            continue
        key = (a.read.id, b.read.id)
        if key in seen:
            continue
        m1 = pairing.member_at(unit, _read(a.read))
        m2 = pairing.member_at(unit, _read(b.read))
        if pairing.paired(m1, m2):
            seen.add(key)
            first, second = sorted((a, b), key=lambda s: s.read.start_byte)
            yield FilteredPair(unit, sx.text(a.held), first, second)


def _local_pairs(all_walks: list[Walk]) -> Iterator[tuple[FileUnit, Side, Side]]:
    """Two walks in one function over one name."""
    sides = [(w, _local(w)) for w in all_walks]
    for i, (a, sa) in enumerate(sides):
        for b, sb in sides[i + 1 :]:
            if sa and sb and a.unit is b.unit and _one_function(a.fn, b.fn):
                yield a.unit, sa, sb


def _local(w: Walk) -> Side | None:
    name = _walked_name(w)
    if name is None or sx.text(name) != w.collection:
        return None
    return Side(w, tuple(drops(w)), w.built, name)


def _helper_pairs(
    ctx: CheckContext, all_walks: list[Walk]
) -> Iterator[tuple[FileUnit, Side, Side]]:
    """Two helpers that walk a parameter and return the array built, called in one
    function with the same name; or one such helper beside a walk of that name there."""
    calls = [
        (unit, Side(w, tuple(drops(w)), call, arg, call))
        for unit, call, w, arg in _helper_calls(ctx, all_walks)
        if arg.type == "identifier"
    ]
    for i, (u1, s1) in enumerate(calls):
        scope = sx.enclosing_function(s1.call)  # type: ignore[arg-type]
        for u2, s2 in calls[i + 1 :]:
            if (
                u2 is u1
                and s2.walk.fn is not s1.walk.fn
                and _one_function(
                    sx.enclosing_function(s2.call),  # type: ignore[arg-type]
                    scope,
                )
            ):
                yield u1, s1, s2
        for w in all_walks:
            local = _local(w) if w.unit is u1 and _one_function(w.fn, scope) else None
            if local is not None and sx.text(local.held) == sx.text(s1.held):
                yield u1, s1, local


def drops(w: Walk) -> Iterator[Drop]:
    """Where the walk may leave an element out of the array it builds, by a test of the
    element (a test of its position alone, `if i < 3: continue`, cuts a window, not a
    record)."""
    var = _element(w)
    for d in _drops(w):
        if d.test is None or var is None or var in sx.identifiers_in(d.test):
            yield d


def _drops(w: Walk) -> Iterator[Drop]:
    if w.loop.type == "for_in_clause":
        comp = w.loop.parent
        for clause in comp.named_children if comp is not None else []:
            if clause.type == "if_clause" and clause.named_children:
                yield Drop(clause, clause.named_children[0], keeps=True)
        return
    body = w.loop.child_by_field_name("body")
    if body is None:
        return
    for node in _own(body):
        if node.type == "continue_statement":
            yield _skip(node, body)
    for call in sx.calls_in(body):
        recv = sx.receiver(call)
        if sx.method_name(call) in ADDERS and recv is not None and recv.id == w.built.id:
            yield from _guards(call, body)
            break


def _own(body: Node) -> Iterator[Node]:
    """The nodes of a loop's body outside nested loops and scopes."""
    stack = list(reversed(body.children))
    while stack:
        node = stack.pop()
        yield node
        if node.type not in LOOPS and node.type not in sx.SCOPE_TYPES:
            stack.extend(reversed(node.children))


def _skip(cont: Node, body: Node) -> Drop:
    """The `if <test>: continue` a `continue` ends, else the statement it is in."""
    block = cont.parent
    stmt = block.parent if block is not None and block.type == "block" else None
    if (
        stmt is not None
        and stmt.type == "if_statement"
        and stmt.parent is not None
        and stmt.parent.id == body.id
        and len(block.named_children) == 1  # type: ignore[union-attr]
        and stmt.child_by_field_name("alternative") is None
    ):
        return Drop(stmt, stmt.child_by_field_name("condition"), keeps=False)
    return Drop(sx.statement_of(cont), None, keeps=False)


def _guards(call: Node, body: Node) -> Iterator[Drop]:
    """The plain `if` statements between the loop's body and the append that hold it."""
    for anc in sx.ancestors(call):
        if anc.id == body.id:
            return
        # an `if` with another branch may append there too: no drop that can be told
        if anc.type == "if_statement" and anc.child_by_field_name("alternative") is None:
            yield Drop(anc, anc.child_by_field_name("condition"), keeps=True)


def _walked_name(w: Walk) -> Node | None:
    """The name a walk iterates, plain or inside `enumerate(...)`."""
    node = w.walked
    if node.type == "call" and sx.text(sx.call_function(node) or node) == "enumerate":
        args, _ = sx.call_args(node)
        node = args[0] if len(args) == 1 else node
    return node if node.type == "identifier" else None


def _element(w: Walk) -> str | None:
    """The loop's name for the element itself (`r` in `for r in rows` or
    `for i, r in enumerate(rows)`)."""
    left, right = w.loop.child_by_field_name("left"), w.loop.child_by_field_name("right")
    if left is None or right is None:
        return None
    counted = right.type == "call" and sx.text(sx.call_function(right) or right) == "enumerate"
    if left.type == "identifier" and not counted:
        return sx.text(left)
    parts = left.named_children if left.type in ("pattern_list", "tuple_pattern") else []
    if counted and len(parts) == 2 and parts[1].type == "identifier":
        return sx.text(parts[1])
    return None


def _signature(s: Side) -> frozenset[tuple[bool, str]]:
    """What a side drops, the element renamed alike in both walks."""
    var = _element(s.walk)
    return frozenset(
        (d.keeps, _renamed(d.test if d.test is not None else d.at, var, ELEMENT)) for d in s.drops
    )


def _keep(s: Side) -> str | None:
    """A test of one element `e_` that keeps it where the side keeps it; "" when the
    side drops nothing; None when it cannot be written in the scope that pairs."""
    if not s.drops:
        return ""
    if s.call is not None:
        args, _ = sx.call_args(s.call)
        if not any(a.id == s.held.id for a in args):
            return None
        start, end = s.held.start_byte - s.call.start_byte, s.held.end_byte - s.call.start_byte
        whole = s.call.text or b""
        one = (whole[:start] + f"[{ELEMENT}]".encode() + whole[end:]).decode("utf-8", "replace")
        return f"len({one}) > 0"
    var = _element(s.walk)
    if var is None or any(d.test is None for d in s.drops):
        return None
    inner = _bound_inside(s.walk) - {var}
    tests = []
    for d in s.drops:
        if sx.identifiers_in(d.test) & inner:  # type: ignore[arg-type]
            return None  # reads a name the loop binds for this element
        text = _renamed(d.test, var, ELEMENT)  # type: ignore[arg-type]
        tests.append(f"({text})" if d.keeps else f"not ({text})")
    return " and ".join(tests)


def _bound_inside(w: Walk) -> set[str]:
    """Names bound inside the loop (its targets and its body's assignments)."""
    found: set[str] = set()
    left = w.loop.child_by_field_name("left")
    if left is not None:
        found |= sx.identifiers_in(left)
    body = w.loop.child_by_field_name("body")
    for node in sx.descendants(body) if body is not None else []:
        if node.type in ("assignment", "augmented_assignment", "for_statement"):
            target = node.child_by_field_name("left")
            if target is not None:
                found |= sx.identifiers_in(target)
    return found


def _renamed(node: Node, old: str | None, new: str) -> str:
    """node's text with the name `old` (not attributes, not keywords) written `new`."""
    data = node.text or b""
    if old is None:
        return data.decode("utf-8", "replace")
    spots = []
    for n in sx.descendants(node, into_scopes=True):
        parent = n.parent
        if n.type != "identifier" or sx.text(n) != old or parent is None:
            continue
        if parent.type == "attribute" and parent.child_by_field_name("attribute") == n:
            continue
        if parent.type == "keyword_argument" and parent.child_by_field_name("name") == n:
            continue
        spots.append((n.start_byte - node.start_byte, n.end_byte - node.start_byte))
    for start, end in sorted(spots, reverse=True):
        data = data[:start] + new.encode() + data[end:]
    return data.decode("utf-8", "replace")
