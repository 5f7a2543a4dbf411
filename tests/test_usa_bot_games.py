"""Whole ``usa`` games played by random bots: every game ends, by the final round (R-END-1) or by
the pass rule (R-TURN-2), and the invariants hold after every single action."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ttr_core import bots, testing, variant

END_BY_FINAL_ROUND = "R-END-1"
END_BY_PASSING = "R-TURN-2"


class Watch:
    """Checks every action of a bot game: the invariants, and the final round as R-END-1 says it:
    it starts after the first turn that ends with a player at 2 trains or fewer, and then every
    player plays exactly one more turn."""

    def __init__(self) -> None:
        self.actions = 0
        self.trigger_turn: int | None = None
        self.players_at_trigger = 0

    def __call__(self, game, seat, action) -> None:
        self.actions += 1
        problems = testing.invariant_problems(game)
        assert not problems, f"seed {game.seed}, action {self.actions} ({action!r} by seat {seat}): {problems}"
        st_ = game.state
        low = min(p.trains for p in st_.players)
        if self.trigger_turn is None:
            if st_.final_round is not None or (game.over and END_BY_FINAL_ROUND in st_.end_reason):
                assert low <= 2, f"seed {game.seed}: the final round began with every player above 2 trains"
                self.trigger_turn = st_.turn
                self.players_at_trigger = len(game.active_seats())
            elif st_.players[seat].decision is None and st_.phase == "play":
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
        # the record of the game tells the same story: winners are among the top scores
        top = max(s.total for s in game.result.scores)
        assert all(game.result.scores[s].total == top for s in game.result.winners.seats)


def _play(seed: int, players: int):
    watch = Watch()
    game = bots.play_game(variant.load("usa"), players, seed, on_action=watch)
    watch.check_end(game)
    return game


@pytest.mark.slow
def test_200_seeded_bot_games_end_by_the_rules_and_keep_the_invariants():
    """200 different seeds, 2..5 players each: every game completes (R-END-1 or R-TURN-2) and
    ``testing.invariant_problems`` is empty after every action."""
    reasons = set()
    for seed in range(200):
        game = _play(seed, 2 + seed % 4)
        reasons.add(game.state.end_reason)
    # the sweep really reached the end of games through the final round
    assert any(END_BY_FINAL_ROUND in r for r in reasons)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**63 - 1), players=st.integers(min_value=2, max_value=5))
def test_any_seed_and_player_count_plays_to_a_legal_end(seed, players):
    """Property: whatever the seed and the player count (2..5, R-SET-1), a bot game ends by the rules
    and the invariants hold after every action."""
    _play(seed, players)


def test_watch_notices_a_broken_invariant():
    """The sweep's checker can fail: a card that vanishes from the game is reported."""
    game = testing.keep_all_starting_tickets(testing.new_game("usa", 2, 3))
    game.state.deck.pop()
    with pytest.raises(AssertionError, match="cards"):
        Watch()(game, 0, None)
