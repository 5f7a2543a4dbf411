"""Rule failures at the table that only the course of a game shows: the open row's reset limit
hit (R-ROW-3), turns ending with a face-up row the rules in force would reset (in usa, europe and
wor 3 or more locomotives, R-ROW-2; the rules asked through ``game.open_row_needs_reset``, so a
variant's own trigger counts), and seats left with no legal action but passing (R-TURN-2).

The known loophole of the published rules: in 2-player games where nobody takes locomotives, the
deck ends up holding little else, and "3 face-up locomotives: discard and deal again" (R-ROW-2)
would loop; the engine stops after ``max_resets`` resets in a row (R-ROW-3) and leaves the row as
dealt. A playtest counts how often that happens, from the game's public accessor
``game.open_row_resets`` (as the move log tells players of a reset), and names an example record
with the action after which it happened.

:class:`TableWatch` follows one game as its record is replayed (``playtest.replay_watched``);
:func:`failure_figures` turns the games' :class:`TableTrouble` into the report's figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from ttr_analysis import stats
from ttr_core.game import Game


@attrs.frozen
class TableTrouble:
    """What went wrong at one game's table. Action numbers count from 1 in the record's actions;
    0 is the deal, before the first action."""

    reset_limits: int = 0  # times the reset limit left the row as dealt (R-ROW-3)
    first_reset_limit: int | None = None  # the action after which it first happened
    unreset_turns: int = 0  # turns that ended with a row the rules would reset (R-ROW-2) left face up
    first_unreset_turn: int | None = None
    first_pass: tuple[int | None, ...] = ()  # per seat: the action of its first pass, None if it never passed


class TableWatch:
    """Follows one game, action by action (call :meth:`after` after each)."""

    def __init__(self, game: Game):
        self.actions = 0
        self.turn = game.turn
        self.limits = 0
        self.first_limit: int | None = None
        self.unreset_turns = 0
        self.first_unreset: int | None = None
        self.first_pass: list[int | None] = [None] * len(game.names)
        self._limits_now(game)  # the deal itself may hit the limit

    def _limits_now(self, game: Game) -> None:
        _, limits = game.open_row_resets
        if limits > self.limits:
            self.limits = limits
            if self.first_limit is None:
                self.first_limit = self.actions

    def after(self, game: Game, seat: int, kind: str) -> None:
        """``seat`` has just played an action of ``kind``."""
        self.actions += 1
        self._limits_now(game)
        if kind == "pass" and self.first_pass[seat] is None:
            self.first_pass[seat] = self.actions  # passing is legal only when nothing else is (R-TURN-2)
        if game.turn > self.turn:
            self.turn = game.turn
            if game.open_row_needs_reset():
                self.unreset_turns += 1
                if self.first_unreset is None:
                    self.first_unreset = self.actions

    def trouble(self) -> TableTrouble:
        return TableTrouble(self.limits, self.first_limit, self.unreset_turns, self.first_unreset, tuple(self.first_pass))


def _share(k: int, n: int) -> dict[str, Any]:
    e = stats.proportion_ci(k, n)
    return {"k": k, "n": n, **{key: round(v, 4) for key, v in (("mean", e.mean), ("low", e.low), ("high", e.high))}}


def failure_figures(games: Sequence[Any]) -> dict[str, Any]:
    """The table's rule failures over ``games`` (facts with ``seed`` and ``table``): each a share
    with an example game's seed and the action number in its record."""
    n = len(games)
    limited = [g for g in games if g.table.reset_limits]
    unreset = [g for g in games if g.table.unreset_turns]
    stuck = [(g, a) for g in games for a in g.table.first_pass if a is not None]
    return {
        "open_row_reset_limit": {**_share(len(limited), n), "times": sum(g.table.reset_limits for g in games),
                                 "example": limited[0].seed if limited else None,
                                 "action": limited[0].table.first_reset_limit if limited else None},
        "row_left_needing_reset": {**_share(len(unreset), n), "turns": sum(g.table.unreset_turns for g in games),
                                   "example": unreset[0].seed if unreset else None,
                                   "action": unreset[0].table.first_unreset_turn if unreset else None},
        "no_legal_action_but_passing": {**_share(len(stuck), n * games[0].players),
                                        "example": stuck[0][0].seed if stuck else None,
                                        "action": stuck[0][1] if stuck else None},
    }
