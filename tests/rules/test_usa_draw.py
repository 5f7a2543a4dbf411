"""Drawing train cards and the open row in ``usa``: R-DRAW-1..3, R-ROW-1..3, R-SET-3."""

from __future__ import annotations

import pytest
from usa_kit import hand, started

from ttr_kit import testing
from ttr_plugins.claiming import ClaimRoute
from ttr_plugins.train_cards import DrawCard
from ttr_core.errors import NotLegalNow
from ttr_kit.testing import assert_invariants, set_hand, set_open_row, stack_deck

L = "locomotive"


def row(game) -> list[str | None]:
    return game.view(None)["open_row"]


def draws(game, seat) -> set[int | None]:
    """The slots (None: the deck) the seat may draw from now."""
    return {a.slot for a in game.legal_actions(seat) if isinstance(a, DrawCard)}


@pytest.fixture
def game():
    g = started(2, seed=5)
    set_hand(g, 0, {})
    set_hand(g, 1, {})
    return g


def test_r_draw_2_face_up_locomotive_first_ends_the_draw(game):
    """R-DRAW-2: a face-up locomotive taken as the first card counts as both cards: the turn passes."""
    set_open_row(game, [L, "red", "blue", "green", "yellow"])
    stack_deck(game, ["white"])
    game.apply(0, DrawCard(0))
    assert hand(game, 0) == {L: 1}
    assert game.state.current == 1 and game.to_act() == [1]
    assert row(game) == ["white", "red", "blue", "green", "yellow"]  # R-ROW-1: refilled
    assert_invariants(game)


def test_r_draw_2_face_up_locomotive_cannot_be_the_second_card(game):
    """R-DRAW-2: after a first card, a face-up locomotive is not on offer and is refused."""
    set_open_row(game, ["red", L, "blue", "green", "yellow"])
    stack_deck(game, ["white"])
    game.apply(0, DrawCard(0))
    assert 1 not in draws(game, 0)
    with pytest.raises(NotLegalNow, match="R-DRAW-2"):
        game.apply(0, DrawCard(1))
    assert hand(game, 0) == {"red": 1}
    game.apply(0, DrawCard(2))
    assert hand(game, 0) == {"red": 1, "blue": 1}
    assert game.state.current == 1
    assert row(game)[1] == L


def test_r_draw_2_face_up_locomotive_cannot_follow_a_blind_card(game):
    """R-DRAW-2: "may never be taken as the second card", also after a card from the deck."""
    set_open_row(game, [L, "red", "blue", "green", "yellow"])
    stack_deck(game, ["orange"])
    game.apply(0, DrawCard(None))
    with pytest.raises(NotLegalNow):
        game.apply(0, DrawCard(0))
    assert draws(game, 0) == {None, 1, 2, 3, 4}


def test_r_draw_2_blind_locomotive_does_not_end_the_draw(game):
    """R-DRAW-2: a locomotive drawn blind is an ordinary card; the player takes a second one."""
    set_open_row(game, ["red", "blue", "green", "yellow", "black"])
    stack_deck(game, [L, "purple"])
    game.apply(0, DrawCard(None))
    assert hand(game, 0) == {L: 1}
    assert game.to_act() == [0] and game.state.players[0].decision is not None
    with pytest.raises(NotLegalNow, match="second-card"):  # R-TURN-1: no other action in between
        game.apply(0, ClaimRoute("Atlanta-Nashville", None, 1))
    game.apply(0, DrawCard(None))
    assert hand(game, 0) == {L: 1, "purple": 1}
    assert game.state.current == 1


def test_r_row_1_slot_refilled_at_once_and_the_second_pick_may_take_the_new_card(game):
    """R-ROW-1 (usa): the emptied slot is refilled immediately; the second pick may take the new card."""
    set_open_row(game, ["red", "blue", "green", "yellow", "black"])
    stack_deck(game, ["white"])
    game.apply(0, DrawCard(0))
    assert row(game) == ["white", "blue", "green", "yellow", "black"]
    assert 0 in draws(game, 0)
    game.apply(0, DrawCard(0))
    assert hand(game, 0) == {"red": 1, "white": 1}
    assert game.state.current == 1


def test_r_row_1_a_new_face_up_locomotive_cannot_be_the_second_pick(game):
    """R-ROW-1: "the second pick may take the new card, unless it is a locomotive"."""
    set_open_row(game, ["red", "blue", "green", "yellow", "black"])
    stack_deck(game, [L])
    game.apply(0, DrawCard(0))
    assert row(game)[0] == L
    with pytest.raises(NotLegalNow, match="R-DRAW-2"):
        game.apply(0, DrawCard(0))


def test_r_row_2_3_three_face_up_locomotives_reset_the_row(game):
    """R-ROW-2/3: when the refill makes 3 locomotives face up, all 5 go to the discard and 5 new
    cards are dealt."""
    set_open_row(game, [L, L, "red", "blue", "green"])
    stack_deck(game, [L, "white", "white", "orange", "black", "black"])
    game.apply(0, DrawCard(2))  # red; the refill is the third locomotive
    assert row(game) == ["white", "white", "orange", "black", "black"]
    assert game.view(None)["discard_size"] == 5  # L, L, L, blue, green
    assert sorted(game.cards.names[c] for c in game.state.discard) == sorted([L, L, L, "blue", "green"])
    assert hand(game, 0) == {"red": 1}
    assert_invariants(game)


def test_r_row_2_two_face_up_locomotives_do_not_reset(game):
    """R-ROW-2: the trigger is 3 locomotives; 2 leave the row as it is."""
    set_open_row(game, [L, "purple", "red", "blue", "green"])
    stack_deck(game, [L])
    game.apply(0, DrawCard(2))
    assert row(game) == [L, "purple", L, "blue", "green"]
    assert game.view(None)["discard_size"] == 0


def test_r_row_3_at_most_three_resets_in_a_row(game):
    """R-ROW-3 [engine decision]: the reset repeats while triggered, at most 3 times in a row; after the
    third the row stays, even with 3 locomotives."""
    set_open_row(game, [L, L, "red", "blue", "green"])
    triggered = [L, L, L, "white", "white"]
    fourth = [L, "yellow", "yellow", "yellow", "yellow"]  # what a 4th reset would deal
    stack_deck(game, [L, *triggered, *triggered, *triggered, *fourth])
    game.apply(0, DrawCard(2))
    assert row(game) == triggered
    assert game.view(None)["discard_size"] == 15
    assert hand(game, 0) == {"red": 1}
    assert_invariants(game)


def test_r_set_3_the_starting_row_is_checked_for_a_reset():
    """R-SET-3: the open row is checked at the start; a starting row never shows 3 locomotives unless
    3 resets were spent on it (R-ROW-3), and some seed really does reset at the start."""
    resets_seen = 0
    for seed in range(300):
        g = testing.new_game("usa", 2, seed)
        locos = row(g).count(L)
        discarded = len(g.state.discard)
        assert discarded % 5 == 0 and discarded <= 15
        assert locos < 3 or discarded == 15, f"seed {seed}: {row(g)}"
        resets_seen += discarded > 0
    assert resets_seen > 0


def test_r_draw_3_empty_deck_is_rebuilt_from_the_shuffled_discard(game):
    """R-DRAW-3: with the deck empty, the discard pile becomes the new deck."""
    st = game.state
    st.discard.extend(st.deck)
    st.deck.clear()
    before = game.view(None)
    assert before["deck_size"] == 0 and before["discard_size"] > 0
    game.apply(0, DrawCard(None))
    after = game.view(None)
    assert sum(hand(game, 0).values()) == 1
    assert after["discard_size"] == 0
    assert after["deck_size"] == before["discard_size"] - 1
    assert_invariants(game)


def _give_everything_else_to(game, seat: int) -> None:
    st = game.state
    for card in [*st.deck, *st.discard, *(c for c in st.open_row if c >= 0)]:
        st.players[seat].hand[card] += 1
    st.deck.clear()
    st.discard.clear()
    st.open_row[:] = [-1] * len(st.open_row)


def test_r_draw_3_no_card_available_means_drawing_is_not_legal(game):
    """R-DRAW-3: if no card can be taken, drawing is not a legal action."""
    _give_everything_else_to(game, 1)
    assert_invariants(game)
    assert draws(game, 0) == set()
    for slot in (None, 0):
        with pytest.raises(NotLegalNow):
            game.apply(0, DrawCard(slot))


def test_r_draw_3_when_only_one_card_can_be_taken_the_draw_ends_after_it(game):
    """R-DRAW-3: "if only one card can legally be taken, the draw ends after it"."""
    _give_everything_else_to(game, 1)
    red = game.cards.id("red")
    game.state.players[1].hand[red] -= 1
    game.state.open_row[0] = red
    assert_invariants(game)
    game.apply(0, DrawCard(0))
    assert hand(game, 0) == {"red": 1}
    assert game.state.current == 1


def test_r_draw_3_only_face_up_locomotives_left_after_the_first_card_ends_the_draw(game):
    """R-DRAW-2 + R-DRAW-3: after a first card, face-up locomotives are no choice; with no deck either,
    the draw ends."""
    _give_everything_else_to(game, 1)
    hand1 = game.state.players[1].hand
    red, loco = game.cards.id("red"), game.cards.locomotive
    hand1[red] -= 1
    hand1[loco] -= 2
    game.state.open_row[:] = [red, loco, loco, -1, -1]
    game.apply(0, DrawCard(0))
    assert game.state.current == 1
    assert hand(game, 0) == {"red": 1}
