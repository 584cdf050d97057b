"""The loss statistics a report states, defined once.

- first: the first recorded finite loss of a run.
- settled: the median of the last tenth of its finite losses (at least 5 values).
- window: an intervention is compared with the run as written over the same number of
  steps, the shorter of the two curves.
- CurveStats: what the stage verdicts read off one curve (smoothed ends, drop, spread).

The intervention checks (`checks.effects.compare`), the runs table and the stage texts
all read these, so the numbers a reader puts side by side are the same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

# Said once under the runs table (Markdown and HTML).
STATISTICS_NOTE = (
    "First = the first recorded loss; settled = the median of the last tenth of the steps "
    "(at least 5); a run with an intervention is compared with the run as written over "
    "the same number of steps, the shorter of the two."
)


def finite(raw: Sequence[float | None]) -> list[float]:
    return [v for v in raw if v is not None and math.isfinite(v)]


def first_recorded(raw: Sequence[float | None]) -> float | None:
    vals = finite(raw)
    return vals[0] if vals else None


def final_level(curve: Sequence[float | None]) -> float | None:
    """The loss the run settled at: median of the last tenth (at least 5 points)."""
    vals = finite(curve)
    if not vals:
        return None
    k = max(5, len(vals) // 10)
    return median(vals[-k:])


@dataclass(frozen=True)
class Window:
    """A run with an intervention next to the run as written, over the same steps."""

    steps: int  # curve entries compared (the shorter curve, or a given count)
    base: list[float]  # finite baseline losses inside the window
    other: list[float]  # finite intervention losses inside the window
    base_nonfinite: int
    other_nonfinite: int

    @property
    def base_steps(self) -> int:
        return len(self.base) + self.base_nonfinite

    @property
    def base_first(self) -> float | None:
        return self.base[0] if self.base else None

    @property
    def base_settled(self) -> float | None:
        return final_level(self.base)

    @property
    def settled(self) -> float | None:
        return final_level(self.other)


def window(
    base_raw: Sequence[float | None], other_raw: Sequence[float | None], steps: int | None = None
) -> Window:
    n = min(len(base_raw), len(other_raw)) if steps is None else steps
    bc, oc = list(base_raw[:n]), list(other_raw[:n])
    b, o = finite(bc), finite(oc)
    return Window(n, b, o, len(bc) - len(b), len(oc) - len(o))


ACCELERATES = 1.2  # the last quarter's fall against the one before it


@dataclass(frozen=True)
class Runaway:
    """A loss that falls below zero without slowing down: the medians of the second and
    last quarters of its curve."""

    second: float
    last: float
    lowest: float | None = None  # set when the loss reached far below zero rather than accelerating

    def text(self) -> str:
        if self.lowest is not None:
            return (
                f"it reaches {self.lowest:.4g}, far below zero, and ends at {self.last:.4g} "
                "over the last quarter of the steps"
            )
        return (
            f"below zero and still accelerating ({self.second:.4g} over the second quarter of "
            f"the steps, {self.last:.4g} over the last)"
        )


# A loss bounded below stays within float range of its start: a Gaussian or flow
# log-likelihood in float32 bottoms out some tens of nats below zero. One that reaches this
# many times its first magnitude (at least 1) below zero has no minimum at all.
FAR_BELOW = 1e4


def falls_without_bound(raw: Sequence[float | None]) -> Runaway | None:
    """The curve ends below zero, below where it started in magnitude, and falls faster
    and faster: each quarter of the run lower than the one before, the last fall the
    largest. A loss that approaches a bound slows down as it nears it (a negative cosine
    similarity near -1, a likelihood near its best); an objective without a minimum does
    not (a KL term added with the wrong sign runs to -1e23, a hinge with no floor falls on)."""
    vals = finite(raw)
    if len(vals) < 16:
        return None
    q = len(vals) // 4
    m1, m2, m3, m4 = (median(vals[i * q : (i + 1) * q]) for i in range(4))
    falling = m4 < m3 < m2 < m1
    accelerating = (m3 - m4) >= ACCELERATES * (m2 - m3) and (m2 - m3) >= 0.8 * (m1 - m2)
    if m4 < 0 and abs(m4) > abs(vals[0]) and falling and accelerating:
        return Runaway(m2, m4)
    lowest = min(vals)
    if m4 < 0 and lowest <= -FAR_BELOW * max(abs(vals[0]), 1.0):
        # it got there and bounced (overflowing steps, a clipped or rescheduled rate)
        return Runaway(m2, m4, lowest)
    return None


@dataclass
class CurveStats:
    """Verdicts read the smoothed `first`/`last` (means of up to 5 values at each end);
    texts state `first_recorded` and `settled`, the statistics of the runs table
    (`agent.curves`), so a reader sees one number for one thing."""

    n: int
    first: float  # mean of the first k values (k = n // 10, 1..5)
    last: float  # mean of the last k values
    minimum: float
    rel_drop: float  # (first - last) / |first|
    nonfinite: int
    spread: float  # median |step-to-step change| relative to the level, second half
    first_recorded: float = math.nan  # the first finite loss
    settled: float = math.nan  # median of the last tenth (at least 5 values)

    @property
    def settled_drop(self) -> float:
        """How far the loss fell, as the texts state it: first recorded -> settled."""
        return (self.first_recorded - self.settled) / (abs(self.first_recorded) + 1e-12)


def curve_stats(raw: list[float | None]) -> CurveStats | None:
    vals = [v for v in raw if v is not None and math.isfinite(v)]
    nonfinite = len(raw) - len(vals)
    if not vals:
        return None
    k = max(1, min(5, len(vals) // 10))
    first = sum(vals[:k]) / k
    last = sum(vals[-k:]) / k
    half = vals[len(vals) // 2 :]
    diffs = [abs(b - a) for a, b in zip(half, half[1:], strict=False)]
    level = abs(median(half)) + 1e-12
    spread = (median(diffs) / level) if diffs else 0.0
    return CurveStats(
        n=len(vals),
        first=first,
        last=last,
        minimum=min(vals),
        rel_drop=(first - last) / (abs(first) + 1e-12),
        nonfinite=nonfinite,
        spread=spread,
        first_recorded=vals[0],
        settled=final_level(vals),
    )


# a run needs this many finite losses before "it no longer runs away" means anything
BOUNDED_POINTS = 16


def bounded_curve(raw: Sequence[float | None]) -> list[float] | None:
    """The finite training losses when they show a bounded objective: long enough to
    tell, never running away, and never further below zero than their own start."""
    vals = finite(raw)
    if len(vals) < BOUNDED_POINTS or falls_without_bound(vals) is not None:
        return None
    return None if min(vals) < -abs(vals[0]) else vals
