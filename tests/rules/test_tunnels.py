"""Tunnels (R-TUN-1..8) and cancelling an unfinished attempt (R-TURN-4), on a small test map whose
routes are the worked examples: a green tunnel of length 3, a grey tunnel of length 2, and a grey
tunnel of length 3 that is also a ferry (a triple in the base).

Two rule sets: ``wor`` (revealed locomotives count only with a real locomotive in the base) and
the ``europe``/``ussr`` one (every revealed locomotive counts; no 3-for-1)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ttr_core import variant
from ttr_plugins.claiming import ClaimRoute
from ttr_plugins.train_cards import DrawCard
from ttr_core.errors import CannotPay, MalformedAction, NotLegalNow
from ttr_core.game import Game
from ttr_kit.testing import assert_invariants, keep_all_starting_tickets, set_hand, stack_deck
from ttr_plugins.resignation import Resign
from ttr_plugins.tunnels import DeclineTunnel, PayTunnel, TunnelExtra

GREEN3 = "A-B"  # green tunnel, length 3 (R-TUN-8)
GRAY2 = "B-C"  # grey tunnel, length 2 (R-TUN-8, the all-locomotive base)
FERRY3 = "C-D"  # grey tunnel, length 3, 1 locomotive mark (a triple in the base)
PLAIN = "D-E"  # red, length 2, no tunnel

MAP = """
id = "tunnelmap"
title = "Tunnel examples"
trains = 45
cities = [
  { name = "A", lat = 0, lon = 0 }, { name = "B", lat = 0, lon = 1 }, { name = "C", lat = 0, lon = 2 },
  { name = "D", lat = 0, lon = 3 }, { name = "E", lat = 0, lon = 4 }, { name = "F", lat = 0, lon = 5 },
]
routes = [
  { from = "A", to = "B", length = 3, color = "green", tunnel = true },
  { from = "B", to = "C", length = 2, color = "gray", tunnel = true },
  { from = "C", to = "D", length = 3, color = "gray", tunnel = true, ferry = 1 },
  { from = "D", to = "E", length = 2, color = "red" },
  { from = "E", to = "F", length = 4, color = "gray" },
  { from = "F", to = "A", length = 1, color = "blue" },
]
tickets = [
  { from = "A", to = "C", points = 4 }, { from = "A", to = "D", points = 6 }, { from = "A", to = "E", points = 7 },
  { from = "B", to = "D", points = 4 }, { from = "B", to = "E", points = 5 }, { from = "B", to = "F", points = 5 },
  { from = "C", to = "E", points = 4 }, { from = "C", to = "F", points = 6 }, { from = "D", to = "F", points = 3 },
  { from = "A", to = "F", points = 1 }, { from = "C", to = "A", points = 4 }, { from = "E", to = "A", points = 7 },
]
"""

WOR = """
id = "wor-tunnels"
title = "wor on the tunnel test map"
extends = "wor"
map = "tunnelmap"

[versions.1]
note = "test"
"""

# the europe/ussr tunnel and ferry rules on the same map
ALWAYS = """
id = "always-tunnels"
title = "europe-style tunnels on the tunnel test map"
extends = "wor"
map = "tunnelmap"

[versions.1]
note = "test"

[versions.1.rules.tunnels]
revealed_locomotives = "always"

[versions.1.rules.ferries]
three_for_one = false
"""


@pytest.fixture(scope="module")
def variant_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("variants")
    (d / "maps").mkdir()
    (d / "maps" / "tunnelmap.toml").write_text(textwrap.dedent(MAP))
    (d / "wor-tunnels.toml").write_text(WOR)
    (d / "always-tunnels.toml").write_text(ALWAYS)
    return d


@pytest.fixture
def make(variant_dir):
    def build(rules: str = "wor-tunnels", players: int = 2, seed: int = 5) -> Game:
        ruleset = variant.load(str(variant_dir / f"{rules}.toml"))
        g = keep_all_starting_tickets(Game(ruleset, [f"P{i}" for i in range(players)], seed))
        assert g.state.phase == "play" and g.state.current == 0
        return g

    return build


def names(g: Game, cards) -> list[str]:
    return [g.cards.names[c] for c in cards]


def hand(g: Game, seat: int = 0) -> dict[str, int]:
    return g.cards.counts_by_name(g.state.players[seat].hand)


def pays(g: Game, seat: int = 0) -> set[tuple]:
    return {(a.color, a.locomotives) for a in g.legal_actions(seat) if isinstance(a, PayTunnel)}


def attempt(g: Game, cards: dict[str, int], top: list[str], claim: ClaimRoute) -> TunnelExtra | None:
    """Give seat 0 ``cards``, put ``top`` on the deck, claim; return the pending decision, if any."""
    set_hand(g, 0, cards)
    stack_deck(g, top)
    g.apply(0, claim)
    assert_invariants(g)
    return g.state.players[0].decision


# --- R-TUN-8: the worked examples ---------------------------------------------------------------


def test_R_TUN_8_base_with_a_locomotive_revealed_green_blue_loco_asks_2(make):
    g = make()
    d = attempt(g, {"green": 4, "locomotive": 3}, ["green", "blue", "locomotive"], ClaimRoute(GREEN3, "green", 1))
    assert isinstance(d, TunnelExtra)
    assert d.extra == 2 and d.color == "green" and not d.locomotives_only
    assert names(g, d.revealed) == ["green", "blue", "locomotive"]
    assert sorted(names(g, d.base)) == ["green", "green", "locomotive"]
    # "the extra may be 2 green, green + loco, or 2 locos", and declining is always offered
    assert pays(g) == {("green", 0), ("green", 1), (None, 2)}
    assert DeclineTunnel() in g.legal_actions(0)


def test_R_TUN_8_base_of_3_green_asks_1(make):
    g = make()
    d = attempt(g, {"green": 4, "locomotive": 1}, ["green", "blue", "locomotive"], ClaimRoute(GREEN3, "green", 0))
    assert d.extra == 1
    assert pays(g) == {("green", 0), (None, 1)}


@pytest.mark.parametrize("extra", [PayTunnel("green", 0), PayTunnel("green", 1), PayTunnel(None, 2)])
def test_R_TUN_7_each_extra_payment_builds_3_trains_for_4_points(make, extra):
    g = make()
    attempt(g, {"green": 4, "locomotive": 3}, ["green", "blue", "locomotive"], ClaimRoute(GREEN3, "green", 1))
    discard = len(g.state.discard)
    g.apply(0, extra)
    me = g.state.players[0]
    assert me.decision is None and g.state.current == 1  # the turn is over
    assert g.state.owner[g.board.route_index[GREEN3]] == 0
    assert me.trains == 45 - 3 and me.route_points == 4  # extras change neither trains nor points
    assert len(g.state.discard) - discard == 3 + 2 + 3  # base, extra, revealed
    assert sum(me.hand) == 7 - 3 - 2
    assert_invariants(g)


def test_R_TUN_8_all_locomotive_base_asks_1_locomotive(make):
    g = make()
    d = attempt(g, {"locomotive": 3, "green": 3}, ["green", "blue", "locomotive"], ClaimRoute(GRAY2, None, 2))
    assert d.extra == 1 and d.locomotives_only and d.color is None
    assert pays(g) == {(None, 1)}
    with pytest.raises(CannotPay, match="R-TUN-4"):
        g.apply(0, PayTunnel("green", 0))
    g.apply(0, PayTunnel(None, 1))
    assert hand(g) == {"green": 3}
    assert g.state.players[0].route_points == 2


# --- R-TUN-1: revealing -------------------------------------------------------------------------


def test_R_TUN_1_three_cards_are_revealed_from_the_top_of_the_deck(make):
    g = make()
    deck = len(g.state.deck)
    d = attempt(g, {"green": 3, "locomotive": 1}, ["green", "red", "red"], ClaimRoute(GREEN3, "green", 0))
    assert names(g, d.revealed) == ["green", "red", "red"]
    assert len(g.state.deck) == deck - 3


def _move_deck_to_seat_1(g: Game, keep: int = 0) -> None:
    """Empty the deck but ``keep`` cards into seat 1's hand (cards in hands never return, R-DRAW-3)."""
    st = g.state
    while len(st.deck) > keep:
        st.players[1].hand[st.deck.pop(0)] += 1


def test_R_TUN_1_the_discard_is_shuffled_in_when_the_deck_runs_out(make):
    g = make()
    set_hand(g, 0, {"green": 3})
    stack_deck(g, ["red"])
    _move_deck_to_seat_1(g, keep=1)
    st, green = g.state, g.cards.id("green")
    assert st.players[1].hand[green] >= 5
    st.players[1].hand[green] -= 5
    st.discard[:] = [green] * 5  # the discard pile: five green cards
    g.apply(0, ClaimRoute(GREEN3, "green", 0))
    d = st.players[0].decision
    assert names(g, d.revealed) == ["red", "green", "green"]  # the last deck card, then the reshuffled discard
    assert d.extra == 2
    assert names(g, st.deck) == ["green"] * 3 and not st.discard
    assert_invariants(g)


def test_R_TUN_1_fewer_cards_exist_only_those_are_checked(make):
    g = make()
    set_hand(g, 0, {"green": 4})
    stack_deck(g, ["green"])
    _move_deck_to_seat_1(g, keep=1)
    assert not g.state.discard
    g.apply(0, ClaimRoute(GREEN3, "green", 0))
    d = g.state.players[0].decision
    assert names(g, d.revealed) == ["green"] and d.extra == 1
    assert not g.state.deck


def test_R_TUN_1_nothing_to_reveal_builds_the_tunnel_without_a_check(make):
    g = make()
    set_hand(g, 0, {"green": 3})
    _move_deck_to_seat_1(g)
    assert not g.state.deck and not g.state.discard
    g.apply(0, ClaimRoute(GREEN3, "green", 0))
    assert g.state.owner[g.board.route_index[GREEN3]] == 0
    assert g.state.players[0].decision is None and g.state.current == 1
    assert names(g, g.state.discard) == ["green"] * 3
    assert_invariants(g)


# --- R-TUN-2..4: what the revealed cards ask for --------------------------------------------------


def test_R_TUN_2_other_colours_add_nothing_and_the_route_is_built_at_once(make):
    g = make()
    d = attempt(g, {"green": 3}, ["blue", "red", "yellow"], ClaimRoute(GREEN3, "green", 0))
    assert d is None
    assert g.state.owner[g.board.route_index[GREEN3]] == 0 and g.state.players[0].route_points == 4
    assert sorted(names(g, g.state.discard[-6:])) == sorted(["blue", "red", "yellow", "green", "green", "green"])


def test_R_TUN_3_wor_a_revealed_locomotive_without_one_in_the_base_adds_nothing(make):
    g = make()
    assert attempt(g, {"green": 3}, ["locomotive", "locomotive", "blue"], ClaimRoute(GREEN3, "green", 0)) is None


def test_R_TUN_3_europe_every_revealed_locomotive_adds_one(make):
    g = make("always-tunnels")
    d = attempt(g, {"green": 5}, ["green", "blue", "locomotive"], ClaimRoute(GREEN3, "green", 0))
    assert d.extra == 2  # wor would ask 1 here (R-TUN-8)
    assert pays(g) == {("green", 0)}


def test_R_TUN_3_wor_a_triple_is_not_a_real_locomotive(make):
    # C-D: a grey tunnel of length 3 with one mark, its mark paid by a green triple (5 green)
    g = make()
    d = attempt(g, {"green": 7, "locomotive": 2}, ["locomotive", "green", "red"], ClaimRoute(FERRY3, "green", 0, 1))
    assert sorted(names(g, d.base)) == ["green"] * 5
    assert d.extra == 1  # the green counts, the locomotive does not
    assert d.color == "green"  # R-TUN-4: the triple's colour is the paying colour


def test_R_TUN_3_wor_a_real_locomotive_paying_a_mark_makes_revealed_locomotives_count(make):
    g = make()
    d = attempt(g, {"green": 4, "locomotive": 2}, ["locomotive", "green", "red"], ClaimRoute(FERRY3, "green", 1))
    assert d.extra == 2


def test_R_TUN_4_the_triples_colour_is_the_paying_colour(make):
    g = make()
    d = attempt(g, {"red": 7}, ["green", "red", "blue"], ClaimRoute(FERRY3, "red", 0, 1))
    assert d.extra == 1 and d.color == "red"
    assert pays(g) == {("red", 0)}
    with pytest.raises(CannotPay, match="R-TUN-5"):
        g.apply(0, PayTunnel("green", 0))


def test_R_TUN_4_all_locomotive_base_counts_only_locomotives(make):
    g = make()
    assert attempt(g, {"locomotive": 3}, ["green", "green", "blue"], ClaimRoute(GREEN3, None, 3)) is None


# --- R-TUN-5..6: paying or declining -------------------------------------------------------------


def test_R_TUN_5_base_cards_cannot_pay_the_extra(make):
    g = make()
    d = attempt(g, {"green": 2, "locomotive": 1}, ["green", "blue", "red"], ClaimRoute(GREEN3, "green", 1))
    assert d.extra == 1
    assert pays(g) == set() and g.legal_actions(0) == [DeclineTunnel()]
    before = g.dump()
    for bad in (PayTunnel("green", 0), PayTunnel(None, 1)):
        with pytest.raises(CannotPay, match="besides the base"):
            g.apply(0, bad)
    assert g.dump() == before


def test_R_TUN_5_extra_is_the_paying_colour_or_locomotives_never_triples(make):
    g = make()
    attempt(g, {"green": 4, "red": 6, "locomotive": 1}, ["green", "blue", "red"], ClaimRoute(GREEN3, "green", 1))
    with pytest.raises(CannotPay, match="R-TUN-5"):
        g.apply(0, PayTunnel("red", 0))
    with pytest.raises(CannotPay, match="asks for 1"):
        g.apply(0, PayTunnel(None, 2))
    with pytest.raises(MalformedAction):
        g.registry.from_data({"kind": "pay-tunnel", "color": "red", "locomotives": 0, "triples": 1}, 0)
    with pytest.raises(MalformedAction):
        g.apply(0, PayTunnel("green", -1))


def test_R_TUN_6_declining_returns_the_base_and_ends_the_turn(make):
    """R-TUN-6: the base goes back to the hand, the route stays free, the revealed cards are discarded."""
    g = make()
    attempt(g, {"green": 3, "locomotive": 1}, ["green", "blue", "locomotive"], ClaimRoute(GREEN3, "green", 1))
    discard = len(g.state.discard)
    g.apply(0, DeclineTunnel())
    assert hand(g) == {"green": 3, "locomotive": 1}
    assert g.state.owner[g.board.route_index[GREEN3]] == -1
    assert g.state.players[0].trains == 45 and g.state.players[0].route_points == 0
    assert names(g, g.state.discard[discard:]) == ["green", "blue", "locomotive"]
    assert g.state.current == 1 and g.state.players[0].decision is None
    assert_invariants(g)


def test_R_TUN_6_while_the_attempt_is_pending_nothing_else_is_allowed(make):
    g = make()
    attempt(g, {"green": 4, "locomotive": 1}, ["green", "blue", "locomotive"], ClaimRoute(GREEN3, "green", 1))
    with pytest.raises(NotLegalNow, match="tunnel-extra"):
        g.apply(0, DrawCard(None))
    assert {a.kind for a in g.legal_actions(0)} == {"pay-tunnel", "decline-tunnel"}


def test_a_plain_route_reveals_nothing(make):
    g = make()
    set_hand(g, 0, {"red": 2})
    deck = list(g.state.deck)
    g.apply(0, ClaimRoute(PLAIN, "red", 0))
    assert g.state.deck == deck and g.state.players[0].route_points == 2


# --- R-TURN-4: an unfinished attempt is cancelled as if declined ----------------------------------


def test_R_TURN_4_resigning_during_an_attempt_cancels_it(make):
    g = make(players=3)
    attempt(g, {"green": 3, "locomotive": 1}, ["green", "blue", "locomotive"], ClaimRoute(GREEN3, "green", 1))
    g.apply(0, Resign())
    me = g.state.players[0]
    assert me.resigned and me.decision is None
    assert hand(g) == {"green": 3, "locomotive": 1}  # the base is back in the hand
    assert g.state.owner[g.board.route_index[GREEN3]] == -1
    assert g.state.current == 1 and not g.over
    assert_invariants(g)


def test_R_TURN_4_another_seat_resigning_leaves_the_attempt_alone(make):
    g = make(players=3)
    d = attempt(g, {"green": 4, "locomotive": 1}, ["green", "blue", "locomotive"], ClaimRoute(GREEN3, "green", 1))
    g.apply(2, Resign())
    assert g.state.players[0].decision == d and g.state.current == 0
    g.apply(0, PayTunnel("green", 0))
    assert g.state.owner[g.board.route_index[GREEN3]] == 0 and g.state.current == 1
    assert_invariants(g)


def test_R_TURN_4_the_game_ending_cancels_the_attempt(make):
    g = make()
    attempt(g, {"green": 3, "locomotive": 1}, ["green", "blue", "locomotive"], ClaimRoute(GREEN3, "green", 1))
    g.apply(1, Resign())  # the last opponent leaves: the game ends during seat 0's attempt
    assert g.over and g.state.players[0].decision is None
    assert hand(g) == {"green": 3, "locomotive": 1}
    assert g.state.owner[g.board.route_index[GREEN3]] == -1
    assert_invariants(g)


# --- what everybody sees ---------------------------------------------------------------------------


def test_the_revealed_cards_and_the_extra_are_public(make):
    g = make()
    attempt(g, {"green": 4, "locomotive": 3, "red": 2}, ["green", "blue", "locomotive"], ClaimRoute(GREEN3, "green", 1))
    other = g.view(1)["players"][0]["decision"]
    assert other["kind"] == "tunnel-extra" and other["route"] == GREEN3
    assert other["revealed"] == ["green", "blue", "locomotive"] and other["extra"] == 2
    assert "hand" not in other and "red" not in str(other)  # nothing of the rest of the hand
    mine = g.view(0)["players"][0]["decision"]
    assert mine == other
    assert g.view(None)["players"][0]["decision"] == other


def test_a_game_with_tunnel_attempts_replays_to_the_same_state(make, variant_dir):
    from ttr_core import record

    g = make(seed=11)
    seen = []
    for _ in range(400):  # always try a tunnel when one is offered, and never pay: decline
        if g.over:
            break
        seat = g.to_act()[0]
        acts = g.legal_actions(seat)
        tunnel = [a for a in acts if isinstance(a, ClaimRoute) and a.route in (GREEN3, GRAY2, FERRY3)]
        action = (tunnel or [a for a in acts if not isinstance(a, PayTunnel)] or acts)[0]
        seen.append(action.kind)
        g.apply(seat, action)
    assert "decline-tunnel" in seen
    again = record.replay(record.make_record(g), loader=lambda v, n: variant.load(str(variant_dir / f"{v}.toml"), n))
    assert again.dump() == g.dump()


@pytest.mark.parametrize(
    "table, message",
    [
        ('reveal = -1', "reveal"),
        ('revealed_locomotives = "sometimes"', "revealed_locomotives"),
        ('reveal_count = 3', "unknown key"),
    ],
)
def test_bad_tunnel_parameters_are_reported_with_their_place(variant_dir, table, message):
    from ttr_core.errors import VariantError

    path = variant_dir / "bad-tunnels.toml"
    path.write_text(WOR.replace('id = "wor-tunnels"', 'id = "bad-tunnels"') + f"\n[versions.1.rules.tunnels]\n{table}\n")
    variant.clear_caches()
    with pytest.raises(VariantError) as err:
        variant.load(str(path))
    assert any("bad-tunnels.toml" in p and "tunnels" in p and message in p for p in err.value.problems), err.value.problems
