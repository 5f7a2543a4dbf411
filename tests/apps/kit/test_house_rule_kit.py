"""The house-rule kit (``ttr_kit.pytest_plugin``, ``ttr_kit.testing``) and the conformance check
``ttr variants check FILE --play N``, proven the way a house-rule author uses them: the example
package ``examples/house-rules`` is installed into a fresh virtual environment together with the
project's wheel, and its own tests (written only with the kit's fixtures) run there.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ttr_core import manager
from ttr_kit import pytest_plugin, testing
from ttr_plugins.claiming import ClaimRoute
from ttr_plugins.train_cards import DrawCard
from ttr_cli.main import main
from ttr_core.errors import CannotPay, IllegalAction, NotYourTurn
from ttr_core.plugin import Plugin, hookimpl
from usa_kit import ROOT, fresh_venv

EXAMPLE = ROOT / "examples" / "house-rules"
HOUSE_VARIANT = EXAMPLE / "ttr_house_rules" / "variants" / "usa-house.toml"


def house_rules():
    """The example's plugin classes, imported from its source folder (for the in-process tests)."""
    sys.path.insert(0, str(EXAMPLE))
    try:
        from ttr_house_rules.rules import NoTicketPenalty, SixScores18
    finally:
        sys.path.remove(str(EXAMPLE))
    return {"no-ticket-penalty": NoTicketPenalty, "six-scores-18": SixScores18}


# --- the fixtures, in this project's own run -----------------------------------------------------


def test_every_fixture_is_documented_in_the_module_docstring():
    fixtures = [n for n, f in vars(pytest_plugin).items() if n.startswith("ttr_") and callable(f)]
    assert len(fixtures) >= 10
    for name in fixtures:
        assert f"``{name}" in pytest_plugin.__doc__, name


def test_ttr_position_arranges_what_it_is_asked(ttr_position):
    game = ttr_position(
        "usa", players=3, hands={1: {"red": 3, "locomotive": 1}}, routes={2: ["Denver-Omaha"]},
        tickets={0: ["Denver-El Paso"]}, open_row=["blue", None, "blue", "green", "red"], deck_top=["white", "black"],
        turn=1,
    )
    you = game.view(1)["you"]
    assert you["hand"] == {"red": 3, "locomotive": 1}
    assert game.view(0)["you"]["tickets"] == ["Denver-El Paso"]
    assert game.view(None)["routes"] == {"Denver-Omaha": 2}
    assert game.view(None)["open_row"] == ["blue", None, "blue", "green", "red"]
    assert game.to_act() == [1]
    names = game.cards.names
    assert [names[c] for c in game.state.deck[-2:]] == ["black", "white"]  # "white" on top: drawn first
    assert testing.invariant_problems(game) == []


def test_ttr_act_takes_objects_and_data_and_checks_invariants(ttr_position, ttr_act):
    game = ttr_position("usa", hands={0: {"red": 1}}, turn=0, deck_top=["green", "blue"])
    ttr_act(game, 0, DrawCard(None))
    ttr_act(game, 0, {"kind": "draw-card", "slot": None})
    assert game.view(0)["you"]["hand"] == {"red": 1, "green": 1, "blue": 1}
    game.state.deck.pop()  # a card lost: the next act must notice
    with pytest.raises(AssertionError, match="cards:"):
        ttr_act(game, 1, {"kind": "draw-card"})


def test_ttr_expect_illegal_returns_the_error_and_fails_on_a_legal_action(ttr_position, ttr_expect_illegal):
    game = ttr_position("usa", hands={0: {"purple": 1}}, turn=0)
    error = ttr_expect_illegal(game, 0, ClaimRoute("Denver-Omaha", "purple"), CannotPay)
    assert "the hand has 1" in error.reason
    ttr_expect_illegal(game, 1, {"kind": "draw-card"}, NotYourTurn)
    with pytest.raises(AssertionError, match="expected CannotPay, got NotYourTurn"):
        ttr_expect_illegal(game, 1, {"kind": "draw-card"}, CannotPay)
    with pytest.raises(AssertionError, match="was allowed"):
        ttr_expect_illegal(game, 0, {"kind": "draw-card"}, IllegalAction)


def test_ttr_breakdown_scores_a_position_line_by_line(ttr_position, ttr_breakdown):
    game = ttr_position("usa", routes={0: ["Denver-Santa Fe", "El Paso-Santa Fe"]},
                        tickets={0: ["Denver-El Paso", "Boston-Miami"], 1: []})
    score = ttr_breakdown(game, "P1")
    assert score["routes"] == 2 + 2
    assert (score["completed"], score["failed"], score["tickets"]) == (["Denver-El Paso"], ["Boston-Miami"], 4 - 12)
    assert score["bonuses"] == {"longest-path": 10}
    assert score["total"] == 4 - 8 + 10 and score["winner"] is True
    assert ttr_breakdown(game, 1)["total"] == 0


def test_ttr_position_sets_the_trains_left_and_the_trains_invariant_still_means_something(ttr_position, ttr_act):
    """``trains={seat: n}``: n trains left in supply, after the routes given; the rest go out of the
    game, which the invariant counts (on the board + in supply + out of the game = 45), so the
    invariant still catches a claim that forgets its trains."""
    game = ttr_position("usa", players=2, routes={0: ["Denver-Omaha"]}, trains={0: 5, 1: 3},
                        hands={0: {"red": 6}, 1: {"purple": 1}}, turn=0)
    assert [p["trains"] for p in game.view(None)["players"]] == [5, 3]
    assert [p.trains_out for p in game.state.players] == [45 - 4 - 5, 45 - 3]
    assert testing.invariant_problems(game) == []
    # R-ROUTE-2: a route longer than the trains left cannot be claimed; one that leaves 2 or fewer
    # starts the final round (R-END-1)
    assert not [a for a in game.legal_actions(0) if a.kind == "claim-route" and a.route == "El Paso-Los Angeles"]
    ttr_act(game, 0, ClaimRoute("El Paso-Phoenix", "red"))  # grey, length 3
    assert game.view(None)["players"][0]["trains"] == 2 and game.view(None)["final_round"] is True
    game.state.players[0].trains += 1  # a claim that forgot a train: still caught
    assert testing.invariant_problems(game) == [
        "trains: seat 0 has 7 on the board + 3 in supply + 36 out of the game != 45"]


def test_set_trains_moves_trains_back_and_refuses_what_no_seat_can_have(ttr_game):
    game = ttr_game("usa")
    testing.give_route(game, 0, "Helena-Seattle")  # 6 placed: 39 in supply
    testing.set_trains(game, 0, 2)
    testing.set_trains(game, 0, 39)  # all back: nothing out of the game
    assert (game.state.players[0].trains, game.state.players[0].trains_out) == (39, 0)
    for bad in (40, -1, True, "3"):
        with pytest.raises(ValueError, match=r"seat 0 has 6 trains on the board: it can have 0 to 39 in supply"):
            testing.set_trains(game, 0, bad)
    testing.arrange(game, trains={1: 0})
    assert testing.invariant_problems(game) == []
    twin = game.clone()  # a copy (search bots, snapshots) keeps the trains out of the game
    assert twin.state.players[1].trains_out == 45 and testing.invariant_problems(twin) == []
    assert "trains_out" in game.dump()["players"][1] and "trains_out" not in game.dump()["players"][0]


def test_ttr_game_takes_a_variant_file(ttr_game, tmp_path):
    path = tmp_path / "usa-short.toml"
    path.write_text('id = "usa-short"\ntitle = "t"\nextends = "usa"\n[versions.1]\n'
                    "[versions.1.rules.final-round]\ntrains_threshold = 40\n", encoding="utf-8")
    game = ttr_game(path, players=2, seed=3)
    assert game.ruleset.variant == "usa-short" and game.state.phase == "play"


def test_ttr_play_to_end_and_ttr_conformance(ttr_game, ttr_play_to_end, ttr_conformance):
    assert ttr_play_to_end(ttr_game("wor", players=4)).over
    assert ttr_conformance("usa", games=3) == []


# --- the conformance check, ttr variants check FILE --play N ------------------------------------


class LuckyDraws(Plugin):
    """A broken house rule: whoever ends a turn gets a free locomotive, made out of nothing."""

    @hookimpl
    def ttr_turn_ended(self, game, seat):
        if game.state.turn % 7 == 0:
            game.state.players[seat].hand[game.cards.locomotive] += 1


class Grumpy(Plugin):
    """A broken house rule that fails outright once the game is under way."""

    @hookimpl
    def ttr_route_claimed(self, game, route):
        if route.length >= 2:
            raise ValueError("routes upset me")


class Grudges(Plugin):
    """A broken house rule: it remembers who claimed what on its own instance, and that instance
    serves every game of the ruleset, so one game's grudges would carry into the next."""

    def __init__(self, config=None):
        super().__init__(config)
        self.claims: list[tuple[int, str]] = []

    @hookimpl
    def ttr_route_claimed(self, game, seat, route):
        self.claims.append((seat, route.id))


def test_a_house_rule_keeping_game_state_on_itself_fails_the_check(tmp_path):
    with manager.local_plugins({"grudges": Grudges}):
        result = CliRunner().invoke(main, ["variants", "check", str(extending(tmp_path, "grudges")), "--play", "4"])
    assert result.exit_code == 1, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, errors  # named once, however many games it spoils
    assert "plugin 'grudges' changed its own attributes" in errors[0] and "game.state.ext" in errors[0]


def extending(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"usa-{name}.toml"
    path.write_text(f'id = "usa-{name}"\ntitle = "t"\nextends = "usa"\n[versions.1]\nadd_plugins = ["{name}"]\n',
                    encoding="utf-8")
    return path


def test_the_example_house_variant_passes_the_conformance_check():
    with manager.local_plugins(house_rules()):
        result = CliRunner().invoke(main, ["variants", "check", str(HOUSE_VARIANT), "--play", "20"])
    assert result.exit_code == 0, result.output
    assert "ok (usa-house, rules versions 1-1; 20 games played)" in result.output


@pytest.mark.parametrize("cls,symptom", [(LuckyDraws, "cards: "), (Grumpy, "PluginFailed")])
def test_a_broken_house_rule_fails_the_check_naming_the_seed(tmp_path, cls, symptom):
    name = cls.__name__.lower()
    with manager.local_plugins({name: cls}):
        result = CliRunner().invoke(main, ["variants", "check", str(extending(tmp_path, name)), "--play", "50"])
    assert result.exit_code == 1, result.output
    assert "FAILED" in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert errors and all(re.search(rf"usa-{name} v1 seed \d+ \(\d players\)", e) for e in errors)
    assert any(symptom in e for e in errors)
    # the seed given is the game to look at: it fails again on its own
    seed = int(re.search(r"seed (\d+)", errors[0])[1])
    from ttr_core import variant

    with manager.local_plugins({name: cls}):
        again = testing.conformance_problems(variant.load(str(extending(tmp_path, name))), 1, first_seed=seed)
    assert again and f"seed {seed}" in again[0]


def test_the_check_reports_json_for_scripts(tmp_path):
    import json

    with manager.local_plugins({"luckydraws": LuckyDraws}):
        result = CliRunner().invoke(main, ["variants", "check", str(extending(tmp_path, "luckydraws")), "--play", "5", "--json"])
    data = json.loads(result.stdout)
    assert result.exit_code == 1 and data["ok"] is False and data["games"] == 5 and data["problems"]


# --- the example package, installed for real ------------------------------------------------------


@pytest.mark.packaging
def test_the_example_package_installs_and_its_kit_tests_pass_in_a_fresh_venv(project_wheel, tmp_path):
    env = tmp_path / "venv"
    # installed from a copy: the build leaves nothing in the source tree, and no stale build is reused
    source = tmp_path / "house-rules"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "tests"))
    bin_dir = fresh_venv(env, project_wheel, source, "pytest")
    python = str(bin_dir / "python")

    # the example's tests, away from every source folder: only what was installed can be imported
    work = tmp_path / "elsewhere"
    shutil.copytree(EXAMPLE / "tests", work / "tests")
    ran = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=work,
                         capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-2000:]
    assert re.search(r"\b(\d+) passed\b", ran.stdout) and " failed" not in ran.stdout

    where = subprocess.run([python, "-c", "import ttr_house_rules, ttr_core; print(ttr_house_rules.__file__, ttr_core.__file__)"],
                           cwd=work, capture_output=True, text=True, check=True).stdout
    assert str(env) in where.split()[0] and str(env) in where.split()[1]  # both came from the venv

    listed = subprocess.run([str(bin_dir / "ttr"), "variants", "--json"], cwd=work, capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    assert "usa-house" in listed.stdout
    checked = subprocess.run([str(bin_dir / "ttr"), "variants", "check", "usa-house", "--play", "4"], cwd=work,
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "4 games played" in checked.stdout


@pytest.mark.packaging
def test_the_example_readme_works_as_written_in_a_fresh_checkout(tmp_path):
    """examples/house-rules/README.md: its shell block, run as it stands from the root of a copy of
    the checkout (the engine is not on the package index), in a fresh virtual environment."""
    readme = (EXAMPLE / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", readme, re.S).group(1)
    checkout = tmp_path / "checkout"
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for name in files:
        source = ROOT / name
        if source.is_file():
            (checkout / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, checkout / name)
    ran = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=checkout, capture_output=True, text=True,
                         timeout=1200, env={k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"})
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert "ok (usa-house" in ran.stdout and "Final scores" in ran.stdout
    assert re.search(r"=+ \d+ passed in ", ran.stdout) and not re.search(r"\b\d+ failed\b", ran.stdout)
