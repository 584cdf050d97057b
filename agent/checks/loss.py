"""Stage 4: the loss — logits vs probabilities, target semantics, argument order,
the elements that contribute, and the loss scale."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from torch_investigate.agent.checks import (
    caller_places,
    hand_mask,
    helper_swap,
    mask_places,
    objective,
    places,
)
from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.baseline import runtime, usable
from torch_investigate.agent.checks.effects import compared_steps, intervene
from torch_investigate.agent.checks.filled_rows import filled_rows
from torch_investigate.agent.checks.ignored_class import ignored_channel, ignored_real_class
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.agent.checks.loss_operands import one_value_masks, swapped
from torch_investigate.agent.checks.numbers import fmt, percent_range
from torch_investigate.agent.checks.padded_targets import scored_padding
from torch_investigate.agent.checks.unscored_reads import unscored_read
from torch_investigate.tools.code.names import ADAPTIVE_OPTIMIZERS
from torch_investigate.tools.records import Observation, Stage
from torch_investigate.tools.trace.loss_kinds import INDEX_TARGET, REGRESSION
from torch_investigate.tools.tracefile.trace import LossCall, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session
    from torch_investigate.tools.tracefile.records import Frame

ITEMS = (
    "output_semantics",
    "target_semantics",
    "argument_order",
    "contributing_elements",
    "loss_scale",
)


def _train_calls(session: Session, ev: Evidence) -> tuple[Trace, list[LossCall]] | None:
    t = usable(session, ev, ITEMS)
    if t is None:
        return None
    calls = t.train_loss_calls()
    if not calls:
        b = t.backwards[0] if t.backwards else None
        detail = "no recognised loss function (F.*/nn.*Loss) was called on the training path; the loss is computed by hand"
        for item in (
            "output_semantics",
            "target_semantics",
            "argument_order",
            "contributing_elements",
        ):
            ev.item(item, "not_applicable", detail)
        if b is None:
            ev.item("loss_scale", "skipped", "no backward recorded")
        return (t, [])
    return t, calls


@check(Stage.LOSS)
def output_semantics(session: Session, ev: Evidence) -> None:
    got = _train_calls(session, ev)
    if got is None:
        _loss_tensor(session, ev, None)
        return
    t, calls = got
    if helper_swap.swapped_helper(session, ev):
        _loss_tensor(session, ev, t)
        return
    if not calls and (
        hand_mask.one_value_kept(session, ev, t) or hand_mask.visible_kept(session, ev, t)
    ):
        _loss_tensor(session, ev, t)
        return
    if objective.empty_mask(session, ev, t):
        _loss_tensor(session, ev, t)
        return
    # each loss call site on the training path (a pretraining and a fine-tuning loss are
    # two sites), its calls in order; a check reports the first site where it fails
    if objective.cooperating_players(session, ev, t, calls):
        _loss_tensor(session, ev, t)
        return
    for site_calls in by_site(calls)[:4]:
        _semantics(session, ev, t, site_calls)
        _targets(session, ev, t, site_calls)
        _order(session, ev, t, site_calls)
        _contributing(session, ev, t, site_calls)
    _loss_tensor(session, ev, t)


def by_site(calls: list[LossCall]) -> list[list[LossCall]]:
    sites: dict[str, list[LossCall]] = {}
    for c in calls:
        sites.setdefault(str(c.frame), []).append(c)
    return list(sites.values())


def _semantics(session: Session, ev: Evidence, t: Trace, calls: list[LossCall]) -> None:
    c = calls[0]
    if swapped(c):
        ev.item(
            "output_semantics",
            "passed",
            f"{c.fn} receives its arguments swapped; see argument_order",
        )
        return
    prov = c.input.provenance
    fn = c.fn
    found = None
    if fn == "cross_entropy":
        if (prov and prov.op == "softmax") or (c.input.rows_sum_to_one or 0) > 0.99:
            found = ("softmax_before_ce", "softmax")
    elif fn == "nll_loss":
        if (prov and prov.op == "softmax") or (
            (c.input.rows_sum_to_one or 0) > 0.99 and (c.input.min or 0) >= 0
        ):
            found = ("softmax_before_ce", "softmax")
    elif fn == "binary_cross_entropy_with_logits":
        if prov and prov.op == "sigmoid":
            found = ("sigmoid_before_bce_logits", "sigmoid")
    if found is None:
        extra = ""
        if prov and prov.op == "log_softmax" and fn in INDEX_TARGET:
            extra = f"; the input is log_softmax output ({prov.frame}), which {'NLLLoss expects' if fn == 'nll_loss' else 'cross_entropy accepts unchanged (log_softmax is idempotent)'}"
        ev.item("output_semantics", "passed", f"{fn} receives {_describe(c)}{extra}")
        return
    category, op = found
    rows = (
        f"; {fmt(100 * (c.input.rows_sum_to_one or 0))}% of rows sum to 1"
        if category == "softmax_before_ce"
        else f"; every input lies in [{fmt(c.input.min)}, {fmt(c.input.max)}]"
    )
    borrowed = _misuse_site(c) is c.frame and prov is not None and prov.frame is not None
    text = (
        f"{fn} at {c.frame} receives {op} output"
        + (f" (from {prov.frame})" if prov and prov.frame else "")
        + (", applied outside the model's forward to the logits it returned" if borrowed else "")
        + rows
    )
    eff = intervene(
        session,
        {"strip_prob": True},
        f"with the {op} stripped before the loss (logits passed instead)",
    )
    loc = where(session, _misuse_site(c))
    ev.find(
        category,
        status="confirmed",
        confidence="high",
        evidence=[
            runtime(
                text,
                c.frame,
                session,
                rows_sum_to_one=c.input.rows_sum_to_one,
                input_min=c.input.min,
                input_max=c.input.max,
            ),
            eff.observation(),
        ],
        where=loc or first_static_location(session, category) or where(session, c.frame),
        why=(
            f"{fn} applies its own log-softmax/sigmoid; feeding it {op} output squashes the logits twice, "
            "so gradients shrink as predictions improve and the loss stalls far above zero"
        ),
        confirm=f"remove the {op} before the loss (keep it only for reporting probabilities) and compare {compared_steps(session)} steps",
    )
    ev.item("output_semantics", "failed", text)


def _misuse_site(c: LossCall) -> Frame | None:
    """Where the probability op before the loss is the mistake: the op itself when a forward
    of the program's modules applies it (the model returns probabilities), the loss call when
    the op was applied to what a forward returned, in another function (a `predict_proba`
    the loss borrowed: the helper is right for reporting, feeding it to the loss is not)."""
    prov = c.input.provenance
    if prov is None or prov.frame is None:
        return None
    borrowed = (
        prov.in_forward is False
        and c.frame is not None
        and (prov.frame.file, prov.frame.function) != (c.frame.file, c.frame.function)
    )
    return c.frame if borrowed else prov.frame


def _describe(c: LossCall) -> str:
    i = c.input
    return f"input {i.shape} {i.dtype} in [{fmt(i.min)}, {fmt(i.max)}] ({'from ' + i.provenance.op if i.provenance else 'raw model output' if i.model_output else 'no tracked provenance'})"


def _targets(session: Session, ev: Evidence, t: Trace, calls: list[LossCall]) -> None:
    c = calls[0]
    if swapped(c):
        ev.item(
            "target_semantics",
            "passed",
            f"{c.fn}: the target is the first argument ({c.input.shape} {c.input.dtype}); see argument_order",
        )
        return
    y = c.target
    vals = sorted(float(k) for k in (y.values or {}))
    integral = bool(vals) and all(v.is_integer() for v in vals)
    if (
        c.fn in REGRESSION
        and y.dtype.startswith("float")
        and integral
        and vals[0] in (0.0, 1.0)
        and vals == [vals[0] + i for i in range(len(vals))]
        and 3 <= len(vals) <= 20
        and (len(c.input.shape) <= 1 or c.input.shape[-1] == 1)
    ):
        text = f"{c.fn} regresses onto {len(vals)} integer target values {vals[:10]} with a single output per sample: class indices treated as numbers"
        ev.find(
            "wrong_loss_for_task",
            status="plausible",
            confidence="medium",
            evidence=[runtime(text, c.frame, session, target_values=vals[:20])],
            where=first_static_location(session, "wrong_loss_for_task") or where(session, c.frame),
            why="regressing class indices imposes an order and distances between classes; predictions between classes are meaningless",
            confirm="if the targets are categories, output one logit per class and use CrossEntropyLoss; compare accuracy",
        )
        ev.item(
            "target_semantics",
            "not_applicable",
            f"{c.fn} target {y.shape} {y.dtype}: {text}; whether the ids are ordered quantities "
            "(a rating, a count) or categories the run cannot tell",
            untested=True,
        )
        return
    if c.fn in REGRESSION and not y.dtype.startswith(("float", "bfloat", "complex")):
        text = f"{c.fn} at {c.frame} gets {y.dtype} targets {_values_text(y)} for a {c.input.dtype} prediction: a regression target cast to integers"
        ev.find(
            "loss_target_mismatch",
            status="confirmed",
            confidence="medium",
            evidence=[runtime(text, c.frame, session, target_dtype=y.dtype)],
            where=first_static_location(session, "loss_target_mismatch") or where(session, c.frame),
            why="integer targets in a regression loss have lost their fractional part (or were never meant for it): the model fits rounded values",
            confirm=f"print(y.dtype, y[:5]) at {c.frame}; pass float targets",
        )
        ev.item("target_semantics", "failed", text)
        return
    if c.fn == "cross_entropy" and y.dtype.startswith("float") and y.shape == c.input.shape:
        ok = (y.min or 0) >= 0 and (y.max or 0) <= 1
        if not ok:
            text = f"cross_entropy with float targets {y.shape} in [{fmt(y.min)}, {fmt(y.max)}]: not class probabilities"
            ev.find(
                "wrong_loss_for_task",
                status="confirmed",
                confidence="high",
                evidence=[runtime(text, c.frame, session)],
                where=first_static_location(session, "wrong_loss_for_task")
                or where(session, c.frame),
                why="cross_entropy reads float targets of the input's shape as class probabilities; real-valued targets make it a meaningless objective",
                confirm="use MSELoss/L1Loss for real-valued targets, or pass class indices",
            )
            ev.item("target_semantics", "failed", text)
            return
    ev.item(
        "target_semantics",
        "passed",
        f"{c.fn}: target {y.shape} {y.dtype} for input {c.input.shape}",
    )


def _values_text(y) -> str:
    if y.values:
        keys = list(y.values)[:6]
        return "{" + ", ".join(keys) + (", ..." if len(y.values) > 6 else "") + "}"
    return f"in [{fmt(y.min)}, {fmt(y.max)}]"


def _order(session: Session, ev: Evidence, t: Trace, calls: list[LossCall]) -> None:
    c = calls[0]
    swapped = (not c.input.requires_grad) and c.target.requires_grad
    if not swapped:
        ev.item(
            "argument_order",
            "passed",
            f"{c.fn}({'model output' if c.input.model_output or c.input.requires_grad else 'input'}, {'batch targets' if c.target.from_batch or not c.target.requires_grad else 'target'})",
        )
        return
    if c.fn in REGRESSION:
        ev.item(
            "argument_order",
            "passed",
            f"{c.fn} gets (target, prediction), but it is symmetric: the swap is harmless",
        )
        return
    text = f"{c.fn} at {c.frame}: the first argument has no grad_fn ({'from the batch' if c.input.from_batch else 'data'}) and the second comes from the model ({c.target.grad_fn})"
    eff = intervene(session, {"swap_loss_args": True}, "with the loss arguments swapped back")
    ev.find(
        "loss_args_swapped",
        status="confirmed",
        confidence="high",
        evidence=[runtime(text, c.frame, session), eff.observation()],
        where=caller_places.swapped_by_caller(session, c.frame)
        or where(session, c.frame)
        or first_static_location(session, "loss_args_swapped"),
        why="the loss treats the targets as predictions and the predictions as targets, so the gradient pushes the model toward a different objective",
        confirm=f"call {c.fn}(prediction, target) at {c.frame} and compare {compared_steps(session)} steps",
    )
    ev.item("argument_order", "failed", text)


def _contributing(session: Session, ev: Evidence, t: Trace, calls: list[LossCall]) -> None:
    masked = [c for c in calls if c.ignore_index is not None]
    empty = [c for c in calls if c.total_elements and c.contributing_elements == 0]
    sites = [s for s in t.loss_sites if s.nonfinite]
    if empty:
        c = empty[0]
        text = f"{len(empty)} of {len(calls)} training loss calls keep 0 of {c.total_elements} elements (every target equals ignore_index {c.ignore_index}); the mean over nothing is NaN"
        _mask_finding(session, ev, c, text)
        return
    real_class = ignored_real_class(masked)
    if real_class is not None:
        c, share = real_class
        text = (
            f"{c.fn} at {c.frame} ignores index {c.ignore_index}, which is a real class of these one-per-sample targets: "
            f"{fmt(100 * share)}% of training targets are {c.ignore_index} and never contribute to the loss"
        )
        _mask_finding(session, ev, c, text)
        return
    channel = ignored_channel(session, masked)
    if channel is not None:
        _mask_finding(session, ev, channel[0], channel[1], channel[2])
        return
    # a mask (a boolean selection of the target, or 0/1 weights multiplied into an
    # element-wise loss) that keeps one target value while the batch holds others: the
    # loss is trained on that value alone (padding kept, every real token dropped)
    cut = one_value_masks(calls)
    if cut:
        c = cut[0]
        src = c.mask.get("source_values") or []
        text = (
            f"the {c.fn} loss at {c.frame} is masked to {c.mask['kept']} of {c.mask['total']} elements, "
            f"all with target {fmt(c.mask['kept_values'][0])}, while the batch holds target values {[fmt(v) for v in src[:8]]}: "
            "the loss never sees the others"
        )
        _mask_finding(session, ev, c, text)
        return
    padded = scored_padding(t, calls) or filled_rows(calls)
    if padded is not None:
        _mask_finding(session, ev, padded[0], padded[1])
        return
    if masked and unscored_read(session, ev, t, calls):
        return
    if masked:
        fracs = [c.contributing_elements / max(c.total_elements, 1) for c in masked]
        single = [c for c in masked if len(c.contributing_values or []) == 1]
        overall: set[float] = set()
        for c in calls:
            overall.update(float(k) for k in (c.target.values or {}))
        # the mask must drop something: a call whose every element contributes (a batch of
        # one sample, a batch of one class) keeps one value because there is only one
        drops = [c for c in single if c.contributing_elements < c.total_elements]
        if (
            len(single) == len(masked)
            and drops
            and len(overall - {float(masked[0].ignore_index)}) > 1
            and len(masked) >= 3
        ):
            v = single[0].contributing_values[0]
            text = (
                f"only targets equal to {fmt(v)} contribute to {masked[0].fn} (ignore_index={masked[0].ignore_index}) in every one of "
                f"{len(masked)} calls, although the targets take {len(overall)} values: the mask keeps the wrong elements"
            )
            _mask_finding(session, ev, masked[0], text)
            return
        ev.item(
            "contributing_elements",
            "passed",
            f"{masked[0].fn} with ignore_index={masked[0].ignore_index}: {percent_range(min(fracs), max(fracs))} of elements contribute",
        )
    elif sites:
        ev.item(
            "contributing_elements",
            "passed",
            f"reduction {calls[0].reduction}; all {calls[0].total_elements} elements contribute; {sites[0].nonfinite} non-finite loss values at {sites[0].frame}",
        )
    else:
        ev.item(
            "contributing_elements",
            "passed",
            f"reduction '{calls[0].reduction}'; all {calls[0].contributing_elements} elements of each call contribute",
        )


def _mask_finding(
    session: Session, ev: Evidence, c: LossCall, text: str, held: Observation | None = None
) -> None:
    ev.find(
        "loss_mask_error",
        status="confirmed",
        confidence="high",
        evidence=[
            runtime(
                text, c.frame, session, contributing=c.contributing_elements, total=c.total_elements
            ),
            *([held] if held is not None else []),
        ],
        where=(
            where(session, c.module_frame)
            if c.module_frame and c.ignore_index is not None
            else None
        )
        or places.target_marked(session, c.frame)
        or mask_places.mask_compared_at(session, c.frame)
        or caller_places.mask_passed_in(session, c.frame)
        or first_static_location(session, "loss_mask_error")
        or where(session, c.frame),
        why="the loss is averaged over the wrong elements (or none), so the gradient trains the wrong positions or is NaN",
        confirm="print (target != ignore_index).sum() per batch and which positions the mask keeps",
    )
    ev.item("contributing_elements", "failed", text)


def _loss_tensor(session: Session, ev: Evidence, t: Trace | None) -> None:
    if t is None:
        return
    if objective.unbounded(session, ev, t):
        return
    b = t.backwards[0] if t.backwards else None
    if b is None:
        ev.item("loss_scale", "skipped", "no backward recorded")
        return
    if b.grad_fn is None:
        text = f"the tensor passed to backward at {b.frame} has no grad_fn ({'a leaf that requires grad' if b.requires_grad else 'no grad at all'}): it was rebuilt from a Python number, so no gradient reaches the model"
        ev.find(
            "loss_detached_scale",
            status="confirmed",
            confidence="high",
            evidence=[runtime(text, b.frame, session, reachable=len(b.reachable))],
            where=first_static_location(session, "loss_detached_scale", "detached_graph")
            or where(session, b.frame),
            why="a loss built from .item()/float values carries no graph: backward computes nothing for the parameters",
            confirm=f"print(loss.grad_fn) before loss.backward() at {b.frame}: it must not be None",
        )
        ev.item("loss_scale", "failed", text)
        return
    calls = [c for c in t.train_loss_calls() if c.step == b.step and isinstance(c.value, float)]
    value = b.value if isinstance(b.value, float) else None
    # one loss call per step, finite values: otherwise the ratio means nothing
    if (
        len(calls) == 1
        and value is not None
        and math.isfinite(value)
        and math.isfinite(calls[0].value)
    ):
        total = sum(c.value for c in calls if isinstance(c.value, float))
        ratio = value / total if total else None
        if ratio is not None and 0 < abs(ratio) < 1e-3:
            opt = t.optimizers[0].class_ if t.optimizers else "?"
            text = f"the backward'ed loss ({fmt(value)}) is {fmt(ratio)} times the loss function's value ({fmt(total)}): the gradient is scaled down by the same factor"
            adaptive = opt.lower().startswith(ADAPTIVE_OPTIMIZERS)
            ev.find(
                "loss_detached_scale",
                status="plausible" if adaptive else "confirmed",
                confidence="low" if adaptive else "high",
                evidence=[
                    runtime(
                        text
                        + (
                            f" ({opt} normalizes gradient scale, so the effect is small)"
                            if adaptive
                            else ""
                        ),
                        b.frame,
                        session,
                        ratio=ratio,
                    )
                ],
                where=first_static_location(session, "loss_detached_scale")
                or where(session, b.frame),
                why="with a plain gradient step, scaling the loss by a tiny factor scales every update by it: learning is effectively off",
                confirm=f"remove the scale factor (or compensate the learning rate deliberately) and compare {compared_steps(session)} steps",
            )
            ev.item("loss_scale", "failed", text)
            return
    chance = ev.facts.chance
    text = f"loss {fmt(value)} with grad_fn {b.grad_fn}" + (
        f"; chance level {fmt(chance)}" if chance else ""
    )
    ev.item("loss_scale", "passed", text)
