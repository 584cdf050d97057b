"""Loss calls whose arguments do not fit: swapped (target first, prediction second),
a regression loss on class indices, and a [N, 1] prediction against [N] targets in an
elementwise loss (a silent [N, N] broadcast).

MSE/L1/Huber are symmetric, so a swap there changes nothing and does not fire.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext, check, finding, observe, spot
from torch_investigate.tools.code.checks.model_values import model_origins
from torch_investigate.tools.code.flow import Origin, Value
from torch_investigate.tools.code.losses import LossCall, loss_calls
from torch_investigate.tools.code.names import SYMMETRIC_LOSSES, last, torch_layer
from torch_investigate.tools.code.shapes import loader_tensor, rank
from torch_investigate.tools.records import Finding

TARGET_NAME = re.compile(
    r"(^|_)(y|yb|y_batch|y_true|t|target|targets|label|labels|gt|truth|ground_truth|answer)s?($|_|\d)",
    re.IGNORECASE,
)
CLASS_DATASETS = frozenset(
    {
        "MNIST",
        "FashionMNIST",
        "KMNIST",
        "EMNIST",
        "QMNIST",
        "CIFAR10",
        "CIFAR100",
        "SVHN",
        "STL10",
        "ImageFolder",
        "ImageNet",
        "Caltech101",
        "Food101",
    }
)
ELEMENTWISE = frozenset({"mse", "l1", "smooth_l1", "huber"})
FLATTENING = ("squeeze", "flatten", "ravel")


@check("loss_args_swapped", "loss_args_swapped", "wrong_loss_for_task", "broadcast_mismatch")
def loss_arguments(ctx: CheckContext) -> Iterator[Finding]:
    """Swapped loss arguments; MSE on class ids or CE on real values; [N, 1] against [N]."""
    for lc in loss_calls(ctx.analysis):
        if lc.input is None or lc.target is None:
            continue
        found = (
            _swapped(ctx, lc)
            or _class_targets_in_regression(ctx, lc)
            or _continuous_targets_in_classification(ctx, lc)
            or _broadcast(ctx, lc)
        )
        if found is not None:
            yield found


def _data_like(ctx: CheckContext, v: Value) -> bool:
    """Comes from the batch (a loop element) or is named like a target."""
    if TARGET_NAME.search(sx.flat(v.node).rsplit(".", 1)[-1]):
        return True
    origins = ctx.flow.trace(v, dataflow=True, enter_models=False, budget=120)
    return any(o.kind == "element" for o in origins)


def _swapped(ctx: CheckContext, lc: LossCall) -> Finding | None:
    if lc.kind in SYMMETRIC_LOSSES:
        return None
    assert lc.input is not None and lc.target is not None
    if model_origins(ctx.flow, lc.input) or not model_origins(ctx.flow, lc.target):
        return None
    at = spot(ctx, lc.value)
    return finding(
        "loss_args_swapped",
        at,
        confidence="high" if _data_like(ctx, lc.input) else "medium",
        evidence=[
            observe(at, f"{lc.name}(input=`{lc.input.text}`, target=`{lc.target.text}`)"),
            observe(
                at, f"`{lc.input.text}` comes from the data, `{lc.target.text}` from the model"
            ),
        ],
        why=(
            f"{lc.name} reads its first argument as the prediction and the second as the "
            "target: the loss is computed on the wrong roles (and the gradient reaches the "
            "model only through the target slot, if at all), so it optimizes the wrong thing."
        ),
        confirm=(
            f"Check which argument has a grad_fn at {at.file}:{at.line} (the second); then "
            "swap them and compare the loss curves."
        ),
    )


CONTINUOUS_FACTORIES = frozenset({"randn", "rand", "linspace", "normal", "randn_like", "rand_like"})
INTEGER_MARKERS = frozenset({"long", "int", "randint", "argmax", "one_hot"})
PROBABILITY_MAKERS = frozenset({"softmax", "log_softmax", "sigmoid", "Softmax"})


def _continuous_targets_in_classification(ctx: CheckContext, lc: LossCall) -> Finding | None:
    """CrossEntropy/NLL against real-valued targets: a regression target, or the model's
    own input (a reconstruction)."""
    if lc.kind not in ("cross_entropy", "nll") or lc.input is None or lc.target is None:
        return None
    reason = None
    inputs = {
        sx.flat(a) for o in model_origins(ctx.flow, lc.input) for a in sx.call_args(o.node)[0]
    }
    if sx.flat(lc.target.node) in inputs:
        reason = "the model's own input (a reconstruction target)"
    else:
        continuous = integer = False
        for o in ctx.flow.trace(lc.target, dataflow=True, enter_models=False, budget=150):
            for step in [*o.path, o.value]:
                node = step.node
                if node.type == "call":
                    fn = sx.call_function(node)
                    name = sx.method_name(node) or last(
                        step.frame.unit.resolve_callee(fn)[1] if fn else ""
                    )
                    # class ids, or per-row class probabilities (soft targets): both fine
                    integer |= name in INTEGER_MARKERS or name in PROBABILITY_MAKERS
                    integer |= "long" in sx.flat(node)
                    continuous |= name in CONTINUOUS_FACTORIES
            if o.kind == "element" and _classification_loader(ctx, o) is not None:
                integer = True
        if continuous and not integer:
            reason = "real-valued targets"
    if reason is None:
        return None
    call = spot(ctx, lc.value)
    at = spot(ctx, lc.ctor) if lc.ctor is not None else call  # the loss to replace
    evidence = [observe(call, f"{lc.name} compares the output with `{lc.target.text}`: {reason}")]
    if lc.ctor is not None:
        evidence.insert(0, observe(at, f"the loss is {lc.name}"))
    return finding(
        "wrong_loss_for_task",
        at,
        confidence="medium",
        evidence=evidence,
        why=(
            f"{lc.name} expects class indices (or class probabilities per row); real-valued "
            "targets make it a different objective, so the model cannot fit the values it "
            "is meant to predict."
        ),
        confirm=(
            f"Check the target dtype and values on one batch at {at.file}:{at.line} (floats); "
            "then use a regression loss (MSELoss/L1Loss) and compare."
        ),
    )


def _class_targets_in_regression(ctx: CheckContext, lc: LossCall) -> Finding | None:
    if lc.kind not in ELEMENTWISE:
        return None
    assert lc.target is not None
    evidence = _class_index_evidence(ctx, lc.target)
    if evidence is None:
        return None
    call = spot(ctx, lc.value)
    at = spot(ctx, lc.ctor) if lc.ctor is not None else call  # the loss to replace
    observations = [
        observe(call, f"{lc.name} compares the output with `{lc.target.text}`"),
        observe(spot(ctx, evidence[0]), f"which holds class indices: {evidence[1]}"),
    ]
    if lc.ctor is not None:
        observations.insert(0, observe(at, f"the loss is {lc.name}"))
    return finding(
        "wrong_loss_for_task",
        at,
        confidence="medium",
        evidence=observations,
        why=(
            f"{lc.name} treats class ids as numbers on a line: class 3 is 'closer' to 2 than "
            "to 9, the output is pushed toward the mean id, and the argmax of the outputs is "
            "meaningless for classification."
        ),
        confirm=(
            "Check the target dtype and value set on one batch (small integers); then use "
            f"CrossEntropyLoss on logits with these targets at {at.file}:{at.line} and compare."
        ),
    )


def _class_index_evidence(
    ctx: CheckContext, target: Value, depth: int = 0
) -> tuple[Value, str] | None:
    for o in ctx.flow.trace(target, dataflow=True, enter_models=False, budget=150):
        for step in [*o.path, o.value]:
            node = step.node
            if node.type != "call":
                continue
            if sx.method_name(node) == "long":
                return step, "`.long()` integer labels"
            fn = sx.call_function(node)
            resolved = step.frame.unit.resolve_callee(fn)[1] if fn is not None else ""
            if last(resolved) == "randint" and resolved.startswith("torch."):
                return step, "random integer class ids"
        if o.kind == "element" and o.value.index == (1,):
            found = _classification_loader(ctx, o)
            if found is not None:
                return found
            tensor = loader_tensor(ctx.analysis, o.value)
            if tensor is not None and depth < 2:
                found = _class_index_evidence(ctx, tensor, depth + 1)
                if found is not None:
                    return found
    return None


def _classification_loader(ctx: CheckContext, o: Origin) -> tuple[Value, str] | None:
    for obj in ctx.flow.objects(Value(o.value.node, o.value.frame), budget=60):
        if obj.kind != "external" or obj.ctor is None or last(obj.resolved) != "DataLoader":
            continue
        dataset = sx.argument(obj.ctor.node, 0, "dataset")
        if dataset is None:
            continue
        for ds in ctx.flow.objects(Value(dataset, obj.ctor.frame), budget=60):
            if (
                ds.kind == "external"
                and ds.ctor is not None
                and last(ds.resolved) in CLASS_DATASETS
            ):
                return ds.ctor, f"the labels of {last(ds.resolved)}"
    return None


def _broadcast(ctx: CheckContext, lc: LossCall) -> Finding | None:
    if lc.kind not in ELEMENTWISE:
        return None
    assert lc.input is not None and lc.target is not None
    layer = _single_output_layer(ctx, lc.input)
    if layer is None or rank(ctx.analysis, lc.target) != 1:
        return None
    at = spot(ctx, lc.value)
    return finding(
        "broadcast_mismatch",
        at,
        confidence="medium",
        evidence=[
            observe(
                spot(ctx, layer),
                "the prediction comes out of a layer with one output unit: shape [N, 1]",
            ),
            observe(at, f"while `{lc.target.text}` is one-dimensional: shape [N]"),
        ],
        why=(
            f"{lc.name} broadcasts [N, 1] against [N] to [N, N]: every prediction is compared "
            "with every target (PyTorch only warns), so the model is pulled toward the mean "
            "target and cannot fit the data."
        ),
        confirm=(
            f"Print the two shapes at {at.file}:{at.line} on one batch; then squeeze the "
            "prediction (or unsqueeze the target) and compare the loss curves."
        ),
    )


def _single_output_layer(ctx: CheckContext, v: Value) -> Value | None:
    """The Linear(_, 1) the prediction comes from, unless it is squeezed on the way."""
    for o in ctx.flow.trace(v):
        if any(_flattens(step.node) for step in o.path):
            return None
        ctor = None
        if o.kind == "module_call" and o.module is not None and o.module.ctor is not None:
            ctor = o.module.ctor
        elif o.kind == "call" and o.node.type == "call":
            ctor = o.value
        if ctor is None:
            continue
        fn = sx.call_function(ctor.node)
        if fn is None or torch_layer(ctor.frame.unit.resolve_callee(fn)[1]) != "Linear":
            continue
        out = sx.argument(ctor.node, 1, "out_features")
        if sx.number(out) == 1.0:
            return ctor
    return None


def _flattens(node: Node) -> bool:
    if node.type == "call":
        method = sx.method_name(node)
        if method in FLATTENING:
            return True
        if method in ("view", "reshape"):
            args, _ = sx.call_args(node)
            return len(args) == 1
    if node.type == "subscript":
        return sx.flat(node).replace(" ", "").endswith(",0]")
    return False
