"""Who wins: the highest total, then the rule set's tie-breakers (the winner row of docs/rules.md).

The ``tickets`` tie-breaker (most completed tickets) is this plugin's own. Any other is a fact
some other plugin knows, asked through ``ttr_tie_breaker``, which this plugin declares (the
capability ``tie-breakers``, its spec in :mod:`ttr_core.roles.tie_breakers`): the
longest-path plugin answers ``longest-path-bonus`` and ``longest-path-length``, the stations plugin
``fewest-stations``. A plugin answering a tie-breaker lists ``tie-breaker:<name>`` in its
``provides``, so a variant naming a tie-breaker that no enabled plugin answers is refused when it
is checked.
"""

from __future__ import annotations

from types import MappingProxyType

import attrs

from ttr_core.plugin import Plugin, PlayerScore, Winners, hookimpl, parameter
from ttr_core.roles.tie_breakers import TieBreakerHooks

#: the tie-breakers this plugin knows itself: a key per player, higher is better
OWN_BREAKERS = MappingProxyType({"tickets": lambda game, s: len(s.tickets_completed)})


class Winner(Plugin):
    provides = ("tie-breakers",)
    title = "Deciding the winner"
    deterministic = True

    @attrs.frozen
    class Config:
        tie_breakers: list[str] = parameter(
            'applied in order while players are tied (the winner table of docs/rules.md): "tickets" '
            "(most completed tickets), or one another plugin provides (`tie-breaker:<name>`); "
            "none: tied players share the win", factory=list,
        )

    @property
    def requires(self) -> tuple[str, ...]:
        return tuple(f"tie-breaker:{n}" for n in self.config.tie_breakers if n not in OWN_BREAKERS)

    @hookimpl
    def ttr_addhooks(self, pluginmanager):
        pluginmanager.add_hookspecs(TieBreakerHooks)

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
            keys = {s.seat: self._key(game, name, s) for s in tied}
            best = max(keys.values())
            narrowed = [s for s in tied if keys[s.seat] == best]
            if len(narrowed) < len(tied):
                decided = name
            tied = narrowed
        if len(tied) > 1:
            decided = "shared"
        return Winners(tuple(s.seat for s in tied), decided)

    @staticmethod
    def _key(game, name: str, score: PlayerScore) -> int:
        own = OWN_BREAKERS.get(name)
        if own is not None:
            return own(game, score)
        key = game.hook.ttr_tie_breaker(game=game, name=name, score=score)
        if key is None:
            raise LookupError(f"no enabled plugin answered ttr_tie_breaker for {name!r}, though one provides it")
        return key
