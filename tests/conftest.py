"""Shared helpers for the core and ``usa`` suites.

The helpers speak the language of a player: hands by card name, routes by id, scores by name.
Positions are arranged with :mod:`ttr_kit.testing`, which moves real cards, so the invariants
keep holding in every rule test (``assert_invariants`` is called by ``started`` and ``snapshot``
users after each arranged situation).
"""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from ttr_kit import testing
from ttr_core.game import Game

#: Test modules import these helpers as ``usa_kit``: every ``conftest.py`` of the tree is a module
#: called "conftest", so ``from conftest import ...`` would depend on which one was loaded last.
sys.modules.setdefault("usa_kit", sys.modules[__name__])

#: The tests sit by layer (``engine/``, ``rules/``, ``apps/<application>/``); the helper modules
#: they share (``server_kit``, ``page_kit``, ``loadgen``, ``final_round_watch``, ``open_row_river``)
#: sit here, importable by their names from every folder.
HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

DATA = HERE / "data"
ROOT = HERE.parent


def started(players: int = 2, seed: int = 1) -> Game:
    """A ``usa`` game past the setup: every player kept every starting ticket; seat 0 to play."""
    game = testing.keep_all_starting_tickets(testing.new_game("usa", players, seed))
    assert game.state.phase == "play" and game.state.current == 0
    return game


def hand(game: Game, seat: int) -> dict[str, int]:
    """The seat's hand by card name, as the player sees it (``view(seat)["you"]["hand"]``)."""
    return game.view(seat)["you"]["hand"]


def owner_of(game: Game, route_id: str) -> int | None:
    """The seat owning ``route_id`` on the public board, or None."""
    return game.view(None)["routes"].get(route_id)


def snapshot(game: Game) -> tuple[str, int]:
    """Everything about the game (hidden parts included) and the length of its log."""
    return json.dumps(game.dump(), sort_keys=True), len(game.log)


def score_of(game: Game, name: str):
    """The final ``PlayerScore`` of the player called ``name``."""
    assert game.result is not None, "the game is not scored"
    (score,) = [s for s in game.result.scores if s.name == name]
    return score


def position(*players: dict, variant: str = "usa") -> dict:
    """A hand-given position (``ttr score``): one dict per player with routes and tickets."""
    return {"variant": variant, "players": [{"name": f"P{i + 1}", **p} for i, p in enumerate(players)]}


def draw_two_blind(game: Game, seat: int) -> None:
    """A whole turn of drawing two cards blind from the deck (R-DRAW-1)."""
    from ttr_plugins.train_cards import DrawCard

    game.apply(seat, DrawCard(None))
    game.apply(seat, DrawCard(None))


@pytest.fixture(scope="session", autouse=True)
def _games_kept_in_a_temporary_folder(tmp_path_factory):
    """``ttr simulate`` and ``ttr compare`` keep played games in the user's cache folder by default
    (``TTR_CACHE_DIR`` names another): the tests never write there, not even from fixtures."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TTR_CACHE_DIR", str(tmp_path_factory.mktemp("game-cache")))
        yield


@pytest.fixture(autouse=True)
def _games_kept_per_test(request, monkeypatch, tmp_path_factory):
    """Each test starts with no game kept: a game one test played is not reused by another."""
    folder = tmp_path_factory.getbasetemp() / "game-cache-per-test" / str(abs(hash(request.node.nodeid)))
    monkeypatch.setenv("TTR_CACHE_DIR", str(folder))


@pytest.fixture(scope="session")
def project_wheel(tmp_path_factory) -> Path:
    """The project's wheel, as ``pip install .`` builds it, built once per session."""
    out = tmp_path_factory.mktemp("project-wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
                   check=True, capture_output=True, text=True)
    (wheel,) = out.glob("ttr_engine-*.whl")
    return wheel


def fresh_venv(folder: Path, *install: str | Path) -> Path:
    """A new virtual environment in ``folder`` with ``install`` (wheels, source folders, names)
    installed by its own pip, as a user would; returns its folder of commands (``bin``)."""
    venv.EnvBuilder(with_pip=True).create(folder)
    bin_dir = folder / ("Scripts" if sys.platform == "win32" else "bin")
    installed = subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", *map(str, install)],
                               capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr[-3000:]
    return bin_dir


@pytest.fixture
def usa2() -> Game:
    return started(2)


@pytest.fixture
def usa3() -> Game:
    return started(3)


# Figures some tests report (the soak slice's summary, the server load test's rates): printed at
# the end of the run, never asserted. They travel as the test report's user properties, so that
# they reach the terminal from pytest-xdist's worker processes too.
_SUMMARY = "summary line"


@pytest.fixture
def summary_line(record_property):
    """Call it with a line to have the line printed at the end of the session."""
    return lambda line: record_property(_SUMMARY, line)


def pytest_terminal_summary(terminalreporter):
    lines = [value for reports in terminalreporter.stats.values() for report in reports
             if getattr(report, "when", None) == "call"
             for name, value in getattr(report, "user_properties", ()) if name == _SUMMARY]
    if lines:
        terminalreporter.section("figures reported by the tests (not assertions)")
        for line in lines:
            terminalreporter.write_line(line)
