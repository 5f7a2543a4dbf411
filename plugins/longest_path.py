"""The longest continuous path bonus (R-BON-1): a trail of the player's own routes, in spaces."""

from __future__ import annotations

import attrs

from ttr_core.plugin import (
    Bonus, Highlight, NetworksBySeat, Plugin, hookimpl, longest_trail, longest_trail_edges, parameter,
)

NAME = "longest-path"
#: the key in ``game.memo`` of the pieces each seat's routes make (``path_length``)
PIECES = "longest-path:pieces"


def path_length(game, seat: int) -> int:
    """The player's longest trail: cities may repeat, each route once; stations never count (R-STA-3).

    A trail stays within one piece of the player's network, and a claim changes one piece (or joins
    two): so each piece is measured once, when first asked about with these routes, and the
    lengths are kept in ``game.memo[NAME]`` by their routes alone (on one board), so they hold
    whatever state is put under the game. Asked again after a claim, only the piece it changed is
    measured; asked by the bonus, the score's facts and the tie-breaker alike, nothing is."""
    routes = game.board.routes
    owned = game.state.players[seat].routes
    memo = getattr(game, "memo", None)
    trails: dict[tuple[int, ...], int] = {} if memo is None else memo.setdefault(NAME, {})
    whole = tuple(sorted(owned))
    length = trails.get(whole)
    if length is None:
        best = 0
        for total, piece in _pieces(game, seat, owned, memo):
            if total <= best:  # a trail is no longer than its piece: the heaviest go first
                break
            got = trails.get(piece)
            if got is None:
                got = trails[piece] = longest_trail([(routes[r].ai, routes[r].bi, routes[r].length) for r in piece])
            if got > best:
                best = got
        length = trails[whole] = best
    return length


def _pieces(game, seat: int, owned: list[int], memo: dict | None) -> list[tuple[int, tuple[int, ...]]]:
    """``(spaces, routes)`` of each piece of ``seat``'s network (the routes sorted), the heaviest
    first; the pieces kept in ``game.memo[PIECES]`` as the routes are claimed."""
    board = game.board
    kept = None if memo is None else memo.get(PIECES)
    if kept is None:
        kept = NetworksBySeat(len(board.cities), tuple((r.ai, r.bi) for r in board.routes))
        if memo is not None:
            memo[PIECES] = kept
    network = kept.of(seat, owned)
    routes = board.routes
    by_piece: dict[int, list[int]] = {}
    for r in sorted(owned):
        by_piece.setdefault(network.find(routes[r].ai), []).append(r)
    pieces = [(sum(routes[r].length for r in piece), tuple(piece)) for piece in by_piece.values()]
    pieces.sort(reverse=True)
    return pieces


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
