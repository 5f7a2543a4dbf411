"""Plugins written by strangers fail: in the setup, in every hook of a turn, in an action of their
own, in the scoring at the end, in a seat's view, only sometimes. Each time the game names the
plugin and the hook, the action is rejected, and the game is exactly as before
(``test_core_plugins.py`` has the basic cases on one hook each; this file goes through the hooks
and the awkward moments).
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import ClassVar

import attrs
import pytest

from ttr_core import manager, record, variant
from ttr_kit import testing
from ttr_core.actions import Action
from ttr_plugins.train_cards import DrawCard
from ttr_bots import bot_class
from ttr_core.errors import PluginFailed, RecordError
from ttr_core.game import Game
from ttr_core.plugin import Plugin, hookimpl


def variant_with(tmp_path: Path, parent: str, *plugins: str) -> Path:
    path = tmp_path / f"{parent}-failing.toml"
    listed = ", ".join(f'"{p}"' for p in plugins)
    path.write_text(f'id = "{parent}-failing"\ntitle = "t"\nextends = "{parent}"\n[versions.1]\nadd_plugins = [{listed}]\n',
                    encoding="utf-8")
    return path


def new_game(path: Path, players: int = 3, seed: int = 4) -> Game:
    return Game(variant.load(str(path)), [f"P{i + 1}" for i in range(players)], seed)


def bot_step(game: Game, bots) -> tuple[int, Action]:
    seat = game.to_act()[0]
    return seat, bots[seat].choose(game.seat_view(seat))


def play_until_failure(game: Game, limit: int = 5000) -> tuple[PluginFailed, int, Action, tuple]:
    """Let random bots play until an action fails; return the failure, the action and the state
    from just before it."""
    bots = [bot_class("random")(game.seed, s) for s in range(len(game.state.players))]
    for _ in range(limit):
        assert not game.over, "the game ended without the plugin failing"
        before = testing.state_text(game), len(game.log)
        seat, action = game.to_act()[0], None
        try:
            seat, action = bot_step(game, bots)  # may fail too: the bot lists the legal actions
            game.apply(seat, action)
        except PluginFailed as exc:
            return exc, seat, action, before
    raise AssertionError("no failure")


def assert_unchanged(game: Game, before: tuple) -> None:
    assert (testing.state_text(game), len(game.log)) == before
    testing.assert_invariants(game)


# --- failing in a hook, whichever -----------------------------------------------------------------


def failing_in(hook: str, after: int = 0):
    """A plugin class whose ``hook`` raises once the game has ``after`` actions in its log."""

    def impl(self, game):
        if len(game.log) >= after:
            raise RuntimeError(f"{hook} gave up")

    return type(f"FailsIn_{hook}", (Plugin,), {hook: hookimpl(impl)})


TURN_HOOKS = ["ttr_turn_started", "ttr_turn_ended", "ttr_card_taken", "ttr_closed_routes", "ttr_route_claimed",
              "ttr_open_row_needs_reset", "ttr_final_round_triggered", "ttr_claim_started"]


@pytest.mark.parametrize("hook", TURN_HOOKS)
def test_a_plugin_failing_in_a_turn_hook_is_named_and_the_action_rejected(tmp_path, hook):
    name = "turn-trouble"
    plugin = failing_in(hook, after=12)
    if hook == "ttr_final_round_triggered":  # a policy hook: it must replace final-round
        path = tmp_path / "usa-failing.toml"
        path.write_text('id = "usa-failing"\ntitle = "t"\nextends = "usa"\n[versions.1]\n'
                        f'remove_plugins = ["final-round"]\nadd_plugins = ["{name}"]\n', encoding="utf-8")
    else:
        path = variant_with(tmp_path, "usa", name)
    with manager.local_plugins({name: plugin}):
        game = new_game(path)
        failure, seat, action, before = play_until_failure(game)
        assert (failure.plugin, failure.hook) == (name, hook)
        assert failure.seat == seat and failure.action == action
        assert f"{hook} gave up" in str(failure) and name in str(failure)
        assert_unchanged(game, before)
        with pytest.raises(PluginFailed):  # the same action fails the same way, and changes nothing again
            if action is None:  # it failed while the bot listed the legal actions
                game.legal_actions(seat)
            else:
                game.apply(seat, action)
        assert_unchanged(game, before)


@pytest.mark.parametrize("variant_id", ["europe", "wor-europe", "ussr"])
def test_a_plugin_failing_mid_tunnel_or_station_is_undone_completely(tmp_path, variant_id):
    """Fail in ``ttr_route_claimed`` on maps with tunnels, ferries and stations: whatever the claim
    had moved (the base, the revealed cards, the extra) is back where it was."""
    name = "late-failure"
    with manager.local_plugins({name: failing_in("ttr_route_claimed", after=0)}):
        game = new_game(variant_with(tmp_path, variant_id, name), players=4)
        for _ in range(3):  # several failures in one game; the bots go on with other actions between
            failure, seat, action, before = play_until_failure(game)
            assert (failure.plugin, failure.hook) == (name, "ttr_route_claimed")
            assert_unchanged(game, before)


# --- the setup ----------------------------------------------------------------------------------


@pytest.mark.parametrize("hook", ["ttr_game_created", "ttr_setup_table"])
def test_a_plugin_failing_in_the_setup_is_named(tmp_path, hook):
    name = "bad-setup"
    with manager.local_plugins({name: failing_in(hook)}):
        path = variant_with(tmp_path, "usa", name)
        with pytest.raises(PluginFailed) as info:
            new_game(path)
        assert (info.value.plugin, info.value.hook) == (name, hook)
        assert info.value.action is None and "setting up" in str(info.value)


def test_a_record_of_a_variant_whose_setup_fails_is_refused_with_a_record_error(tmp_path, monkeypatch):
    name = "bad-setup"
    good = Game(variant.load("usa"), ["A", "B"], 1)
    data = record.make_record(good)
    with manager.local_plugins({name: failing_in("ttr_setup_table")}):
        path = variant_with(tmp_path, "usa", name)
        with pytest.raises(RecordError, match="bad-setup"):
            record.replay({**data, "variant": "usa-failing"}, "r", loader=lambda v, n: variant.load(str(path), n))


# --- an action of its own -------------------------------------------------------------------------


@attrs.frozen
class Sabotage(Action):
    kind: ClassVar[str] = "sabotage"


class Saboteur(Plugin):
    """Registers an action whose handler moves cards and then fails half-way."""

    @hookimpl
    def ttr_register_actions(self, registry):
        registry.add(Sabotage, self)

    def legal(self, game, seat):
        yield Sabotage()

    def check(self, game, seat, action):
        return None

    def apply(self, game, seat, action):
        st = game.state
        st.players[seat].hand[0] += 5  # cards out of nothing...
        st.deck.clear()  # ...and the deck thrown away
        st.owner[0] = seat
        raise ZeroDivisionError("half-way")


def test_a_plugin_action_failing_half_way_is_undone_completely(tmp_path):
    with manager.local_plugins({"saboteur": Saboteur}):
        game = testing.keep_all_starting_tickets(new_game(variant_with(tmp_path, "usa", "saboteur")))
        game.apply(game.state.current, DrawCard(None))
        game.apply(game.state.current, DrawCard(None))
        before = testing.state_text(game), len(game.log)
        with pytest.raises(PluginFailed) as info:
            game.apply(game.state.current, Sabotage())
        assert (info.value.plugin, info.value.hook) == ("saboteur", "apply")
        assert isinstance(info.value.original, ZeroDivisionError)
        assert_unchanged(game, before)


# --- the end of the game ------------------------------------------------------------------------


class FailingBonus(Plugin):
    @hookimpl
    def ttr_end_bonuses(self, game):
        raise ArithmeticError("cannot count")


@pytest.mark.parametrize("variant_id", ["usa", "wor"])
def test_a_plugin_failing_in_the_scoring_rejects_the_last_action(tmp_path, variant_id):
    """The last action of the game triggers the scoring, which fails: that action is rejected, the
    game is not over, nothing changed, and the record of the game so far still replays."""
    with manager.local_plugins({"bad-bonus": FailingBonus}):
        game = new_game(variant_with(tmp_path, variant_id, "bad-bonus"))
        failure, seat, action, before = play_until_failure(game)
        assert (failure.plugin, failure.hook) == ("bad-bonus", "ttr_end_bonuses")
        assert_unchanged(game, before)
        assert not game.over and game.result is None
        assert game.state.final_round is not None or game.state.phase == "play"
        data = record.make_record(game)
        again = record.replay(data, "r", loader=lambda v, n: variant.load(str(tmp_path / f"{variant_id}-failing.toml"), n))
        assert record.make_record(again) == data


# --- a seat's view ------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 2, None], ids=["seat 0", "seat 2", "spectator"])
def test_a_plugin_failing_while_a_view_is_built_is_named_and_the_game_goes_on(tmp_path, seat):
    """``ttr_view`` gives a plugin's part of what a seat sees (R-TIX-4); when it fails, the view is
    refused naming plugin and hook, and since a view changes nothing the game goes on as it was."""
    name = "bad-view"
    with manager.local_plugins({name: failing_in("ttr_view", after=6)}):
        game = new_game(variant_with(tmp_path, "usa", name))
        bots = [bot_class("random")(game.seed, s) for s in range(3)]
        while len(game.log) < 6:
            game.view(seat)
            game.apply(*bot_step(game, bots))
        before = testing.state_text(game), len(game.log)
        with pytest.raises(PluginFailed) as info:
            game.view(seat)
        failure = info.value
        assert (failure.plugin, failure.hook, failure.seat, failure.action) == (name, "ttr_view", seat, None)
        assert isinstance(failure.original, RuntimeError) and "ttr_view gave up" in str(failure)
        assert "building the view" in str(failure) and name in str(failure)
        assert_unchanged(game, before)
        game.apply(*bot_step(game, bots))
        assert len(game.log) == before[1] + 1


# --- failing only sometimes ---------------------------------------------------------------------


class FailsOnce(Plugin):
    """Fails on the first call of ``ttr_card_taken`` in this process, then never again (a plugin
    that, say, timed out once on an outside service)."""

    calls: ClassVar[itertools.count]

    @hookimpl
    def ttr_card_taken(self, game):
        if next(FailsOnce.calls) == 0:
            raise TimeoutError("the service did not answer")


def test_a_plugin_that_fails_once_loses_no_game(tmp_path):
    FailsOnce.calls = itertools.count()
    with manager.local_plugins({"flaky": FailsOnce}):
        game = testing.keep_all_starting_tickets(new_game(variant_with(tmp_path, "usa", "flaky")))
        seat = game.state.current
        before = testing.state_text(game), len(game.log)
        with pytest.raises(PluginFailed):
            game.apply(seat, DrawCard(None))
        assert_unchanged(game, before)
        game.apply(seat, DrawCard(None))  # the retry works, and the game goes on to its end
        testing.play_to_end(game)
        assert game.over


class FailsOnReplay(Plugin):
    """Works during play, and fails while the engine replays the log to undo another failure (a
    plugin that depends on something outside the game)."""

    armed: ClassVar[bool] = False

    @hookimpl
    def ttr_card_taken(self, game):
        if FailsOnReplay.armed:
            raise RuntimeError("not now")

    @hookimpl
    def ttr_route_claimed(self, game):
        if len(game.log) >= 12:  # cards have been taken by then: the replay will take them again
            FailsOnReplay.armed = True
            raise RuntimeError("no claims")


def test_a_failure_while_undoing_a_failure_still_leaves_the_game_as_it_was(tmp_path):
    """The engine undoes a failed action by replaying the log; if the replay itself fails, the game
    must still be the one from before the failed action (never half of it)."""
    FailsOnReplay.armed = False
    with manager.local_plugins({"fragile": FailsOnReplay}):
        game = new_game(variant_with(tmp_path, "usa", "fragile"))
        failure, seat, action, before = play_until_failure(game)
        FailsOnReplay.armed = False
        assert (failure.plugin, failure.hook) == ("fragile", "ttr_route_claimed")
        assert any(a.kind == "draw-card" for _, a in game.log)
        assert_unchanged(game, before)
        game.apply(game.state.current, DrawCard(None))  # and the game goes on
        testing.assert_invariants(game)


class AcceptsEachClaimOnce(Plugin):
    """A service outside the game that approves each claim once: asked again about a claim it has
    approved (as a replay of the log would ask), it refuses. It is not deterministic."""

    approved: ClassVar[set] = set()

    @hookimpl
    def ttr_route_claimed(self, game):
        claim = (game.seed, len(game.log), tuple(game.state.owner))
        if claim in AcceptsEachClaimOnce.approved:
            raise RuntimeError("this claim was approved already")
        AcceptsEachClaimOnce.approved.add(claim)


class FailsAt(Plugin):
    """Fails a card drawn when the log has ``at`` actions: deterministic (the replay of the actions
    before never fails)."""

    deterministic = True
    at: ClassVar[int] = 10**9

    @hookimpl
    def ttr_card_taken(self, game):
        if len(game.log) == FailsAt.at:
            raise RuntimeError("no more cards")


def test_a_failure_long_after_a_claim_the_log_cannot_replay_is_undone_exactly(tmp_path):
    """Claims consult a plugin whose answers cannot be replayed; later, a card draw fails in
    another plugin, several actions after the last claim. The game comes back to just before that
    draw (from its copy after the last claim, not by replaying claims the service now refuses)."""
    AcceptsEachClaimOnce.approved, FailsAt.at = set(), 10**9
    with manager.local_plugins({"approvals": AcceptsEachClaimOnce, "draw-trouble": FailsAt}):
        game = new_game(variant_with(tmp_path, "usa", "approvals", "draw-trouble"), players=2)
        bots = [bot_class("random")(game.seed, s) for s in range(2)]
        while sum(len(p.routes) for p in game.state.players) < 3:  # claims approved, cards drawn
            game.apply(*bot_step(game, bots))
        claims = len(game.log)
        seat = game.state.current
        while len(game.log) < claims + 4 or not any(a.kind == "draw-card" for a in game.legal_actions(seat)):
            seat, action = bot_step(game, bots)
            if action.kind != "claim-route":
                game.apply(seat, action)
            seat = game.state.current
        before = testing.state_text(game), len(game.log)
        FailsAt.at = len(game.log)
        with pytest.raises(PluginFailed) as failure:
            game.apply(seat, DrawCard(None))
        FailsAt.at = 10**9
        assert failure.value.plugin == "draw-trouble"
        assert_unchanged(game, before)
        game.apply(seat, DrawCard(None))  # and the game goes on
        testing.assert_invariants(game)


def test_a_failure_in_a_determinized_game_keeps_its_own_deal(tmp_path):
    """A determinized copy (a search bot's sampled game) that fails an action comes back to its
    own dealt cards, not to the real game's."""
    import random

    FailsAt.at = 10**9
    with manager.local_plugins({"draw-trouble": FailsAt}):
        game = testing.keep_all_starting_tickets(new_game(variant_with(tmp_path, "usa", "draw-trouble")))
        sampled = game.determinize(game.state.current, random.Random(7))
        assert testing.state_text(sampled) != testing.state_text(game)
        before = testing.state_text(sampled), len(sampled.log)
        FailsAt.at = len(sampled.log)
        with pytest.raises(PluginFailed):
            sampled.apply(sampled.state.current, DrawCard(None))
        FailsAt.at = 10**9
        assert_unchanged(sampled, before)


class _BrokenOnTurnEnd(Plugin):
    """A house rule with a bug: it fails at the end of the third turn."""

    @hookimpl
    def ttr_turn_ended(self, game):
        if game.state.turn == 3:
            raise ValueError("boom")  # the line the failure names


def test_a_plugin_failure_names_the_file_and_line_of_the_plugin_code(tmp_path):
    with manager.local_plugins({"broken-on-turn-end": _BrokenOnTurnEnd}):
        failure, _seat, _action, _before = play_until_failure(new_game(variant_with(tmp_path, "usa", "broken-on-turn-end")))
    line = next(n for n, text in enumerate(Path(__file__).read_text().splitlines(), 1) if "the line the failure names" in text)
    assert failure.where == f"{__file__}:{line}"
    assert f"plugin 'broken-on-turn-end' failed in ttr_turn_ended at {__file__}:{line} while applying" in str(failure)
    assert "ValueError: boom" in str(failure)
