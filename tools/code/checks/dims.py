"""Reductions over the wrong axis: softmax/log_softmax without `dim` or over dim 0 (the
batch) in a model, and predictions in metrics taken with argmax/max over no dim, dim 0,
or with `keepdim=True` compared against 1-D labels (a [N, N] broadcast).
"""

from __future__ import annotations

from collections.abc import Iterator

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
from torch_investigate.tools.code.checks.model_values import model_origins
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.flow import Value
from torch_investigate.tools.code.names import last, torch_layer
from torch_investigate.tools.records import Finding

SOFTMAXES = frozenset({"softmax", "log_softmax"})
SOFTMAX_LAYERS = frozenset({"Softmax", "LogSoftmax"})
SHAPE_SAFE = (
    "view_as",
    "unsqueeze",
    "view(-1, 1)",
    "view(-1,1)",
    "reshape(-1, 1)",
    "reshape(-1,1)",
    "[:, None]",
    "[:,None]",
)


@check("wrong_dimension", "wrong_dimension", "metric_bug")
def wrong_dimension(ctx: CheckContext) -> Iterator[Finding]:
    """softmax without dim or over the batch; argmax/max over the wrong axis in metrics."""
    for unit in ctx.index.units.values():
        for call in unit.call_nodes:
            found = _softmax(ctx, unit, call) or _prediction(ctx, unit, call)
            if found is not None:
                yield found
        if b"0.5" in unit.source:
            yield from _logits_at_half(ctx, unit)


SQUASHING = frozenset(
    {"sigmoid", "Sigmoid", "softmax", "Softmax", "expit", "log_softmax", "LogSoftmax"}
)


def _logits_at_half(ctx: CheckContext, unit: FileUnit) -> Iterator[Finding]:
    """`logits > 0.5`: a probability threshold applied to raw logits (0.5 on the logit
    scale is p = 0.62), so predictions are biased and accuracy is wrong."""
    for node in sx.descendants(unit.tree.root_node, into_scopes=True):
        if node.type != "comparison_operator" or not any(
            c.type in (">", ">=", "<", "<=") for c in node.children
        ):
            continue
        parts = [c for c in node.named_children]
        if len(parts) != 2 or sx.number(parts[1]) != 0.5:
            continue
        v = ctx.flow.value(unit, parts[0])
        origins = ctx.flow.trace(v)
        if not origins or not model_origins(ctx.flow, v):
            continue
        if any(ctx.flow.describe_call(o) in SQUASHING for o in origins):
            continue
        if any(
            sx.method_name(p.node) in SQUASHING or "sigmoid" in sx.flat(p.node)
            for o in origins
            for p in o.path
            if p.node.type == "call"
        ):
            continue
        at = spot(ctx, v)
        yield finding(
            "metric_bug",
            at,
            confidence="medium",
            evidence=[
                observe(at, f"`{sx.flat(node)}` thresholds raw model outputs (logits) at 0.5")
            ],
            why=(
                "0.5 is a probability threshold; on logits it means p > 0.62, so borderline "
                "positives count as negatives and the reported metric is biased."
            ),
            confirm=(
                f"Compare the metric at {at.file}:{at.line} with the same predictions thresholded "
                "at 0 (or sigmoid first, then 0.5)."
            ),
        )


def _softmax(ctx: CheckContext, unit: FileUnit, call: Node) -> Finding | None:
    fn = sx.call_function(call)
    if fn is None:
        return None
    resolved = unit.resolve_callee(fn)[1]
    method = sx.method_name(call)
    layer = torch_layer(resolved)
    if layer in SOFTMAX_LAYERS:
        dim, implicit_ok = sx.argument(call, 0, "dim"), True
        what = f"nn.{layer}"
    elif resolved.startswith("torch.nn.functional.") and last(resolved) in SOFTMAXES:
        dim, implicit_ok = sx.argument(call, 1, "dim"), True
        what = f"F.{last(resolved)}"
    elif resolved == "torch.nn.functional.normalize":
        dim, implicit_ok = sx.argument(call, 2, "dim"), False  # default dim=1 is fine
        what = "F.normalize"
    elif resolved in ("torch.softmax", "torch.log_softmax"):
        dim, implicit_ok = sx.argument(call, 1, "dim"), False
        what = resolved
    elif (
        method in SOFTMAXES and sx.receiver(call) is not None and not resolved.startswith("torch.")
    ):
        dim, implicit_ok = sx.argument(call, 0, "dim"), False
        what = f".{method}()"
    else:
        return None
    v = ctx.flow.value(unit, call)
    at = spot(ctx, v)
    if dim is None:
        if not implicit_ok:
            return None  # torch.softmax(x) without dim raises: not silent
        return finding(
            "wrong_dimension",
            at,
            confidence="medium",
            evidence=[observe(at, f"{what} without dim")],
            why=(
                "Without dim PyTorch guesses (dim 0 for 0-, 1- and 3-D inputs, with only a "
                "deprecation warning): for a [batch, seq, classes] tensor it normalizes over "
                "the batch, mixing samples."
            ),
            confirm=(
                f"Check that the output rows sum to 1 along the class axis at {at.file}:{at.line}; "
                "then pass dim=-1 (or the class axis) explicitly."
            ),
        )
    if sx.number(dim) != 0.0 or not _batched(ctx, unit, call, v):
        return None
    return finding(
        "wrong_dimension",
        at,
        confidence="medium",
        evidence=[observe(at, f"{what} over dim=0, the batch axis of batched model tensors")],
        why=(
            "Normalizing over dim 0 normalizes across the batch, not within each sample: "
            "every sample's output depends on the other samples in the batch and the "
            "per-sample values the next layer or the loss expects are lost (right for one "
            "unbatched sample, wrong once batched)."
        ),
        confirm=(
            f"On a batch, check along which axis the output of {at.file}:{at.line} is "
            "normalized (sums to 1 / has unit norm); then use dim=1 (or -1) and compare."
        ),
    )


def _batched(ctx: CheckContext, unit: FileUnit, call: Node, v: Value) -> bool:
    """Inside an nn.Module or an nn.Sequential, or applied to a model's output."""
    scope = sx.enclosing_function(call)
    owner = ctx.flow.class_of_method(scope) if scope is not None else None
    if owner is not None and owner[1].is_nn_module:
        return True
    for anc in sx.ancestors(call):
        fn = sx.call_function(anc) if anc.type == "call" else None
        if fn is not None and torch_layer(unit.resolve_callee(fn)[1]) == "Sequential":
            return True
    first = sx.argument(call, 0, "input") or sx.receiver(call)
    return first is not None and bool(model_origins(ctx.flow, Value(first, v.frame)))


def _prediction(ctx: CheckContext, unit: FileUnit, call: Node) -> Finding | None:
    fn = sx.call_function(call)
    if fn is None:
        return None
    resolved = unit.resolve_callee(fn)[1]
    method = sx.method_name(call)
    if resolved in ("torch.argmax", "torch.max"):
        name, dim, keepdim = (
            last(resolved),
            sx.argument(call, 1, "dim"),
            sx.argument(call, 2, "keepdim"),
        )
    elif method in ("argmax", "max") and not resolved.startswith(("torch.", "numpy.")):
        name, dim, keepdim = method, sx.argument(call, 0, "dim"), sx.argument(call, 1, "keepdim")
    else:
        return None
    if name == "max" and dim is None:
        return None  # the overall max: a scalar, not predictions
    v = ctx.flow.value(unit, call)
    other = _compared_with(ctx, v)
    if other is None:
        return None
    at = spot(ctx, v)
    if dim is None:
        problem = f"{name}() without dim takes the index into the flattened batch"
    elif sx.number(dim) == 0.0:
        problem = f"{name} over dim 0 picks, for each class, the best sample of the batch"
    elif (
        keepdim is not None
        and sx.flat(keepdim) == "True"
        and not any(s in sx.flat(other).replace(" ", "") for s in SHAPE_SAFE)
    ):
        problem = f"{name}(keepdim=True) gives [N, 1], compared with `{sx.flat(other)}` of shape [N]: a [N, N] broadcast"
    else:
        return None
    return _metric_finding(at, problem, other, ctx)


WRAPPING_METHODS = frozenset(
    {"long", "float", "int", "cpu", "squeeze", "flatten", "view", "detach"}
)


def _climb(node: Node) -> Node:
    """From `out.max(1)` up through `[1]`, `.indices`, `.long()`, `.cpu()`, parentheses."""
    while True:
        parent = node.parent
        if parent is None:
            return node
        if (
            parent.type in ("parenthesized_expression", "subscript")
            and parent.named_children[0].id == node.id
        ):
            node = parent
            continue
        if parent.type == "attribute" and parent.child_by_field_name("object") == node:
            attr = sx.text(parent.child_by_field_name("attribute") or parent)
            if attr == "indices":
                node = parent
                continue
            call = parent.parent
            if attr in WRAPPING_METHODS and call is not None and call.type == "call":
                node = call
                continue
        return node


def _compared_with(ctx: CheckContext, v: Value) -> Node | None:
    """What the prediction (or a name bound to it) is compared with by == / != / .eq()."""
    holder = _climb(v.node)
    other = _comparison_partner(holder)
    if other is not None:
        return other
    names = _bound_names(holder)
    scope = sx.enclosing_function(v.node) or v.frame.unit.tree.root_node
    for node in sx.descendants(scope):
        if (
            node.type == "identifier"
            and sx.text(node) in names
            and node.start_byte > holder.end_byte
        ):
            other = _comparison_partner(_climb(node))
            if other is not None:
                return other
    return None


def _comparison_partner(node: Node) -> Node | None:
    parent = node.parent
    if parent is not None and parent.type == "comparison_operator":
        ops = [c for c in parent.children if c.type in ("==", "!=")]
        if ops:
            return next((c for c in parent.named_children if c.id != node.id), None)
    if (
        parent is not None
        and parent.type == "attribute"
        and parent.child_by_field_name("object") == node
    ):
        attr = parent.child_by_field_name("attribute")
        call = parent.parent
        if attr is not None and sx.text(attr) == "eq" and call is not None and call.type == "call":
            return sx.argument(call, 0)
    if parent is not None and parent.type == "argument_list" and parent.parent is not None:
        call = parent.parent
        if sx.method_name(call) == "eq":
            return sx.receiver(call)
    return None


def _bound_names(node: Node) -> set[str]:
    parent = node.parent
    if parent is None or parent.type != "assignment" or parent.child_by_field_name("right") != node:
        return set()
    left = parent.child_by_field_name("left")
    if left is None:
        return set()
    if left.type == "identifier":
        return {sx.text(left)}
    names = [sx.text(c) for c in left.named_children if c.type == "identifier"]
    return set(names[-1:])  # `_, pred = out.max(0)`: the indices


def _metric_finding(at: Spot, problem: str, other: Node, ctx: CheckContext) -> Finding:
    return finding(
        "metric_bug",
        at,
        confidence="medium",
        evidence=[observe(at, f"{problem}; compared with `{sx.flat(other)}`")],
        why=(
            "The predictions compared with the labels are not one class per sample, so the "
            "reported accuracy is wrong: training may be fine while the metric says it is "
            "not (or the reverse)."
        ),
        confirm=(
            f"Print the shapes of both sides of the comparison at {at.file}:{at.line} on one "
            "batch; then take argmax(dim=1) (and compare [N] with [N]) and recompute the metric."
        ),
    )
