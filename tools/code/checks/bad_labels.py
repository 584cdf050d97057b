"""Targets that no longer carry the labels: overwritten with a constant, or mapped to
{-1, 1} for a loss that expects {0, 1} or class ids."""

from __future__ import annotations

from collections.abc import Iterator

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext, check, finding, observe, spot
from torch_investigate.tools.code.checks.label_names import name_kind
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.losses import loss_calls
from torch_investigate.tools.code.names import last
from torch_investigate.tools.records import Finding

CONSTANT_MAKERS = frozenset(
    {"zeros_like", "ones_like", "full_like", "empty_like", "zeros", "ones", "full", "empty"}
)
PROBABILITY_LOSSES = frozenset({"bce", "bce_logits", "cross_entropy", "nll"})


@check("bad_labels", "bad_labels")
def bad_labels(ctx: CheckContext) -> Iterator[Finding]:
    """Targets overwritten with a constant, or mapped to {-1, 1} for a BCE/CE loss."""
    # per scope: the names a loss call reads as its target (any loss), and those of the
    # losses that expect {0, 1} or class ids; a name passed as a loss's target is the
    # labels whatever it is called (the name's kind only adds the ones passed elsewhere)
    targets_of_losses: dict[int, set[str]] = {}
    probability_targets: dict[int, set[str]] = {}
    for lc in loss_calls(ctx.analysis):
        if lc.target is not None:
            scope = sx.enclosing_function(lc.value.node) or lc.value.frame.unit.tree.root_node
            names = sx.identifiers_in(lc.target.node)
            targets_of_losses.setdefault(scope.id, set()).update(names)
            if lc.kind in PROBABILITY_LOSSES:
                probability_targets.setdefault(scope.id, set()).update(names)
    for unit in ctx.index.units.values():
        for table_owner, table in _scope_tables(unit):
            for name, bindings in table.items():
                if name_kind(name) != "labels" and name not in targets_of_losses.get(
                    table_owner, ()
                ):
                    continue
                for i, b in enumerate(bindings):
                    if b.kind != "assign" or b.value is None or i == 0:
                        continue  # a first binding (a GAN's `label = torch.full(...)`) is a choice
                    problem = _label_problem(
                        unit, b, name, probability_targets.get(table_owner, set())
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
