"""Stage 2, held-out data: training vs evaluation input statistics per model, and leakage (training rows inside held-out batches, a feature equal to the label)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from torch_investigate.agent.checks import row_offsets
from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.baseline import baseline_trace, eval_missing, runtime
from torch_investigate.agent.checks.group_standardized import per_group
from torch_investigate.agent.checks.holdout_index import (
    HOLDS_TRAINING,
    shared_rows_of_one_output,
    shared_samples,
)
from torch_investigate.agent.checks.input_moments import (
    compare_moments,
    eval_frame,
    odd_site,
    shift,
    standardized,
    transform_like,
)
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.checks.target_leak import column_leak, linear_target, target_in_input
from torch_investigate.tools.records import Location, Stage
from torch_investigate.tools.tracefile.trace import Frame, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


@check(Stage.DATA)
def train_eval_inputs(session: Session, ev: Evidence) -> None:
    t = baseline_trace(session) if not session.options.static_only else None
    if t is None or not t.ran_training:
        return
    b = t.batches
    missing = eval_missing(t)
    if missing:
        ev.item("train_eval_inputs", *missing)
        if not target_in_input(session, ev, t):  # a leak needs no evaluation phase
            ev.item("leakage", *missing)
        return
    # per model: in a pipeline (a frozen encoder and a probe) each model has its own inputs
    pairs = [
        (ph["train"], ph["eval"])
        for ph in b.moments.values()
        if ph.get("train") and ph.get("eval") and len(ph["train"].mean) == len(ph["eval"].mean)
    ]
    tm, em = max(pairs, key=lambda p: shift(*p)) if pairs else (None, None)
    if _recoded(session, ev, t):
        _leakage(session, ev, t)
        return
    if tm is None or em is None:
        ev.item(
            "train_eval_inputs",
            "not_applicable",
            "inputs are not floating-point features (e.g. token ids); moments not comparable",
        )
    elif not per_group(session, ev, t):
        signed, rs = standardized(tm, em)
        if signed:
            site = (
                odd_site(t, alone=True) if transform_like(signed, rs, tm.n, em.n) else odd_site(t)
            )
            if site is not None:  # one evaluation call transforms its inputs its own way
                tm, em, signed, rs, site = site
            compare_moments(session, ev, t, tm, em, signed, rs, site)
        if ev.items.get("train_eval_inputs", ("",))[0] == "passed":
            row_offsets.wider_eval_rows(session, ev, t)
    _leakage(session, ev, t)


# A code must be seen this often in each split before its targets are compared; a code
# whose targets differ by more than DIFFERS standard errors between the splits goes with
# other targets there.
MIN_PER_CODE, DIFFERS = 30, 4.0


def _recoded(session: Session, ev: Evidence, t: Trace) -> bool:
    """An integer (categorical) input column whose codes stand for other categories in
    evaluation than in training (an encoder fit anew on the evaluation data): the same
    code goes with clearly other targets there, some codes higher and some lower. A real
    shift of the target moves the codes together; new ids are not shared codes."""
    train = [c for c in t.code_targets if c.role == "train"]
    evals = [c for c in t.code_targets if c.role != "train"]  # loaders no loss trained on
    for tr in train:
        for ev_ in (e for e in evals if e.target_index == tr.target_index):
            if len(ev_.columns) != len(tr.columns):
                continue
            for j, (tc, ec) in enumerate(zip(tr.columns, ev_.columns, strict=True)):
                zs = [z for code in set(tc) & set(ec) if (z := _z(tc[code], ec[code])) is not None]
                up, down = sum(z > DIFFERS for z in zs), sum(z < -DIFFERS for z in zs)
                if len(zs) < 3 or min(up, down) < 1 or up + down < 0.5 * len(zs):
                    continue
                text = (
                    f"column {j} of the integer codes the training and evaluation loaders "
                    f"deliver: {up + down} of the {len(zs)} codes seen at least {MIN_PER_CODE} "
                    f"times in both go with clearly other targets in evaluation ({up} higher, "
                    f"{down} lower, each by more than {fmt(DIFFERS)} standard errors): the "
                    "codes stand for other categories there"
                )
                ev.find(
                    "preprocessing_mismatch",
                    title="categorical codes assigned differently for evaluation",
                    status="confirmed",
                    confidence="high",
                    evidence=[runtime(text, None, session, codes=len(zs), differ=up + down)],
                    where=_eval_loader_location(session, t)
                    or first_static_location(session, "preprocessing_mismatch")
                    or where(session, eval_frame(t)),
                    why="an encoder fit separately on the evaluation data maps each category to another code: the model reads different categories than it learned",
                    confirm="fit the category-to-code maps on the training data once and apply those same maps to the evaluation data",
                )
                ev.item("train_eval_inputs", "failed", text)
                return True
    return False


def _z(a: list[float], b: list[float]) -> float | None:
    """How many standard errors apart the mean targets of one code are in two splits."""
    (n, s, ss), (m, r, rr) = a, b
    if n < MIN_PER_CODE or m < MIN_PER_CODE:
        return None
    mu, nu = s / n, r / m
    var = max(ss / n - mu * mu, 0.0) / n + max(rr / m - nu * nu, 0.0) / m
    return (mu - nu) / math.sqrt(var) if var > 0 else None


def _eval_loader_location(session: Session, t: Trace) -> Location | None:
    """Where the evaluation DataLoader is built (its dataset is made on the way)."""
    loaders = [lo for lo in t.loaders if lo.role == "eval" and lo.frame is not None]
    return where(session, loaders[0].frame) if loaders else None


# A held-out overlap within this much of what repeating data shows by chance is not leakage.
CHANCE_MARGIN = 0.1
MIN_REPEATS = 3  # repeats within one evaluation pass before the data counts as repeating


MIN_TRAIN_ROWS = 20


def _train_set_passes(batches) -> set[tuple[str, int]]:
    """The evaluation passes (call site, step) that score the training data: together their
    batches hold nearly every training row the evaluated model received. Scoring the
    training set through the same code as validation is not leakage."""
    held: dict[tuple[str, int], list[int]] = {}
    for eb in batches:
        if eb.module_train_rows >= MIN_TRAIN_ROWS:
            acc = held.setdefault((eb.site, eb.step), [0, eb.module_train_rows, 0, 0])
            acc[0] += eb.holds_train_rows
            # a batch past the fingerprint limit holds the training rows of its first rows
            printed = eb.fingerprinted or eb.rows  # older traces do not say
            acc[2] += printed
            acc[3] += max(eb.batch_rows, printed)
    return {
        k
        for k, (n, total, printed, rows) in held.items()
        if n >= HOLDS_TRAINING * total * (printed / rows if rows else 1.0)
    }


def _chance_overlap(b) -> float | None:
    """The share of held-out rows that data repeating itself puts among the training rows
    by chance. Repeats within one evaluation pass estimate how many distinct rows the data
    can take (`support`, from drawn = support * (1 - exp(-drawn / support)) solved for
    the distinct count); the training rows seen then cover `train_unique / support` of it.
    None when one pass repeats no more than a few rows: the data does not repeat itself."""
    fp = b.eval_first_pass
    if fp is None or fp.drawn - fp.unique < MIN_REPEATS or fp.unique < 2:
        return None
    lo, hi = float(fp.unique), float(fp.unique) * 1e6
    for _ in range(100):  # distinct(support) is increasing in support: bisect
        mid = math.sqrt(lo * hi)
        if mid * (1 - math.exp(-fp.drawn / mid)) < fp.unique:
            lo = mid
        else:
            hi = mid
    return min(1.0, b.train_unique / hi)


def _by_chance(batches, expected: float | None) -> bool:
    """Evaluation batches whose overlap with the training rows is no more than data that
    repeats itself shows by chance (`_chance_overlap`)."""
    rows = sum(eb.rows for eb in batches)
    overlap = sum(eb.overlap for eb in batches)
    return expected is not None and rows > 0 and overlap / rows <= expected + CHANCE_MARGIN


EXACT = 1 - 1e-9  # |correlation| of a column that is the target, scaled and shifted


def _leakage(session: Session, ev: Evidence, t: Trace) -> None:
    if target_in_input(session, ev, t):
        return
    b = t.batches
    # A feature that equals the class label leaks it; in a regression (or with a single
    # feature) an exact relation between input and target is simply the task.
    corr = {int(j): c for j, c in b.column_target_corr.items()}
    calls = t.train_loss_calls()
    classification = bool(calls) and calls[0].fn in (
        "cross_entropy",
        "nll_loss",
        "binary_cross_entropy",
        "binary_cross_entropy_with_logits",
    )
    # A regression target that one of several features equals up to scale and shift in
    # every batch (a lag-0 copy among the lags) is read, not predicted: no measured
    # feature tracks a target that closely unless it is the target
    leaky = (
        sorted(j for j, c in corr.items() if c >= 0.999)
        if classification and len(corr) >= 2
        else sorted(j for j, c in corr.items() if c >= EXACT)
        if len(corr) >= 3
        else []
    )
    if leaky:
        text = f"input feature(s) {leaky} track the target exactly (|correlation| >= 0.999 in every training batch)"
        confirm = f"drop feature column {leaky[0]} and rerun: the metric falls to its honest level"
        column_leak(session, ev, t, text, leaky, confirm)
        return
    if linear_target(session, ev, t, len(corr)):
        return
    if shared_samples(session, ev, t):
        return
    if shared_rows_of_one_output(session, ev, t):
        return
    if not b.eval_unique or not b.train_unique:
        ev.item(
            "leakage", "not_applicable", "no comparable rows (inputs could not be fingerprinted)"
        )
        return
    loader = t.train_loader()
    coverage = (
        min(1.0, b.train_unique / loader.dataset_len) if loader and loader.dataset_len else 1.0
    )
    # An evaluation batch drawn from the training data itself (a train-loss estimate) is
    # not leakage; leakage is training rows inside batches that are meant to be held out.
    scoring_train = _train_set_passes(b.eval_batches)
    on_train, held_out = [], []
    for eb in b.eval_batches:
        if not eb.rows:
            continue
        frac = eb.overlap / eb.rows
        # the pass over the training set is the batches that hold training rows; a batch
        # at the same call and step that holds none (validation scored right after the
        # training set by one function) is held out
        whole = (eb.site, eb.step) in scoring_train and eb.holds_train_rows > 0
        (on_train if whole or frac / max(coverage, 1e-9) >= 0.9 else held_out).append(eb)
    seen = (
        f"{b.train_unique} distinct training rows seen ({fmt(100 * coverage)}% of the training set)"
    )
    rows = sum(eb.rows for eb in held_out)
    overlap = sum(eb.overlap for eb in held_out)
    est = (overlap / rows) / max(coverage, 1e-9) if rows else 0.0
    expected, fp = _chance_overlap(b), b.eval_first_pass
    if held_out and overlap >= 5 and est >= 0.05 and expected is not None:
        if _by_chance(held_out, expected):
            ev.item(
                "leakage",
                "passed",
                f"{overlap} of {rows} held-out evaluation rows also appear among the {seen}, "
                f"but one evaluation pass repeats its own rows ({fp.drawn - fp.unique} of "
                f"{fp.drawn} drawn are repeats): data that repeats itself puts about "
                f"{fmt(100 * expected)}% of held-out rows among the training rows by chance",
            )
            return
    if held_out and overlap >= 5 and est >= 0.05:
        eb = max(held_out, key=lambda x: x.overlap)
        s = eb
        text = (
            f"{overlap} of {rows} rows in {len(held_out)} held-out evaluation batches (first at {eb.site}) are among the {seen}: "
            f"about {fmt(100 * min(est, 1.0))}% of the held-out data is training data"
        )
    elif on_train and not held_out and t.status == "stopped":
        # the tracer stopped the run: held-out passes may come after the part it saw
        ev.item(
            "leakage",
            "passed",
            f"the {len(on_train)} evaluation batches seen score training rows ({seen}); the "
            f"run was stopped ({t.stop_reason}) before any held-out evaluation, if there is one",
        )
        return
    elif on_train and not held_out and _by_chance(on_train, expected):
        # rows that repeat within one evaluation pass are not samples (atoms of molecules,
        # one-hot tokens): matching training rows is what such data does anyway
        ev.item(
            "leakage",
            "passed",
            f"the evaluation rows are among the {seen}, but one evaluation pass repeats its "
            f"own rows ({fp.drawn - fp.unique} of {fp.drawn} drawn are repeats): data that "
            f"repeats itself puts about {fmt(100 * (expected or 0.0))}% of its rows among the "
            "training rows by chance, so the rows do not identify samples",
        )
        return
    elif on_train and not held_out:
        # no held-out data at all: the reported metric measures training fit. Worth saying,
        # but an author may intend it, so it stays a suspicion.
        s = on_train[0]
        text = f"every one of {len(on_train)} evaluation batches (at {s.site}) consists of training rows ({seen}); there is no held-out data"
        file, _, line = s.site.rpartition(":")
        # the code's own split, when a static check saw it overlap, turns this into a defect
        static = first_static_location(session, "split_leakage")
        ev.find(
            "split_leakage",
            status="confirmed" if static else "plausible",
            confidence="high" if static else "medium",
            evidence=[runtime(text, None, session, eval_batches=len(on_train))],
            where=first_static_location(session, "split_leakage")
            or (where(session, Frame(file=file, line=int(line))) if file else None),
            why="an evaluation on training rows measures memorization, not generalization; it cannot reveal overfitting or leakage",
            confirm="evaluate on rows that never enter training (split before building the loaders) and compare the metric",
        )
        ev.item(
            "leakage",
            "passed",
            text + " (recorded as a suspicion: the program may intend to report training fit)",
        )
        return
    else:
        note = (
            f"; {len(on_train)} evaluation batch(es) deliberately evaluate training data"
            if on_train
            else ""
        )
        if b.transformed_overlap:
            note += (
                f"; {b.transformed_overlap} held-out rows equal training rows only as the "
                "program transformed them after cutting them from their source (the rows "
                "they were made from are other samples: an augmentation that maps one "
                "sample onto another, as a board's symmetries do)"
            )
        if b.self_supervised_overlap:
            note += (
                f"; {b.self_supervised_overlap} held-out rows were trained on only under a "
                "loss whose target is a value of its own inputs (self-supervised), never "
                "with a label the evaluation scores"
            )
        ev.item(
            "leakage",
            "passed",
            f"{overlap} of {rows} held-out evaluation rows (counted per batch) also appear among the {seen}{note}; no feature tracks the target",
        )
        return
    file, _, line = s.site.rpartition(":")
    loc = first_static_location(session, "split_leakage")
    if loc is None and file:
        loc = where(session, Frame(file=file, line=int(line)))
    ev.find(
        "split_leakage",
        status="confirmed",
        confidence="high" if est > 0.2 else "medium",
        evidence=[
            runtime(text, None, session, overlap=overlap, eval_rows=rows, estimated_fraction=est)
        ],
        where=loc,
        why="evaluation rows the model trained on make the held-out metric optimistic; it no longer measures generalization",
        confirm="hash the rows of the training and evaluation sets and count the intersection; split by sample (or by group) before anything else",
    )
    ev.item("leakage", "failed", text)
