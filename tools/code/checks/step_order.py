"""The order of zero_grad / backward / step inside one training iteration, and an
optimizer step that runs outside the loop that computes the gradients.

Order is read cyclically (the end of one iteration runs before the start of the next),
so `step(); zero_grad(); forward; backward()` — a rotated but correct loop — is fine,
while a step whose nearest preceding gradient event is a reset applies zero (or None)
gradients: `zero_grad` between backward and step, or step before backward.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import LoopContext
from torch_investigate.tools.code.checks.base import CheckContext, check, finding, observe, spot
from torch_investigate.tools.code.events import Loop, Occurrence
from torch_investigate.tools.code.flow import Value
from torch_investigate.tools.code.names import is_data_loader, is_optimizer
from torch_investigate.tools.records import Finding

NAME = "step_order"
ORDER_KINDS = ("backward", "step", "zero_grad")


@check(NAME, "step_order", "step_not_called")
def step_order(ctx: CheckContext) -> Iterator[Finding]:
    """zero_grad between backward and step; step before backward; a reset that throws
    away a partial accumulation; a step outside the loop that computes gradients."""
    for loop in ctx.analysis.training_loops:
        if loop.loop is None:
            continue
        found = _reset_before_step(ctx, loop)
        if found is not None:
            yield found
        found = _epoch_reset_discards_accumulation(ctx, loop)
        if found is not None:
            yield found
    yield from _step_outside_loop(ctx)


def _optimizer_keys(ctx: CheckContext, o: Occurrence) -> set[int]:
    if o.event.receiver is None:
        return set()
    objs = ctx.flow.objects(Value(o.event.receiver, o.event.value.frame), budget=80)
    return {
        obj.ctor.node.id
        for obj in objs
        if obj.kind == "external" and obj.ctor is not None and is_optimizer(obj.resolved)
    }


def _reset_before_step(ctx: CheckContext, loop: LoopContext) -> Finding | None:
    seq = [o for o in loop.occurrences if o.kind in ORDER_KINDS]
    n = len(seq)
    doubled = seq + seq
    for i in range(n, 2 * n):
        step = doubled[i]
        if step.kind != "step":
            continue
        step_keys = _optimizer_keys(ctx, step)
        for j in range(i - 1, -1, -1):
            prior = doubled[j]
            if prior.kind == "backward":
                break
            if prior.kind != "zero_grad":
                continue
            reset_keys = _optimizer_keys(ctx, prior)
            if step_keys and reset_keys and not step_keys & reset_keys:
                continue  # another optimizer's reset (GAN-style loops)
            in_iteration = j >= n
            backward_first = in_iteration and any(o.kind == "backward" for o in doubled[n:j])
            return _order_finding(ctx, loop, step, prior, backward_first, in_iteration)
    return None


def _order_finding(
    ctx: CheckContext,
    loop: LoopContext,
    step: Occurrence,
    reset: Occurrence,
    backward_before_reset: bool,
    reset_in_iteration: bool,
) -> Finding:
    step_at = spot(ctx, step.event.value)
    reset_at = spot(ctx, reset.event.value)
    backward = next(o for o in loop.occurrences if o.kind == "backward")
    backward_at = spot(ctx, backward.event.value)
    if backward_before_reset and reset_in_iteration:
        at, what = reset_at, "zero_grad runs between backward and step"
        fix = f"move the reset at {reset_at.file}:{reset_at.line} before the forward pass"
    else:
        at, what = step_at, "the step runs before backward in the iteration"
        fix = f"move the step at {step_at.file}:{step_at.line} after the backward at line {backward_at.line}"
    evidence = [
        observe(backward_at, "gradients computed here"),
        observe(reset_at, "then reset here"),
        observe(step_at, "before this step reads them"),
    ]
    return finding(
        "step_order",
        at,
        confidence="high",
        evidence=evidence,
        why=(
            f"{what}: every optimizer step sees gradients that were just reset (zero or "
            "None), so the parameters never move (or move only by momentum/weight decay)."
        ),
        confirm=(
            "Record a parameter before and after one iteration (unchanged), or log the "
            f"call order per iteration; then {fix} and compare the loss curves."
        ),
    )


def _epoch_reset_discards_accumulation(ctx: CheckContext, loop: LoopContext) -> Finding | None:
    """Gradient accumulation (a conditional step) plus an unconditional reset in the loop
    around it: the last partial accumulation of every pass is discarded."""
    steps = [o for o in loop.occurrences if o.kind == "step"]
    if not loop.outer or not steps or not all(o.conditional for o in steps):
        return None
    outer = loop.outer[-1]
    occurrences = ctx.analysis.programs.flatten(outer.items)
    inside = [o for o in occurrences if loop.loop in o.loops]
    if not inside:
        return None
    first_inside = occurrences.index(inside[0])
    last_inside = occurrences.index(inside[-1])
    before = [o for o in occurrences[:first_inside] if o.kind == "zero_grad" and not o.conditional]
    flushed = any(o.kind == "step" for o in occurrences[last_inside + 1 :])
    if not before or flushed:
        return None
    reset_at = spot(ctx, before[-1].event.value)
    step_at = spot(ctx, steps[0].event.value)
    return finding(
        "step_order",
        reset_at,
        confidence="low",
        evidence=[
            observe(step_at, "the step runs only every few batches (gradient accumulation)"),
            observe(reset_at, "while this reset runs unconditionally before every pass"),
        ],
        why=(
            "When the number of batches is not a multiple of the accumulation steps, the "
            "gradients accumulated after the last step of a pass are thrown away by this "
            "reset: part of every epoch's data never updates the model."
        ),
        confirm=(
            "Count backward calls since the last step at the end of an epoch (non-zero "
            f"means lost work); then drop the reset at {reset_at.file}:{reset_at.line} or step "
            "once more after the loop, and compare."
        ),
        title="an extra zero_grad discards the partial gradient accumulation of every epoch",
    )


BATCH_SOURCE = re.compile(r"loader|(^|_)dl($|_)|batches|dataset|(^|_)data($|_)", re.IGNORECASE)
WRAPPERS = frozenset({"enumerate", "tqdm", "iter", "zip", "trange"})


def _draws_batches(ctx: CheckContext, loop: Loop) -> bool:
    """The loop iterates a DataLoader / loader-like source, or slices data by
    `range(start, stop, batch_size)`; not `x.chunk(k)` or `range(accum_steps)`."""
    iterable = loop.value.node.child_by_field_name("right")
    while iterable is not None and iterable.type == "call":
        fn = sx.call_function(iterable)
        name = sx.text(fn).rsplit(".", 1)[-1] if fn is not None else ""
        if name == "range":
            return len(sx.call_args(iterable)[0]) == 3
        if name not in WRAPPERS:
            break
        iterable = sx.argument(iterable, 0)
    if iterable is None:
        return False
    if BATCH_SOURCE.search(sx.flat(iterable).rsplit(".", 1)[-1]):
        return True
    objs = ctx.flow.objects(Value(iterable, loop.value.frame), budget=60)
    return any(o.kind == "external" and is_data_loader(o.resolved) for o in objs)


def _step_outside_loop(ctx: CheckContext) -> Iterator[Finding]:
    """A loop computes gradients (backward) but the optimizer steps only after it ends."""
    a = ctx.analysis
    reported: set[int] = set()
    for region in a.training_regions():
        program = a.program(region)
        occurrences = a.programs.flatten(program)
        for loop, outer in a.programs.iter_loops(program):
            if a.loop_trains(loop):
                continue
            inner = [o for o in occurrences if loop in o.loops]
            if not any(o.kind == "backward" for o in inner):
                continue
            last = occurrences.index(inner[-1])
            # A step still inside a loop around this one is gradient accumulation over
            # micro-batches, unless this loop is the one that draws the batches.
            per_batch = _draws_batches(ctx, loop) or any(o.kind == "zero_grad" for o in inner)
            after = [
                o
                for o in occurrences[last + 1 :]
                if o.kind == "step" and (per_batch or not any(lp in outer for lp in o.loops))
            ]
            if not after or after[0].event.value.node.id in reported:
                continue
            step = after[0]
            reported.add(step.event.value.node.id)
            backward = next(o for o in inner if o.kind == "backward")
            step_at = spot(ctx, step.event.value)
            yield finding(
                "step_not_called",
                step_at,
                confidence="medium",
                evidence=[
                    observe(spot(ctx, loop.value), "this loop computes gradients every iteration"),
                    observe(spot(ctx, backward.event.value), "backward here"),
                    observe(step_at, "but the optimizer steps only once, after the loop"),
                ],
                why=(
                    "One update per pass over the loop instead of one per batch: the "
                    "parameters move len(loader) times less often than intended (and, if "
                    "gradients are reset inside the loop, only the last batch counts)."
                ),
                confirm=(
                    "Count optimizer steps against iterations for one epoch; then move the "
                    f"step at {step_at.file}:{step_at.line} into the loop after the backward "
                    "and compare the loss curves."
                ),
            )
