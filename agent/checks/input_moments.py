"""Training and evaluation inputs compared by their per-feature moments: a transform
applied to one side only (a shift or a scale on every feature, beyond what the number of
rows shows by chance), for all evaluations or one call site."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median
from typing import TYPE_CHECKING

from torch_investigate.agent.checks import places
from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.tools.records import Observation
from torch_investigate.tools.tracefile.trace import Frame, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


def standardized(tm, em) -> tuple[list[float], list[float]]:
    """Per feature: the evaluation mean in training standard deviations from the training
    mean, and the evaluation/training std ratio."""
    signed, rs = [], []
    for mt, st, me, se in zip(tm.mean, tm.std, em.mean, em.std, strict=False):
        if st > 1e-6:
            signed.append((me - mt) / st)
            rs.append((se + 1e-12) / st)
    return signed, rs


MIN_SITE_ROWS = 32  # rows an evaluation call site needs before its moments are compared


def odd_site(t: Trace, alone: bool = False):
    """An evaluation call site whose inputs are transformed unlike the training inputs
    (the final test scoring through its own preprocessing), when the evaluations taken
    together look like training, or (`alone`) when every other evaluation site of the
    model does (an evaluation script run after training, whose rows outweigh the
    validation the training script scored): (train moments, its moments, shifts,
    ratios, site)."""
    found = []
    for model, sites in t.batches.eval_site_moments.items():
        tm = (t.batches.moments.get(model) or {}).get("train")
        if tm is None:
            continue
        like, unlike = [], []
        for site, em in sites.items():
            if em is None or em.n < MIN_SITE_ROWS or len(em.mean) != len(tm.mean):
                continue
            signed, rs = standardized(tm, em)
            if signed and transform_like(signed, rs, tm.n, em.n):
                unlike.append((shift(tm, em), (tm, em, signed, rs, site)))
            else:
                like.append(site)
        if not alone or like:
            found += unlike
    return max(found, key=lambda f: f[0])[1] if found else None


# A transform changes every feature the same way: shifts one way, or a scale change one
# way, on (nearly) every feature. Samples from different groups (a split by patient or
# participant) differ per feature in both directions: that is the task, not a mismatch.
SHIFT, SCALE, AGREE = 0.35, 1.6, 0.8
# One feature this many training std away, whatever the others do, is worth the aligned
# run too: a feature computed another way for evaluation (the ratio where training has its
# log). Rows drawn alike never get there; a feature that drifts (a date) may, and aligning
# it then does not help, which is the aligned run's to tell.
FAR_SHIFT = 3.0


# A difference counts when it is this many standard errors beyond what drawing this many
# rows shows by chance (a test set of three sequences differs from the training set).
CHANCE_SE = 3.0


def chance_bounds(n_train: int, n_eval: int, ratio: float) -> tuple[float, float]:
    """The mean shift (in training std) and the factor on the std that `n_eval` evaluation
    rows drawn like `n_train` training rows reach by chance, at CHANCE_SE standard errors.
    Rows are counted per batch drawn, so a set evaluated twice counts twice: the bounds
    are, if anything, too narrow."""
    ne, nt = max(n_eval, 2), max(n_train, 2)
    shift = CHANCE_SE * math.sqrt(ratio**2 / ne + 1 / nt)
    spread = math.exp(CHANCE_SE * math.sqrt(1 / (2 * (ne - 1)) + 1 / (2 * (nt - 1))))
    return shift, spread


def transform_like(signed: list[float], rs: list[float], n_train: int, n_eval: int) -> str | None:
    n = len(signed)
    z = median(abs(v) for v in signed)
    r = median(rs)
    shift_by_chance, spread_by_chance = chance_bounds(n_train, n_eval, r)
    far = max(range(n), key=lambda j: abs(signed[j]))
    if abs(signed[far]) > max(FAR_SHIFT, chance_bounds(n_train, n_eval, rs[far])[0]):
        # one feature computed another way (a ratio where training has its log)
        return f"feature {far} alone sits {fmt(abs(signed[far]))} training std away"
    if z <= shift_by_chance and max(r, 1 / r) <= spread_by_chance:
        return None  # what drawing so few rows shows
    one_way = max(sum(v > 0.1 for v in signed), sum(v < -0.1 for v in signed)) / n
    scaled = max(sum(x > 1.25 for x in rs), sum(x < 0.8 for x in rs)) / n
    if (r > SCALE or r < 1 / SCALE) and scaled >= AGREE:
        return f"every feature's spread changes the same way (std ratio eval/train median {fmt(r)})"
    if z > SHIFT and one_way >= AGREE and (n >= 3 or z > 2):
        return f"{fmt(100 * one_way)}% of the features shift the same way (median {fmt(z)} training std)"
    return None


def compare_moments(
    session: Session, ev: Evidence, t: Trace, tm, em, signed, rs, site: str | None = None
) -> None:
    z, r = median(abs(v) for v in signed), median(rs)
    inputs = f"the evaluation inputs at {site}" if site else "evaluation inputs"
    text = (
        f"per-feature mean shift between training and {inputs}: median {fmt(z)} training std; "
        f"std ratio eval/train: median {fmt(r)} ({len(signed)} features; {tm.n} training and {em.n} evaluation rows, counted per batch drawn)"
    )
    pattern = transform_like(signed, rs, tm.n, em.n)
    shift_by_chance, _ = chance_bounds(tm.n, em.n, r)
    if pattern is None and z > SHIFT and z <= shift_by_chance:
        text += (
            f"; within what {em.n} evaluation rows show by chance (up to {fmt(shift_by_chance)} "
            "training std), so no transform is seen"
        )
        ev.item("train_eval_inputs", "passed", text)
        return
    if pattern is None:
        if z > SHIFT or r > SCALE or r < 1 / SCALE:
            text += (
                "; the features differ in both directions, as samples from other groups do "
                "(a grouped split), not as a different transform"
            )
        ev.item("train_eval_inputs", "passed", text)
        return
    # one call site unlike both training and the other evaluations (a final scoring through
    # its own scaling) is a transform of that site; all evaluations unlike training may be
    # the data drifting (a later window), which only what aligning them changes tells apart
    aligned = aligned_evaluation(session) if site is None else None
    if aligned is not None and not aligned.helps:
        ev.item("train_eval_inputs", "passed", f"{text}: {pattern}; {aligned.text}")
        return
    confirmed = site is not None or aligned is not None
    ev.find(
        "preprocessing_mismatch",
        status="confirmed" if confirmed else "plausible",
        confidence=("high" if (z > 2 or r > 5 or r < 0.2) else "medium") if confirmed else "low",
        evidence=[runtime(f"{text}: {pattern}", None, session, median_shift=z, median_std_ratio=r,
                          train_mean=tm.mean[:8], eval_mean=em.mean[:8], train_std=tm.std[:8], eval_std=em.std[:8]),
                  *([aligned.observation] if aligned is not None else [] if site else [runtime(
                      "no evaluation loss, accuracy or error the program computes in torch was recorded to test the inputs "
                      "moved to the training moments against: data that drifts (a later time "
                      "window, other groups) differs the same way", None, session)])],
        where=places.input_origin(session, frame_of(site) if site else eval_frame(t), transformed=True)
        or first_static_location(session, "preprocessing_mismatch")
        or (where(session, frame_of(site)) if site else where(session, eval_frame(t))),
        why="the model is evaluated on inputs transformed differently from those it learned on, so evaluation numbers are wrong even when training works",
        confirm="print per-feature mean/std of one training batch and one evaluation batch; apply the same transform to both",
    )  # fmt: skip
    if confirmed:
        detail = f"; {aligned.text}" if aligned is not None else ""
        ev.item("train_eval_inputs", "failed", f"{text}: {pattern}{detail}")
    else:
        ev.item(
            "train_eval_inputs", "not_applicable",
            f"{text}: {pattern}; no evaluation loss, accuracy or error computed in torch to test a transform against",
            untested=True,
        )  # fmt: skip


# Moving the evaluation inputs to the training moments must lower the evaluation loss by
# this share for a transform to be what differs. Training is the same run in both (only
# evaluation inputs change), so no reseeded band is needed.
ALIGN_HELPS = 0.1


@dataclass
class Aligned:
    helps: bool
    text: str
    observation: Observation


def aligned_evaluation(
    session: Session,
    change: str = "align_eval_inputs",
    words: str = "the evaluation inputs moved to the training inputs' per-feature mean and std",
) -> Aligned | None:
    """Rerun with every evaluation forward's inputs moved, per feature, to the training
    inputs' mean and std, and compare the program's own evaluation loss (or, when it
    computes none, its evaluation accuracy) at its last evaluation. A transform applied to
    one side is undone by that, and the loss (the error rate) falls; data that drifted (a
    later window, another group) loses what the shift told. None when the run records
    neither."""
    base_trace = session.baseline().trace
    if base_trace is None or not (
        base_trace.eval_losses
        or base_trace.eval_matches
        or base_trace.eval_errors
        or base_trace.shadow_eval
        or base_trace.metric_distance_curve()
    ):
        return None
    # as long as the run as written: an early evaluation can be poor for any inputs (a
    # BatchNorm's running statistics still settling), so the comparison that counts is
    # at the last evaluation the program made, when training had shaped the model
    run = session.runner.get({change: True}, steps=base_trace.n_steps or None)
    found = last_evaluations(base_trace, run.trace if run else None)
    if found is None:
        return None
    what, base, moved = found
    helps = moved < base * (1 - ALIGN_HELPS) if base > 0 else moved < base
    text = (
        f"with {words}, "
        f"the program's {what} at its last evaluation is {fmt(moved)} instead of "
        f"{fmt(base)} as written"
        + ("" if helps else ": the shift is in the data, not a transform of one side")
    )
    obs = Observation(
        source="intervention", text=text,
        values={"eval_as_written": base, "eval_aligned": moved, "measure": what,
                "interventions": {change: True}},
    )  # fmt: skip
    return Aligned(helps=helps, text=text, observation=obs)


def last_evaluations(a: Trace | None, b: Trace | None) -> tuple[str, float, float] | None:
    """(what, a's value, b's value) at the last evaluation pass both runs made, lower
    better: the program's own evaluation loss, else its error rate, else its mean absolute
    error, else the investigator's training loss on its evaluation batches."""
    readings = (
        ("evaluation loss", lambda t: t.eval_curve()),
        ("evaluation error rate (1 - the accuracy its own comparisons count)", _error_curve),
        (
            "mean absolute evaluation error (its own prediction - target differences)",
            lambda t: t.eval_error_curve(),
        ),
        (
            "training loss on its evaluation batches (computed by the investigator)",
            lambda t: t.shadow_eval_curve(),
        ),
    )
    for what, curve in readings:
        pair = _last_shared(a, b, curve)
        if pair is not None:
            return what, pair[0], pair[1]
    return _worst_metric_site(a, b)


def _worst_metric_site(a: Trace | None, b: Trace | None) -> tuple[str, float, float] | None:
    """The program's own metric helper, probed, at the call site scoring worst in either
    run at the last evaluation both made: a program that scores its training rows every
    epoch and its held-out rows once has its held-out evaluation there, whichever helper
    call ran first."""
    what = "metric's distance from what a perfect prediction scores (its own helper, probed)"
    sites = [set(t.metric_distance_curves()) if t else set() for t in (a, b)]
    pairs = [
        pair
        for key in sorted(sites[0] & sites[1])
        if (pair := _last_shared(a, b, lambda t, k=key: t.metric_distance_curves()[k]))
    ]
    if not pairs:
        return None
    base, moved = max(pairs, key=lambda p: max(p))
    return what, base, moved


def _error_curve(t: Trace) -> list[tuple[int, float]]:
    return [(step, 1.0 - acc) for step, acc in t.eval_accuracy_curve()]


def _last_shared(a: Trace | None, b: Trace | None, curve) -> tuple[float, float] | None:
    """Each run's value at the last evaluation pass both made."""
    curves = [{step: v for step, v in (curve(t) if t else []) if math.isfinite(v)} for t in (a, b)]
    shared = set(curves[0]) & set(curves[1])
    if not shared:
        return None
    last = max(shared)
    return curves[0][last], curves[1][last]


def shift(tm, em) -> float:
    """How far evaluation inputs sit from training inputs, in training standard deviations."""
    zs = [
        abs(me - mt) / st for mt, st, me in zip(tm.mean, tm.std, em.mean, strict=False) if st > 1e-6
    ]
    rs = [
        abs(math.log((se + 1e-12) / st))
        for st, se in zip(tm.std, em.std, strict=False)
        if st > 1e-6
    ]
    return median(zs) + median(rs) if zs and rs else 0.0


def frame_of(site: str) -> Frame | None:
    file, _, line = site.rpartition(":")
    return Frame(file=file, line=int(line)) if file and line.isdigit() else None


def eval_frame(t: Trace) -> Frame | None:
    fws = t.eval_forwards()
    return fws[0].frame if fws else None
