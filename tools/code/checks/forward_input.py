"""A forward pass that never reads its input: the output cannot depend on the data."""

from __future__ import annotations

from collections.abc import Iterator

from tools.code import syntax as sx
from tools.code.checks.base import CheckContext, check, finding, observe, spot
from tools.code.checks.common import forward_methods
from tools.code.flow import Value
from tools.records import Finding

NAME = "output_ignores_input"


@check(NAME, "output_ignores_input")
def output_ignores_input(ctx: CheckContext) -> Iterator[Finding]:
    """forward(self, x) whose body never mentions x."""
    for fm in forward_methods(ctx.analysis):
        params = sx.parameter_names(fm.node)
        if len(params) < 2:
            continue
        body = sx.function_body(fm.node)
        if body is None or _abstract(body):
            continue
        used = sx.identifiers_in(body)
        if params[1] in used or {"locals", "vars"} & used:
            continue
        at = spot(ctx, Value(fm.node, fm.frame))
        yield finding(
            "output_ignores_input",
            at,
            confidence="medium",
            evidence=[observe(at, f"{fm.symbol.name}.forward never reads its input `{params[1]}`")],
            why=(
                "The output is the same whatever the batch: the model can only learn one "
                "constant prediction (the mean target), so the loss plateaus at that level."
            ),
            confirm=(
                "Run two different batches through the model (identical outputs); then make "
                f"forward use `{params[1]}` and compare."
            ),
        )


def _abstract(body) -> bool:
    """`raise NotImplementedError`, `pass` or `...` only (with a docstring)."""
    statements = [s for s in body.named_children if s.type != "comment"]
    if (
        statements
        and statements[0].type == "expression_statement"
        and statements[0].named_children
        and statements[0].named_children[0].type == "string"
    ):
        statements = statements[1:]
    return all(
        s.type in ("pass_statement", "raise_statement") or sx.flat(s) == "..." for s in statements
    )
