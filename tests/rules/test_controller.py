"""The ``controller`` plugin on the ``ussr`` variant: R-CTL-1..5, R-ROW-4, R-TUN-9.

Positions are arranged with :mod:`ttr_kit.testing`, which moves real cards, so every test can end
with the card invariant (112 cards: 110 train cards + 2 controllers).
"""

from __future__ import annotations

import json

import attrs
import pytest

from ttr_core import variant
from ttr_kit import testing
from ttr_core.game import Game
from ttr_core.manager import local_plugins
from ttr_core.plugin import Plugin, hookimpl
from ttr_plugins.claiming import ClaimRoute
from ttr_plugins.train_cards import DrawCard
from ttr_plugins.tickets import DrawTickets, KeepTickets
from ttr_core.errors import CannotPay, IllegalAction, MalformedAction, NotLegalNow, RouteTaken
from ttr_kit.testing import assert_invariants, give_route, set_hand, set_open_row, stack_deck
from ttr_plugins.controller import CARD, PlayController

L = "locomotive"
FOUR = "Riga-Moscow"  # length 4, blue, plain
FIVE = "Leningrad-Murmansk"  # length 5
TUNNEL = "Sochi-Tbilisi"  # length 3, yellow tunnel
FERRY = "Baku-Krasnovodsk"  # length 2, both spaces locomotive marks
WHITE, YELLOW = "Leningrad-Moscow/white", "Leningrad-Moscow/yellow"  # a double, length 3


def started(players: int = 2, seed: int = 1):
    game = testing.keep_all_starting_tickets(testing.new_game("ussr", players, seed))
    for seat in range(players):
        set_hand(game, seat, {})
    return game


def hand(game, seat) -> dict[str, int]:
    return game.view(seat)["you"]["hand"]


def plays(game, seat) -> set[tuple[str, str]]:
    return {(a.mode, a.route) for a in game.legal_actions(seat) if isinstance(a, PlayController)}


def route(game, route_id):
    return game.board.routes[game.board.route_index[route_id]]


def state_json(game) -> str:
    return json.dumps(game.dump(), sort_keys=True)


# --- the card in the deck and the hand (R-CTL-1, R-SET-2) -------------------------------------------


def test_r_ctl_1_two_controllers_in_the_deck_make_112_cards():
    game = testing.new_game("ussr", 2, 1)
    assert game.cards.names[-1] == CARD and len(game.cards.names) == 10
    census = testing.card_census(game)
    assert sum(census.values()) == 112
    assert census[game.cards.id(CARD)] == 2
    assert_invariants(game)


def test_r_ctl_1_a_controller_drawn_blind_goes_to_the_hand_as_one_drawn_card():
    game = started()
    stack_deck(game, [CARD, "red"])
    game.apply(0, DrawCard(None))
    assert hand(game, 0) == {CARD: 1}
    # it counts as one card: the player takes a second one (R-DRAW-1)
    assert game.state.players[0].decision is not None and game.state.current == 0
    game.apply(0, DrawCard(None))
    assert hand(game, 0) == {CARD: 1, "red": 1}
    assert game.state.current == 1
    assert_invariants(game)


def test_r_ctl_1_a_controller_pays_for_nothing():
    """Not a train card: no claim, tunnel or station payment can use it, not even as a wild card."""
    game = started()
    set_hand(game, 0, {CARD: 2})
    kinds = {a.kind for a in game.legal_actions(0)}
    assert "claim-route" not in kinds and "build-station" not in kinds
    assert "play-controller" in kinds
    with pytest.raises(CannotPay):
        game.apply(0, ClaimRoute("Vilnius-Minsk", "red"))  # a gray route of length 1
    with pytest.raises(IllegalAction):
        game.apply(0, ClaimRoute("Vilnius-Minsk", None, 1))


def test_r_ctl_1_a_controller_in_hand_is_private():
    game = started()
    set_hand(game, 0, {CARD: 1})
    assert game.view(0)["you"]["hand"] == {CARD: 1}
    assert "you" not in game.view(None)
    assert CARD not in json.dumps(game.view(1)["you"]) and game.view(1)["players"][0]["cards"] == 1


# --- dismantling (R-CTL-2) ----------------------------------------------------------------------------


def test_r_ctl_2_dismantling_returns_the_trains_and_the_points():
    game = started()
    give_route(game, 1, FOUR)
    assert (game.state.players[1].trains, game.state.players[1].route_points) == (41, 7)
    set_hand(game, 0, {CARD: 1, "red": 1})
    assert (("dismantle", FOUR)) in plays(game, 0)
    game.apply(0, PlayController("dismantle", FOUR))
    victim = game.state.players[1]
    assert victim.trains == 45 and victim.route_points == 0 and victim.routes == []
    assert game.view(None)["routes"] == {}
    assert hand(game, 0) == {"red": 1}  # only the controller was spent
    assert game.state.players[0].trains == 45  # the player's own trains are untouched
    assert game.state.current == 1  # a whole turn
    assert_invariants(game)


@attrs.define
class Held:
    by_route: dict[str, int] = attrs.Factory(dict)


class HeldRoutes(Plugin):
    """A house rule's bookkeeping: which seat holds which route, kept in its typed state."""

    State = Held

    @hookimpl
    def ttr_route_claimed(self, game, seat, route):
        self.state(game).by_route[route.id] = seat

    @hookimpl
    def ttr_route_released(self, game, seat, route):
        assert self.state(game).by_route.pop(route.id) == seat


def test_r_ctl_2_a_dismantled_route_is_announced_to_plugins_keeping_per_route_facts(tmp_path):
    path = tmp_path / "ussr-held.toml"
    path.write_text('id = "ussr-held"\ntitle = "t"\nextends = "ussr"\n[versions.1]\nadd_plugins = ["held-routes"]\n',
                    encoding="utf-8")
    with local_plugins({"held-routes": HeldRoutes}):
        game = testing.keep_all_starting_tickets(Game(variant.load(str(path)), ["A", "B"], 1))
        set_hand(game, 1, {"blue": 4})
        game.state.current = 1
        game.apply(1, ClaimRoute(FOUR, "blue"))
        assert game.state.ext["held-routes"].by_route == {FOUR: 1}
        set_hand(game, 0, {CARD: 1})
        game.apply(0, PlayController("dismantle", FOUR))
        assert game.state.ext["held-routes"].by_route == {}  # told which route, and whose it was


def test_r_ctl_2_a_dismantled_route_is_free_again_for_anyone():
    game = started()
    give_route(game, 1, FOUR)
    set_hand(game, 0, {CARD: 1})
    game.apply(0, PlayController("dismantle", FOUR))
    set_hand(game, 1, {"blue": 4})
    game.apply(1, ClaimRoute(FOUR, "blue"))  # the former owner claims it again
    assert game.view(None)["routes"] == {FOUR: 1}
    assert game.state.players[1].route_points == 7
    assert_invariants(game)


def test_r_ctl_2_dismantled_points_are_not_scored_at_the_end():
    game = started()
    give_route(game, 1, FOUR)
    set_hand(game, 0, {CARD: 1})
    game.apply(0, PlayController("dismantle", FOUR))
    game.finish("test")
    assert game.result.scores[1].routes == 0


@pytest.mark.parametrize("setup, target, error", [
    ("free", FOUR, "free"),
    ("own", FOUR, "your own"),
    ("other", FIVE, "at most 4"),
])
def test_r_ctl_2_only_another_players_route_of_length_at_most_4_can_be_dismantled(setup, target, error):
    game = started()
    if setup == "own":
        give_route(game, 0, target)
    elif setup == "other":
        give_route(game, 1, target)
    set_hand(game, 0, {CARD: 1})
    before = state_json(game)
    assert ("dismantle", target) not in plays(game, 0)
    with pytest.raises(IllegalAction, match=error):
        game.apply(0, PlayController("dismantle", target))
    assert state_json(game) == before


# --- building (R-CTL-2, R-CTL-3, R-TUN-9) --------------------------------------------------------


def test_r_ctl_2_building_claims_a_route_of_length_4_without_cards():
    game = started()
    set_hand(game, 0, {CARD: 1, "blue": 2})
    discard = len(game.state.discard)
    game.apply(0, PlayController("build", FOUR))
    assert game.view(None)["routes"] == {FOUR: 0}
    p = game.state.players[0]
    assert (p.trains, p.route_points) == (41, 7)  # trains placed, scored at once (R-SCORE-1)
    assert hand(game, 0) == {"blue": 2}  # no train card spent
    assert len(game.state.discard) == discard + 1  # only the controller
    assert_invariants(game)


def test_r_ctl_2_a_controller_cannot_build_a_route_of_length_5():
    game = started()
    set_hand(game, 0, {CARD: 1})
    before = state_json(game)
    assert route(game, FIVE).length == 5
    assert ("build", FIVE) not in plays(game, 0)
    assert all(route(game, r).length <= 4 for _, r in plays(game, 0))
    with pytest.raises(IllegalAction, match="R-CTL-2"):
        game.apply(0, PlayController("build", FIVE))
    assert state_json(game) == before


def test_r_ctl_2_trains_are_still_needed():
    game = started()
    set_hand(game, 0, {CARD: 1})
    for r in ("Chita-Khabarovsk", "Aktyubinsk-Tashkent", "Alma Ata-Novosibirsk", "Tynda-Vanino",
              "Rostov-Baku", "Volgograd-Baku", "Leningrad-Murmansk", "Kishinev-Odessa", "Vilnius-Minsk"):
        give_route(game, 0, r)  # 7 + 6 + 6 + 6 + 5 + 5 + 5 + 1 + 1 = 42 trains on the board
    assert game.state.players[0].trains == 3
    assert ("build", FOUR) not in plays(game, 0)
    with pytest.raises(CannotPay, match="trains"):
        game.apply(0, PlayController("build", FOUR))
    assert game.state.players[0].trains == 3
    assert ("build", TUNNEL) in plays(game, 0)  # length 3 still fits


def test_r_ctl_2_a_taken_route_cannot_be_built():
    game = started()
    give_route(game, 1, FOUR)
    set_hand(game, 0, {CARD: 1})
    with pytest.raises(RouteTaken):
        game.apply(0, PlayController("build", FOUR))


def test_r_ctl_2_a_ferry_is_built_without_its_locomotives():
    """R-CTL-2: "ferries and tunnels included": the locomotive marks (R-FER-1) need no card either."""
    game = started()
    set_hand(game, 0, {CARD: 1})
    assert route(game, FERRY).ferry == 2
    game.apply(0, PlayController("build", FERRY))
    assert game.view(None)["routes"] == {FERRY: 0}
    assert hand(game, 0) == {}
    assert_invariants(game)


def test_r_ctl_3_r_tun_9_a_tunnel_built_with_a_controller_reveals_nothing():
    game = started()
    assert route(game, TUNNEL).tunnel
    set_hand(game, 0, {CARD: 1})
    stack_deck(game, ["yellow", L, "yellow"])  # a claim with cards would owe 3 extra
    deck = list(game.state.deck)
    game.apply(0, PlayController("build", TUNNEL))
    assert game.state.deck == deck  # nothing turned over
    assert game.state.players[0].decision is None and game.state.current == 1
    assert game.view(None)["routes"] == {TUNNEL: 0}
    assert_invariants(game)


def test_r_ctl_3_the_same_tunnel_claimed_with_cards_does_reveal():
    """The contrast to the test above: the tunnels plugin is live in ussr, so a claim with cards
    turns 3 cards over and asks for the extra (R-TUN-1..3)."""
    game = started()
    if "tunnels" not in game.ruleset.plugins:
        pytest.skip("the tunnels plugin is not in the ussr variant yet")
    set_hand(game, 0, {"yellow": 3})
    stack_deck(game, ["yellow", L, "yellow"])
    game.apply(0, ClaimRoute(TUNNEL, "yellow"))
    assert game.state.players[0].decision is not None
    assert game.state.players[0].decision.extra == 3


def test_r_par_2_a_controller_respects_closed_parallel_routes_with_2_players():
    game = started(2)
    give_route(game, 1, WHITE)
    set_hand(game, 0, {CARD: 1})
    assert ("build", YELLOW) not in plays(game, 0)
    with pytest.raises(RouteTaken, match="R-PAR-2"):
        game.apply(0, PlayController("build", YELLOW))


def test_r_par_1_a_controller_cannot_give_a_player_both_routes_of_a_double():
    game = started(3)
    give_route(game, 0, WHITE)
    set_hand(game, 0, {CARD: 1})
    with pytest.raises(RouteTaken, match="R-PAR-1"):
        game.apply(0, PlayController("build", YELLOW))
    # but with 3 players another seat may still build it (R-PAR-2 closes only in 2-player games)
    set_hand(game, 0, {})
    set_hand(game, 1, {CARD: 1})
    game.apply(0, DrawTickets())
    game.apply(0, KeepTickets((game.board.tickets[game.state.players[0].decision.offered[0]].id,)))
    game.apply(1, PlayController("build", YELLOW))
    assert game.view(None)["routes"] == {WHITE: 0, YELLOW: 1}


def test_r_par_2_dismantling_one_of_a_double_reopens_the_other():
    game = started(2)
    give_route(game, 1, WHITE)
    set_hand(game, 0, {CARD: 1, "yellow": 3})
    game.apply(0, PlayController("dismantle", WHITE))
    set_hand(game, 1, {})
    game.apply(1, DrawTickets())
    game.apply(1, KeepTickets((game.board.tickets[game.state.players[1].decision.offered[0]].id,)))
    game.apply(0, ClaimRoute(YELLOW, "yellow"))
    assert game.view(None)["routes"] == {YELLOW: 0}


# --- playing it (R-TURN-1, R-CTL-4) ----------------------------------------------------------------


def test_r_ctl_4_a_played_controller_goes_to_the_discard_pile():
    game = started()
    set_hand(game, 0, {CARD: 2})
    card = game.cards.id(CARD)
    assert card not in game.state.discard
    game.apply(0, PlayController("build", FOUR))
    assert game.state.discard.count(card) == 1
    assert hand(game, 0) == {CARD: 1}
    assert_invariants(game)


def test_r_ctl_4_a_discarded_controller_comes_back_with_the_reshuffle():
    """R-DRAW-3: the discard, controller included, becomes the new deck."""
    game = started()
    set_hand(game, 0, {CARD: 1})
    game.apply(0, PlayController("build", FOUR))
    st = game.state
    st.discard.extend(st.deck)  # as if the deck had been drawn down: every card stays in the game
    st.deck.clear()
    game.apply(1, DrawCard(None))
    card = game.cards.id(CARD)
    assert st.discard == []
    assert card in st.deck or st.players[1].hand[card] == 1
    assert_invariants(game)


def test_r_turn_1_a_controller_is_played_instead_of_a_turn_not_inside_a_draw():
    game = started()
    set_hand(game, 0, {CARD: 1})
    stack_deck(game, ["red"])
    game.apply(0, DrawCard(None))
    with pytest.raises(NotLegalNow):
        game.apply(0, PlayController("build", FOUR))
    assert hand(game, 0) == {CARD: 1, "red": 1}


def test_playing_without_a_controller_is_refused_and_changes_nothing():
    game = started()
    set_hand(game, 0, {"blue": 4})
    before = state_json(game)
    assert plays(game, 0) == set()
    with pytest.raises(NotLegalNow, match="no controller"):
        game.apply(0, PlayController("build", FOUR))
    assert state_json(game) == before


@pytest.mark.parametrize("data", [
    {"kind": "play-controller", "mode": "steal", "route": FOUR},
    {"kind": "play-controller", "mode": "build", "route": "Moscow-Paris"},
    {"kind": "play-controller", "mode": "build"},
])
def test_malformed_play_controller_actions_are_refused(data):
    game = started()
    set_hand(game, 0, {CARD: 1})
    with pytest.raises(MalformedAction):
        game.apply(0, game.registry.from_data(data, 0))


def test_play_controller_round_trips_as_data():
    game = started()
    action = PlayController("dismantle", FOUR)
    data = game.registry.to_data(action)
    assert data == {"kind": "play-controller", "mode": "dismantle", "route": FOUR}
    assert game.registry.from_data(data) == action


# --- the open row (R-CTL-5, R-ROW-4) ----------------------------------------------------------------


def test_r_ctl_5_r_row_4_a_controller_turning_face_up_resets_the_row():
    game = started()
    set_open_row(game, ["red", "blue", "green", "white", "black"])
    stack_deck(game, [CARD, "orange", "orange", "purple", "purple", "yellow"])
    game.apply(0, DrawCard(0))  # the refill turns the controller face up
    card = game.cards.id(CARD)
    assert game.view(None)["open_row"] == ["orange", "orange", "purple", "purple", "yellow"]
    assert card not in game.state.open_row
    # the whole row went to the discard, the controller with it
    assert sorted(game.cards.names[c] for c in game.state.discard[-5:]) == sorted(
        [CARD, "blue", "green", "white", "black"]
    )
    assert_invariants(game)


def test_r_ctl_5_no_controller_lies_face_up_after_the_setup():
    """R-SET-3 checks the first row for a reset too: over many seeds, no controller is face up
    at the start, and at least one start did sweep a controller away."""
    swept = 0
    for seed in range(300):
        game = testing.new_game("ussr", 2, seed)
        card = game.cards.id(CARD)
        assert card not in game.state.open_row, seed
        swept += card in game.state.discard
    assert swept > 0


def test_r_ctl_5_a_face_up_controller_cannot_be_taken():
    """[engine decision] When the reset limit (R-ROW-3) leaves a controller face up, it stays in the
    row and cannot be taken: the source gives controllers only to whoever draws them blind."""
    game = started()
    set_open_row(game, [CARD, "red", "blue", "green", "white"])
    before = state_json(game)
    slots = {a.slot for a in game.legal_actions(0) if isinstance(a, DrawCard)}
    assert slots == {None, 1, 2, 3, 4}
    with pytest.raises(NotLegalNow, match="R-CTL-5"):
        game.apply(0, DrawCard(0))
    assert state_json(game) == before


def test_r_ctl_5_a_stuck_controller_is_swept_away_by_the_next_refill():
    game = started()
    set_open_row(game, [CARD, "red", "blue", "green", "white"])
    stack_deck(game, ["black", "orange", "orange", "purple", "purple", "yellow"])
    game.apply(0, DrawCard(1))
    assert game.view(None)["open_row"] == ["orange", "orange", "purple", "purple", "yellow"]
    assert game.cards.id(CARD) in game.state.discard
    assert_invariants(game)


def test_face_up_takeable_config_lets_a_stuck_controller_be_taken():
    """The engine decision is a parameter: with ``face_up_takeable`` the stuck controller is an
    ordinary pick of one card."""
    import attrs

    from ttr_core import variant
    from ttr_core.game import Game

    rs = variant.load("ussr")
    rs = rs.with_configs({"controller": attrs.evolve(rs.configs["controller"], face_up_takeable=True)})
    game = testing.keep_all_starting_tickets(Game(rs, ["P1", "P2"], 1))
    set_hand(game, 0, {})
    set_open_row(game, [CARD, "red", "blue", "green", "white"])
    assert 0 in {a.slot for a in game.legal_actions(0) if isinstance(a, DrawCard)}
    game.apply(0, DrawCard(0))
    assert hand(game, 0) == {CARD: 1}
    assert game.state.players[0].decision is not None  # one card of two
