"""Rows reordered by a random permutation or a roll (`v[perm]`, `v.roll(1, 0)`), and
whether the arrays the code lines up with them were reordered the same way.

A reordering breaks the pairs when an array lined up with it row by row (by the data
flow, `tools.code.pairing`) was reordered by another permutation, or by none while the
reordered rows replace the original. Where the flow shows no partner, the names decide
as they always did (`y[perm]` with `X` left alone).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext
from torch_investigate.tools.code.checks.label_names import kind_and_stem
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.names import last
from torch_investigate.tools.code.pairing import Pairing
from torch_investigate.tools.code.rows import Member
from torch_investigate.tools.code.values import Value

PERMUTATION_CALLS = frozenset({"randperm", "permutation"})
PERMUTATION_WORDS = (b"randperm", b"permutation", b"roll")
# Reductions over the rows: their result does not depend on the rows' order.
ROW_REDUCTIONS = frozenset(
    {"mean", "std", "var", "sum", "min", "max", "median", "amin", "amax", "nanmean", "nanstd"}
)
INDEX_TYPES = frozenset({"identifier", "call", "attribute", "subscript"})


@dataclass(frozen=True)
class Broken:
    """Rows reordered apart from their partner's: where to report, and what shows it."""

    at: Node
    seen: tuple[tuple[Node, str], ...]


@dataclass(frozen=True, eq=False)
class Reordering:
    node: Node  # `v[perm]` or the roll call
    key: object  # what reorders: a permutation call's node id, or `roll:<args>`
    value: Node  # what is reordered (`v`)


_ALIGNED = "aligned"


def different_permutations(
    ctx: CheckContext, pairing: Pairing, unit: FileUnit, scope: Node
) -> Iterator[Broken]:
    """At most one per scope: the latest reordering that breaks the pairs."""
    if not any(word in unit.source for word in PERMUTATION_WORDS):
        return
    found, bound_kinds = _reorderings(ctx, unit, scope)
    if not found:
        return
    members = tuple(pairing.member_at(unit, r.node) for r in found)
    # The latest reordering is the one that breaks the pairs: report there.
    for k in sorted(range(len(found)), key=lambda k: -found[k].node.start_byte):
        verdict = _by_flow(pairing, unit, found, members, k)
        if verdict is None:
            verdict = _by_names(ctx, unit, found, k, bound_kinds)
        if isinstance(verdict, Broken):
            yield verdict
            return


def _reorderings(
    ctx: CheckContext, unit: FileUnit, scope: Node
) -> tuple[list[Reordering], set[tuple[str, str]]]:
    found: list[Reordering] = []
    bound_kinds: set[tuple[str, str]] = set()  # names bound in the scope, for the fallback
    for node in sx.descendants(scope):  # nested functions and classes are their own scopes
        if node.type == "identifier":
            named = kind_and_stem(sx.text(node))
            if named is not None:
                bound_kinds.add(named)
            continue
        reordered = _reordering(ctx, unit, node)
        if reordered is not None:
            found.append(Reordering(node, *reordered))
    return found, bound_kinds


def _reordering(ctx: CheckContext, unit: FileUnit, node: Node) -> tuple[object, Node] | None:
    """(what reorders, what is reordered) for `v[perm]` with a random permutation and
    for `v.roll(k, 0)` / `torch.roll(v, k, 0)`."""
    if node.type == "subscript":
        value = node.child_by_field_name("value")
        parts = node.children_by_field_name("subscript")
        if value is None or len(parts) != 1 or parts[0].type not in INDEX_TYPES:
            return None
        parent = node.parent
        if parent is not None and parent.type in ("assignment", "augmented_assignment"):
            left = parent.child_by_field_name("left")
            if left is not None and left.id == node.id:
                return None  # `v[perm] = ...` writes rows, it does not reorder them
        perm = _permutation_origin(ctx, unit, parts[0])
        return (perm.id, value) if perm is not None else None
    if node.type == "call" and b"roll" in (node.text or b"")[:60]:
        fn = sx.call_function(node)
        if fn is None:
            return None
        args, _ = sx.call_args(node)
        if unit.is_module_function(fn) and last(unit.resolve_callee(fn)[1]) == "roll" and args:
            return "roll:" + ",".join(sx.flat(a) for a in args[1:]), args[0]
        recv = sx.receiver(node)
        if sx.method_name(node) == "roll" and recv is not None:
            return "roll:" + ",".join(sx.flat(a) for a in args), recv
    return None


def _permutation_origin(ctx: CheckContext, unit: FileUnit, index: Node) -> Node | None:
    for o in ctx.flow.trace(ctx.flow.value(unit, index), budget=60):
        node = o.node
        if node.type == "call":
            fn = sx.call_function(node)
            if (
                fn is not None
                and last(o.value.frame.unit.resolve_callee(fn)[1]) in PERMUTATION_CALLS
            ):
                return node
    return None


def _by_flow(
    pairing: Pairing,
    unit: FileUnit,
    found: list[Reordering],
    members: tuple[Member, ...],
    k: int,
) -> Broken | str | None:
    """Broken, `_ALIGNED` (every partner was reordered the same way), or None (no partner,
    or one whose rows the flow cannot settle)."""
    r = found[k]
    partners = pairing.partners(members[k])
    undecided = not partners
    for p in partners:
        keys = {found[j].key: found[j] for j in pairing.derives(p, members)}
        if r.key in keys:
            continue
        if keys:
            first, then = sorted((r, *keys.values()), key=lambda x: x.node.start_byte)[-2:]
            return Broken(
                then.node,
                (
                    (
                        first.node,
                        f"`{sx.flat(first.value)}` is reordered by one random permutation",
                    ),
                    (then.node, f"`{sx.flat(then.value)}` by another"),
                ),
            )
        if _replaces(pairing, unit, r):
            return Broken(
                r.node,
                (
                    (r.node, f"`{sx.flat(r.value)}` is reordered by a random permutation"),
                    (
                        p.node,
                        f"but `{sx.flat(p.node)}`, lined up with it row by row, keeps its order",
                    ),
                ),
            )
        undecided = True
    return None if undecided else _ALIGNED


def _replaces(pairing: Pairing, unit: FileUnit, r: Reordering) -> bool:
    """The reordered rows take the original's place: `y = y[perm]`, or the original is
    never read again."""
    base = r.value
    if base.type not in ("identifier", "attribute"):
        return False
    statement = sx.statement_of(r.node)
    if statement.type == "expression_statement" and statement.named_children:
        statement = statement.named_children[0]
    if statement.type == "assignment":
        left = statement.child_by_field_name("left")
        if left is not None and sx.flat(left) == sx.flat(base):
            return True
    member = pairing.member_at(unit, base)
    for node in sx.descendants(member.home, into_scopes=True):
        if node.start_byte < r.node.end_byte or node.type != base.type:
            continue
        if sx.flat(node) == sx.flat(base) and pairing.holds(pairing.flow.value(unit, node), member):
            return False
    return True


def _by_names(
    ctx: CheckContext,
    unit: FileUnit,
    found: list[Reordering],
    k: int,
    bound_kinds: set[tuple[str, str]],
) -> Broken | None:
    """The fallback where the flow shows no partner: `X[p1]` and `y[p2]` by name, or the
    labels (or the features, with labels bound nearby) reordered alone."""
    r = found[k]
    named = kind_and_stem(sx.flat(r.value))
    if named is None or _order_free(ctx, unit, r.node):
        return None
    kind, stem = named
    partner = "labels" if kind == "features" else "features"
    same = [
        o for o in found if o.key == r.key and kind_and_stem(sx.flat(o.value)) == (partner, stem)
    ]
    if same:
        return None  # both sides see this permutation
    other = next(
        (o for o in found if o.key != r.key and kind_and_stem(sx.flat(o.value)) == (partner, stem)),
        None,
    )
    text = sx.flat(r.value)
    if other is not None:
        return Broken(
            r.node,
            (
                (other.node, f"`{sx.flat(other.value)}` is reordered by one random permutation"),
                (r.node, f"`{text}` by another"),
            ),
        )
    if kind == "labels" or (partner, stem) in bound_kinds:
        note = f"`{text}` is reordered by a random permutation its partner never sees"
        return Broken(r.node, ((r.node, note),))
    return None


def _order_free(ctx: CheckContext, unit: FileUnit, node: Node) -> bool:
    """Rows only reduced over (`x[rows].mean(0)`, or passed to a function that only
    does that): their order cannot matter."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "attribute" and parent.parent is not None:
        call = parent.parent
        return call.type == "call" and _reduces_rows(call)
    if parent.type != "argument_list" or parent.parent is None:
        return False
    call = parent.parent
    fn = sx.call_function(call)
    if fn is None:
        return False
    at = ctx.flow.value(unit, call)
    for callee in ctx.flow.objects(Value(fn, at.frame), budget=80):
        if callee.kind != "function" or callee.node is None or callee.unit is None:
            continue
        param = next(
            (
                name
                for name in sx.parameter_names(callee.node)
                if (arg := ctx.flow.argument_for(callee.node, at, name)) is not None
                and arg.node.id == node.id
            ),
            None,
        )
        body = sx.function_body(callee.node)
        if param is None or body is None:
            return False
        uses = [n for n in sx.descendants(body) if n.type == "identifier" and sx.text(n) == param]
        return bool(uses) and all(_reduced(u) for u in uses)
    return False


def _reduced(use: Node) -> bool:
    parent = use.parent
    return (
        parent is not None
        and parent.type == "attribute"
        and parent.child_by_field_name("object") == use
        and parent.parent is not None
        and parent.parent.type == "call"
        and _reduces_rows(parent.parent)
    )


def _reduces_rows(call: Node) -> bool:
    """`x.mean()`, `x.mean(0)`, `x.std(axis=0)`: a reduction over the rows."""
    if sx.method_name(call) not in ROW_REDUCTIONS:
        return False
    axis = sx.argument(call, 0, "axis") or sx.argument(call, None, "dim")
    return axis is None or sx.number(axis) == 0
