"""Small charts as inline SVG text: bars with 95% intervals, box plots, histograms.

A playtest report is one HTML file that opens offline; its charts are written here as SVG
elements, a few dozen shapes each, rather than drawn by a plotting library into image files: the
report needs no extra to be installed, and its charts stay text (searchable, diffable, and
sharp at any zoom). Each chart is a fixed-size ``<svg>`` with a ``viewBox``, so the page scales it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from html import escape

import attrs

#: one colour per series: the rule set, then the one set against it
SERIES = ("#4c72b0", "#dd8452")
W, H = 520, 250
LEFT, RIGHT, TOP, BOTTOM = 56, 12, 28, 46


@attrs.frozen
class Bar:
    value: float
    low: float | None = None
    high: float | None = None


def _f(x: float) -> str:
    return f"{x:.1f}"


def _fmt(v: float, percent: bool) -> str:
    return f"{v:.0%}" if percent else f"{v:g}"


def nice_ticks(lo: float, hi: float, n: int = 5, whole: bool = False) -> list[float]:
    """Round ticks from about ``lo`` to ``hi``: steps of 1, 2, 2.5 or 5 times a power of ten."""
    span = hi - lo or 1
    raw = span / n
    mag = 10 ** math.floor(math.log10(raw))
    step = min((m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw), default=10 * mag)
    if whole:  # counts: no tick between two whole numbers
        step = max(1, math.ceil(step))
    start = math.floor(lo / step) * step
    ticks, v = [], start
    while v <= hi + step * 1e-9:
        ticks.append(round(v, 10))
        v += step
    return ticks


def frame(
    title: str, lo: float, hi: float, percent: bool, whole: bool = False, top_tick: bool = False,
) -> tuple[list[str], Callable[[float], float]]:
    """A chart's start: its title and the y axis's grid from ``lo`` to ``hi``, and the function
    that places a value on it. ``top_tick``: a tick above ``hi`` when the last falls short of it
    (a whisker's top is read against the scale)."""
    ticks = nice_ticks(lo, hi, whole=whole)
    if top_tick and len(ticks) > 1 and ticks[-1] < hi - 1e-9:
        ticks.append(round(2 * ticks[-1] - ticks[-2], 10))
    lo, hi = min(lo, ticks[0]), max(hi, ticks[-1])

    def y(v: float) -> float:
        return TOP + (H - TOP - BOTTOM) * (1 - (v - lo) / ((hi - lo) or 1))

    parts = [f'<svg class="chart" viewBox="0 0 {W} {H}" role="img"><title>{escape(title)}</title>',
             f'<text x="{W / 2}" y="16" text-anchor="middle" font-size="13" font-weight="bold">{escape(title)}</text>']
    for t in ticks:
        parts.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{_f(y(t))}" y2="{_f(y(t))}" stroke="#ddd"/>'
                     f'<text x="{LEFT - 4}" y="{_f(y(t) + 4)}" text-anchor="end" font-size="10">{_fmt(t, percent)}</text>')
    return parts, y


def _axis_labels(parts: list[str], x_label: str, y_label: str) -> None:
    """What each axis counts, and in which unit: under the x axis's categories, and along the y axis."""
    if x_label:
        parts.append(f'<text class="axis-label" x="{_f(LEFT + (W - LEFT - RIGHT) / 2)}" y="{H - BOTTOM + 28}" '
                     f'text-anchor="middle" font-size="11" fill="#333">{escape(x_label)}</text>')
    if y_label:
        mid = TOP + (H - TOP - BOTTOM) / 2
        parts.append(f'<text class="axis-label" x="13" y="{_f(mid)}" text-anchor="middle" font-size="11" fill="#333" '
                     f'transform="rotate(-90 13 {_f(mid)})">{escape(y_label)}</text>')


def _legend(parts: list[str], labels: Sequence[str]) -> None:
    if len(labels) < 2:
        return
    for i, label in enumerate(labels):
        x = LEFT + 8 + i * 170
        parts.append(f'<rect x="{x}" y="{H - 14}" width="10" height="10" fill="{SERIES[i % len(SERIES)]}"/>'
                     f'<text x="{x + 14}" y="{H - 5}" font-size="10">{escape(label)}</text>')


def bar_chart(
    title: str, categories: Sequence[str], series: Sequence[tuple[str, Sequence[Bar | None]]],
    percent: bool = True, reference: float | None = None, x_label: str = "", y_label: str = "",
) -> str:
    """Grouped bars, one group per category and one bar per series, each with its interval as a
    whisker; ``reference`` draws a dashed line (e.g. the win rate of an even game); ``x_label``
    and ``y_label`` say what the axes count (every chart of a report labels both)."""
    bars = [b for _, values in series for b in values if b is not None]
    lo = min([0.0, *(b.low if b.low is not None else b.value for b in bars)])
    hi = max([0.0, *(b.high if b.high is not None else b.value for b in bars), reference or 0.0]) or 1.0
    parts, y = frame(title, lo, hi, percent)
    group = (W - LEFT - RIGHT) / max(1, len(categories))
    width = min(36.0, group * 0.8 / max(1, len(series)))
    for c, cat in enumerate(categories):
        gx = LEFT + c * group + (group - width * len(series)) / 2
        for s, (label, values) in enumerate(series):
            b = values[c]
            if b is None:
                continue
            x = gx + s * width
            top, base = y(max(b.value, 0)), y(min(b.value, 0))
            tip = f"{label}: {cat} {_fmt(b.value, percent)}" + (
                f" [{_fmt(b.low, percent)}, {_fmt(b.high, percent)}]" if b.low is not None else "")
            parts.append(f'<g><title>{escape(tip)}</title><rect x="{_f(x + 1)}" y="{_f(top)}" width="{_f(width - 2)}" '
                         f'height="{_f(max(base - top, 0.5))}" fill="{SERIES[s % len(SERIES)]}"/>')
            if b.low is not None and b.high is not None:
                mx = x + width / 2
                parts.append(f'<line x1="{_f(mx)}" x2="{_f(mx)}" y1="{_f(y(b.low))}" y2="{_f(y(b.high))}" stroke="#222"/>'
                             f'<line x1="{_f(mx - 4)}" x2="{_f(mx + 4)}" y1="{_f(y(b.low))}" y2="{_f(y(b.low))}" stroke="#222"/>'
                             f'<line x1="{_f(mx - 4)}" x2="{_f(mx + 4)}" y1="{_f(y(b.high))}" y2="{_f(y(b.high))}" stroke="#222"/>')
            parts.append("</g>")
        parts.append(f'<text x="{_f(LEFT + c * group + group / 2)}" y="{H - BOTTOM + 14}" text-anchor="middle" '
                     f'font-size="10">{escape(cat)}</text>')
    if reference is not None:
        parts.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{_f(y(reference))}" y2="{_f(y(reference))}" '
                     f'stroke="#900" stroke-dasharray="5 3"/><text x="{W - RIGHT}" y="{_f(y(reference) - 3)}" '
                     f'text-anchor="end" font-size="9" fill="#900">even game {_fmt(reference, percent)}</text>')
    parts.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{_f(y(0))}" y2="{_f(y(0))}" stroke="#444"/>')
    _axis_labels(parts, x_label, y_label)
    _legend(parts, [label for label, _ in series])
    parts.append("</svg>")
    return "".join(parts)


def box_plot(
    title: str, categories: Sequence[str], series: Sequence[tuple[str, Sequence[Mapping[str, float] | None]]],
    x_label: str = "", y_label: str = "",
) -> str:
    """One box per category and series from quantiles (``min``, ``p10``, ``p25``, ``median``,
    ``p75``, ``p90``, ``max``): box p25-p75, median line, whiskers p10-p90, dots at min and max."""
    qs = [q for _, values in series for q in values if q is not None]
    parts, y = frame(title, min(q["min"] for q in qs), max(q["max"] for q in qs), False)
    group = (W - LEFT - RIGHT) / max(1, len(categories))
    width = min(40.0, group * 0.8 / max(1, len(series)))
    for c, cat in enumerate(categories):
        gx = LEFT + c * group + (group - width * len(series)) / 2
        for s, (label, values) in enumerate(series):
            q = values[c]
            if q is None:
                continue
            x, mx = gx + s * width + 2, gx + s * width + width / 2
            color = SERIES[s % len(SERIES)]
            tip = f"{label}: {cat} " + ", ".join(f"{k} {v:g}" for k, v in q.items())
            parts.append(f'<g><title>{escape(tip)}</title>'
                         f'<line x1="{_f(mx)}" x2="{_f(mx)}" y1="{_f(y(q["p10"]))}" y2="{_f(y(q["p90"]))}" stroke="#222"/>'
                         f'<rect x="{_f(x)}" y="{_f(y(q["p75"]))}" width="{_f(width - 4)}" '
                         f'height="{_f(max(y(q["p25"]) - y(q["p75"]), 0.5))}" fill="{color}" fill-opacity=".75" stroke="#222"/>'
                         f'<line x1="{_f(x)}" x2="{_f(x + width - 4)}" y1="{_f(y(q["median"]))}" y2="{_f(y(q["median"]))}" '
                         f'stroke="#000" stroke-width="2"/>'
                         f'<circle cx="{_f(mx)}" cy="{_f(y(q["min"]))}" r="2" fill="#222"/>'
                         f'<circle cx="{_f(mx)}" cy="{_f(y(q["max"]))}" r="2" fill="#222"/></g>')
        parts.append(f'<text x="{_f(LEFT + c * group + group / 2)}" y="{H - BOTTOM + 14}" text-anchor="middle" '
                     f'font-size="10">{escape(cat)}</text>')
    _axis_labels(parts, x_label, y_label)
    _legend(parts, [label for label, _ in series])
    parts.append("</svg>")
    return "".join(parts)


def histogram(
    title: str, edges: Sequence[float], counts: Sequence[int], color: str = SERIES[0], x_label: str = "",
    y_label: str = "",
) -> str:
    """Counts per bin ``[edges[i], edges[i+1])``, each bar's left edge marked on the x axis."""
    parts, y = frame(title, 0, max(counts) or 1, False, whole=True)
    width = (W - LEFT - RIGHT) / max(1, len(counts))
    for i, n in enumerate(counts):
        x = LEFT + i * width
        parts.append(f'<g><title>{edges[i]:g}-{edges[i + 1] - 1:g}: {n}</title><rect x="{_f(x + 1)}" y="{_f(y(n))}" '
                     f'width="{_f(width - 2)}" height="{_f(y(0) - y(n))}" fill="{color}"/></g>')
    for i in range(0, len(edges), max(1, len(edges) // 6)):
        parts.append(f'<text x="{_f(LEFT + i * width)}" y="{H - BOTTOM + 14}" text-anchor="middle" font-size="10">{edges[i]:g}</text>')
    _axis_labels(parts, x_label, y_label)
    parts.append("</svg>")
    return "".join(parts)
