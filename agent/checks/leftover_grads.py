"""Stage 6, gradients left over between steps: which of them an update applies, and the
backward that fills them (agent/checks/optimizer.py's gradient_reset)."""

from __future__ import annotations

from torch_investigate.tools.tracefile.trace import Frame, Trace


def left_to_step(t: Trace, b) -> list[str]:
    """The gradients left over at backward `b` that reach an update: those of the
    optimizers that step before the next backward. With two optimizers taking turns (a GAN), the generator's
    backward also fills the discriminator's .grad; that sum is reset before the
    discriminator's own step, so it never reaches an update."""
    opts = t.step_optimizers
    if not opts or b.step >= len(opts):
        return list(b.left_over)  # a hand-written update applies whatever .grad holds
    # every optimizer that steps before the next backward applies what this one leaves;
    # a tensor no optimizer holds (a layer made anew by an earlier forward) is never applied
    later = [x.step for x in t.backwards if x.index > b.index and x.step > b.step]
    stepping = set(opts[b.step : min(later, default=b.step + 1)])
    # two models of one class name their parameters alike: a name counts only when every
    # parameter so named belongs to an optimizer that steps
    owners: dict[str, set] = {}
    for p in t.parameters:
        owners.setdefault(p.name, set()).add(p.optimizer)
    return [n for n in b.left_over if owners.get(n) and owners[n] <= stepping]


def accumulating_backward(t: Trace, leftover: list) -> Frame | None:
    """The backward that fills the gradients left over: of several losses in one iteration
    (a gate and a regressor, each with its optimizer), the one whose graph reaches the
    parameters whose sums grow, the largest part of what it reaches."""
    names = {n for b in leftover for n in left_to_step(t, b)}
    share: dict[str, list[float]] = {}  # per backward site: the part of its reach that grows
    for b in t.backwards:
        if b.frame is not None and b.reachable and names & set(b.reachable):
            share.setdefault(str(b.frame), []).append(
                len(names & set(b.reachable)) / len(b.reachable)
            )
    if not share:
        return t.event_frames.get("backward")
    # a generator's loss reaches the discriminator too: the most specific site wins
    site = max(share, key=lambda s: (sum(share[s]) / len(share[s]), len(share[s])))
    return next(b.frame for b in t.backwards if str(b.frame) == site)


def rare_reset(t: Trace, leftover: list) -> Frame | None:
    """The zero_grad() that ran, but at fewer iterations than the updates (under a logging
    condition, once before the loop): where the sums are left to grow. None when no reset
    ran, or when one ran since the last step at the iterations that accumulate (another
    optimizer's: the reset that is missing is not this one)."""
    resets, steps = t.counts.get("zero_grad", 0), t.counts.get("step", 0)
    if not resets or resets >= steps or any(b.zero_grad_since_last_step for b in leftover):
        return None
    return t.event_frames.get("zero_grad")
