"""Stage 2: the data — the batch contract, labels vs the loss, class balance per batch,
train vs evaluation inputs, leakage, and whether features and targets still pair."""

from __future__ import annotations

import math
from statistics import median
from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.common import (
    baseline_trace,
    curve_stats,
    first_static_location,
    fmt,
    intervene,
    prediction_of,
    runtime,
    target_of,
    where,
)
from torch_investigate.tools.records import Location, Observation, Stage
from torch_investigate.tools.trace_models import Frame, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.session import Session

ITEMS = (
    "batch_contract",
    "label_encoding",
    "class_balance",
    "train_eval_inputs",
    "leakage",
    "pairing",
)


def skip_all(ev: Evidence, items: tuple[str, ...], reason: str) -> None:
    for item in items:
        ev.item(item, "skipped", reason)


def usable(session: Session, ev: Evidence, items: tuple[str, ...]) -> Trace | None:
    """The baseline trace if training ran; otherwise mark the items skipped with the reason."""
    if session.options.static_only:
        skip_all(ev, items, "static-only: the training path was not run")
        return None
    t = baseline_trace(session)
    if t is None or not t.ran_training:
        why = "the training path did not run" + (
            f" ({session.failure.message})" if getattr(session, "failure", None) else ""
        )
        skip_all(ev, items, why)
        return None
    return t


def loader_location(session: Session, t: Trace) -> Location | None:
    ld = t.train_loader()
    return where(session, ld.frame) if ld is not None else None


def _values(d: dict[str, int] | None) -> list[float]:
    out = []
    for k in d or {}:
        try:
            out.append(float(k))
        except ValueError:
            pass
    return sorted(out)


@check(Stage.DATA)
def batch_contract(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ITEMS)
    if t is None:
        return
    fws = t.train_forwards()
    calls = t.train_loss_calls()
    if not fws:
        ev.item("batch_contract", "skipped", "no training forward of a model was recorded")
        return
    x = fws[0].inputs[0] if fws[0].inputs else None
    parts = []
    if x is not None:
        parts.append(
            f"inputs {x.shape} {x.dtype} in [{fmt(x.min)}, {fmt(x.max)}], mean {fmt(x.mean)}, std {fmt(x.std)}"
        )
    if calls:
        y = calls[0].target
        parts.append(
            f"targets {y.shape} {y.dtype} values {_show(y.values) if y.values else f'in [{fmt(y.min)}, {fmt(y.max)}]'}"
        )
    bad_x = [(f, i) for f in fws for i in f.inputs if i.nonfinite]
    bad_y = [c for c in calls if target_of(c).nonfinite]
    if bad_x or bad_y:
        n = len({f.index for f, _ in bad_x}) + len(bad_y)
        first = bad_x[0][1] if bad_x else target_of(bad_y[0])
        text = f"{n} training batches hold NaN/inf ({first.nonfinite} non-finite values in a {first.shape} {'input' if bad_x else 'target'} tensor)"
        ev.find(
            "nonfinite_inputs",
            status="confirmed",
            confidence="high",
            evidence=[runtime(text, fws[0].frame, session, batches=n)],
            where=first_static_location(session, "nonfinite_inputs")
            or where(session, (bad_x[0][0] if bad_x else fws[0]).frame)
            or loader_location(session, t),
            why="a single NaN in a batch turns the loss and every gradient into NaN",
            confirm="assert torch.isfinite(x).all() and torch.isfinite(y).all() on each batch; find the rows and fix or drop them",
        )
        ev.item("batch_contract", "failed", text)
        return
    ev.item("batch_contract", "passed", "; ".join(parts) + "; all finite")
    _scale(session, ev, t, x)


def _show(values: dict[str, int] | None, limit: int = 8) -> str:
    if not values:
        return "{}"
    keys = list(values)
    return "{" + ", ".join(keys[:limit]) + (", …" if len(keys) > limit else "") + "}"


def _scale(session: Session, ev: Evidence, t: Trace, x) -> None:
    """Raw, unstandardized inputs (0..255, 1e4): confirmed only when standardizing helps."""
    if x is None or not x.dtype.startswith("float") or x.std is None or x.max is None:
        return
    big = max(abs(x.max or 0), abs(x.min or 0))
    if not (big > 50 and (x.std > 10 or abs(x.mean or 0) > 10)):
        return
    eff = intervene(
        session,
        {"standardize_inputs": True},
        "with inputs standardized per feature at the model's entry",
    )
    text = f"model inputs reach {fmt(big)} (mean {fmt(x.mean)}, std {fmt(x.std)})"
    # the first layer's gradient scales with its input: compare it with the last layer's
    ws = [p for p in t.parameters if p.registered and len(p.shape) >= 2 and p.grad.mean_norm]
    ratio = (
        (ws[0].grad.mean_norm / ws[-1].grad.mean_norm)
        if len(ws) >= 2 and ws[-1].grad.mean_norm
        else None
    )
    if not eff.improved and ratio is not None and ratio > 100:
        text += f"; the first layer's gradient ({ws[0].name}, mean norm {fmt(ws[0].grad.mean_norm)}) is {fmt(ratio)} times the last layer's"
    if eff.improved or (ratio is not None and ratio > 100):
        ev.find(
            "unnormalized_inputs",
            status="confirmed",
            confidence="high" if eff.relative > 0.2 else "medium",
            evidence=[runtime(text, None, session, max_abs=big, std=x.std), eff.observation()],
            where=first_static_location(session, "unnormalized_inputs", "preprocessing_mismatch")
            or loader_location(session, t)
            or (where(session, t.train_forwards()[0].frame) if t.train_forwards() else None),
            why="inputs on this scale saturate activations and make the first layers' gradients dominate; the optimizer crawls",
            confirm="standardize the inputs with the training mean/std (the same transform for evaluation) and compare the first 100 steps",
        )
    else:
        # no improvement within the probe's steps; the scale can still hurt (clipping and
        # adaptive optimizers hide it early), so it stays a suspicion
        ev.find(
            "unnormalized_inputs",
            status="plausible",
            confidence="medium" if big > 500 else "low",
            evidence=[runtime(text, None, session, max_abs=big, std=x.std), eff.observation()],
            where=first_static_location(session, "unnormalized_inputs", "preprocessing_mismatch")
            or loader_location(session, t)
            or (where(session, t.train_forwards()[0].frame) if t.train_forwards() else None),
            why="inputs on this scale make the first layer's gradients and activations large; optimizers compensate slowly, if at all",
            confirm="standardize the inputs with the training mean/std (the same transform for evaluation) and compare the final metric",
        )


@check(Stage.DATA)
def label_encoding(session: Session, ev: Evidence) -> None:
    t = baseline_trace(session) if not session.options.static_only else None
    if t is None or not t.ran_training:
        return
    calls = t.train_loss_calls()
    if not calls:
        ev.item(
            "label_encoding",
            "not_applicable",
            "no recognised loss function was called; the targets could not be read at the loss",
        )
        return
    c = calls[0]
    y, x = target_of(c), prediction_of(c)
    tstats = t.batches.targets.get("train")
    values = _values(tstats.values if tstats else y.values)
    fn = c.fn
    problems = []
    if fn in ("cross_entropy", "nll_loss") and not y.dtype.startswith("float"):
        n_classes = x.shape[1] if len(x.shape) >= 2 else None
        vals = [v for v in values if c.ignore_index is None or v != c.ignore_index]
        if n_classes and vals and (max(vals) >= n_classes or min(vals) < 0):
            problems.append(
                f"class indices {fmt(min(vals))}..{fmt(max(vals))} for {n_classes} logits"
            )
        detail = f"{fn}: integer targets {_show(tstats.values if tstats else y.values)} for {n_classes} logits"
    elif fn in ("binary_cross_entropy", "binary_cross_entropy_with_logits"):
        lo, hi = (tstats.min, tstats.max) if tstats else (y.min, y.max)
        if lo is not None and hi is not None and (lo < 0 or hi > 1):
            problems.append(f"{fn} targets range over [{fmt(lo)}, {fmt(hi)}], outside [0, 1]")
        detail = f"{fn}: targets in [{fmt(lo)}, {fmt(hi)}]"
    else:
        detail = f"{fn}: targets {y.shape} {y.dtype}"
    batches = tstats.batches if tstats else 1
    masked = any(x.mask for x in calls)  # a loss mask, not the labels, makes them constant
    if values and len(values) == 1 and batches >= 3 and not masked:
        problems.append(f"every target in {batches} training batches is {fmt(values[0])}")
    if problems:
        text = "; ".join(problems)
        ev.find(
            "bad_labels",
            status="confirmed",
            confidence="high",
            evidence=[
                runtime(
                    f"observed at the loss ({fn} at {c.frame}): {text}",
                    c.frame,
                    session,
                    values=values[:32],
                )
            ],
            where=first_static_location(session, "bad_labels")
            or loader_location(session, t)
            or where(session, c.frame),
            why="the loss is computed against targets it does not expect, so the model is pushed toward the wrong answer (or toward a constant)",
            confirm=f"print(torch.unique(y)) for a few training batches and compare with what {fn} expects",
        )
        ev.item("label_encoding", "failed", text)
    else:
        ev.item("label_encoding", "passed", detail)


@check(Stage.DATA)
def class_balance(session: Session, ev: Evidence) -> None:
    t = baseline_trace(session) if not session.options.static_only else None
    if t is None or not t.ran_training:
        return
    hists = [h for h in t.batches.target_values_per_batch if h]
    means = t.batches.target_means_per_batch
    overall: set[str] = set()
    for h in hists:
        overall.update(h)
    loader = t.train_loader()
    shuffle = (
        f"; the training DataLoader {'shuffles' if loader.shuffle else 'does not shuffle'}"
        if loader
        else ""
    )
    if len(hists) >= 4 and 2 <= len(overall) <= 64:
        single = sum(1 for h in hists if len(h) == 1)
        frac = single / len(hists)
        if frac >= 0.75:
            seq = _runs([next(iter(h)) for h in hists if len(h) == 1])
            text = f"{single} of {len(hists)} consecutive training batches hold a single class ({seq}) although the data has {len(overall)} classes{shuffle}"
            _unshuffled(session, ev, t, text)
            return
        ev.item(
            "class_balance",
            "passed",
            f"{len(hists)} training batches; {single} hold a single class; {len(overall)} classes overall{shuffle}",
        )
        return
    if len(means) >= 6 and not hists:
        pairs = list(zip(means, means[1:], strict=False))
        ups = sum(1 for a, b in pairs if b > a)
        downs = sum(1 for a, b in pairs if b < a)
        moves = ups + downs  # equal means (the same full batch every step) say nothing
        if moves >= 5 and max(ups, downs) >= 0.9 * moves:
            text = f"the mean target {'rises' if ups > downs else 'falls'} in {max(ups, downs)} of {len(pairs)} consecutive training batches: the batches follow the target order{shuffle}"
            _unshuffled(session, ev, t, text)
            return
        ev.item(
            "class_balance",
            "passed",
            f"batch target means move both ways ({ups} of {len(means) - 1} rises){shuffle}",
        )
        return
    if len(hists) >= 4 and len(overall) > 64:
        ev.item(
            "class_balance", "passed", f"{len(overall)} target values across {len(hists)} batches"
        )
        return
    ev.item(
        "class_balance",
        "not_applicable",
        f"too few training batches ({max(len(hists), len(means))}) or target values to judge",
    )


def _runs(labels: list[str]) -> str:
    out: list[str] = []
    for lab in labels:
        if out and out[-1].split("×")[0] == lab:
            k = int(out[-1].split("×")[1]) + 1 if "×" in out[-1] else 2
            out[-1] = f"{lab}×{k}"
        else:
            out.append(lab)
    s = ", ".join(out[:8])
    return f"classes in order: {s}{', …' if len(out) > 8 else ''}"


def _unshuffled(session: Session, ev: Evidence, t: Trace, text: str) -> None:
    evidence = [runtime(text, None, session)]
    loader = t.train_loader()
    if loader is not None and not loader.shuffle:
        eff = intervene(
            session,
            {"shuffle_loader": True},
            "with the training DataLoader shuffled",
            train_loader=loader.site,
        )
        evidence.append(eff.observation())
    ev.find(
        "unshuffled_data",
        status="confirmed",
        confidence="high",
        evidence=evidence,
        where=first_static_location(session, "unshuffled_data") or loader_location(session, t),
        why="each step sees one class (or one end of the target range), so the updates chase the current batch and undo each other",
        confirm="pass shuffle=True to the training DataLoader (or permute the index once per epoch) and rerun",
    )
    ev.item("class_balance", "failed", text)


@check(Stage.DATA)
def train_eval_inputs(session: Session, ev: Evidence) -> None:
    t = baseline_trace(session) if not session.options.static_only else None
    if t is None or not t.ran_training:
        return
    b = t.batches
    missing = _eval_missing(t)
    if missing:
        ev.item("train_eval_inputs", *missing)
        ev.item("leakage", *missing)
        return
    # per model: in a pipeline (a frozen encoder and a probe) each model has its own inputs
    pairs = [
        (ph["train"], ph["eval"])
        for ph in b.moments.values()
        if ph.get("train") and ph.get("eval") and len(ph["train"].mean) == len(ph["eval"].mean)
    ]
    tm, em = max(pairs, key=lambda p: _shift(*p)) if pairs else (None, None)
    if tm is None or em is None:
        ev.item(
            "train_eval_inputs",
            "not_applicable",
            "inputs are not floating-point features (e.g. token ids); moments not comparable",
        )
    else:
        zs, rs = [], []
        for mt, st, me, se in zip(tm.mean, tm.std, em.mean, em.std, strict=False):
            if st > 1e-6:
                zs.append(abs(me - mt) / st)
                rs.append((se + 1e-12) / st)
        if zs:
            z, r = median(zs), median(rs)
            text = (
                f"per-feature mean shift between training and evaluation inputs: median {fmt(z)} training std; "
                f"std ratio eval/train: median {fmt(r)} ({len(zs)} features, {tm.n} train and {em.n} eval samples)"
            )
            # same-distribution splits agree to a few percent at these sample sizes; a
            # third of a standard deviation or a 1.6x scale change is a transform
            if z > 0.35 or r > 1.6 or r < 1 / 1.6:
                ev.find(
                    "preprocessing_mismatch",
                    status="confirmed",
                    confidence="high" if (z > 2 or r > 5 or r < 0.2) else "medium",
                    evidence=[runtime(text, None, session, median_shift=z, median_std_ratio=r,
                                      train_mean=tm.mean[:8], eval_mean=em.mean[:8], train_std=tm.std[:8], eval_std=em.std[:8])],
                    where=first_static_location(session, "preprocessing_mismatch") or _eval_location(session, t),
                    why="the model is evaluated on inputs transformed differently from those it learned on, so evaluation numbers are wrong even when training works",
                    confirm="print per-feature mean/std of one training batch and one evaluation batch; apply the same transform to both",
                )  # fmt: skip
                ev.item("train_eval_inputs", "failed", text)
            else:
                ev.item("train_eval_inputs", "passed", text)
    _leakage(session, ev, t)


def _shift(tm, em) -> float:
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


def _eval_missing(t: Trace) -> tuple[str, str] | None:
    if t.batches.eval_fingerprints or t.eval_forwards():
        return None
    if t.status == "completed":
        return (
            "not_applicable",
            "the program has no evaluation phase (no forward under no_grad or eval mode)",
        )
    return (
        "skipped",
        f"no evaluation forward was reached before the run stopped ({t.stop_reason or t.status}); rerun with more --steps",
    )


def _eval_location(session: Session, t: Trace) -> Location | None:
    fws = t.eval_forwards()
    return where(session, fws[0].frame) if fws else None


def _leakage(session: Session, ev: Evidence, t: Trace) -> None:
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
    leaky = (
        sorted(j for j, c in corr.items() if c >= 0.999)
        if classification and len(corr) >= 2
        else []
    )
    if leaky:
        text = f"input feature(s) {leaky} track the target exactly (|correlation| >= 0.999 in every training batch)"
        ev.find(
            "split_leakage",
            status="confirmed",
            confidence="high",
            evidence=[runtime(text, None, session, columns=leaky)],
            where=first_static_location(session, "split_leakage") or loader_location(session, t),
            why="the model can read the answer from its input, so the metrics say nothing about the task",
            confirm=f"drop feature column {leaky[0]} and rerun: the metric falls to its honest level",
        )
        ev.item("leakage", "failed", text)
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
    on_train, held_out = [], []
    for eb in b.eval_batches:
        if not eb.rows:
            continue
        frac = eb.overlap / eb.rows
        (on_train if frac / max(coverage, 1e-9) >= 0.9 else held_out).append(eb)
    seen = f"{b.train_unique} training rows seen ({fmt(100 * coverage)}% of the training set)"
    rows = sum(eb.rows for eb in held_out)
    overlap = sum(eb.overlap for eb in held_out)
    est = (overlap / rows) / max(coverage, 1e-9) if rows else 0.0
    if held_out and overlap >= 5 and est >= 0.05:
        eb = max(held_out, key=lambda x: x.overlap)
        s = eb
        text = (
            f"{overlap} of {rows} rows in {len(held_out)} held-out evaluation batches (first at {eb.site}) are among the {seen}: "
            f"about {fmt(100 * min(est, 1.0))}% of the held-out data is training data"
        )
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
        ev.item(
            "leakage",
            "passed",
            f"{overlap} of {rows} held-out evaluation rows also appear among the {seen}{note}; no feature tracks the target",
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
        from torch_investigate.agent.checks.forward import _numerically_dead

        if _numerically_dead(t) is None:
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
    chance = getattr(session, "chance", None)
    # Misaligned pairs leave nothing to learn from the full data: the training loss stays
    # at its start (or at chance). Any real progress says the pairs carry information; the
    # permutation test below runs only otherwise, since a broken update path (stages 5-6)
    # would confound it.
    if stats and (stats.rel_drop > 0.1 or (chance is not None and stats.last < 0.9 * chance)):
        ev.item(
            "pairing",
            "passed",
            f"training loss fell {fmt(100 * stats.rel_drop)}% ({fmt(stats.first)} -> {fmt(stats.last)}): the features carry information about their targets",
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
            f"the model does not fit even one fixed batch (loss {fmt(fit.first)} -> {fmt(fit.last)}): the permutation test needs a model that can fit; stage 8 examines the fit (learning rate, initialization, capacity)",
        )
        return
    gain_real = (hr[0] - min(hr[len(hr) // 2 :])) / (abs(hr[0]) + 1e-12)
    gain_shuf = (hs[0] - min(hs[len(hs) // 2 :])) / (abs(hs[0]) + 1e-12)
    text = (
        f"fitting one fixed batch takes its loss {fmt(fit.first)} -> {fmt(fit.last)}; on an unseen batch the loss improves "
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
