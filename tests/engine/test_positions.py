"""Positions given by hand (``ttr score``, ``score_position``): a position the rules could not have
produced is refused, located, whatever rule makes it impossible; a route named in any order or
misnamed gets an answer that says what the map has; tickets given in full keep their names.

The rules are asked, not re-implemented: routes are placed one by one with ``game.claim_problem``,
so R-PAR-1 and R-PAR-2 come from the ``parallel-routes`` plugin's ``ttr_closed_routes``, and a
variant without it accepts what it allows.
"""

from __future__ import annotations

import pytest

from ttr_core.errors import RecordError
from ttr_core.position import position_of, score_position
from ttr_kit.testing import breakdown

WHERE = "position.json"


def position(variant: str, *players: dict, **extra) -> dict:
    return {"variant": variant, **extra,
            "players": [{"name": f"P{i + 1}", **p} for i, p in enumerate(players)]}


def problems(data: dict, **kwargs) -> list[str]:
    with pytest.raises(RecordError) as info:
        score_position(data, WHERE, **kwargs)
    return info.value.problems


def the_problem(data: dict, **kwargs) -> str:
    found = problems(data, **kwargs)
    assert len(found) == 1, found
    return found[0]


def totals(game) -> list[int]:
    return [s.routes for s in game.result.scores]


# --- R-PAR-1: one player, both routes of a double ---------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_R_PAR_1_one_player_on_both_routes_of_a_double_is_refused(players):
    """At any player count (R-PAR-1 is not R-PAR-2)."""
    others = [{} for _ in range(players - 1)]
    data = position("usa", {"routes": ["Denver-Omaha", "Denver-Kansas City/black", "Denver-Kansas City/orange"]},
                    *others)
    assert the_problem(data) == (
        f"{WHERE}: $.players[0].routes[2]: Denver-Kansas City/orange is closed to this player (own-parallel): "
        "you own the parallel route Denver-Kansas City/black (R-PAR-1)"
    )


def test_R_PAR_1_the_same_double_named_twice_without_a_colour_is_refused():
    data = position("usa", {"routes": ["Portland-Seattle", "Seattle-Portland"]}, {}, {}, {})
    assert "$.players[0].routes[1]: Portland-Seattle/2 is closed to this player (own-parallel)" in the_problem(data)


def test_R_PAR_1_a_variant_without_the_parallel_rule_accepts_it(tmp_path):
    path = tmp_path / "usa-no-parallel.toml"
    path.write_text('id = "usa-no-parallel"\ntitle = "t"\nextends = "usa"\n[versions.1]\n'
                    'remove_plugins = ["parallel-routes"]\n', encoding="utf-8")
    game = score_position(position(str(path), {"routes": ["Denver-Kansas City/black", "Denver-Kansas City/orange"]}, {}))
    assert totals(game) == [14, 0]


# --- R-PAR-2: both routes of a double in a small game ------------------------------------------------


def test_R_PAR_2_both_routes_of_a_double_in_a_two_player_usa_game_are_refused():
    data = position("usa", {"name": "Ann", "routes": ["Denver-Kansas City/black"]},
                    {"name": "Bob", "routes": ["Helena-Seattle", "Calgary-Winnipeg", "Kansas City-Denver/orange"]})
    assert the_problem(data) == (
        f"{WHERE}: $.players[1].routes[2]: Denver-Kansas City/orange is closed to this player (closed-parallel): "
        "the parallel route Denver-Kansas City/black is taken, and with 2 players the others close (R-PAR-2); "
        "Denver-Kansas City/black is seat 0 (Ann)'s"
    )


@pytest.mark.parametrize(("variant", "players", "closes"), [
    ("usa", 3, True), ("usa", 4, False), ("europe", 3, True), ("europe", 4, False),
    ("ussr", 2, True), ("ussr", 3, False),  # ussr: only 2-player games close doubles
    ("wor", 2, False),  # wor: never (close_below_players = 0)
])
def test_R_PAR_2_follows_each_variants_own_player_count(variant, players, closes):
    routes = {"usa": ["Portland-Seattle/1", "Portland-Seattle/2"], "europe": ["Berlin-Frankfurt/black", "Berlin-Frankfurt/red"],
              "ussr": ["Leningrad-Moscow/white", "Leningrad-Moscow/yellow"],
              "wor": ["Portland-Seattle/1", "Portland-Seattle/2"]}[variant]
    data = position(variant, {"routes": routes[:1]}, {"routes": routes[1:]}, *({} for _ in range(players - 2)))
    if closes:
        assert "(closed-parallel)" in the_problem(data)
    else:
        game = score_position(data)
        assert totals(game)[0] == totals(game)[1] > 0


def test_R_PAR_2_a_double_named_without_a_colour_when_the_other_is_taken():
    data = position("usa", {"routes": ["Denver-Kansas City/black"]}, {"routes": ["Denver-Kansas City"]})
    assert "$.players[1].routes[0]: Denver-Kansas City/orange is closed to this player (closed-parallel)" in the_problem(data)


def test_a_position_rescored_under_other_rules_keeps_the_routes_those_rules_would_not_have_allowed():
    """A 2-player wor game may own both routes of a double (R-PAR-2 never applies there); rescoring
    it under usa scores what was played (``ttr rescore`` and ``ttr compare`` do this). Asked for,
    the check still applies."""
    data = position("wor", {"routes": ["Portland-Seattle/1"]}, {"routes": ["Portland-Seattle/2"]})
    assert totals(score_position(data, WHERE, variant_id="usa")) == [1, 1]
    assert "(closed-parallel)" in the_problem(data, variant_id="usa", check_claims=True)
    own = {**data, "variant": "usa"}
    assert "(closed-parallel)" in the_problem(own, variant_id="usa")


def test_every_problem_is_reported_at_once():
    data = position("usa", {"routes": ["Denver-Kansas City/black", "Denver-Kansas City/orange"],
                            "tickets": ["Denver-El Paso", "Denver-El Paso"]},
                    {"routes": ["Portland-Seattle/1", "Portland-Seattle/2"], "tickets": ["Denver-El Paso"]})
    found = problems(data)
    assert [p.split(": ")[1] for p in found] == [
        "$.players[0].tickets[1]", "$.players[1].tickets[0]", "$.players[0].routes[1]", "$.players[1].routes[1]",
    ]


# --- routes taken, and routes misnamed ---------------------------------------------------------------


def test_naming_a_taken_route_of_a_double_in_the_other_order_says_who_has_it():
    """``Seattle-Portland/1`` is ``Portland-Seattle/1``: taken, by seat 0, not missing from the map."""
    data = position("usa", {"name": "Ann", "routes": ["Portland-Seattle/1"]}, {"routes": ["Seattle-Portland/1"]}, {}, {})
    assert the_problem(data) == f"{WHERE}: $.players[1].routes[0]: Portland-Seattle/1 is taken by seat 0 (Ann) (R-ROUTE-5)"


def test_a_route_listed_twice_by_one_player():
    data = position("usa", {"routes": ["Denver-Omaha", "Omaha-Denver"]}, {})
    assert the_problem(data) == f"{WHERE}: $.players[0].routes[1]: Denver-Omaha is listed twice for this player"


def test_a_double_whose_every_route_is_taken():
    data = position("usa", {"name": "Ann", "routes": ["Portland-Seattle"]}, {"name": "Bob", "routes": ["Seattle-Portland"]},
                    {"routes": ["Portland-Seattle"]}, {})
    assert the_problem(data) == (
        f"{WHERE}: $.players[2].routes[0]: every route between Portland and Seattle is taken: "
        "Portland-Seattle/1 by seat 0 (Ann), Portland-Seattle/2 by seat 1 (Bob)"
    )


@pytest.mark.parametrize(("named", "answer"), [
    ("Denver-Kansas City/blue", "the routes between Denver and Kansas City are Denver-Kansas City/black, "
                                "Denver-Kansas City/orange"),
    ("Kansas City-Denver/3", "the routes between Kansas City and Denver are Denver-Kansas City/black, "
                             "Denver-Kansas City/orange"),
    ("Portland-Seattle/red", "the routes between Portland and Seattle are Portland-Seattle/1, Portland-Seattle/2"),
    ("Denver-Omaha/red", "Denver and Omaha are joined by one route, Denver-Omaha"),
    ("Denver-Atlanta", "no route joins Denver and Atlanta"),
])
def test_a_misnamed_route_gets_the_names_the_map_has(named, answer):
    data = position("usa", {"routes": [named]}, {})
    assert the_problem(data) == f"{WHERE}: $.players[0].routes[0]: no route {named!r} on map 'usa': {answer}"


def test_routes_named_in_either_order_and_by_colour_or_number():
    data = position("usa", {"routes": ["Kansas City-Denver/orange", "Seattle-Portland/2", "Omaha-Denver"]}, {}, {}, {})
    game = score_position(data)
    assert [game.board.routes[r].id for r in game.state.players[0].routes] == [
        "Denver-Kansas City/orange", "Portland-Seattle/2", "Denver-Omaha"]


# --- tickets --------------------------------------------------------------------------------------


def test_a_ticket_card_held_twice_by_one_player_is_refused():
    data = position("usa", {"tickets": ["Denver-El Paso", "El Paso-Denver"]}, {})
    assert the_problem(data) == (
        f"{WHERE}: $.players[0].tickets[1]: Denver-El Paso is held by this player already (tickets[0]): "
        "each ticket card exists once"
    )


def test_a_ticket_card_held_by_two_players_is_refused():
    data = position("usa", {"name": "Ann", "tickets": ["Boston-Miami", "Denver-El Paso"]}, {"tickets": ["Denver-El Paso"]})
    assert the_problem(data) == (
        f"{WHERE}: $.players[1].tickets[0]: Denver-El Paso is held by seat 0 (Ann) already (tickets[1]): "
        "each ticket card exists once"
    )


def test_a_ticket_given_in_full_keeps_the_name_the_caller_gave():
    """No ``#30`` suffix: ``A-B`` by default, else its ``id`` or ``name``."""
    data = position("usa", {"routes": ["Denver-Omaha"], "tickets": [
        {"from": "Denver", "to": "Omaha", "points": 4},
        {"from": "Omaha", "to": "Denver", "points": 5, "id": "home run"},
        {"from": "Denver", "to": "Miami", "points": 6, "name": "Sunshine"},
    ]}, {})
    game = score_position(data)
    assert breakdown(game, 0)["completed"] == ["Denver-Omaha", "home run"]
    assert breakdown(game, 0)["failed"] == ["Sunshine"]
    assert breakdown(game, 0)["tickets"] == 4 + 5 - 6


def test_two_tickets_given_in_full_with_one_name_are_still_two_cards():
    """Equal names, different cards: one completed and one failed, both counted; and a custom ticket
    named as a map ticket neither hides nor replaces it."""
    data = position("usa", {"routes": ["Denver-Omaha"], "tickets": [
        {"from": "Denver", "to": "Omaha", "points": 4, "id": "bet"},
        {"from": "Denver", "to": "Miami", "points": 3, "id": "bet"},
        {"from": "Denver", "to": "Omaha", "points": 9, "id": "Denver-El Paso"},
        "Denver-El Paso",
    ]}, {})
    game = score_position(data)
    seen = breakdown(game, 0)
    assert seen["completed"] == ["bet", "Denver-El Paso"] and seen["failed"] == ["bet", "Denver-El Paso"]
    assert seen["tickets"] == 4 - 3 + 9 - 4
    tickets = game.state.players[0].tickets
    assert len(set(tickets)) == 4
    again = position_of(game)["players"][0]["tickets"]
    assert again == [
        {"from": "Denver", "to": "Omaha", "points": 4, "id": "bet"},
        {"from": "Denver", "to": "Miami", "points": 3, "id": "bet"},
        {"from": "Denver", "to": "Omaha", "points": 9, "id": "Denver-El Paso"},
        "Denver-El Paso",
    ]
    assert score_position(position_of(game)).result.scores == game.result.scores


@pytest.mark.parametrize(("ticket", "where", "what"), [
    ({"from": "Denver", "to": "Omaha", "points": 4, "kind": "long"}, ".kind", "unknown key"),
    ({"from": "Denver", "to": "Omaha", "points": 4, "id": 7}, ".id", "a non-empty string"),
    ({"from": "Denver", "to": "Omaha", "points": 4, "id": "a", "name": "b"}, "", "id 'a' and name 'b' differ"),
    ({"from": "Denver", "to": "Atlantis", "points": 4}, ".to", "unknown city 'Atlantis'"),
])
def test_a_bad_ticket_given_in_full_is_located(ticket, where, what):
    problem = the_problem(position("usa", {"tickets": [ticket]}, {}))
    assert problem.startswith(f"{WHERE}: $.players[0].tickets[0]{where}: ") and what in problem


# --- other keys -----------------------------------------------------------------------------------------


def test_a_plugins_problem_is_located_in_the_file():
    """The stations plugin reports ``$.players[0].stations...``: the file's name goes in front."""
    found = problems(position("europe", {"stations": ["Paris", "Atlantis"]}, {}))
    assert found == [f"{WHERE}: $.players[0].stations[1]: unknown city 'Atlantis'"]


def test_resigned_must_be_true_or_false_and_a_name_a_string_used_once():
    found = problems(position("usa", {"resigned": "no"}, {"name": 7}))
    assert found == [f"{WHERE}: $.players[1].name: a string, not 7", f"{WHERE}: $.players[0].resigned: true or false, not 'no'"]
    found = problems(position("usa", {"name": None}, {"name": "P1", "routes": ["Denver-Atlantis"]}, {"name": "P1"}))
    assert found == [
        f"{WHERE}: $.players[0].name: a string, not None",
        f"{WHERE}: $.players[1].name: 'P1' is the name of $.players[0] already: names must differ",
        f"{WHERE}: $.players[2].name: 'P1' is the name of $.players[0] already: names must differ",
        f"{WHERE}: $.players[1].routes[0]: no route 'Denver-Atlantis' on map 'usa'",
    ]
