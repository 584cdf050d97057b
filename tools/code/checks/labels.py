"""Features and labels shuffled apart: two separate in-place shuffles, two different
permutations, or an arbitrary directory listing paired by position with labels.

Shuffling both with one permutation (or re-seeding the generator between two shuffles)
keeps the pairs and does not fire.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext, check, finding, observe, spot
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.losses import loss_calls
from torch_investigate.tools.code.names import last
from torch_investigate.tools.records import Finding

NAME = "label_misaligned"
FEATURES = re.compile(
    r"^(x|xs|xb|data|inputs?|features?|feats|images?|imgs|samples|examples|texts?|sentences|tokens|seqs"
    r"|files|paths|filenames)(_.*)?$",
    re.IGNORECASE,
)
LABELS = re.compile(
    r"^(y|ys|yb|labels?|targets?|classes|tags|clusters?|annotations|gts?)(_.*)?$", re.IGNORECASE
)
RESEEDING = frozenset({"seed", "set_state", "manual_seed", "default_rng"})
PERMUTATION_CALLS = frozenset({"randperm", "permutation"})
LISTINGS = frozenset({"listdir", "glob", "iglob", "scandir", "iterdir", "rglob"})


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
    """`X[p1]` and `y[p2]` with two different random permutations, or the labels (or
    the features) reordered by a permutation their partner never sees."""
    own = scope if scope.type == "function_definition" else None
    # reordering key (a permutation's node id, or `roll:<args>`) -> (node, kind, stem, text)
    by_perm: dict[object, list[tuple[Node, str, str, str]]] = {}
    bound_kinds: set[tuple[str, str]] = set()
    for node in sx.descendants(scope):
        if sx.enclosing_function(node) != own and node.type in ("identifier", "subscript", "call"):
            continue
        if node.type == "identifier":
            named = _kind_and_stem(sx.text(node))
            if named is not None:
                bound_kinds.add(named)
            continue
        if not _names_data(node):
            continue  # resolve permutations only for features/labels (tracing costs)
        reordered = _reordering(ctx, unit, node)
        if reordered is None:
            continue
        key, value = reordered
        named = _kind_and_stem(sx.flat(value))
        if named is not None:
            by_perm.setdefault(key, []).append((node, named[0], named[1], sx.flat(value)))
    # The latest reordering is the one that breaks the pairs: report there.
    ordered = sorted(
        ((entries, entry) for entries in by_perm.values() for entry in entries),
        key=lambda pair: -pair[1][0].start_byte,
    )
    for entries, (node, kind, stem, text) in ordered:
        partner = "labels" if kind == "features" else "features"
        if any(k == partner and s == stem for _, k, s, _ in entries):
            continue  # both sides see this permutation
        other = _partner_elsewhere(by_perm, entries, partner, stem)
        at = spot(ctx, ctx.flow.value(unit, node))
        if other is not None:
            first = spot(ctx, ctx.flow.value(unit, other[0]))
            evidence = [
                observe(first, f"`{other[3]}` is reordered by one random permutation"),
                observe(at, f"`{text}` by another"),
            ]
        elif kind == "labels" or (partner, stem) in bound_kinds:
            note = f"`{text}` is reordered by a random permutation its partner never sees"
            evidence = [observe(at, note)]
        else:
            continue
        fix = f"index both with the same permutation at {at.file}:{at.line}"
        yield _finding(at, evidence, fix, "high")
        return


def _names_data(node: Node) -> bool:
    """A subscript or roll whose base is named like features or labels."""
    if node.type == "subscript":
        value = node.child_by_field_name("value")
        return value is not None and _kind_and_stem(sx.flat(value)) is not None
    if node.type == "call" and (
        sx.method_name(node) == "roll" or b"roll" in (node.text or b"")[:40]
    ):
        recv = sx.receiver(node)
        first = sx.argument(node, 0)
        return any(n is not None and _kind_and_stem(sx.flat(n)) is not None for n in (recv, first))
    return False


def _reordering(ctx: CheckContext, unit: FileUnit, node: Node) -> tuple[object, Node] | None:
    """(what reorders, what is reordered) for `v[perm]` with a random permutation and
    for `v.roll(k, 0)` / `torch.roll(v, k, 0)`."""
    if node.type == "subscript":
        value = node.child_by_field_name("value")
        index = node.named_children[1] if len(node.named_children) > 1 else None
        if value is None or index is None:
            return None
        perm = _permutation_origin(ctx, unit, index)
        return (perm.id, value) if perm is not None else None
    if node.type == "call":
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


def _partner_elsewhere(
    by_perm: dict[object, list[tuple[Node, str, str, str]]],
    entries: list[tuple[Node, str, str, str]],
    partner: str,
    stem: str,
) -> tuple[Node, str, str, str] | None:
    for others in by_perm.values():
        if others is entries:
            continue
        for entry in others:
            if entry[1] == partner and entry[2] == stem:
                return entry
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


CONSTANT_MAKERS = frozenset(
    {"zeros_like", "ones_like", "full_like", "empty_like", "zeros", "ones", "full", "empty"}
)
PROBABILITY_LOSSES = frozenset({"bce", "bce_logits", "cross_entropy", "nll"})


@check("bad_labels", "bad_labels")
def bad_labels(ctx: CheckContext) -> Iterator[Finding]:
    """Targets overwritten with a constant, or mapped to {-1, 1} for a BCE/CE loss."""
    targets_of_losses: dict[int, set[str]] = {}
    for lc in loss_calls(ctx.analysis):
        if lc.target is not None and lc.kind in PROBABILITY_LOSSES:
            scope = sx.enclosing_function(lc.value.node) or lc.value.frame.unit.tree.root_node
            targets_of_losses.setdefault(scope.id, set()).update(sx.identifiers_in(lc.target.node))
    for unit in ctx.index.units.values():
        for table_owner, table in _scope_tables(unit):
            for name, bindings in table.items():
                if _kind(name) != "labels":
                    continue
                for i, b in enumerate(bindings):
                    if b.kind != "assign" or b.value is None or i == 0:
                        continue  # a first binding (a GAN's `label = torch.full(...)`) is a choice
                    problem = _label_problem(
                        unit, b, name, targets_of_losses.get(table_owner, set())
                    )
                    if problem is None or _filled_later(
                        bindings[i + 1 :], b, table_owner, unit, name
                    ):
                        continue
                    at = spot(ctx, ctx.flow.value(unit, b.target))
                    yield finding(
                        "bad_labels",
                        at,
                        confidence="high" if problem.startswith("every") else "medium",
                        evidence=[observe(at, problem)],
                        why=(
                            "The loss is computed against targets that no longer carry the "
                            "labels: the model learns the constant (or the loss cannot reach "
                            "its minimum), whatever the inputs."
                        ),
                        confirm=(
                            f"Print the value set of `{name}` on one batch after {at.file}:{at.line}; "
                            "then remove the line and compare."
                        ),
                    )


def _scope_tables(unit: FileUnit) -> Iterator[tuple[int, dict]]:
    scopes = unit.scopes
    yield unit.tree.root_node.id, scopes.module
    yield from scopes.functions.items()


def _label_problem(unit: FileUnit, b, name: str, loss_targets: set[str]) -> str | None:
    value = b.value
    if value.type == "call":
        fn = sx.call_function(value)
        resolved = unit.resolve_callee(fn)[1] if fn is not None else ""
        if resolved.startswith("torch.") and last(resolved) in CONSTANT_MAKERS:
            return f"every target in `{name}` is overwritten with a constant"
    text = sx.flat(value).replace(" ", "")
    if name in loss_targets and text in (f"{name}*2-1", f"2*{name}-1", f"({name}*2-1)"):
        return f"`{name}` is mapped to {{-1, 1}} but feeds a loss that expects targets in {{0, 1}} / class ids"
    return None


def _filled_later(later, b, owner_id: int, unit: FileUnit, name: str) -> bool:
    """`labels = torch.zeros(n)` followed by `labels[mask] = 1`: built, not destroyed."""
    statement = sx.statement_of(b.target)
    scope = next((n for n in unit.definitions.values() if n.id == owner_id), unit.tree.root_node)
    for node in sx.descendants(scope):
        if node.start_byte <= statement.end_byte:
            continue
        if node.type in ("assignment", "augmented_assignment"):
            left = node.child_by_field_name("left")
            if (
                left is not None
                and left.type == "subscript"
                and sx.flat(left).startswith(name + "[")
            ):
                return True
        if node.type == "call" and sx.method_name(node) in (
            "fill_",
            "scatter_",
            "index_fill_",
            "masked_fill_",
        ):
            recv = sx.receiver(node)
            if recv is not None and sx.flat(recv) == name:
                return True
    return False
