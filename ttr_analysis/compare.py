"""Comparing two rule sets on the same games: simulate under A, rescore every game under B.

The games are played once, under A, by the chosen bots (or taken from records of games played
under A: ``compare_records``); each finished position is scored again
under B (``rescore``). So every difference comes from scoring, never from luck: B − A per
breakdown line, and the games whose winner changes. Both rule sets must read the same positions
(the same map; ``wor`` and ``wor-legacy``, or two versions of one variant).

Each game is also rescored under A itself: a game whose rescoring under A differs from how it was
played means the position lost something the rules score (``export_mismatches``); such a
comparison is reported, not trusted silently.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from ttr_analysis import plots, stats
from ttr_analysis.game_cache import GameCache
from ttr_analysis.rescore import TOTAL, Target, check_same_map, differences
from ttr_analysis.simulate import GameSummary, SimSpec, run, summary_of
from ttr_core import record, variant
from ttr_core.errors import RecordError, TTRError
from ttr_core.files import make_folder, write_atomically

#: what a comparison of recorded games says of the bots: the records do not name them
RECORDED = "from records"

METHOD = (
    "95% intervals: normal approximation, mean ± 1.96·sd/√games, over per-game means of the per-player "
    "deltas (players of one game are not independent); Wilson's interval for the share of winner changes"
)


@attrs.frozen
class Comparison:
    a: str  # "wor@2": variant@version as actually used
    b: str
    seed: int
    players: int
    bots: tuple[str, ...]
    games: tuple[GameSummary, ...]

    def pairs(self):
        return [(g.played, g.rescored[1]) for g in self.games]

    def changed(self) -> list[GameSummary]:
        return [g for g in self.games if frozenset(g.played.winners) != frozenset(g.rescored[1].winners)]

    def reused(self) -> int:
        """How many of the games were read from a cache rather than played."""
        return sum(1 for g in self.games if g.reused)

    def export_mismatches(self) -> list[int]:
        return [g.seed for g in self.games if g.played != g.rescored[0]]


def compare(
    a: Target, b: Target, games: int, seed: int = 1, players: int | None = None, bots: Sequence[str] = ("ticket",),
    workers: int = 1, scheduler: str | None = None, on_progress: Callable[[int], None] | None = None,
    records: bool = False, cache: GameCache | None = None, on_cache_problem: Callable[[str], None] | None = None,
    on_games: Callable[[list[GameSummary]], None] | None = None,
) -> Comparison:
    """Play ``games`` seeded games under ``a`` (seeds ``seed``...), score each under ``a`` and ``b``.
    With ``cache``, games played before under the same key are not played again: only their
    scoring under ``b`` is computed (``simulate.run``, which also says what ``on_games`` gets)."""
    a, b = a.resolved(), b.resolved()
    check_same_map([a, b])  # before any game: B could not score a single one
    spec = SimSpec(a.variant, a.version, players or default_players(a), tuple(bots), (a, b), records)
    played = run(spec, range(seed, seed + games), workers, scheduler, on_progress,
                 cache=cache, on_cache_problem=on_cache_problem, on_games=on_games)
    return Comparison(str(a), str(b), seed, spec.players, spec.bots, tuple(played))


def compare_records(
    a: Target, b: Target, paths: Sequence[Path], records: bool = False, on_progress: Callable[[int], None] | None = None,
) -> Comparison:
    """The games of finished records played under ``a``, instead of new ones: each is replayed
    under its own rules (its digest and stated result checked), then scored under ``a`` and ``b``.
    Every record that cannot be used is reported, all at once, in a ``RecordError``."""
    a, b = a.resolved(), b.resolved()
    check_same_map([a, b])
    ruleset = variant.load(a.variant, a.version)
    games: list[GameSummary] = []
    problems: list[str] = []
    for path in paths:
        try:
            game = record.replay(record.load(path), str(path))
        except RecordError as exc:
            problems += exc.problems
            continue
        played_under = f"{game.ruleset.variant}@{game.ruleset.version}"
        if not game.over:
            problems.append(f"{path}: the game is not over: only finished games can be compared")
        elif (game.ruleset.variant, game.ruleset.version) != (ruleset.variant, ruleset.version):
            problems.append(f"{path}: played under {played_under}, not under {a} (the first --variant)")
        else:
            spec = SimSpec(a.variant, a.version, len(game.names), (RECORDED,), (a, b), records)
            games.append(summary_of(spec, game))
        if on_progress:
            on_progress(1)
    if problems:
        raise RecordError(problems)
    if not games:
        raise TTRError("no records found (a folder stands for the *.json files in it)")
    counts = sorted({len(g.played.seats) for g in games})
    if len(counts) > 1:
        raise TTRError(f"the records have {' and '.join(map(str, counts))} players: compare games of one table size at a time")
    games.sort(key=lambda g: g.seed)
    return Comparison(str(a), str(b), games[0].seed, counts[0], (RECORDED,), tuple(games))


def default_players(target: Target) -> int:
    """Four players, the most common table, or the nearest count the variant allows."""
    rs = variant.load(target.variant, target.version)
    return min(max(4, rs.players.min), rs.players.max)


def report(c: Comparison) -> dict[str, Any]:
    """The numbers of a comparison as JSON data; the same for the same seed, on any machine."""
    n = len(c.games)
    changed = c.changed()
    share = stats.proportion_ci(len(changed), n)
    # which lines differ in the games whose winner changed: what changed the winner
    blame: Counter[str] = Counter()
    for g in changed:
        blame.update({d.line for d in differences([g.played, g.rescored[1]]) if d.line != TOTAL})
    return {
        "a": c.a,
        "b": c.b,
        "games": n,
        "seeds": [min(g.seed for g in c.games), max(g.seed for g in c.games)],
        "players": c.players,
        "bots": list(c.bots),
        "winner_changes": {
            "games": len(changed),
            "share": share.as_dict(4),
            "seeds": [g.seed for g in changed],
            "lines": dict(sorted(blame.items())),
        },
        "lines": stats.line_deltas(c.pairs()),
        "export_mismatches": c.export_mismatches(),
        "method": METHOD,
    }


def write_plots(c: Comparison, out_dir: Path) -> list[Path]:
    stem = f"compare-{c.a}-vs-{c.b}".replace("@", "-v")
    return plots.compare_plot(c.pairs(), c.a, c.b, len(c.changed()), out_dir, stem)


def write_records(c: Comparison, out_dir: Path) -> Path:
    """Every game's record into ``out_dir/records``; the folder."""
    folder = out_dir / "records"
    write_records_of(c.games, folder)
    return folder


def write_records_of(games: Sequence[GameSummary], folder: Path) -> int:
    """The records of ``games`` (those that carry one) into ``folder``, each file whole or not at
    all; how many were written. A :class:`~ttr_core.files.WriteError` names a file that could not be."""
    make_folder(folder)
    written = 0
    for g in games:
        if g.record is not None:
            write_atomically(folder / record_name(g), g.record)
            written += 1
    return written


def record_name(g: GameSummary) -> str:
    return f"{g.played.variant}-v{g.played.version}-seed{g.seed}.json"
