"""Training batches in a fixed order (a DataLoader without shuffle or sampler, manual
batching over unpermuted tensors) and BatchNorm trained on batches of one.

Evaluation loaders without shuffle are right; so is a sampler, an IterableDataset,
and sequential slicing along time for truncated BPTT.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import (
    CheckContext,
    check,
    finding,
    observe,
    spot,
    symbol_spot,
)
from torch_investigate.tools.code.checks.loaders import LoaderSite, is_eval_named, loaders
from torch_investigate.tools.code.consts import number_value
from torch_investigate.tools.code.flow import Value
from torch_investigate.tools.code.models import has_batchnorm
from torch_investigate.tools.code.names import last
from torch_investigate.tools.records import Finding

TINY_BATCH = 2  # BatchNorm statistics of one or two samples are noise
PERMUTATIONS = frozenset({"randperm", "permutation", "shuffle", "sample", "choice"})


@check("unshuffled_data", "unshuffled_data", "batchnorm_small_batch")
def training_batches(ctx: CheckContext) -> Iterator[Finding]:
    """Unshuffled training data; BatchNorm trained on batches of one or two."""
    for site in loaders(ctx.analysis):
        if not site.trains or is_eval_named(site):
            continue
        found = _unshuffled(ctx, site)
        if found is not None:
            yield found
        found = _tiny_batches(ctx, site)
        if found is not None:
            yield found
    yield from _manual_batches(ctx)


def _iterable_dataset(ctx: CheckContext, site: LoaderSite) -> bool:
    dataset = sx.argument(site.ctor.node, 0, "dataset")
    if dataset is None:
        return False
    for obj in ctx.flow.objects(Value(dataset, site.ctor.frame), budget=60):
        if obj.kind == "instance" and obj.symbol is not None:
            if any(
                "IterableDataset" in b
                for b in ctx.flow.class_chain(obj.symbol)[-1].bases + obj.symbol.bases
            ):
                return True
        if obj.kind == "external" and "Iterable" in obj.resolved:
            return True
    return False


def _unshuffled(ctx: CheckContext, site: LoaderSite) -> Finding | None:
    call = site.ctor.node
    if any(sx.argument(call, None, k) is not None for k in ("sampler", "batch_sampler")):
        return None
    if any(a.type == "dictionary_splat" for a in sx.call_args(call)[0]):
        return None  # `**loader_kwargs` may carry shuffle=True: unknown, so silent
    shuffle = sx.argument(call, 2, "shuffle")
    if shuffle is not None and sx.flat(shuffle) != "False":
        return None
    if _iterable_dataset(ctx, site):
        return None
    at = spot(ctx, site.ctor)
    said = "shuffle=False" if shuffle is not None else "no shuffle (the default is False)"
    return finding(
        "unshuffled_data",
        at,
        confidence="medium",
        evidence=[observe(at, f"a training DataLoader with {said} and no sampler")],
        why=(
            "Batches come in dataset order every epoch: with class- or time-ordered data each "
            "batch holds one class, the gradient swings from class to class, and the model "
            "ends each epoch fitted to the last classes it saw."
        ),
        confirm=(
            "Print the label histogram of the first few batches (one class each); then pass "
            f"shuffle=True at {at.file}:{at.line} and compare the loss curves."
        ),
    )


def _tiny_batches(ctx: CheckContext, site: LoaderSite) -> Finding | None:
    size_arg = sx.argument(site.ctor.node, 1, "batch_size")
    size = 1.0 if size_arg is None else number_value(ctx.analysis, Value(size_arg, site.ctor.frame))
    if (
        size is None
        or size > TINY_BATCH
        or sx.argument(site.ctor.node, None, "batch_sampler") is not None
    ):
        return None
    with_bn = [c for c in ctx.index.module_classes() if has_batchnorm(ctx.analysis, c)]
    trained = _trained_classes(ctx)
    with_bn = [c for c in with_bn if c.id in trained] if trained else []
    if not with_bn:
        return None
    at = spot(ctx, site.ctor)
    said = f"batch_size={size:g}" if size_arg is not None else "no batch_size (the default is 1)"
    return finding(
        "batchnorm_small_batch",
        at,
        confidence="medium",
        evidence=[
            observe(at, f"the training DataLoader has {said}"),
            observe(symbol_spot(ctx, with_bn[0]), f"{with_bn[0].name} uses BatchNorm"),
        ],
        why=(
            "BatchNorm in train mode normalizes each batch by its own statistics: with one or two "
            "samples per batch they are degenerate (zero or noise-dominated variance), the "
            "layer outputs are "
            "meaningless and the running statistics used at evaluation are garbage."
        ),
        confirm=(
            "Print the batch size seen by the BatchNorm layers during training; then use "
            f"a batch size of 16 or more at {at.file}:{at.line} (or GroupNorm/LayerNorm)."
        ),
    )


def _trained_classes(ctx: CheckContext) -> set[str]:
    out: set[str] = set()
    for loop in ctx.analysis.training_loops:
        for o in loop.occurrences:
            if o.kind == "forward":
                out |= {obj.symbol.id for obj in o.event.objects if obj.symbol is not None}
    return out


def _manual_batches(ctx: CheckContext) -> Iterator[Finding]:
    """`for i in range(0, N, B): xb = X[i:i + B]` with no permutation anywhere near."""
    for loop in ctx.analysis.training_loops:
        if loop.loop is None:
            continue
        node = loop.loop.value.node
        var = node.child_by_field_name("left")
        iterable = node.child_by_field_name("right")
        if var is None or var.type != "identifier" or iterable is None or iterable.type != "call":
            continue
        if (
            sx.text(sx.call_function(iterable) or iterable) != "range"
            or len(sx.call_args(iterable)[0]) != 3
        ):
            continue
        region = loop.region.node or loop.region.unit.tree.root_node
        if _permutes(loop.region.unit, region):
            continue
        sliced = _row_slice(node, sx.text(var))
        if sliced is None:
            continue
        at = spot(ctx, Value(sliced, loop.loop.value.frame))
        yield finding(
            "unshuffled_data",
            at,
            confidence="low",
            evidence=[
                observe(spot(ctx, loop.loop.value), "batches are cut by position"),
                observe(at, "from tensors that are never permuted"),
            ],
            why=(
                "Every epoch sees the same batches in the same order; if the rows are sorted "
                "(by class, time or source), batches are homogeneous and training oscillates."
            ),
            confirm=(
                "Check whether the rows are ordered (label of the first and last rows, per-batch "
                "label histograms); then index with torch.randperm(N) each epoch and compare."
            ),
        )


def _permutes(unit, region: Node) -> bool:
    for call in sx.calls_in(region, into_scopes=True):
        fn = sx.call_function(call)
        if fn is not None and last(unit.resolve_callee(fn)[1]) in PERMUTATIONS:
            return True
    return False


def _row_slice(loop: Node, var: str) -> Node | None:
    """A subscript `X[i:...]` slicing the first axis by the loop variable."""
    body = loop.child_by_field_name("body")
    if body is None:
        return None
    for node in sx.descendants(body):
        if node.type != "subscript":
            continue
        indices = node.named_children[1:]
        if indices and indices[0].type == "slice" and sx.flat(indices[0]).startswith(var):
            return node
    return None
