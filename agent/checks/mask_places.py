"""Where a loss mask's convention is written: the run decides the finding (the mask keeps
one target value while the batch holds others), this only places it.

The mask a loss applies (`(ce * keep).sum()`, `F.cross_entropy(logits[keep],
targets[keep])`) is followed back through the helper's parameters, the training loop's
batches and the function that built them, to the comparison or inversion that made it
(`keep = targets.eq(PAD)` in a batching helper, `~visible` at the call). A helper that
only returns a comparison of its argument (`def pad_mask(t): return t == PAD`) states its
own convention: the misuse is its call (`keep = pad_mask(targets)`). None when the way
back holds no comparison.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.nan_places import way_back
from torch_investigate.agent.checks.places import _function_at, _location
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.values import Value
from torch_investigate.tools.records import Location
from torch_investigate.tools.tracefile.trace import Frame

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

# ops that make a boolean mask from values: where a mask's convention is written
_COMPARES = frozenset(
    {"eq", "ne", "lt", "gt", "le", "ge", "isin", "logical_not", "bitwise_not", "isnan"}
)


def mask_compared_at(session: Session, frame: Frame | None) -> Location | None:
    """Where the mask the loss at `frame` applies gets its convention (see the module
    docstring)."""
    fn = _function_at(session, frame)
    unit = session.index.unit(frame.file) if frame is not None else None
    if fn is None or unit is None:
        return None
    a = analysis(session.index)
    for side in _mask_operands(fn, frame.line):
        way = way_back(a, Value(side, a.flow.frame_at(unit, side)))
        for k, v in enumerate(way):
            if _compares(v.node):
                return _helper_call(session, way[:k], v) or _location(session, v.file, v.line)
    return None


def _mask_operands(fn, line: int):
    """The names a loss is multiplied by (on its line, or later by the name the loss is
    assigned to: `ce = F.cross_entropy(..., reduction="none")`, then `(ce * keep)`) and
    the names its operands are selected by on its line (`logits[keep]`)."""
    losses = {
        sx.text(n.child_by_field_name("left"))
        for n in sx.descendants(fn)
        if n.type == "assignment" and sx.line(n) == line
    }
    for node in sx.descendants(fn):
        if node.type == "subscript" and sx.line(node) == line:
            index = node.child_by_field_name("subscript")
            if index is not None and index.type == "identifier":
                yield index
        if node.type != "binary_operator" or sx.text(node.child_by_field_name("operator")) != "*":
            continue
        sides = (node.child_by_field_name("left"), node.child_by_field_name("right"))
        if sx.line(node) != line and not {sx.text(n) for n in sides if n is not None} & losses:
            continue
        for side in sides:
            if side is not None and side.type == "identifier" and sx.text(side) not in losses:
                yield side


def _compares(node) -> bool:
    """A comparison or a negation (`~keep`, `1 - keep`): the mask's convention is set."""
    if node.type == "comparison_operator":
        return True
    if node.type == "unary_operator":
        return sx.text(node.child_by_field_name("operator")) == "~"
    if node.type == "binary_operator" and sx.text(node.child_by_field_name("operator")) == "-":
        left = node.child_by_field_name("left")
        return left is not None and sx.text(left) in ("1", "1.0")
    return node.type == "call" and sx.method_name(node) in _COMPARES


def _helper_call(session: Session, before: list[Value], compared: Value) -> Location | None:
    """The call, nearest on the way, of a helper whose body only returns the comparison
    (after a docstring): the helper states its convention, its caller chose it."""
    fn = sx.enclosing_function(compared.node)
    body = fn.child_by_field_name("body") if fn is not None else None
    if body is None:
        return None
    statements = [c for c in body.named_children if c.type != "comment"]
    if statements and statements[0].type == "expression_statement":
        first = statements[0].named_children
        if first and first[0].type == "string":
            statements = statements[1:]  # the docstring
    if len(statements) != 1 or statements[0].type != "return_statement":
        return None
    for v in reversed(before):
        caller = sx.enclosing_function(v.node)
        if v.node.type == "call" and (caller is None or caller.id != fn.id):
            return _location(session, v.file, v.line)
    return None
