"""Plugins that misbehave: a hook that raises (PluginFailed, the action rejected, the state unchanged),
an unknown plugin, a misspelt hook, and two plugins answering one policy hook."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from usa_kit import hand, owner_of, snapshot

from ttr_core import manager, variant
from ttr_kit import testing
from ttr_plugins.claiming import ClaimRoute
from ttr_plugins.train_cards import DrawCard
from ttr_cli.main import main
from ttr_core.errors import PluginFailed, VariantError
from ttr_core.game import Game
from ttr_core.plugin import Plugin, hookimpl


def extending_usa(tmp_path: Path, *plugins: str, name: str = "house") -> Path:
    """A variant file that ``extends = "usa"`` and adds ``plugins`` in its version 1."""
    path = tmp_path / f"{name}.toml"
    listed = ", ".join(f'"{p}"' for p in plugins)
    path.write_text(
        f'id = "{name}"\ntitle = "House rules"\nextends = "usa"\n\n[versions.1]\nadd_plugins = [{listed}]\n',
        encoding="utf-8",
    )
    return path


def game_with(tmp_path: Path, plugins: dict[str, type], players: int = 2) -> Game:
    ruleset = variant.load(str(extending_usa(tmp_path, *plugins)))
    game = Game(ruleset, [f"P{i + 1}" for i in range(players)], seed=3)
    return testing.keep_all_starting_tickets(game)


class BoomOnCardTaken(Plugin):
    @hookimpl
    def ttr_card_taken(self, game, seat):
        raise RuntimeError(f"kaboom for seat {seat}")


class BoomOnClosedRoutes(Plugin):
    """Raises while a claim is being checked, before anything moves."""

    @hookimpl
    def ttr_closed_routes(self, game, seat):
        raise ValueError("no routes today")


class BoomOnRouteClaimed(Plugin):
    """Raises after the cards were paid and the route placed: the engine must undo all of it."""

    @hookimpl
    def ttr_route_claimed(self, game, route):
        _explode(route.id)


def _explode(what):
    raise KeyError(what)


def test_plugin_raising_in_a_hook_gives_plugin_failed_and_changes_nothing(tmp_path):
    with manager.local_plugins({"boom": BoomOnCardTaken}):
        game = game_with(tmp_path, {"boom": BoomOnCardTaken})
        before = snapshot(game)
        with pytest.raises(PluginFailed) as info:
            game.apply(0, DrawCard(None))
        exc = info.value
        assert (exc.plugin, exc.hook) == ("boom", "ttr_card_taken")
        assert "'boom'" in str(exc) and "ttr_card_taken" in str(exc)
        assert "draw-card" in str(exc) and "seat 0" in str(exc) and "kaboom for seat 0" in str(exc)
        assert isinstance(exc.original, RuntimeError)
        assert snapshot(game) == before
        testing.assert_invariants(game)
        # the game goes on: seat 0 may still do something that does not take a card
        testing.set_hand(game, 0, {"purple": 4})
        game.apply(0, ClaimRoute("Denver-Omaha", "purple"))
        assert owner_of(game, "Denver-Omaha") == 0


def test_plugin_raising_while_an_action_is_checked_gives_plugin_failed(tmp_path):
    with manager.local_plugins({"grumpy": BoomOnClosedRoutes}):
        game = game_with(tmp_path, {"grumpy": BoomOnClosedRoutes})
        testing.set_hand(game, 0, {"purple": 4})
        before = snapshot(game)
        with pytest.raises(PluginFailed) as info:
            game.apply(0, ClaimRoute("Denver-Omaha", "purple"))
        assert (info.value.plugin, info.value.hook) == ("grumpy", "ttr_closed_routes")
        assert "no routes today" in str(info.value)
        assert snapshot(game) == before


def test_plugin_raising_after_cards_moved_is_undone_completely(tmp_path):
    """The failure comes after payment and placement (in a helper the hook calls): the hand, the
    trains, the owner and the log are as before, earlier actions included. (The engine restores a
    game by replaying its log, so this game is played, not arranged.)"""
    with manager.local_plugins({"late": BoomOnRouteClaimed}):
        game = game_with(tmp_path, {"late": BoomOnRouteClaimed})
        for seat in (0, 1):  # some history for the engine to restore
            game.apply(seat, DrawCard(None))
            game.apply(seat, DrawCard(None))
        for _ in range(40):
            seat = game.state.current
            claims = [a for a in game.legal_actions(seat) if isinstance(a, ClaimRoute)]
            if claims:
                break
            game.apply(seat, DrawCard(None))
            game.apply(seat, DrawCard(None))
        assert claims and len(game.log) > 2
        cards = hand(game, seat)
        before = snapshot(game)
        with pytest.raises(PluginFailed) as info:
            game.apply(seat, claims[0])
        assert (info.value.plugin, info.value.hook) == ("late", "ttr_route_claimed")
        assert claims[0].route in str(info.value)
        assert snapshot(game) == before
        assert hand(game, seat) == cards
        assert owner_of(game, claims[0].route) is None
        assert game.view(None)["players"][seat]["trains"] == 45
        testing.assert_invariants(game)


# --- plugins that cannot be loaded --------------------------------------------------------------


class MisspeltHook(Plugin):
    @hookimpl
    def ttr_route_point(self):  # should be ttr_route_points
        return {1: 100}


class SecondPointsTable(Plugin):
    @hookimpl
    def ttr_route_points(self):
        return {n: n for n in range(1, 7)}


def _problems(path: Path) -> list[str]:
    with pytest.raises(VariantError) as info:
        variant.load(str(path))
    return info.value.problems


def test_unknown_plugin_is_named(tmp_path):
    path = extending_usa(tmp_path, "no-such-plugin")
    (problem,) = _problems(path)
    assert problem.startswith(f"{path.resolve()}: $.versions.1.plugins: ")
    assert "unknown plugin 'no-such-plugin'" in problem


def test_near_miss_plugin_name_gets_a_suggestion(tmp_path):
    (problem,) = _problems(extending_usa(tmp_path, "tunnel"))
    assert "unknown plugin 'tunnel'" in problem and "did you mean" in problem


def test_misspelt_hook_is_named_with_the_plugin(tmp_path):
    with manager.local_plugins({"typo": MisspeltHook}):
        (problem,) = _problems(extending_usa(tmp_path, "typo"))
    assert "plugin 'typo' implements unknown hook 'ttr_route_point'" in problem
    assert "did you mean 'ttr_route_points'" in problem


def test_two_plugins_answering_one_policy_hook_are_both_named(tmp_path):
    with manager.local_plugins({"points2": SecondPointsTable}):
        (problem,) = _problems(extending_usa(tmp_path, "points2"))
    assert "'route-points'" in problem and "'points2'" in problem and "ttr_route_points" in problem


def test_cli_check_reports_plugin_conflicts_without_a_traceback(tmp_path):
    path = extending_usa(tmp_path, "points2")
    with manager.local_plugins({"points2": SecondPointsTable}):
        result = CliRunner().invoke(main, ["variants", "check", str(path)])
    assert result.exit_code == 2
    assert "'points2'" in result.output and "Traceback" not in result.output


class CountsTurns(Plugin):
    """A house rule that does not say it is deterministic (the default)."""

    @hookimpl
    def ttr_turn_ended(self, game):
        return None


class CountsTurnsDeterministically(CountsTurns):
    deterministic = True


def test_cli_check_notes_a_plugin_that_does_not_declare_itself_deterministic(tmp_path):
    """The author learns why their house rule's games are slower, and what to declare."""
    with manager.local_plugins({"turns": CountsTurns, "turns-d": CountsTurnsDeterministically}):
        unsure = CliRunner().invoke(main, ["variants", "check", str(extending_usa(tmp_path, "turns", name="unsure"))])
        sure = CliRunner().invoke(main, ["variants", "check", str(extending_usa(tmp_path, "turns-d", name="sure"))])
    assert unsure.exit_code == 0 and sure.exit_code == 0
    assert "note: plugin 'turns' does not declare itself deterministic" in unsure.output
    assert "deterministic = True" in unsure.output
    assert "note:" not in sure.output  # the built-in plugins all declare it


def test_local_plugin_names_cannot_shadow_installed_ones():
    from ttr_core.errors import PluginConflict

    with pytest.raises(PluginConflict, match="claiming"):
        with manager.local_plugins({"claiming": SecondPointsTable}):
            pass


class BoomOnTurnEnded(Plugin):
    """Raises once the action is done and logged, while the turn is being closed."""

    @hookimpl
    def ttr_turn_ended(self, game, seat):
        if seat == 1:
            raise RuntimeError("seat 1 may not end a turn")


def test_plugin_raising_after_the_action_was_logged_is_undone_completely(tmp_path):
    """The failure comes from ``ttr_turn_ended``, after the action entered the log: the log and the
    state are as before, and the same seat is still to finish its turn."""
    with manager.local_plugins({"sticky": BoomOnTurnEnded}):
        game = game_with(tmp_path, {"sticky": BoomOnTurnEnded})
        game.apply(0, DrawCard(None))
        game.apply(0, DrawCard(None))
        game.apply(1, DrawCard(None))
        before = snapshot(game)
        with pytest.raises(PluginFailed) as info:
            game.apply(1, DrawCard(None))
        assert (info.value.plugin, info.value.hook) == ("sticky", "ttr_turn_ended")
        assert snapshot(game) == before
        assert game.to_act() == [1] and len(game.log) == 2 + 2 + 1  # 2 starting choices, 3 cards
        testing.assert_invariants(game)
