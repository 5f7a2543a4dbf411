"""The ``ttr`` command line: play, replay, score, variants, bots.

Exit codes (the table is in :mod:`ttr_cli.failures` and docs/cli.md): 0 success, 1 a failed check,
2 bad input (a broken variant, map, record or position file, an unknown plugin, a file that
cannot be written...), printed as located messages, 3 a port in use (``ttr serve``), 130
interrupted. Every command takes ``--json`` for scripts; on failure it prints the problems as
JSON. An engine failure (a bug) shows its traceback: please report it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import cattrs
import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

import ttr_bots as bots
from ttr_analysis.rescore import record_paths
from ttr_core import record, variant
from ttr_core.errors import RecordError, TTRError, VariantError
from ttr_core.files import parse_json, read_json, read_toml, structure, structure_fields
from ttr_core.game import Game
from ttr_core.position import score_position
from ttr_core.scoring import GameResult
from ttr_cli.bonuses import bonus_columns
from ttr_cli import variant_sources
from ttr_cli.failures import BAD_INPUT, CHECK_FAILED, Commands, Failure, err, guarded, problem, problems_of
from ttr_cli.preflight import check_out_file
from ttr_cli.turnlog import TurnLog

__all__ = ["main", "guarded", "err", "out", "parse_bots"]

_conv = cattrs.Converter()
out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 160)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ttr-engine")
@click.option("--debug", is_flag=True, envvar="TTR_DEBUG",
              help="Show the traceback of a failure (a plugin's, for its author) before the error line.")
def main(debug: bool) -> None:
    """ttr-engine: a rules engine for the Ticket to Ride family of railway games.

    Exit codes: 0 success, 1 a check failed, 2 bad input, 3 a port in use (ttr serve),
    130 interrupted. With --json a failure prints {"problems": [{"where", "message", "code"}]}."""


# --- play / replay / score ------------------------------------------------------------------


@main.command()
@click.option("--variant", "variant_id", default="usa", show_default=True, help="Variant id or .toml file.")
@click.option("--version", "rules_version", type=int, default=None, help="Rules version (default: the current one).")
@click.option("--players", type=click.IntRange(1, 10), default=4, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--bots", "bot_names", default="ticket", show_default=True,
              help="Comma-separated, cycled over seats (ticket,random); `ttr bots` lists them.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Write the game record here.")
@click.option("--quiet", is_flag=True, help="Print only the final table.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@guarded
def play(variant_id, rules_version, players, seed, bot_names, out_path, quiet, as_json):
    """Play a whole game of bots and print the final score table."""
    names = parse_bots(bot_names)
    if out_path is not None:
        check_out_file(out_path)
    ruleset = variant.load(variant_id, rules_version)
    log = None if (quiet or as_json) else TurnLog(lambda line: out.print(line, markup=False))
    game = bots.play_game(ruleset, players, seed, names, on_action=log and log.on_action, on_start=log and log.on_start)
    if out_path:
        record.save(game, out_path)
    _finish(game, as_json, extra={"record": str(out_path) if out_path else None})


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True)
@guarded
def replay(paths, as_json):
    """Replay game records, check that each reproduces byte for byte, print the final table.

    PATHS are record files, or folders standing for the *.json records in them, all replayed in
    this one process. With several records, one line per record and a count at the end; a record
    that does not reproduce is reported, located, and the others are still replayed (exit code 2).
    """
    files = record_paths(paths)
    if not files:
        raise RecordError([f"{', '.join(map(str, paths))}: no records found (a folder stands for the *.json records in it)"])
    if len(files) == 1 and not files[0].is_dir() and files[0] == paths[0]:
        game = _replayed(files[0])
        if not as_json:
            checked = "digest, end and stated result checked" if game.over else "digest checked; the game is not over"
            out.print(f"{files[0]}: reproduced byte for byte ({len(game.log)} actions replayed; {checked})", markup=False)
        _finish(game, as_json, extra={"record": str(files[0]), "reproduced": True})
        return
    results = []
    for path in files:
        try:
            game = _replayed(path)
            results.append({"record": str(path), "reproduced": True, "actions": len(game.log), "over": game.over})
        except TTRError as exc:
            results.append({"record": str(path), "reproduced": False, "problems": problems_of(exc)})
    bad = [r for r in results if not r["reproduced"]]
    if as_json:
        data = {"records": results, "reproduced": len(results) - len(bad), "broken": len(bad)}
        if bad:
            data["problems"] = [p for r in bad for p in r["problems"]]
        click.echo(json.dumps(data, indent=2))
    else:
        for r in results:
            # a refusal's problems are located already, with the file's name
            line = f"{r['record']}: reproduced byte for byte ({r['actions']} actions)" if r["reproduced"] \
                else "; ".join(p["message"] for p in r["problems"])
            out.print(line, markup=False)
        out.print(f"{len(results) - len(bad)} of {len(results)} records reproduced", markup=False)
    if bad:
        raise SystemExit(2)


def _replayed(path: Path) -> Game:
    try:
        data = record.load(path)
    except RecordError:
        if _is_position(path):
            raise RecordError([f"{path}: a position (the players' routes and tickets), not a game record: "
                               f"`ttr score {path}` scores it"]) from None
        raise
    game = record.replay(data, str(path))
    if record.dumps(record.make_record(game)) != record.dumps(data):
        raise TTRError(f"{path}: replays to the same state but not to the same record bytes")
    return game


def _is_position(path: Path) -> bool:
    """A file that reads as a position for ``ttr score`` (players, no actions), not as a record."""
    try:
        data = read_json(path)
    except TTRError:
        return False
    if not isinstance(data, dict) or "actions" in data:
        return False
    players = data.get("players")
    return isinstance(players, list) and any(isinstance(p, dict) for p in players)


def _is_record(data: Any) -> bool:
    return isinstance(data, dict) and (data.get("format") == record.FORMAT or "actions" in data)


@main.command()
@click.argument("path", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@click.option("--variant", "variant_id", default=None, help="Score under this variant instead of the file's.")
@click.option("--version", "rules_version", type=int, default=None, help="Score under this rules version.")
@click.option("--json", "as_json", is_flag=True)
@guarded
def score(path, variant_id, rules_version, as_json):
    """Score a finished position given by hand (routes, tickets, stations per player).

    PATH is a JSON file, or - to read the position from standard input. A position the rules could
    not have produced (a route taken twice, both routes of a double where the rules close one, a
    ticket card held twice) is refused with located messages and exit code 2.
    """
    if str(path) == "-":
        stdin = getattr(sys.stdin, "buffer", None)
        if stdin is None:
            raise TTRError("<stdin>: there is no standard input to read the position from")
        where, data = "<stdin>", parse_json(stdin.read(), "<stdin>")
    else:
        where, data = str(path), read_json(path)
    if _is_record(data):
        raise RecordError([f"{where}: a game record, not a position: `ttr replay {path}` replays it and prints its final "
                           f"table, `ttr rescore {path} --variant V` scores it under other rules"])
    if variant_id is not None:
        _option_variant(variant_id, rules_version)  # a wrong --variant is the option's fault, not the file's
    game = score_position(data, where, rules_version, variant_id)
    _finish(game, as_json)


def _option_variant(variant_id: str, rules_version: int | None, option: str = "--variant") -> None:
    """Load the variant an option names; problems not located in a file are the option's."""
    try:
        variant.load(variant_id, rules_version)
    except VariantError as exc:
        raise VariantError([p if problem(p, "").get("where") else f"{option} {variant_id}: {p}" for p in exc.problems]) \
            from None


def parse_bots(text: str) -> tuple[str, ...]:
    """The value of ``--bots`` (``ticket,random``): names of usable bots, else bad input naming
    the option, so that a misspelt bot is refused before any game is played."""
    names = tuple(b.strip() for b in text.split(","))
    if not any(names):
        names = ()  # bot_classes says that no bot is given
    elif "" in names:
        raise TTRError(f"--bots {text!r}: a bot name is empty (two commas in a row, or one at an end); "
                       "give names separated by single commas, e.g. ticket,random")
    try:
        bots.bot_classes(names)
    except bots.BotError as exc:
        raise TTRError(f"--bots: {exc}") from None
    return names


def _finish(game: Game, as_json: bool, extra: dict[str, Any] | None = None) -> None:
    result = game.result
    if as_json:
        data = {"variant": game.ruleset.variant, "version": game.ruleset.version, **(extra or {})}
        data["result"] = _conv.unstructure(result) if result else None
        click.echo(json.dumps(data, indent=2))
        return
    rs = game.ruleset
    out.print(f"[bold]{escape(rs.title)}[/bold] — variant {escape(rs.variant)}, rules version {rs.version}", markup=True)
    if result is None:
        out.print("the game is not over", markup=False)
        return
    out.print(score_table(game, result))
    for s in result.scores:
        for note in s.notes:
            out.print(f"  {s.name}: {note}", markup=False)
        for borrow in s.borrows:
            if borrow.route is None:  # R-STA-3: a station that completes nothing more borrows nothing
                out.print(f"  {s.name}: {borrow.label} borrowed nothing", markup=False)
    won = " and ".join(game.names[s] for s in result.winners.seats)
    out.print(f"Winner: [bold]{escape(won)}[/bold] (decided by {escape(result.winners.decided_by)}); "
              f"the game ended because {escape(result.reason)}.", markup=True)


def score_table(game: Game, result: GameResult) -> Table:
    bonus_names = bonus_columns(game.ruleset, (b.name for s in result.scores for b in s.bonuses))
    table = Table(title="Final scores")
    for col in ("Player", "Routes", "Tickets done", "Tickets failed", "Ticket pts", *bonus_names, "Total"):
        table.add_column(col, justify="left" if col == "Player" else "right")
    for s in result.scores:
        star = " *" if s.seat in result.winners.seats else ""
        table.add_row(
            escape(s.name) + star + (" (resigned)" if s.resigned else ""),
            str(s.routes),
            str(len(s.tickets_completed)),
            str(len(s.tickets_failed)),
            f"{s.ticket_points:+d}",
            *(str(s.bonus(b)) for b in bonus_names),
            f"[bold]{s.total}[/bold]",
        )
    return table


# --- variants ------------------------------------------------------------------------------


@main.group(invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@guarded
def variants(ctx, as_json):
    """List the installed variants (subcommands: show, diff, check)."""
    if ctx.invoked_subcommand is not None:
        return
    rows = []
    for vid, path in sorted(variant.available().items()):
        try:
            rs = variant.load(vid)
            rows.append({"id": vid, "title": rs.title, "version": rs.version, "map": rs.board.id,
                         "players": f"{rs.players.min}-{rs.players.max}", "ok": True})
        except TTRError as exc:
            rows.append({"id": vid, "title": "", "version": None, "map": "", "players": "", "ok": False, "error": str(exc)})
    for problem_text in variant_sources.problems():  # on standard error: the list stays what is installed
        err.print(f"[yellow]warning:[/yellow] {escape(problem_text)}", markup=True)
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    table = Table(title="Variants")
    for col in ("id", "title", "rules version", "map", "players"):
        table.add_column(col)
    for r in rows:
        table.add_row(escape(r["id"]), escape(r["title"]) or "[red]broken[/red]", str(r["version"] or ""), escape(r["map"]), r["players"])
    out.print(table)


@variants.command("show")
@click.argument("variant_id")
@click.option("--version", "rules_version", type=int, default=None)
@click.option("--json", "as_json", is_flag=True)
@guarded
def variants_show(variant_id, rules_version, as_json):
    """Show a variant: its rules versions, the variant it extends, its map, and every plugin with the
    parameters in force (defaults included)."""
    rs = variant.load(variant_id, rules_version)
    vf = variant_file(Path(rs.path))
    current = variant.load(rs.path).version
    data = {
        "id": rs.variant, "title": rs.title, "version": rs.version, "current": current,
        "history": [{"version": int(n), "note": vf.versions[n].note} for n in sorted(vf.versions, key=int)],
        "extends": _parent(vf, Path(rs.path)),
        "map": {"id": rs.board.id, "cities": len(rs.board.cities), "routes": len(rs.board.routes),
                "tickets": len(rs.board.tickets), "trains": rs.board.trains},
        "players": [rs.players.min, rs.players.max],
        "plugins": {name: _conv.unstructure(rs.configs.get(name)) for name in rs.plugins},
        "file": rs.path,
    }
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    out.print(f"[bold]{escape(rs.title)}[/bold] ({escape(rs.variant)}, rules version {rs.version}"
              f"{'' if rs.version == current else f'; new games use {current}'}) from {escape(rs.path)}", markup=True)
    parent = data["extends"]
    if parent:
        how = "pinned" if parent["pinned"] else "its current version"
        out.print(f"extends {parent['variant']} at rules version {parent['version']} ({how})", markup=False)
    out.print("rules versions:", markup=False)
    for h in data["history"]:
        marks = [m for m, on in (("shown", h["version"] == rs.version), ("current", h["version"] == current)) if on]
        mark = f" ({', '.join(marks)})" if marks else ""
        out.print(f"  v{h['version']}{mark}: {h['note'] or '(no note)'}", markup=False)
    m = data["map"]
    out.print(f"map {m['id']}: {m['cities']} cities, {m['routes']} routes, {m['tickets']} tickets, {m['trains']} trains; "
              f"{rs.players.min}-{rs.players.max} players", markup=False)
    out.print(f"plugins and the parameters in force (defaults included), rules version {rs.version}:", markup=False)
    for name, cfg in data["plugins"].items():
        params = ", ".join(f"{k} = {json.dumps(v)}" for k, v in cfg.items()) if cfg else "(no parameters)"
        out.print(f"  [cyan]{escape(name)}[/cyan]: {escape(params)}", markup=True)


def variant_file(path: Path) -> variant.VariantFile:
    """A variant file as written (its own versions and notes, what it extends), not resolved."""
    return structure(read_toml(path), variant.VariantFile, str(path))


def _parent(vf: variant.VariantFile, path: Path) -> dict[str, Any] | None:
    """What ``vf`` extends: the parent's id and the rules version it builds on."""
    if not vf.extends:
        return None
    name, _, pinned = vf.extends.partition("@")
    where = str(path.parent / name) if name.endswith(".toml") or "/" in name else name
    parent = variant.load(where, int(pinned) if pinned else None)
    return {"variant": parent.variant, "version": parent.version, "pinned": bool(pinned), "file": parent.path}


@variants.command("diff")
@click.argument("first", metavar="A")
@click.argument("second", metavar="B")
@click.option("--json", "as_json", is_flag=True)
@guarded
def variants_diff(first, second, as_json):
    """What differs from rule set A to rule set B (each VARIANT or VARIANT@VERSION): plugins added
    and removed, parameters changed (old → new, with what each means and the rule it sets, as the
    plugins document them), the rules version and its note, and the map (cities, routes, tickets)."""
    from ttr_analysis.rescore import Target
    from ttr_analysis.variant_diff import diff_lines, variant_diff

    rulesets = []
    for name, text in (("A", first), ("B", second)):
        try:
            target = Target.parse(text)
            rulesets.append(variant.load(target.variant, target.version))
        except VariantError as exc:  # say which of the two it is, unless a file is named already
            if all(problem(p, "").get("where") for p in exc.problems):
                raise
            raise Failure([f"{name} {text}: {p}" for p in exc.problems], BAD_INPUT, "variant-file", where=name) from None
        except TTRError as exc:
            raise Failure([f"{name} {text}: {exc}"], BAD_INPUT, "bad-input", where=name) from None
    data = variant_diff(*rulesets)
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    for line in diff_lines(data):
        out.print(line, markup=False)


@variants.command("check")
@click.argument("path")
@click.option("--play", "games", type=click.IntRange(0, 100_000), default=0,
              help="Also play this many seeded bot games per rules version, checking the invariants after every action.")
@click.option("--json", "as_json", is_flag=True)
@guarded
def variants_check(path, games, as_json):
    """Check a variant file, every rules version of it; all the problems found are reported at once,
    located, with exit code 2.

    With --play N: the conformance check for a new variant or house rule. N seeded games of
    random bots over the allowed player counts; after every action the engine's invariants
    (cards, trains, scores, ownership, and every plugin's own) must hold, and every game
    must replay to the same record (exit code 1 if they do not).
    """
    from ttr_kit.testing import conformance_problems

    if Path(path).is_dir():
        inside = sorted(p.name for p in Path(path).glob("*.toml"))
        raise TTRError(f"{path}: cannot read a folder as a variant file; give a variant file ("
                       + (f"in it: {', '.join(inside)})" if inside else "it holds no *.toml file)"))
    vf_path = variant.find_variant(path).resolve()
    # the versions a file has, even when other keys of it are wrong: each is checked all the same
    versions = structure_fields(read_toml(vf_path), variant.VariantFile).get("versions") or {}
    numbers = sorted(int(n) for n in versions if n.isdigit()) or [None]
    checked, problems = [], []
    for n in numbers:
        try:
            checked.append(variant.load(str(vf_path), n))
        except VariantError as exc:
            problems += [p for p in exc.problems if p not in problems]
    if problems:
        raise Failure(problems, BAD_INPUT, "variant-file",
                      {"file": str(vf_path), "ok": False, "versions": [r.version for r in checked], "games": 0})
    played = [p for rs in checked for p in conformance_problems(rs, games)] if games else []
    last = max(r.version for r in checked)
    notes = _unpredictable_notes(checked)
    summary = {"file": str(vf_path), "ok": not played, "versions": [r.version for r in checked],
               "games": games * len(checked), "notes": notes}
    if not as_json:
        for note in notes:
            out.print(f"note: {note}", markup=False)
        games_text = f"; {games * len(checked)} games played" if games else ""
        out.print(f"{vf_path}: {'FAILED' if played else 'ok'} ({checked[0].variant}, rules versions 1-{last}{games_text})",
                  markup=False)
    if played:
        raise Failure(played, CHECK_FAILED, "check-failed", summary)
    if as_json:
        click.echo(json.dumps({**summary, "problems": []}))


def _unpredictable_notes(rulesets) -> list[str]:
    """A note per plugin that does not declare itself deterministic: what it costs its games."""
    names = sorted({name for rs in rulesets if rs.rules.watch is not None for name in rs.rules.watch.plugins})
    return [f"plugin {name!r} does not declare itself deterministic: its games copy their state after each action "
            "that consults it, so that a failure is never undone by asking it again (set `deterministic = True` "
            "on the plugin class if it depends on the game alone)" for name in names]


# --- bots ----------------------------------------------------------------------------------


@main.command("bots")
@click.option("--json", "as_json", is_flag=True)
@guarded
def bots_list(as_json):
    """List the installed bots (the names --bots takes): where each comes from and what it does."""
    rows = [{"name": b.name, "from": b.origin, "class": b.target, "doc": b.doc, "ok": b.error is None,
             **({"error": b.error} if b.error else {})} for b in bots.describe()]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    table = Table(title="Bots")
    for col in ("name", "from", "class", "what it does"):
        table.add_column(col)
    for r in rows:
        about = escape(r["doc"]) if r["ok"] else f"[red]broken:[/red] {escape(r['error'])}"
        table.add_row(escape(r["name"]), escape(r["from"]), escape(r["class"]), about)
    out.print(table)


def _add_plugin_commands() -> None:
    # Commands that live in their own modules (analysis: rescore, simulate, compare; serve)
    # register themselves here, so this file stays the home of the basic commands.
    import importlib

    for module in ("ttr_cli.analysis", "ttr_cli.serve", "ttr_cli.playtest", "ttr_cli.admin"):
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        mod.register(main)


_add_plugin_commands()

if __name__ == "__main__":
    main()
