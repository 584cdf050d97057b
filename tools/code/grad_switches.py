"""Where the program's own code turns grad mode off: a `with torch.no_grad()` (or
inference_mode, set_grad_enabled) around a line, such a decorator on its function, or
such a switch called in that function. A forward that ran without grad mode where none
of these is written had it turned off by a library call (a reentrant checkpoint)."""

from __future__ import annotations

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.index import CodeIndex

GRAD_SWITCHES = ("no_grad", "inference_mode", "set_grad_enabled", "enable_grad")


def turns_grad_off(index: CodeIndex, file: str, line: int) -> bool:
    """The program's code turns grad mode off at `file:line`; unknown code counts as the
    program's (True), so only code read and found silent says otherwise."""
    unit = index.unit(file)
    if unit is None:
        return True
    at = [n for n in sx.descendants(unit.tree.root_node, into_scopes=True) if sx.line(n) == line]
    if not at:
        return True
    node = at[0]
    fn = sx.enclosing_function(node)
    scope = fn if fn is not None else unit.tree.root_node
    parent = node.parent
    while parent is not None:
        if parent.type in ("with_statement", "decorated_definition") and any(
            w in sx.text(parent).split(":", 1)[0] for w in GRAD_SWITCHES
        ):
            return True
        parent = parent.parent
    # a switch called as a statement (`torch.set_grad_enabled(False)`), not the context
    # manager of another block
    return any(
        n.type == "call"
        and n.parent is not None
        and n.parent.type == "expression_statement"
        and any(w in sx.text(n).split("(", 1)[0] for w in GRAD_SWITCHES)
        for n in sx.descendants(scope)
    )
