"""A watcher for bot games (``play_game(..., on_action=watch)``): the invariants after every action,
and the end as R-END-1 says it: the final round starts after the first turn that ends with a
player at 2 trains or fewer, and then every player plays exactly one more turn."""

from __future__ import annotations

from ttr_kit import testing

END_BY_FINAL_ROUND = "R-END-1"
END_BY_PASSING = "R-TURN-2"


class FinalRoundWatch:
    def __init__(self) -> None:
        self.actions = 0
        self.trigger_turn: int | None = None
        self.players_at_trigger = 0

    def __call__(self, game, seat, action) -> None:
        self.actions += 1
        problems = testing.invariant_problems(game)
        assert not problems, f"seed {game.seed}, action {self.actions} ({action!r} by seat {seat}): {problems}"
        st = game.state
        low = min(p.trains for p in st.players)
        if self.trigger_turn is None:
            if st.final_round is not None or (game.over and END_BY_FINAL_ROUND in st.end_reason):
                assert low <= 2, f"seed {game.seed}: the final round began with every player above 2 trains"
                self.trigger_turn = st.turn
                self.players_at_trigger = len(game.active_seats())
            elif st.players[seat].decision is None and st.phase == "play":
                # a finished turn that did not start the final round: nobody is down to 2 trains
                assert low > 2 or game.over, f"seed {game.seed}: a player has {low} trains and no final round"

    def check_end(self, game) -> None:
        assert game.over and game.result is not None
        reason = game.state.end_reason
        assert END_BY_FINAL_ROUND in reason or END_BY_PASSING in reason, reason
        if END_BY_FINAL_ROUND in reason:
            assert self.trigger_turn is not None
            # R-END-1: after the triggering turn, each player (the trigger included) plays one turn
            assert game.state.turn == self.trigger_turn + self.players_at_trigger
