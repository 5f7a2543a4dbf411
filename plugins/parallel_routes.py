"""Parallel routes: routes joining the same two cities (R-PAR-1..2).

Closed routes are answered through the core's ``ttr_closed_routes`` as refusals whose code, this
plugin's own, says which rule closed them: ``own-parallel`` (R-PAR-1: the seat owns a parallel
route) or ``closed-parallel`` (R-PAR-2: a parallel route is taken and the player count closes the
others). A program comparing codes uses these strings.
"""

from __future__ import annotations

import attrs

from ttr_core.plugin import Plugin, Refusal, hookimpl, parameter

#: the refusal codes of this plugin's rules (``Refusal.code``)
OWN_PARALLEL = "own-parallel"  # the seat owns a route parallel to it (R-PAR-1)
CLOSED_PARALLEL = "closed-parallel"  # a parallel route is taken and the player count closes the others (R-PAR-2)


class ParallelRoutes(Plugin):
    title = "Double routes"
    deterministic = True

    @attrs.frozen
    class Config:
        one_per_player: bool = parameter(
            "a player may own at most one of a set of parallel routes", default=True, rule="R-PAR-1",
        )
        close_below_players: int = parameter(
            "in games of fewer players than this, claiming one parallel route closes the others for "
            "everyone (usa, europe: 4, i.e. 2-3 players; ussr: 3; wor: 0, never)",
            default=4, rule="R-PAR-2",
        )

    #: tables about the ruleset filled as its games ask (see ``Plugin.caches``)
    caches = ("_closes_by_route", "_refusals")

    def __init__(self, config=None):
        super().__init__(config)
        #: by route index, what owning the route closes (``_closes``), made at the first listing
        self._closes_by_route: list[tuple[tuple[int, Refusal], ...] | None] | None = None

    @hookimpl
    def ttr_closed_routes(self, game, seat, route):
        if route is not None:
            return self._closing(game, seat, route)
        st = game.state
        owner = st.owner
        players = len(st.players)
        if players >= self.config.close_below_players:
            if not self.config.one_per_player:
                return {}
            # R-PAR-1 only: the free parallels of the seat's own doubles
            closes = self._closes(game.board)
            closed: dict[int, Refusal] = {}
            for r in st.players[seat].routes:
                pairs = closes[r]
                if pairs is not None and owner[r] == seat:
                    for other, refusal in pairs:
                        if owner[other] < 0:
                            closed[other] = refusal
            return closed
        routes = game.board.routes
        closed = {}
        for r in [r for r, pairs in enumerate(self._closes(game.board)) if pairs is not None and owner[r] >= 0]:
            code = self._closed_by(owner[r], seat, players)
            for other in routes[r].parallel:
                if owner[other] < 0:
                    closed[other] = self._game_refusal(game, code, routes[r].id, players)
        return closed

    def _closed_by(self, holder: int, seat: int, players: int) -> str | None:
        """Why a free route is closed to ``seat`` when seat ``holder`` owns a parallel of it, or None."""
        if holder == seat and self.config.one_per_player:
            return OWN_PARALLEL  # R-PAR-1
        if players < self.config.close_below_players:
            return CLOSED_PARALLEL  # R-PAR-2: a parallel route is taken, and the player count closes the others
        return None

    def _closing(self, game, seat, route):
        """``ttr_closed_routes`` for ``route`` alone: what its owned parallels close (the last in
        map order says why, as for every route)."""
        st = game.state
        owner = st.owner
        if owner[route.index] >= 0 or not route.parallel:
            return None
        players = len(st.players)
        closing = None
        for other in sorted(route.parallel):
            code = None if owner[other] < 0 else self._closed_by(owner[other], seat, players)
            if code is not None:
                closing = (code, other)
        if closing is None:
            return None
        return {route.index: self._game_refusal(game, closing[0], game.board.routes[closing[1]].id, players)}

    def _closes(self, board) -> list[tuple[tuple[int, Refusal], ...] | None]:
        # by route index, what owning the route closes (R-PAR-1): each parallel, with the refusal
        # (None for a route without parallels);
        # a fact of the board this instance serves
        if self._closes_by_route is None:
            self._closes_by_route = [
                tuple((other, _refusal(OWN_PARALLEL, r.id, 0)) for other in r.parallel) or None
                for r in board.routes
            ]
        return self._closes_by_route

    def _game_refusal(self, game, code: str, route_id: str, players: int) -> Refusal:
        """The refusal ``_refusal`` makes, made once per game: closures are asked at every listing.
        Kept in ``game.memo[self.name]`` by ``(code, route id, players)``, its whole making."""
        memo = getattr(game, "memo", None)
        made = None if memo is None else memo.get(self.name)
        if made is None:
            made = {}
            if memo is not None:
                memo[self.name] = made
        refusal = made.get((code, route_id, players))
        if refusal is None:
            refusal = made[(code, route_id, players)] = _refusal(code, route_id, players)
        return refusal


def _refusal(code: str, route_id: str, players: int) -> Refusal:
    if code == OWN_PARALLEL:
        return Refusal(OWN_PARALLEL, f"you own the parallel route {route_id} (R-PAR-1)")
    return Refusal(
        CLOSED_PARALLEL,
        f"the parallel route {route_id} is taken, and with {players} players the others close (R-PAR-2)",
    )
