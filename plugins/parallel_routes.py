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
        small = len(st.players) < self.config.close_below_players
        closed: dict[int, Refusal] = {}
        for r in st.players[seat].routes if not small else _owned_with_parallels(game):
            route = routes[r]
            for other in route.parallel:
                if st.owner[other] >= 0:
                    continue
                if st.owner[r] == seat and self.config.one_per_player:
                    closed[other] = Refusal(OWN_PARALLEL, f"you own the parallel route {route.id} (R-PAR-1)")
                elif small:
                    closed[other] = Refusal(
                        CLOSED_PARALLEL,
                        f"the parallel route {route.id} is taken, and with {len(st.players)} players "
                        "the others close (R-PAR-2)",
                    )
        return closed


def _owned_with_parallels(game):
    owner = game.state.owner
    return [r.index for r in game.board.routes if r.parallel and owner[r.index] >= 0]
