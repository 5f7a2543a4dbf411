"""Tickets and the longest trail as the game goes (R-TIX-2, R-BON-1, R-CTL-2, R-STA-3): the claim
that joins a ticket's cities shows it completed in its holder's view at once, a dismantled route
un-completes it, and after a claim that joins two pieces of a network the longest trail runs
through both, in the seat's score and bonus."""

from __future__ import annotations

from usa_kit import position, started

from ttr_core.position import score_position
from ttr_kit import testing
from ttr_kit.testing import breakdown, give_route, set_hand, set_tickets
from ttr_plugins.claiming import ClaimRoute
from ttr_plugins.controller import CARD, PlayController
from ttr_plugins.longest_path import path_length


def completed(game, seat) -> list[str]:
    """The tickets ``seat`` sees as completed by its own routes, as its view shows them."""
    return game.view(seat)["rules"]["tickets_completed"]


def test_r_tix_2_the_claim_that_joins_a_tickets_cities_shows_it_completed_at_once():
    game = started()
    set_tickets(game, 0, ["Denver-El Paso", "Duluth-Houston"])
    give_route(game, 0, "Denver-Santa Fe")
    assert completed(game, 0) == []
    set_hand(game, 0, {"red": 2})
    game.apply(0, ClaimRoute("El Paso-Santa Fe", "red"))
    assert completed(game, 0) == ["Denver-El Paso"]
    assert "Denver-El Paso" not in completed(game, 1)  # the other seat's view: its own tickets only (R-TIX-4)
    assert "tickets_completed" not in game.view(None)["rules"]
    scored = game.clone()
    testing.score_now(scored)
    assert breakdown(scored, 0)["completed"] == ["Denver-El Paso"]


def test_r_tix_2_a_clone_goes_on_from_the_completed_tickets_without_the_originals_claims():
    game = started()
    set_tickets(game, 0, ["Denver-El Paso"])
    give_route(game, 0, "Denver-Santa Fe")
    assert completed(game, 0) == []
    twin = game.clone()
    give_route(twin, 0, "El Paso-Santa Fe")
    assert completed(twin, 0) == ["Denver-El Paso"]
    assert completed(game, 0) == []  # the original did not claim it
    give_route(game, 0, "Dallas-El Paso")
    assert completed(game, 0) == []


def test_r_ctl_2_a_dismantled_route_un_completes_the_ticket_it_joined():
    game = testing.keep_all_starting_tickets(testing.new_game("ussr", 2, 1))
    set_tickets(game, 1, ["Tallinn-Minsk"])
    give_route(game, 1, "Riga-Tallinn")
    give_route(game, 1, "Minsk-Riga")
    assert completed(game, 1) == ["Tallinn-Minsk"]
    set_hand(game, 0, {CARD: 1})
    game.apply(0, PlayController("dismantle", "Minsk-Riga"))
    assert completed(game, 1) == []
    give_route(game, 1, "Minsk-Riga")  # claimed again: completed again
    assert completed(game, 1) == ["Tallinn-Minsk"]
    game.free_route(game.board.find_route("Minsk-Riga"))
    testing.score_now(game)
    assert breakdown(game, 1)["failed"] == ["Tallinn-Minsk"]


def test_r_bon_1_a_claim_joining_two_pieces_makes_one_trail_through_both():
    game = started()
    give_route(game, 0, "Denver-Santa Fe")  # 2 spaces
    give_route(game, 0, "Dallas-El Paso")  # 4 spaces, apart
    give_route(game, 1, "Duluth-Helena")  # 6 spaces
    assert path_length(game, 0) == 4
    before = testing.score_now(game.clone())
    assert [s.facts["longest-path"] for s in before.scores] == [4, 6]
    assert [s.bonus("longest-path") for s in before.scores] == [0, 10]
    set_hand(game, 0, {"blue": 2})
    game.apply(0, ClaimRoute("El Paso-Santa Fe", "blue"))  # Denver-Santa Fe-El Paso-Dallas
    assert path_length(game, 0) == 8
    after = testing.score_now(game)
    assert [s.facts["longest-path"] for s in after.scores] == [8, 6]
    assert [s.bonus("longest-path") for s in after.scores] == [10, 0]


def test_r_sta_3_a_ticket_a_station_completes_counts_at_the_end_not_before():
    game = score_position(position(
        {"routes": ["Brest-Paris"], "tickets": ["Brest-Marseille"], "stations": ["Paris"]},
        {"routes": ["Marseille-Paris"]},
        variant="europe",
    ))
    assert breakdown(game, 0)["completed"] == ["Brest-Marseille"]  # the station borrows Marseille-Paris
    assert completed(game, 0) == []  # its own routes alone do not join Brest and Marseille
