"""Features and labels shuffled apart: two separate in-place shuffles, two different
permutations, or an arbitrary directory listing paired by position with labels.

Which arrays belong together is decided by what the code does with them: two arrays are
a pair when the code lines them up row by row afterwards (`tools.code.pairing`). Names
(`X`/`y`, `features`/`labels`) only break ties, and decide alone only where no pairing
can be followed. Shuffling both with one permutation (or re-seeding the generator between
two shuffles) keeps the pairs and does not fire.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import (
    CheckContext,
    Spot,
    check,
    finding,
    observe,
    spot,
)
from torch_investigate.tools.code.checks.label_names import name_kind
from torch_investigate.tools.code.checks.reorderings import Broken, different_permutations
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.losses import loss_calls
from torch_investigate.tools.code.names import last
from torch_investigate.tools.code.pairing import Pairing
from torch_investigate.tools.code.rows import Member
from torch_investigate.tools.code.scopes import statement_bindings
from torch_investigate.tools.records import Confidence, Finding, Observation

NAME = "label_misaligned"
RESEEDING = frozenset({"seed", "set_state", "manual_seed", "default_rng", "Random", "RandomState"})
LISTINGS = frozenset({"listdir", "glob", "iglob", "scandir", "iterdir", "rglob"})
# What a listing may pass through on its way to the name that holds it.
LISTING_WRAPPERS = frozenset(
    {
        "argument_list",
        "for_in_clause",
        "list_comprehension",
        "generator_expression",
        "parenthesized_expression",
        "call",
    }
)
LISTING_CALLS = frozenset({"list", "filter", "tuple"})


MENTIONS = (
    b"shuffle(",
    b"randperm",
    b"permutation",
    b"listdir",
    b"glob",
    b"scandir",
    b"iterdir",
    b"roll(",
)


def pairing_of(ctx: CheckContext) -> Pairing:
    """The repo's pairing analysis, each loss call lining its prediction up with its target."""

    def build() -> Pairing:
        losses = {
            lc.value.node.id: (lc.input.node.id, lc.target.node.id)
            for lc in loss_calls(ctx.analysis)
            if lc.input is not None and lc.target is not None
        }
        return Pairing(ctx.flow, losses)

    return ctx.analysis.memo("pairing", build)


@check(NAME, "label_misaligned")
def label_misaligned(ctx: CheckContext) -> Iterator[Finding]:
    """Features and labels reordered independently."""
    for unit in ctx.index.units.values():
        if not any(word in unit.source for word in MENTIONS):
            continue
        pairing = pairing_of(ctx)
        scopes = [
            unit.tree.root_node,
            *(n for n in unit.definitions.values() if n.type == "function_definition"),
        ]
        for scope in scopes:
            calls = [
                c
                for c in sx.calls_in(scope)
                if sx.enclosing_function(c)
                == (scope if scope.type == "function_definition" else None)
            ]
            yield from _separate_shuffles(ctx, pairing, unit, calls)
            for broken in different_permutations(ctx, pairing, unit, scope):
                yield _reordered(ctx, unit, broken)
            yield from _unsorted_listing(ctx, pairing, unit, calls)


def _separate_shuffles(
    ctx: CheckContext, pairing: Pairing, unit: FileUnit, calls: list[Node]
) -> Iterator[Finding]:
    shuffled: list[tuple[Node, Node]] = []  # (shuffle call, its array) since the last seeding
    for call in calls:
        fn = sx.call_function(call)
        name = last(unit.resolve_callee(fn)[1]) if fn is not None else ""
        if name in RESEEDING:
            shuffled.clear()
        arg = sx.argument(call, 0, "x") if name == "shuffle" else None
        if arg is None:
            continue
        partner = _shuffled_partner(pairing, unit, shuffled, arg)
        shuffled.append((call, arg))
        if partner is None:
            continue
        first = spot(ctx, ctx.flow.value(unit, partner[0]))
        at = spot(ctx, ctx.flow.value(unit, call))
        yield misaligned(
            at,
            [
                observe(first, f"`{sx.flat(partner[1])}` is shuffled in place"),
                observe(at, f"and `{sx.flat(arg)}` separately, with a different random order"),
            ],
            f"shuffle both with one index permutation (or zip them before shuffling) at {at.file}:{at.line}",
            "high",
        )


def _shuffled_partner(
    pairing: Pairing, unit: FileUnit, shuffled: list[tuple[Node, Node]], arg: Node
) -> tuple[Node, Node] | None:
    """The earlier shuffle (latest first) whose array the code lines up with `arg`; by
    the names only where the data flow finds no pairing either way."""
    text = sx.flat(arg)
    candidates = [(c, a) for c, a in reversed(shuffled) if sx.flat(a) != text]
    if not candidates:
        return None
    member = pairing.member_at(unit, arg)
    verdicts = [pairing.paired(pairing.member_at(unit, a), member) for _, a in candidates]
    kind = name_kind(text)

    def named_partner(c: tuple[Node, Node]) -> bool:
        return kind is not None and name_kind(sx.flat(c[1])) not in (None, kind)

    paired = [c for c, v in zip(candidates, verdicts) if v]
    if paired:  # names only order several pairs: features with labels first
        return next((c for c in paired if named_partner(c)), paired[0])
    return next((c for c, v in zip(candidates, verdicts) if v is None and named_partner(c)), None)


def _unsorted_listing(
    ctx: CheckContext, pairing: Pairing, unit: FileUnit, calls: list[Node]
) -> Iterator[Finding]:
    """`files = os.listdir(d)` (order arbitrary) lined up by position with other data."""
    for call in calls:
        fn = sx.call_function(call)
        name = last(unit.resolve_callee(fn)[1]) if fn is not None else ""
        if name not in LISTINGS or _sorted_around(call):
            continue
        held = _listing_holder(pairing, unit, call)
        if held is None or _sorted_later(pairing, unit, held[1]):
            continue
        target, member = held
        partners = pairing.partners(member)
        if partners:
            paired: Node | None = partners[0].node
            note = "and is lined up by position with other data"
        else:
            paired = _zipped_with_labels(pairing, unit, calls, target, member)
            note = "and is paired by position with labels"
        if paired is None:
            continue
        at = spot(ctx, ctx.flow.value(unit, call))
        yield misaligned(
            at,
            [
                observe(at, f"`{sx.flat(target)}` lists files in arbitrary file-system order"),
                observe(spot(ctx, ctx.flow.value(unit, paired)), note),
            ],
            f"sort the listing (`sorted(...)`) or key labels by file name at {at.file}:{at.line}",
            "medium",
        )


def _listing_holder(pairing: Pairing, unit: FileUnit, call: Node) -> tuple[Node, Member] | None:
    """The name (or `self.<attr>`) an assignment stores the listing in, directly or
    through `list(...)` or a comprehension over it."""
    current = call
    while current.parent is not None and current.parent.type != "assignment":
        parent = current.parent
        if parent.type not in LISTING_WRAPPERS:
            return None
        if parent.type == "call":
            fn = sx.call_function(parent)
            if fn is None or sx.text(fn) not in LISTING_CALLS:
                return None
        current = parent
    assignment = current.parent
    right = assignment.child_by_field_name("right") if assignment is not None else None
    if assignment is None or right is None or right.id != current.id:
        return None
    for b in statement_bindings(assignment, sx.enclosing_function(assignment)):
        if b.target.type in ("identifier", "attribute") and not b.index:
            return b.target, pairing.bound(unit, b)
    return None


def _sorted_around(call: Node) -> bool:
    for anc in sx.ancestors(call):
        if anc.type == "call" and sx.text(sx.call_function(anc) or anc) in ("sorted", "natsorted"):
            return True
        if anc.type in ("expression_statement", "assignment"):
            break
    return False


def _sorted_later(pairing: Pairing, unit: FileUnit, member: Member) -> bool:
    """`files.sort()` after the listing fixes its order."""
    for node in sx.descendants(member.home, into_scopes=True):
        if node.type == "call" and sx.method_name(node) == "sort":
            recv = sx.receiver(node)
            if recv is not None and pairing.holds(pairing.flow.value(unit, recv), member):
                return True
    return False


def _zipped_with_labels(
    pairing: Pairing, unit: FileUnit, calls: list[Node], target: Node, member: Member
) -> Node | None:
    """The names' fallback: `zip(files, labels)`, unless the labels are computed from the
    listing itself (then they follow its order)."""
    name = sx.flat(target)
    for call in calls:
        if sx.text(sx.call_function(call) or call) != "zip":
            continue
        args = sx.call_args(call)[0]
        if name not in [sx.flat(a) for a in args]:
            continue
        for a in args:
            if sx.flat(a) == name or name_kind(sx.flat(a)) != "labels":
                continue
            if not pairing.derives(pairing.flow.value(unit, a), (member,)):
                return call
    return None


def _reordered(ctx: CheckContext, unit: FileUnit, broken: Broken) -> Finding:
    at = spot(ctx, ctx.flow.value(unit, broken.at))
    evidence = [observe(spot(ctx, ctx.flow.value(unit, n)), note) for n, note in broken.seen]
    return misaligned(
        at, evidence, f"index both with the same permutation at {at.file}:{at.line}", "high"
    )


def misaligned(at: Spot, evidence: list[Observation], fix: str, confidence: Confidence) -> Finding:
    return finding(
        "label_misaligned",
        at,
        confidence=confidence,
        evidence=evidence,
        why=(
            "Features and labels no longer correspond row by row: the model is trained on "
            "random labels, so it can memorize a small batch but never generalizes (held-out "
            "accuracy stays at chance)."
        ),
        confirm=f"Check a few (input, label) pairs by hand after this line; then {fix} and compare.",
    )
