"""Who takes which turn: the first seat, the next seat (R-TURN-1) and the seats of the final round
(R-END-1).

The first turn goes to the first seat still in the game [engine decision: a host seats the
players in the order it wants]; each turn passes to the next seat in seat order that has not
resigned (R-TURN-1, R-TURN-3); once a turn starts the final round, every seat, the triggering one
included, plays once more, from the next seat on (R-END-1). When the final round begins is the
``final-round`` plugin's (``ttr_final_round_triggered``). A house rule changing the order wraps
one of these answers (``hookimpl(wrapper=True)``).
"""

from __future__ import annotations

from ttr_core.plugin import Plugin, hookimpl


class TurnOrder(Plugin):
    title = "Turn order"
    deterministic = True

    @hookimpl
    def ttr_first_seat(self, game):
        return game.active_seats()[0]

    @hookimpl
    def ttr_next_seat(self, game, seat):
        players = game.state.players
        n = len(players)
        nxt = (seat + 1) % n
        if not players[nxt].resigned:  # most turns: no search
            return nxt
        for k in range(2, n + 1):  # the seat itself last: the only one left
            nxt = (seat + k) % n
            if not players[nxt].resigned:
                return nxt
        return None

    @hookimpl
    def ttr_final_round_seats(self, game, seat):
        n = len(game.state.players)
        return [(seat + k) % n for k in range(1, n + 1)]
