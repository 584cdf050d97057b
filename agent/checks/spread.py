"""How far the run as written wanders by chance: the same command with its seeds shifted
(`reseed`, twice) settles somewhere else even though nothing else changed. An
intervention's effect counts only beyond that band: two runs of one program that differ
by less than two reseeded copies of it do not show that the change did anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.core.curves import window

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

RESEEDS = (1, 2)  # the shifts of the program's seeds; with the run as written, three draws


@dataclass(frozen=True)
class Band:
    """The settled losses of the run as written and of its reseeded copies, over the
    steps an intervention was compared on."""

    settled: tuple[float, ...]
    moved: bool = (
        True  # False: reseeding left every loss as it was (the randomness is the program's own)
    )

    @property
    def low(self) -> float:
        return min(self.settled)

    @property
    def high(self) -> float:
        return max(self.settled)

    @property
    def width(self) -> float:
        return self.high - self.low

    def beyond(self, value: float) -> bool:
        """Below every draw by more than the draws differ among themselves (anything
        below, when reseeding could not move the run: the effect's size decides)."""
        return value < self.low - self.width if self.moved else value < self.low

    def text(self) -> str:
        if not self.moved:
            return (
                "reseeding leaves the run as written unchanged (its randomness does not come "
                "from the global seeds), so the effect is judged by its size alone"
            )
        if fmt(self.low) == fmt(self.high):
            return (
                f"with only its seeds changed the run as written settles at {fmt(self.low)} in "
                f"all {len(self.settled)} draws"
            )
        return (
            f"with only its seeds changed the run as written settles between {fmt(self.low)} "
            f"and {fmt(self.high)} ({len(self.settled)} draws)"
        )


def chance_band(session: Session, steps: int, optimizer: int | None = None) -> Band | None:
    """The band over the first `steps` losses (of one optimizer's steps when `optimizer`
    names one of several), or None when a reseeded run gives no settled loss (the effect
    is then judged by its size alone)."""
    base = session.baseline()
    runs = session.runner.many([{"reseed": k} for k in RESEEDS])
    values: list[float] = []
    curves = [
        run.trace.optimizer_curve(optimizer)[:steps] if run.trace else [] for run in [base, *runs]
    ]
    for curve in curves:
        w = window(curve, [], steps)
        if w.base_settled is None or w.base_nonfinite:
            return None
        values.append(w.base_settled)
    return Band(tuple(values), moved=any(c != curves[0] for c in curves[1:]))
