"""A parameter sweep (:mod:`ttr_analysis.sweep`) as one self-contained HTML page of curves.

Per player count: the winner-change rate against the base rule set, the score spread, the first
seat's win rate and each behaviour figure, drawn against the swept value as inline SVG line charts
(a point per value with its 95% interval as a whisker, both axes labelled, the scale in the axis'
ticks), then the same figures as a table. As on the playtest page, every number of the table
carries its place in the JSON (``data-figure``) and its value there (``data-value``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

import attrs

from ttr_analysis.behaviour import FIGURES
from ttr_analysis.behaviour_html import estimate_cell
from ttr_analysis.svg_charts import BOTTOM, H, LEFT, RIGHT, SERIES, TOP, W, frame


STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1180px; padding: 0 12px 40px; color: #222; }
h1 { font-size: 22px; margin: 18px 0 4px; } h2 { border-bottom: 2px solid #4c72b0; padding-bottom: 3px; margin-top: 32px; }
.charts { display: flex; flex-wrap: wrap; gap: 8px; } .charts svg { width: 520px; max-width: 100%; height: auto; }
.scroll { overflow-x: auto; } table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: right; } th { background: #f2f2f2; }
th:first-child, td:first-child { text-align: left; } td.up { color: #b2182b; } td.down { color: #2166ac; }
.note { color: #555; font-size: 13px; } code { background: #f4f4f4; padding: 0 3px; }
"""


@attrs.frozen
class Point:
    x: float
    mean: float
    low: float | None
    high: float | None


def _f(v: float) -> str:
    return f"{v:.1f}"


def _tick(v: float, percent: bool) -> str:
    return f"{v:.0%}" if percent else f"{v:g}"


def positions(values: Sequence[str]) -> tuple[list[float], bool]:
    """Where each value sits on the x axis: the numbers themselves when every value is one, else
    evenly spaced (then the axis is a list of categories)."""
    try:
        return [float(v) for v in values], True
    except ValueError:
        return [float(i) for i in range(len(values))], False


def line_chart(title: str, x_label: str, y_label: str, values: Sequence[str], points: Sequence[Point | None],
               percent: bool = False, reference: float | None = None) -> str:
    """One curve: a point per value with its 95% interval; axes labelled ``x_label`` and ``y_label``."""
    xs, numeric = positions(values)
    shown = [p for p in points if p is not None]
    if not shown:
        return ""
    lo = min([*(p.low if p.low is not None else p.mean for p in shown), *([reference] if reference is not None else [])])
    hi = max([*(p.high if p.high is not None else p.mean for p in shown), *([reference] if reference is not None else [])])
    if percent:
        lo = min(lo, 0.0)
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    parts, Y = frame(title, lo, hi, percent, top_tick=True)
    x_lo, x_hi = min(xs), max(xs)
    span = (x_hi - x_lo) or 1

    def X(v: float) -> float:
        return LEFT + 12 + (W - LEFT - RIGHT - 24) * ((v - x_lo) / span if x_hi > x_lo else 0.5)

    for v, x in zip(values, xs):
        parts.append(f'<text x="{_f(X(x))}" y="{H - BOTTOM + 15}" text-anchor="middle" font-size="10">{escape(v)}</text>')
    parts.append(f'<text x="{(LEFT + W - RIGHT) / 2}" y="{H - 10}" text-anchor="middle" font-size="11">'
                 f'{escape(x_label)}{"" if numeric else " (values in the order given)"}</text>')
    parts.append(f'<text transform="translate(14 {(TOP + H - BOTTOM) / 2}) rotate(-90)" text-anchor="middle" '
                 f'font-size="11">{escape(y_label)}</text>')
    if reference is not None:
        parts.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{_f(Y(reference))}" y2="{_f(Y(reference))}" '
                     f'stroke="#900" stroke-dasharray="5 3"/>')
    line = [(X(x), Y(p.mean)) for x, p in zip(xs, points) if p is not None]
    parts.append('<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>'.format(
        SERIES[0], " ".join(f"{_f(a)},{_f(b)}" for a, b in line)))
    for v, x, p in zip(values, xs, points):
        if p is None:
            continue
        tip = f"{v}: {_tick(p.mean, percent) if percent else f'{p.mean:.2f}'}"
        whisker = ""
        if p.low is not None and p.high is not None:
            tip += f" [{_tick(p.low, percent) if percent else f'{p.low:.2f}'}, {_tick(p.high, percent) if percent else f'{p.high:.2f}'}]"
            whisker = (f'<line x1="{_f(X(x))}" x2="{_f(X(x))}" y1="{_f(Y(p.low))}" y2="{_f(Y(p.high))}" stroke="#222"/>'
                       f'<line x1="{_f(X(x) - 4)}" x2="{_f(X(x) + 4)}" y1="{_f(Y(p.low))}" y2="{_f(Y(p.low))}" stroke="#222"/>'
                       f'<line x1="{_f(X(x) - 4)}" x2="{_f(X(x) + 4)}" y1="{_f(Y(p.high))}" y2="{_f(Y(p.high))}" stroke="#222"/>')
        parts.append(f'<g><title>{escape(tip)}</title>{whisker}<circle cx="{_f(X(x))}" cy="{_f(Y(p.mean))}" r="3.5" '
                     f'fill="{SERIES[0]}"/></g>')
    parts.append("</svg>")
    return "".join(parts)


def _point(e: Mapping[str, Any] | None) -> Point | None:
    if not e or e.get("mean") is None:
        return None
    return Point(0.0, e["mean"], e.get("low"), e.get("high"))


#: the curves of a player count: key path in a value's entry, chart title, y axis label, percent?
CURVES = (
    (("winner_changes",), "Winner changes against the base", "share of games", True),
    (("score_spread",), "Score spread: highest − lowest total", "points", False),
    (("seat1_win_rate",), "First seat's win rate", "share of games won", True),
    *((("behaviour", key), words[0].upper() + words[1:], unit, False) for (key, words), unit
      in zip(FIGURES, ("tickets", "tickets", "spaces", "stations", "turns"))),
)
#: the head of each column of the table
COLUMNS = ("winner changes", "score spread", "seat 1 wins", *(words for _, words in FIGURES))


def _get(entry: Mapping[str, Any], keys: Sequence[str]) -> Any:
    for k in keys:
        entry = entry.get(k) if isinstance(entry, Mapping) else None
    return entry


def render(report: Mapping[str, Any]) -> str:
    """The whole page."""
    param = report["parameter"]
    title = f"Sweep of {param} on {report['variant']}"
    mode = ("played under each value by bots that play to the rules in force (--play)" if report["mode"] == "play"
            else "the base's games scored under each value (--rescore): the behaviour is the base's at every value")
    seeds = report["seeds"]
    parts = [
        "<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p>Values {escape(", ".join(report["values"]))}; {report["games"]} games per value and player count '
        f'({", ".join(map(str, report["players"]))} players), seeds {seeds[0]}–{seeds[1]}, map <code>{escape(report["map"])}</code>; '
        f'bots {escape(", ".join(report["bots"]))}, rotated over the seats; {escape(mode)}.</p>',
        _until_line(report),
    ]
    for p, count in report["counts"].items():
        parts.append(_count(report, p, count))
    parts.append(f'<footer><h2>Method</h2><p class="note">{escape(report["method"])}</p></footer></body></html>')
    return "\n".join(parts)


def _until_line(report: Mapping[str, Any]) -> str:
    u = report.get("until")
    if not u:
        return ""
    rounds = " → ".join(f"{r['games']} games (widest {r['widest']:.1%})" for r in u["rounds"])
    verdict = "reached" if u["reached"] else f"not reached: the cap of {u['cap']} games stopped it"
    return f'<p class="note">--until {u["width"]:.1%}: {escape(rounds)}; {verdict}.</p>'


def _count(report: Mapping[str, Any], p: str, count: Mapping[str, Any]) -> str:
    values = [v["value"] for v in count["values"]]
    charts = []
    played = report["mode"] == "play"
    for keys, chart_title, y_label, percent in CURVES:
        if keys[0] == "behaviour" and not played:
            continue  # rescored: the same games at every value, flat lines (the table still has them)
        points = [_point(_get(v, keys)) for v in count["values"]]
        ref = 1 / int(p) if keys == ("seat1_win_rate",) else None
        charts.append(line_chart(f"{chart_title}, {p} players", report["parameter"], y_label, values, points, percent, ref))
    head = "".join(f"<th>{escape(words)}</th>" for words in COLUMNS)
    rows = []
    for i, v in enumerate(count["values"]):
        base = ["counts", p, "values", str(i)]
        cells = "".join(estimate_cell([*base, *keys], _get(v, keys), percent=percent) for keys, _, _, percent in CURVES)
        rows.append(f"<tr><td>{escape(v['value'])}</td>{cells}</tr>")
    return (f'<section id="p{p}"><h2>{p} players</h2><div class="charts">{"".join(charts)}</div>'
            '<p class="note">Each point: the mean at that value, its whisker the 95% interval. The dashed line on the '
            "first seat's chart is an even game's win rate (1/players).</p>"
            f'<div class="scroll"><table><tr><th>{escape(report["parameter"])}</th>{head}</tr>{"".join(rows)}</table></div></section>')
