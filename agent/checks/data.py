"""Stage 2: the data — the batch contract, labels vs the loss, class balance per batch,
train vs evaluation inputs, leakage, and whether features and targets still pair."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks import places
from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.baseline import (
    MODULE_LESS,
    baseline_trace,
    module_less,
    raw_scale,
    runtime,
    usable,
)
from torch_investigate.agent.checks.class_order import (
    CHANCE,
    MOST,
    SINGLE_CLASS,
    class_runs,
    classes,
    data_means,
    single_class_by_chance,
)
from torch_investigate.agent.checks.effects import compared_steps, intervene
from torch_investigate.agent.checks.locations import (
    first_static_location,
    loader_location,
    static_in,
    where,
)
from torch_investigate.agent.checks.loss_operands import prediction_of, target_of
from torch_investigate.agent.checks.nan_places import nonfinite_origin
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.tools.records import Location, Stage
from torch_investigate.tools.trace.loss_kinds import BINARY_TARGET, INDEX_TARGET
from torch_investigate.tools.tracefile.records import TargetStats
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

ITEMS = (
    "batch_contract",
    "label_encoding",
    "class_balance",
    "train_eval_inputs",
    "leakage",
    "pairing",
)


def _values(d: dict[str, int] | None) -> list[float]:
    out = []
    for k in d or {}:
        try:
            out.append(float(k))
        except ValueError:
            pass
    return sorted(out)


def _site_targets(calls: list) -> TargetStats | None:
    """The targets of one loss site's recorded calls, as the phase's statistics would be
    were it the only loss: their values (when every call kept them) and their range."""
    ys = [target_of(k) for k in calls]
    lows = [y.min for y in ys if y.min is not None]
    highs = [y.max for y in ys if y.max is not None]
    if not ys or not lows or not highs:
        return None
    values: dict[str, int] | None = {}
    for y in ys:
        if not y.values:
            values = None
            break
        for k, n in y.values.items():
            values[k] = values.get(k, 0) + n
    return TargetStats(batches=len(ys), values=values, min=min(lows), max=max(highs))


@check(Stage.DATA)
def batch_contract(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ITEMS)
    if t is None:
        return
    fws = t.train_forwards()
    calls = t.train_loss_calls()
    if not fws:
        if module_less(t):
            ev.item("batch_contract", "not_applicable", MODULE_LESS)
        else:
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
            or _nonfinite_origin(session, bad_x, bad_y)
            or where(session, (bad_x[0][0] if bad_x else fws[0]).frame)
            or loader_location(session, t),
            why="a single NaN in a batch turns the loss and every gradient into NaN",
            confirm="assert torch.isfinite(x).all() and torch.isfinite(y).all() on each batch; find the rows and fix or drop them",
        )
        ev.item("batch_contract", "failed", text)
        return
    ev.item("batch_contract", "passed", "; ".join(parts) + "; all finite")
    _scale(session, ev, t, x)


def _nonfinite_origin(session: Session, bad_x, bad_y) -> Location | None:
    """Where the non-finite inputs (else targets) are written, followed from the model
    call (the loss call) that received them."""
    if bad_x:
        return nonfinite_origin(session, bad_x[0][0].frame)
    return nonfinite_origin(session, bad_y[0].frame, position=1, keyword="target")


def _show(values: dict[str, int] | None, limit: int = 8) -> str:
    if not values:
        return "{}"
    keys = list(values)
    return "{" + ", ".join(keys[:limit]) + (", …" if len(keys) > limit else "") + "}"


def _scale(session: Session, ev: Evidence, t: Trace, x) -> None:
    """Raw, unstandardized inputs (0..255, 1e4): confirmed only when standardizing helps."""
    big = raw_scale(x)
    if big is None:
        return
    if t.input_normalizer is not None:
        ev.notes.append(
            f"model inputs reach {fmt(big)}, but the batch goes through {t.input_normalizer['module']} "
            "as is: the model scales its own inputs"
        )
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
            confirm=f"standardize the inputs with the training mean/std (the same transform for evaluation) and compare the first {compared_steps(session)} steps",
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


def _in_symbol(session: Session, frame, finding) -> bool:
    symbol = session.index.enclosing_symbol(frame.file, frame.line)
    return frame.file == finding.file and symbol == finding.symbol


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
    y = target_of(c)
    # the phase's target statistics mix every loss it trains with (a gate's 0/1 labels and
    # a regressor's amounts): with several loss sites, the first one's calls speak for it
    # (the phase's statistics still say whether every target of the phase is one value)
    phase = t.batches.targets.get("train")
    one_site = len({(str(k.frame), k.fn) for k in calls}) == 1
    same = [k for k in calls if str(k.frame) == str(c.frame) and k.fn == c.fn]
    tstats = (phase if one_site else _site_targets(same)) or phase
    values = _values(tstats.values if tstats else y.values)
    fn = c.fn
    problems = []
    if fn in INDEX_TARGET and not y.dtype.startswith("float"):
        # the class count can differ per call (logits over a padded sequence's positions):
        # then each recorded call's targets are read against its own logits
        same_site = [k for k in calls if str(k.frame) == str(c.frame) and k.fn == fn]
        counts = [prediction_of(k).shape[1] for k in same_site if len(prediction_of(k).shape) >= 2]
        n_classes = max(counts) if counts else None
        vals = [v for v in values if c.ignore_index is None or v != c.ignore_index]
        if len(set(counts)) > 1:
            over = [
                (target_of(k).max, prediction_of(k).shape[1])
                for k in same_site
                if len(prediction_of(k).shape) >= 2
                and target_of(k).max is not None
                and target_of(k).max >= prediction_of(k).shape[1]
                and (k.ignore_index is None or target_of(k).max != k.ignore_index)
            ]
            if over:
                problems.append(
                    f"class index {fmt(over[0][0])} for {over[0][1]} logits in one call"
                )
        elif n_classes and vals and (max(vals) >= n_classes or min(vals) < 0):
            problems.append(
                f"class indices {fmt(min(vals))}..{fmt(max(vals))} for {n_classes} logits"
            )
        shown = tstats.values if tstats else y.values
        if shown:
            said = _show(shown)
        else:  # too many distinct values to record (a vocabulary): their range
            lo, hi = (tstats.min, tstats.max) if tstats else (y.min, y.max)
            said = (
                f"in [{fmt(lo)}, {fmt(hi)}]"
                if lo is not None and hi is not None
                else "(values not recorded)"
            )
        logits = f"{min(counts)}-{n_classes}" if len(set(counts)) > 1 else f"{n_classes}"
        detail = f"{fn}: integer targets {said} for {logits} logits"
    elif fn in BINARY_TARGET:
        lo, hi = (tstats.min, tstats.max) if tstats else (y.min, y.max)
        if lo is not None and hi is not None and (lo < 0 or hi > 1):
            problems.append(f"{fn} targets range over [{fmt(lo)}, {fmt(hi)}], outside [0, 1]")
        detail = f"{fn}: targets in [{fmt(lo)}, {fmt(hi)}]"
    else:
        detail = f"{fn}: targets {y.shape} {y.dtype}"
    batches = phase.batches if phase else 1
    masked = any(x.mask for x in calls)  # a loss mask, not the labels, makes them constant
    phase_values = _values(phase.values if phase else y.values)
    later = _later_classes(t, calls, phase_values)
    if phase_values and len(phase_values) == 1 and batches >= 3 and not masked and not later:
        problems.append(f"every target in {batches} training batches is {fmt(phase_values[0])}")
    elif not problems and not masked and static_in(session, "bad_labels"):
        # targets the code makes itself are not dataset labels (a GAN's real/fake, the
        # positive's index in a contrastive loss); where the code overwrites the labels
        # it read with a constant, the run says whether the loss ever saw anything else
        for f in static_in(session, "bad_labels"):
            # the loss calls of the function that overwrites them
            at = [x for x in calls if x.frame and _in_symbol(session, x.frame, f)] or calls
            seen = {v for x in at for v in _values(target_of(x).values)}
            if len(seen) == 1 and len(at) >= 3:
                c = at[0]
                fn = c.fn
                problems.append(
                    f"every target of the {len(at)} training loss calls recorded is {fmt(seen.pop())}"
                )
                break
    if later and not problems:
        detail += f"; {later}"
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
                    values=phase_values[:32],
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


def _later_classes(t: Trace, calls, values: list[float]) -> str | None:
    """When the recorded batches saw one target value but the run's training loss calls
    (all of them, tools/trace/class_stream.py) saw others later: what they saw."""
    if len(values) != 1:
        return None
    for stream in _streams_of(t, calls):
        if len(stream.counts) > 1:
            shown = ", ".join(f"{k}: {v}" for k, v in sorted(stream.counts.items())[:8])
            return (
                f"over the whole run its {len(stream.batches)} training batches hold other "
                f"values too (rows per value: {shown}): the targets vary, later"
            )
    return None


def _streams_of(t: Trace, calls) -> list:
    """The whole-run class streams of these loss calls' sites (`file:line`, and the
    further calls on that line, `file:line#1`)."""
    sites = {str(c.frame) for c in calls if c.frame is not None}
    return [s for site, s in t.class_streams.items() if site.split("#")[0] in sites]


def _whole_run(t: Trace) -> tuple[list[dict[str, int]], dict[str, int], bool] | None:
    """The longest whole-run class stream of a training loss site that holds two or more
    classes, as per-batch histograms, the run's rows per class, and whether every target
    held one value per row."""
    if not t.class_streams:
        return None
    streams = [
        s
        for s in _streams_of(t, t.train_loss_calls())
        if len(s.counts) >= 2 and len(s.batches) >= 4
    ]
    if not streams:
        return None
    s = max(streams, key=lambda s: len(s.batches))
    # a mixed batch's classes are not kept: two entries say it is not one class; a batch
    # of under four rows says nothing (as for the recorded ones)
    hists = [{c: n} if c is not None else {"": 1, " ": n - 1} for c, n in s.batches if n >= 4]
    return hists, s.counts, s.one_per_row


@check(Stage.DATA)
def class_balance(session: Session, ev: Evidence) -> None:
    t = baseline_trace(session) if not session.options.static_only else None
    if t is None or not t.ran_training:
        return
    # a batch of one sample (or one target) holds one class by construction: says nothing;
    # each loss call's targets are a stream of their own (a GAN's real and fake labels
    # are constants, each always one class: no stream in class order)
    streams = [
        [h for h in stream if h and sum(h.values()) >= 4] for stream in t.batches.target_streams()
    ]
    hists = max(streams, key=lambda hs: (len(classes(hs)) >= 2, len(hs)), default=[])
    means = data_means(t)
    overall = classes(hists)
    loader = t.train_loader()
    shuffle = (
        f"; the training DataLoader's batches come from the program's {loader.batch_sampler}"
        if loader and loader.batch_sampler
        else f"; the training DataLoader {'shuffles' if loader.shuffle else 'does not shuffle'}"
        if loader
        else ""
    )
    whole = _whole_run(t)
    per_row = t.batches.target_one_per_row
    if whole is not None and len(whole[0]) > len(hists):
        # the whole run's training batches (the recorded ones are its first few)
        hists, counts, per_row = whole
        overall, span = set(counts), " of the whole run"
    else:
        counts, span = None, ""
    if len(hists) >= 4 and 2 <= len(overall) <= 64:
        single = sum(1 for h in hists if len(h) == 1)
        chance = single_class_by_chance(hists, counts) if per_row else None
        if chance is not None:
            expected, tail = chance
            ordered = single >= MOST * len(hists) and tail < CHANCE
            p = f"p {tail:.1g}" if tail > 0 else "p < 1e-300"
            odds = f"; {fmt(expected)} expected by chance from the class frequencies ({p})"
        else:  # a target per pixel or token: its values are not independent draws
            ordered, odds = single >= SINGLE_CLASS * len(hists), ""
        if ordered:
            seq = class_runs([next(iter(h)) for h in hists if len(h) == 1])
            text = f"{single} of {len(hists)} consecutive training batches{span} hold a single class ({seq}) although the data has {len(overall)} classes{odds}{shuffle}"
            _unshuffled(session, ev, t, text)
            return
        ev.item(
            "class_balance",
            "passed",
            f"{len(hists)} training batches{span}; {single} hold a single class{odds}; {len(overall)} classes overall{shuffle}",
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


def _unshuffled(session: Session, ev: Evidence, t: Trace, text: str) -> None:
    evidence = [runtime(text, None, session)]
    loader = t.train_loader()
    if loader is not None and (loader.batch_sampler or not loader.shuffle):
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
        where=(loader and places.order_source(session, loader.batch_sampler or loader.sampler))
        or first_static_location(session, "unshuffled_data")
        or loader_location(session, t)
        or places.batch_source(session),
        why="each step sees one class (or one end of the target range), so the updates chase the current batch and undo each other",
        confirm="pass shuffle=True to the training DataLoader (or permute the index once per epoch) and rerun",
    )
    ev.item("class_balance", "failed", text)
