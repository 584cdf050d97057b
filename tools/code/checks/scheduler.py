"""Learning-rate schedulers stepped in the wrong place: before the optimizer's step, or
an epoch-scale scheduler stepped once per batch.

OneCycleLR, CyclicLR, warm-up schedules and schedulers sized in iterations
(`T_max=len(loader) * epochs`) belong in the batch loop and do not fire.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext, check, finding, observe, spot
from torch_investigate.tools.code.consts import number_value
from torch_investigate.tools.code.events import Occurrence
from torch_investigate.tools.code.flow import EvalContext, Obj, Value
from torch_investigate.tools.code.names import PER_EPOCH_SCHEDULERS, is_scheduler, last
from torch_investigate.tools.records import Finding

NAME = "scheduler_misuse"
# An epoch count is rarely above this; an iteration count rarely below.
EPOCH_SCALE = 1000
# Expressions sized in iterations (the scheduler belongs in the batch loop then).
ITERATION_WORDS = re.compile(
    r"len\(|iters?\b|iterations|total_steps|num_steps|n_steps|max_steps|steps_per|batches|num_training_steps",
    re.IGNORECASE,
)
EPOCH_WORDS = re.compile(r"epoch", re.IGNORECASE)


@check(NAME, "scheduler_misuse")
def scheduler_misuse(ctx: CheckContext) -> Iterator[Finding]:
    """scheduler.step() before optimizer.step(), or an epoch scheduler in the batch loop."""
    reported: set[int] = set()
    for found in [*_stepped_before_optimizer(ctx), *_per_epoch_in_batch_loop(ctx)]:
        key = found.line or 0
        if key not in reported:
            reported.add(key)
            yield found


def _scheduler_ctors(ctx: CheckContext, o: Occurrence) -> list[Obj]:
    if o.event.receiver is None:
        return []
    objs = ctx.flow.objects(Value(o.event.receiver, o.event.value.frame), budget=80)
    return [
        x for x in objs if x.kind == "external" and x.ctor is not None and is_scheduler(x.resolved)
    ]


def _stepped_before_optimizer(ctx: CheckContext) -> Iterator[Finding]:
    a = ctx.analysis
    for region in a.training_regions():
        occurrences = a.programs.flatten(a.program(region))
        sched = next((o for o in occurrences if o.kind == "scheduler_step"), None)
        step = next((o for o in occurrences if o.kind == "step"), None)
        if sched is None or step is None:
            continue
        if occurrences.index(sched) > occurrences.index(step):
            continue
        at = spot(ctx, sched.event.value)
        step_at = spot(ctx, step.event.value)
        yield finding(
            "scheduler_misuse",
            at,
            confidence="medium",
            evidence=[
                observe(at, "the scheduler steps here"),
                observe(step_at, "before the first optimizer step, which comes here"),
            ],
            why=(
                "Since PyTorch 1.1 the scheduler must step after optimizer.step(): stepping "
                "it first skips the first value of the schedule (PyTorch warns once), and "
                "with warm-up or short schedules the learning rate is off by one period "
                "for the whole run."
            ),
            confirm=(
                "Log optimizer.param_groups[0]['lr'] for the first steps and compare with "
                f"the intended schedule; then move the call at {at.file}:{at.line} after "
                f"the optimizer step ({step_at.file}:{step_at.line})."
            ),
        )


def _per_epoch_in_batch_loop(ctx: CheckContext) -> Iterator[Finding]:
    for loop in ctx.analysis.training_loops:
        if loop.loop is None:
            continue
        for o in loop.occurrences:
            if o.kind != "scheduler_step" or o.conditional:
                continue
            for sched in _scheduler_ctors(ctx, o):
                reason = _epoch_scale(ctx, sched)
                if reason is None:
                    continue
                at = spot(ctx, o.event.value)
                assert sched.ctor is not None
                yield finding(
                    "scheduler_misuse",
                    at,
                    confidence="medium",
                    evidence=[
                        observe(spot(ctx, sched.ctor), f"{last(sched.resolved)} {reason}"),
                        observe(spot(ctx, loop.loop.value), "the batch loop"),
                        observe(at, "steps the scheduler once per batch"),
                    ],
                    why=(
                        f"{last(sched.resolved)} is sized in epochs but stepped every batch, "
                        "so the learning rate decays len(loader) times too fast and is near "
                        "zero after the first epoch: the loss stops moving early."
                    ),
                    confirm=(
                        "Log optimizer.param_groups[0]['lr'] per step over the first epoch; "
                        f"then step the scheduler once per epoch (move {at.file}:{at.line} out "
                        "of the batch loop) and compare."
                    ),
                )
                break


def _epoch_scale(ctx: CheckContext, sched: Obj) -> str | None:
    """Why the scheduler's configuration counts epochs, or None when unsure."""
    assert sched.ctor is not None
    name = last(sched.resolved)
    if name not in PER_EPOCH_SCHEDULERS:
        return None
    call, frame = sched.ctor.node, sched.ctor.frame
    if name == "StepLR":
        return _small(ctx, sx.argument(call, 1, "step_size"), frame, "step_size")
    if name == "CosineAnnealingLR":
        return _small(ctx, sx.argument(call, 1, "T_max"), frame, "T_max")
    if name == "MultiStepLR":
        milestones = sx.argument(call, 1, "milestones")
        if milestones is not None and milestones.type in ("list", "tuple"):
            values = [sx.number(c) for c in milestones.named_children]
            if values and all(v is not None and v < EPOCH_SCALE for v in values):
                return f"has milestones {sx.flat(milestones)}"
        return None
    if name == "ExponentialLR":
        gamma = sx.argument(call, 1, "gamma")
        value = number_value(ctx.analysis, Value(gamma, frame)) if gamma is not None else None
        if value is not None and value <= 0.99:
            return f"multiplies the rate by gamma={value:g} per step"
    return None


def _small(ctx: CheckContext, arg: Node | None, frame: EvalContext, label: str) -> str | None:
    if arg is None:
        return None
    text = sx.flat(arg)
    if ITERATION_WORDS.search(text):
        return None
    value = number_value(ctx.analysis, Value(arg, frame))
    if value is not None and value < EPOCH_SCALE:
        return f"has {label}={value:g}"
    if EPOCH_WORDS.search(text):
        return f"has {label}={text}"
    return None
