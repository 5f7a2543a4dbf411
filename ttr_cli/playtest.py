"""``ttr playtest``: a report for rule designers, one HTML page and the same figures as JSON.

Registered on the main command group by ``ttr_cli.main`` (``register(main)``). The figures are
computed in :mod:`ttr_analysis.playtest` and drawn by :mod:`ttr_analysis.playtest_html`; this
command parses options (the game-playing ones shared with simulate and compare), checks everything
before the first game, shows progress and writes the files.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import attrs
import click

from ttr_analysis import enough, playtest_html, sweep_html
from ttr_analysis import playtest as playtest_mod
from ttr_analysis import sweep as sweep_mod
from ttr_analysis.settings import parse_settings
from ttr_analysis import simulate as simulate_mod
from ttr_analysis.rescore import Target
from ttr_cli.analysis import DASK, GameTick, cache_warning, game_cache_for, played_games, progress_bar, until_interrupted
from ttr_cli.preflight import check_out_dir, require_extra
from ttr_core import variant
from ttr_core.board import Board
from ttr_core.errors import TTRError
from ttr_core.files import make_folder, write_atomically

REPORT_HTML = "playtest.html"
REPORT_JSON = "playtest.json"
SWEEP_HTML = "sweep.html"
SWEEP_JSON = "sweep.json"


def register(main: click.Group) -> None:
    from ttr_cli.main import guarded  # the cli module is loading us: import what it has defined

    playtest.callback = guarded(playtest.callback)
    main.add_command(playtest)


def parse_players(text: str | None, targets: list[Target]) -> tuple[int, ...]:
    """``--players``: counts and ranges (``2,3,4,5``, ``2-5``); none given: every count all the
    rule sets take."""
    if text is None:
        rulesets = [variant.load(t.variant, t.version) for t in targets]
        lo, hi = max(r.players.min for r in rulesets), min(r.players.max for r in rulesets)
        return tuple(range(lo, hi + 1))
    counts: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        lo, dash, hi = part.partition("-")
        if not (lo.isdigit() and (not dash or hi.isdigit())):
            raise TTRError(f"--players {text!r}: give player counts and ranges, e.g. 2,3,4 or 2-5")
        first, last = int(lo), int(hi) if dash else int(lo)
        if first > last:
            raise TTRError(f"--players {text!r}: the range {part} is empty")
        counts += [n for n in range(first, last + 1) if n not in counts]
    return tuple(sorted(counts))


@click.command()
@click.option("--variant", "variant_id", default="usa", show_default=True, metavar="VARIANT[@VERSION]",
              help="The rule set to playtest.")
@click.option("--against", "against_id", default=None, metavar="VARIANT[@VERSION]",
              help="Another rule set on the same map: its games side by side, and the games rescored under it.")
@played_games(100, players=click.option("--players", "players_text", default=None, metavar="2,3,4,5",
                                         help="Player counts (a list or ranges: 2-5). Default: every count the rule sets take."),
              bots=",".join(playtest_mod.DEFAULT_BOTS))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), required=True,
              help=f"Folder for {REPORT_HTML}, {REPORT_JSON} and the records of the example games.")
@click.option("--json", "as_json", is_flag=True, help="Print what was written, and the headline figures, as JSON.")
@click.option("--play/--rescore", "play", default=None,
              help="How --against (or --sweep) sets rule sets against each other: --rescore, the same games scored under "
                   "both (the default with --against), or --play, games played under each by bots that play to the rules "
                   f"in force (the default of --sweep; default bots {','.join(playtest_mod.PLAY_BOTS)}).")
@click.option("--set", "set_texts", multiple=True, metavar="PLUGIN.PARAM=VALUE",
              help="Set a documented parameter of one of the variant's plugins (TOML value), without a variant file; repeatable.")
@click.option("--sweep", "sweep_text", default=None, metavar="PLUGIN.PARAM=V1,V2,...",
              help=f"Try the parameter at each value against the variant as it is: one page of curves ({SWEEP_HTML}, {SWEEP_JSON}).")
@click.option("--until", "until_width", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=None, metavar="W",
              help="Add games (reusing the cache) until every winner-change interval is narrower than W (0.1: 10 points).")
@click.option("--until-cap", type=click.IntRange(1), default=enough.DEFAULT_CAP, show_default=True,
              help="With --until: at most this many games per player count (and value).")
def playtest(variant_id, against_id, games, seed, players_text, bot_names, workers, scheduler, cache_dir, no_cache,
             out_dir, as_json, play, set_texts, sweep_text, until_width, until_cap):
    """Playtest a rule set: per player count, balance (win rate by seat and bot style, scores,
    game length, how games end), the board (claims as a heat map, the most contested routes),
    tickets, bonuses and tie-breaks, and rule failures, as one offline HTML page with the same
    figures in JSON. Games use seeds S..S+N-1 for every player count; the bot styles rotate over
    the seats."""
    from ttr_cli.main import err, out, parse_bots

    mode = (playtest_mod.PLAY if play else playtest_mod.RESCORE) if play is not None \
        else playtest_mod.PLAY if sweep_text else playtest_mod.RESCORE
    given = click.get_current_context().get_parameter_source("bot_names") is click.core.ParameterSource.COMMANDLINE
    names = parse_bots(bot_names if given or mode == playtest_mod.RESCORE else ",".join(playtest_mod.PLAY_BOTS))
    target = Target.parse(variant_id).with_settings(parse_settings(set_texts))
    against = Target.parse(against_id) if against_id else None
    sweep = sweep_mod.Sweep.parse(sweep_text) if sweep_text else None
    players = parse_players(players_text, [target] + ([against] if against else []))
    check_out_dir(out_dir)
    if scheduler is not None:
        require_extra("analysis", DASK, "--scheduler")
    cache = game_cache_for(cache_dir, no_cache)
    until = enough.Until(until_width, until_cap) if until_width is not None else None
    if until and cache is None:
        raise TTRError("--until adds games by reusing the played-games cache: drop --no-cache")
    if until and not (against or sweep):
        raise TTRError("--until narrows the winner-change interval of a comparison: give --against or --sweep")
    plan = playtest_mod.Plan(target, against, players, games, names, seed, mode)
    workers = workers or simulate_mod.local_cores()
    if sweep is not None:
        sweep_mod.check_sweep(plan, sweep)  # every refusal before the first game
        run_sweep(plan, sweep, until, workers, scheduler, cache, out_dir, as_json)
        return
    board, _, _ = playtest_mod.check_plan(plan)  # every refusal before the first game
    if until is not None:
        run_until(plan, until, workers, scheduler, cache, out_dir, board, as_json)
        return
    total = games * len(players) * (2 if against else 1)
    t0 = time.perf_counter()
    with progress_bar(err, total, "playtesting") as progress, until_interrupted(total, cache) as tick:
        tick.bar = GameTick(progress, total)
        report, facts = playtest_mod.playtest(plan, workers, scheduler, tick, cache, cache_warning(err))
    elapsed = time.perf_counter() - t0
    if cache is not None:
        reused = sum(f.reused for games_of_count in facts.values() for f in games_of_count)
        err.print(f"{reused} of {total} games reused from the cache in {cache.folder}", markup=False, highlight=False)
    written = write(out_dir, report, board, playtest_mod.examples(report, facts))
    heads = headlines(report)
    if as_json:
        click.echo(json.dumps({"written": [str(p) for p in written], "games": total, "seconds": round(elapsed, 1),
                               "headlines": heads}, indent=2))
        return
    for line in heads:
        out.print(line, markup=False)
    out.print(f"{total} games in {elapsed:.1f} s; report: {out_dir / REPORT_HTML}, figures: {out_dir / REPORT_JSON}", markup=False)


def _rounds(err, cache, what: str, games_of: Callable[[int], int]):
    """A function running one round of ``n`` games per player count, with its own progress bar."""

    def one(plan_games: int, call):
        total = games_of(plan_games)
        with progress_bar(err, total, what) as progress, until_interrupted(total, cache) as tick:
            tick.bar = GameTick(progress, total)
            return call(tick)

    return one


def run_sweep(plan, sweep, until, workers, scheduler, cache, out_dir: Path, as_json: bool) -> None:
    """The games of every value of ``sweep``, the page of curves and its JSON."""
    from ttr_cli.main import err, out

    per_game = len(plan.players) * (1 + (len(sweep.values) if plan.mode == playtest_mod.PLAY else 0))
    one = _rounds(err, cache, "sweeping", lambda n: n * per_game)

    def run(n: int):
        p = attrs.evolve(plan, games=n)
        return one(n, lambda tick: sweep_mod.sweep(p, sweep, workers, scheduler, tick, cache, cache_warning(err))), None

    t0 = time.perf_counter()
    report = enough.grow(run, sweep_mod.winner_change_widths, plan.games, until)[0] if until else run(plan.games)[0]
    elapsed = time.perf_counter() - t0
    make_folder(out_dir)
    html, data = out_dir / SWEEP_HTML, out_dir / SWEEP_JSON
    write_atomically(data, json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    write_atomically(html, sweep_html.render(report))
    games = sweep_mod.games_played(report)
    if as_json:
        click.echo(json.dumps({"written": [str(html), str(data)], "games": games, "seconds": round(elapsed, 1)}, indent=2))
        return
    for p, count in report["counts"].items():
        for v in count["values"]:
            w = v["winner_changes"]
            out.print(f"{sweep.parameter}={v['value']}, {p} players: the winner changes in {w['k']} of {w['n']} games "
                      f"({w['mean']:.1%} [{w['low']:.1%}, {w['high']:.1%}])", markup=False)
    out.print(f"{games} games in {elapsed:.1f} s; page: {html}, figures: {data}", markup=False)


def winner_change_widths(report: dict) -> list[float]:
    """The widths of a comparison's winner-change intervals: as rescored, or as played (--play)."""
    key = "behaviour" if report["mode"] == playtest_mod.PLAY else "rescored"
    return [c[key]["winner_changes"]["high"] - c[key]["winner_changes"]["low"] for c in report["counts"].values()]


def run_until(plan, until, workers, scheduler, cache, out_dir: Path, board: Board, as_json: bool) -> None:
    """A comparison with games added until its winner-change intervals are narrow enough."""
    from ttr_cli.main import err, out

    one = _rounds(err, cache, "playtesting", lambda n: n * len(plan.players) * 2)

    def run(n: int):
        p = attrs.evolve(plan, games=n)
        return one(n, lambda tick: playtest_mod.playtest(p, workers, scheduler, tick, cache, cache_warning(err)))

    t0 = time.perf_counter()
    report, facts = enough.grow(run, winner_change_widths, plan.games, until)
    elapsed = time.perf_counter() - t0
    written = write(out_dir, report, board, playtest_mod.examples(report, facts))
    heads = headlines(report)
    games = report["games"] * len(plan.players) * 2
    if as_json:
        click.echo(json.dumps({"written": [str(p) for p in written], "games": games, "seconds": round(elapsed, 1),
                               "headlines": heads, "until": report["until"]}, indent=2))
        return
    for line in heads:
        out.print(line, markup=False)
    out.print(f"{games} games ({len(report['until']['rounds'])} rounds) in {elapsed:.1f} s; report: {out_dir / REPORT_HTML}",
              markup=False)


def write(out_dir: Path, report: dict, board: Board, examples: dict[str, str]) -> list[Path]:
    """The page, the JSON and the example records, each file whole or not at all; the paths written."""
    make_folder(out_dir)
    html, data = out_dir / REPORT_HTML, out_dir / REPORT_JSON
    write_atomically(data, json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    write_atomically(html, playtest_html.render(report, board))
    written = [html, data]
    if examples:
        folder = make_folder(out_dir / "records")
        for name, text in examples.items():
            write_atomically(folder / name, text)
            written.append(folder / name)
    return written


def headlines(report: dict) -> list[str]:
    """One line per player count and rule set: the first seat's win rate, the most contested
    route, what the bonuses decide; with --against, how often rescoring changes the winner. The
    report's headline (does it matter?) comes first."""
    lines = [report["headline"]["text"]] if report.get("headline") else []
    for p, entry in report["counts"].items():
        for side in ("variant", "against"):
            f = entry.get(side)
            if not f:
                continue
            w = f["balance"]["win_rate_by_seat"]["1"]
            top = f["board"]["contested"][0]
            bonus = "; ".join(f"{name} decides the winner in {b['decides_winner']['mean']:.0%}" for name, b in f["bonuses"].items())
            lines.append(f"{report[side]}, {p} players: seat 1 wins {w['mean']:.1%} [{w['low']:.1%}, {w['high']:.1%}] "
                         f"(even: {1 / int(p):.1%}); most contested route {top} "
                         f"(claimed early in {f['board']['routes'][top]['early']['mean']:.0%})" + (f"; {bonus}" if bonus else ""))
        if entry.get("rescored"):
            r = entry["rescored"]["winner_changes"]
            lines.append(f"{report['variant']} rescored under {report['against']}, {p} players: the winner changes in "
                         f"{r['k']} of {r['n']} games ({r['mean']:.1%} [{r['low']:.1%}, {r['high']:.1%}])")
        if entry.get("behaviour") and report.get("mode") == playtest_mod.PLAY:  # --play: the games as played
            w, k = entry["behaviour"]["winner_changes"], entry["behaviour"]["differences"]["tickets_kept"]
            lines.append(f"{report['variant']} and {report['against']} played, {p} players: the winner changes in "
                         f"{w['k']} of {w['n']} seeds ({w['mean']:.1%} [{w['low']:.1%}, {w['high']:.1%}])"
                         + (f"; tickets kept per player {k['mean']:+.2f} [{k['low']:+.2f}, {k['high']:+.2f}]" if k else ""))
    return lines
