"""How evidence texts write a number (at most four significant digits, an exponent outside
1e-3..1e4, NaN, infinities and a missing value as words) and a list of names (the first few)."""

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
