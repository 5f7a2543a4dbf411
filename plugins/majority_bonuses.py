"""End-of-game bonuses for the player(s) with the most of something (``ussr``, R-BON-3).

A variant lists the bonuses, each ``{name, measure, points}``: the players at the highest count of
``measure`` get ``points`` each, all of them when tied, and nobody when the highest count is 0
(R-BON-3 [engine decision]). The longest path is not a measure here: it has its own plugin,
``longest-path`` (R-BON-1), whose rule on "nobody built anything" differs between rule sets.

Measures:

* ``completed-tickets``: tickets completed at the end, from the ticket outcomes the core passes
  to ``ttr_end_bonuses`` (so a station's borrowed route counts as it does for ticket points, and
  the owner's choice of that route weighs this bonus, R-STA-4);
* ``ferries``: routes owned with at least one locomotive mark (R-FER-1);
* ``tunnels``: tunnel routes owned (R-TUN), however they were claimed (a controller included).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Literal

import attrs

from ttr_core.plugin import Bonus, Plugin, TicketOutcome, hookimpl, parameter

#: per measure: (the count of one seat, the word used in the bonus detail)
MEASURES: Mapping[str, tuple[Callable, str]] = MappingProxyType({
    "completed-tickets": (lambda game, seat, outcome: len(outcome.completed), "completed tickets"),
    "ferries": (lambda game, seat, outcome: _owned(game, seat, lambda r: r.ferry > 0), "ferries"),
    "tunnels": (lambda game, seat, outcome: _owned(game, seat, lambda r: r.tunnel), "tunnels"),
})

#: per measure: what players call a bonus for the most of it
TITLES: Mapping[str, str] = MappingProxyType({
    "completed-tickets": "Most tickets completed", "ferries": "Most ferries", "tunnels": "Most tunnels",
})


def _owned(game, seat: int, kind) -> int:
    routes = game.board.routes
    return sum(1 for r in game.state.players[seat].routes if kind(routes[r]))


@attrs.frozen
class MajorityBonus:
    """One bonus line: ``points`` to the player(s) with the most ``measure``, under ``name``."""

    name: str
    measure: Literal["completed-tickets", "ferries", "tunnels"]
    points: int = attrs.field(validator=attrs.validators.ge(0))


def _unique_names(_instance, _attribute, bonuses: list[MajorityBonus]) -> None:
    names = [b.name for b in bonuses]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"bonus names must differ: {', '.join(twice)} given twice")


def winners_of(counts: Sequence[int]) -> list[int]:
    """The seats at the highest count; nobody when that count is 0 (R-BON-3 [engine decision])."""
    top = max(counts, default=0)
    return [] if top <= 0 else [s for s, n in enumerate(counts) if n == top]


class MajorityBonuses(Plugin):
    title = "Bonuses for the most"
    deterministic = True

    @attrs.frozen
    class Config:
        bonuses: list[MajorityBonus] = parameter(
            "the bonus lines, each `{name, measure, points}`: points to the player(s) with the most "
            "`measure` (completed-tickets, ferries or tunnels; ussr: +15, +7, +7)",
            factory=list, rule="R-BON-3", validator=_unique_names,
        )

    def bonus_titles(self):
        # each bonus line is named by the variant; players read what it rewards
        return {bonus.name: TITLES[bonus.measure] for bonus in self.config.bonuses}

    @hookimpl
    def ttr_end_bonuses(self, game, outcomes: Sequence[TicketOutcome]):
        out = []
        for bonus in self.config.bonuses:
            count, word = MEASURES[bonus.measure]
            counts = [count(game, seat, outcomes[seat]) for seat in range(len(game.state.players))]
            for seat in winners_of(counts):
                out.append(Bonus(seat, bonus.name, bonus.points, f"{counts[seat]} {word}"))
        return out

    @hookimpl
    def ttr_view(self, game, seat):
        # the bonuses on offer are public rules; the counts are visible on the board anyway
        return {"majority-bonuses": [attrs.asdict(b) for b in self.config.bonuses]}
