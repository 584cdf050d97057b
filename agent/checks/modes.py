"""Stage 7: train/eval modes and metrics — module.training during training and
evaluation, dropout left on in evaluation, BatchNorm with tiny batches, and metric code
checked against the shapes it actually saw."""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING

from torch_investigate.agent.checks import places
from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.baseline import (
    MODULE_LESS,
    eval_missing,
    module_less,
    runtime,
    small_batchnorm,
    usable,
)
from torch_investigate.agent.checks.effects import intervene
from torch_investigate.agent.checks.eval_order import shuffled_evaluation
from torch_investigate.agent.checks.locations import first_static_location, loader_location, where
from torch_investigate.agent.checks.metric_average import wrong_average
from torch_investigate.agent.checks.metric_bound import accuracy_gap, saturated_compares
from torch_investigate.agent.checks.metric_perfect import imperfect_metric
from torch_investigate.agent.checks.numbers import fmt, listed
from torch_investigate.agent.checks.shifted_labels import shifted_labels, truncated_answers
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.records import Location, Stage
from torch_investigate.tools.tracefile.trace import Forward, Frame, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

ITEMS = ("training_mode", "evaluation_mode", "batchnorm", "metrics")


def _mode_layers(t) -> tuple[bool, bool]:
    dropout = any(m.has_dropout for m in t.models)
    bn = any(m.has_batchnorm for m in t.models)
    return dropout, bn


@check(Stage.MODES)
def training_mode(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ITEMS)
    if t is None:
        return
    fws = [
        f for f in t.train_forwards() if f.grad_enabled
    ]  # frozen no-grad feeders may run in eval mode
    if not fws:
        if module_less(t):
            ev.item("training_mode", "not_applicable", MODULE_LESS)
        else:
            ev.item("training_mode", "skipped", "no training forward recorded")
        return
    dropout, bn = _mode_layers(t)
    if not (dropout or bn):
        ev.item(
            "training_mode",
            "passed",
            "the model has no dropout or BatchNorm: train/eval mode changes nothing",
        )
        return
    in_eval = [f for f in fws if not f.training and f.mode_layers is not False]
    if not in_eval and any(not f.training for f in fws):
        ev.item(
            "training_mode",
            "passed",
            "the training forwards in eval mode are of models with no dropout or BatchNorm: "
            "their mode changes nothing",
        )
        return
    counts = t.train_mode_counts or {}
    switched = None  # the program's line that switched the model to eval mode
    n_eval, n_all = len(in_eval), len(fws)
    first_step = in_eval[0].step if in_eval else None
    first_frame = in_eval[0].frame if in_eval else None
    if counts.get("eval"):  # the whole run, beyond the detailed steps
        n_eval, n_all = counts["eval"], counts["eval"] + counts.get("train", 0)
        first = counts.get("first_eval") or {}
        first_step = first.get("step", first_step)
        if first.get("frame"):
            first_frame = Frame.model_validate(first["frame"])
        if first.get("switched_at"):
            switched = Frame.model_validate(first["switched_at"])
    if n_eval:
        layers = " and ".join(x for x, on in (("dropout", dropout), ("BatchNorm", bn)) if on)
        text = f"{n_eval} of {n_all} training forwards ran with model.training == False (first at step {first_step}, {first_frame}): {layers} behave as in evaluation"
        if switched is not None:
            text += f"; the model was switched to eval mode at {switched} and not back"
        eff = intervene(
            session, {"force_train_mode": True}, "with train mode forced for every training forward"
        )
        ev.find(
            "eval_mode_in_training",
            status="confirmed",
            confidence="high" if (eff.improved or n_eval > n_all // 2) else "medium",
            evidence=[
                runtime(text, first_frame, session, eval_forwards=n_eval, train_forwards=n_all),
                eff.observation(),
            ],
            where=where(session, _mode_mistake(session, t, switched, first_frame))
            or first_static_location(session, "eval_mode_in_training"),
            why="in eval mode dropout is off and BatchNorm uses running statistics, so training no longer regularizes or normalizes as designed",
            confirm="assert model.training at the top of each training step; call model.train() after every evaluation",
        )
        ev.item("training_mode", "failed", text)
        return
    ev.item(
        "training_mode",
        "passed",
        f"model.training is True in all {n_all} training forwards",
    )


def _mode_mistake(
    session: Session, t: Trace, switched: Frame | None, first: Frame | None
) -> Frame | None:
    """Where training in eval mode is written: the line that switched to eval mode, unless
    that switch belongs to an evaluation (its function runs the evaluation forwards, as a
    `validate()` does rightly), nothing in the run ever switches back to train mode, and
    the training forward runs in the program's own loop: then that loop, which never
    switches back. (A switch a framework's loop, or the program's, undoes elsewhere, and
    one inside a step a framework calls, is the mistake itself.)"""
    evaluating = {f.frame.function for f in t.eval_forwards() if f.frame is not None}
    back = (t.train_mode_counts or {}).get("back_to_train", 0)
    own_loop = first is not None and places.called_by_program(session, first)
    if switched is not None and (back or switched.function not in evaluating or not own_loop):
        return switched
    return first or switched


@check(Stage.MODES)
def evaluation_mode(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    missing = eval_missing(t)
    dropout, bn = _mode_layers(t)
    drop_eval = [a for a in t.attention if a.calls_in_eval]
    if drop_eval:
        a = drop_eval[0]
        what = (
            "functional dropout called with training=True"
            if a.functional_dropout
            else f"scaled_dot_product_attention with dropout_p={fmt(a.dropout_p)}"
        )
        text = f"{what} at {a.frame} runs {a.calls_in_eval} times while its module is in eval mode: evaluation is random"
        ev.find(
            "train_mode_in_eval",
            status="confirmed",
            confidence="high",
            evidence=[runtime(text, a.frame, session)],
            where=where(session, a.frame) or first_static_location(session, "train_mode_in_eval"),
            why="dropout that ignores module.training stays on in evaluation, so evaluation numbers are noisy and too pessimistic",
            confirm="pass training=self.training (or dropout_p=self.dropout if self.training else 0.0) and evaluate twice: results must match",
        )
        ev.item("evaluation_mode", "failed", text)
        return
    if missing:
        ev.item("evaluation_mode", *missing)
        return
    # a forward whose output nothing reads is no evaluation: run in train mode under no_grad
    # it only refreshes BatchNorm statistics (update_bn after SWA, a recalibration pass)
    forwards = t.eval_forwards()
    discarded = [f for f in forwards if not f.output_read]
    evals = [f for f in forwards if f.output_read]
    # a model with no part that computes differently by mode gives the same output in
    # either mode: its train-mode evaluation changes nothing
    in_train = [f for f in evals if f.training and f.mode_layers is not False]
    if (dropout or bn) and in_train:
        text = f"{len(in_train)} of {len(evals)} evaluation forwards ran with model.training == True ({in_train[0].frame}): dropout is active and BatchNorm updates its statistics on evaluation data"
        ev.find(
            "train_mode_in_eval",
            status="confirmed",
            confidence="high",
            evidence=[runtime(text, in_train[0].frame, session, train_mode_evals=len(in_train))],
            where=_uncalled_switch(session, in_train[0])
            or where(session, _caller_left_in_train(t, evals, in_train))
            or where(session, in_train[0].other_switched)
            or where(session, in_train[0].train_switched)
            or _unrun_switch(session, t)
            or first_static_location(session, "train_mode_in_eval")
            or where(session, in_train[0].frame),
            why="evaluation in train mode randomizes predictions (dropout) and leaks evaluation statistics into BatchNorm",
            confirm="call model.eval() before the evaluation loop and compare two evaluation passes: they must agree",
        )
        ev.item("evaluation_mode", "failed", text)
        return
    if not (dropout or bn):
        ev.item(
            "evaluation_mode",
            "passed",
            f"{len(evals)} evaluation forwards; no dropout/BatchNorm, so the mode does not matter",
        )
    else:
        refresh = (
            f"; {len(discarded)} no-grad forwards whose output nothing read (statistics "
            f"refreshed, at {discarded[0].frame}) are not evaluations"
            if discarded
            else ""
        )
        ev.item(
            "evaluation_mode",
            "passed",
            f"model.training is False in all {len(evals)} evaluation forwards{refresh}",
        )


def _uncalled_switch(session: Session, f: Forward) -> Location | None:
    """`model.eval` written without its call, as a statement of its own (it does nothing),
    in the function that ran the evaluation forward or the one that called it."""
    for frame in (f.frame, f.caller):
        fn = places._function_at(session, frame) if frame is not None else None
        for node in sx.descendants(fn) if fn is not None else ():
            expr = node.named_children[0] if node.type == "expression_statement" else None
            name = expr.child_by_field_name("attribute") if expr is not None else None
            if expr is not None and expr.type == "attribute" and sx.text(name) == "eval":
                line = sx.line(node)
                symbol = session.index.enclosing_symbol(frame.file, line)
                return Location(file=frame.file, line=line, symbol=symbol)
    return None


def _unrun_switch(session: Session, t: Trace) -> Location | None:
    """The one `.eval()` written in the files the run executed that never ran (a callback
    registered for an event the program never fires, a branch it never takes): where the
    program meant to switch to eval mode. None when there are several, or none."""
    ran = {(file, line) for file, line in t.eval_switch_lines}
    files = session.ran_files() if hasattr(session, "ran_files") else set()
    found = [
        (unit.file, sx.line(call))
        for unit in session.index.units.values()
        if unit.file in files
        for call in sx.calls_in(unit.tree.root_node, into_scopes=True)
        if sx.method_name(call) == "eval" and sx.call_args(call) == ([], {})
        and (unit.file, sx.line(call)) not in ran
    ]  # fmt: skip
    if len(set(found)) != 1:
        return None
    file, line = found[0]
    return Location(file=file, line=line, symbol=session.index.enclosing_symbol(file, line))


def _caller_left_in_train(t: Trace, evals: list[Forward], in_train: list[Forward]) -> Frame | None:
    """The call that handed an evaluation a model in train mode, when the same evaluation
    code also ran in eval mode from another call (a validate() called after model.eval()
    in the loop, and again on a freshly built model at the end), or when that code is the
    training step too, called from elsewhere to train (a `run_epoch(model, loader, opt=None)`
    that scores without an optimizer): the function is right, that caller is not."""
    frame = in_train[0].frame
    callers = {str(f.caller): f.caller for f in in_train if f.frame == frame}
    if frame is None or len(callers) != 1 or None in callers.values():
        return None
    (caller,) = callers.values()
    right = [f for f in evals if f.frame == frame and not f.training]
    if right and not any(f.caller == caller for f in right):
        return caller
    trains = [f for f in t.train_forwards() if f.frame == frame]
    if trains and all(f.caller != caller for f in trains):
        return caller
    return None


@check(Stage.MODES)
def batchnorm(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    if not t.batchnorm:
        ev.item("batchnorm", "not_applicable", "no BatchNorm layer ran in train mode")
        return
    small = small_batchnorm(t)
    if small:
        b = small[0]
        text = f"{b.module} ran in train mode on batches of {b.min_batch} sample(s) ({b.min_values_per_channel} values per channel) over {b.calls} calls"
        ev.find(
            "batchnorm_small_batch",
            status="confirmed",
            confidence="high",
            evidence=[runtime(text, b.frame, session, min_batch=b.min_batch)],
            where=_batch_size_literal(session, t)
            or first_static_location(session, "batchnorm_small_batch")
            or loader_location(session, t)
            or where(session, b.frame),
            why="batch statistics of one or two samples are noise (or zero variance); training normalizes with them and the running statistics are useless in evaluation",
            confirm="train with batches of at least 8-16 samples, or use GroupNorm/LayerNorm",
        )
        ev.item("batchnorm", "failed", text)
        return
    b = min(t.batchnorm, key=lambda x: x.min_batch or 0)
    ev.item(
        "batchnorm", "passed", f"smallest batch at a BatchNorm layer in train mode: {b.min_batch}"
    )


@check(Stage.MODES)
def metrics(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    # the same prediction-against-target layouts broadcast in training too: the model's
    # output has the wrong shape, stage 3's finding at the loss, and the metric inherits it
    trained = {
        _layout(o)
        for o in t.ops
        if o.kind == "broadcast"
        and o.phases.get("train")
        and not o.deliberate
        and (o.roles is None or "prediction" in o.roles)
        and _layout(o) is not None
    } | {
        _layout(SimpleNamespace(shapes=[c.input.shape, c.target.shape]))
        for c in t.train_loss_calls()
        if c.broadcast_shape is not None
    }
    bcast = [
        o
        for o in t.ops
        if o.kind == "broadcast"
        and o.phases.get("eval")
        and not o.in_forward
        and o.op in ("eq", "ne", "mul", "sub", "lt", "gt", "le", "ge", "__eq__")
        # a prediction against the data: building a mask (positions < lengths) is not one
        and (o.roles is None or "prediction" in o.roles)
        and not o.deliberate
        and _layout(o) not in trained
    ]
    flat = [o for o in t.ops if o.kind == "argmax_flat"]
    batch_argmax = [
        o
        for o in t.ops
        if o.kind == "batch_dim" and o.op in ("argmax", "argmin") and not o.in_forward
    ]
    farthest = [o for o in t.ops if o.kind in ("farthest", "opposite_sorts")]
    saturated = saturated_compares(t)
    outside = _outside_share(t)
    shifted = shifted_labels(t)
    truncated = truncated_answers(t)
    imperfect = imperfect_metric(session, t)
    averaged = wrong_average(session, t)
    bounded = accuracy_gap(t)
    if bcast:
        o = bcast[0]
        text = f"`{o.op}` at {o.frame} compares {o.shapes[0]} with {o.shapes[1]} and gets {o.out_shape}: every prediction is compared with every target"
    elif flat:
        o = flat[0]
        text = f"{o.op}() without dim at {o.frame} on a {o.shape} tensor returns one index for the whole batch"
    elif batch_argmax:
        o = batch_argmax[0]
        text = f"{o.op}(dim=0) at {o.frame} on a {o.shape} tensor picks a sample per class instead of a class per sample"
    elif saturated:
        o = saturated[0]
        text = (
            f"in evaluation `{o.op}` at {o.frame} compares the model's squashed output (made "
            f"at {o.source}) with {fmt(o.threshold)}, at or beyond the range that output can "
            f"take: each of the {o.total} comparisons came out one value for every element, "
            "so the predictions made from it do not depend on the model"
        )
    elif farthest and farthest[0].kind == "opposite_sorts":
        o = farthest[0]
        text = (
            f"in evaluation the model's scores are sorted {o.op} at {o.frame}, while the values "
            f"they are ranked against are sorted the other way at {o.caller}: the ranking the "
            "metric scores is the reverse of the model's"
        )
    elif farthest:
        o = farthest[0]
        text = (
            f"the index op at {o.frame} keeps the largest of a distance (topk keeps the largest "
            f"unless told otherwise), and its indices are compared with `==` at {o.caller} in "
            "evaluation: each prediction is the farthest candidate, not the nearest"
        )
    elif outside is not None:
        o = t.eval_outside
        share, values, labels = outside
        made = f" (made by the index op at {o.made})" if o.made else ""
        text = (
            f"at the last evaluation {fmt(100 * share)}% of the predictions compared with "
            f"labels (first at {o.compared}{made}) take values no label of the run takes "
            f"({listed([fmt(x) for x in values])}; labels {listed([fmt(x) for x in labels])}): "
            "the metric compares something other than classes"
        )
        o = SimpleNamespace(frame=o.made or o.compared)  # where the finding points
    elif shifted is not None:
        text, frame = shifted
        o = SimpleNamespace(frame=frame)
    elif truncated is not None:
        text, frame = truncated
        o = SimpleNamespace(frame=frame)
    elif imperfect is not None:
        text, helper = imperfect
        o = SimpleNamespace(frame=None, location=helper)
    elif averaged is not None:
        text, divided, frame = averaged
        o = SimpleNamespace(frame=frame, location=divided)
    elif bounded is not None:
        text, frame = bounded
        o = SimpleNamespace(frame=frame)
    else:
        if shuffled_evaluation(session, ev, t):
            return  # the loader in order decided the item
        missing = eval_missing(t)
        if missing and missing[0] == "skipped":
            ev.item("metrics", *missing)
        else:
            ev.item(
                "metrics",
                "passed",
                "metric code saw matching shapes: no broadcast comparison, no flat or batch-wise argmax in evaluation",
            )
        return
    ev.find(
        "metric_bug",
        status="confirmed",
        confidence="high",
        evidence=[runtime(text, o.frame, session)],
        where=getattr(o, "location", None)
        or where(session, o.frame)
        or first_static_location(session, "metric_bug"),
        why="the reported metric is computed from the wrong comparison, so it does not describe the model (training may be fine)",
        confirm="recompute the metric for a batch by hand: (logits.argmax(dim=1) == y).float().mean(), or (logit >= 0) == y for one logit",
    )
    ev.item("metrics", "failed", text)


# Share of a trained model's compared predictions outside the label values beyond which
# they are not class predictions (an index into a window, a count): a classifier's head
# may name a class the evaluation set lacks, now and then, not a quarter of the time.
OUTSIDE = 0.25


def _outside_share(t: Trace) -> tuple[float, list[float], list[float]] | None:
    """(share, values outside, labels) of the predictions at the last evaluation pass
    that take values no label of the run takes (nor a training target), when the share
    is beyond OUTSIDE."""
    v = t.eval_values
    if t.eval_outside is None or v is None or not v.passes:
        return None
    train = t.batches.targets.get("train")
    known = set(v.labels) | {float(x) for x in ((train.values or {}) if train else {})}
    counts = v.passes[-1][1]
    total = sum(c for _, c in counts)
    out = [(x, c) for x, c in counts if x not in known]
    share = sum(c for _, c in out) / total if total else 0.0
    if share < OUTSIDE:
        return None
    return share, [x for x, _ in out], sorted(known)


def _batch_size_literal(session: Session, t: Trace) -> Location | None:
    """Where the training loader's batch size is written as a number (a config default)."""
    ld = t.train_loader()
    return (
        places.literal_of(session, ld.frame, "batch_size", position=1) if ld is not None else None
    )


def _layout(o) -> tuple | None:
    """A broadcast's operand shapes with the batch size left out, in either order ([64, 1]
    against [64] and [500] against [500, 1] are one layout)."""
    shapes = o.shapes
    if not shapes or not all(isinstance(x, list) and x for x in shapes):
        return None
    return tuple(sorted(tuple(x[1:]) + (len(x),) for x in shapes))
