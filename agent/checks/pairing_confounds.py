"""Stage 2, pairing: what else would make real and shuffled pairs transfer alike (a
forward that mixes or ignores its samples, a loss that no longer pairs a prediction with
its own target, targets that are one value in every call), so the permutation test
waits for it or does not apply."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks import hand_mask
from torch_investigate.agent.checks.baseline import (
    cut_parameters,
    numerically_dead,
    small_batchnorm,
)
from torch_investigate.agent.checks.loss_operands import (
    cross_broadcast_losses,
    one_value_masks,
    swapped,
    target_of,
)
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


def confound(session: Session, t: Trace) -> str | None:
    """What else would make real and shuffled pairs transfer alike."""
    streams = [[h for h in stream if h] for stream in t.batches.target_streams()]
    hists = max(streams, key=len, default=[])
    if len(hists) >= 4 and sum(1 for h in hists if len(h) == 1) >= 0.75 * len(hists):
        return "the training batches hold a single class each (the pool would too)"
    probe = t.probes.get("forward")
    if probe is not None and probe.status == "ok" and probe.independent is False:
        return "the forward mixes samples (stage 3)"
    if (
        probe is not None
        and probe.status == "ok"
        and (probe.ignores_input or (probe.inputs_differ and probe.rows_identical))
        and numerically_dead(t) is None
    ):
        return "the forward ignores its input (stage 3)"
    if any(swapped(c) for c in t.train_loss_calls()):
        return "the loss receives the target where the prediction belongs (stage 4)"
    if cross_broadcast_losses(t) or any(b.broadcast_in_graph for b in t.backwards):
        # the loss no longer pairs a prediction with its own target: shuffling cannot change it
        return "the loss compares every prediction with every target (stage 3)"
    if cut_parameters(t):
        return "part of the model receives no gradient (stage 5)"
    laid = [o for o in t.ops if o.kind == "permuting_reshape" and o.phases.get("data")]
    if laid:
        # every sample's values read along other axes: the inputs no longer show what
        # their targets depend on, whatever the pairs are
        return f"the data is reshaped into another axis order at {laid[0].frame} before training (stage 3)"
    if any(c.count >= 2 for c in t.created_in_forward):
        return "layers are created anew in every forward (stage 5)"
    masked = one_value_masks(t.train_loss_calls())
    if masked:
        # the loss sees one target value only: a fit of the real pairs learns that value
        return f"the loss at {masked[0].frame} is masked to elements of one target value (stage 4)"
    if hand_mask.one_value_masks(t):
        return "the loss written by hand is masked to elements of one target value (stage 4)"
    constant = _constant_targets(t)
    if constant:
        return (
            f"the targets reaching the loss at {constant[0]} are one value in every call (stage 2)"
        )
    if small_batchnorm(t):
        # what is fitted with such statistics does not carry over to evaluation mode
        return "BatchNorm normalizes training batches of one or two samples (stage 7)"
    return None


def _constant_targets(t: Trace) -> list[str]:
    """The training loss sites whose targets hold one and the same value in all of their
    (three or more) calls: shuffling them changes nothing, whatever the pairs are."""
    by_site: dict[str, list] = {}
    for c in t.train_loss_calls():
        if c.frame is not None:
            by_site.setdefault(f"{c.frame.file}:{c.frame.line}", []).append(c)
    out = []
    for site, calls in by_site.items():
        seen = {k for c in calls for k in (target_of(c).values or {})}
        masked = any(c.mask for c in calls)
        if (
            len(calls) >= 3
            and len(seen) == 1
            and not masked
            and all(target_of(c).values for c in calls)
        ):
            out.append(site)
    return out


def no_own_targets(t: Trace) -> bool:
    """Every training loss call (three or more) gets one value as the target of all its
    samples (a GAN's real and fake labels): shuffling targets within a batch changes
    nothing, and no sample has a target of its own to be mispaired with."""
    calls = t.train_loss_calls()
    return len(calls) >= 3 and all(
        not c.mask and len(target_of(c).values or {}) == 1 for c in calls
    )
