"""Whole ``ussr`` games played by random bots: every game ends by the rules (R-END-1, or R-TURN-2 when
nothing is left to do), the invariants hold after every action (112 cards with the controllers,
45 trains, running scores), and the controller really is part of play: drawn blind, played both
ways, never taken face up (R-CTL-1..5)."""

from __future__ import annotations

from collections import Counter

import pytest

from final_round_watch import FinalRoundWatch

import ttr_bots as bots
from ttr_core import variant
from ttr_kit import testing
from ttr_plugins.train_cards import DrawCard
from ttr_plugins.controller import CARD, PlayController


class Watch(FinalRoundWatch):
    """Checks every action of a bot game (``FinalRoundWatch``) and counts what the controller did."""

    def __init__(self, counts: Counter):
        super().__init__()
        self.counts = counts
        self.held: list[int] | None = None

    def __call__(self, game, seat, action) -> None:
        super().__call__(game, seat, action)
        st = game.state
        card = game.cards.id(CARD)
        held = [p.hand[card] for p in st.players]
        if self.held is not None:
            gained = held[seat] - self.held[seat]
            if isinstance(action, DrawCard) and gained:
                # R-CTL-1, R-CTL-5: a controller only ever comes from the deck
                assert action.slot is None, f"seed {game.seed}: a controller was taken face up"
                self.counts["controllers drawn"] += gained
        self.held = held
        if isinstance(action, PlayController):
            self.counts[f"controllers played ({action.mode})"] += 1
            if game.board.routes[game.board.route_index[action.route]].tunnel and action.mode == "build":
                self.counts["tunnels built by controller"] += 1
        if card in st.open_row:
            self.counts["controller left face up (reset limit)"] += 1

    def check_end(self, game) -> None:
        super().check_end(game)
        reason = game.state.end_reason
        self.counts[reason.split("(")[-1].rstrip(")")] += 1
        stations = game.state.ext.get("stations")
        self.counts["stations built"] += sum(stations.built.values()) if stations else 0
        for s in game.result.scores:
            for b in s.bonuses:
                self.counts[f"bonus {b.name}"] += 1
            self.counts["routes"] += len(game.state.players[s.seat].routes)
            board = game.board
            owned = [board.routes[r] for r in game.state.players[s.seat].routes]
            self.counts["tunnels owned"] += sum(1 for r in owned if r.tunnel)
            self.counts["ferries owned"] += sum(1 for r in owned if r.ferry)


@pytest.mark.slow
def test_200_seeded_ussr_bot_games_keep_every_invariant_and_use_the_controller():
    """200 seeds, 2..5 players (R-SET-1): each game ends by the rules with the invariants intact
    after every action; controllers are drawn blind, played to dismantle and to build."""
    ruleset = variant.load("ussr")
    counts: Counter = Counter()
    for seed in range(200):
        watch = Watch(counts)
        game = bots.play_game(ruleset, 2 + seed % 4, seed, on_action=watch)
        watch.check_end(game)
    print(dict(sorted(counts.items())))
    assert counts["controllers drawn"] > 0
    assert counts["controllers played (dismantle)"] > 0
    assert counts["controllers played (build)"] > 0
    assert counts["R-END-1"] > 0
    for name in ("longest-path", "most-tickets", "most-ferries", "most-tunnels"):
        assert counts[f"bonus {name}"] > 0, name
    if "stations" in ruleset.plugins:
        assert counts["stations built"] > 0


def test_watch_notices_a_broken_invariant():
    """The sweep's checker can fail: a controller that vanishes from the game is reported."""
    game = testing.keep_all_starting_tickets(testing.new_game("ussr", 2, 3))
    testing.set_hand(game, 0, {CARD: 1})
    game.state.players[0].hand[game.cards.id(CARD)] = 0
    with pytest.raises(AssertionError, match="controller -1"):
        Watch(Counter())(game, 0, None)


def test_watch_notices_a_controller_taken_face_up():
    game = testing.keep_all_starting_tickets(testing.new_game("ussr", 2, 3))
    testing.set_hand(game, 0, {})
    watch = Watch(Counter())
    watch(game, 0, None)
    testing.set_hand(game, 0, {CARD: 1})  # as if taken from slot 2
    with pytest.raises(AssertionError, match="face up"):
        watch(game, 0, DrawCard(2))
