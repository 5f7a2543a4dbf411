"""Bots as plugins: found through the ``ttr.bots`` entry-point group (the built-in ones too), made
usable in-process with ``local_bots``, playing through ``play_game`` and the command line;
``ttr bots`` lists them; an unknown or broken bot is bad input (exit 2), never a traceback.

The check that a bot *package* installed beside the wheel works is in ``test_packaging.py``.
"""

from __future__ import annotations

import json
import random
from importlib.metadata import EntryPoint

import pytest
from click.testing import CliRunner

import ttr_bots
from ttr_cli.main import main
from ttr_core import record, variant


def run(*args: str, code: int = 0):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == code, (result.output, result.exception)
    assert "Traceback" not in result.output
    return result


def greedy_bot(calls: list):
    """A third party's bot as a test writes it; every action it chooses is appended to ``calls``."""

    class GreedyBot:
        """Claims a route whenever it can; otherwise any legal action."""

        name = "greedy"

        def __init__(self, seed: int, seat: int):
            self.rng = random.Random(f"greedy:{seed}:{seat}")

        def choose(self, view):
            legal = view.legal_actions()
            claims = [a for a in legal if a.kind == "claim-route"]
            action = self.rng.choice(claims or legal)
            calls.append((view.seat, action))
            return action

    return GreedyBot


@pytest.fixture
def greedy():
    """``greedy`` is usable by name for the test; yields the list of the actions it chose."""
    calls: list = []
    with ttr_bots.local_bots({"greedy": greedy_bot(calls)}):
        yield calls


# --- finding bots ---------------------------------------------------------------------------------


def test_the_built_in_bots_are_found_through_the_entry_point_group():
    found = ttr_bots.available()
    assert found["random"].value == "ttr_bots.random_bot:RandomBot"
    assert found["ticket"].value == "ttr_bots.ticket:TicketBot"
    assert all(ep.group == ttr_bots.GROUP == "ttr.bots" for ep in found.values())
    for name in found:
        assert ttr_bots.bot_class(name).name == name  # the class knows the name it is installed under


def test_an_unknown_name_suggests_close_ones_and_lists_the_installed():
    with pytest.raises(ttr_bots.UnknownBot) as caught:
        ttr_bots.bot_class("tickit")
    assert str(caught.value) == "unknown bot 'tickit' (did you mean 'ticket'?); installed bots: hoarder, long-routes, random, route-value, search, search-quick, ticket"
    with pytest.raises(ttr_bots.UnknownBot, match="unknown bot 'x'; unknown bot 'rnd' .*did you mean 'random'"):
        ttr_bots.bot_classes(["random", "x", "rnd", "x"])


def test_a_local_bot_lives_for_its_with_block_and_takes_no_installed_name():
    with ttr_bots.local_bots({"greedy": greedy_bot([])}):
        assert "greedy" in ttr_bots.names()
        with pytest.raises(ttr_bots.BotError, match="already taken: greedy"):
            with ttr_bots.local_bots({"greedy": greedy_bot([])}):
                pass
    assert "greedy" not in ttr_bots.names()
    with pytest.raises(ttr_bots.UnknownBot):
        ttr_bots.bot_class("greedy")
    with pytest.raises(ttr_bots.BotError, match="already taken: random"):
        with ttr_bots.local_bots({"random": greedy_bot([])}):
            pass


# --- playing --------------------------------------------------------------------------------------


def test_a_local_bot_plays_every_action_of_its_seats_through_play_game(greedy):
    game = ttr_bots.play_game(variant.load("usa"), 3, 8, ("greedy", "random"))
    assert game.over
    assert [(s, a) for s, a in game.log if s in (0, 2)] == greedy  # seats 0 and 2 are greedy's
    assert any(a.kind == "claim-route" for _, a in greedy)
    replayed = record.replay(json.loads(record.dumps(record.make_record(game))))
    assert replayed.result == game.result


def test_a_local_bot_plays_through_the_command_line_reproducibly(greedy, tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    played = json.loads(run("play", "--players", "2", "--seed", "4", "--bots", "greedy,random", "--out", a, "--json").stdout)
    assert played["result"]["winners"]["seats"]
    chosen = len(greedy)
    actions = json.loads(a.read_text(encoding="utf-8"))["actions"]
    assert chosen == sum(1 for x in actions if x["seat"] == 0) > 0
    run("play", "--players", "2", "--seed", "4", "--bots", "greedy,random", "--out", b, "--quiet")
    assert a.read_bytes() == b.read_bytes()  # its generator is seeded from (seed, seat), not the game's
    assert "Winner:" in run("replay", a).output


def test_simulate_names_the_local_bot_of_each_seat(greedy):
    summary = json.loads(run("simulate", "--games", "2", "--players", "3", "--bots", "greedy,random", "--workers", "1",
                             "--json").stdout)
    assert [s["bot"] for s in summary["seats"]] == ["greedy", "random", "greedy"]
    assert greedy


# --- ttr bots -------------------------------------------------------------------------------------


def test_ttr_bots_lists_the_installed_and_local_bots(greedy):
    rows = {r["name"]: r for r in json.loads(run("bots", "--json").stdout)}
    assert set(rows) == {"greedy", "random", "ticket", "long-routes", "hoarder", "route-value", "search", "search-quick"}
    assert rows["random"]["from"].startswith("ttr-engine ")
    assert rows["random"]["class"] == "ttr_bots.random_bot:RandomBot"
    assert rows["random"]["doc"].startswith("Picks uniformly among the legal actions")
    assert rows["greedy"] == {"name": "greedy", "from": "local", "class": "test_bots:greedy_bot.<locals>.GreedyBot",
                              "doc": "Claims a route whenever it can; otherwise any legal action.", "ok": True}
    table = run("bots").output
    assert "Bots" in table and "greedy" in table and "Claims a route whenever it can" in table


# --- bad names, broken bots -------------------------------------------------------------------------


@pytest.mark.parametrize("command", [
    ("play", "--out", "game.json"),
    ("simulate", "--games", "2", "--out", "records"),
    ("compare", "--variant", "wor", "--variant", "wor@1", "--games", "2", "--out", "plots"),
])
def test_an_unknown_bot_is_refused_before_any_work(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    result = run(*command, "--bots", "random,tickt", code=2)
    assert result.output == "error: --bots: unknown bot 'tickt' (did you mean 'ticket'?); installed bots: hoarder, long-routes, random, route-value, search, search-quick, ticket\n"
    assert list(tmp_path.iterdir()) == []  # no record, no folder, no plot


def test_an_empty_bots_option_is_refused():
    assert "--bots: no bot given" in run("play", "--bots", " , ", code=2).output


@pytest.fixture
def broken_package(monkeypatch):
    """An installed bot whose module is missing (a half-uninstalled package)."""
    installed = dict(ttr_bots.available())
    installed["broken"] = EntryPoint("broken", "no_such_module:Bot", ttr_bots.GROUP)
    monkeypatch.setattr(ttr_bots, "available", lambda: installed)


def test_a_bot_that_fails_to_load_is_listed_as_broken_and_refused(broken_package):
    rows = {r["name"]: r for r in json.loads(run("bots", "--json").stdout)}
    assert rows["broken"]["ok"] is False and rows["random"]["ok"] is True
    assert "failed to load: ModuleNotFoundError" in rows["broken"]["error"]
    assert "broken:" in run("bots").output
    refused = run("play", "--bots", "broken", code=2).output
    assert refused.startswith("error: --bots: bot 'broken' (no_such_module:Bot) failed to load: ModuleNotFoundError")


def test_an_entry_point_that_is_no_bot_class_is_refused(monkeypatch):
    installed = dict(ttr_bots.available())
    installed["notabot"] = EntryPoint("notabot", "ttr_bots:play_game", ttr_bots.GROUP)
    monkeypatch.setattr(ttr_bots, "available", lambda: installed)
    refused = run("play", "--bots", "notabot", code=2).output
    assert "bot 'notabot' (ttr_bots:play_game) is not a bot class" in refused
