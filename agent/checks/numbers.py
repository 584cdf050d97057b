"""How evidence texts write a number (at most four significant digits, an exponent outside
1e-3..1e4, NaN, infinities and a missing value as words), a share, a level against chance, a
change by its direction, and a list of names (the first few)."""

from __future__ import annotations

import math


def fmt(v: float | None, digits: int = 4) -> str:
    if v is None:
        return "n/a"
    if v != v:
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == 0:
        return "0"
    if abs(v) >= 1e4 or abs(v) < 1e-3:
        return f"{v:.{digits - 1}e}"
    return f"{v:.{digits}g}"


def listed(names: list[str], limit: int = 5) -> str:
    """The first `limit` names, and how many more there are."""
    return ", ".join(names[:limit]) + (
        f" and {len(names) - limit} more" if len(names) > limit else ""
    )


def percent_range(lo: float, hi: float) -> str:
    """`100%`, or `40-100%` when the values differ."""
    low, high = fmt(100 * lo), fmt(100 * hi)
    return f"{low}%" if low == high else f"{low}-{high}%"


def of_chance(level: float, chance: float) -> str:
    """`81% of the chance level 1.099`: a level said against an uninformed model's."""
    return f"{100 * level / chance:.0f}% of the chance level {fmt(chance)}"


def change(fraction: float, better: str = "improves", worse: str = "worsens") -> str:
    """A relative change in words: `improves 19.81%`, `worsens 12.35%` (never `improves
    -12.35%`)."""
    if fraction == 0:
        return "does not change"
    return f"{better if fraction > 0 else worse} {fmt(100 * abs(fraction))}%"
