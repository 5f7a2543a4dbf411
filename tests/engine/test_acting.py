"""``Game.acting``: who may act now and with what, as a host asks it before taking an action: the
seats to act with their legal actions, every seat's out-of-turn actions, and whether the seats to
act are choosing at the same time (R-SET-6)."""

from __future__ import annotations

from typing import ClassVar

import attrs
import pytest

from ttr_core import variant
from ttr_core.errors import PluginFailed
from ttr_core.game import Game
from ttr_core.manager import local_plugins
from ttr_core.plugin import Action, Plugin, hookimpl
from ttr_kit.testing import keep_all_starting_tickets, new_game
from ttr_plugins.resignation import Resign
from ttr_plugins.tickets import KeepTickets


def keep_three(game: Game, seat: int) -> None:
    offered = game.state.players[seat].decision.offered
    game.apply(seat, KeepTickets(tuple(game.board.tickets[t].id for t in offered[:3])))


def test_in_the_setup_every_seat_chooses_its_tickets_at_the_same_time():
    game = new_game("usa", 3, seed=2)
    acting = game.acting()
    assert [s.seat for s in acting.seats] == [0, 1, 2] and acting.together_since == 0
    for s in acting.seats:
        assert list(s.legal) == game.legal_actions(s.seat) and s.legal
        assert all(isinstance(a, KeepTickets) for a in s.legal) and s.any_time == ()  # usa has no resigning
    keep_three(game, 1)
    acting = game.acting()
    assert [s.seat for s in acting.seats] == [0, 2] and acting.together_since == 0  # seat 1 has chosen
    assert acting.of(1).legal == () and acting.of(1).any_time == ()
    assert [s.seat for s in game.acting([2]).seats] == [2]  # a host asking for one reader


def test_after_the_setup_one_seat_acts_at_a_time():
    game = keep_all_starting_tickets(new_game("usa", 3, seed=2))
    acting = game.acting()
    assert acting.together_since is None
    assert [s.seat for s in acting.seats] == [game.state.current]
    assert list(acting.of(game.state.current).legal) == game.legal_actions(game.state.current)


def test_a_seat_may_resign_out_of_turn_where_the_rules_allow_it_r_turn_3():
    game = keep_all_starting_tickets(new_game("wor", 3, seed=2))
    current = game.state.current
    acting = game.acting()
    assert [s.seat for s in acting.seats] == [0, 1, 2]  # those waiting for their turn too
    assert all(s.any_time == (Resign(),) for s in acting.seats)
    waiting = next(s for s in (0, 1, 2) if s != current)
    assert acting.of(waiting).legal == ()
    game.apply(waiting, Resign())
    acting = game.acting()
    assert waiting not in [s.seat for s in acting.seats]  # a seat that left has nothing to do
    game.apply(current, Resign())
    assert game.over and game.acting().seats == ()


@attrs.frozen
class RaiseHand(Action):
    kind: ClassVar[str] = "raise-hand"


class RaisingHands(Plugin):
    """A house rule: any player may raise a hand at any moment (it does nothing)."""

    @hookimpl
    def ttr_register_actions(self, registry):
        registry.add(RaiseHand, self, starts_turn=False, any_time=True)

    def legal(self, game, seat):
        yield RaiseHand()

    def check(self, game, seat, action):
        return None

    def apply(self, game, seat, action):
        return None


def _house_game(tmp_path, plugin: str) -> Game:
    """A two-player usa game past its setup, with the house-rule ``plugin`` added."""
    path = tmp_path / f"usa-{plugin}.toml"
    path.write_text(f'id = "usa-{plugin}"\ntitle = "t"\nextends = "usa"\n[versions.1]\nadd_plugins = ["{plugin}"]\n',
                    encoding="utf-8")
    return keep_all_starting_tickets(Game(variant.load(str(path)), ["A", "B"], 1))


def test_a_house_rules_out_of_turn_action_is_listed_like_any_other(tmp_path):
    with local_plugins({"raising-hands": RaisingHands}):
        acting = _house_game(tmp_path, "raising-hands").acting()
    assert [(s.seat, s.any_time) for s in acting.seats] == [(0, (RaiseHand(),)), (1, (RaiseHand(),))]


class BrokenHands(RaisingHands):
    """The same house rule with a bug in its listing."""

    def legal(self, game, seat):
        raise ValueError("no hands today")


def test_a_plugin_failing_to_list_its_out_of_turn_actions_is_named(tmp_path):
    with local_plugins({"broken-hands": BrokenHands}):
        game = _house_game(tmp_path, "broken-hands")
        with pytest.raises(PluginFailed) as failed:
            game.acting()
    assert failed.value.plugin == "broken-hands" and "at any time" in str(failed.value)
