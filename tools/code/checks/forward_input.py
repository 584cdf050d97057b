"""A forward pass whose output cannot depend on its input: the input is never read,
or is overwritten first (`x = torch.zeros_like(x)`, `x = x * 0`, `x.zero_()`)."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext, check, finding, observe, spot
from torch_investigate.tools.code.checks.model_values import ForwardMethod, forward_methods
from torch_investigate.tools.code.flow import Value
from torch_investigate.tools.code.names import last
from torch_investigate.tools.records import Finding

NAME = "output_ignores_input"
INPUT_FREE_FACTORIES = frozenset(
    {
        "zeros_like",
        "ones_like",
        "empty_like",
        "full_like",
        "rand_like",
        "randn_like",
        "zeros",
        "ones",
        "empty",
        "full",
        "rand",
        "randn",
    }
)


@check(NAME, "output_ignores_input")
def output_ignores_input(ctx: CheckContext) -> Iterator[Finding]:
    """forward(self, x) that never reads x, or wipes it before use."""
    for fm in forward_methods(ctx.analysis):
        params = sx.parameter_names(fm.node)
        body = sx.function_body(fm.node)
        if len(params) < 2 or body is None or _abstract(body):
            continue
        name = params[1]
        used = sx.identifiers_in(body)
        if name not in used and not {"locals", "vars"} & used:
            at = spot(ctx, Value(fm.node, fm.frame))
            yield _finding(at, f"{fm.symbol.name}.forward never reads its input `{name}`", name)
            continue
        wipe = _wiped(fm, body, name)
        if wipe is not None:
            at = spot(ctx, Value(wipe, fm.frame))
            yield _finding(
                at, f"{fm.symbol.name}.forward overwrites its input `{name}` before using it", name
            )


def _wiped(fm: ForwardMethod, body: Node, name: str) -> Node | None:
    """The first top-level statement of forward that replaces the input by a value
    that does not depend on its contents."""
    for statement in body.named_children:
        node = (
            statement.named_children[0]
            if statement.type == "expression_statement" and statement.named_children
            else statement
        )
        if node.type == "assignment":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if left is not None and right is not None and sx.flat(left) == name:
                return statement if _input_free(fm, right, name) else None
        if node.type == "call" and sx.method_name(node) in ("zero_", "fill_"):
            recv = sx.receiver(node)
            if recv is not None and sx.flat(recv) == name:
                return statement
        if name in sx.identifiers_in(statement):
            return None  # the input is read before anything replaces it
    return None


def _input_free(fm: ForwardMethod, value: Node, name: str) -> bool:
    if value.type == "call":
        fn = sx.call_function(value)
        resolved = fm.unit.resolve_callee(fn)[1] if fn is not None else ""
        return resolved.startswith("torch.") and last(resolved) in INPUT_FREE_FACTORIES
    if value.type == "binary_operator":
        op = value.child_by_field_name("operator")
        sides = [value.child_by_field_name("left"), value.child_by_field_name("right")]
        return (
            op is not None
            and sx.text(op) == "*"
            and any(s is not None and sx.number(s) == 0.0 for s in sides)
        )
    return False


def _finding(at, text: str, name: str) -> Finding:
    return finding(
        "output_ignores_input",
        at,
        confidence="medium",
        evidence=[observe(at, text)],
        why=(
            "The output is the same whatever the batch: the model can only learn one "
            "constant prediction (the mean target), so the loss plateaus at that level."
        ),
        confirm=(
            f"Run two different batches through the model (identical outputs); then make "
            f"forward use `{name}` as given and compare."
        ),
    )


def _abstract(body: Node) -> bool:
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
