"""Stage 2, pairing: do targets still belong to their inputs?"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.common import (
    baseline_trace,
    curve_stats,
    first_static_location,
    fmt,
    loader_location,
    numerically_dead,
)
from torch_investigate.tools.records import Observation, Stage
from torch_investigate.tools.trace_models import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.session import Session


def _pairing_confound(ev: Evidence, t: Trace) -> str | None:
    """What else would make real and shuffled pairs fit alike (checked before trusting the test)."""
    cb = ev.items.get("class_balance")
    if cb and cb[0] == "failed":
        return "each training batch holds a single class"
    probe = t.probes.get("forward")
    if probe is not None and probe.status == "ok" and probe.independent is False:
        return "the forward mixes samples (stage 3)"
    if (
        probe is not None
        and probe.status == "ok"
        and (probe.ignores_input or (probe.inputs_differ and probe.rows_identical))
    ):
        if numerically_dead(t) is None:
            return "the forward ignores its input (stage 3)"
    if any(p.graph.walks and not p.graph.reachable and p.requires_grad for p in t.parameters):
        return "part of the model receives no gradient (stage 5)"
    if (
        any(not f.training for f in t.train_forwards() if f.grad_enabled)
        and t.models
        and (t.models[0].has_batchnorm or t.models[0].has_dropout)
    ):
        return "training runs in eval mode (stage 7)"
    return None


@check(Stage.DATA)
def pairing(session: Session, ev: Evidence) -> None:
    """Do targets still belong to their inputs? Training that learns says yes; otherwise a
    permutation test on a fixed batch: real pairs must generalize to an unseen batch better
    than deliberately shuffled pairs."""
    t = baseline_trace(session) if not session.options.static_only else None
    if t is None or not t.ran_training:
        return
    stats = curve_stats(t.raw_curve())
    chance = session.chance
    # Misaligned pairs leave nothing to learn from the full data: the training loss stays
    # at its start (or at chance). Any real progress says the pairs carry information; the
    # permutation test below runs only otherwise, since a broken update path (stages 5-6)
    # would confound it.
    if stats and (stats.rel_drop > 0.1 or (chance is not None and stats.last < 0.9 * chance)):
        ev.item(
            "pairing",
            "passed",
            f"training loss fell {fmt(100 * stats.settled_drop)}% (first {fmt(stats.first_recorded)}, settled {fmt(stats.settled)}): the features carry information about their targets",
        )
        return
    blocker = _pairing_confound(ev, t)
    if blocker:
        ev.item(
            "pairing",
            "skipped",
            f"the permutation test would be confounded: {blocker}; pairing is tested once that is fixed",
        )
        return
    if not t.train_loss_calls():
        ev.item(
            "pairing",
            "skipped",
            "no recognised loss call: the permutation test needs to evaluate the loss on an unseen batch",
        )
        return
    loader = t.train_loader()
    site = loader.site if loader else None
    real, shuffled = session.runner.many(
        [
            {"fixed_batch": True, "holdout": True},
            {"fixed_batch": True, "holdout": True, "shuffle_targets": True},
        ],
        train_loader=site,
    )
    if real.trace is None or shuffled.trace is None:
        ev.item("pairing", "skipped", "the fixed-batch runs did not produce a trace")
        return
    fit = curve_stats(real.trace.raw_curve())
    hr, hs = real.trace.holdout_losses, shuffled.trace.holdout_losses
    hr = [v for v in hr if v is not None and math.isfinite(v)]
    hs = [v for v in hs if v is not None and math.isfinite(v)]
    if fit is None or len(hr) < 5 or len(hs) < 5:
        ev.item(
            "pairing",
            "skipped",
            "the held-out loss could not be computed during the fixed-batch runs",
        )
        return
    if fit.rel_drop < 0.3:
        ev.item(
            "pairing",
            "not_applicable",
            f"the model does not fit even one fixed batch (first loss {fmt(fit.first_recorded)}, settled {fmt(fit.settled)}): the permutation test needs a model that can fit; stage 8 examines the fit (learning rate, initialization, capacity)",
        )
        return
    gain_real = (hr[0] - min(hr[len(hr) // 2 :])) / (abs(hr[0]) + 1e-12)
    gain_shuf = (hs[0] - min(hs[len(hs) // 2 :])) / (abs(hs[0]) + 1e-12)
    text = (
        f"fitting one fixed batch takes its loss from {fmt(fit.first_recorded)} to a settled {fmt(fit.settled)}; on an unseen batch the loss improves "
        f"{fmt(100 * gain_real)}% with the real pairs and {fmt(100 * gain_shuf)}% with deliberately shuffled pairs"
    )
    if gain_real <= max(0.03, gain_shuf + 0.03):
        ev.find(
            "label_misaligned",
            status="confirmed",
            confidence="medium",
            evidence=[
                Observation(
                    source="intervention",
                    text=text,
                    values={"heldout_gain_real": gain_real, "heldout_gain_shuffled": gain_shuf},
                )
            ],
            where=first_static_location(session, "label_misaligned") or loader_location(session, t),
            why="when targets no longer belong to their inputs the model can only memorize; nothing it learns transfers to new samples",
            confirm="print a few (input, target) pairs next to their source records; check both are indexed by the same permutation",
        )
        ev.item("pairing", "failed", text)
    else:
        ev.item("pairing", "passed", text)
