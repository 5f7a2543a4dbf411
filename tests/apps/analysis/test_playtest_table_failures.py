"""The known loophole among a playtest's rule failures: a deck holding only locomotives, so that
every row dealt asks for a reset (R-ROW-2) and the reset limit (R-ROW-3) leaves it as dealt; turns
ending with a row the rules would reset left face up (here 3 or more locomotives); players with no
legal action but passing (R-TURN-2).

The situation is reached through the game's seeded setup alone: a house variant of the tiny map
whose deck has no coloured cards (tests/data/tiny-locomotives.toml). The counts the report gives
are checked against counts made here while the same games are played again, read through the
game's public accessors (``game.open_row_resets``, the seat view's ``open_row``)."""

from __future__ import annotations

import json

import attrs
import pytest
from click.testing import CliRunner
from usa_kit import DATA

from ttr_analysis.table_watch import TableWatch
from ttr_bots import play_game
from ttr_cli.main import main
from ttr_core import variant
from ttr_core.game import Game
from ttr_kit import testing
from ttr_plugins.claiming import ClaimRoute

GAMES = 3


def _watched(seed: int) -> dict:
    """One game played again: the action after which the reset limit was first hit (0: the deal),
    the turns ending with 3+ face-up locomotives, the first pass of each seat."""
    seen = {"limit": None, "loco_turns": 0, "first_loco": None, "passes": {}, "actions": 0, "turn": 0}

    def limit_hit(game):
        if seen["limit"] is None and game.open_row_resets[1] > 0:
            seen["limit"] = seen["actions"]

    def after(game, seat, action):
        seen["actions"] += 1
        limit_hit(game)
        if action.kind == "pass":
            seen["passes"].setdefault(seat, seen["actions"])
        if game.turn > seen["turn"]:
            seen["turn"] = game.turn
            if game.seat_view(seat).open_row.count("locomotive") >= 3:
                seen["loco_turns"] += 1
                seen["first_loco"] = seen["first_loco"] or seen["actions"]

    game = play_game(variant.load(str(DATA / "tiny-locomotives.toml")), 2, seed, ("random",), on_action=after,
                     on_start=limit_hit)
    seen["game"] = game
    return seen


@pytest.fixture
def report(monkeypatch, tmp_path):
    installed = variant.available
    monkeypatch.setattr(variant, "available", lambda: {**installed(), "tiny-locomotives": DATA / "tiny-locomotives.toml"})
    out = tmp_path / "loco"
    result = CliRunner().invoke(main, ["playtest", "--variant", "tiny-locomotives", "--players", "2", "--games", str(GAMES),
                                       "--bots", "random", "--workers", "1", "--no-cache", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out, json.loads((out / "playtest.json").read_text()), (out / "playtest.html").read_text()


def test_a_locomotive_only_deck_hits_the_reset_limit_and_is_reported(report):
    out, rep, html = report
    fails = rep["counts"]["2"]["variant"]["failures"]
    games = [_watched(seed) for seed in range(1, GAMES + 1)]
    assert all(g["limit"] == 0 for g in games)  # the deal itself: 5 locomotives, reset 3 times, left as dealt
    limit = fails["open_row_reset_limit"]
    assert (limit["k"], limit["n"]) == (GAMES, GAMES)
    assert limit["times"] == sum(g["game"].open_row_resets[1] for g in games)
    assert (limit["example"], limit["action"]) == (1, 0)
    loco = fails["row_left_needing_reset"]
    assert loco["k"] == sum(1 for g in games if g["loco_turns"]) and loco["turns"] == sum(g["loco_turns"] for g in games)
    assert loco["turns"] > 0 and (loco["example"], loco["action"]) == (1, games[0]["first_loco"])
    stuck = fails["no_legal_action_but_passing"]
    assert (stuck["k"], stuck["n"]) == (sum(len(g["passes"]) for g in games), 2 * GAMES)
    assert stuck["action"] == min(games[0]["passes"].values())
    # on the page: the counts as in the JSON, and the example record to replay, with the action
    for key in ("open_row_reset_limit", "row_left_needing_reset", "no_legal_action_but_passing"):
        assert f"""data-figure='{json.dumps(["counts", "2", "variant", "failures", key])}'""".replace('"', "&quot;") in html
    assert "reset limit was hit" in html and "R-ROW-3" in html
    assert "seed 1, at the deal (before action 1): <code>ttr replay records/tiny-locomotives-v1-2p-seed1.json</code>" in html
    assert f"seed 1, after action {loco['action']}" in html
    assert (out / "records" / "tiny-locomotives-v1-2p-seed1.json").exists()


def _turn_ending_with_three_locomotives_face_up(ruleset) -> TableWatch:
    """A usa game of ``ruleset`` whose first turn, a claim, ends with 3 locomotives face up."""
    game = testing.keep_all_starting_tickets(Game(ruleset, ["P1", "P2"], 1))
    watch = TableWatch(game)
    (seat,) = game.to_act()
    testing.set_open_row(game, ["locomotive", "locomotive", "locomotive", "red", "blue"])
    testing.set_hand(game, seat, {"blue": 2})
    game.apply(seat, ClaimRoute("Denver-Santa Fe", "blue", 0, 0))
    watch.after(game, seat, "claim-route")
    return watch


def test_a_row_left_face_up_counts_where_the_rules_in_force_would_reset_it():
    usa = variant.load("usa")
    assert _turn_ending_with_three_locomotives_face_up(usa).trouble().unreset_turns == 1  # R-ROW-2: 3 locomotives
    open_row = usa.configs["open-row"]
    four = usa.with_configs({"open-row": attrs.evolve(open_row, reset_locomotives=4)})
    assert _turn_ending_with_three_locomotives_face_up(four).trouble().unreset_turns == 0  # its rules reset at 4
