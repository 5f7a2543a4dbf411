"""Whole ``usa`` games played by random bots: every game ends, by the final round (R-END-1) or by
the pass rule (R-TURN-2), and the invariants hold after every single action."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from final_round_watch import END_BY_FINAL_ROUND, FinalRoundWatch

import ttr_bots as bots
from ttr_core import variant
from ttr_kit import testing


class Watch(FinalRoundWatch):
    def check_end(self, game) -> None:
        super().check_end(game)
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
