"""A board drawn as SVG from a map's city coordinates, its routes and cities coloured by a value:
a heat map of how often each is claimed, or of a difference between two rule sets.

The layout is the one of the server's play page (``ttr_server/static/play.js``, drawn there in
the browser): an equirectangular projection around the map's middle latitude, 1000 units wide,
routes joining the same two cities side by side, each route a row of cars. Here it is drawn in
Python, so that a report is one file that opens offline, with nothing to run.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from html import escape

import attrs

from ttr_core.board import Board

WIDTH = 1000
PAD = 50
#: ColorBrewer's YlOrRd (sequential) and RdBu reversed (diverging): readable in print and for the
#: common forms of colour blindness
SEQUENTIAL = ("#ffffcc", "#fed976", "#fd8d3c", "#e31a1c", "#800026")
DIVERGING = ("#2166ac", "#67a9cf", "#f7f7f7", "#ef8a62", "#b2182b")
NO_DATA = "#d9d9d9"


@attrs.frozen
class Layout:
    pos: Mapping[str, tuple[float, float]]  # city name -> (x, y)
    width: int
    height: int
    offset: Mapping[str, float]  # route id -> sideways offset (doubles side by side)


def layout(board: Board) -> Layout:
    lats = [c.lat for c in board.cities]
    mid = math.radians((min(lats) + max(lats)) / 2)
    raw = {c.name: (c.lon * math.cos(mid), -c.lat) for c in board.cities}
    xs = [p[0] for p in raw.values()]
    ys = [p[1] for p in raw.values()]
    scale = (WIDTH - 2 * PAD) / max(max(xs) - min(xs), 1e-9)
    height = round((max(ys) - min(ys)) * scale + 2 * PAD)
    pos = {n: (PAD + (x - min(xs)) * scale, PAD + (y - min(ys)) * scale) for n, (x, y) in raw.items()}
    groups: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for r in board.routes:
        groups[tuple(sorted((r.a, r.b)))].append(r.id)
    offset = {rid: (i - (len(ids) - 1) / 2) * 10 for ids in groups.values() for i, rid in enumerate(ids)}
    return Layout(pos, WIDTH, height, offset)


@attrs.frozen
class Scale:
    """Values to colours: ``low``..``high`` over ``colors``, evenly spaced."""

    low: float
    high: float
    colors: tuple[str, ...] = SEQUENTIAL
    label: str = ""
    percent: bool = True  # legend values as percentages

    @classmethod
    def diverging(cls, values: Sequence[float | None], label: str = "") -> Scale:
        m = max((abs(v) for v in values if v is not None), default=0) or 0.01
        return cls(-m, m, DIVERGING, label)

    def color(self, value: float | None) -> str:
        if value is None or math.isnan(value):
            return NO_DATA
        t = 0.0 if self.high == self.low else (value - self.low) / (self.high - self.low)
        t = min(1.0, max(0.0, t)) * (len(self.colors) - 1)
        i = min(int(t), len(self.colors) - 2)
        return _mix(self.colors[i], self.colors[i + 1], t - i)

    def text(self, value: float) -> str:
        return f"{value:+.0%}" if self.percent and self.low < 0 else f"{value:.0%}" if self.percent else f"{value:.2g}"


def _mix(a: str, b: str, t: float) -> str:
    ca = [int(a[i : i + 2], 16) for i in (1, 3, 5)]
    cb = [int(b[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ca, cb))


def _f(x: float) -> str:
    return f"{x:.1f}"


def heat_map(
    board: Board,
    routes: Mapping[str, float | None],
    cities: Mapping[str, float | None],
    scale: Scale,
    title: str,
    notes: Mapping[str, str] | None = None,
    instead_of_legend: str = "",
) -> str:
    """The board as an ``<svg>`` element: each route's cars in the colour of ``routes[id]``, each
    city's dot in the colour of ``cities[name]`` (both on ``scale``), a hover title per route and
    city (``notes`` adds text by route id or city name), and a legend of the scale, or
    ``instead_of_legend`` written there (a difference map with no difference says so)."""
    geo = layout(board)
    notes = notes or {}
    out = [f'<svg class="board" viewBox="0 0 {geo.width} {geo.height + 40}" role="img">'
           f'<title>{escape(title)}</title>',
           f'<rect width="{geo.width}" height="{geo.height + 40}" fill="#f3efe6"/>']
    for r in board.routes:
        out.append(_route(r, geo, scale.color(routes.get(r.id)), notes.get(r.id, "")))
    for c in board.cities:
        x, y = geo.pos[c.name]
        tip = c.name + (f": {notes[c.name]}" if c.name in notes else "")
        out.append(f'<g class="city" data-city="{escape(c.name)}"><title>{escape(tip)}</title>'
                   f'<circle cx="{_f(x)}" cy="{_f(y)}" r="5.5" fill="{scale.color(cities.get(c.name))}" '
                   f'stroke="#3b2f2a" stroke-width="1.5"/>'
                   f'<text x="{_f(x + 7)}" y="{_f(y - 6)}" font-size="10" fill="#222" paint-order="stroke" '
                   f'stroke="#f3efe6" stroke-width="3">{escape(c.name)}</text></g>')
    out.append(_note(instead_of_legend, geo.height) if instead_of_legend else _legend(scale, geo.height))
    out.append("</svg>")
    return "".join(out)


def _route(r, geo: Layout, fill: str, note: str) -> str:
    """A route as its row of cars, drawn along the x axis of a group moved and turned onto the
    line between its cities (shifted sideways for a double); the cars inherit the group's colours."""
    (ax, ay), (bx, by) = geo.pos[r.a], geo.pos[r.b]
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy) or 1
    margin, gap = min(9, length / 6), 1.5
    car = max((length - 2 * margin - gap * (r.length - 1)) / r.length, 2)
    angle = math.degrees(math.atan2(dy, dx))
    dash = ' stroke-dasharray="2 1.5"' if r.tunnel else ""
    cars = "".join(f'<rect x="{_f(margin + i * (car + gap))}" y="{_f(geo.offset[r.id] - 4)}" width="{_f(car)}" height="8" rx="1.2"/>'
                   for i in range(r.length))
    return (f'<g class="route" data-route="{escape(r.id)}" fill="{fill}" stroke="#333" stroke-width=".8"{dash} '
            f'transform="translate({_f(ax)} {_f(ay)}) rotate({_f(angle)})">'
            f'<title>{escape(r.id + (": " + note if note else ""))}</title>{cars}</g>')


def _note(text: str, top: float) -> str:
    return (f'<g class="legend"><text x="{PAD}" y="{_f(top + 26)}" font-size="22" font-weight="bold" fill="#222">'
            f"{escape(text)}</text></g>")


def _legend(scale: Scale, top: float) -> str:
    steps = 5
    parts = [f'<g class="legend" transform="translate({PAD} {_f(top + 8)})">']
    if scale.label:
        parts.append(f'<text x="0" y="14" font-size="12" fill="#222">{escape(scale.label)}</text>')
    x0 = 8 + 7 * len(scale.label) if scale.label else 0
    for i in range(steps):
        v = scale.low + (scale.high - scale.low) * i / (steps - 1)
        x = x0 + i * 70
        parts.append(f'<rect x="{x}" y="2" width="22" height="14" fill="{scale.color(v)}" stroke="#333" stroke-width=".6"/>'
                     f'<text x="{x + 26}" y="14" font-size="11" fill="#222">{escape(scale.text(v))}</text>')
    parts.append(f'<rect x="{x0 + steps * 70}" y="2" width="22" height="14" fill="{NO_DATA}" stroke="#333" stroke-width=".6"/>'
                 f'<text x="{x0 + steps * 70 + 26}" y="14" font-size="11" fill="#222">no data</text></g>')
    return "".join(parts)
