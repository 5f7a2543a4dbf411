"""``ttr playtest``: a report for rule designers, one HTML page and the same figures as JSON.

Registered on the main command group by ``ttr_cli.main`` (``register(main)``). The figures are
computed in :mod:`ttr_analysis.playtest` and drawn by :mod:`ttr_analysis.playtest_html`; this
command parses options (the game-playing ones shared with simulate and compare), checks everything
before the first game, shows progress and writes the files.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from ttr_analysis import playtest as playtest_mod
from ttr_analysis import playtest_html
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
def playtest(variant_id, against_id, games, seed, players_text, bot_names, workers, scheduler, cache_dir, no_cache,
             out_dir, as_json):
    """Playtest a rule set: per player count, balance (win rate by seat and bot style, scores,
    game length, how games end), the board (claims as a heat map, the most contested routes),
    tickets, bonuses and tie-breaks, and rule failures, as one offline HTML page with the same
    figures in JSON. Games use seeds S..S+N-1 for every player count; the bot styles rotate over
    the seats."""
    from ttr_cli.main import err, out, parse_bots

    names = parse_bots(bot_names)
    target = Target.parse(variant_id)
    against = Target.parse(against_id) if against_id else None
    players = parse_players(players_text, [target] + ([against] if against else []))
    check_out_dir(out_dir)
    if scheduler is not None:
        require_extra("analysis", DASK, "--scheduler")
    cache = game_cache_for(cache_dir, no_cache)
    plan = playtest_mod.Plan(target, against, players, games, names, seed)
    board, _, _ = playtest_mod.check_plan(plan)  # every refusal before the first game
    workers = workers or simulate_mod.local_cores()
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
    return lines
