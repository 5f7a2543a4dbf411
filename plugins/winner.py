"""Who wins: the highest total, then the rule set's tie-breakers (the winner row of RULES.md)."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from ttr_core.plugin import Plugin, hookimpl
from ttr_core.scoring import PlayerScore, Winners
from ttr_plugins.longest_path import NAME as LONGEST, path_length

#: tie-breakers by name: a key per player, higher is better
BREAKERS: dict[str, Callable] = {
    "tickets": lambda game, s: len(s.tickets_completed),
    "longest-path-bonus": lambda game, s: s.bonus(LONGEST) > 0,
    "longest-path-length": lambda game, s: path_length(game, s.seat),
    "fewest-stations": lambda game, s: -game.state.ext.get("stations", {}).get("built", {}).get(str(s.seat), 0),
}


def _check(_i, _a, names: list[str]) -> None:
    for n in names:
        if n not in BREAKERS:
            raise ValueError(f"unknown tie-breaker {n!r} (known: {', '.join(BREAKERS)})")


class Winner(Plugin):
    @attrs.frozen
    class Config:
        tie_breakers: list[str] = attrs.field(factory=list, validator=_check)

    @hookimpl
    def ttr_choose_winners(self, game, scores: list[PlayerScore]):
        # R-TURN-3: a resigned player is scored but cannot win
        alive = [s for s in scores if not s.resigned] or list(scores)
        top = max(s.total for s in alive)
        tied = [s for s in alive if s.total == top]
        decided = "score"
        for name in self.config.tie_breakers:
            if len(tied) == 1:
                break
            key = BREAKERS[name]
            best = max(key(game, s) for s in tied)
            narrowed = [s for s in tied if key(game, s) == best]
            if len(narrowed) < len(tied):
                decided = name
            tied = narrowed
        if len(tied) > 1:
            decided = "shared"
        return Winners(tuple(s.seat for s in tied), decided)
