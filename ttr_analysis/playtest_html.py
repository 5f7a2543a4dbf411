"""The playtest report as one self-contained HTML page: the figures of ``playtest.playtest`` as
tables and inline SVG charts and board heat maps, with no script and no external reference, so it
opens offline and can be mailed as one file.

Every number shown in a table carries where it comes from in the report's JSON
(``data-figure``, a JSON list of keys) and its value there (``data-value``): the page and the
JSON cannot disagree unnoticed (the tests compare them).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

import attrs

from ttr_analysis import behaviour_html, board_svg, html_tables, playtest_front, svg_charts
from ttr_analysis.svg_charts import Bar
from ttr_core.board import Board

STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1180px; padding: 0 18px 40px; color: #222; background: #fff; }
h1 { font-size: 24px; margin: 18px 0 4px; } h2 { border-bottom: 2px solid #4c72b0; padding-bottom: 3px; margin-top: 36px; }
h3 { margin: 22px 0 6px; } .run { color: #444; margin: 0 0 8px; }
nav a { margin-right: 14px; white-space: nowrap; display: inline-block; } table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: right; vertical-align: top; }
th:first-child, td:first-child { text-align: left; } th { background: #f2f2f2; }
td.up { color: #b2182b; } td.down { color: #2166ac; }
.charts { display: flex; flex-wrap: wrap; gap: 8px; } .charts svg.chart { width: 520px; max-width: 100%; height: auto; }
.boards { display: flex; flex-wrap: wrap; gap: 10px; } .boards figure { margin: 0; flex: 1 1 540px; max-width: 49.5%; } .boards figure:only-child { max-width: 100%; }
td.t { text-align: left; } .boards p { flex: 1 1 100%; }
.boards svg { width: 100%; height: auto; border: 1px solid #ccc; } figcaption { font-size: 12px; color: #444; }
.note { color: #555; font-size: 13px; } code { background: #f4f4f4; padding: 0 3px; }
details { margin: 6px 0; } summary { cursor: pointer; color: #4c72b0; }
th, td, code, ul.changes li { overflow-wrap: break-word; }
.headline { font-size: 15px; background: #f3f6fb; border-left: 4px solid #4c72b0; padding: 8px 12px; margin: 10px 0 4px; }
ul.changes { padding-left: 20px; } ul.changes li.sub { margin-left: 20px; list-style: circle; } figcaption.no-difference { font-weight: bold; }
/* a phone (390 px): tables fill the width and wrap their cells, the boards stack; nothing scrolls sideways */
@media (max-width: 700px) {
  body { padding: 0 8px 24px; font-size: 13px; }
  table { width: 100%; table-layout: fixed; font-size: 11.5px; }
  th, td { padding: 2px 3px; overflow-wrap: anywhere; }
  .boards figure { max-width: 100%; flex-basis: 100%; }
}
"""


def _num(v: float | None, percent: bool, signed: bool = False) -> str:
    if v is None:
        return "–"
    if percent:
        return f"{v:+.1%}" if signed else f"{v:.1%}"
    return f"{v:+.1f}" if signed else f"{v:.1f}"


def _est_text(e: Mapping[str, Any] | None, percent: bool, signed: bool = False) -> str:
    if not e:
        return "–"
    text = _num(e["mean"], percent, signed)
    if e.get("low") is not None and e.get("high") is not None:
        text += f" [{_num(e['low'], percent, signed)}, {_num(e['high'], percent, signed)}]"
    if "k" in e and not signed:
        text += f" ({e['k']}/{e['n']})"
    return text


def _get(data: Any, keys: Sequence[str]) -> Any:
    for k in keys:
        if not isinstance(data, dict) or k not in data:
            return None
        data = data[k]
    return data


def _td(path: Sequence[str], e: Mapping[str, Any] | None, percent: bool, signed: bool = False) -> str:
    if not e:
        return "<td>–</td>"
    cls = ""
    if signed and e.get("low") is not None:
        cls = ' class="up"' if e["low"] > 0 else ' class="down"' if e["high"] < 0 else ""
    return (f"<td{cls} data-figure='{escape(json.dumps(list(path)))}' data-value='{json.dumps(e['mean'])}'>"
            f"{escape(_est_text(e, percent, signed))}</td>")


def _span(path: Sequence[str], e: Mapping[str, Any], percent: bool) -> str:
    return (f"<span data-figure='{escape(json.dumps(list(path)))}' data-value='{json.dumps(e['mean'])}'>"
            f"{escape(_est_text(e, percent))}</span>")


def _plain(path: Sequence[str], value: Any, text: str | None = None) -> str:
    """A cell for a plain number of the report (not an estimate)."""
    if value is None:
        return "<td>–</td>"
    return f"<td data-figure='{escape(json.dumps(list(path)))}' data-value='{json.dumps(value)}'>{escape(text or str(value))}</td>"


@attrs.frozen
class Count:
    """One player count of a report: where its figures are, and which sides it has."""

    report: Mapping[str, Any]
    players: str

    @property
    def sides(self) -> list[str]:
        return ["variant", "against"] if self.report["against"] else ["variant"]

    def label(self, side: str) -> str:
        return self.report[side]

    def fig(self, side: str = "variant") -> Mapping[str, Any]:
        return self.report["counts"][self.players][side]

    def cells(self, keys: Sequence[str], percent: bool) -> str:
        """The estimate at ``keys`` in each side's figures, then their difference."""
        out = [_td(["counts", self.players, s, *keys], _get(self.fig(s), keys), percent) for s in self.sides]
        if self.report["against"]:
            d = ["counts", self.players, "differences", *keys]
            out.append(_td(d, _get(self.report["counts"][self.players].get("differences"), keys), percent, signed=True))
        return "".join(out)

    def head(self, first: str) -> str:
        cols = [first, *(escape(self.label(s)) for s in self.sides)]
        if self.report["against"]:
            cols.append(f"{escape(self.label('against'))} − {escape(self.label('variant'))} [95% CI]")
        return "<tr>" + "".join(f"<th>{c}</th>" for c in cols) + "</tr>"

    def table(self, first: str, rows: Sequence[tuple[str, Sequence[str], bool]]) -> str:
        body = "".join(f"<tr><td>{escape(name)}</td>{self.cells(keys, pct)}</tr>" for name, keys, pct in rows)
        return f"<table>{self.head(first)}{body}</table>"

    def bars(self, keys: Sequence[str], percent: bool) -> list[tuple[str, list[Bar | None]]]:
        """Chart series: per side, a bar per entry of the mapping at ``keys``."""
        series = []
        names = list(_get(self.fig(), keys) or {})
        for s in self.sides:
            found = _get(self.fig(s), keys) or {}
            series.append((self.label(s), [_bar(found.get(n)) for n in names]))
        return series


def _bar(e: Mapping[str, Any] | None) -> Bar | None:
    if not e or e.get("mean") is None:
        return None
    return Bar(e["mean"], e.get("low"), e.get("high"))


def render(report: Mapping[str, Any], board: Board) -> str:
    """The whole page."""
    counts = [Count(report, str(p)) for p in report["players"]]
    title = f"Playtest: {report['variant']}" + (f" against {report['against']}" if report["against"] else "")
    parts = [
        "<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{STYLE}{html_tables.CSS}</style></head><body>",
        f"<header><h1>{escape(title)}</h1>{_run_line(report)}",
        "<nav>" + ('<a href="#changes">what changed</a>' if report.get("changes") else "")
        + "".join(f'<a href="#p{c.players}">{c.players} players</a>' for c in counts) + '<a href="#method">method</a></nav>',
        playtest_front.headline_html(report) + "</header>",  # the answer first, then what changed
        playtest_front.changes_html(report),
        _overview(report, counts),
    ]
    for c in counts:
        parts.append(_count_section(c, board))
    parts.append(f'<footer id="method"><h2>Method</h2><p class="note">{escape(report["method"])}</p></footer>')
    parts.append("</body></html>")
    return html_tables.stackable("\n".join(parts))  # wide tables stack on a phone


def _run_line(report: Mapping[str, Any]) -> str:
    seeds = report["seeds"]
    return (f'<p class="run">{report["games"]} games per player count ({", ".join(map(str, report["players"]))} players), '
            f'seeds {seeds[0]}–{seeds[1]}, map <code>{escape(report["map"])}</code>; bots '
            f'{escape(", ".join(report["bots"]))}, rotated over the seats from game to game'
            + (f"; the same seeds and bots played under {escape(report['against'])}" if report["against"] else "")
            + ".</p>")


def _overview(report: Mapping[str, Any], counts: Sequence[Count]) -> str:
    heads = ["players", "rules", "first seat wins", "first seat score edge", "game length (turns)", "tickets completed",
             "most contested route", "rule failures (games)"]
    if report["against"]:
        heads.append(f"winner changes when rescored under {escape(report['against'])}")
    rows = []
    for c in counts:
        for side in c.sides:
            f = c.fig(side)
            base = ["counts", c.players, side]
            fails = f["failures"]
            n_fail = sum(fails[k]["k"] for k in ("ended_by_passing", "deck_and_discard_exhausted", "resignations",
                                                 "open_row_reset_limit"))
            top = f["board"]["contested"][0] if f["board"]["contested"] else None
            rows.append(
                f'<tr><td>{c.players}</td><td class="t">{escape(c.label(side))}</td>'
                + _td([*base, "balance", "win_rate_by_seat", "1"], f["balance"]["win_rate_by_seat"]["1"], True)
                + _td([*base, "balance", "score_edge_by_seat", "1"], f["balance"]["score_edge_by_seat"]["1"], False)
                + _td([*base, "balance", "turns"], f["balance"]["turns"], False)
                + _td([*base, "tickets", "completion"], f["tickets"]["completion"], True)
                + (f'<td class="t">{escape(top)} ({f["board"]["routes"][top]["early"]["mean"]:.0%} early)</td>' if top else "<td>–</td>")
                + f"<td>{n_fail}</td>" + _rescore_cell(c, side) + "</tr>")
    return (f'<section id="overview"><h2>Overview</h2><table><tr>{"".join(f"<th>{h}</th>" for h in heads)}</tr>'
            f'{"".join(rows)}</table><p class="note">First seat wins: an even game gives 1/players. Score edge: the '
            f"seat's total minus its table's mean. Rule failures: games ended by passing, with deck and discard "
            f"exhausted, with a resignation, or with the open row's reset limit hit (R-ROW-3).</p></section>")


def _rescore_cell(c: Count, side: str) -> str:
    if not c.report["against"]:
        return ""
    if side != "variant":
        return "<td></td>"
    w = c.report["counts"][c.players]["rescored"]["winner_changes"]
    return _td(["counts", c.players, "rescored", "winner_changes"], w, True)


def _count_section(c: Count, board: Board) -> str:
    return "\n".join([
        f'<section id="p{c.players}"><h2>{c.players} players</h2>',
        _balance(c), _board(c, board), _tickets(c), _bonuses(c), _failures(c), _rescored(c),
        behaviour_html.section(c.report, c.players),  # --play: how the players played differently
        "</section>",
    ])


def _balance(c: Count) -> str:
    bal = c.fig()["balance"]
    p = int(c.players)
    seats = list(bal["win_rate_by_seat"])
    styles = list(bal["win_rate_by_style"])
    charts = [
        svg_charts.bar_chart("Win rate by seat", [f"seat {s}" for s in seats], c.bars(["balance", "win_rate_by_seat"], True),
                             reference=1 / p, x_label="seat (1: plays first)", y_label="games won (%, 95% CI)"),
        svg_charts.bar_chart("Score edge by seat (points over the table's mean)", [f"seat {s}" for s in seats],
                             c.bars(["balance", "score_edge_by_seat"], False), percent=False,
                             x_label="seat (1: plays first)", y_label="points (mean, 95% CI)"),
        svg_charts.bar_chart("Win rate by bot style", styles, c.bars(["balance", "win_rate_by_style"], True), reference=1 / p,
                             x_label="bot style", y_label="player-games won (%, 95% CI)"),
        svg_charts.box_plot("Final scores by bot style", styles,
                            [(c.label(s), [c.fig(s)["balance"]["score_quantiles_by_style"].get(k) for k in styles]) for s in c.sides],
                            x_label="bot style (box: 25-75th percentile, whiskers 10-90th, dots min and max)",
                            y_label="final score (points)"),
    ]
    for s in c.sides:
        h = c.fig(s)["balance"]["turns_histogram"]
        charts.append(svg_charts.histogram(f"Game length in turns ({c.label(s)})", h["edges"], h["counts"],
                                           svg_charts.SERIES[c.sides.index(s)], x_label="turns played (bins of equal width)",
                                           y_label="games"))
    rows = [(f"seat {s} wins", ["balance", "win_rate_by_seat", s], True) for s in seats]
    rows += [(f"seat {s} score edge", ["balance", "score_edge_by_seat", s], False) for s in seats]
    rows += [(f"{k} wins", ["balance", "win_rate_by_style", k], True) for k in styles]
    rows += [(f"{k} mean score", ["balance", "score_by_style", k], False) for k in styles]
    rows.append(("game length (turns)", ["balance", "turns"], False))
    ends = sorted({r for s in c.sides for r in c.fig(s)["balance"]["ends"]})
    rows += [(f"ended: {r}", ["balance", "ends", r], True) for r in ends]
    return ('<h3>Balance</h3><div class="charts">' + "".join(charts) + "</div>" + c.table("figure", rows)
            + '<p class="note">Wins by seat: the styles rotate over the seats, so every seat meets every style equally often; '
              "the dashed line is an even game's share.</p>")


def _board(c: Count, board: Board) -> str:
    figs = {s: c.fig(s)["board"] for s in c.sides}
    maps = []
    for s in c.sides:
        b = figs[s]
        routes = {rid: v["claimed"]["mean"] for rid, v in b["routes"].items()}
        cities = {name: v["claimed_part"]["mean"] for name, v in b["cities"].items()}
        notes = {rid: f"claimed in {v['claimed']['mean']:.0%} of games, median turn {v['median_turn']}"
                 for rid, v in b["routes"].items()}
        notes |= {name: f"{v['claimed_part']['mean']:.0%} of its {v['routes']} routes claimed" for name, v in b["cities"].items()}
        svg = board_svg.heat_map(board, routes, cities, board_svg.Scale(0, 1, label="claimed in"), f"Claims, {c.label(s)}", notes)
        maps.append(f"<figure>{svg}<figcaption>How often each route is claimed ({escape(c.label(s))}, {c.players} players); "
                    f"a city's colour: the share of its routes claimed.</figcaption></figure>")
    same = c.report["counts"][c.players].get("same_games")
    if same and same["k"]:
        maps.append(f'<p class="note">{_span(["counts", c.players, "same_games"], same, True)} of the games under '
                    f"{escape(c.label('against'))} are move for move those under {escape(c.label('variant'))}: the bots "
                    "play the same, and only the scoring differs.</p>")
    if len(c.sides) == 2:
        d = c.report["counts"][c.players]["differences"]["board"]
        routes = {rid: v["claimed"]["mean"] for rid, v in d.get("routes", {}).items() if "claimed" in v}
        cities = {name: v["claimed_part"]["mean"] for name, v in d.get("cities", {}).items() if "claimed_part" in v}
        maps.append(_difference_map(c, board, routes, cities))
    main = figs["variant"]
    rows = [(rid, ["board", "routes", rid, "early"], True) for rid in main["contested"]]
    doubles = sorted(main["doubles"], key=lambda k: -main["doubles"][k]["both_taken"]["k"])[:10]
    both = any(main["doubles"][k]["both_taken"]["k"] for k in doubles)
    routes_all = sorted(main["routes"], key=lambda r: -main["routes"][r]["claimed"]["k"])
    return (
        '<h3>The board</h3><div class="boards">' + "".join(maps) + "</div>"
        + "<h4>Most contested routes: claimed early (in the first third of the game)</h4>"
        + _contested_table(c, main["contested"])
        + (c.table("claimed early", rows) if len(c.sides) == 2 else "")
        + "<h4>Doubles: both routes taken</h4>"
        + (c.table("double", [(k.replace("+", " + "), ["board", "doubles", k, "both_taken"], True) for k in doubles])
           if both else f'<p class="note">No double was taken twice in {c.players}-player games.</p>')
        + f"<details><summary>All {len(routes_all)} routes</summary>"
        + c.table("route claimed", [(r, ["board", "routes", r, "claimed"], True) for r in routes_all]) + "</details>"
    )


def _difference_map(c: Count, board: Board, routes: Mapping[str, float], cities: Mapping[str, float]) -> str:
    """The claims' difference on the board, its scale stated; "no difference" said when there is none."""
    values = [*routes.values(), *cities.values()]
    scale = board_svg.Scale.diverging(values, "change in games claimed")
    who = f"{escape(c.label('against'))} − {escape(c.label('variant'))}"
    if not any(values):
        none = "no difference: every route and city is claimed as often under both rule sets"
        svg = board_svg.heat_map(board, routes, cities, scale, "Claims, difference", instead_of_legend=none)
        return f'<figure>{svg}<figcaption class="no-difference">{who}: {escape(none)}.</figcaption></figure>'
    svg = board_svg.heat_map(board, routes, cities, scale, "Claims, difference")
    return (f"<figure>{svg}<figcaption>{who}: red, claimed more often; blue, less. Scale: the change in the share of "
            f"games a route is claimed in (a city: in the share of its routes claimed), from {scale.text(scale.low)} to "
            f"{scale.text(scale.high)}, the largest change either way.</figcaption></figure>")


def _contested_table(c: Count, ids: Sequence[str]) -> str:
    base = ["counts", c.players, "variant", "board", "routes"]
    rows = []
    for rid in ids:
        v = c.fig()["board"]["routes"][rid]
        styles = ", ".join(f"{k} {n}" for k, n in sorted(v["by_style"].items(), key=lambda kv: -kv[1]))
        rows.append(f"<tr><td>{escape(rid)}</td>{_td([*base, rid, 'claimed'], v['claimed'], True)}"
                    f"{_td([*base, rid, 'early'], v['early'], True)}{_plain([*base, rid, 'median_turn'], v['median_turn'])}"
                    f"{_plain([*base, rid, 'median_part_of_game'], v['median_part_of_game'], _num(v['median_part_of_game'], True))}"
                    f'<td class="t">{escape(styles)}</td></tr>')
    return ("<table><tr><th>route</th><th>claimed</th><th>claimed early</th><th>median turn</th>"
            "<th>median point of the game</th><th>claimed by (games)</th></tr>" + "".join(rows) + "</table>")


def _tickets(c: Count) -> str:
    t = c.fig()["tickets"]
    rows = [("completed (of tickets held at the end)", ["tickets", "completion"], True),
            ("tickets held per player", ["tickets", "held_per_player"], False)]
    rows += [(f"{k}: completed", ["tickets", "by_style", k, "completion"], True) for k in t["by_style"]]
    held = [tid for tid, v in t["by_ticket"].items() if v["held"]]
    ranked = sorted(held, key=lambda tid: (t["by_ticket"][tid]["completion"]["mean"], -t["by_ticket"][tid]["held"]))
    ends = ranked[:5] + [tid for tid in ranked[-5:] if tid not in ranked[:5]]
    return ("<h3>Tickets</h3>" + c.table("figure", rows)
            + "<h4>Hardest and easiest tickets held (completion, then net points per holding)</h4>"
            + _ticket_table(c, ends)
            + f"<details><summary>All {len(t['by_ticket'])} tickets</summary>" + _ticket_table(c, sorted(t["by_ticket"])) + "</details>")


def _ticket_table(c: Count, ids: Sequence[str]) -> str:
    rows = []
    for tid in ids:
        cells = []
        for s in c.sides:
            v = c.fig(s)["tickets"]["by_ticket"][tid]
            base = ["counts", c.players, s, "tickets", "by_ticket", tid]
            cells.append(_plain([*base, "held"], v["held"]) + _td([*base, "completion"], v["completion"] if v["held"] else None, True)
                         + _td([*base, "net_points"], v["net_points"], False))
        v = c.fig()["tickets"]["by_ticket"][tid]
        rows.append(f"<tr><td>{escape(tid)}</td><td>{v['points']}</td>{''.join(cells)}</tr>")
    heads = "".join(f"<th>held ({escape(c.label(s))})</th><th>completed</th><th>net points</th>" for s in c.sides)
    return f"<table><tr><th>ticket</th><th>points</th>{heads}</tr>{''.join(rows)}</table>"


def _bonuses(c: Count) -> str:
    names = sorted({b for s in c.sides for b in c.fig(s)["bonuses"]})
    out = ["<h3>Bonuses and tie-breaks</h3>"]
    if not names:
        out.append('<p class="note">No bonus was given.</p>')
    for name in names:
        b = c.fig()["bonuses"].get(name) or next(c.fig(s)["bonuses"][name] for s in c.sides if name in c.fig(s)["bonuses"])
        rows = [("given (games)", ["bonuses", name, "given"], True),
                ("points given per game", ["bonuses", name, "points_per_game_given"], False),
                ("decides the winner (games)", ["bonuses", name, "decides_winner"], True)]
        rows += [(f"to seat {s}", ["bonuses", name, "by_seat", s], True) for s in b["by_seat"]]
        rows += [(f"to {k} (player-games)", ["bonuses", name, "by_style", k], True) for k in b["by_style"]]
        ex = b.get("decides_winner_example")
        out.append(f"<h4>{escape(name)}</h4>" + c.table("figure", rows)
                   + (f'<p class="note">Example of a game it decides: seed {ex}.</p>' if ex is not None else ""))
    ties = sorted({d for s in c.sides for d in c.fig(s)["balance"]["decided_by"]})
    out.append("<h4>What decided the winner</h4>"
               + c.table("decided by", [(d, ["balance", "decided_by", d], True) for d in ties])
               + '<p class="note"><code>score</code>: the highest total alone; <code>shared</code>: a tie left standing; '
                 "any other: the tie-breaker of that name.</p>")
    return "".join(out)


FAILURES = (
    ("ended_by_passing", "games ended because every player passed (R-TURN-2)"),
    ("deck_and_discard_exhausted", "games in which the deck and the discard both ran out"),
    ("long_pass_runs", "players passing several turns in a row (player-games)"),
    ("resignations", "games with a resignation"),
    ("open_row_reset_limit", "games in which the open row's reset limit was hit: the row left as dealt although a rule asked "
                             "for a reset (R-ROW-3)"),
    ("row_left_needing_reset", "games with a turn ending with a face-up row the rules would reset (R-ROW-2: 3 or more locomotives in usa, europe and wor)"),
    ("no_legal_action_but_passing", "players left with no legal action but passing (player-games, R-TURN-2)"),
)


def _failures(c: Count) -> str:
    rows = []
    for s in c.sides:
        f = c.fig(s)["failures"]
        variant, version = c.label(s).split("@")
        for key, text in FAILURES:
            v = f[key]
            base = ["counts", c.players, s, "failures", key]
            ex = v.get("example")
            how = (f"seed {ex}{_action_words(v)}: <code>ttr replay records/{escape(variant)}-v{version}-{c.players}p-seed{ex}.json</code>"
                   if ex is not None else "none")
            extra = f" (at least {v['threshold']}; longest {v['longest']})" if key == "long_pass_runs" else ""
            extra += f"; {v['times']} times in all" if "times" in v else f"; {v['turns']} turns in all" if "turns" in v else ""
            rows.append(f'<tr><td>{escape(text + extra)}</td><td class="t">{escape(c.label(s))}</td>{_td(base, v, True)}<td class="t">{how}</td></tr>')
        cap = f["turn_cap"]
        rows.append(f"<tr><td>games stopped at the cap of {cap['actions']:,} actions</td><td class='t'>{escape(c.label(s))}</td>"
                    f"{_plain(['counts', c.players, s, 'failures', 'turn_cap', 'games'], cap['games'])}"
                    f"<td class='t'>{escape(cap['note'])}</td></tr>")
    return ("<h3>Rule failures</h3><table><tr><th>what</th><th>rules</th><th>share</th><th>example</th></tr>"
            + "".join(rows) + "</table>"
            + f'<p class="note">Passes per game: {_est_text(c.fig()["failures"]["passes_per_game"], False)} '
              "(a pass is a turn with no other legal action). The example records are written next to this report.</p>")


def _action_words(v: Mapping[str, Any]) -> str:
    """Where in the example record the failure is: after which action (0: the deal)."""
    action = v.get("action")
    if action is None:
        return ""
    return ", at the deal (before action 1)" if action == 0 else f", after action {action}"


def _rescored(c: Count) -> str:
    r = c.report["counts"][c.players].get("rescored")
    if not r:
        return ""
    base = ["counts", c.players, "rescored"]
    w = r["winner_changes"]
    rows = "".join(
        f"<tr><td>{escape(line)}</td>{_plain([*base, 'lines', line, 'mean_a'], v['mean_a'], format(v['mean_a'], '.2f'))}"
        f"{_plain([*base, 'lines', line, 'mean_b'], v['mean_b'], format(v['mean_b'], '.2f'))}"
        f"{_td([*base, 'lines', line, 'delta'], v['delta'], False, signed=True)}"
        f"{_plain([*base, 'lines', line, 'player_games_changed'], v['player_games_changed'])}</tr>"
        for line, v in r["lines"].items())
    why = ", ".join(f"{k} differs in {n}" for k, n in w["lines"].items())
    mismatch = (f'<p class="note">Warning: {len(r["export_mismatches"])} game(s) rescore differently under their own rules '
                f'(seeds {r["export_mismatches"][:10]}).</p>' if r["export_mismatches"] else "")
    return (f"<h3>The games of {escape(r['from'])} rescored under {escape(r['to'])}</h3>"
            f"<p>The winner changes in <strong>{_span([*base, 'winner_changes'], w, True)}</strong> of the games"
            + (f": in those games, {escape(why)}.</p>" if why else ".</p>")
            + f"<table><tr><th>line</th><th>mean {escape(r['from'])}</th><th>mean {escape(r['to'])}</th>"
            f"<th>Δ per player [95% CI]</th><th>player-games changed</th></tr>{rows}</table>{mismatch}")
