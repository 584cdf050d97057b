"""Stage 6: the optimizer update — the observed order of zero_grad/forward/loss/backward/
clip/step/scheduler, ownership of every trainable parameter, parameter deltas, gradient
reset, learning rate per step, clipping ratio and weight decay."""

from __future__ import annotations

from statistics import median
from typing import TYPE_CHECKING

from torch_investigate.agent.checks import places
from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.baseline import runtime, stale_copies, usable
from torch_investigate.agent.checks.effects import compared_steps, intervene
from torch_investigate.agent.checks.leftover_grads import (
    accumulating_backward,
    left_to_step,
    rare_reset,
)
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.checks.schedules import stepped_from_two_lines
from torch_investigate.agent.checks.step_calls import step_not_called
from torch_investigate.tools.records import Location, Stage
from torch_investigate.tools.tracefile.trace import Frame, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

ITEMS = (
    "call_order",
    "ownership",
    "updates",
    "gradient_reset",
    "learning_rate",
    "clipping",
    "weight_decay",
)


def _frame(t: Trace, kind: str) -> Frame | None:
    return t.event_frames.get(kind)


def _loc(session: Session, t: Trace, kind: str, *categories: str) -> Location | None:
    return first_static_location(session, *categories) or where(session, _frame(t, kind))


def _discarding_site(session: Session, t: Trace) -> Location | None:
    """Where the discarding zero_grad is written: its own line, or, when the function
    holding it also runs where it discards nothing (a reset helper called before backward
    in one place and between backward and step in another), the line that called it
    there."""
    ef = t.event_frames
    d, harmless = ef.get("zero_grad_discarding"), ef.get("zero_grad_harmless")
    caller = ef.get("zero_grad_discarding_caller")
    if d is not None and harmless is not None and caller is not None:
        if (d.file, d.line) == (harmless.file, harmless.line):
            return where(session, caller)
    return _loc(session, t, "zero_grad", "step_order")


@check(Stage.OPTIMIZER)
def call_order(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ITEMS)
    if t is None:
        return
    iters = [it for it in t.iterations if "step" in it or "backward" in it]
    if not iters:
        ev.item("call_order", "skipped", "no training iteration recorded")
        return
    shown = call_order_text(iters[0])
    discard = discarding(t)
    # an iteration is cut at each optimizer step: without steps (a hand-written update)
    # the kept calls are chunks of the run, and one starting with backward says nothing
    late_backward = [it for it in iters[1:] if it and it[0] == "backward" and "step" in it]
    if discard:
        example = call_order_text(discard[0])
        text = f"in {len(discard)} of {len(iters)} iterations zero_grad runs after backward and before step ({example}): the gradients are discarded before the update"
        unchanged = [s for s in t.steps if s.unchanged]
        evidence = [runtime(text, _frame(t, "zero_grad"), session)]
        if unchanged:
            evidence.append(
                runtime(
                    f"{len(unchanged)} of {len(t.steps)} recorded steps left {len(unchanged[0].unchanged)} parameters unchanged",
                    None,
                    session,
                )
            )
        eff = intervene(
            session, {"defer_zero_grad": True}, "with those zero_grad calls moved after the step"
        )
        evidence.append(eff.observation())
        ev.find(
            "step_order",
            status="confirmed",
            confidence="high",
            evidence=evidence,
            where=_discarding_site(session, t),
            why="zeroing gradients between backward and step means the optimizer steps on zeros (or on a partial accumulation)",
            confirm=f"order each iteration as zero_grad -> forward -> loss -> backward -> step and compare {compared_steps(session)} steps",
        )
        ev.item("call_order", "failed", text)
        return
    if late_backward and len(late_backward) >= max(1, (len(iters) - 1) // 2):
        text = f"step runs before backward in {len(late_backward)} iterations (observed order {shown} | {call_order_text(late_backward[0])}): each update uses the previous batch's gradients"
        ev.find(
            "step_order",
            status="confirmed",
            confidence="high",
            evidence=[runtime(text, _frame(t, "step"), session)],
            where=_loc(session, t, "step", "step_order"),
            why="stepping before backward applies stale (or zeroed) gradients, one batch late",
            confirm=f"call loss.backward() before optimizer.step() in the loop and compare {compared_steps(session)} steps",
        )
        ev.item("call_order", "failed", text)
        return
    if stepped_from_two_lines(session, ev, t):
        return
    early = [s for s in t.schedulers if s.before_first_optimizer_step > 0]
    if early:
        s = early[0]
        text = f"{s.class_}.step() ran {s.before_first_optimizer_step} time(s) before the first optimizer.step(): the first learning-rate value is skipped"
        ev.find(
            "scheduler_misuse",
            status="confirmed",
            confidence="medium",
            evidence=[runtime(text, s.step_frame, session)],
            where=places.scheduler_site(session, s)
            or first_static_location(session, "scheduler_misuse"),
            why="the schedule runs one step ahead of training: warm-up and decay happen earlier than configured",
            confirm="call scheduler.step() after optimizer.step()",
        )
        ev.item("call_order", "failed", text)
        return
    ev.item(
        "call_order",
        "passed",
        f"observed order per iteration: {shown} (same pattern in {sum(1 for it in iters if it == iters[0])} of {len(iters)} iterations)",
    )


def call_order_text(calls: list[str]) -> str:
    """An iteration's calls in order, a pattern of one or two calls repeated in a row
    written once with its count: "(forward -> loss) x24 -> backward -> step"."""
    parts, i = [], 0
    while i < len(calls):
        for width in (1, 2):
            unit = calls[i : i + width]
            n = 1
            while calls[i + n * width : i + (n + 1) * width] == unit:
                n += 1
            if n >= 3 and len(unit) == width:
                parts.append(f"({' -> '.join(unit)}) x{n}" if width > 1 else f"{unit[0]} x{n}")
                i += n * width
                break
        else:
            parts.append(calls[i])
            i += 1
    return " -> ".join(parts)


def discarding(t: Trace) -> list[list[str]]:
    """Iterations where zero_grad runs after backward and before step (the gradients are
    discarded before the update), when they are at least a quarter of the iterations."""
    iters = [it for it in t.iterations if "step" in it or "backward" in it]
    found = [it for it in iters if _zero_after_backward(it)]
    if found and len(found) >= max(1, len(iters) // 4):
        return found
    # a second optimizer's zero_grad after the backward and after the first optimizer's
    # step, before its own (an iteration is cut at each step, so the order of its calls
    # alone does not show it): counted per optimizer by the tracer
    own = t.counts.get("zero_grad_discards", 0)
    steps = t.counts.get("step", 0)
    if len(t.optimizers) > 1 and own and own >= max(1, steps // 4):
        return [["backward", "zero_grad", "step"]] * min(own, len(iters))
    return []


def _zero_after_backward(it: list[str]) -> bool:
    seen_backward = False
    for e in it:
        if e == "backward":
            seen_backward = True
        elif e == "zero_grad" and seen_backward and "step" in it[it.index(e) :]:
            return True
    return False


def trainable(t: Trace) -> list:
    """Parameters the training path uses and could train: run in a training forward (a
    module's) or reached by the training loss (a module's or a plain tensor), trainable
    when first seen (a backbone frozen for a later phase was trainable in the first)."""
    return [
        p
        for p in t.parameters
        if (p.requires_grad or p.requires_grad_at_start)
        and ((p.registered and p.executed) or p.reached)
    ]


@check(Stage.OPTIMIZER)
def ownership(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    if not t.optimizers:
        if updated_by_hand(t):
            ev.item(
                "ownership",
                "not_applicable",
                "no optimizer object: the parameters are updated by hand",
            )
        else:
            ev.item(
                "ownership",
                "failed" if t.counts.get("backward") else "skipped",
                "no optimizer was constructed on the training path",
            )
        return
    used = trainable(t)
    stale = stale_copies(t)
    # missing: parameters the loss reaches (they get gradients) that no optimizer updates.
    # One the loss does not reach and no optimizer holds is not meant to train by
    # gradient (an EMA copy, a target network), however often its module runs.
    # A layer kept outside the model (a plain list) or made in the forward is the
    # registration check's finding (stage 5): its parameters are missing from the
    # optimizer because of it.
    missing = [
        p
        for p in used
        if not p.in_optimizer
        and (p.reached or p.graph.reachable)
        and not (p.executed and not p.registered)
        and not p.created_in_forward
        and p not in stale
    ]
    orphans = [
        p
        for p in t.parameters
        if p.in_optimizer and not p.registered and not p.executed and not p.reached
    ]
    if missing:
        names = [p.name for p in missing]
        text = f"{len(missing)} of {len(used)} trainable parameters the training path uses are not in any optimizer param group: {', '.join(names[:5])}"
        if orphans:
            text += f"; the optimizer instead holds {len(orphans)} parameters the model no longer uses (a layer replaced after the optimizer was built)"
        eff = intervene(
            session,
            {"add_missing_params": True},
            "with the missing parameters added to the optimizer",
        )
        frame = t.optimizers[0].frame
        ev.find(
            "optimizer_missing_params",
            status="confirmed",
            confidence="high",
            evidence=[
                runtime(text, frame, session, missing=names[:20], orphans=len(orphans)),
                eff.observation(),
            ],
            where=first_static_location(session, "optimizer_missing_params")
            or where(session, frame),
            why="parameters outside the optimizer receive gradients but are never updated, so that part of the model stays at its initialization",
            confirm="compare {id(p) for g in opt.param_groups for p in g['params']} with model.parameters(); build the optimizer after the model is final",
        )
        ev.item("ownership", "failed", text)
        return
    groups = sum(len(o.param_groups) for o in t.optimizers)
    ev.item(
        "ownership",
        "passed",
        f"{t.optimizers[0].class_} owns all {len(used)} trainable parameters the training path uses ({groups} param group(s))",
    )


@check(Stage.OPTIMIZER)
def updates(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    # backward calls inside optimizer.step(closure) are the closure's evaluations (LBFGS
    # runs it ~20 times a step, Lightning once): they belong to that step
    backwards = t.counts.get("backward", 0) - t.steps_in_closures
    steps = t.n_steps
    iv = t.update_intervals or {}
    observed, changed = iv.get("observed", 0), iv.get("changed", 0)
    if backwards and steps == 0:
        hand = updated_by_hand(t)
        if hand and not t.optimizers and observed and changed >= 0.5 * observed:
            ev.item(
                "updates",
                "passed",
                f"no optimizer object; the parameters change between {changed} of {observed} consecutive backward calls (updated by hand)",
            )
            return
        blind = iv.get("nonfinite", 0)
        if hand and not t.optimizers and blind and changed + blind >= 0.5 * observed:
            ev.item(
                "updates",
                "skipped",
                f"the parameters changed between {changed} of {observed} consecutive backward "
                f"calls and were non-finite in {blind} more: a non-finite parameter cannot be seen "
                "to change, so whether the hand-written update runs is not known",
            )
            return
        if hand and not t.optimizers:
            text = f"the parameters changed between only {changed} of {observed} consecutive backward calls: the hand-written update does not run every iteration"
        else:
            text = (
                f"{backwards} backward calls and no optimizer.step(): the parameters never change"
            )
        step_not_called(session, ev, t, text)
        return
    zero_between = t.counts.get("zero_grad", 0) - t.counts.get("zero_grad_in_step", 0)
    closures = f" (and {t.steps_in_closures} inside step(closure))" if t.steps_in_closures else ""
    if discarding(t):
        ev.item(
            "updates",
            "failed",
            f"{backwards} backward calls for {steps} optimizer steps: the gradients of most are reset "
            "before the step uses them (the call order shows zero_grad between backward and step)",
        )
        return
    if backwards >= 8 and steps and steps * 5 <= backwards and zero_between >= backwards * 0.8:
        text = f"{backwards} backward calls{closures} but only {steps} optimizer steps, with zero_grad after every backward: most gradients are thrown away unused"
        step_not_called(session, ev, t, text)
        return
    if backwards >= 16 and steps and steps * 8 <= backwards:
        text = f"{backwards} backward calls{closures} but only {steps} optimizer steps: each step applies gradients summed over {backwards // steps} batches (optimizer.step() outside the batch loop?)"
        # summed gradients are also what accumulation does on purpose (`loss / accum`, a
        # step every k micro-batches): only a step after every backward that learns
        # beyond chance makes the rare step the defect
        step_not_called(session, ev, t, text, accumulating=True)
        return
    _moved(session, ev, t)


def _moved(session: Session, ev: Evidence, t: Trace) -> None:
    """Parameters the optimizer owns and the forward uses must change; ones it owns but
    nothing uses (a decoder idle in this phase) may rest."""
    moved = [p for p in t.parameters if p.in_optimizer and p.update.observed]
    ratios = [p.update.mean_ratio for p in moved if p.update.mean_ratio is not None]
    still = [p for p in moved if p.update.zero == p.update.observed and p.requires_grad]
    used = {p.name for p in trainable(t)} | {
        p.name for p in t.parameters if (p.executed or p.ran_without_grad) and p.requires_grad
    }
    # exactly-zero gradients (zero-initialized or dead units) reach the optimizer, which
    # would move the weights if they were not zero: stage 8's question, not the update's
    stuck = [
        p for p in still
        if p.name in used and not (p.grad.observed and p.grad.zero == p.grad.observed)
    ]  # fmt: skip
    zero_grads = [p for p in still if p.grad.observed and p.grad.zero == p.grad.observed]
    n_steps = moved[0].update.observed if moved else 0
    if still and len(still) == len(moved):
        ev.item("updates", "failed", f"no optimizer parameter changed in {n_steps} recorded steps")
        return
    detail = f"{len(moved) - len(still)} of {len(moved)} optimizer parameters change each step; median |Δw|/|w| {fmt(median(ratios) if ratios else None)} over {n_steps} steps"
    if stuck:
        never = [p for p in stuck if p.grad.observed and p.grad.none == p.grad.observed]
        why = (
            f"{len(never)} of them never receive a gradient (stage 5 says why)"
            if never
            else "they receive gradients but the step leaves them as they are"
        )
        ev.item(
            "updates",
            "failed",
            f"{detail}; {len(stuck)} parameters the optimizer owns and the training forward uses never change: "
            f"{', '.join(p.name for p in stuck[:4])}; {why}",
        )
        return
    if zero_grads:
        detail += f"; {len(zero_grads)} get exactly zero gradients, so they stay (stage 8 examines initialization and dead units): {', '.join(p.name for p in zero_grads[:4])}"
    idle = [p for p in still if p not in zero_grads]
    if idle:
        detail += (
            f"; unchanged but unused by the training forward: {', '.join(p.name for p in idle[:4])}"
        )
    ev.item("updates", "passed", detail)


def updated_by_hand(t: Trace) -> list:
    """Parameters (in a module or plain tensors the loss reaches) whose norm changed over
    the run without an optimizer step."""
    return [
        p
        for p in t.parameters
        if (p.registered or p.reached)
        and p.weight_norm_start is not None
        and p.weight_norm_end != p.weight_norm_start
    ]


@check(Stage.OPTIMIZER)
def gradient_reset(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    # the first backward of each iteration after the first update (an optimizer step or a
    # hand-written one; inside step(closure), the closure's first evaluation)
    firsts = [b for b in t.backwards if b.backward_in_iteration == 1 and b.updates_before > 0]
    # a zero_grad() that ran may belong to another optimizer: what is still non-zero when
    # backward starts, and a step then applies, accumulates across steps whatever reset ran
    leftover = [b for b in firsts if left_to_step(t, b)]
    if not firsts:
        ev.item(
            "gradient_reset",
            "not_applicable" if t.n_steps <= 1 and not t.counts.get("hand_update") else "skipped",
            "fewer than two updates recorded",
        )
        return
    # with optimizers taking turns, only the backwards before one optimizer's steps can
    # show what that optimizer never resets: each is judged over its own iterations
    by_next: dict[int | None, list] = {}
    for b in firsts:
        nxt = t.step_optimizers[b.step] if b.step < len(t.step_optimizers) else None
        by_next.setdefault(nxt, []).append(b)
    turns = [
        (hit, group)
        for group in by_next.values()
        if len(hit := [b for b in group if b in leftover]) >= max(2, len(group) // 2)
    ]
    if turns and len(by_next) > 1:
        leftover, firsts = max(turns, key=lambda hg: len(hg[0]))
    if len(leftover) >= max(2, len(firsts) // 2):
        text = (
            f"at {len(leftover)} of {len(firsts)} iterations, .grad still holds the previous iteration's gradient when backward starts "
            f"({len(left_to_step(t, leftover[0]))} parameters) and "
            + (
                "the zero_grad() that ran since the last step did not reset them (another optimizer's)"
                if leftover[0].zero_grad_since_last_step
                else "no zero_grad ran since the last step"
            )
            + ": gradients accumulate across steps"
        )
        reset = rare_reset(t, leftover)
        if reset is not None:
            text += (
                f"; the zero_grad() at {reset.file}:{reset.line} ran at "
                f"{t.counts['zero_grad']} of {t.counts['step']} steps"
            )
        eff = intervene(
            session,
            {"zero_grad_before_backward": True},
            "with gradients zeroed before each backward",
        )
        # zeroing them and nothing changes: the sums never reach an update (an optimizer
        # that holds other tensors than the ones backward fills), a consequence, not this
        settled = eff.iv_final is not None and eff.base_final is not None
        inert = settled and abs(eff.iv_final - eff.base_final) <= 1e-3 * (
            abs(eff.base_final) + 1e-12
        )
        ev.find(
            "missing_zero_grad",
            status="plausible" if inert else "confirmed",
            confidence="medium" if inert else "high",
            evidence=[
                runtime(text, accumulating_backward(t, leftover), session),
                eff.observation(),
            ],
            where=(places.hand_update(session) if not t.optimizers else None)
            or first_static_location(session, "missing_zero_grad")
            or where(session, reset or accumulating_backward(t, leftover)),
            why="backward adds into .grad; without a reset every step applies the sum of all past gradients, so steps grow and point the wrong way",
            confirm=f"call optimizer.zero_grad() before loss.backward() in each iteration and compare {compared_steps(session)} steps",
        )
        ev.item("gradient_reset", "failed", text)
        return
    how = (
        "optimizer.zero_grad()"
        if t.counts.get("zero_grad")
        else "gradients found empty (reset by hand)"
    )
    ev.item(
        "gradient_reset",
        "passed",
        f"{how}: no gradient left over at the first backward of {len(firsts)} iterations",
    )
