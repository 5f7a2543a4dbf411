"""The move log says when the face-up cards were reset (R-ROW-2, R-ROW-3), whichever rule reset
them: the turn log of ``ttr play`` and the server's move log share these words
(``ttr_analysis.move_words``)."""

from __future__ import annotations

import re

from usa_kit import started

from ttr_analysis.move_words import Turns
from ttr_bots import play_game
from ttr_core import variant
from ttr_core.game import Game
from ttr_kit import testing
from ttr_kit.testing import set_hand, set_open_row, stack_deck
from ttr_plugins.train_cards import DrawCard

L = "locomotive"


def _turn_text(game: Game, seat: int, *actions) -> str:
    turns = Turns()
    turns.start(game)
    told = None
    for action in actions:
        game.apply(seat, action)
        told = turns.add(game, seat, action)
    assert told is not None, "the turn is not over"
    return told.text


def _game(seed: int = 5) -> Game:
    game = started(2, seed=seed)
    set_hand(game, 0, {})
    return game


def test_a_third_face_up_locomotive_is_told_as_a_reset():
    """R-ROW-2/3: the refill after taking the red is the third locomotive, so all five go."""
    game = _game()
    set_open_row(game, [L, L, "red", "blue", "green"])
    stack_deck(game, [L, "white", "white", "orange", "black", "black", "yellow"])
    text = _turn_text(game, 0, DrawCard(2), DrawCard(None))
    assert text == ("took a face-up red, then the face-up cards were discarded and dealt again, "
                    "then drew a card from the deck")


def test_a_plain_refill_is_not_told_as_a_reset():
    """R-ROW-2: two locomotives face up leave the row as it is, and the log says nothing of it."""
    game = _game()
    set_open_row(game, [L, "purple", "red", "blue", "green"])
    stack_deck(game, [L, "white", "white"])
    assert _turn_text(game, 0, DrawCard(2), DrawCard(None)) == "took a face-up red and drew a card from the deck"


def test_the_reset_limit_is_told_when_it_leaves_three_locomotives_face_up():
    """R-ROW-3 [engine decision]: after three resets in a row the row stays, locomotives and all,
    and players are told why."""
    game = _game()
    set_open_row(game, [L, L, "red", "blue", "green"])
    triggered = [L, L, L, "white", "white"]
    stack_deck(game, [L, *triggered, *triggered, *triggered, "yellow"])
    text = _turn_text(game, 0, DrawCard(2), DrawCard(None))
    assert "the face-up cards were discarded and dealt again 3 times (no more in a row: the last ones stay)" in text
    assert game.view(None)["open_row"].count(L) == 3


def test_a_house_rule_changing_the_reset_is_seen_firing(tmp_path):
    """A variant file that resets on two face-up locomotives (one TOML line): the same draw that the
    published rule leaves alone is told as a reset."""
    house = tmp_path / "two-locos.toml"
    house.write_text('id = "two-locos"\ntitle = "t"\nextends = "usa"\n'
                     "[versions.1.rules.open-row]\nreset_locomotives = 2\n", encoding="utf-8")
    game = testing.keep_all_starting_tickets(Game(variant.load(str(house)), ["P1", "P2"], 5))
    set_hand(game, 0, {})
    set_open_row(game, [L, "purple", "red", "blue", "green"])
    stack_deck(game, [L, "white", "white", "orange", "black", "black", "yellow"])
    seat = game.state.current
    text = _turn_text(game, seat, DrawCard(2), DrawCard(None))
    assert "the face-up cards were discarded and dealt again" in text


def _resets_told(text: str) -> int:
    return sum(int(n or 1) for n in re.findall(r"dealt again(?: (\d+) times)?", text))


def test_resets_in_seeded_games_are_told_as_often_as_they_happen():
    """Over whole bot games, the resets the turns tell add up to the resets that happened after the
    setup (the start's own reset, R-SET-3, comes before any turn)."""
    told_in_all = 0
    for seed in range(30):
        turns, told = Turns(), []
        at_start = {}

        def on_start(game):
            turns.start(game)
            at_start["resets"] = game.state.open_row_resets

        def on_action(game, seat, action):
            turn = turns.add(game, seat, action)
            if turn is not None:
                told.append(turn.text)

        game = play_game(variant.load("usa"), 2, seed, ("random",), on_start=on_start, on_action=on_action)
        happened = game.state.open_row_resets - at_start["resets"]
        assert sum(_resets_told(t) for t in told) == happened, f"seed {seed}"
        told_in_all += happened
    assert told_in_all > 0, "no usa game of seeds 0-29 reset its open row after the setup"
