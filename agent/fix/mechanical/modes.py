"""Stage 7: train/eval modes, metric code, and BatchNorm batch sizes."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.agent.fix.mechanical.base import Candidate, FixContext, at, fixer
from torch_investigate.evals.seeding.edits import Edit
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.records import Finding
from torch_investigate.tools.tracefile.records import Forward

REDUCING = frozenset({"argmax", "argmin", "max", "min"})


def _mode_calls(ctx: FixContext, file: str, line: int, mode: str) -> list[Node]:
    """`X.train()` / `X.eval()` calls in the statement on line."""
    stmt = ctx.statement(file, line)
    if stmt is None:
        return []
    return [c for c in sx.calls_in(stmt) if sx.method_name(c) == mode]


def _model_call(ctx: FixContext, fwd: Forward) -> tuple[str, Node, str] | None:
    """(file, the statement holding the model's call, the model expression) for a
    forward the trace recorded."""
    if fwd.frame is None or fwd.frame.file not in ctx.source.files:
        return None
    stmt = ctx.statement(fwd.frame.file, fwd.frame.line)
    if stmt is None:
        return None
    for call in sx.calls_in(stmt):
        fn = sx.call_function(call)
        # the model is named (`net`, `self.ema.module`), not computed: in
        # `(net(x).argmax(-1) == y).sum().item()` the outer calls are methods of results
        name = sx.dotted(fn)
        if name is not None and sx.line(call) == fwd.frame.line:
            if name.rsplit(".", 1)[-1] not in ("forward",) and not name.startswith(
                ("torch.", "F.", "nn.")
            ):
                return fwd.frame.file, stmt, name.removesuffix(".forward")
    return None


@fixer(
    "eval_mode_in_training",
    "the model in train mode for every training forward: a stray `.eval()` made "
    "`.train()`, or `model.train()` before the training forward",
)
def eval_mode_in_training(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    for file, line in ctx.places(f):
        for call in _mode_calls(ctx, file, line, "eval"):
            fn = sx.call_function(call)
            attr = fn.child_by_field_name("attribute") if fn is not None else None
            if attr is not None:
                yield Candidate(
                    f"`{sx.flat(call)}` -> `.train()` ({at(file, call)}): training runs in train mode",
                    (Edit(file, attr.start_byte, attr.end_byte, "train", 0),),
                )
    if ctx.trace is None:
        return
    seen: set[tuple[str, int]] = set()
    for fwd in ctx.trace.train_forwards():
        found = _model_call(ctx, fwd)
        if found is None or (found[0], sx.line(found[1])) in seen:
            continue
        file, stmt, model = found
        seen.add((file, sx.line(stmt)))
        yield Candidate(
            f"added `{model}.train()` before the training forward at {at(file, stmt)}",
            (src.insert_before(file, stmt, f"{model}.train()", anchor=True),),
        )


@fixer(
    "train_mode_in_eval",
    "the model in eval mode for evaluation: a `.train()` there made `.eval()`, or "
    "`model.eval()` at the start of the evaluation (and `model.train()` after it)",
)
def train_mode_in_eval(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    for file, line in ctx.places(f):
        for call in _mode_calls(ctx, file, line, "train"):
            fn = sx.call_function(call)
            attr = fn.child_by_field_name("attribute") if fn is not None else None
            if attr is not None:
                yield Candidate(
                    f"`{sx.flat(call)}` -> `.eval()` ({at(file, call)}): evaluation runs in eval mode",
                    (Edit(file, attr.start_byte, attr.end_byte, "eval", 0),),
                )
    if ctx.trace is None:
        return
    for fwd in ctx.trace.eval_forwards():
        if not fwd.training:
            continue
        found = _model_call(ctx, fwd)
        if found is None:
            continue
        file, stmt, model = found
        start = _evaluation_start(stmt)
        fn = sx.enclosing_function(stmt)
        body = sx.function_body(fn) if fn is not None else None
        in_training_fn = fn is not None and any(
            lp.file == file and lp.line_start >= sx.line(fn) and lp.line_end <= sx.end_line(fn)
            for lp in src.loops()
        )
        if body is not None and body.named_children and not in_training_fn:
            first = _first_statement(body)
            yield Candidate(
                f"added `{model}.eval()` at the start of {src.index.enclosing_symbol(file, sx.line(stmt))} ({at(file, first)})",
                (src.insert_before(file, first, f"{model}.eval()", anchor=True),),
            )
        yield Candidate(
            f"added `{model}.eval()` before the evaluation at {at(file, start)} and `{model}.train()` after it",
            (
                src.insert_before(file, start, f"{model}.eval()", anchor=True),
                src.insert_after(file, start, f"{model}.train()"),
            ),
        )
        return


def _first_statement(body: Node) -> Node:
    """The first statement of a body after its docstring."""
    kids = [c for c in body.named_children if c.type != "comment"]
    if (
        len(kids) > 1
        and kids[0].type == "expression_statement"
        and kids[0].named_children[0].type == "string"
    ):
        return kids[1]
    return kids[0]


def _evaluation_start(stmt: Node) -> Node:
    """The outermost loop or `with` around stmt inside its function (the evaluation
    loop), or stmt itself."""
    top = stmt
    for anc in sx.ancestors(stmt):
        if anc.type in sx.SCOPE_TYPES:
            break
        if anc.type in ("for_statement", "while_statement", "with_statement"):
            top = anc
    return top


@fixer(
    "metric_bug",
    "the metric reduced over the class axis: an `argmax`/`max` without a dim given "
    "`dim=-1` (or `dim=1`)",
)
def metric_bug(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    for file, call in ctx.calls_at(f):
        fn = sx.call_function(call)
        name = sx.text(fn).rsplit(".", 1)[-1] if fn is not None else ""
        if name not in REDUCING:
            continue
        positional, keywords = sx.call_args(call)
        is_method = sx.receiver(call) is not None and not sx.text(sx.receiver(call)).startswith(
            "torch"
        )  # type: ignore[union-attr]
        if "dim" in keywords or (positional and is_method) or len(positional) > 1:
            continue
        for dim in ("-1", "1"):
            yield Candidate(
                f"`{sx.flat(call)[:80]}` given `dim={dim}` ({at(file, call)}): one prediction per sample",
                (src.set_kwarg(file, call, "dim", dim, anchor=True),),
            )


@fixer(
    "batchnorm_small_batch",
    "BatchNorm trains on batches of at least 16 (the finding's own bar: 8-16): the batch "
    "size the check traced to its literal raised to 16, or `drop_last=True` when only "
    "the last batch is that small",
)
def batchnorm_small_batch(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    if f.file and f.line and f.file in src.files:  # the check places it at the batch size's literal
        stmt = ctx.statement(f.file, f.line)
        small = [
            n for n in sx.descendants(stmt) if n.type == "integer" and sx.line(n) == f.line
        ] if stmt is not None else []  # fmt: skip
        small = [n for n in small if (sx.number(n) or 0) < SMALL_BATCH and _is_batch_size(n)]
        if len(small) == 1:
            yield Candidate(
                f"batch size {sx.text(small[0])} -> {SOUND_BATCH} ({at(f.file, small[0])}): BatchNorm sees batches it can normalize",
                (src.replace(f.file, small[0], str(SOUND_BATCH), anchor=True),),
            )  # fmt: skip
    if ctx.trace is None:
        return
    loader = ctx.trace.train_loader()
    if loader is None or loader.frame is None or loader.frame.file not in src.files:
        return
    call = src.call_on_line(loader.frame.file, loader.frame.line)
    if call is None:
        return
    _, keywords = sx.call_args(call)
    if "drop_last" not in keywords or sx.text(keywords["drop_last"]) == "False":
        yield Candidate(
            f"`drop_last=True` on the training loader ({at(loader.frame.file, call)}): no batch of one",
            (src.set_kwarg(loader.frame.file, call, "drop_last", "True", anchor=True),),
        )


SMALL_BATCH, SOUND_BATCH = 8, 16


def _is_batch_size(node: Node) -> bool:
    """The literal is a `batch_size=` argument or the whole value of an assignment (a
    config constant): not an index or a shape inside a larger expression."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "keyword_argument":
        name = parent.child_by_field_name("name")
        return name is not None and sx.text(name) == "batch_size"
    return parent.type in ("assignment", "typed_default_parameter", "default_parameter")
