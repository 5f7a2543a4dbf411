"""``ttr_core.claims.claim_options``: which payments of a hand can claim a route, or a refusal with a
machine-readable code, without building a game or catching an exception.

The answers come from the rules (``game.claim_problem`` for whether the seat may have the route,
the ``claiming`` plugin's own check through ``ttr_claim_options`` for what the hand can pay), so
they are checked here against the game itself: every payment listed is one the game accepts, and
every payment the game accepts is listed (R-ROUTE-2..3 on usa, R-FER-1 and R-TUN on europe,
R-FER-2's 3-for-1 on wor's Europe map: the wor USA map has no ferries).
"""

from __future__ import annotations

import json

import pytest

from ttr_core import variant
from ttr_core.claims import NO_CLAIMS, ClaimOptions, claim_options
from ttr_core.errors import IllegalAction
from ttr_core.plugin import CANNOT_PAY, COLORS, TAKEN, TRAINS
from ttr_plugins.parallel_routes import CLOSED_PARALLEL, OWN_PARALLEL
from ttr_kit import testing
from ttr_plugins.claiming import ClaimRoute

L = "locomotive"


def paid(options: ClaimOptions) -> list[tuple]:
    """Each payment as (colour, locomotives, triples, cards taken)."""
    return [(p.action.color, p.action.locomotives, p.action.triples, dict(p.cards)) for p in options.payments]


def accepted(game, seat, route) -> set[ClaimRoute]:
    """Every claim of ``route`` the game's own check accepts from ``seat``'s hand: the oracle."""
    handler = game.registry.for_action(ClaimRoute(route.id)).handler
    found = set()
    for color in (*COLORS, None):
        for locos in range(route.length + 1):
            for triples in range(route.length + 1):
                action = ClaimRoute(route.id, color, locos, triples)
                try:
                    handler.check(game, seat, action)
                except IllegalAction:
                    continue
                found.add(action)
    return found


# --- usa: colours and locomotives (R-ROUTE-2..3) --------------------------------------------------------


def test_usa_a_coloured_route_cheapest_first():
    options = claim_options("usa", 0, "Denver-Omaha", hand={"purple": 3, L: 5, "red": 4})
    assert options.possible and options.refusal is None and options.route == "Denver-Omaha"
    assert paid(options) == [
        ("purple", 1, 0, {"purple": 3, L: 1}),
        ("purple", 2, 0, {"purple": 2, L: 2}),
        ("purple", 3, 0, {"purple": 1, L: 3}),
        (None, 4, 0, {L: 4}),  # R-ROUTE-3: all locomotives, listed once, without a colour
    ]


def test_usa_a_grey_route_takes_any_one_colour_never_mixed():
    options = claim_options("usa", 0, "El Paso-Phoenix", hand={"red": 3, "blue": 2, L: 1})
    assert paid(options) == [
        ("red", 0, 0, {"red": 3}),
        ("blue", 1, 0, {"blue": 2, L: 1}),
        ("red", 1, 0, {"red": 2, L: 1}),
    ]


def test_usa_cannot_pay_says_what_the_hand_has():
    options = claim_options("usa", 0, "Denver-Omaha", hand={"purple": 1, "red": 5})
    assert not options.possible and options.payments == ()
    assert options.refusal.code == CANNOT_PAY
    assert options.refusal.reason == "the hand (1 purple, 5 red) cannot pay Denver-Omaha: 4 purple space(s) (R-ROUTE-2..3)"


def test_usa_refusal_codes_follow_the_board(ttr_position):
    """taken (R-ROUTE-5), own-parallel (R-PAR-1), closed-parallel (R-PAR-2), not-enough-trains
    (R-ROUTE-2): each a code a program can act on, with the reason a person reads."""
    big = ttr_position("usa", players=4, routes={0: ["Denver-Kansas City/black"]}, trains={2: 2},
                       hands={1: {"orange": 4}})
    small = ttr_position("usa", players=2, routes={0: ["Denver-Kansas City/black"]}, hands={1: {"orange": 4}})

    def code(game, seat, route):
        return claim_options(game, seat, route).refusal

    assert code(big, 1, "Denver-Kansas City/black").code == TAKEN
    assert code(big, 0, "Denver-Kansas City/orange").code == OWN_PARALLEL
    assert "R-PAR-1" in code(big, 0, "Denver-Kansas City/orange").reason
    assert code(big, 1, "Kansas City-Denver/orange") is None  # 4 players: open to the others
    assert code(big, 2, "Denver-Kansas City/orange").code == TRAINS  # 2 trains left, 4 spaces
    assert code(small, 1, "Denver-Kansas City/orange").code == CLOSED_PARALLEL
    assert "R-PAR-2" in code(small, 1, "Denver-Kansas City/orange").reason
    # the same seat with a bigger supply, asked for
    assert claim_options(big, 2, "Denver-Kansas City/orange", hand={"orange": 4}, trains=4).possible


def test_a_game_is_not_changed_and_whose_turn_it_is_does_not_matter(ttr_position):
    game = ttr_position("usa", players=3, hands={2: {"green": 1}}, turn=0)
    before = testing.state_text(game)
    assert not claim_options(game, 2, "Denver-Omaha").possible  # its own hand: 1 green
    options = claim_options(game, 2, "Denver-Omaha", hand={"purple": 4}, trains=4)
    assert paid(options) == [("purple", 0, 0, {"purple": 4})]
    assert testing.state_text(game) == before
    testing.act(game, 0, {"kind": "draw-card", "slot": None})  # and play goes on
    testing.assert_invariants(game)


def test_a_ruleset_a_variant_id_or_a_file(tmp_path):
    ruleset = variant.load("usa")
    hand = {"purple": 4}
    assert claim_options(ruleset, 0, "Denver-Omaha", hand=hand) == claim_options("usa", 0, "Omaha-Denver", hand=hand)
    path = tmp_path / "usa-no-claims.toml"
    path.write_text('id = "usa-no-claims"\ntitle = "t"\nextends = "usa"\n[versions.1]\nremove_plugins = ["claiming"]\n',
                    encoding="utf-8")
    refusal = claim_options(path, 0, "Denver-Omaha", hand=hand).refusal
    assert refusal.code == NO_CLAIMS and "usa-no-claims" in refusal.reason


@pytest.mark.parametrize(("args", "message"), [
    ((0, "Denver-Kansas City/blue"), "the routes between Denver and Kansas City are Denver-Kansas City/black"),
    ((0, "Denver-Atlantis"), "no route 'Denver-Atlantis' on map 'usa'"),
    ((5, "Denver-Omaha"), "no seat 5: the game has seats 0 to 1"),
])
def test_bad_questions_are_value_errors_saying_what_exists(args, message):
    with pytest.raises(ValueError, match=message):
        claim_options("usa", *args, hand={})
    with pytest.raises(ValueError, match="unknown card 'gold'"):
        claim_options("usa", 0, "Denver-Omaha", hand={"gold": 1})
    with pytest.raises(ValueError, match=r"hand\['red'\]: a whole number from 0"):
        claim_options("usa", 0, "Denver-Omaha", hand={"red": -1})


def test_the_answer_as_json():
    data = claim_options("usa", 0, "Denver-Omaha", hand={"purple": 4}).to_data()
    assert json.loads(json.dumps(data)) == {
        "route": "Denver-Omaha", "possible": True, "refusal": None,
        "payments": [{"action": {"kind": "claim-route", "route": "Denver-Omaha", "color": "purple", "locomotives": 0,
                                 "triples": 0},
                      "cards": {"purple": 4}, "extra_coverable": None, "extra_at_most": None}],
    }
    refused = claim_options("usa", 0, "Denver-Omaha", hand={}).to_data()
    assert refused["possible"] is False and refused["refusal"]["code"] == CANNOT_PAY


# --- europe: ferries (R-FER-1) and tunnels (R-TUN) --------------------------------------------------------


def test_europe_a_ferry_mark_takes_a_locomotive():
    options = claim_options("europe", 0, "Essen-Kobenhavn/1", hand={"orange": 3, L: 2})
    assert paid(options) == [
        ("orange", 1, 0, {"orange": 2, L: 1}),
        ("orange", 2, 0, {"orange": 1, L: 2}),
    ]
    refusal = claim_options("europe", 0, "Essen-Kobenhavn/1", hand={"orange": 5}).refusal
    assert refusal.code == CANNOT_PAY and "1 of them locomotive marks (R-FER)" in refusal.reason


def test_europe_a_tunnel_says_how_many_extra_cards_the_hand_still_covers():
    """R-TUN-5: extras are paid in the paying colour or locomotives, never with the base's cards;
    R-TUN-4: after an all-locomotive base, in locomotives only. Europe reveals 3 cards (R-TUN-1)."""
    options = claim_options("europe", 0, "Madrid-Pamplona/black", hand={"black": 4, L: 3, "red": 2})
    assert [(p.action.color, p.action.locomotives, p.extra_coverable, p.extra_at_most) for p in options.payments] == [
        ("black", 0, 3, 3),  # 1 black + 3 locomotives left: every extra the reveal can ask is covered
        ("black", 1, 3, 3),
        ("black", 2, 3, 3),
        (None, 3, 0, 3),  # all locomotives: only locomotives pay the extra, and none is left
    ]
    short = claim_options("europe", 0, "Madrid-Pamplona/black", hand={"black": 3, L: 1})
    assert [(p.cards, p.extra_coverable) for p in short.payments] == [({"black": 3}, 1), ({"black": 2, L: 1}, 1)]
    plain = claim_options("europe", 0, "Essen-Kobenhavn/1", hand={"orange": 3, L: 2})
    assert {(p.extra_coverable, p.extra_at_most) for p in plain.payments} == {(None, None)}


# --- wor: 3-for-1 (R-FER-2) ----------------------------------------------------------------------


def test_wor_three_cards_of_the_paying_colour_for_a_marks_locomotive():
    """R-FER-2's example: length 4, 2 marks, paying green: 2 locomotives + 2 green; or 1 locomotive +
    3 green + 2 green; or 6 green + 2 green. All are listed, with the dearer mixes a hand can also pay."""
    options = claim_options("wor-europe", 0, "Constantinople-Sevastopol", hand={"green": 8, L: 2})
    listed = [(p.action.locomotives, p.action.triples, dict(p.cards)) for p in options.payments]
    assert listed == [
        (0, 2, {"green": 8}),
        (1, 1, {"green": 5, L: 1}),
        (1, 2, {"green": 7, L: 1}),
        (2, 0, {"green": 2, L: 2}),
        (2, 1, {"green": 4, L: 2}),
        (2, 2, {"green": 6, L: 2}),
    ]
    assert {p.action.color for p in options.payments} == {"green"}
    # europe itself has no 3-for-1: the same hand must pay the marks with locomotives
    assert [(p.action.locomotives, p.action.triples) for p in
            claim_options("europe", 0, "Constantinople-Sevastopol", hand={"green": 8, L: 2}).payments] == [(2, 0)]


def test_wor_usa_the_parallel_routes_stay_open_to_others():
    game = testing.keep_all_starting_tickets(testing.new_game("wor", players=2))
    testing.give_route(game, 0, "Portland-Seattle/1")
    assert claim_options(game, 1, "Portland-Seattle/2", hand={"red": 1, L: 1}).possible  # R-PAR-2: never in wor
    assert claim_options(game, 0, "Portland-Seattle/2", hand={"red": 1, L: 1}).refusal.code == OWN_PARALLEL


# --- the game agrees ------------------------------------------------------------------------------------


HANDS = [{"red": 3, L: 2}, {"green": 8, L: 2}, {"black": 4, "orange": 2, L: 3}, {L: 6}, {"white": 2, "blue": 5}]


@pytest.mark.parametrize("variant_id", ["usa", "europe", "wor", "wor-europe"])
def test_the_payments_listed_are_exactly_those_the_game_accepts(variant_id):
    """For every route and a few hands: each payment listed passes the game's own check, each one
    the check accepts is listed (an all-locomotive payment once, without a colour), and every
    claim the legal-action list offers is among them."""
    game = testing.keep_all_starting_tickets(testing.new_game(variant_id, players=4))
    for hand in HANDS:
        testing.set_hand(game, 0, hand)
        legal = {a for a in game.legal_actions(0) if isinstance(a, ClaimRoute)}
        for route in game.board.routes:
            options = claim_options(game, 0, route)
            listed = {p.action for p in options.payments}
            oracle = {a for a in accepted(game, 0, route) if a.color is None or a.locomotives < route.length}
            assert listed == oracle, (variant_id, hand, route.id)
            assert {a for a in legal if a.route == route.id} <= listed, (variant_id, hand, route.id)
            assert options.possible == bool(listed) and (options.refusal is None) == options.possible
            for p in options.payments:
                assert sum(p.cards.values()) == route.length + 2 * p.action.triples
