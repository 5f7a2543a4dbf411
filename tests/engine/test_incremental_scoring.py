"""What the tickets and longest-path plugins keep as a game goes (the cities each seat's routes join,
each piece's longest trail, in ``game.memo``) answers as a computation from the routes alone does,
after every action of seeded bot games of every shipped variant, in clones and determinized copies
going on their own ways, after a failed action is undone, and in a record's replay (R-TIX-2, R-BON-1, R-CTL-2, R-STA-3)."""

from __future__ import annotations

import random

import pytest

from ttr_bots import play_game
from ttr_core import record, variant
from ttr_core.errors import PluginFailed
from ttr_core.game import Game
from ttr_core.manager import local_plugins
from ttr_core.network import DisjointSets, longest_trail
from ttr_core.plugin import Plugin, hookimpl
from ttr_core.scoring import score_game
from ttr_plugins.longest_path import path_length
from ttr_plugins.tickets import completed_now

VARIANTS = ("usa", "europe", "ussr", "wor", "wor-legacy", "wor-europe")
SEEDS = (1, 2)


def from_scratch(game, seat: int) -> tuple[list[int], int]:
    """``seat``'s tickets its own routes complete and its longest trail, from its routes alone."""
    board = game.board
    routes = [board.routes[r] for r in game.state.players[seat].routes]
    own = DisjointSets(len(board.cities))
    for r in routes:
        own.union(r.ai, r.bi)
    tickets = [t for t in game.state.players[seat].tickets
               if own.connected(board.tickets[t].ai, board.tickets[t].bi)]
    return tickets, longest_trail([(r.ai, r.bi, r.length) for r in routes])


def kept(game, seat: int) -> tuple[list[int], int]:
    return completed_now(game, seat), path_length(game, seat)


def assert_kept_answers_right(game, when: str) -> None:
    for seat in range(len(game.state.players)):
        assert kept(game, seat) == from_scratch(game, seat), f"seed {game.seed}, {when}, seat {seat}"


class Checker:
    """After every action: the kept answers against the scratch ones; now and then a clone and a
    determinized copy, which play a few random actions on their own and must stay right, while the
    game they were copied from stays right too."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.actions = 0

    def __call__(self, game, seat, action) -> None:
        self.actions += 1
        assert_kept_answers_right(game, f"action {self.actions}")
        if self.actions % 17 == 0 and not game.over:
            for copy in (game.clone(), game.determinize(seat, self.rng)):
                self.wander(copy)
            assert_kept_answers_right(game, f"action {self.actions}, after its copies played on")

    def wander(self, copy) -> None:
        for step in range(12):
            if copy.over:
                break
            to_act = copy.to_act()[0]
            copy.apply(to_act, self.rng.choice(copy.legal_actions(to_act)))
            assert_kept_answers_right(copy, f"action {self.actions}, a copy's step {step}")


@pytest.mark.parametrize("variant_id", VARIANTS)
@pytest.mark.parametrize("seed", SEEDS)
def test_kept_tickets_and_trails_answer_as_a_scratch_computation_after_every_action(variant_id, seed):
    players = 2 + seed % 3
    ruleset = variant.load(variant_id)
    game = play_game(ruleset, players, seed, ("random",), on_action=Checker(seed))
    assert game.over
    # the end read what was kept: the same result as a copy that kept nothing scores, and a replay
    fresh = game.clone()
    fresh.memo = {}
    assert score_game(fresh) == game.result
    assert record.replay(record.make_record(game)).result == game.result


def test_a_seat_network_given_another_list_of_routes_answers_for_that_list():
    """What a host or an undo may do: put another state under the game. The kept networks follow
    the routes as they are, not as they were."""
    game = play_game(variant.load("usa"), 3, 4, ("random",))
    before = [kept(game, s) for s in range(3)]
    players = game.state.players
    players[0].routes, players[1].routes = players[1].routes, players[0].routes
    players[0].tickets, players[1].tickets = players[1].tickets, players[0].tickets
    assert kept(game, 0) == before[1] == from_scratch(game, 0)
    assert kept(game, 1) == before[0] == from_scratch(game, 1)
    players[2].routes = players[2].routes[::-1]  # the same routes in another order
    assert kept(game, 2) == before[2]


class LooksThenFails(Plugin):
    """A plugin that reads the seat's view (its completed tickets, its kept network brought up to
    the new route) as a route is claimed, then fails: the claim is undone (``Game._undo``)."""

    @hookimpl
    def ttr_route_claimed(self, game, seat):
        game.view(seat)
        path_length(game, seat)
        if len(game.state.players[seat].routes) >= 3:
            raise RuntimeError("gave up after looking")


def test_kept_answers_are_right_after_a_failed_claim_is_undone(tmp_path):
    path = tmp_path / "usa-looking.toml"
    path.write_text('id = "usa-looking"\ntitle = "t"\nextends = "usa"\n[versions.1]\nadd_plugins = ["looks-then-fails"]\n',
                    encoding="utf-8")
    with local_plugins({"looks-then-fails": LooksThenFails}):
        game = Game(variant.load(str(path)), ["a", "b"], 3)
        rng = random.Random(3)
        failed = 0
        while failed < 3 and not game.over:
            seat = game.to_act()[0]
            before = [from_scratch(game, s) for s in range(2)]
            try:
                game.apply(seat, rng.choice(game.legal_actions(seat)))
            except PluginFailed:
                failed += 1
                assert [kept(game, s) for s in range(2)] == before  # the claim is undone, and forgotten
            assert_kept_answers_right(game, f"action {len(game.log)}")
        assert failed == 3
