"""Stage 2, pairing: do targets still belong to their inputs?

A permutation control that does not depend on the program's hyperparameters: the first
few training batches are fitted with a reference optimizer (Adam at a few small step
sizes, in place of the program's update) once with the real targets and once with the
targets deliberately shuffled, and the loss is measured on an unseen batch after every
update. Real pairs must transfer to the unseen batch better than shuffled ones:
memorizing is not learning. A training loss that falls proves nothing (it falls on
shuffled pairs too); an evaluation loss that falls over the run does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from torch_investigate.agent.checks import places
from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.baseline import (
    baseline_trace,
    first_train_input,
    raw_scale,
)
from torch_investigate.agent.checks.eval_transfer import evaluation_untransferred
from torch_investigate.agent.checks.levels import marginal_level, per_element
from torch_investigate.agent.checks.locations import first_static_location, loader_location
from torch_investigate.agent.checks.numbers import change, fmt
from torch_investigate.agent.checks.pairing_confounds import confound, no_own_targets
from torch_investigate.agent.checks.pairing_fresh import (
    EVAL_LEARNS,
    Fresh,
    OwnAccuracy,
    evaluation_learns,
    evaluation_stays,
    fresh_batches,
    own_accuracy,
)
from torch_investigate.agent.checks.pairing_order import reordered, rows_moved, skipped
from torch_investigate.tools.records import Observation, Stage
from torch_investigate.tools.taxonomy import taxonomy
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.runs import Run, Runner
    from torch_investigate.agent.core.session import Session

REFERENCE_LRS = (1e-3, 1e-2)
POOL = 8  # training batches fitted; the next one is the unseen batch
# An unseen batch's loss must improve by this much more with real pairs than with
# shuffled ones (relative to its first value) for the pairs to count as carrying signal.
MARGIN = 0.03
MIN_STEPS = 40  # fewer reference steps cannot show misaligned pairs
# Misaligned pairs are memorized but do not transfer; a model that cannot even lower the
# pool's training loss this much says nothing about the pairs.
FITS = 0.1
# Memorized, when the loss has no known marginal level: the pool's training loss ends
# below this fraction of the best unseen-batch loss. A fit that stops short of it has
# learned only what every sample shares (the mean of the targets, the class
# frequencies), which shuffled pairs carry as well.
MEMORIZED = 0.5


@dataclass
class Transfer:
    lr: float
    fit: float  # relative fall of the training loss on the pool
    gain: float  # relative fall of the unseen batch's loss (best of the second half)
    first: float
    best: float
    steps: int
    last_train: float  # the pool's training loss at the end of the fit
    noise: float  # spread of the unseen batch's loss over the second half, relative
    early: float  # relative fall of the unseen batch's loss to its lowest point anywhere
    lowest: float


def _transfer(run: Run, lr: float) -> Transfer | None:
    t = run.trace
    if t is None:
        return None
    curve = [v for v in t.raw_curve() if v is not None and math.isfinite(v)]
    held = [v for v in t.holdout_losses if v is not None and math.isfinite(v)]
    if len(curve) < 10 or len(held) < 10:
        return None
    k = max(1, len(curve) // 10)
    fit = (sum(curve[:k]) / k - sum(curve[-k:]) / k) / (abs(curve[0]) + 1e-12)
    best = min(held[len(held) // 2 :])
    gain = (held[0] - best) / (abs(held[0]) + 1e-12)
    late = held[len(held) // 2 :]
    mean = sum(late) / len(late)
    spread = math.sqrt(sum((v - mean) ** 2 for v in late) / len(late)) / (abs(held[0]) + 1e-12)
    low = min(held)
    early = (held[0] - low) / (abs(held[0]) + 1e-12)
    return Transfer(
        lr, fit, gain, held[0], best, len(curve), sum(curve[-k:]) / k, spread, early, low
    )


def _transfers(real: Transfer, shuffled: Transfer, floor: float | None) -> bool:
    """Real pairs fit the pool and carry to the unseen batch beyond what shuffled ones do,
    by more than the unseen loss wanders on its own, and (when the loss has a known
    marginal level, `floor`, in the curve's units) below what the targets' distribution
    alone allows."""
    margin = max(MARGIN, 2 * (real.noise + shuffled.noise))
    below = floor is None or real.best <= floor * (1 - EVAL_LEARNS)
    return real.fit >= FITS and real.gain > shuffled.gain + margin and below


def _no_difference(real: Transfer, shuffled: Transfer) -> float:
    """The largest gap in transfer that counts as none: small in itself (MARGIN) and within
    what the unseen loss wanders by. A fit that overfits its pool swings widely; its
    wandering would excuse any gap, so it cannot show "no better"."""
    return min(2 * (real.noise + shuffled.noise), MARGIN)


def no_better(real: Transfer, shuffled: Transfer) -> bool:
    """Real pairs transfer no better than shuffled ones (see _no_difference)."""
    return real.gain <= shuffled.gain + _no_difference(real, shuffled)


def _floor(t: Trace) -> float | None:
    """The training loss's marginal level in the units its values are recorded in."""
    calls = t.train_loss_calls()
    level = marginal_level(calls) if calls else None
    scale = per_element(calls[0]) if calls else None
    return level * scale if level and scale else None


@check(Stage.DATA)
def pairing(session: Session, ev: Evidence) -> None:
    t = baseline_trace(session) if not session.options.static_only else None
    if t is None or not t.ran_training:
        return
    _pairing(session, ev, t)


def _pairing(session: Session, ev: Evidence, t: Trace) -> None:
    if reordered(session, ev, t):
        return
    made = t.target_is_input
    if made.compared and made.reconstructed >= 0.9 * made.compared:
        ev.item(
            "pairing",
            "not_applicable",
            f"at {made.reconstructed} of {made.compared} training loss calls the target is the "
            "model's own input (it reconstructs it, as an autoencoder does): there are no "
            "input/target pairs to misalign",
        )
        return
    if made.compared and made.shifted >= 0.9 * made.compared:
        ev.item(
            "pairing",
            "passed",
            f"at {made.shifted} of {made.compared} training loss calls the targets are the "
            "model's input shifted by one position (the next token): each target belongs to "
            "its input by construction",
        )
        return
    if skipped(session, ev, t) or rows_moved(session, ev, t):
        return
    learns = evaluation_learns(t)
    if learns:
        ev.item("pairing", "passed", learns)
        return
    fresh = fresh_batches(t)
    if fresh is not None and fresh.learns:
        ev.item(
            "pairing", "passed", f"{fresh.text()}: the inputs carry information about their targets"
        )
        evaluation_untransferred(session, ev, t, fresh.text())
        return
    if no_own_targets(t):
        sites = sorted({str(c.frame) for c in t.train_loss_calls() if c.frame is not None})
        ev.item(
            "pairing",
            "not_applicable",
            f"every training loss call gets one value as the target of all its samples "
            f"({', '.join(sites)}): no sample has a target of its own, so there is no pairing "
            "to get wrong",
        )
        return
    blocker = confound(session, t)
    if blocker:
        ev.item(
            "pairing",
            "skipped",
            f"the permutation test would be confounded: {blocker}; pairing is tested once that is fixed",
        )
        return
    if not t.train_loss_calls() and not t.difference_sites:
        ev.item(
            "pairing",
            "skipped",
            "no recognised loss call: the permutation test needs the loss on an unseen batch",
        )
        return
    if not t.optimizers and not t.counts.get("hand_update"):
        ev.item("pairing", "skipped", "no update of the parameters was recorded")
        return
    _permutation_test(session, ev, t, fresh)


def _beyond_shared(t: Trace, real: Transfer) -> str | None:
    """Why the reference fit of the pool did not get past what every sample shares (the
    targets' distribution), or None when it did: the pool's training loss must end below
    the level that distribution alone allows (else well below the unseen batch's)."""
    calls = t.train_loss_calls()
    level = marginal_level(calls) if calls else None
    scale = per_element(calls[0]) if calls else None
    if level and scale:
        end = real.last_train / scale
        if end > level * (1 - EVAL_LEARNS):
            return (
                f"the pool's training loss ends at {fmt(end)} per element, not "
                f"{fmt(100 * EVAL_LEARNS)}% below the {fmt(level)} that the targets' "
                "distribution alone allows"
            )
        return None
    if real.last_train > MEMORIZED * real.best:
        return (
            f"the pool's training loss ends at {fmt(real.last_train)}, not well below the "
            f"unseen batch's {fmt(real.best)}"
        )
    return None


def full_batch(t: Trace) -> int | None:
    """The rows of every step when each step trains on all of them (no unseen batch)."""
    fws = t.train_forwards()
    rows = fws[0].inputs[0].shape[0] if fws and fws[0].inputs and fws[0].inputs[0].shape else 0
    return rows if rows and t.batches.train_unique and t.batches.train_unique <= rows else None


def reference_spec(t: Trace) -> tuple[dict, str | None]:
    """The reference fits' interventions (a pool of the first training batches, an unseen
    batch after it), and the training loader they replay."""
    loader = t.train_loader()
    site = loader.site if loader else None
    # the pool and the unseen batch must come from one pass over the data
    per_epoch = (
        math.ceil(loader.dataset_len / loader.batch_size)
        if loader is not None and loader.dataset_len and loader.batch_size
        else None
    )
    pool = max(1, min(POOL, per_epoch // 2)) if per_epoch else POOL
    base: dict = {"fixed_batch": True, "holdout": True, "fixed_pool": pool}
    scale = raw_scale(first_train_input(t))
    if scale is not None and t.input_normalizer is None:
        # the reference fit does not depend on how the program scales its inputs either
        base["standardize_inputs"] = True
    return base, site


def _permutation_test(session: Session, ev: Evidence, t: Trace, fresh: Fresh | None) -> None:
    rows = full_batch(t)
    if rows:
        ev.item(
            "pairing",
            "not_applicable",
            f"every step trains on the same {rows} rows (full-batch training): there is no unseen batch to test transfer on",
        )
        return
    base, site = reference_spec(t)
    pool, scale = base["fixed_pool"], base.get("standardize_inputs", False)
    pairs, floor = _fit_pairs(session, t, base, site)
    if not pairs:
        ev.item("pairing", "skipped", "the reference fits produced no loss on an unseen batch")
        return
    real, shuffled = _chosen(pairs, floor)
    stand_in, stood_in = "", False
    if real.fit < FITS:
        # the program's model cannot fit the pool: a wide network of the same inputs asks
        # the pairs instead (tools/trace/interventions/reference_model.py)
        wide, wide_floor = _fit_pairs(session, t, base, site, {"reference_model": True})
        if wide and _chosen(wide, wide_floor)[0] == real:
            wide = []  # the same numbers: the stand-in never reached the loss
        if wide and _chosen(wide, wide_floor)[0].fit < FITS:
            w_real, w_shuffled = _chosen(wide, wide_floor)
            stand_in = (
                f"; a wide network of the same inputs in the model's place fits no better "
                f"(training loss {change(w_real.fit, 'falls', 'rises')} with real pairs, "
                f"{change(w_shuffled.fit, 'falls', 'rises')} with shuffled ones)"
            )
        elif wide:
            stand_in = (
                f"; the program's model cannot fit that pool (its training loss "
                f"{change(real.fit, 'falls', 'rises')}), so a wide network of the same inputs "
                "stands in for it"
            )
            pairs, floor, stood_in = wide, wide_floor, True
            real, shuffled = _chosen(pairs, floor)
    by_hand = (
        ""
        if t.train_loss_calls()
        else f" (the loss is written by hand at {t.difference_sites[0]}: the unseen batch is scored by the squared difference)"
    )
    text = (
        f"fitting the first {pool} training batches with Adam (lr {real.lr:g}, in place of the "
        f"program's update{', inputs standardized per feature' if scale else ''}){by_hand}: on an unseen batch the loss {change(real.gain)} with the "
        f"real pairs ({fmt(real.first)} -> {fmt(real.best)}) and {change(shuffled.gain)} with "
        f"deliberately shuffled pairs; the training loss {change(real.fit, 'falls', 'rises')} "
        f"and {change(shuffled.fit, 'falls', 'rises')} respectively{stand_in}"
    )
    if _transfers(real, shuffled, floor):
        ev.item("pairing", "passed", text)
        if floor is not None:  # the program's training must beat the best constant
            evaluation_untransferred(session, ev, t, text, floor)
        return
    if real.fit < FITS:
        # real and shuffled pairs cannot differ when nothing is learned; whatever stops the
        # model from fitting, the later stages (and stage 8: initialization, capacity) say
        ev.facts.pairs_unfit = text
        ev.item(
            "pairing",
            "not_applicable",
            f"{text}; the reference optimizer cannot fit even the pool of training batches: "
            "the pairs cannot be tested until the model can fit (the later stages examine why)",
        )
        return
    own = own_accuracy(t)
    beyond = _beyond_shared(t, real)
    if beyond is not None:
        _untested_or_own(
            ev,
            own,
            f"{text}; {beyond}: the reference fit learned only what all samples share, which "
            "shuffled pairs carry too, so the pairs cannot be told apart yet",
        )
        return
    steps = min(real.steps, shuffled.steps)
    if steps < MIN_STEPS:
        ev.item(
            "pairing",
            "skipped",
            f"{text}; the program trains only {steps} steps, too few to tell real pairs from shuffled ones",
        )
        return
    # Real pairs no better than shuffled ones on eight batches is also what a task that
    # needs more data than that looks like. A defect needs the run's own held-out reading
    # to agree (its fresh batches, else its own evaluation accuracy: the model never
    # predicts unseen samples better than the targets' distribution allows), and the real
    # pairs to be no better than shuffled ones beyond the unseen loss's noise; anything
    # between is untested, not failed.
    at_chance = _run_at_chance(t, fresh, own)
    if real.gain <= 0 and shuffled.gain <= 0:
        # a program whose own model cannot fit its pool (a wide network stood in for it)
        # predicts nothing unseen, whatever the pairs: its held-out reading cannot side
        # with misaligned ones
        if not stood_in and at_chance and _never_better(real, shuffled, floor):
            text = (
                f"{text}; both fits make the unseen batch's loss worse, and at no point does "
                f"the fit of the real pairs predict it better than the shuffled one (lowest "
                f"{fmt(real.lowest)} vs {fmt(shuffled.lowest)})"
            )
            _misaligned(session, ev, t, real, shuffled, f"{text}; {at_chance}")
            return
        _untested_or_own(
            ev,
            own,
            f"{text}; both fits make the unseen batch's loss worse, so the test cannot tell real pairs from shuffled ones",
        )
        return
    if not at_chance or not no_better(real, shuffled):
        noise = 2 * (real.noise + shuffled.noise)
        why = (
            "the run's own first pass over the data cannot be read as a held-out loss"
            if not at_chance and fresh is None
            else "the run's own held-out reading does not show a model at chance"
            if not at_chance
            else f"the real pairs do transfer somewhat better ({fmt(100 * real.gain)}% vs "
            f"{fmt(100 * shuffled.gain)}%, more than the {fmt(100 * _no_difference(real, shuffled))}% that counts as no "
            f"difference; the unseen loss wanders by {fmt(100 * noise)}%)"
        )
        _untested_or_own(
            ev, own, f"{text}; {why}: real pairs are not shown to carry no more than shuffled ones"
        )
        return
    _misaligned(session, ev, t, real, shuffled, f"{text}; {at_chance}")


def _run_at_chance(t: Trace, fresh: Fresh | None, own: OwnAccuracy | None) -> str | None:
    """What the run itself shows of a model that never predicts unseen samples better than
    chance (its fresh batches, else its own evaluation accuracy, else its own evaluation
    loss against the evaluation targets' level), or None."""
    if fresh is not None:
        return None if fresh.learns else fresh.text()
    if own is not None:
        return own.text() if own.stays else None
    return evaluation_stays(t)


def _never_better(real: Transfer, shuffled: Transfer, floor: float | None) -> bool:
    """Even at its lowest point the unseen batch's loss is no lower with the real pairs
    than with the shuffled ones, nor clearly below the targets' marginal level."""
    no_gap = real.early <= shuffled.early + _no_difference(real, shuffled)
    return no_gap and (floor is None or real.lowest > floor * (1 - EVAL_LEARNS))


def _untested_or_own(ev: Evidence, own: OwnAccuracy | None, text: str) -> None:
    """The reference fits cannot tell: the program's own evaluation accuracy, clearly
    above chance, still shows that the inputs carry information about their targets."""
    if own is not None and own.learns:
        ev.item(
            "pairing",
            "passed",
            f"{text}; but {own.text()}: the inputs carry information about their targets",
        )
        return
    ev.item("pairing", "not_applicable", text, untested=True)


def _misaligned(
    session: Session, ev: Evidence, t: Trace, real: Transfer, shuffled: Transfer, text: str
) -> None:
    loader = t.train_loader()
    ev.find(
        "label_misaligned",
        status="confirmed",
        confidence="medium",
        evidence=[
            Observation(
                source="intervention",
                text=text,
                values={
                    "heldout_gain_real": real.gain,
                    "heldout_gain_shuffled": shuffled.gain,
                    "reference_lr": real.lr,
                },
            )
        ],  # fmt: skip
        where=first_static_location(session, "label_misaligned")
        or places.dataset_class(session, loader.dataset_class if loader else None)
        or _target_cut(session, t)
        or places.batch_source(session)
        or loader_location(session, t),
        why=taxonomy().category("label_misaligned").why,
        confirm="print a few (input, target) pairs next to their source records; check both are indexed by the same permutation",
    )
    ev.item("pairing", "failed", text)


def _target_cut(session: Session, t: Trace):
    """Where the training targets are cut from the data apart from the inputs (their own
    helper, `make_targets(series)` beside `make_inputs(series)`)."""
    calls, forwards = t.train_loss_calls(), t.train_forwards()
    if not calls or not forwards:
        return None
    return places.target_cut(session, calls[0].frame, forwards[0].frame)


def _fit_pairs(
    session: Session,
    t: Trace,
    base: dict,
    site: str | None,
    extra: dict | None = None,
    runner: Runner | None = None,
) -> tuple[list[tuple[Transfer, Transfer]], float | None]:
    """Reference fits of the pool with real and with shuffled targets, a step size at a
    time until one shows transfer; with the floor the unseen batch is judged against.
    `runner`: another copy's (an edited one); the session's by default."""
    pairs: list[tuple[Transfer, Transfer]] = []
    floor = _floor(t)
    for lr in REFERENCE_LRS:  # the next step size only when this one shows no transfer
        spec = {**base, **(extra or {}), "reference_lr": lr}
        real_run, shuffled_run = (runner or session.runner).many(
            [spec, {**spec, "shuffle_targets": True}], train_loader=site
        )
        real, shuffled = _transfer(real_run, lr), _transfer(shuffled_run, lr)
        if not t.train_loss_calls() and real_run.trace is not None:
            # a loss written by hand: the unseen batch is scored by the squared difference,
            # whose best constant is that batch's spread about its own mean
            floor = real_run.trace.holdout_level
        if real is not None and shuffled is not None:
            pairs.append((real, shuffled))
            if _transfers(real, shuffled, floor):
                break
    return pairs, floor


def _chosen(
    pairs: list[tuple[Transfer, Transfer]], floor: float | None
) -> tuple[Transfer, Transfer]:
    """The step size that shows transfer, else the one that fits the pool best."""
    transfers = [rs for rs in pairs if _transfers(*rs, floor)]
    return transfers[0] if transfers else max(pairs, key=lambda rs: rs[0].fit)
