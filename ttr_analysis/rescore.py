"""Rescoring finished games under other variants or rules versions, line by line.

A finished game is scored again from its position (``ttr_core.position``: who owns which route,
holds which ticket, built which station), so any rule set on the same map can score it. The
score of one player is a *breakdown*: ``routes``, ``tickets``, one line per bonus, ``total``.
Comparing breakdowns line by line says what a rules change does to a game, and whether it
changes the winner.

A target names a variant and optionally a rules version: ``wor`` (its current version) or
``wor@1``. Every result carries the version actually used, so records made under different
rules versions can sit in one folder and be rescored together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from ttr_analysis import settings as settings_mod
from ttr_analysis.settings import Setting
from ttr_core import record, variant
from ttr_core.errors import RecordError, TTRError
from ttr_core.game import Game
from ttr_core.position import position_of, score_position

#: The fixed lines of a breakdown; bonus lines (by bonus name) go between tickets and total.
FIRST_LINES = ("routes", "tickets")
TOTAL = "total"


@attrs.frozen
class Target:
    """A variant and a rules version (None: the variant's current version), and parameters set
    on top of them (``--set``, :mod:`ttr_analysis.settings`)."""

    variant: str
    version: int | None = None
    settings: tuple[Setting, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Target:
        name, sep, version = text.strip().partition("@")
        if not name or (sep and not version.isdigit()):
            raise TTRError(f"{text!r}: a rule set is VARIANT or VARIANT@VERSION (e.g. wor@1)")
        return cls(name, int(version) if sep else None)

    def resolved(self) -> Target:
        """The same target with the version it stands for (the current one when none was named)."""
        if self.version is not None:
            return self
        return Target(self.variant, variant.load(self.variant).version, self.settings)

    def ruleset(self) -> variant.Ruleset:
        """The rules this target names, settings applied (checked: a located error otherwise)."""
        return settings_mod.load(self.variant, self.version, self.settings)

    def with_settings(self, more: tuple[Setting, ...]) -> Target:
        """This target with ``more`` settings, a parameter set again taking the new value."""
        keys = {(s.plugin, s.name) for s in more}
        return attrs.evolve(self, settings=tuple(s for s in self.settings if (s.plugin, s.name) not in keys) + more)

    def __str__(self) -> str:
        name = self.variant if self.version is None else f"{self.variant}@{self.version}"
        return name + settings_mod.label(self.settings)


@attrs.frozen
class SeatScore:
    """One player's breakdown: ``lines`` in order (routes, tickets, bonuses by name, total)."""

    name: str
    lines: tuple[tuple[str, int], ...]
    tickets_completed: int
    tickets_failed: int
    resigned: bool = False

    def line(self, name: str) -> int:
        for key, value in self.lines:
            if key == name:
                return value
        return 0  # a bonus this rule set does not have

    @property
    def total(self) -> int:
        return self.line(TOTAL)


@attrs.frozen
class Scored:
    """A finished game scored under one variant at one rules version."""

    variant: str
    version: int
    seats: tuple[SeatScore, ...]
    winners: tuple[str, ...]  # player names
    decided_by: str  # "score", a tie-breaker's name, or "shared"

    @property
    def label(self) -> str:
        return f"{self.variant}@{self.version}"

    def bonus_names(self) -> list[str]:
        return [k for s in self.seats for k, _ in s.lines if k not in (*FIRST_LINES, TOTAL)]


def scored_of(game: Game) -> Scored:
    """The breakdown of a finished game, as its own rules scored it."""
    if game.result is None:
        raise TTRError(f"seed {game.seed}: the game is not over, there is nothing to rescore")
    result = game.result
    seats = []
    for s in result.scores:
        bonuses = sorted({b.name for b in s.bonuses})
        lines = (("routes", s.routes), ("tickets", s.ticket_points), *((b, s.bonus(b)) for b in bonuses), (TOTAL, s.total))
        seats.append(SeatScore(s.name, lines, len(s.tickets_completed), len(s.tickets_failed), s.resigned))
    winners = tuple(game.names[i] for i in result.winners.seats)
    return Scored(game.ruleset.variant, game.ruleset.version, tuple(seats), winners, result.winners.decided_by)


def rescore_position(position: Mapping[str, Any], target: Target, where: str = "position") -> Scored:
    """Score a position (``position_of``) under ``target``; RecordError if that rule set cannot
    read it (another map, a key no plugin of it reads)."""
    # resolve the version here: score_position falls back to the position's own version, which
    # another variant may not have ("wor" version 2 is not a version of "wor-legacy")
    target = target.resolved()
    ruleset = target.ruleset() if target.settings else None
    return scored_of(score_position(dict(position), where, target.version, target.variant, ruleset=ruleset))


def line_names(scoreds: Sequence[Scored]) -> list[str]:
    """Every line of these breakdowns, in display order: routes, tickets, bonuses by name, total."""
    bonuses = sorted({b for s in scoreds for b in s.bonus_names()})
    return [*FIRST_LINES, *bonuses, TOTAL]


@attrs.frozen
class LineDiff:
    """One line of one player that differs between rule sets: ``values`` in target order."""

    player: str
    line: str
    values: tuple[int, ...]


def differences(scoreds: Sequence[Scored]) -> tuple[LineDiff, ...]:
    """Per player and line, the lines whose values are not all equal across ``scoreds``."""
    if not scoreds:
        return ()
    out = []
    for i, seat in enumerate(scoreds[0].seats):
        for line in line_names(scoreds):
            values = tuple(s.seats[i].line(line) for s in scoreds)
            if len(set(values)) > 1:
                out.append(LineDiff(seat.name, line, values))
    return tuple(out)


def winner_changes(scoreds: Sequence[Scored]) -> bool:
    return len({frozenset(s.winners) for s in scoreds}) > 1


@attrs.frozen
class GameRescore:
    """One game rescored under several targets. ``results[i]`` is None when target i cannot score
    the game; ``errors[i]`` then says why. ``recorded`` is the game as its own rules scored it (the
    result the record states).

    What is compared: the targets with each other; a single target with ``recorded`` (rescoring a
    game under one other rule set asks what that rule set changes)."""

    source: str
    variant: str  # as recorded
    version: int
    seed: int
    targets: tuple[str, ...]  # as asked
    results: tuple[Scored | None, ...]
    errors: tuple[str | None, ...]
    recorded: Scored | None = None

    @property
    def scored(self) -> list[Scored]:
        return [r for r in self.results if r is not None]

    @property
    def against_record(self) -> bool:
        """True when the only target is compared with the recorded result."""
        return len(self.targets) == 1 and self.recorded is not None

    @property
    def compared(self) -> list[Scored]:
        """The breakdowns compared, in column order."""
        if self.against_record:
            return [self.recorded, *self.scored]  # type: ignore[list-item]
        return self.scored

    @property
    def diffs(self) -> tuple[LineDiff, ...]:
        return differences(self.compared)

    @property
    def winner_changes(self) -> bool:
        return winner_changes(self.compared)


def default_targets(recorded_variant: str, recorded_version: int) -> list[Target]:
    """Without targets: the rules the game was played under, and that variant's current rules."""
    return [Target(recorded_variant, recorded_version), Target(recorded_variant)]


def map_of(target: Target) -> tuple[str, str]:
    """The map ``target`` plays on, and the target as ``variant@version``."""
    ruleset = variant.load(target.variant, target.version)
    return ruleset.board.id, f"{ruleset.variant}@{ruleset.version}"


def check_same_map(targets: Sequence[Target]) -> None:
    """Refuse, with one message, rule sets that play on different maps: no game can be scored under
    all of them (a route or city of one map is not on the other)."""
    maps: dict[str, list[str]] = {}
    for target in targets:
        board, label = map_of(target)
        maps.setdefault(board, []).append(label)
    if len(maps) > 1:
        where = "; ".join(f"{', '.join(labels)} on map {board!r}" for board, labels in maps.items())
        raise TTRError(f"these rule sets play on different maps, so no game can be scored under all of them: {where}")


def rescore_game(game: Game, targets: Sequence[Target], source: str = "") -> GameRescore:
    position = position_of(game)
    results: list[Scored | None] = []
    errors: list[str | None] = []
    for target in targets:
        try:
            board, label = map_of(target)
            if board != game.board.id:
                raise TTRError(f"{label} plays on map {board!r}, the game was played on map {game.board.id!r}")
            results.append(rescore_position(position, target, source or f"seed {game.seed}"))
            errors.append(None)
        except (RecordError, TTRError) as exc:
            problems = exc.problems if isinstance(exc, RecordError) else [str(exc)]
            results.append(None)
            errors.append(f"cannot score under {target}: " + "; ".join(problems))
    return GameRescore(
        source, game.ruleset.variant, game.ruleset.version, game.seed,
        tuple(str(t) for t in targets), tuple(results), tuple(errors), scored_of(game),
    )


def rescore_record(path: Path, targets: Sequence[Target]) -> GameRescore:
    """Replay a record under the rules version it names (checking its digest and the result it
    states: a record with edited scores is refused, not rescored), then rescore its position."""
    data = record.load(path)
    game = record.replay(data, str(path))
    if not game.over:
        raise RecordError([f"{path}: the game is not over: only finished games can be rescored"])
    chosen = list(targets) or default_targets(game.ruleset.variant, game.ruleset.version)
    return rescore_game(game, chosen, str(path))


def record_paths(paths: Sequence[Path]) -> list[Path]:
    """Files as given; a folder stands for the ``*.json`` records in it, in name order."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out += sorted(p.glob("*.json"))
        else:
            out.append(p)
    return out


def _scored_json(r: Scored) -> dict[str, Any]:
    return {
        "variant": r.variant,
        "version": r.version,
        "scores": [
            {"name": s.name, **dict(s.lines), "tickets_completed": s.tickets_completed,
             "tickets_failed": s.tickets_failed, "resigned": s.resigned}
            for s in r.seats
        ],
        "winners": list(r.winners),
        "decided_by": r.decided_by,
    }


def to_json(g: GameRescore) -> dict[str, Any]:
    """``differences`` and ``winner_changes`` compare the targets with each other, or the single
    target with ``recorded`` (``compared_with_record``)."""
    return {
        "record": g.source,
        "variant": g.variant,
        "version": g.version,
        "seed": g.seed,
        "recorded": _scored_json(g.recorded) if g.recorded is not None else None,
        "rescored": [
            {"target": t, "error": e} if r is None else {"target": t, **_scored_json(r)}
            for t, r, e in zip(g.targets, g.results, g.errors)
        ],
        "compared_with_record": g.against_record,
        "differences": [{"player": d.player, "line": d.line, "values": list(d.values)} for d in g.diffs],
        "winner_changes": g.winner_changes,
    }
