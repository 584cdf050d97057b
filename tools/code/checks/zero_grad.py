"""A training loop whose gradients are never reset between steps.

`backward()` adds into `.grad`; without `zero_grad()` (or `set_to_none`, `p.grad =
None`, `p.grad.zero_()`) reaching every iteration, each step applies the sum of all
gradients so far. A reset inside a helper the loop calls counts, and so does a
periodic reset under a condition (gradient accumulation).
"""

from __future__ import annotations

from collections.abc import Iterator

from torch_investigate.tools.code.analysis import LoopContext
from torch_investigate.tools.code.checks.base import CheckContext, check, finding, observe, spot
from torch_investigate.tools.records import Finding

NAME = "missing_zero_grad"


@check(NAME, "missing_zero_grad")
def missing_zero_grad(ctx: CheckContext) -> Iterator[Finding]:
    """backward + step in a loop with no gradient reset reaching it."""
    for loop in ctx.analysis.training_loops:
        if loop.loop is None or "zero_grad" in loop.kinds():
            continue
        yield _finding(ctx, loop)


def _finding(ctx: CheckContext, loop: LoopContext) -> Finding:
    backward = next(o for o in loop.occurrences if o.kind == "backward")
    step = next(o for o in loop.occurrences if o.kind == "step")
    assert loop.loop is not None
    outside = _resets_outside(ctx, loop)
    at = spot(ctx, backward.event.value)
    evidence = [
        observe(spot(ctx, loop.loop.value), "the training loop"),
        observe(at, "gradients are computed here every iteration"),
        observe(spot(ctx, step.event.value), "and applied here"),
    ]
    if outside:
        first = spot(ctx, outside[0])
        evidence.append(observe(first, "the only gradient reset runs outside this loop"))
        note = f"the only reset ({first.file}:{first.line}) runs outside the loop"
    else:
        note = "nothing in the loop, or in the helpers it calls, resets them"
    return finding(
        "missing_zero_grad",
        at,
        confidence="medium" if outside else "high",
        evidence=evidence,
        why=(
            f"backward() adds into .grad and {note}: every step applies the sum of all "
            "earlier gradients, so the effective step grows with the iteration count and "
            "the loss oscillates or diverges instead of falling."
        ),
        confirm=(
            f"Print one parameter's .grad norm before {at.file}:{at.line} on two consecutive "
            "iterations (it keeps growing); then call optimizer.zero_grad() at the top of "
            "the loop body and compare the loss curves."
        ),
    )


def _resets_outside(ctx: CheckContext, loop: LoopContext) -> list:
    """Gradient resets in the same function but outside the loop (e.g. once per epoch)."""
    program = ctx.analysis.program(loop.region)
    return [
        o.event.value
        for o in ctx.analysis.programs.flatten(program)
        if o.kind == "zero_grad" and loop.loop not in o.loops
    ]
