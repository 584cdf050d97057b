"""Number and time formatting shared by every human-facing renderer.

Invariant: a number is never printed with more than 4 significant digits, and a
missing or non-finite value is printed as a word, never as an empty cell.
"""

from __future__ import annotations

import math

# a line of prose is written once, in the core (the answer writes it too)
from torch_investigate.agent.core.prose import one_line as one_line
from torch_investigate.agent.core.prose import sentence as sentence

MISSING = "—"


def fmt_num(value: float | int | None) -> str:
    """4 significant digits; NaN/inf spelled out; None is an em dash."""
    if value is None:
        return MISSING
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.4g}"


def fmt_seconds(seconds: float | None) -> str:
    if seconds is None or not math.isfinite(seconds):
        return MISSING
    if seconds < 120:
        return f"{seconds:.3g} s"
    minutes, rest = divmod(int(round(seconds)), 60)
    return f"{minutes} min {rest} s"


def fmt_value(value: object) -> str:
    """A compact rendering of one `Observation.values` entry."""
    if isinstance(value, float | int) and not isinstance(value, bool):
        return fmt_num(value)
    if isinstance(value, list):
        shown = ", ".join(fmt_value(v) for v in value[:8])
        more = f", … {len(value) - 8} more" if len(value) > 8 else ""
        return f"[{shown}{more}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {fmt_value(v)}" for k, v in list(value.items())[:8]) + "}"
    return str(value)
