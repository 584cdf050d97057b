"""One collection walked in two orders to build two arrays the code pairs row by row:
the features built over `sorted(groups)` and the labels over `groups.items()` (the order
the mapping was filled in), in one function or in two helpers called with the same
collection. Unless the collection happens to be filled in sorted order, each row gets the
label of another group.

Which arrays belong together is decided by the data flow (`tools.code.pairing`), never by
their names; the orders by what the code calls (`sorted`, `.items()`, the bare
collection). Two walks in the same order, or arrays the code does not line up, do not
fire.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext, check, observe, spot
from torch_investigate.tools.code.checks.labels import misaligned, pairing_of
from torch_investigate.tools.code.checks.walk_sources import parameter_copied
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.pairing import Pairing
from torch_investigate.tools.records import Finding

VIEWS = frozenset({"items", "keys", "values"})
ADDERS = frozenset({"append", "extend"})
STORED = "as stored"  # the order a mapping was filled in, a list's own order


@dataclass(frozen=True, eq=False)
class Walk:
    """A loop (or comprehension) over a collection that builds an array."""

    unit: FileUnit
    loop: Node  # the `for` statement or the comprehension's `for` clause
    collection: str  # the name walked
    order: str  # STORED, or how `sorted` orders it
    walked: Node  # the expression iterated (inside `enumerate(...)`)
    built: Node  # where the array is read: the list appended to, or the comprehension
    fn: Node | None  # the enclosing function
    # `ordered = sorted(items, key=...)` when the loop walks such a sorted copy: the
    # `sorted(...)` call (the walk's order is made there)
    sorted_copy: Node | None = None
    # `[v for k, v in log.items() if k in wanted]`, wanted = set(ids): a walk of `ids` in
    # the order the mapping stores them; the mapping walked (its `.items()` call or name)
    filtered_from: Node | None = None

    @property
    def place(self) -> Node:
        """Where the walk's order is made: the sorted copy, else the loop."""
        return self.sorted_copy if self.sorted_copy is not None else self.loop


def sorters(units) -> dict[str, str]:
    """Functions that return their first parameter sorted (`def by_length(xs): return
    sorted(xs, key=len)`), by name: the order a walk over their result takes."""
    found: dict[str, str] = {}
    for unit in units:
        for fn in sx.descendants(unit.tree.root_node, into_scopes=True):
            if fn.type != "function_definition":
                continue
            params = sx.parameter_names(fn)
            rets = [n for n in sx.descendants(fn) if n.type == "return_statement"]
            value = rets[0].named_children[0] if len(rets) == 1 and rets[0].named_children else None
            inner = _walked(value) if value is not None and params else None
            if inner is not None and inner[0] == params[0] and inner[1] != STORED:
                found[sx.function_name(fn)] = inner[1]
    return found


def walks(unit: FileUnit, sorted_by: dict[str, str] | None = None) -> Iterator[Walk]:
    for node in sx.descendants(unit.tree.root_node, into_scopes=True):
        if node.type not in ("for_statement", "for_in_clause"):
            continue
        right = node.child_by_field_name("right")
        walked = _walked(right, sorted_by) if right is not None else None
        if walked is None:
            continue
        built = _built(node)
        if built is None:
            continue
        fn = sx.enclosing_function(node)
        kept = _kept_by_membership(node, fn) if walked[1] == STORED else None
        if kept is not None:
            order = f"the order `{walked[0]}` stores them in"
            yield Walk(unit, node, kept, order, walked[2], built, fn, filtered_from=walked[2])
            continue
        copy = _sorted_copy(fn, walked[0], node) if walked[1] == STORED else None
        inner = _walked(copy) if copy is not None else None
        if inner is not None:
            source = parameter_copied(fn, inner[0], node) or inner[0]
            yield Walk(unit, node, source, inner[1], inner[2], built, fn, copy)
            continue
        source = parameter_copied(fn, walked[0], node) or walked[0]
        yield Walk(unit, node, source, walked[1], walked[2], built, fn)


def _kept_by_membership(clause: Node, fn: Node | None) -> str | None:
    """The collection a comprehension over a mapping keeps only the members of (`if k in
    wanted`, `wanted = set(ids)` or `ids` itself): the walk goes over that collection's
    members, in the mapping's order."""
    if clause.type != "for_in_clause" or clause.parent is None:
        return None
    left = clause.child_by_field_name("left")
    key = left.named_children[0] if left is not None and left.type == "pattern_list" else left
    if key is None or key.type != "identifier":
        return None
    for cond in (c for c in clause.parent.named_children if c.type == "if_clause"):
        test = cond.named_children[0] if cond.named_children else None
        parts = (
            test.named_children if test is not None and test.type == "comparison_operator" else []
        )
        if (
            len(parts) == 2
            and b" in " in test.text  # type: ignore[union-attr]
            and b"not in" not in test.text  # type: ignore[union-attr]
            and sx.text(parts[0]) == sx.text(key)
            and parts[1].type == "identifier"
        ):
            return _members_of(fn, sx.text(parts[1]))
    return None


def _members_of(fn: Node | None, name: str) -> str | None:
    """`name` itself when it is a parameter of `fn`, the parameter it is made a set of
    (`wanted = set(ids)`) otherwise; None when it is neither."""
    if fn is None:
        return None
    params = sx.parameter_names(fn)
    if name in params:
        return name
    for node in sx.descendants(fn):
        if node.type != "assignment":
            continue
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or sx.text(left) != name or right.type != "call":
            continue
        args, _ = sx.call_args(right)
        if (
            sx.text(sx.call_function(right) or right) in ("set", "frozenset")
            and len(args) == 1
            and sx.text(args[0]) in params
        ):
            return sx.text(args[0])
    return None


def _sorted_copy(fn: Node | None, name: str, loop: Node) -> Node | None:
    """The `sorted(...)` call a name is bound to before the loop in the same function
    (`ordered = sorted(records, key=...)`), when that is its only binding there."""
    if fn is None:
        return None
    found = []
    for node in sx.descendants(fn):
        if node.type != "assignment":
            continue
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is not None and left.type == "identifier" and sx.text(left) == name:
            found.append(right)
    if len(found) != 1 or found[0] is None or found[0].start_byte > loop.start_byte:
        return None
    right = found[0]
    if right.type == "call" and sx.text(sx.call_function(right) or right) == "sorted":
        return right
    return None


def _walked(expr: Node, sorted_by: dict[str, str] | None = None) -> tuple[str, str, Node] | None:
    """(collection, order, the expression iterated) of what a loop iterates: `d`,
    `d.items()`, `sorted(d)`, `sorted(d.items(), key=...)`, through `enumerate(...)`; a
    call of a function that returns its argument sorted (`sorted_by`) walks it in that
    order."""
    order = STORED
    if expr.type == "call" and sx.text(sx.call_function(expr) or expr) == "enumerate":
        args, _ = sx.call_args(expr)
        if not args:
            return None
        expr = args[0]
    walked = expr
    helper = (
        sx.text(sx.call_function(expr) or expr).rsplit(".", 1)[-1] if expr.type == "call" else ""
    )
    if sorted_by and helper in sorted_by:
        args, _ = sx.call_args(expr)
        if args and args[0].type == "identifier":
            return sx.text(args[0]), sorted_by[helper], walked
    if expr.type == "call" and sx.text(sx.call_function(expr) or expr) == "sorted":
        args, kwargs = sx.call_args(expr)
        if len(args) != 1:
            return None
        extra = ",".join(f"{k}={sx.flat(v)}" for k, v in sorted(kwargs.items()))
        expr, order = args[0], f"sorted({extra})"
        view = sx.method_name(expr) if expr.type == "call" else None
        if view == "values":
            order += " by value"
    if expr.type == "call" and sx.method_name(expr) in VIEWS and not sx.call_args(expr)[0]:
        recv = sx.receiver(expr)
        if recv is None:
            return None
        expr = recv
    if expr.type != "identifier":
        return None
    return sx.text(expr), order, walked


def _built(loop: Node) -> Node | None:
    """The array the loop builds: the comprehension a `for` clause belongs to, or the
    first list a `for` statement's body appends to (a name bound outside the loop)."""
    if loop.type == "for_in_clause":
        parent = loop.parent
        return parent if parent is not None and parent.type == "list_comprehension" else None
    body = loop.child_by_field_name("body")
    if body is None:
        return None
    for call in sx.calls_in(body):
        recv = sx.receiver(call)
        if sx.method_name(call) in ADDERS and recv is not None and recv.type == "identifier":
            return recv
    for node in sx.descendants(body):  # `out[i] = ...`: rows written by position
        left = node.child_by_field_name("left") if node.type == "assignment" else None
        held = (
            left.child_by_field_name("value")
            if left is not None and left.type == "subscript"
            else None
        )
        if held is not None and held.type == "identifier":
            return held
    return None


@dataclass(frozen=True)
class Pair:
    first: Walk
    second: Walk
    at_first: Node  # where each array is read in the scope that pairs them
    at_second: Node
    scope_unit: FileUnit


def _one_function(a: Node | None, b: Node | None) -> bool:
    """Two enclosing functions are the same (both None: module level)."""
    return a is b or (a is not None and b is not None and a.id == b.id)


def _same_function(pairs: list[Walk]) -> Iterator[Pair]:
    for i, a in enumerate(pairs):
        for b in pairs[i + 1 :]:
            if _one_function(a.fn, b.fn) and a.collection == b.collection:
                yield Pair(a, b, a.built, b.built, a.unit)


def _helper_calls(
    ctx: CheckContext, all_walks: list[Walk]
) -> Iterator[tuple[FileUnit, Node, Walk, Node]]:
    """(unit, call, walk, argument) for each call of a helper that walks one of its
    parameters and returns the array built, with what the call passes for it."""
    by_name: dict[str, list[tuple[Walk, int]]] = {}
    for w in all_walks:
        if w.fn is None or not _returns(w.fn):
            continue
        params = sx.parameter_names(w.fn)
        if w.collection in params:
            by_name.setdefault(sx.function_name(w.fn), []).append((w, params.index(w.collection)))
    if not by_name:
        return
    for unit in ctx.index.units.values():
        for call in sx.calls_in(unit.tree.root_node, into_scopes=True):
            fn = sx.call_function(call)
            name = sx.text(fn).rsplit(".", 1)[-1] if fn is not None else ""
            for w, k in by_name.get(name, []):
                arg = sx.argument(call, k, w.collection)
                if arg is not None:
                    yield unit, call, w, arg


def _helpers(ctx: CheckContext, all_walks: list[Walk]) -> Iterator[Pair]:
    """Two helpers that each walk one of their parameters and return the array built,
    called in one scope with the same collection for those parameters."""
    by_unit: dict[int, list[tuple[FileUnit, Node, Walk, Node]]] = {}
    for found in _helper_calls(ctx, all_walks):
        if found[3].type == "identifier":
            by_unit.setdefault(id(found[0]), []).append(found)
    for calls in by_unit.values():
        for i, (unit, c1, w1, a1) in enumerate(calls):
            for _, c2, w2, a2 in calls[i + 1 :]:
                if w1.fn is w2.fn or sx.function_name(w1.fn) == sx.function_name(w2.fn):  # type: ignore[arg-type]
                    continue
                if sx.text(a1) != sx.text(a2) or sx.enclosing_function(c1) != sx.enclosing_function(
                    c2
                ):
                    continue
                yield Pair(w1, w2, c1, c2, unit)


def _helper_beside_local(ctx: CheckContext, all_walks: list[Walk]) -> Iterator[Pair]:
    """A helper that walks its parameter and returns the array built, called with a
    collection (or a list made from it in its own order, `[s.trace for s in records]`)
    in a scope that walks that collection itself for the other array."""
    for unit, call, w, arg in _helper_calls(ctx, all_walks):
        collection = _collection_of(arg)
        if collection is None:
            continue
        scope = sx.enclosing_function(call)
        for local in all_walks:
            if (
                local.unit is unit
                and _one_function(local.fn, scope)
                and local.collection == collection
                and local.built.id != arg.id  # the list handed over is no walk of its own
            ):
                yield Pair(replace(w, collection=collection), local, call, local.built, unit)


def _collection_of(arg: Node) -> str | None:
    """The collection an argument hands over in its own order: a name, or a list
    comprehension over a name (`[s.pressure for s in train]`)."""
    if arg.type == "identifier":
        return sx.text(arg)
    if arg.type == "list_comprehension":
        clauses = [c for c in arg.named_children if c.type == "for_in_clause"]
        right = clauses[0].child_by_field_name("right") if len(clauses) == 1 else None
        if right is not None and right.type == "identifier":
            return sx.text(right)
    return None


def _returns(fn: Node) -> bool:
    return any(n.type == "return_statement" for n in sx.descendants(fn))


@check("walk_orders", "label_misaligned")
def walk_orders(ctx: CheckContext) -> Iterator[Finding]:
    """Two paired arrays built by walking one collection in two orders."""
    yield from two_orders(ctx, pairing_of(ctx))


def mismatched(ctx: CheckContext, pairing: Pairing) -> Iterator[tuple[Walk, Walk]]:
    """(the walk to reorder, the walk it must follow) for every two paired arrays built
    by walking one collection in two orders: the walk in the collection's stored order
    is the one to sort, else the later one."""
    by = sorters(ctx.index.units.values())
    all_walks = [
        w for unit in ctx.index.units.values() if b"for " in unit.source for w in walks(unit, by)
    ]
    if len(all_walks) < 2:
        return
    candidates = [
        *_same_function(all_walks),
        *_helpers(ctx, all_walks),
        *_helper_beside_local(ctx, all_walks),
    ]
    seen: set[int] = set()
    for p in candidates:
        if p.first.order == p.second.order:
            continue
        m1 = pairing.member_at(p.scope_unit, _read(p.at_first))
        m2 = pairing.member_at(p.scope_unit, _read(p.at_second))
        if not pairing.paired(m1, m2):
            continue
        wrong, right = (p.first, p.second) if _odd(p.first, p.second) else (p.second, p.first)
        if wrong.loop.id not in seen:
            seen.add(wrong.loop.id)
            yield wrong, right


def _odd(a: Walk, b: Walk) -> bool:
    """Whether `a` is the walk to change: the one that sorts a sequence by a key of its
    own (a list has an order worth keeping), else the one in stored order (a mapping's
    insertion order is arbitrary), else the later one."""
    if (a.filtered_from is None) != (b.filtered_from is None):
        return a.filtered_from is not None  # the members kept in another collection's order
    keyed = [w.sorted_copy is not None or w.order.startswith("sorted(key") for w in (a, b)]
    if keyed[0] != keyed[1]:
        return keyed[0]
    if (a.order == STORED) != (b.order == STORED):
        return a.order == STORED
    return a.loop.start_byte > b.loop.start_byte if a.unit is b.unit else False


def reordering_edit(wrong: Walk, right: Walk) -> tuple[int, int, str, str] | None:
    """The smallest edit that walks `wrong` in `right`'s order, as (start byte, end byte,
    old text, new text) on one line; None where it is not a plain `sorted(...)` added or
    a sorted copy's sort removed."""
    if wrong.filtered_from is not None and right.order == STORED:
        # walk the members in the collection's own order, each with its value
        node = wrong.filtered_from
        old = sx.text(node)
        mapping = sx.receiver(node) if node.type == "call" else node
        if mapping is None or "\n" in old:
            return None
        m = sx.text(mapping)
        view = sx.method_name(node) if node.type == "call" else None
        new = (
            f"(({'k_'}, {m}[k_]) for k_ in {wrong.collection} if k_ in {m})"
            if view == "items"
            else f"({m}[k_] for k_ in {wrong.collection} if k_ in {m})"
            if view == "values"
            else f"(k_ for k_ in {wrong.collection} if k_ in {m})"
        )
        return node.start_byte, node.end_byte, old, new
    if wrong.sorted_copy is not None and right.order == STORED:
        old = sx.text(wrong.sorted_copy)
        args, _ = sx.call_args(wrong.sorted_copy)
        if "\n" in old or len(args) != 1:
            return None
        return (
            wrong.sorted_copy.start_byte,
            wrong.sorted_copy.end_byte,
            old,
            f"list({sx.text(args[0])})",
        )
    if wrong.order != STORED and right.order == STORED and wrong.walked.type == "call":
        # a walk over `sorted(xs, key=...)` or a helper that sorts: walk `xs` as stored
        args, _ = sx.call_args(wrong.walked)
        old = sx.text(wrong.walked)
        if len(args) >= 1 and "\n" not in old:
            return wrong.walked.start_byte, wrong.walked.end_byte, old, f"list({sx.text(args[0])})"
        return None
    if wrong.order != STORED or right.order != "sorted()":
        return None
    node = wrong.walked
    old = sx.text(node)
    held = sx.receiver(node) if node.type == "call" else None
    if held is not None and sx.method_name(node) == "values":
        new = f"[{sx.text(held)}[k_] for k_ in sorted({sx.text(held)})]"
    else:
        new = f"sorted({old})"
    if "\n" in old:
        return None
    return node.start_byte, node.end_byte, old, new


def two_orders(ctx: CheckContext, pairing: Pairing) -> Iterator[Finding]:
    """Findings for arrays built by walking one collection in two orders and paired."""
    for wrong, right in mismatched(ctx, pairing):
        at = spot(ctx, (wrong.unit.file, wrong.place))
        other = spot(ctx, (right.unit.file, right.place))
        yield misaligned(
            at,
            [
                observe(
                    other,
                    f"one array is built walking `{right.collection}` in {_words(right.order)}",
                ),
                observe(
                    at,
                    f"the array lined up with it row by row walks `{wrong.collection}` in {_words(wrong.order)}",
                ),
            ],
            f"walk the collection in the same order in both places (e.g. `sorted(...)` at {at.file}:{at.line})",
            "medium",
        )


def _read(node: Node) -> Node:
    """The node whose binding holds the array: the name a call or a comprehension is
    assigned to, through calls that wrap it (`torch.from_numpy(build(...))`), else the
    node itself."""
    current = node
    while current.parent is not None and current.parent.type == "argument_list":
        call = current.parent.parent
        # a call that only wraps it (`torch.from_numpy`), not one that lines it up
        args = sx.call_args(call)[0] if call is not None and call.type == "call" else []
        if len(args) != 1 or args[0].id != current.id:
            break
        current = call
    parent = current.parent
    if parent is not None and parent.type == "assignment":
        left = parent.child_by_field_name("left")
        right = parent.child_by_field_name("right")
        if (
            left is not None
            and right is not None
            and right.id == current.id
            and left.type == "identifier"
        ):
            return left
    return current


def _words(order: str) -> str:
    if order.startswith("the order"):
        return order
    return "the order it was filled in" if order == STORED else f"`{order}` order"
