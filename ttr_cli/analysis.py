"""``ttr rescore``, ``ttr simulate``, ``ttr compare``: regression-testing rules on real games.

Registered on the main command group by ``ttr_cli.main`` (``register(main)``). The work is done
in :mod:`ttr_analysis`; these commands parse options, show progress and print tables or,
with ``--json``, the same numbers for scripts.
"""

from __future__ import annotations

import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from types import MappingProxyType

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.markup import escape
from rich.table import Table

from ttr_analysis import compare as compare_mod
from ttr_analysis import game_cache
from ttr_analysis import rescore as rescore_mod
from ttr_analysis import simulate as simulate_mod
from ttr_analysis import stats
from ttr_core.errors import TTRError
from ttr_core.files import make_folder, write_atomically
from ttr_cli.failures import BAD_INPUT, interrupted, problem, problems_of
from ttr_cli.preflight import check_out_dir, require_extra

#: what the optional parts of these commands import (the ``analysis`` extra)
MATPLOTLIB = ("matplotlib", "matplotlib.backends.backend_agg")  # not pyplot: plots.py picks Agg first
DASK = ("distributed",)


def register(main: click.Group) -> None:
    from ttr_cli.main import guarded  # the cli module is loading us: import what it has defined

    for command in (rescore, simulate, compare):
        command.callback = guarded(command.callback)
        main.add_command(command)


def _consoles():
    from ttr_cli.main import err, out

    return out, err


def _targets(values: tuple[str, ...]) -> list[rescore_mod.Target]:
    return [rescore_mod.Target.parse(v) for v in values]


def _bots(text: str) -> tuple[str, ...]:
    from ttr_cli.main import parse_bots

    return parse_bots(text)


def progress_bar(err, total: int, what: str) -> Progress:
    return Progress(
        TextColumn(f"[bold]{what}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(), TimeRemainingColumn(), console=err, disable=not err.is_terminal,
    )


class GameTick:
    """Advances a progress bar and shows games per second."""

    def __init__(self, progress: Progress, total: int):
        self.progress = progress
        self.task = progress.add_task("", total=total, rate="")
        self.t0 = time.perf_counter()
        self.done = 0

    def __call__(self, n: int) -> None:
        self.done += n
        rate = self.done / max(1e-9, time.perf_counter() - self.t0)
        self.progress.update(self.task, advance=n, rate=f"{rate:.1f} games/s")


_WORKERS_HELP = "Processes on this machine (default: every core); with --scheduler local, Dask workers."
_SCHEDULER_HELP = "Run on Dask distributed: 'local' starts a LocalCluster, or a scheduler address tcp://host:port."


def played_games(games: int, players=None, bots: str = "ticket"):
    """The options of the commands that play seeded bot games (simulate, compare, playtest);
    ``players``: an option to take instead of the single --players (playtest takes a list)."""
    options = [
        click.option("--games", type=click.IntRange(1), default=games, show_default=True),
        click.option("--seed", type=int, default=1, show_default=True, help="Game i uses seed S+i."),
        players or click.option("--players", type=click.IntRange(2, 10), default=None,
                                help="Default: 4, or the nearest count the variant allows."),
        click.option("--bots", "bot_names", default=bots, show_default=True,
                     help="Comma-separated, cycled over the seats; `ttr bots` lists them."),
        click.option("--workers", type=click.IntRange(1), default=None, help=_WORKERS_HELP),
        click.option("--scheduler", default=None, help=_SCHEDULER_HELP),
        click.option("--cache", "cache_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
                     help="Keep played games here and reuse them on the next run (default: the user's cache folder, "
                          "$TTR_CACHE_DIR or e.g. ~/.cache/ttr-engine/games).", metavar="DIR"),
        click.option("--no-cache", is_flag=True, help="Play every game, and keep none."),
    ]

    def add(command):
        for option in reversed(options):
            command = option(command)
        return command

    return add


def game_cache_for(cache_dir: Path | None, no_cache: bool) -> game_cache.GameCache | None:
    """The cache the command uses, checked before any game is played."""
    if no_cache:
        if cache_dir is not None:
            raise TTRError("--cache and --no-cache contradict each other: give one of them")
        return None
    if cache_dir is not None:
        check_out_dir(cache_dir, "--cache")
        return game_cache.GameCache(cache_dir)
    return game_cache.GameCache(game_cache.default_folder())  # unwritable: a warning, then the run goes on


def cache_warning(err):
    def warn(problem: str) -> None:
        err.print(f"[yellow]warning:[/yellow] played games are not kept ({escape(problem)}); "
                  "--cache DIR names another folder, --no-cache stops trying", markup=True)

    return warn


def _reuse_line(cache: game_cache.GameCache | None, reused: int, games: int, rescored_under: str | None = None) -> str:
    if cache is None:
        return "the game cache is off (--no-cache)"
    what = f"; only their scoring under {rescored_under} was computed" if rescored_under and reused else ""
    return f"{reused} of {games} games reused from the cache in {cache.folder}{what}"


class RecordSaver:
    """``on_games`` of a run: writes each finished game's record into ``folder`` as it comes (each
    file whole or not at all), so that an interrupted run keeps the games it finished."""

    def __init__(self, folder: Path | None):
        self.folder = folder
        self._written = 0
        #: the file being written, and the inode it had before (None: there was none)
        self._writing: tuple[Path, int | None] | None = None

    def __call__(self, games) -> None:
        if self.folder is None:
            return
        make_folder(self.folder)
        for g in games:  # one at a time, so that the count is right whenever Ctrl-C comes
            if g.record is not None:
                path = self.folder / compare_mod.record_name(g)
                self._writing = (path, _inode(path))
                write_atomically(path, g.record)
                self._written += 1
                self._writing = None

    @property
    def saved(self) -> int:
        """The records written whole. A Ctrl-C may come after a file's rename and before it was
        counted: the file then holds another inode than before, the new record's."""
        if self._writing is None:
            return self._written
        path, before = self._writing
        return self._written + (_inode(path) not in (None, before))


def _inode(path: Path) -> int | None:
    try:
        return path.stat().st_ino
    except FileNotFoundError:
        return None


class _Finished:
    """``on_progress`` of a run that counts the games finished, for the message of an interruption."""

    def __init__(self):
        self.done, self.bar = 0, None

    def __call__(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar(n)


@contextmanager
def until_interrupted(total: int, cache: game_cache.GameCache | None, saver: RecordSaver | None = None):
    """Runs the games of a command; Ctrl-C (the workers are ended at once by ``simulate.run``)
    becomes exit code 130 and a message: how many games were finished, where their records are,
    and how the cache lets the same command go on from them."""
    finished = _Finished()
    try:
        yield finished
    except KeyboardInterrupt:
        raise interrupted(interruption_words(finished.done, total, cache, saver),
                          {"finished": finished.done, "games": total, "saved": saver.saved if saver else 0,
                           "records": str(saver.folder) if saver and saver.folder else None,
                           "cache": str(cache.folder) if cache else None}) from None


def interruption_words(done: int, total: int, cache: game_cache.GameCache | None, saver: RecordSaver | None) -> str:
    words = f"{done} of {total} games finished"
    if saver is not None and saver.folder is not None:
        words += f"; {saver.saved} record(s) saved in {saver.folder}"
    if cache is None:
        return words + "; the finished games are not kept (--no-cache): a new run plays them again"
    return words + f"; they are kept in the game cache ({cache.folder}): the same command again plays only the rest"


# --- rescore ----------------------------------------------------------------------------------


@click.command()
@click.argument("records", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--variant", "targets", multiple=True, metavar="VARIANT[@VERSION]",
              help="Score under this rule set; repeat for several (default: the recorded rules and the variant's current ones).")
@click.option("--json", "as_json", is_flag=True)
def rescore(records, targets, as_json):
    """Score finished games (records, or folders of them) under several rule sets, side by side.

    Per game and per player: which lines of the breakdown differ (routes, tickets, each bonus,
    total), and whether the winner changes. Each record is replayed under the rules version it
    names first; every rescoring says which version it used. With one --variant, the game is
    compared with the result its record states. A broken or missing record is reported and the
    others are still rescored (exit code 2 at the end).
    """
    out, err = _consoles()
    chosen = _targets(targets)
    rescore_mod.check_same_map(chosen)  # unknown rule sets, or on different maps: before any record is read
    paths = rescore_mod.record_paths(records)
    if not paths:
        raise TTRError("no records found (a folder stands for the *.json files in it)")
    results, broken = [], []
    for p in paths:
        try:
            results.append(rescore_mod.rescore_record(p, chosen))
        except TTRError as exc:
            found = problems_of(exc)
            for f in found:  # each problem names its record
                if not f["message"].startswith(str(p)):
                    f["message"], f["where"] = f"{p}: {f['message']}", str(p)
            broken.append({"record": str(p), "problems": found})
    problems = [f for b in broken for f in b["problems"]]
    problems += [problem(f"{r.source}: {e}", "bad-input", r.source) for r in results for e in r.errors if e]
    if as_json:
        data = {"games": [rescore_mod.to_json(r) for r in results], "broken": broken,
                "winner_changes": sum(1 for r in results if r.winner_changes)}
        click.echo(json.dumps({**data, "problems": problems} if problems else data, indent=2))
    else:
        for r in results:
            _print_rescore(out, err, r)
        for b in broken:
            for f in b["problems"]:
                err.print(f"[red]error:[/red] {escape(f['message'])}", markup=True)
        changed = sum(1 for r in results if r.winner_changes)
        done = sum(1 for r in results if r.scored)
        out.print(f"{done} game(s) rescored; the winner changes in {changed}."
                  + (f" {len(broken)} record(s) could not be read (see the errors)." if broken else ""), markup=False)
    if problems:
        sys.exit(BAD_INPUT)


def _print_rescore(out, err, r: rescore_mod.GameRescore) -> None:
    if r.scored:
        _rescore_table(out, r)
    for e in r.errors:
        if e:
            err.print(f"[red]error:[/red] {escape(f'{r.source}: {e}')}", markup=True)


def _column_title(r: rescore_mod.GameRescore, asked: str, s) -> str:
    """``total wor@2``; when two columns would say the same (the recorded rules are the current
    ones), which rules each is."""
    label = s.label if s is not None else asked
    same = [t for t, o in zip(r.targets, r.results) if (o.label if o is not None else t) == label]
    if len(same) < 2:
        return f"total {label}"
    if "@" not in asked:
        return f"total {label} (current rules)"
    return f"total {label} (as played)" if label == f"{r.variant}@{r.version}" else f"total {label} (as {asked})"


def _rescore_table(out, r: rescore_mod.GameRescore) -> None:
    columns = [(_column_title(r, t, s), s) for t, s in zip(r.targets, r.results)]
    if r.against_record:
        columns.insert(0, (f"total as recorded ({r.recorded.label})", r.recorded))
    # names, paths and messages come from files: printed literally, never read as rich markup
    table = Table(title=escape(f"{r.source}: played under {r.variant}@{r.version}, seed {r.seed}"), title_justify="left")
    table.add_column("Player")
    for label, _ in columns:
        table.add_column(escape(label), justify="right")
    table.add_column("lines that differ")
    diffs = r.diffs
    compared = r.compared
    for i, name in enumerate(s.name for s in compared[0].seats) if compared else []:
        mine = [d for d in diffs if d.player == name]
        cells = [str(s.seats[i].total) if s is not None else "-" for _, s in columns]
        text = ", ".join(f"{d.line} {'→'.join(str(v) for v in d.values)}" for d in mine) or "none"
        table.add_row(escape(name), *cells, escape(text))
    if compared:
        table.add_row("[bold]winner[/bold]", *(escape(" ".join(s.winners)) if s else "-" for _, s in columns),
                      "[yellow]changes[/yellow]" if r.winner_changes else "same")
    out.print(table)


# --- simulate ---------------------------------------------------------------------------------


@click.command()
@click.option("--variant", "variant_id", default="usa", show_default=True, metavar="VARIANT[@VERSION]")
@played_games(100)
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write every game's record into this folder.")
@click.option("--json", "as_json", is_flag=True)
def simulate(variant_id, games, seed, players, bot_names, workers, scheduler, cache_dir, no_cache, out_dir, as_json):
    """Play N seeded bot games and summarise them: scores per seat, game length, tickets,
    bonus frequencies, what decided the winner. Reproducible whatever the number of workers."""
    out, err = _consoles()
    names = _bots(bot_names)
    target = rescore_mod.Target.parse(variant_id)
    if out_dir is not None:
        check_out_dir(out_dir)
    if scheduler is not None:
        require_extra("analysis", DASK, "--scheduler")
    cache = game_cache_for(cache_dir, no_cache)
    workers = workers or simulate_mod.local_cores()
    spec = simulate_mod.SimSpec(target.variant, target.version, players or compare_mod.default_players(target),
                                names, (), out_dir is not None)
    simulate_mod.check_spec(spec)
    saver = RecordSaver(out_dir)
    t0 = time.perf_counter()
    with progress_bar(err, games, "simulating") as progress, until_interrupted(games, cache, saver) as tick:
        tick.bar = GameTick(progress, games)
        played = simulate_mod.run(spec, range(seed, seed + games), workers, scheduler, tick,
                                  cache=cache, on_cache_problem=cache_warning(err), on_games=saver)
    elapsed = time.perf_counter() - t0
    summary = stats.summarize(played)
    where = scheduler and f"dask {scheduler}" or ("this process" if workers == 1 else "local processes")
    reused = sum(1 for g in played if g.reused)
    timing = {"workers": workers, "where": where, "seconds": round(elapsed, 3), "games_per_second": round(games / elapsed, 3),
              "reused": reused, "cache": str(cache.folder) if cache else None}
    if as_json:
        click.echo(json.dumps({**summary, "records": str(out_dir) if out_dir else None, "timing": timing}, indent=2))
        return
    _print_summary(out, summary)
    out.print(f"{games} games in {elapsed:.1f} s ({games / elapsed:.1f} games/s, {workers} worker(s), {where})"
              + (f"; records in {out_dir}" if out_dir else ""), markup=False)
    out.print(_reuse_line(cache, reused, games), markup=False)


def _print_summary(out, s: dict) -> None:
    table = Table(title=escape(f"{s['games']} games of {s['variant']}@{s['version']}, {s['players']} players, seeds {s['seeds'][0]}-{s['seeds'][1]}"),
                  title_justify="left")
    for col in ("Seat", "Bot", "Mean score [95% CI]", "sd", "min", "max", "Wins", "Tickets done", "failed"):
        table.add_column(col, justify="left" if col in ("Seat", "Bot") else "right")
    for p in s["seats"]:
        sc = p["score"]
        table.add_row(str(p["seat"] + 1), escape(p["bot"]), escape(f"{sc['mean']:.1f} [{sc['low']:.1f}, {sc['high']:.1f}]"), f"{sc['sd']:.1f}",
                      str(p["min"]), str(p["max"]), f"{p['win_rate']:.1%}", f"{p['tickets_completed']:.2f}", f"{p['tickets_failed']:.2f}")
    out.print(table)
    out.print(f"Game length: {s['turns']['mean']:.1f} turns (sd {s['turns']['sd']:.1f}), {s['actions']['mean']:.0f} actions; "
              f"tickets completed per player: {s['tickets_completed_per_player']:.2f}", markup=False)
    for name, b in s["bonuses"].items():
        out.print(f"Bonus {name}: given in {b['games_with_it']:.1%} of games, {b['holders_per_game']:.2f} holders per game", markup=False)
    decided = ", ".join(f"{k} {v['share']:.1%}" for k, v in s["decided_by"].items())
    out.print(f"Winner decided by: {decided}", markup=False)
    for reason, n in s["end_reasons"].items():
        out.print(f"Ended ({n}×): {reason}", markup=False)


# --- compare ----------------------------------------------------------------------------------


@click.command()
@click.option("--variant", "targets", multiple=True, required=True, metavar="VARIANT[@VERSION]",
              help="Exactly twice: the games are played under the first and rescored under the second.")
@played_games(200)
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the plots (PNG and SVG) and, with --save-records, the records.")
@click.option("--plots", "want_plots", is_flag=True,
              help="Write the plots (PNG and SVG; needs the analysis extra): into --out, else the current folder.")
@click.option("--save-records", is_flag=True, help="Also write every game's record into OUT/records (OUT: --out, else the current folder).")
@click.option("--records", "record_paths", multiple=True, type=click.Path(exists=True, path_type=Path), metavar="PATH",
              help="Compare these finished games (records, or folders of them) played under A, instead of playing new ones; repeatable.")
@click.option("--json", "as_json", is_flag=True)
def compare(targets, games, seed, players, bot_names, workers, scheduler, cache_dir, no_cache, out_dir, want_plots, save_records,
            record_paths, as_json):
    """Simulate under rule set A, rescore every game under B: winner changes, and B − A per
    breakdown line with 95% confidence intervals; with --plots or --out, plots too."""
    out, err = _consoles()
    names = _bots(bot_names)
    if len(targets) != 2:
        raise TTRError(f"compare takes --variant exactly twice (A, then B), got {len(targets)}")
    a, b = _targets(targets)
    plots = want_plots or out_dir is not None
    folder = out_dir if out_dir is not None else Path(".")
    if plots or save_records:
        check_out_dir(folder, "--out" if out_dir is not None else "the current folder")
    if save_records:
        check_out_dir(folder / "records", "--save-records")
    if plots:
        require_extra("analysis", MATPLOTLIB, "ttr compare --plots" if want_plots else "ttr compare --out (it writes plots)")
    if record_paths:
        _refuse_with_records(click.get_current_context())
        files = rescore_mod.record_paths(record_paths)
        with progress_bar(err, len(files), f"{a} vs {b}") as progress:
            c = compare_mod.compare_records(a, b, files, save_records, GameTick(progress, len(files)))
        cache = None
    else:
        if scheduler is not None:
            require_extra("analysis", DASK, "--scheduler")
        cache = game_cache_for(cache_dir, no_cache)
        workers = workers or simulate_mod.local_cores()
        saver = RecordSaver(folder / "records" if save_records else None)
        with progress_bar(err, games, f"{a} vs {b}") as progress, until_interrupted(games, cache, saver) as tick:
            tick.bar = GameTick(progress, games)
            c = compare_mod.compare(a, b, games, seed, players, names, workers, scheduler, tick, records=save_records,
                                    cache=cache, on_cache_problem=cache_warning(err), on_games=saver)
    data = compare_mod.report(c)
    paths = compare_mod.write_plots(c, folder) if plots else []
    if save_records:
        # played games wrote theirs as they finished; those of --records are written now
        data["records"] = str(compare_mod.write_records(c, folder) if record_paths else folder / "records")
    data["plots"] = [str(p) for p in paths]
    # status, not a result: on standard error, so that the JSON stays the same for the same seeds
    if not record_paths:
        err.print(_reuse_line(cache, c.reused(), len(c.games), c.b), markup=False, highlight=False)
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    _print_comparison(out, err, data)


#: the options that choose the games to play, which --records replaces
_PLAY_OPTIONS = MappingProxyType({"games": "--games", "seed": "--seed", "players": "--players", "bot_names": "--bots", "workers": "--workers",
                 "scheduler": "--scheduler", "cache_dir": "--cache", "no_cache": "--no-cache"})


def _refuse_with_records(ctx: click.Context) -> None:
    given = [flag for name, flag in _PLAY_OPTIONS.items()
             if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE]
    if given:
        raise TTRError(f"--records takes the games from the records: {', '.join(given)} would choose games to play; give one or the other")


def _print_comparison(out, err, d: dict) -> None:
    table = Table(title=escape(f"{d['games']} games played under {d['a']} ({d['players']} players, bots {','.join(d['bots'])}, "
                               f"seeds {d['seeds'][0]}-{d['seeds'][1]}), rescored under {d['b']}"), title_justify="left")
    for col in ("Line", f"mean {d['a']}", f"mean {d['b']}", "Δ per player [95% CI]", "player-games changed"):
        table.add_column(escape(col), justify="left" if col == "Line" else "right")
    for line, v in d["lines"].items():
        dl = v["delta"]
        table.add_row(escape(line), f"{v['mean_a']:.2f}", f"{v['mean_b']:.2f}", escape(f"{dl['mean']:+.3f} [{dl['low']:+.3f}, {dl['high']:+.3f}]"),
                      str(v["player_games_changed"]))
    out.print(table)
    w = d["winner_changes"]
    share = w["share"]
    why = escape(", ".join(f"{k} differs in {n}" for k, n in w["lines"].items()) or "-")
    out.print(f"Winner changes: [bold]{w['games']} of {d['games']} games ({share['mean']:.1%}, 95% CI "
              f"{share['low']:.1%}-{share['high']:.1%})[/bold]; in those games: {why}.", markup=True)
    if d["export_mismatches"]:
        err.print(f"[yellow]warning:[/yellow] {len(d['export_mismatches'])} game(s) rescore differently under {escape(d['a'])} itself "
                  f"(seeds {escape(str(d['export_mismatches'][:10]))}): the exported position misses something these rules score.", markup=True)
    out.print(f"({d['method']})", markup=False)
    if d["plots"]:
        out.print("Plots: " + ", ".join(d["plots"]), markup=False)
    if d.get("records"):
        out.print(f"Records: {d['records']}", markup=False)
