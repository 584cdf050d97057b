"""Inputs and labels of different lengths paired by position: `n = min(len(X), len(y))`
then `X[:n]`, `y[:n]`. Two arrays that had to be cut to a common length were not made
row for row from the same rows: rows dropped from one (incomplete days, a filter) and
kept in the other shift every later pair. A suspicion only: the run's pairing test
decides, and a pairing it finds intact refutes it."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext, check, finding, observe, spot
from torch_investigate.tools.records import Finding


@check("truncated_pairs", "label_misaligned")
def truncated_pairs(ctx: CheckContext) -> Iterator[Finding]:
    """A common length taken as the shorter of two arrays' lengths, both then cut to it."""
    for unit in ctx.index.units.values():
        if b"min(len(" not in unit.source.replace(b" ", b""):
            continue
        for call in unit.call_nodes:
            pair = _lengths_compared(call)
            if pair is None or call.parent is None or call.parent.type != "assignment":
                continue
            n = call.parent.child_by_field_name("left")
            if n is None or n.type != "identifier":
                continue
            scope = sx.enclosing_function(call) or unit.tree.root_node
            if not all(_cut_to(scope, name, sx.text(n), call) for name in pair):
                continue
            at = spot(ctx, (unit.file, call.parent))
            yield finding(
                "label_misaligned",
                at,
                confidence="medium",
                evidence=[
                    observe(
                        at,
                        f"`{pair[0]}` and `{pair[1]}` are cut to the shorter one's length and "
                        "then paired by position",
                    )
                ],
                why=(
                    "Arrays that need cutting to a common length were not made from the same "
                    "rows: a row dropped from one and kept in the other pairs every later input "
                    "with another sample's label."
                ),
                confirm=(
                    f"Print len({pair[0]}) and len({pair[1]}) before {at.file}:{at.line}; build "
                    "both from the same rows (one mask, one index) instead of cutting them."
                ),
            )


def _lengths_compared(call: Node) -> tuple[str, str] | None:
    """`min(len(a), len(b))`: (a, b) when both are plain names."""
    fn = sx.call_function(call)
    positional, _ = sx.call_args(call)
    if fn is None or sx.text(fn) != "min" or len(positional) != 2:
        return None
    names = []
    for arg in positional:
        inner = sx.call_function(arg) if arg.type == "call" else None
        args = sx.call_args(arg)[0] if inner is not None else []
        if inner is None or sx.text(inner) != "len" or len(args) != 1:
            return None
        if args[0].type != "identifier":
            return None
        names.append(sx.text(args[0]))
    return (names[0], names[1]) if names[0] != names[1] else None


def _cut_to(scope: Node, name: str, n: str, after: Node) -> bool:
    """`name[:n]` written in `scope` after `after`."""
    for node in sx.descendants(scope):
        if node.type != "subscript" or node.start_byte < after.end_byte:
            continue
        value = node.child_by_field_name("value")
        if value is None or sx.text(value) != name:
            continue
        if sx.text(node)[len(name) :].replace(" ", "") == f"[:{n}]":
            return True
    return False
