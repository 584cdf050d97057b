"""The autograd graph cut between the parameters and the loss.

Three places: inside a model's `forward` (a detach/.data/.item/numpy round trip/
`torch.tensor` re-wrap whose result reaches the return value); in the loss itself (a
term made from `.item()` or a detached model output, or a loss rebuilt with
`torch.tensor(loss.item(), requires_grad=True)`); and between two models in the
training loop (features cut before the head while the encoder is still optimized).

Not cuts: `hidden = hidden.detach()` between truncated-BPTT batches, `.item()` for
logging or a stop rule, detached targets (the target argument of a loss, a target
network), detached coefficients (`loss * w.detach()`), straight-through estimators
(`x + (q - x).detach()`), metrics, manual SGD through `p.data`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import (
    CheckContext,
    Spot,
    check,
    finding,
    observe,
    spot,
)
from torch_investigate.tools.code.checks.detach_between import between_models
from torch_investigate.tools.code.checks.graph_cuts import (
    STATE_NAME,
    Cut,
    assigned_names,
    backward_root,
    cut_of,
    in_no_grad_block,
    reaches_return,
)
from torch_investigate.tools.code.checks.model_values import (
    forward_methods,
    model_origins,
)
from torch_investigate.tools.code.consts import number_value
from torch_investigate.tools.code.flow import Value
from torch_investigate.tools.code.losses import loss_calls
from torch_investigate.tools.records import Finding

NAME = "detached_graph"
KEEP_METHODS = frozenset(
    {
        "mean",
        "sum",
        "view",
        "reshape",
        "squeeze",
        "unsqueeze",
        "flatten",
        "float",
        "double",
        "to",
        "cuda",
        "cpu",
        "clone",
        "contiguous",
        "abs",
        "pow",
        "sqrt",
        "exp",
        "log",
        "neg",
        "clamp",
    }
)
MAX_DEPTH = 14


@check(NAME, "detached_graph", "loss_detached_scale")
def detached_graph(ctx: CheckContext) -> Iterator[Finding]:
    """detach / .data / .item / numpy / re-wrap between the parameters and the loss."""
    seen: set[tuple[str, int]] = set()
    for found in [*_in_forward(ctx), *_in_loss(ctx), *between_models(ctx)]:
        key = (found.file or "", found.line or 0)
        if key not in seen:
            seen.add(key)
            yield found


# ---- inside forward -------------------------------------------------------------------


def _in_forward(ctx: CheckContext) -> Iterator[Finding]:
    for fm in forward_methods(ctx.analysis):
        body = sx.function_body(fm.node)
        if body is None:
            continue
        for node in sx.descendants(body):
            cut = cut_of(node, fm.unit)
            if cut is None or _harmless_context(cut, fm.node, fm.unit):
                continue
            origins = model_origins(ctx.flow, Value(cut.operand, fm.frame))
            if not origins:
                continue
            if not reaches_return(node, fm.node):
                continue
            at = spot(ctx, Value(node, fm.frame))
            yield _forward_finding(ctx, at, cut, origins[0].value, fm.symbol.name)


def _harmless_context(cut: Cut, fn: Node, unit) -> bool:
    """Straight-through, coefficients, state and no_grad blocks."""
    for anc in sx.ancestors(cut.node):
        if anc.id == fn.id or anc.type in (
            "expression_statement",
            "return_statement",
            "assignment",
        ):
            break
        if anc.type == "binary_operator":
            return True
    statement = sx.statement_of(cut.node)
    targets = assigned_names(statement)
    if any(STATE_NAME.search(t) for t in targets) or STATE_NAME.search(sx.flat(cut.operand)):
        return True
    return in_no_grad_block(cut.node, unit, stop=fn)


def _forward_finding(ctx: CheckContext, at: Spot, cut: Cut, source: Value, model: str) -> Finding:
    src = spot(ctx, source)
    return finding(
        "detached_graph",
        at,
        confidence="high" if cut.how in (".detach()", ".data", ".numpy()") else "medium",
        evidence=[
            observe(src, "a value computed from the model's parameters"),
            observe(
                at,
                f"is cut from the graph with {cut.how} inside {model}.forward, and the result is returned",
            ),
        ],
        why=(
            f"{cut.how} returns a tensor with no autograd history: every parameter used "
            "before this point gets no gradient from the loss and never changes."
        ),
        confirm=(
            "After one backward, print `.grad` of a parameter used before this line (it is "
            f"None); then remove the {cut.how} at {at.file}:{at.line} and check the "
            "gradient appears and the loss falls."
        ),
    )


# ---- in the loss ----------------------------------------------------------------------


@dataclass
class _Issue:
    category: str
    cut: Cut
    value: Value


def _in_loss(ctx: CheckContext) -> Iterator[Finding]:
    losses = {lc.value.node.id: lc for lc in loss_calls(ctx.analysis)}
    done: set[int] = set()
    for region in ctx.analysis.training_regions():
        for o in ctx.analysis.programs.flatten(ctx.analysis.program(region)):
            if o.kind != "backward" or o.event.value.node.id in done:
                continue
            done.add(o.event.value.node.id)
            root = backward_root(o.event.value)
            if root is None:
                continue
            for issue in _walk(ctx, root, losses, 0, set()):
                yield _loss_finding(ctx, issue, o.event.value)
            scaled = _tiny_scale(ctx, root, 0)
            if scaled is not None:
                yield _scale_finding(ctx, scaled[0], scaled[1], o.event.value)


TINY_FACTOR = 1e-3  # a whole-loss factor below this leaves steps 1000x too small


def _tiny_scale(ctx: CheckContext, v: Value, depth: int) -> tuple[Value, float] | None:
    """The whole loss multiplied by a tiny constant (or divided by a huge one) before
    backward; summands and accumulation divisors (`/ accum_steps`) are not."""
    node = _unwrap(v.node)
    if depth > 6:
        return None
    if node.type == "identifier":
        found = ctx.flow.lookup(sx.text(node), v.frame, node)
        if len(found) != 1 or found[0][0].kind != "assign" or found[0][0].value is None:
            return None
        binding, frame = found[0]
        return _tiny_scale(ctx, Value(binding.value, frame), depth + 1)
    if node.type == "call" and sx.method_name(node) in ("mean", "sum"):
        recv = sx.receiver(node)
        return _tiny_scale(ctx, Value(recv, v.frame), depth + 1) if recv is not None else None
    if node.type != "binary_operator":
        return None
    op = node.child_by_field_name("operator")
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    if op is None or left is None or right is None:
        return None
    values = [number_value(ctx.analysis, Value(s, v.frame)) for s in (left, right)]
    if sx.text(op) == "/" and values[1] is not None and abs(values[1]) >= 1 / TINY_FACTOR:
        return Value(node, v.frame), 1 / values[1]
    if sx.text(op) == "*":
        for value in values:
            if value is not None and 0 < abs(value) <= TINY_FACTOR:
                return Value(node, v.frame), value
    return None


def _scale_finding(ctx: CheckContext, at_value: Value, factor: float, backward: Value) -> Finding:
    at = spot(ctx, at_value)
    return finding(
        "loss_detached_scale",
        at,
        confidence="medium",
        evidence=[
            observe(at, f"the whole loss is scaled by {factor:g} before backward", factor=factor),
            observe(spot(ctx, backward), "this backward starts from the scaled loss"),
        ],
        why=(
            f"Every gradient is scaled by {factor:g}: with a learning rate tuned for the "
            "unscaled loss the updates are negligible (Adam partly compensates, SGD does "
            "not), so the loss barely moves."
        ),
        confirm=(
            "Print the gradient norm after backward (tiny); then remove the scaling at "
            f"{at.file}:{at.line} and compare the loss curves."
        ),
    )


def _walk(ctx: CheckContext, v: Value, losses: dict, depth: int, seen: set) -> Iterator[_Issue]:
    key = v.key
    if depth > MAX_DEPTH or key in seen:
        return
    seen.add(key)
    node, t = v.node, v.node.type
    unit = v.frame.unit
    if t == "parenthesized_expression" and node.named_children:
        yield from _walk(ctx, Value(node.named_children[0], v.frame), losses, depth + 1, seen)
    elif t == "identifier":
        for binding, frame in ctx.flow.lookup(sx.text(node), v.frame, node):
            if (
                binding.kind in ("assign", "augassign")
                and binding.value is not None
                and not binding.index
            ):
                yield from _walk(ctx, Value(binding.value, frame), losses, depth + 1, seen)
    elif t == "augmented_assignment":
        right = node.child_by_field_name("right")
        if right is not None:
            yield from _walk(ctx, Value(right, v.frame), losses, depth + 1, seen)
    elif t == "binary_operator":
        yield from _walk_binary(ctx, v, losses, depth, seen)
    elif t == "unary_operator":
        arg = node.child_by_field_name("argument")
        if arg is not None:
            yield from _walk(ctx, Value(arg, v.frame), losses, depth + 1, seen)
    elif t in ("call", "attribute"):
        cut = cut_of(node, unit)
        if cut is not None:
            if cut.rewrap_requires_grad:
                yield _Issue("loss_detached_scale", cut, v)
            elif model_origins(ctx.flow, Value(cut.operand, v.frame)):
                yield _Issue("detached_graph", cut, v)
            return
        if t == "attribute":
            return
        yield from _walk_call(ctx, v, losses, depth, seen)
    elif t == "subscript":
        value = node.child_by_field_name("value")
        if value is not None:
            yield from _walk(ctx, Value(value, v.frame), losses, depth + 1, seen)
    elif t in ("list", "tuple", "generator_expression", "list_comprehension"):
        parts = (
            [node.child_by_field_name("body")]
            if "comprehension" in t or "generator" in t
            else node.named_children
        )
        for part in parts:
            if part is not None:
                yield from _walk(ctx, Value(part, v.frame), losses, depth + 1, seen)


def _walk_binary(
    ctx: CheckContext, v: Value, losses: dict, depth: int, seen: set
) -> Iterator[_Issue]:
    node = v.node
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    op = node.child_by_field_name("operator")
    sides = [s for s in (left, right) if s is not None]
    if op is not None and sx.text(op) in ("*", "/", "//", "**", "@") and len(sides) == 2:
        # A detached factor scales a live term (focal weights, adaptive loss weights).
        cut_sides = [_is_cut_expr(ctx, Value(s, v.frame), 0) for s in sides]
        constant = [number_value(ctx.analysis, Value(s, v.frame)) is not None for s in sides]
        if any(cut_sides) and not all(cut_sides) and not any(constant):
            sides = [s for s, is_cut in zip(sides, cut_sides, strict=True) if not is_cut]
        elif sx.text(op) == "**":
            sides = sides[:1]
    for side in sides:
        yield from _walk(ctx, Value(side, v.frame), losses, depth + 1, seen)


def _is_cut_expr(ctx: CheckContext, v: Value, depth: int) -> bool:
    """The expression is a detached value: a cut, a name bound to one, a power of one."""
    node = _unwrap(v.node)
    if depth > 4:
        return False
    if cut_of(node, v.frame.unit) is not None:
        return True
    if node.type == "identifier":
        found = ctx.flow.lookup(sx.text(node), v.frame, node)
        return bool(found) and all(
            b.kind == "assign"
            and b.value is not None
            and _is_cut_expr(ctx, Value(b.value, f), depth + 1)
            for b, f in found
        )
    if node.type == "binary_operator":
        parts = [node.child_by_field_name("left"), node.child_by_field_name("right")]
        return any(p is not None and _is_cut_expr(ctx, Value(p, v.frame), depth + 1) for p in parts)
    return False


def _unwrap(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node


def _walk_call(
    ctx: CheckContext, v: Value, losses: dict, depth: int, seen: set
) -> Iterator[_Issue]:
    node = v.node
    lc = losses.get(node.id)
    if lc is not None:  # only the prediction side: detached targets are fine
        if lc.input is not None:
            yield from _walk(ctx, Value(lc.input.node, v.frame), losses, depth + 1, seen)
        return
    method = sx.method_name(node)
    recv = sx.receiver(node)
    if method in KEEP_METHODS and recv is not None:
        yield from _walk(ctx, Value(recv, v.frame), losses, depth + 1, seen)
        return
    fn = sx.call_function(node)
    if fn is None:
        return
    resolved = v.frame.unit.resolve_callee(fn)[1]
    if resolved in ("sum", "torch.sum", "torch.mean", "torch.stack", "torch.cat", "torch.add"):
        for arg in sx.call_args(node)[0]:
            yield from _walk(ctx, Value(arg, v.frame), losses, depth + 1, seen)
        return
    for callee in ctx.flow.objects(Value(fn, v.frame), budget=60):
        if callee.kind == "function" and callee.node is not None and callee.unit is not None:
            frame = ctx.flow.bind_call(callee.unit, callee.node, v, callee.self_obj)
            for ret in ctx.flow.return_values(frame):
                yield from _walk(ctx, ret, losses, depth + 1, seen)


def _loss_finding(ctx: CheckContext, issue: _Issue, backward: Value) -> Finding:
    at = spot(ctx, issue.value)
    back = spot(ctx, backward)
    if issue.category == "loss_detached_scale":
        return finding(
            "loss_detached_scale",
            at,
            confidence="high",
            evidence=[
                observe(at, f"the loss is rebuilt from a detached value with {issue.cut.how}"),
                observe(back, "and this backward starts from the rebuilt tensor"),
            ],
            why=(
                "The new tensor is a leaf with requires_grad=True but no history: backward "
                "stops at it, no model parameter receives a gradient, and the loss value "
                "printed each step looks normal while nothing learns."
            ),
            confirm=(
                f"Check `loss.grad_fn` at {back.file}:{back.line} (None for the rebuilt "
                f"tensor) and the parameters' .grad after backward; then backpropagate the "
                "original loss and compare."
            ),
        )
    return finding(
        "detached_graph",
        at,
        confidence="medium" if issue.cut.how in (".item()", ".tolist()") else "high",
        evidence=[
            observe(at, f"a model-derived term of the loss goes through {issue.cut.how}"),
            observe(back, "before this backward"),
        ],
        why=(
            f"{issue.cut.how} turns that term into a constant for autograd: its value still "
            "shows in the logged loss, but the parameters behind it get no gradient from it."
        ),
        confirm=(
            f"After one backward, print `.grad` of a parameter that only feeds this term "
            f"(None or zero); then remove the {issue.cut.how} at {at.file}:{at.line} and compare."
        ),
    )
