"""Inline SVG charts, computed in Python: no script, no external resource.

Every chart is an `<svg>` with an `id` and a `data-points` attribute counting the
marks actually drawn (finite loss points, bars), so a test or a reader can tell
an empty plot from a drawn one. Text is escaped; values that cannot be placed
(NaN, inf, None, zero on a log axis) are labelled, never silently dropped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from torch_investigate.agent.render._format import fmt_num

# Colour-blind-safe categorical palette (Tableau 10); the first series is drawn
# darker and thicker because it is the run as written.
BASELINE_COLOR = "#222222"
PALETTE = (
    "#ff7f0e",
    "#1f77b4",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#bcbd22",
    "#7f7f7f",
)
BAR_COLOR = "#4c78a8"
WARN_COLOR = "#c0392b"
LOG_DECADES_THRESHOLD = 2.0  # log y when finite positive values span more than 2 decades


# The widest a character of the 12 px legend font draws (a capital M is about 10 px;
# words average under 7): the legend wraps its labels so that none runs past the plot.
LEGEND_CHAR_PX = 7.5


@dataclass(frozen=True)
class Series:
    label: str  # the legend's name for the run
    values: Sequence[float]
    baseline: bool = False
    title: str = ""  # the run in full, shown when the pointer rests on its legend entry


def legend_lines(text: str, note: str, width_px: float) -> list[list[tuple[str, bool]]]:
    """`text` and then `note` (muted) as lines of (word, muted) that fit `width_px` at the
    legend's widest character, broken between words (a single longer word is cut with an
    ellipsis: no line runs past)."""
    limit = max(8, int(width_px // LEGEND_CHAR_PX))
    words = [(w, False) for w in text.split()] + [(w, True) for w in note.split()]
    lines: list[list[tuple[str, bool]]] = []
    used = 0
    for word, muted in words:
        if len(word) > limit:
            word = word[: limit - 1] + "…"
        if lines and used + 1 + len(word) <= limit:
            lines[-1].append((word, muted))
            used += 1 + len(word)
        else:
            lines.append([(word, muted)])
            used = len(word)
    return lines or [[("", False)]]


def _attr(value: object) -> str:
    return escape(str(value), quote=True)


def _nice_step(span: float, target: int = 5) -> float:
    raw = span / max(target, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * magnitude:
            return m * magnitude
    return 10 * magnitude


def _linear_ticks(lo: float, hi: float) -> list[float]:
    step = _nice_step(hi - lo)
    start = math.ceil(lo / step) * step
    ticks = []
    t = start
    while t <= hi + step * 1e-9:
        ticks.append(0.0 if abs(t) < step * 1e-9 else t)
        t += step
    return ticks


def _decade_ticks(lo_exp: int, hi_exp: int) -> list[int]:
    stride = max(1, math.ceil((hi_exp - lo_exp) / 8))
    return list(range(lo_exp, hi_exp + 1, stride))


def empty_chart(svg_id: str, title: str, width: int, message: str) -> str:
    return (
        f'<svg id="{_attr(svg_id)}" data-points="0" role="img" width="{width}" height="60" '
        f'viewBox="0 0 {width} 60">'
        f"<title>{escape(title)}</title>"
        f'<text x="{width // 2}" y="34" text-anchor="middle" class="empty">{escape(message)}</text>'
        "</svg>"
    )


class _Axis:
    """Maps data values to pixels on a linear or log10 scale."""

    def __init__(self, lo: float, hi: float, px_lo: float, px_hi: float, log: bool) -> None:
        self.log = log
        self.lo, self.hi = (math.log10(lo), math.log10(hi)) if log else (lo, hi)
        self.px_lo, self.px_hi = px_lo, px_hi

    def __call__(self, value: float) -> float:
        v = math.log10(value) if self.log else value
        return self.px_lo + (v - self.lo) / (self.hi - self.lo) * (self.px_hi - self.px_lo)


def _y_range(finite: list[float]) -> tuple[float, float, bool]:
    lo, hi = min(finite), max(finite)
    positive = lo > 0
    if positive and math.log10(hi / lo) > LOG_DECADES_THRESHOLD:
        return 10 ** math.floor(math.log10(lo)), 10 ** math.ceil(math.log10(hi)), True
    if hi == lo:
        pad = abs(hi) * 0.05 or 1.0
        return lo - pad, hi + pad, False
    pad = (hi - lo) * 0.05
    return lo - pad, hi + pad, False


def line_chart(
    svg_id: str,
    title: str,
    series: Sequence[Series],
    *,
    x_label: str,
    y_label: str,
    width: int = 880,
    height: int = 320,
) -> str:
    """Overlaid curves, one per series, with a legend under the plot.

    Non-finite values break the curve and are marked with a cross on the top edge.
    """
    finite = [v for s in series for v in s.values if math.isfinite(v)]
    if not finite:
        return empty_chart(svg_id, title, width, "no finite loss values were recorded")
    lo, hi, log = _y_range(finite)
    left, right, top, bottom = 70, 20, 14, 44
    plot_h = height - top - bottom
    n_max = max(len(s.values) for s in series)
    x = _Axis(0, max(n_max - 1, 1), left, width - right, log=False)
    y = _Axis(lo, hi, top + plot_h, top, log=log)

    out: list[str] = []
    # Grid and tick labels.
    y_ticks = (
        [10.0**e for e in _decade_ticks(round(y.lo), round(y.hi))] if log else _linear_ticks(lo, hi)
    )
    for t in y_ticks:
        py = y(t)
        label = f"1e{round(math.log10(t))}" if log else fmt_num(t)
        out.append(
            f'<line class="grid" x1="{left}" x2="{width - right}" y1="{py:.1f}" y2="{py:.1f}"/>'
        )
        out.append(
            f'<text class="tick" x="{left - 6}" y="{py + 4:.1f}" text-anchor="end">{label}</text>'
        )
    for t in _linear_ticks(0, max(n_max - 1, 1)):
        if t != int(t):
            continue
        px = x(t)
        out.append(
            f'<text class="tick" x="{px:.1f}" y="{top + plot_h + 16}" text-anchor="middle">{int(t)}</text>'
        )
    out.append(
        f'<rect class="frame" x="{left}" y="{top}" width="{width - left - right}" height="{plot_h}"/>'
    )
    out.append(
        f'<text class="axis" x="{(left + width - right) / 2:.0f}" y="{height - 8}" '
        f'text-anchor="middle">{escape(x_label)}</text>'
    )
    scale_note = " (log scale)" if log else ""
    out.append(
        f'<text class="axis" transform="translate(16 {top + plot_h / 2:.0f}) rotate(-90)" '
        f'text-anchor="middle">{escape(y_label + scale_note)}</text>'
    )

    drawn = 0
    legend: list[tuple[str, str, str]] = []
    color_index = 0
    for s in series:
        if s.baseline:
            color, stroke = BASELINE_COLOR, 2.5
        else:
            color, stroke = PALETTE[color_index % len(PALETTE)], 1.75
            color_index += 1
        segments: list[list[tuple[float, float]]] = [[]]
        crosses: list[float] = []
        for i, v in enumerate(s.values):
            if math.isfinite(v):
                segments[-1].append((x(i), y(v)))
            else:
                crosses.append(x(i))
                if segments[-1]:
                    segments.append([])
        points = sum(len(seg) for seg in segments)
        drawn += points
        d = " ".join(
            "M" + " L".join(f"{px:.1f},{py:.1f}" for px, py in seg)
            for seg in segments
            if len(seg) > 1
        )
        if d:
            out.append(
                f'<path class="series" data-run="{_attr(s.label)}" d="{d}" fill="none" '
                f'stroke="{color}" stroke-width="{stroke}" stroke-linejoin="round"/>'
            )
        for seg in segments:
            if len(seg) == 1:  # a lone point between non-finite values still shows
                px, py = seg[0]
                out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{color}"/>')
        for px in crosses:
            out.append(
                f'<text class="nonfinite" x="{px:.1f}" y="{top + 10}" text-anchor="middle" '
                f'fill="{color}">×</text>'
            )
        note = f"{points} points"
        if crosses:
            note += f", {len(crosses)} non-finite (× on the top edge)"
        if not s.values:
            note = "no losses recorded"
        legend.append((color, s, note))

    ly = height + 4
    for color, s, note in legend:
        out.append(
            f'<line x1="{left}" x2="{left + 26}" y1="{ly + 8}" y2="{ly + 8}" stroke="{color}" '
            f'stroke-width="3"/>'
        )
        # the name and its note, wrapped to the width: a name cut short could make two
        # runs' entries read alike
        lines = legend_lines(s.label, f"({note})", width - right - (left + 34))
        tip = f"<title>{escape(s.title)}</title>" if s.title else ""
        out.append(f'<text class="legend" x="{left + 34}" y="{ly + 12}">{tip}')
        for i, line in enumerate(lines):
            dy = "" if i == 0 else ' dy="16"'
            name = " ".join(w for w, muted in line if not muted)
            note_part = " ".join(w for w, muted in line if muted)
            if note_part:
                note_part = f'<tspan class="muted">{escape(note_part)}</tspan>'
            gap = " " if name and note_part else ""
            out.append(f'<tspan x="{left + 34}"{dy}>{escape(name)}{gap}{note_part}</tspan>')
        out.append("</text>")
        ly += 4 + 16 * len(lines)
    total_h = ly + 6
    return (
        f'<svg id="{_attr(svg_id)}" data-points="{drawn}" data-scale="{"log" if log else "linear"}" '
        f'role="img" width="{width}" height="{total_h}" viewBox="0 0 {width} {total_h}">'
        f"<title>{escape(title)}</title>" + "".join(out) + "</svg>"
    )


def log_bar_chart(
    svg_id: str,
    title: str,
    bars: Sequence[tuple[str, float | None]],
    *,
    value_label: str,
    reference: tuple[float, str] | None = None,
    width: int = 880,
    max_bars: int = 120,
) -> str:
    """Horizontal bars on a log10 axis, one row per named value.

    None, zero, negative and non-finite values cannot sit on a log axis: their row
    carries the value as text instead of a bar.
    """
    shown = list(bars[:max_bars])
    drawable = [v for _, v in shown if v is not None and math.isfinite(v) and v > 0]
    if not shown:
        return empty_chart(svg_id, title, width, "no per-layer values were recorded")
    refs = [reference[0]] if reference else []
    domain = drawable + refs
    if domain:
        lo_exp = math.floor(math.log10(min(domain)))
        hi_exp = math.ceil(math.log10(max(domain)))
        if hi_exp == lo_exp:
            hi_exp += 1
    else:
        lo_exp, hi_exp = -3, 0
    name_w, right, top, row_h = 230, 70, 26, 18
    plot_bottom = top + row_h * len(shown)
    height = plot_bottom + 34 + (16 if len(bars) > len(shown) else 0)
    axis = _Axis(10.0**lo_exp, 10.0**hi_exp, name_w, width - right, log=True)

    out: list[str] = []
    for e in _decade_ticks(lo_exp, hi_exp):
        px = axis(10.0**e)
        out.append(
            f'<line class="grid" x1="{px:.1f}" x2="{px:.1f}" y1="{top}" y2="{plot_bottom}"/>'
        )
        out.append(
            f'<text class="tick" x="{px:.1f}" y="{plot_bottom + 14}" text-anchor="middle">1e{e}</text>'
        )
    drawn = 0
    for i, (name, value) in enumerate(shown):
        ry = top + i * row_h
        short = name if len(name) <= 32 else name[:31] + "…"
        out.append(
            f'<text class="legend" x="{name_w - 8}" y="{ry + 13}" text-anchor="end">'
            f"<title>{escape(name)}</title>{escape(short)}</text>"
        )
        if value is not None and math.isfinite(value) and value > 0:
            end = axis(value)
            out.append(
                f'<rect class="bar" x="{name_w}" y="{ry + 3}" width="{max(end - name_w, 1):.1f}" '
                f'height="{row_h - 6}" fill="{BAR_COLOR}"><title>{escape(name)}: '
                f"{fmt_num(value)}</title></rect>"
            )
            out.append(
                f'<text class="tick" x="{end + 4:.1f}" y="{ry + 13}">{fmt_num(value)}</text>'
            )
            drawn += 1
        else:
            text = (
                "none (no gradient)" if value is None else f"{fmt_num(value)} (not on a log axis)"
            )
            out.append(
                f'<text class="tick" x="{name_w + 4}" y="{ry + 13}" fill="{WARN_COLOR}">'
                f"{escape(text)}</text>"
            )
    out.append(
        f'<rect class="frame" x="{name_w}" y="{top}" width="{width - right - name_w}" '
        f'height="{plot_bottom - top}"/>'
    )
    if reference is not None:
        px = axis(reference[0])
        out.append(
            f'<line class="reference" x1="{px:.1f}" x2="{px:.1f}" y1="{top - 6}" y2="{plot_bottom}"/>'
        )
        out.append(
            f'<text class="reference-label" x="{px:.1f}" y="{top - 10}" text-anchor="middle">'
            f"{escape(reference[1])}</text>"
        )
    out.append(
        f'<text class="axis" x="{(name_w + width - right) / 2:.0f}" y="{plot_bottom + 30}" '
        f'text-anchor="middle">{escape(value_label)} (log scale)</text>'
    )
    if len(bars) > len(shown):
        out.append(
            f'<text class="muted" x="{name_w}" y="{height - 4}">{len(bars) - len(shown)} more '
            "layers not drawn (see the JSON report)</text>"
        )
    return (
        f'<svg id="{_attr(svg_id)}" data-points="{drawn}" data-scale="log" role="img" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
        f"<title>{escape(title)}</title>" + "".join(out) + "</svg>"
    )
