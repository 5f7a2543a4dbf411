"""The ``majority-bonuses`` plugin and the four ``ussr`` bonuses (R-BON-1, R-BON-3): +10 longest path,
+15 most completed tickets, +7 most ferries, +7 most tunnels. Ties: every tied player gets it; a
maximum of 0 gives it to nobody [engine decision]."""

from __future__ import annotations

import pytest

from ttr_core import variant
from ttr_core.errors import VariantError
from ttr_core.files import structure
from ttr_core.position import score_position
from ttr_kit.testing import give_route, keep_all_starting_tickets, new_game, set_hand
from ttr_plugins.controller import PlayController
from ttr_plugins.majority_bonuses import MajorityBonuses, winners_of

FERRIES = ["Baku-Krasnovodsk", "Vanino-Kholmsk", "Simferopol-Krasnodar"]
TUNNELS = ["Lvov-Uzhgorod", "Tbilisi-Yerevan", "Samarkand-Dushanbe"]  # length 1 each
PLAIN = ["Kiev-Kharkov", "Kharkov-Rostov", "Riga-Tallinn", "Riga-Minsk"]  # length 2 each


def score(*players: dict):
    """Score a hand-given ``ussr`` position; returns {player name: {bonus name: points}}."""
    data = {"variant": "ussr", "players": [{"name": f"P{i + 1}", **p} for i, p in enumerate(players)]}
    game = score_position(data)
    return {s.name: {b.name: b.points for b in s.bonuses if b.name != "unused-stations"} for s in game.result.scores}


# --- the rule, on its own ------------------------------------------------------------------------


@pytest.mark.parametrize("counts, winners", [
    ([3, 1, 2], [0]),
    ([2, 2, 1], [0, 1]),  # ties: all tied players
    ([1, 1, 1], [0, 1, 2]),
    ([0, 0], []),  # a maximum of 0 gives nothing
    ([0, 0, 1], [2]),
])
def test_r_bon_3_winners_of_counts(counts, winners):
    assert winners_of(counts) == winners


def test_the_ussr_variant_lists_the_three_majority_bonuses():
    config = variant.load("ussr").configs["majority-bonuses"]
    assert [(b.name, b.measure, b.points) for b in config.bonuses] == [
        ("most-tickets", "completed-tickets", 15),
        ("most-ferries", "ferries", 7),
        ("most-tunnels", "tunnels", 7),
    ]
    assert variant.load("ussr").configs["longest-path"].points == 10


@pytest.mark.parametrize("table, problem", [
    ({"bonuses": [{"name": "x", "measure": "stations", "points": 5}]}, "measure"),
    ({"bonuses": [{"name": "x", "measure": "ferries", "points": -1}]}, "points"),
    ({"bonuses": [{"name": "x", "measure": "ferries", "points": 7}, {"name": "x", "measure": "tunnels", "points": 7}]},
     "given twice"),
    ({"bonuses": [{"name": "x", "measure": "ferries"}]}, "points"),
    ({"bonus": []}, "bonus"),
])
def test_a_bad_bonus_table_is_a_variant_error(table, problem):
    with pytest.raises(VariantError, match=problem):
        structure(table, MajorityBonuses.Config, "test.toml: $.versions.1.rules.majority-bonuses")


# --- +15 most completed tickets ------------------------------------------------------------------------


def test_r_bon_3_most_completed_tickets_gets_15():
    result = score(
        {"routes": ["Kiev-Kharkov", "Kharkov-Rostov", "Riga-Tallinn", "Riga-Minsk"], "tickets": ["Kiev-Rostov", "Tallinn-Minsk"]},
        {"routes": ["Frunze-Alma Ata", "Tashkent-Frunze"], "tickets": ["Tashkent-Alma Ata", "Khabarovsk-Kholmsk"]},
    )
    assert result["P1"].get("most-tickets") == 15
    assert "most-tickets" not in result["P2"]


def test_r_bon_3_tied_completed_tickets_all_get_15():
    result = score(
        {"routes": ["Kiev-Kharkov", "Kharkov-Rostov"], "tickets": ["Kiev-Rostov"]},
        {"routes": ["Frunze-Alma Ata", "Tashkent-Frunze"], "tickets": ["Tashkent-Alma Ata"]},
        {"routes": ["Riga-Tallinn"], "tickets": ["Tallinn-Minsk"]},
    )
    assert [result[p].get("most-tickets") for p in ("P1", "P2", "P3")] == [15, 15, None]


def test_r_bon_3_nobody_gets_15_when_nobody_completed_a_ticket():
    result = score(
        {"routes": ["Kiev-Kharkov"], "tickets": ["Kiev-Rostov"]},
        {"routes": [], "tickets": ["Tashkent-Alma Ata"]},
    )
    assert all("most-tickets" not in b for b in result.values())


def test_r_bon_3_completed_tickets_count_a_station_borrowed_route():
    """The count is the ticket outcome's: a ticket completed through a station (R-STA-3) counts."""
    if "stations" not in variant.load("ussr").plugins:
        pytest.skip("the stations plugin is not in the ussr variant yet")
    result = score(
        {"routes": ["Kiev-Kharkov"], "tickets": ["Kiev-Rostov"], "stations": ["Kharkov"]},
        {"routes": ["Kharkov-Rostov", "Riga-Tallinn"], "tickets": ["Tallinn-Minsk"]},
    )
    # P1 completes Kiev-Rostov with P2's Kharkov-Rostov; P2 fails Tallinn-Minsk
    assert result["P1"].get("most-tickets") == 15
    assert "most-tickets" not in result["P2"]


# --- +7 most ferries, +7 most tunnels ------------------------------------------------------------------


def test_r_bon_3_most_ferries_gets_7():
    result = score({"routes": FERRIES[:2]}, {"routes": FERRIES[2:] + PLAIN})
    assert result["P1"].get("most-ferries") == 7
    assert "most-ferries" not in result["P2"]


def test_r_bon_3_tied_ferries_all_get_7():
    result = score({"routes": FERRIES[:1]}, {"routes": FERRIES[1:2]}, {"routes": FERRIES[2:]})
    assert [result[p].get("most-ferries") for p in ("P1", "P2", "P3")] == [7, 7, 7]


def test_r_bon_3_nobody_gets_the_ferry_bonus_without_ferries():
    result = score({"routes": PLAIN[:2]}, {"routes": PLAIN[2:]})
    assert all("most-ferries" not in b for b in result.values())


def test_r_bon_3_most_tunnels_gets_7():
    result = score({"routes": TUNNELS[:2]}, {"routes": TUNNELS[2:]})
    assert result["P1"].get("most-tunnels") == 7
    assert "most-tunnels" not in result["P2"]


def test_r_bon_3_tied_tunnels_all_get_7():
    result = score({"routes": TUNNELS[:2]}, {"routes": TUNNELS[2:] + ["Perm-Sverdlovsk"]}, {"routes": PLAIN})
    assert [result[p].get("most-tunnels") for p in ("P1", "P2", "P3")] == [7, 7, None]


def test_r_bon_3_nobody_gets_the_tunnel_bonus_without_tunnels():
    result = score({"routes": FERRIES}, {"routes": PLAIN})
    assert all("most-tunnels" not in b for b in result.values())


def test_r_bon_3_a_tunnel_built_with_a_controller_counts():
    game = keep_all_starting_tickets(new_game("ussr", 2, 1))
    set_hand(game, 0, {"controller": 1})
    give_route(game, 1, "Lvov-Uzhgorod")
    give_route(game, 0, "Tbilisi-Yerevan")
    game.apply(0, PlayController("build", "Samarkand-Dushanbe"))
    game.finish("test")
    (mine,) = [b for b in game.result.scores[0].bonuses if b.name == "most-tunnels"]
    assert mine.points == 7 and mine.detail == "2 tunnels"
    assert not [b for b in game.result.scores[1].bonuses if b.name == "most-tunnels"]


# --- +10 longest path (R-BON-1) -------------------------------------------------------------------------


def test_r_bon_1_longest_path_gets_10():
    result = score({"routes": ["Kiev-Kharkov", "Kharkov-Rostov"]}, {"routes": ["Riga-Tallinn"]})
    assert result["P1"].get("longest-path") == 10
    assert "longest-path" not in result["P2"]


def test_r_bon_1_tied_longest_paths_all_get_10():
    result = score({"routes": ["Kiev-Kharkov"]}, {"routes": ["Riga-Tallinn"]}, {"routes": ["Vilnius-Minsk"]})
    assert [result[p].get("longest-path") for p in ("P1", "P2", "P3")] == [10, 10, None]


def test_r_bon_1_nobody_gets_the_longest_path_when_nobody_built():
    result = score({"routes": []}, {"routes": []})
    assert all(b == {} for b in result.values())


def test_r_bon_3_all_four_bonuses_add_up():
    result = score(
        {"routes": ["Kiev-Kharkov", "Kharkov-Rostov", *FERRIES[:1], *TUNNELS[:1]], "tickets": ["Kiev-Rostov"]},
        {"routes": ["Riga-Tallinn"]},
    )
    assert result["P1"] == {"longest-path": 10, "most-tickets": 15, "most-ferries": 7, "most-tunnels": 7}
    assert result["P2"] == {}
