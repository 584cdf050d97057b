"""Hand-made weights that stop being leaves: `torch.randn(..., requires_grad=True)`
followed by `.to(device)`, `.cuda()`, `.double()` or arithmetic (`* 0.01`).

The result is a new tensor computed from the leaf: it has `requires_grad` but `.grad`
stays None after backward (the gradient goes to the orphaned original), so an
optimizer given the result never moves it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext, check, finding, observe, spot
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.names import is_parameter_ctor
from torch_investigate.tools.code.params import optimizers
from torch_investigate.tools.records import Confidence, Finding

NAME = "non_leaf_parameters"
WEIGHT_NAME = re.compile(
    r"(^|_)(w|b|weight|weights|bias|param|params|theta|coef|scale|emb|embedding)s?($|_|\d)",
    re.IGNORECASE,
)
# Always a new tensor computed from the original.
ALWAYS_NEW = frozenset(
    {
        "double",
        "half",
        "bfloat16",
        "view",
        "reshape",
        "t",
        "clone",
        "mul",
        "div",
        "add",
        "sub",
        "expand",
        "repeat",
        "unsqueeze",
        "squeeze",
        "permute",
        "transpose",
    }
)
# A new tensor unless already on that device / of that dtype.
USUALLY_NEW = frozenset({"to", "cuda", "float", "type"})


@check(NAME, "non_leaf_parameters")
def non_leaf_parameters(ctx: CheckContext) -> Iterator[Finding]:
    """A requires_grad=True tensor moved, cast or scaled after creation."""
    seen: set[tuple[str, int]] = set()
    for unit in ctx.index.units.values():
        for call in unit.call_nodes:
            if not _creates_trainable(call, unit):
                continue
            found = _chained_op(call, unit)
            if found is not None:
                op, confidence = found
                if not _used_as_weight(ctx, unit, call):
                    continue
                at = spot(ctx, ctx.flow.value(unit, call))
                if (at.file, at.line) not in seen:
                    seen.add((at.file, at.line))
                    yield _finding(at, op, confidence, None)
                continue
            rebinding = _later_rebinding(ctx, unit, call)
            if rebinding is not None and _used_as_weight(ctx, unit, call):
                node, op, confidence = rebinding
                at = spot(ctx, ctx.flow.value(unit, node))
                if (at.file, at.line) not in seen:
                    seen.add((at.file, at.line))
                    yield _finding(at, op, confidence, spot(ctx, ctx.flow.value(unit, call)))


def _used_as_weight(ctx: CheckContext, unit: FileUnit, call: Node) -> bool:
    """The tensor is meant to be trained: an optimizer is given its name, or it is kept
    as an attribute / named like a weight. (A requires_grad input for a gradient probe
    is not a parameter.)"""
    statement = sx.statement_of(call)
    node = (
        statement.named_children[0]
        if statement.type == "expression_statement" and statement.named_children
        else statement
    )
    target = node.child_by_field_name("left") if node.type == "assignment" else None
    if target is None:
        return False
    name = sx.flat(target)
    for opt in optimizers(ctx.analysis):
        if opt.params_arg is not None and opt.params_arg.frame.unit is unit:
            if name in {
                sx.flat(n) for n in [opt.params_arg.node, *sx.descendants(opt.params_arg.node)]
            }:
                return True
    return target.type == "attribute" or bool(WEIGHT_NAME.search(name))


def _creates_trainable(call: Node, unit: FileUnit) -> bool:
    """`torch.randn(..., requires_grad=True)` or `nn.Parameter(...)`: a leaf to train."""
    fn = sx.call_function(call)
    if fn is not None and is_parameter_ctor(unit.resolve_callee(fn)[1]):
        flag = sx.argument(call, 1, "requires_grad")
        return flag is None or sx.flat(flag) != "False"
    flag = sx.argument(call, None, "requires_grad")
    return flag is not None and sx.flat(flag) == "True"


def _op_on(node: Node) -> tuple[str, Confidence] | None:
    """The operation applied to node by its parent, when it makes a new tensor."""
    parent = node.parent
    if parent is None:
        return None
    if parent.type == "attribute" and parent.child_by_field_name("object") == node:
        attr = parent.child_by_field_name("attribute")
        grand = parent.parent
        if attr is None or grand is None or grand.type != "call":
            return None
        name = sx.text(attr)
        if name in ALWAYS_NEW:
            return f".{name}()", "high"
        if name in USUALLY_NEW:
            return f".{name}(...)", "medium"
        return None
    if parent.type == "binary_operator":
        op = parent.child_by_field_name("operator")
        return f"`{sx.text(op) if op is not None else 'arithmetic'}` arithmetic", "high"
    return None


def _wrapped_in_parameter(node: Node, unit: FileUnit) -> bool:
    for anc in sx.ancestors(node):
        if anc.type in ("expression_statement", "return_statement", "block"):
            return False
        if anc.type == "call":
            fn = sx.call_function(anc)
            if fn is not None and is_parameter_ctor(unit.resolve_callee(fn)[1]):
                return True
    return False


def _chained_op(call: Node, unit: FileUnit) -> tuple[str, Confidence] | None:
    if _wrapped_in_parameter(call, unit):
        return None
    return _op_on(call)


def _later_rebinding(
    ctx: CheckContext, unit: FileUnit, call: Node
) -> tuple[Node, str, Confidence] | None:
    """`w = torch.randn(..., requires_grad=True)` ... `w = w.to(device)`."""
    assignment = call.parent
    if assignment is None or assignment.type != "assignment":
        return None
    left = assignment.child_by_field_name("left")
    if left is None or left.type not in ("identifier", "attribute"):
        return None
    name = sx.flat(left)
    frame = ctx.flow.frame_at(unit, call)
    scope_root = frame.scope or unit.tree.root_node
    for node in sx.descendants(scope_root):
        if node.type != "assignment" or node.start_byte <= assignment.end_byte:
            continue
        target = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if target is None or right is None or sx.flat(target) != name:
            continue
        use = next(
            (
                d
                for d in [right, *sx.descendants(right)]
                if sx.flat(d) == name and d.type == left.type
            ),
            None,
        )
        if use is None or _wrapped_in_parameter(use, unit):
            return None
        op = _op_on(use)
        return (node, op[0], op[1]) if op is not None else None
    return None


def _finding(at, op: str, confidence: Confidence, created) -> Finding:
    evidence = []
    if created is not None:
        evidence.append(observe(created, "a leaf tensor with requires_grad=True is created here"))
        evidence.append(observe(at, f"and replaced by a copy through {op}"))
    else:
        evidence.append(
            observe(at, f"requires_grad=True is set on the inner tensor, then {op} makes a new one")
        )
    return finding(
        "non_leaf_parameters",
        at,
        confidence=confidence,
        evidence=evidence,
        why=(
            f"The tensor kept is the output of {op}, not a leaf: backward fills .grad of the "
            "orphaned original and leaves this one's .grad None, so an optimizer holding it "
            "never changes it."
        ),
        confirm=(
            "After one backward print `t.is_leaf, t.grad` for this tensor (False, None); "
            f"then create it on the right device/dtype with requires_grad=True in one call "
            f"(or wrap it in nn.Parameter) at {at.file}:{at.line} and compare."
        ),
    )
