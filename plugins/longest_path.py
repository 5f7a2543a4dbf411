"""The longest continuous path bonus (R-BON-1): a trail of the player's own routes, in spaces."""

from __future__ import annotations

import attrs

from ttr_core.plugin import Bonus, Highlight, Plugin, hookimpl, longest_trail, longest_trail_edges, parameter

NAME = "longest-path"
#: the key in ``game.memo`` of what searches found of the pieces of the players' networks
PIECES = "longest-path:pieces"


def path_length(game, seat: int) -> int:
    """The player's longest trail: cities may repeat, each route once; stations never count (R-STA-3).

    Asked by the bonus, the score's facts and the tie-breaker alike: each set of routes is measured
    once per game and kept in ``game.memo[NAME]``; and a trail lies within one piece of a network,
    so what a search found of a piece is kept too (``game.memo[PIECES]``): asked again after a claim,
    only the piece the claim changed is searched. Both are kept by the routes alone (on one board),
    so they hold whatever state is put under the game."""
    routes = game.board.routes
    owned = tuple(sorted(game.state.players[seat].routes))
    memo = getattr(game, "memo", None)
    trails: dict[tuple[int, ...], int] = {} if memo is None else memo.setdefault(NAME, {})
    length = trails.get(owned)
    if length is None:
        pieces = None if memo is None else memo.setdefault(PIECES, {})
        edges = [(routes[r].ai, routes[r].bi, routes[r].length) for r in owned]
        length = trails[owned] = longest_trail(edges, pieces)
    return length


class LongestPath(Plugin):
    provides = ("tie-breaker:longest-path-bonus", "tie-breaker:longest-path-length")
    title = "Longest route"
    deterministic = True

    @attrs.frozen
    class Config:
        points: int = parameter("points of the longest-path bonus, to every player tied for it", default=10, rule="R-BON-1")
        everyone_if_nobody_built: bool = parameter(
            "when nobody built anything: everybody gets the bonus (wor) or nobody (the others, "
            "an engine decision)", default=False, rule="R-BON-1",
        )

    def bonus_titles(self):
        return {NAME: "Longest route"}

    def fact_titles(self):
        return {NAME: "Longest trail"}

    @hookimpl
    def ttr_end_bonuses(self, game):
        lengths = [path_length(game, s) for s in range(len(game.state.players))]
        top = max(lengths)
        if top == 0 and not self.config.everyone_if_nobody_built:
            return []
        return [Bonus(s, NAME, self.config.points, f"{n} spaces") for s, n in enumerate(lengths) if n == top]

    @hookimpl
    def ttr_player_facts(self, game, seat):
        # R-BON-1: the longest trail in spaces, whether or not it earned the bonus (for hosts)
        return {NAME: path_length(game, seat)}

    @hookimpl
    def ttr_highlights(self, game, seat):
        # R-BON-1: the trail itself, route by route, for a page to draw; asked only at the end
        routes = [game.board.routes[r] for r in sorted(game.state.players[seat].routes)]
        walked = [routes[i] for i in longest_trail_edges([(r.ai, r.bi, r.length) for r in routes])]
        if not walked:
            return None
        spaces = sum(r.length for r in walked)
        return [Highlight(seat, NAME, f"longest trail: {spaces} spaces", tuple(r.id for r in walked), Highlight.TRAIL)]

    @hookimpl(optionalhook=True)
    def ttr_tie_breaker(self, game, name, score):
        # declared by the winner plugin; optional, as a variant may decide winners another way
        if name == "longest-path-bonus":
            return int(score.bonus(NAME) > 0)
        if name == "longest-path-length":
            return path_length(game, score.seat)
        return None
