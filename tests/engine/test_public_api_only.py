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


#: the applications that read a game through its public accessors (``game.phase``,
#: ``game.hand_counts(seat)``...) and views (``game.seat_view(seat)``, ``game.view(seat)``), never
#: its ``state``: every one but the test kit, whose job is to arrange positions (``set_hand``,
#: ``stack_deck``...) by writing the state a rule would never write so
NO_STATE_READS = ("ttr_bots", "ttr_env", "ttr_analysis", "ttr_cli", "ttr_server")


def state_reads(source: str, where: str) -> list[str]:
    """Every ``x.state`` read, where ``x`` is neither the object itself nor a web application
    (``app.state``, ``request.app.state``: where FastAPI keeps what its handlers share)."""
    return sorted(
        f"{where}:{node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and node.attr == "state" and not _own_or_app(node.value)
    )


def _own_or_app(owner: ast.expr) -> bool:
    if isinstance(owner, ast.Name):
        return owner.id in ("self", "cls", "app")
    return isinstance(owner, ast.Attribute) and owner.attr == "app"


def test_every_application_but_the_test_kit_is_checked_for_state_reads():
    assert set(APPLICATIONS) - set(NO_STATE_READS) == {"ttr_kit"}


@pytest.mark.parametrize("package", NO_STATE_READS)
def test_an_application_reads_no_game_s_state(package):
    files = sorted((ROOT / package).rglob("*.py"))
    assert files
    assert [u for f in files for u in state_reads(f.read_text(encoding="utf-8"), str(f.relative_to(ROOT)))] == []


def test_the_state_check_finds_what_the_ticket_bot_used_to_do():
    old = "def _read(self, game, seat):\n    owners = game.state.owner\n    return self.state\n"
    assert state_reads(old, "ticket_bot.py") == ["ticket_bot.py:2: game.state"]


def test_the_state_check_finds_what_the_move_words_and_the_server_used_to_do_but_not_fastapi_s_state():
    old = (
        "def make(app, request, game, service):\n"
        "    app.state.service = service\n"
        "    hub = request.app.state.hub\n"
        "    st = game.state\n"
        "    return service.live.game.state.phase, app.game.state\n"
    )
    assert state_reads(old, "server.py") == [
        "server.py:4: game.state", "server.py:5: app.game.state", "server.py:5: service.live.game.state",
    ]
