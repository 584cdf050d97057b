"""Stage 7 operators: train/eval modes, the reported metric, BatchNorm batch sizes."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.evals.seeding import sites
from torch_investigate.evals.seeding.operators.base import Mutation, operator, site
from torch_investigate.evals.seeding.source import Source
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.names import (
    BATCHNORM_LAYERS,
    MODE_DEPENDENT_LAYERS,
    is_data_loader,
    last,
    torch_layer,
)

SMALL_BATCH = "2"


def _mode_calls(src: Source, mode: str) -> Iterator[tuple[str, Node, Node]]:
    """`x.train()` / `x.eval()` written as a statement of its own: (file, call, stmt)."""
    for call, node in src.calls():
        if sx.method_name(node) != mode or call.args or call.kwargs:
            continue
        stmt = src.statement(node)
        if stmt.type == "expression_statement" and stmt.named_children[0].id == node.id:
            yield call.file, node, stmt


def _modes_matter(src: Source) -> bool:
    """The repo has a layer that behaves differently in train and eval mode."""
    return any(
        torch_layer(c.resolved) in MODE_DEPENDENT_LAYERS
        or c.resolved in ("torch.nn.functional.dropout", "torch.nn.functional.batch_norm")
        for c, _ in src.calls()
    )


@operator(
    "eval_mode_in_training",
    "drop the train() call the training path relies on after an evaluation, or make it eval()",
)
def eval_mode_in_training(src: Source) -> Iterator[Mutation]:
    if not _modes_matter(src):
        return
    for file, node, stmt in _mode_calls(src, "train"):
        line = sx.line(node)
        loop = next(
            (
                lp
                for lp in src.loops()
                if lp.file == file
                and line <= lp.line_end
                and src.index.enclosing_symbol(file, line) == lp.symbol
            ),
            None,
        )
        if loop is None:
            continue
        receiver = sx.receiver(node)
        assert receiver is not None
        yield Mutation(
            "deleted",
            site(file, line),
            f"deleted `{sx.flat(stmt)}` at {file}:{line}: training continues in whatever "
            "mode the last evaluation left",
            (src.delete(file, stmt, anchor=True),),
        )
        yield Mutation(
            "eval",
            site(file, line),
            f"`{sx.flat(stmt)}` -> `{sx.text(receiver)}.eval()` at {file}:{line}",
            (src.replace(file, node, f"{sx.text(receiver)}.eval()", anchor=True),),
        )


@operator(
    "train_mode_in_eval",
    "drop the eval() call of an evaluation, or make it train()",
)
def train_mode_in_eval(src: Source) -> Iterator[Mutation]:
    if not _modes_matter(src):
        return
    for file, node, stmt in _mode_calls(src, "eval"):
        line = sx.line(node)
        if any(src.in_loop(lp, file, line) for lp in src.loops()):
            continue
        # eval() before the training loop in the same function freezes a part on purpose
        before_loop = any(
            lp.file == file
            and line < lp.line_start
            and src.index.enclosing_symbol(file, line) == lp.symbol
            for lp in src.loops()
        )
        if before_loop:
            continue
        receiver = sx.receiver(node)
        assert receiver is not None
        yield Mutation(
            "deleted",
            site(file, line),
            f"deleted `{sx.flat(stmt)}` at {file}:{line}: the evaluation runs in train mode",
            (src.delete(file, stmt, anchor=True),),
        )
        yield Mutation(
            "train",
            site(file, line),
            f"`{sx.flat(stmt)}` -> `{sx.text(receiver)}.train()` at {file}:{line}",
            (src.replace(file, node, f"{sx.text(receiver)}.train()", anchor=True),),
        )


@operator(
    "metric_bug",
    "the evaluation's argmax loses its class dim (flattened or dim=0), or a logit is "
    "thresholded at 0.5",
)
def metric_bug(src: Source) -> Iterator[Mutation]:
    for call, node in src.calls():
        if last(call.resolved) != "argmax" and sx.method_name(node) != "argmax":
            continue
        if _training_or_model_code(src, call.file, call.line):
            continue
        dim = sx.argument(node, 0 if sx.method_name(node) == "argmax" else 1, "dim")
        if dim is None:
            continue
        keyword = dim.parent is not None and dim.parent.type == "keyword_argument"
        whole = dim.parent if keyword else dim
        assert whole is not None
        if (
            sx.method_name(node) == "argmax"
            and len(sx.call_args(node)[0]) + len(sx.call_args(node)[1]) == 1
        ):
            yield Mutation(
                "argmax_flattened",
                site(call.file, call.line),
                f"`{sx.flat(node)}` -> argmax over the flattened tensor at {call.file}:{call.line}",
                (_remove_argument(src, call.file, node, whole),),
            )
        yield Mutation(
            "argmax_dim0",
            site(call.file, call.line),
            f"argmax dim {sx.flat(dim)} -> 0 at {call.file}:{call.line}",
            (src.replace(call.file, dim, "0", anchor=True),),
        )
    for file in src.files:
        for node in sx.descendants(src.unit(file).tree.root_node, into_scopes=True):
            if node.type != "comparison_operator" or len(node.named_children) != 2:
                continue
            ops = [c for c in node.children if not c.is_named]
            right = node.named_children[1]
            if len(ops) != 1 or sx.text(ops[0]) not in (">", ">=") or sx.number(right) != 0.0:
                continue
            if _training_or_model_code(src, file, sx.line(node)):
                continue
            yield Mutation(
                "threshold_half",
                site(file, sx.line(node)),
                f"`{sx.flat(node)}` thresholds at 0.5 instead of 0 at {file}:{sx.line(node)}",
                (src.replace(file, right, "0.5", anchor=True),),
            )


def _training_or_model_code(src: Source, file: str, line: int) -> bool:
    return any(src.in_loop(lp, file, line) for lp in src.loops()) or sites.in_module_method(
        src, file, line
    )


def _remove_argument(src: Source, file: str, call: Node, arg: Node):
    """The argument list emptied of its only argument, as the anchor edit."""
    args = call.child_by_field_name("arguments")
    assert args is not None
    return src.replace(file, args, "()", anchor=True)


@operator(
    "batchnorm_small_batch",
    f"batch size {SMALL_BATCH} for the training loader of a model with BatchNorm",
)
def batchnorm_small_batch(src: Source) -> Iterator[Mutation]:
    if not any(torch_layer(c.resolved) in BATCHNORM_LAYERS for c, _ in src.calls()):
        return
    iterated = {_iterable_name(src, lp) for lp in src.loops()}
    for call, node in src.calls():
        if not is_data_loader(call.resolved):
            continue
        shuffled = sx.flat(sx.argument(node, None, "shuffle") or node) == "True"
        bound = next(
            (
                a.target
                for a in src.index.assignments
                if a.file == call.file and a.line == call.line
            ),
            None,
        )
        if not shuffled and bound not in iterated:
            continue
        batch = sx.argument(node, 1, "batch_size")
        edit = (
            src.replace(call.file, batch, SMALL_BATCH)
            if batch is not None
            else src.set_kwarg(call.file, node, "batch_size", SMALL_BATCH)
        )
        yield Mutation(
            "loader_batch",
            site(call.file, call.line),
            f"training DataLoader at {call.file}:{call.line} with batch_size={SMALL_BATCH}",
            (edit, src.mark(call.file, node)),
        )
    # A loop over a batching helper called with an integer literal: that literal is the
    # batch size (`for idx in batches(len(x), 64, gen)`).
    for loop in src.loops():
        header = src.loop_node(loop)
        right = header.child_by_field_name("right") if header is not None else None
        if right is None or right.type != "call":
            continue
        literals = [a for a in sx.call_args(right)[0] if a.type == "integer"]
        if len(literals) != 1 or (sx.number(literals[0]) or 0) < 8:
            continue
        yield Mutation(
            "loop_batch",
            site(loop.file, loop.line_start),
            f"batches of {SMALL_BATCH} in `{loop.header}` ({loop.file}:{loop.line_start})",
            (src.replace(loop.file, literals[0], SMALL_BATCH, anchor=True),),
        )


def _iterable_name(src: Source, loop) -> str | None:
    header = src.loop_node(loop)
    right = header.child_by_field_name("right") if header is not None else None
    while right is not None and right.type == "call":  # enumerate(loader)
        args = sx.call_args(right)[0]
        right = args[0] if args else None
    return sx.dotted(right) if right is not None else None
