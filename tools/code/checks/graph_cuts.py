"""Where code cuts the autograd graph: `.detach()`, `.item()`, `.data`, a tensor rebuilt
from a value, a `with torch.no_grad()` block, and the tensor a backward call starts from."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.event_kinds import disables_grad
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.flow import Value
from torch_investigate.tools.code.names import last

# Names that hold recurrent state (truncated BPTT detaches these on purpose).
STATE_NAME = re.compile(r"hidden|state|(^|_)(hx|cx|mems?|memory)($|_|\d)", re.IGNORECASE)
CUT_METHODS = frozenset({"detach", "item", "numpy", "tolist"})
REWRAP_FUNCTIONS = frozenset(
    {
        "torch.tensor",
        "torch.as_tensor",
        "torch.from_numpy",
        "torch.Tensor",
        "torch.FloatTensor",
        "torch.autograd.Variable",
        "torch.autograd.variable.Variable",
        "numpy.array",
        "numpy.asarray",
        "float",
        "int",
    }
)


@dataclass(frozen=True)
class Cut:
    """An operation whose result carries no gradient back to its operand."""

    how: str  # `.detach()`, `.item()`, `.data`, `torch.tensor(...)`
    node: Node  # the whole cut expression
    operand: Node
    rewrap_requires_grad: bool = False  # torch.tensor(x, requires_grad=True)


def cut_of(node: Node, unit: FileUnit) -> Cut | None:
    if node.type == "call":
        method = sx.method_name(node)
        recv = sx.receiver(node)
        if method in CUT_METHODS and recv is not None:
            return Cut(f".{method}()", node, recv)
        fn = sx.call_function(node)
        resolved = unit.resolve_callee(fn)[1] if fn is not None else ""
        if resolved in REWRAP_FUNCTIONS or (resolved == "Variable"):
            arg = sx.argument(node, 0, "data")
            if arg is None or arg.type in ("list", "tuple", "integer", "float", "string"):
                return None
            flag = sx.argument(node, None, "requires_grad")
            return Cut(
                f"{last(resolved) if '.' in resolved else resolved}(...)",
                node,
                arg,
                flag is not None and sx.flat(flag) == "True",
            )
    if node.type == "attribute":
        attr = node.child_by_field_name("attribute")
        obj = node.child_by_field_name("object")
        if attr is not None and obj is not None and sx.text(attr) == "data":
            parent = node.parent
            if parent is not None and parent.type in ("assignment", "augmented_assignment"):
                if parent.child_by_field_name("left") == node:
                    return None
            if parent is not None and parent.type == "attribute":  # p.data.add_(...)
                return None
            return Cut(".data", node, obj)
    return None


def no_grad_block(node: Node, unit: FileUnit, stop: Node | None = None) -> Node | None:
    """The `with torch.no_grad():` (or inference_mode / set_grad_enabled(False)) statement
    around node, searching up to `stop`."""
    for anc in sx.ancestors(node):
        if stop is not None and anc.id == stop.id:
            return None
        if anc.type == "with_statement":
            clause = next((c for c in anc.named_children if c.type == "with_clause"), None)
            if clause is not None and any(disables_grad(i, unit) for i in clause.named_children):
                return anc
    return None


def in_no_grad_block(node: Node, unit: FileUnit, stop: Node | None = None) -> bool:
    return no_grad_block(node, unit, stop) is not None


def backward_root(call: Value) -> Value | None:
    """The tensor a backward call starts from: `loss` in `loss.backward()`,
    `scaler.scale(loss).backward()`, `torch.autograd.backward(loss)`,
    `accelerator.backward(loss)`."""
    node = call.node
    if sx.method_name(node) == "backward":
        recv = sx.receiver(node)
        if recv is not None and recv.type == "call" and sx.method_name(recv) == "scale":
            inner = sx.argument(recv, 0)
            return Value(inner, call.frame) if inner is not None else None
        if recv is not None and not sx.call_args(node)[0]:
            return Value(recv, call.frame)
    first = sx.argument(node, 0, "tensors")
    return Value(first, call.frame) if first is not None else None


def assigned_names(statement: Node) -> list[str]:
    node = (
        statement.named_children[0]
        if statement.type == "expression_statement" and statement.named_children
        else statement
    )
    if node.type != "assignment":
        return []
    left = node.child_by_field_name("left")
    return [sx.flat(left)] if left is not None else []


def reaches_return(node: Node, fn: Node) -> bool:
    """The cut's value flows into fn's return value (a forward taint over names)."""
    statement = sx.statement_of(node)
    if statement.type == "return_statement":
        return True
    tainted = {t for t in assigned_names(statement) if "." not in t and "[" not in t}
    if not tainted:
        return False
    body = sx.function_body(fn)
    if body is None:
        return False
    for later in sx.descendants(body):
        if later.start_byte <= statement.start_byte:
            continue
        if later.type == "return_statement" and sx.identifiers_in(later) & tainted:
            return True
        if later.type in ("assignment", "augmented_assignment"):
            right = later.child_by_field_name("right")
            left = later.child_by_field_name("left")
            if right is not None and left is not None and sx.identifiers_in(right) & tainted:
                tainted |= {n for n in sx.identifiers_in(left)}
    return False
