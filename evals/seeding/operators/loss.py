"""Stage 4 operators: the training loss call, its inputs and its reduction."""

from __future__ import annotations

from collections.abc import Iterator

from torch_investigate.evals.seeding import sites
from torch_investigate.evals.seeding.operators.base import Mutation, operator, site
from torch_investigate.evals.seeding.operators.loop_lookup import first
from torch_investigate.evals.seeding.source import Source
from torch_investigate.tools.code import syntax as sx

ASYMMETRIC_SAME_SHAPE = frozenset({"bce_logits", "bce", "kl_div"})
CLASS_INDEX_LOSSES = frozenset({"cross_entropy", "nll"})
FLOAT_TARGET_LOSSES = frozenset({"bce_logits", "bce", "mse", "l1", "smooth_l1", "huber"})
REGRESSION_LOSSES = frozenset({"mse", "l1", "smooth_l1", "huber"})


def _where(lc: sites.LossCall) -> str:
    return site(lc.file, sx.line(lc.node))


@operator("softmax_before_ce", "wrap the logits passed to cross-entropy in a softmax over dim 1")
def softmax_before_ce(src: Source) -> Iterator[Mutation]:
    for lc in sites.training_losses(src):
        pred = lc.prediction
        if lc.kind != "cross_entropy" or pred is None:
            continue
        torch, imports = src.torch_expr(lc.file)
        functional, f_imports = src.torch_expr(lc.file, "torch.nn.functional")
        for spelling, before, after, extra in (
            ("torch.softmax", f"{torch}.softmax(", ", dim=1)", imports),
            ("F.softmax", f"{functional}.softmax(", ", dim=1)", f_imports),
            ("method", "", ".softmax(dim=1)", []),
        ):
            text = before + (src.operand(pred) if not before else sx.text(pred)) + after
            yield Mutation(
                spelling,
                _where(lc),
                f"cross-entropy input `{sx.flat(pred)}` -> `{text}` at {_where(lc)}",
                (*extra, src.replace(lc.file, pred, text, anchor=True)),
                same_as="softmax",
            )


@operator("sigmoid_before_bce_logits", "wrap the logits passed to BCEWithLogits in a sigmoid")
def sigmoid_before_bce_logits(src: Source) -> Iterator[Mutation]:
    for lc in sites.training_losses(src):
        pred = lc.prediction
        if lc.kind != "bce_logits" or pred is None:
            continue
        torch, imports = src.torch_expr(lc.file)
        for spelling, text, extra in (
            ("torch.sigmoid", f"{torch}.sigmoid({sx.text(pred)})", imports),
            ("method", f"{src.operand(pred)}.sigmoid()", []),
        ):
            yield Mutation(
                spelling,
                _where(lc),
                f"BCE-with-logits input `{sx.flat(pred)}` -> `{text}` at {_where(lc)}",
                (*extra, src.replace(lc.file, pred, text, anchor=True)),
                same_as="sigmoid",
            )


@operator(
    "loss_target_mismatch",
    "cast the loss target to the wrong dtype: float class indices, long regression targets",
)
def loss_target_mismatch(src: Source) -> Iterator[Mutation]:
    for lc in sites.training_losses(src):
        target = lc.target
        if target is None:
            continue
        if lc.kind in CLASS_INDEX_LOSSES:
            cast = ".float()"
        elif lc.kind in FLOAT_TARGET_LOSSES:
            cast = ".long()"
        else:
            continue
        text = src.operand(target) + cast
        yield Mutation(
            "dtype",
            _where(lc),
            f"loss target `{sx.flat(target)}` -> `{text}` at {_where(lc)}",
            (src.replace(lc.file, target, text, anchor=True),),
        )


@operator("loss_args_swapped", "swap prediction and target of an asymmetric same-shape loss")
def loss_args_swapped(src: Source) -> Iterator[Mutation]:
    for lc in sites.training_losses(src):
        args = sx.call_args(lc.node)[0]
        if lc.kind not in ASYMMETRIC_SAME_SHAPE or len(args) < 2:
            continue
        pred, target = args[0], args[1]
        yield Mutation(
            "swapped",
            _where(lc),
            f"loss arguments swapped: ({sx.flat(target)}, {sx.flat(pred)}) at {_where(lc)}",
            (
                src.replace(lc.file, pred, sx.text(target), anchor=True),
                src.replace(lc.file, target, sx.text(pred)),
            ),
        )


@operator(
    "wrong_loss_for_task",
    "MSE for a binary classifier trained with BCE-with-logits; cross-entropy for a regression",
)
def wrong_loss_for_task(src: Source) -> Iterator[Mutation]:
    for lc in sites.training_losses(src):
        if lc.kind == "bce_logits":
            obj, fn, name = "MSELoss", "mse_loss", "mse"
        elif lc.kind in REGRESSION_LOSSES:
            obj, fn, name = "CrossEntropyLoss", "cross_entropy", "cross_entropy"
        else:
            continue
        if lc.ctor is not None:
            nn, imports = src.torch_expr(lc.ctor_file, "torch.nn")
            yield Mutation(
                f"{name}_object",
                site(lc.ctor_file, sx.line(lc.ctor)),
                f"`{sx.flat(lc.ctor)}` -> `{nn}.{obj}()` at {lc.ctor_file}:{sx.line(lc.ctor)}",
                (*imports, src.replace(lc.ctor_file, lc.ctor, f"{nn}.{obj}()", anchor=True)),
            )
        else:
            functional, imports = src.torch_expr(lc.file, "torch.nn.functional")
            callee = sx.call_function(lc.node)
            assert callee is not None
            yield Mutation(
                f"{name}_function",
                _where(lc),
                f"`{sx.flat(callee)}` -> `{functional}.{fn}` at {_where(lc)}",
                (*imports, src.replace(lc.file, callee, f"{functional}.{fn}", anchor=True)),
            )


@operator(
    "loss_mask_error",
    "ignore_index=0 drops a real class from cross-entropy; a `target > 0` mask drops "
    "every negative/low target from BCE or MSE",
)
def loss_mask_error(src: Source) -> Iterator[Mutation]:
    for lc in sites.training_losses(src):
        args = sx.call_args(lc.node)[0]
        if lc.kind in CLASS_INDEX_LOSSES:
            call, file = (lc.ctor, lc.ctor_file) if lc.ctor is not None else (lc.node, lc.file)
            yield Mutation(
                "ignore_class_0",
                site(file, sx.line(call)),
                f"ignore_index=0 on `{sx.flat(call)}` ({file}:{sx.line(call)}): class 0 never "
                "contributes",
                (src.set_kwarg(file, call, "ignore_index", "0"), src.mark(file, call)),
            )
        elif lc.kind in FLOAT_TARGET_LOSSES and len(args) >= 2:
            pred, target = args[0], args[1]
            mask = f"{src.operand(target)} > 0"
            yield Mutation(
                "positive_mask",
                _where(lc),
                f"loss restricted to `{mask}` at {_where(lc)}",
                (
                    src.replace(lc.file, pred, f"{src.operand(pred)}[{mask}]", anchor=True),
                    src.replace(lc.file, target, f"{src.operand(target)}[{mask}]"),
                ),
            )


@operator(
    "loss_detached_scale",
    "rebuild the loss from .item() (no graph), or divide it by 1e4",
)
def loss_detached_scale(src: Source) -> Iterator[Mutation]:
    for loop in src.loops():
        b = first(loop, "backward", direct=True)
        call = src.call_on_line(b.file, b.line, "backward") if b else None
        obj = sx.receiver(call) if call is not None else None
        if b is None or call is None or obj is None or obj.type != "identifier":
            continue
        name = sx.text(obj)
        bound = sites.binding_before(call, name)
        if bound is None or bound.stmt is None:
            continue
        stmt = bound.stmt
        right = stmt.named_children[0].child_by_field_name("right")
        if right is None or not src.index.relative(loop.file):
            continue
        torch, imports = src.torch_expr(loop.file)
        code = f"{name} = {torch}.tensor({name}.item(), requires_grad=True)"
        yield Mutation(
            "item_rewrap",
            site(loop.file, sx.line(stmt)),
            f"added `{code}` after {loop.file}:{sx.line(stmt)}",
            (*imports, src.insert_after(loop.file, stmt, code, anchor=True)),
        )
        yield Mutation(
            "tiny_scale",
            site(loop.file, sx.line(stmt)),
            f"loss divided by 1e4 at {loop.file}:{sx.line(stmt)}",
            (src.replace(loop.file, right, f"{src.operand(right)} / 10000.0", anchor=True),),
        )
