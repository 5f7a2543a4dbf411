"""The applications (bots, analysis, test kit, environment, command line, server) use only public API, of the
engine and of each other: no ``obj._private`` of another object, no ``_private`` name imported
from another module, so that the engine (and each application) may change its insides freely.
An object's own private names (``self._x``, ``cls._x``) are its own to use."""

from __future__ import annotations

import ast

import pytest
from usa_kit import ROOT

APPLICATIONS = ("ttr_bots", "ttr_analysis", "ttr_kit", "ttr_env", "ttr_cli", "ttr_server")
#: public despite the underscore: namedtuple's methods
ALLOWED = {"_replace", "_asdict", "_fields", "_make"}


def private_uses(source: str, where: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.ImportFrom):
            found += [f"{where}:{node.lineno}: from {node.module} import {a.name}" for a in node.names if _private(a.name)]
    return sorted(found)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in ALLOWED


@pytest.mark.parametrize("package", APPLICATIONS)
def test_an_application_uses_no_private_name_of_another_object_or_module(package):
    files = sorted((ROOT / package).rglob("*.py"))
    assert files
    uses = [u for f in files for u in private_uses(f.read_text(encoding="utf-8"), str(f.relative_to(ROOT)))]
    assert uses == []


def test_the_check_finds_what_the_server_bot_runner_used_to_do():
    old = (
        "from ttr_cli.main import _guarded\n"
        "def step(self, service, game_id):\n"
        "    with service._locked(game_id):\n"
        "        return self._player, r._replace(x=1), r.__class__\n"
    )
    assert private_uses(old, "runner.py") == ["runner.py:1: from ttr_cli.main import _guarded", "runner.py:3: service._locked"]


#: the applications that play from a seat's view (``game.seat_view(seat)``) and so read no
#: game's ``state``; the others (the test kit sets positions up, analysis, the server) still do
VIEW_ONLY = ("ttr_bots", "ttr_env")


def state_reads(source: str, where: str) -> list[str]:
    """Every ``x.state`` read, where ``x`` is not the object itself."""
    return sorted(
        f"{where}:{node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and node.attr == "state"
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    )


@pytest.mark.parametrize("package", VIEW_ONLY)
def test_the_bots_and_the_environment_read_no_game_s_state(package):
    files = sorted((ROOT / package).rglob("*.py"))
    assert files
    assert [u for f in files for u in state_reads(f.read_text(encoding="utf-8"), str(f.relative_to(ROOT)))] == []


def test_the_state_check_finds_what_the_ticket_bot_used_to_do():
    old = "def _read(self, game, seat):\n    owners = game.state.owner\n    return self.state\n"
    assert state_reads(old, "ticket_bot.py") == ["ticket_bot.py:2: game.state"]
