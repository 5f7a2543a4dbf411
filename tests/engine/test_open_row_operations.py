"""The open row's table operations (``ttr_core.open_row_table``, methods of the game in
``GameAPI``): what a plugin providing ``open-row`` moves the face-up cards with (R-ROW-1..3)."""

from __future__ import annotations

import pytest

from ttr_core import variant
from ttr_core.game import Game
from ttr_core.plugin import GameAPI, Refill
from ttr_kit import testing

L = "locomotive"


@pytest.fixture
def game() -> Game:
    return testing.keep_all_starting_tickets(testing.new_game("usa", 2, seed=1))


def names(game: Game) -> list[str | None]:
    return game.view(None)["open_row"]


def test_every_operation_is_part_of_the_plugin_api():
    for name in ("lay_open_row", "deal_open_row", "take_from_open_row", "discard_open_row", "open_row_needs_reset",
                 "refill_open_row"):
        assert callable(getattr(GameAPI, name)) and callable(getattr(Game, name))


def test_a_card_taken_leaves_its_slot_empty_and_dealing_fills_the_empty_slots_left_to_right(game):
    testing.arrange(game, open_row=["red", "blue", "green", "white", "black"], deck_top=["orange", "purple"])
    assert game.cards.names[game.take_from_open_row(3)] == "white"
    assert game.cards.names[game.take_from_open_row(1)] == "blue"
    assert names(game) == ["red", None, "green", None, "black"]
    assert game.deal_open_row() == [1, 3]
    assert names(game) == ["red", "orange", "green", "purple", "black"]
    assert game.deal_open_row() == []  # a full row: nothing dealt


def test_discarding_puts_the_face_up_cards_on_the_discard_pile(game):
    testing.arrange(game, open_row=["red", "blue", "green", "white", "black"])
    discard = len(game.state.discard)
    assert [game.cards.names[c] for c in game.discard_open_row([0, 4])] == ["red", "black"]
    assert names(game) == [None, "blue", "green", "white", None]
    assert len(game.discard_open_row()) == 3 and names(game) == [None] * 5  # R-ROW-3: the whole row
    assert len(game.state.discard) == discard + 5
    testing.assert_invariants(game)


def test_a_refill_that_deals_three_locomotives_resets_the_row(game):
    # R-ROW-2..3: discarded, dealt anew, and the new row checked again
    testing.arrange(game, open_row=[L, L, None, "green", "white"], deck_top=[L, "red", "red", "red", "red", "blue"])
    done = game.refill_open_row(max_resets=3)
    assert done == Refill(dealt=(0, 1, 2, 3, 4), resets=1)
    assert names(game) == ["red", "red", "red", "red", "blue"]
    assert game.open_row_needs_reset() is False
    testing.assert_invariants(game)


def test_the_reset_limit_leaves_the_row_as_it_lies(game):
    testing.arrange(game, open_row=[L, L, None, "green", "white"], deck_top=[L])
    assert game.refill_open_row(max_resets=0) == Refill(dealt=(2,), resets=0)  # R-ROW-3: no reset left
    assert names(game) == [L, L, L, "green", "white"] and game.open_row_needs_reset() is True
    assert game.refill_open_row(max_resets=3) == Refill()  # a full row is not dealt into, so not checked again


def test_a_ruleset_without_an_open_row_asks_for_no_reset(tmp_path):
    path = tmp_path / "usa-no-row.toml"
    path.write_text('id = "usa-no-row"\ntitle = "t"\nextends = "usa"\n[versions.1]\nremove_plugins = ["open-row"]\n',
                    encoding="utf-8")
    game = Game(variant.load(str(path)), ["P1", "P2"], 1)
    assert game.state.open_row == [] and game.open_row_needs_reset() is False
    game.lay_open_row(2)
    assert game.refill_open_row(max_resets=3).dealt == (0, 1) and game.open_row_needs_reset() is False
