"""Features and labels shuffled apart: two separate in-place shuffles, two different
permutations, or an arbitrary directory listing paired by position with labels.

Shuffling both with one permutation (or re-seeding the generator between two shuffles)
keeps the pairs and does not fire.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from tools.code import syntax as sx
from tools.code.checks.base import CheckContext, check, finding, observe, spot
from tools.code.extract import FileUnit
from tools.code.names import last
from tools.records import Finding

NAME = "label_misaligned"
FEATURES = re.compile(
    r"^(x|xs|data|inputs?|features?|feats|images?|imgs|samples|examples|texts?|sentences|files|paths|filenames)(_.*)?$",
    re.IGNORECASE,
)
LABELS = re.compile(r"^(y|ys|labels?|targets?|classes|annotations|gts?)(_.*)?$", re.IGNORECASE)
RESEEDING = frozenset({"seed", "set_state", "manual_seed", "default_rng"})
PERMUTATION_CALLS = frozenset({"randperm", "permutation"})
LISTINGS = frozenset({"listdir", "glob", "iglob", "scandir", "iterdir", "rglob"})


MENTIONS = (b"shuffle", b"randperm", b"permutation", b"listdir", b"glob", b"scandir", b"iterdir")


def _kind(text: str) -> str | None:
    found = _kind_and_stem(text)
    return found[0] if found else None


def _kind_and_stem(text: str) -> tuple[str, str] | None:
    """("features" | "labels", the rest of the name): `X_train` -> ("features", "_train"),
    so `X_train` pairs with `y_train` and not with `y_val`."""
    base = text.rsplit(".", 1)[-1]
    for kind, pattern in (("features", FEATURES), ("labels", LABELS)):
        m = pattern.match(base)
        if m:
            return kind, (m.group(2) or "").lower()
    return None


@check(NAME, "label_misaligned")
def label_misaligned(ctx: CheckContext) -> Iterator[Finding]:
    """Features and labels reordered independently."""
    for unit in ctx.index.units.values():
        if not any(word in unit.source for word in MENTIONS):
            continue
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
            yield from _separate_shuffles(ctx, unit, calls)
            yield from _different_permutations(ctx, unit, scope)
            yield from _unsorted_listing(ctx, unit, calls)


def _separate_shuffles(ctx: CheckContext, unit: FileUnit, calls: list[Node]) -> Iterator[Finding]:
    shuffles: list[tuple[Node, str]] = []
    for call in calls:
        fn = sx.call_function(call)
        name = last(unit.resolve_callee(fn)[1]) if fn is not None else ""
        if name in RESEEDING:
            shuffles.append((call, "<reseed>"))
        elif name == "shuffle":
            arg = sx.argument(call, 0, "x")
            if arg is not None:
                shuffles.append((call, sx.flat(arg)))
    seen: dict[str, tuple[Node, str]] = {}
    for call, text in shuffles:
        if text == "<reseed>":
            seen.clear()
            continue
        kind = _kind(text)
        if kind is None:
            continue
        partner = next((v for k, v in seen.items() if k != kind), None)
        if partner is not None and partner[1] != text:
            first = spot(ctx, ctx.flow.value(unit, partner[0]))
            at = spot(ctx, ctx.flow.value(unit, call))
            yield _finding(
                at,
                [
                    observe(first, f"`{partner[1]}` is shuffled in place"),
                    observe(at, f"and `{text}` separately, with a different random order"),
                ],
                f"shuffle both with one index permutation (or zip them before shuffling) at {at.file}:{at.line}",
                "high",
            )
        seen[kind] = (call, text)


def _different_permutations(ctx: CheckContext, unit: FileUnit, scope: Node) -> Iterator[Finding]:
    """`X[p1]` and `y[p2]` with p1, p2 two different random permutations."""
    indexed: dict[tuple[str, str], tuple[Node, int, str]] = {}
    own = scope if scope.type == "function_definition" else None
    for node in sx.descendants(scope):
        if node.type != "subscript" or sx.enclosing_function(node) != own:
            continue
        value = node.child_by_field_name("value")
        index = node.named_children[1] if len(node.named_children) > 1 else None
        if value is None or index is None:
            continue
        named = _kind_and_stem(sx.flat(value))
        perm = _permutation_origin(ctx, unit, index) if named is not None else None
        if named is None or perm is None:
            continue
        kind, stem = named
        partner_kind = "labels" if kind == "features" else "features"
        other = indexed.get((partner_kind, stem))
        if other is not None and other[1] != perm.id:
            first = spot(ctx, ctx.flow.value(unit, other[0]))
            at = spot(ctx, ctx.flow.value(unit, node))
            yield _finding(
                at,
                [
                    observe(first, f"`{other[2]}` is reordered by one random permutation"),
                    observe(at, f"`{sx.flat(value)}` by another"),
                ],
                f"index both with the same permutation at {at.file}:{at.line}",
                "high",
            )
            return
        indexed.setdefault((kind, stem), (node, perm.id, sx.flat(value)))


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


def _unsorted_listing(ctx: CheckContext, unit: FileUnit, calls: list[Node]) -> Iterator[Finding]:
    """`files = os.listdir(d)` (order arbitrary) zipped with labels by position."""
    for call in calls:
        fn = sx.call_function(call)
        name = last(unit.resolve_callee(fn)[1]) if fn is not None else ""
        if name not in LISTINGS or _sorted_around(call):
            continue
        assignment = call.parent
        if assignment is None or assignment.type != "assignment":
            continue
        target = assignment.child_by_field_name("left")
        if target is None or target.type != "identifier":
            continue
        paired = _zipped_with_labels(calls, sx.text(target))
        if paired is None:
            continue
        at = spot(ctx, ctx.flow.value(unit, call))
        yield _finding(
            at,
            [
                observe(at, f"`{sx.text(target)}` lists files in arbitrary file-system order"),
                observe(
                    spot(ctx, ctx.flow.value(unit, paired)), "and is paired by position with labels"
                ),
            ],
            f"sort the listing (`sorted(...)`) or key labels by file name at {at.file}:{at.line}",
            "medium",
        )


def _sorted_around(call: Node) -> bool:
    for anc in sx.ancestors(call):
        if anc.type == "call" and sx.text(sx.call_function(anc) or anc) in ("sorted", "natsorted"):
            return True
        if anc.type in ("expression_statement", "assignment"):
            break
    return False


def _zipped_with_labels(calls: list[Node], name: str) -> Node | None:
    for call in calls:
        if sx.text(sx.call_function(call) or call) != "zip":
            continue
        args = [sx.flat(a) for a in sx.call_args(call)[0]]
        if name in args and any(_kind(a) == "labels" for a in args if a != name):
            return call
    return None


def _finding(at, evidence, fix: str, confidence) -> Finding:
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
