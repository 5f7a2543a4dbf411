"""Parallel routes: routes joining the same two cities (R-PAR-1..2).

Closed routes are answered through the core's ``ttr_closed_routes`` as refusals whose code says
which rule closed them: ``own-parallel`` (R-PAR-1: the seat owns a parallel route) or
``closed-parallel`` (R-PAR-2: a parallel route is taken and the player count closes the others).
"""

from __future__ import annotations

import attrs

from ttr_core.plugin import CLOSED_PARALLEL, OWN_PARALLEL, Plugin, Refusal, hookimpl


class ParallelRoutes(Plugin):
    deterministic = True

    @attrs.frozen
    class Config:
        #: R-PAR-1: a player may own at most one of a set of parallel routes
        one_per_player: bool = True
        #: R-PAR-2: in games of fewer players than this, claiming one parallel route closes the
        #: others for everyone (usa, europe: 4, i.e. 2-3 players; ussr: 3; wor: 0, never)
        close_below_players: int = 4

    @hookimpl
    def ttr_closed_routes(self, game, seat):
        st = game.state
        routes = game.board.routes
        owner = st.owner
        players = len(st.players)
        small = players < self.config.close_below_players
        doubles = self._doubles(game.board)
        closed: dict[int, Refusal] = {}
        for r in st.players[seat].routes if not small else [r for r in doubles if owner[r] >= 0]:
            if r not in doubles:
                continue
            for other in routes[r].parallel:
                if owner[other] >= 0:
                    continue
                if owner[r] == seat and self.config.one_per_player:
                    closed[other] = _refusal(OWN_PARALLEL, routes[r].id, players)
                elif small:
                    closed[other] = _refusal(CLOSED_PARALLEL, routes[r].id, players)
        return closed

    def _doubles(self, board) -> frozenset[int]:
        # the routes with parallels, asked at every turn: a fact of the board this instance serves
        try:
            return self._kept_doubles
        except AttributeError:
            self._kept_doubles = frozenset(r.index for r in board.routes if r.parallel)
            return self._kept_doubles


# Refusals are frozen values: every game shares them (closures are asked at every turn).
_REFUSALS: dict[tuple[str, str, int], Refusal] = {}


def _refusal(code: str, route_id: str, players: int) -> Refusal:
    refusal = _REFUSALS.get((code, route_id, players))
    if refusal is None:
        if code == OWN_PARALLEL:
            refusal = Refusal(OWN_PARALLEL, f"you own the parallel route {route_id} (R-PAR-1)")
        else:
            refusal = Refusal(
                CLOSED_PARALLEL,
                f"the parallel route {route_id} is taken, and with {players} players the others close (R-PAR-2)",
            )
        if len(_REFUSALS) < 10_000:
            _REFUSALS[(code, route_id, players)] = refusal
    return refusal
