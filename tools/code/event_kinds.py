"""What a call in a training function is: a layer or model call, a mode switch, a grad-disabling context or decorator, a hand-written update or gradient reset."""

from __future__ import annotations

from typing import Literal

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.flow import Obj
from torch_investigate.tools.code.names import (
    MODEL_NAME,
    last,
    loss_class_kind,
    torch_layer,
)

EventKind = Literal[
    "backward",
    "step",  # optimizer.step(), scaler.step(opt), or a manual `p -= lr * p.grad`
    "zero_grad",  # opt.zero_grad(), model.zero_grad(), p.grad = None, p.grad.zero_()
    "scheduler_step",
    "train_mode",
    "eval_mode",
    "forward",  # a call of a model / nn.Module instance
    "grad_off",  # torch.set_grad_enabled(False) as a statement
    "grad_on",
]
GRAD_DISABLING = ("no_grad", "inference_mode")


def is_layer(obj: Obj) -> bool:
    """A torch.nn module instance other than a loss (a layer of the model)."""
    return torch_layer(obj.resolved) is not None and loss_class_kind(obj.resolved) is None


def _is_model(objs: list[Obj], recv: Node) -> bool:
    for o in objs:
        if o.kind == "instance" and o.symbol is not None:
            return o.symbol.is_nn_module
        if o.kind == "external" and o.ctor is not None:
            return o.resolved.startswith("torch.nn.") or "models" in o.resolved
    return bool(MODEL_NAME.search(sx.flat(recv))) or sx.flat(recv) == "self"


def _mode_kind(call: Node, method: str) -> EventKind:
    if method == "eval":
        return "eval_mode"
    arg = sx.argument(call, 0, "mode")
    if arg is not None and sx.flat(arg) in ("False", "0"):
        return "eval_mode"
    return "train_mode"


def disables_grad(with_item: Node, unit: FileUnit) -> bool:
    """A `with` item that turns autograd off: no_grad(), inference_mode(),
    set_grad_enabled(False)."""
    value = with_item.child_by_field_name("value")
    if value is None:
        return False
    if value.type == "as_pattern" and value.named_children:
        value = value.named_children[0]
    if value.type != "call":
        return False
    fn = sx.call_function(value)
    resolved = unit.resolve_callee(fn)[1] if fn is not None else ""
    name = last(resolved)
    if name in GRAD_DISABLING:
        return True
    if name == "set_grad_enabled":
        arg = sx.argument(value, 0, "mode")
        return arg is not None and sx.flat(arg) in ("False", "0")
    return False


def decorated_no_grad(fn: Node, unit: FileUnit) -> bool:
    """The function is decorated with torch.no_grad() / torch.inference_mode()."""
    for d in sx.decorators_of(fn):
        target = sx.call_function(d) if d.type == "call" else d
        resolved = unit.resolve_callee(target)[1] if target is not None else ""
        if last(resolved) in GRAD_DISABLING:
            return True
    return False


def _is_grad_expr(node: Node) -> bool:
    text = sx.flat(node).replace(" ", "")
    return text.endswith(".grad") or text.endswith(".grad.data")


def _zero_arg(call: Node) -> bool:
    arg = sx.argument(call, 0)
    return arg is not None and sx.number(arg) == 0.0


def manual_update_or_reset(stmt: Node) -> EventKind | None:
    """`p.grad = None` resets gradients; `p -= lr * p.grad`, `p.data.add_(-lr * p.grad)`
    and `p.data = p.data - lr * p.grad` are hand-written optimizer steps."""
    node = (
        stmt.named_children[0]
        if stmt.type == "expression_statement" and stmt.named_children
        else stmt
    )
    if node.type == "assignment":
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is not None and right is not None:
            if _is_grad_expr(left) and sx.flat(right) == "None":
                return "zero_grad"
            if left.type in ("attribute", "identifier", "subscript") and not _is_grad_expr(left):
                if _mentions_grad(right) and _mentions(right, sx.flat(left)):
                    return "step"
    if node.type == "augmented_assignment":
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        op = next((c for c in node.children if c.type in ("-=", "+=")), None)
        if left is not None and right is not None and op is not None and not _is_grad_expr(left):
            if _mentions_grad(right):
                return "step"
    if node.type == "call":
        method = sx.method_name(node)
        recv = sx.receiver(node)
        if method in ("add_", "sub_", "copy_", "addcdiv_", "addcmul_") and recv is not None:
            if not _is_grad_expr(recv) and any(_mentions_grad(a) for a in sx.call_args(node)[0]):
                return "step"
    return None


def _mentions_grad(node: Node) -> bool:
    return any(
        d.type == "attribute" and sx.text(d.child_by_field_name("attribute") or d) == "grad"
        for d in [node, *sx.descendants(node)]
    )


def _mentions(node: Node, text: str) -> bool:
    base = text.removesuffix(".data")
    return base in sx.flat(node)
