"""Which routes make a player's longest trail (R-BON-1), to draw it: the engine walks one
(``ttr_core.network.longest_trail_edges``, beside ``longest_trail``, which measures it); this names
its routes.

A game page asks the variant's plugins instead (``ttr_core.scoring.highlights``: the
``longest-path`` plugin answers the same trail), so that a variant without that bonus shows none;
this helper serves analyses that want the trail whatever the rules.
"""

from __future__ import annotations

from ttr_core.game import Game
from ttr_core.network import TRAIL_WALK_BUDGET, longest_trail_edges


def trail_routes(game: Game, seat: int, budget: int = TRAIL_WALK_BUDGET) -> tuple[str, ...]:
    """The route ids of one longest trail of ``seat``'s own routes, in walking order."""
    routes = [game.board.routes[r] for r in sorted(game.seat_view(seat).players[seat].routes)]
    found = longest_trail_edges([(r.ai, r.bi, r.length) for r in routes], budget)
    return tuple(routes[i].id for i in found)
