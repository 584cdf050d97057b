"""Stage 8: one fixed batch fitted at scaled learning rates: where each fit started and
settled, whether it diverged, and a sweep that widens a decade at a time when no scale fits."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from torch_investigate.agent.checks.pairing_fresh import evaluation_learns, own_accuracy, own_error
from torch_investigate.agent.core.curves import curve_stats

if TYPE_CHECKING:
    from torch_investigate.agent.core.runs import Run
    from torch_investigate.agent.core.session import Session
    from torch_investigate.tools.tracefile.trace import Trace

# When no scale fits, the sweep widens a decade at a time up to this factor either way.
MAX_DECADES = 3


def fit(run: Run) -> tuple[float | None, float | None, bool]:
    """(first, settled, diverged) of a fixed-batch run: the loss at step 0 (the same for
    every learning rate), where it settled, and whether it blew up on the way."""
    raw = run.trace.raw_curve() if run.trace else []
    stats = curve_stats(raw)
    if stats is None or raw[0] is None or not math.isfinite(raw[0]):
        return None, None, True
    first = raw[0]
    finite = [v for v in raw if v is not None and math.isfinite(v)]
    diverged = stats.nonfinite > 0 or stats.last > 1.5 * abs(first) or max(finite) > 20 * abs(first)
    return first, stats.last, diverged


def fits_well(f: tuple[float | None, float | None, bool]) -> bool:
    first, last, diverged = f
    return not diverged and first is not None and last is not None and last < 0.5 * abs(first)


def moves(f: tuple[float | None, float | None, bool]) -> bool:
    first, last, diverged = f
    return (
        not diverged
        and first is not None
        and last is not None
        and (first - last) > 0.1 * abs(first)
    )


def sweep(session: Session, site: str | None, scales) -> dict[float, tuple]:
    runs = session.runner.many(
        [{"fixed_batch": True, **({"lr_scale": s} if s != 1.0 else {})} for s in scales],
        train_loader=site,
    )
    return {s: fit(r) for s, r in zip(scales, runs, strict=True)}


def fit_steps(session: Session, site: str | None) -> int:
    """How many steps the fixed-batch run at the configured learning rate made."""
    run = session.runner.get({"fixed_batch": True}, train_loader=site)
    return len(run.trace.raw_curve()) if run.trace else 0


def widen(session: Session, site: str | None, fits: dict[float, tuple]) -> None:
    """No scale fits: go a decade further in the direction the evidence points (lower
    when the configured rate diverges, higher when it barely moves), until one fits or
    the sweep spans MAX_DECADES either way."""
    one = fits[1.0]
    if one[2] and not fits_well(fits[0.1]):
        direction = 0.1
    elif not one[2] and not fits[10.0][2] and not fits_well(fits[10.0]):
        direction = 10.0
    else:
        return
    scale = 0.1 if direction == 0.1 else 10.0
    for _ in range(MAX_DECADES - 1):
        scale *= direction
        fits.update(sweep(session, site, (scale,)))
        if fits_well(fits[scale]) or (direction == 10.0 and fits[scale][2]):
            return


def moving_batch(session: Session, t: Trace) -> str | None:
    """The fixed-batch run's model saw many more distinct input rows than one batch holds:
    what reaches the model is not fixed, whatever the loader yields."""
    loader = t.train_loader()
    run = session.runner.get({"fixed_batch": True}, train_loader=loader.site if loader else None)
    if run.trace is None:
        return None
    fws = run.trace.train_forwards()
    shape = fws[0].inputs[0].shape if fws and fws[0].inputs else None
    rows = shape[0] if shape else 0
    seen = run.trace.batches.train_unique
    if rows and seen > 2 * rows:
        return (
            f"in that run the model received {seen} distinct input rows over "
            f"{len(run.trace.raw_curve())} steps, not the {rows} of one batch"
        )
    return None


def fits_full_data(first: float, best: float, settled: float | None) -> bool:
    """The run as written fits the whole training data better than the sweep fitted one
    batch: below the fit the capacity test asks for, and below the sweep's best. A model
    that does that has the capacity; the sweep's steps were too few to show it."""
    return settled is not None and settled <= 0.5 * abs(first) and settled < best


def run_fits(t: Trace, first: float, best: float, settled: float | None) -> str | None:
    """What shows the model can fit though the sweep's one batch did not: "" when the run
    as written fits the whole data below half its first loss and below the sweep's best;
    the program's own evaluation learning clearly (below what its targets alone allow, or
    above chance) when the run settles below the sweep's best without that (a loss with
    a floor: soft targets, smoothing). None when nothing shows it."""
    if fits_full_data(first, best, settled):
        return ""
    if settled is None or settled >= best:
        return None
    learns = evaluation_learns(t)
    acc, err = own_accuracy(t), own_error(t)
    if learns is None and acc is not None and acc.learns:
        learns = acc.text()
    if learns is None and err is not None and err.learns:
        learns = err.text()
    return f", and {learns}" if learns else None
