"""Stage 8: optimization choices, reached only when stages 1-7 are coherent — a
learning-rate sweep on a fixed batch, initialization and activation statistics,
per-layer gradient norms, and a fixed-batch overfit test for capacity."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from agent.checks.base import Evidence, check
from agent.checks.common import curve_stats, fmt, runtime, where
from agent.checks.data import usable
from agent.checks.forward import model_location
from tools.records import Observation, Stage

if TYPE_CHECKING:
    from agent.runs import Run
    from agent.session import Session

ITEMS = ("lr_sweep", "activations", "gradient_flow", "capacity")
SCALES = (0.1, 1.0, 10.0)


def _fit(run: Run) -> tuple[float | None, float | None, bool]:
    """(first, settled, diverged) of a fixed-batch run."""
    raw = run.trace.raw_curve() if run.trace else []
    stats = curve_stats(raw)
    if stats is None:
        return None, None, True
    diverged = stats.nonfinite > 0 or stats.last > 1.5 * abs(stats.first)
    return stats.first, stats.last, diverged


@check(Stage.OPTIMIZATION)
def lr_sweep(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ITEMS)
    if t is None:
        return
    loader = t.train_loader()
    site = loader.site if loader else None
    runs = session.runner.many(
        [{"fixed_batch": True, **({"lr_scale": s} if s != 1.0 else {})} for s in SCALES],
        train_loader=site,
    )
    fits = {s: _fit(r) for s, r in zip(SCALES, runs, strict=True)}
    session.fixed_batch_fits = fits
    parts = [
        f"lr x{s}: {fmt(f[0])} -> {fmt(f[1])}{' (diverges)' if f[2] else ''}"
        for s, f in fits.items()
    ]
    text = "fixed-batch loss after the same steps: " + "; ".join(parts)
    first1, last1, div1 = fits[1.0]
    first01, last01, div01 = fits[0.1]
    _, last10, div10 = fits[10.0]
    opt = t.optimizers[0] if t.optimizers else None
    loc = where(session, opt.frame) if opt else None
    if div1 and not div01 and last01 is not None and first01 is not None and last01 < 0.7 * first01:
        ev.find(
            "lr_too_high",
            status="confirmed",
            confidence="high",
            evidence=[Observation(source="intervention", text=text)],
            where=loc,
            why="at the configured learning rate the steps overshoot and the loss grows; a tenth of it converges",
            confirm="rerun with the learning rate divided by 10 (or with warm-up) and compare the first 100 steps",
        )
        ev.item("lr_sweep", "failed", text)
        return
    if (
        last1 is not None
        and first1 is not None
        and last10 is not None
        and not div10
        and (first1 - last1) < 0.1 * abs(first1)
        and last10 < 0.5 * last1
    ):
        ev.find(
            "lr_too_low",
            status="confirmed",
            confidence="high",
            evidence=[Observation(source="intervention", text=text)],
            where=loc,
            why="at the configured learning rate the loss barely moves in many steps; ten times larger steps fit the same batch",
            confirm="rerun with the learning rate multiplied by 10 and compare the first 100 steps",
        )  # fmt: skip
        ev.item("lr_sweep", "failed", text)
        return
    ev.item("lr_sweep", "passed", text)


@check(Stage.OPTIMIZATION)
def activations(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    # symmetric or all-zero rows only matter when there are hidden units behind them
    matrices = [s for s in t.init_stats if len(s.get("shape", [])) >= 2]
    hidden = len(matrices) >= 2
    sym = [s for s in matrices if hidden and s.get("identical_rows") and s["shape"][0] > 1]
    zero = [s for s in matrices if hidden and s["shape"][0] > 1 and s.get("std", 1.0) == 0.0]
    huge = [s for s in matrices if s.get("std", 0.0) > 5.0]
    if sym or zero or huge:
        s = (sym or zero or huge)[0]
        what = (
            "all rows identical (every unit computes the same thing)"
            if s in sym
            else ("all zeros" if s in zero else f"std {fmt(s['std'])}")
        )
        text = f"{s['name']} {s['shape']} at the first forward: {what}"
        ev.find(
            "bad_initialization",
            status="confirmed",
            confidence="high" if (sym or zero) else "medium",
            evidence=[runtime(text, None, session, **{k: v for k, v in s.items() if k != "name"})],
            where=model_location(session, t),
            why="units that start identical receive identical gradients and stay identical; a huge scale saturates activations from the first step",
            confirm=f"print({s['name']}.std(), {s['name']}.unique(dim=0).shape) after construction; re-initialize with the layer's default init",
        )
        ev.item("activations", "failed", text)
        return
    dead = [a for a in t.activations if a.kind == "relu" and a.dead_units > 0.9]
    sat = [a for a in t.activations if a.kind in ("sigmoid", "tanh") and a.inactive > 0.9]
    if dead or sat:
        a = (dead or sat)[0]
        text = (
            f"{fmt(100 * a.dead_units)}% of ReLU units at {a.frame} are zero for every sample of the batch"
            if a in dead
            else f"{fmt(100 * a.inactive)}% of {a.kind} outputs at {a.frame} are saturated"
        )
        ev.find(
            "dead_activations",
            status="confirmed",
            confidence="medium",
            evidence=[
                runtime(text, a.frame, session, fraction=a.dead_units if a in dead else a.inactive)
            ],
            where=where(session, a.frame),
            why="dead or saturated units pass no gradient, so most of the network stops learning",
            confirm="log the fraction of zero ReLU outputs per layer over a few batches; check the init scale and learning rate",
        )
        ev.item("activations", "failed", text)
        return
    relus = [a for a in t.activations if a.kind == "relu"]
    ev.item(
        "activations",
        "passed",
        f"initial weights are not symmetric or degenerate; {len(relus)} ReLU sites, max dead fraction {fmt(max((a.dead_units for a in relus), default=0.0))}",
    )


@check(Stage.OPTIMIZATION)
def gradient_flow(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    ws = [
        p
        for p in t.parameters
        if p.registered and p.grad.mean_norm is not None and len(p.shape) >= 2
    ]
    if len(ws) < 2:
        ev.item("gradient_flow", "not_applicable", "fewer than two weight matrices with gradients")
        return
    first, last = ws[0].grad.mean_norm or 0.0, ws[-1].grad.mean_norm or 0.0
    big = max(p.grad.max_norm or 0.0 for p in ws)
    text = f"mean gradient norm {fmt(first)} at {ws[0].name} (first) vs {fmt(last)} at {ws[-1].name} (last); largest {fmt(big)}"
    vanishing = last > 0 and first < 1e-4 * last and len(ws) >= 3
    exploding = big > 1e4 or any(p.grad.nonfinite for p in ws)
    if vanishing or exploding:
        ev.find(
            "vanishing_or_exploding_gradients",
            status="confirmed",
            confidence="medium",
            evidence=[runtime(text, None, session, first=first, last=last, largest=big)],
            where=model_location(session, t),
            why="gradients that shrink or blow up across depth leave early layers frozen or make steps explode",
            confirm="log per-layer gradient norms for a few steps; check initialization, normalization layers and residual paths",
        )
        ev.item("gradient_flow", "failed", text)
        return
    ev.item("gradient_flow", "passed", text)
    if math.isfinite(first):
        session.gradient_flow_ok = True


@check(Stage.OPTIMIZATION)
def capacity(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    fits = getattr(session, "fixed_batch_fits", None)
    if not fits:
        ev.item("capacity", "skipped", "no fixed-batch run")
        return
    best = min((f[1] for f in fits.values() if f[1] is not None and not f[2]), default=None)
    first = fits[1.0][0]
    if best is None or first is None:
        ev.item("capacity", "skipped", "the fixed-batch runs produced no finite loss")
        return
    text = f"the best fixed-batch loss over the sweep is {fmt(best)} from {fmt(first)}"
    if best > 0.5 * first:
        ev.find(
            "insufficient_capacity",
            status="confirmed",
            confidence="medium",
            evidence=[
                Observation(
                    source="intervention", text=text + " although every correctness stage passed"
                )
            ],
            where=model_location(session, t),
            why="a model that cannot fit even one fixed batch with a verified update path lacks the capacity (or the right inductive bias) for the task",
            confirm="train on 8 fixed examples for 500 steps; if the loss stays high, widen the model or change its structure",
        )
        ev.item("capacity", "failed", text)
        return
    ev.item("capacity", "passed", text + ": the model can fit one batch")
