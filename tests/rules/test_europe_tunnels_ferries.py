"""Tunnels and ferries as ``europe`` plays them: ferries without 3-for-1 (R-FER-1), tunnels revealing
3 cards where every revealed locomotive counts (R-TUN-1..7).

The plugins are someone else's (``ttr_plugins.tunnels``, ``ttr_plugins.ferries``); these tests check
the europe parameters through the game only, building the tunnel actions from their data as a
host would, so they do not depend on the plugins' Python names.
"""

from __future__ import annotations

import pytest

from ttr_core import variant
from ttr_kit import testing
from ttr_plugins.claiming import ClaimRoute
from ttr_core.errors import CannotPay
from ttr_core.game import Game



def test_europe_plays_with_tunnels_and_ferries():
    assert {"tunnels", "ferries"} <= set(variant.load("europe").plugins)

TUNNEL = "Paris-Zurich"  # grey, length 3


def started(players: int = 2, seed: int = 1) -> Game:
    game = testing.keep_all_starting_tickets(testing.new_game("europe", players, seed))
    assert game.state.phase == "play" and game.state.current == 0
    return game


def act(game: Game, seat: int, kind: str, **fields) -> None:
    game.apply(seat, game.registry.from_data({"kind": kind, **fields}))


def pending(game: Game, seat: int) -> dict | None:
    """The seat's pending decision, as that player sees it."""
    return game.view(seat)["players"][seat]["decision"]


def hand(game: Game, seat: int) -> dict[str, int]:
    return game.view(seat)["you"]["hand"]


def owner(game: Game, route_id: str) -> int | None:
    return game.view(None)["routes"].get(route_id)


def leave_in_deck(game: Game, cards: list[str], discard: list[str] = ()) -> None:
    """Make the deck exactly ``cards`` (top first) and the discard exactly ``discard``; every other
    card goes to seat 1's hand (cards in hands never come back, R-DRAW-3)."""
    st = game.state
    testing.set_open_row(game, [None] * 5)
    st.deck.extend(st.discard)
    st.discard.clear()
    keep = [testing._pull(game, name) for name in cards]
    back = [testing._pull(game, name) for name in discard]
    for card in st.deck:
        st.players[1].hand[card] += 1
    st.deck[:] = list(reversed(keep))
    st.discard[:] = back


# --- R-FER-1: one locomotive per mark, no 3-for-1 -------------------------------------------------


def test_r_fer_1_each_mark_needs_a_locomotive():
    game = started()
    testing.set_hand(game, 0, {"red": 6, "locomotive": 1})
    with pytest.raises(CannotPay, match="R-FER"):
        game.apply(0, ClaimRoute("Amsterdam-London", "red", 1))  # 2 marks, 1 locomotive
    testing.set_hand(game, 0, {"red": 6, "locomotive": 2})
    game.apply(0, ClaimRoute("Amsterdam-London", None, 2))
    assert owner(game, "Amsterdam-London") == 0


def test_r_fer_1_the_other_spaces_are_paid_as_usual():
    game = started()
    testing.set_hand(game, 0, {"red": 2, "locomotive": 1})
    ferry = {(a.color, a.locomotives) for a in game.legal_actions(0)
             if a.kind == "claim-route" and a.route == "Dieppe-London/1"}
    assert ferry == {("red", 1)}  # 1 mark: never red alone, never red + 0 locomotives
    game.apply(0, ClaimRoute("Dieppe-London/1", "red", 1))
    assert hand(game, 0) == {"red": 1}


def test_r_fer_1_europe_has_no_three_for_one():
    game = started()
    testing.set_hand(game, 0, {"red": 10})
    with pytest.raises(CannotPay, match="3-for-1"):
        game.apply(0, ClaimRoute("Dieppe-London/1", "red", 0, 1))
    assert not any(a.kind == "claim-route" and a.triples for a in game.legal_actions(0))


# --- R-TUN: 3 cards revealed, every locomotive counts ------------------------------------------------


def test_r_tun_2_3_paying_colour_and_every_revealed_locomotive_add_one():
    game = started()
    testing.set_hand(game, 0, {"red": 5, "locomotive": 1})
    testing.stack_deck(game, ["red", "locomotive", "blue"])
    game.apply(0, ClaimRoute(TUNNEL, "red", 0))  # no locomotive in the base: europe counts it anyway
    decision = pending(game, 0)
    assert decision["kind"] == "tunnel-extra" and decision["extra"] == 2
    assert owner(game, TUNNEL) is None
    discard = game.view(None)["discard_size"]
    act(game, 0, "pay-tunnel", color="red", locomotives=1)
    assert owner(game, TUNNEL) == 0
    assert hand(game, 0) == {"red": 1}  # 3 base + 1 red + 1 locomotive extra
    assert game.view(None)["discard_size"] == discard + 3 + 2 + 3  # base, extra, revealed
    p = game.state.players[0]
    assert (p.trains, p.route_points) == (42, 4)  # R-TUN-7: extras change neither
    testing.assert_invariants(game)


def test_r_tun_2_other_colours_add_nothing_and_the_tunnel_is_built_at_once():
    game = started()
    testing.set_hand(game, 0, {"green": 3})
    testing.stack_deck(game, ["red", "blue", "white"])
    game.apply(0, ClaimRoute(TUNNEL, "green", 0))
    assert pending(game, 0) is None and owner(game, TUNNEL) == 0
    assert game.state.current == 1


def test_r_tun_4_all_locomotive_base_counts_only_locomotives_paid_in_locomotives():
    game = started()
    testing.set_hand(game, 0, {"locomotive": 5, "red": 3})
    testing.stack_deck(game, ["red", "locomotive", "red"])
    game.apply(0, ClaimRoute(TUNNEL, None, 3))
    assert pending(game, 0)["extra"] == 1
    with pytest.raises(CannotPay, match="R-TUN-4"):
        act(game, 0, "pay-tunnel", color="red", locomotives=0)
    act(game, 0, "pay-tunnel", color=None, locomotives=1)
    assert hand(game, 0) == {"locomotive": 1, "red": 3}


def test_r_tun_6_declining_returns_the_base_and_ends_the_turn():
    game = started()
    testing.set_hand(game, 0, {"red": 3})
    testing.stack_deck(game, ["red", "red", "red"])
    game.apply(0, ClaimRoute(TUNNEL, "red", 0))
    assert pending(game, 0)["extra"] == 3
    assert {a.kind for a in game.legal_actions(0)} == {"decline-tunnel"}  # no red left to pay
    discard = game.view(None)["discard_size"]
    act(game, 0, "decline-tunnel")
    assert hand(game, 0) == {"red": 3} and owner(game, TUNNEL) is None
    assert game.view(None)["discard_size"] == discard + 3
    assert game.state.current == 1
    testing.assert_invariants(game)


def test_r_tun_1_fewer_than_three_cards_left_reveals_what_there_is():
    game = started()
    testing.set_hand(game, 0, {"red": 5})
    leave_in_deck(game, ["red"], discard=["red"])  # 1 in the deck, 1 shuffled in from the discard
    game.apply(0, ClaimRoute(TUNNEL, "red", 0))
    assert pending(game, 0)["extra"] == 2
    act(game, 0, "pay-tunnel", color="red", locomotives=0)
    assert owner(game, TUNNEL) == 0 and hand(game, 0) == {}
    testing.assert_invariants(game)


def test_r_tun_1_nothing_left_to_reveal_builds_without_a_check():
    game = started()
    testing.set_hand(game, 0, {"red": 3})
    leave_in_deck(game, [])
    game.apply(0, ClaimRoute(TUNNEL, "red", 0))
    assert pending(game, 0) is None and owner(game, TUNNEL) == 0
    assert game.state.players[0].route_points == 4
    testing.assert_invariants(game)
