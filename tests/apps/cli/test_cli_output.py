"""What ``ttr`` prints on first contact: a bot game that looks like a real one (ticket-seeking bots, a
turn log naming the cards taken and paid, the final round announced), a score table with every
bonus of the rule set, replays that say they reproduced, and variants shown and checked in full."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

import ttr_bots as bots
from ttr_core import record, variant
from ttr_cli.main import main


def run(*args, code: int = 0):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == code, (result.output, result.exception)
    assert "Traceback" not in result.output
    return result


def cells(output: str, name: str) -> list[str]:
    row = next(line for line in output.splitlines() if line.startswith(f"│ {name} "))
    return [c.strip() for c in row.split("│")[2:-1]]


def header(output: str) -> list[str]:
    line = next(line for line in output.splitlines() if line.startswith("┃ Player"))
    return [c.strip() for c in line.split("┃")[1:-1]]


# --- ttr play ---------------------------------------------------------------------------------------


def test_play_uses_the_ticket_seeking_bots_by_default(tmp_path):
    run("play", "--seed", "1", "--players", "3", "--quiet", "--out", tmp_path / "g.json")
    ticket = bots.play_game(variant.load("usa"), 3, 1, ("ticket",))
    assert (tmp_path / "g.json").read_text(encoding="utf-8") == record.dumps(record.make_record(ticket))
    assert min(s.total for s in ticket.result.scores) > 0  # not random bots' -136


def test_play_with_random_bots_still_works(tmp_path):
    run("play", "--seed", "1", "--players", "3", "--bots", "random", "--quiet", "--out", tmp_path / "g.json")
    random_game = bots.play_game(variant.load("usa"), 3, 1, ("random",))
    assert (tmp_path / "g.json").read_text(encoding="utf-8") == record.dumps(record.make_record(random_game))


def _expected_turns(variant_id: str, players: int, seed: int):
    """What each turn of the game must say, found independently of the log: per turn (its number),
    the face-up cards taken (the card in that slot before the pick), the claims with their
    payments (from the action: the route's length less the locomotives, in the colour), and
    whether the final round began after it."""
    ruleset = variant.load(variant_id)
    turns: list[tuple[int, list[str], bool]] = []
    state = {"row": None, "final": None, "phase": None, "parts": []}

    def start(game):
        state["row"], state["phase"] = list(game.state.open_row), game.state.phase

    def act(game, seat, action):
        names = game.cards.names
        if action.kind == "draw-card" and action.slot is not None:
            state["parts"].append(f"face-up {names[state['row'][action.slot]]}")
        if action.kind == "claim-route" and game.state.players[seat].decision is None:
            route = game.board.find_route(action.route)
            colored = route.length - action.locomotives
            paid = [f"{colored} {action.color}"] if colored else []
            if action.locomotives:
                paid.append(f"{action.locomotives} locomotive{'s' if action.locomotives > 1 else ''}")
            state["parts"].append(f"claimed {route.id} with {' + '.join(paid)}")
        if game.state.players[seat].decision is None and state["phase"] != "setup":  # the turn is over
            began = state["final"] is None and game.state.final_round is not None
            turns.append((game.state.turn, state["parts"], began))
            state["parts"] = []
        state["row"], state["phase"], state["final"] = list(game.state.open_row), game.state.phase, game.state.final_round

    bots.play_game(ruleset, players, seed, ("ticket",), on_action=act, on_start=start)
    return turns


@pytest.mark.parametrize(("variant_id", "seed"), [("usa", 3), ("usa", 8)])
def test_the_turn_log_names_the_cards_taken_and_paid_and_announces_the_final_round(variant_id, seed):
    lines = run("play", "--variant", variant_id, "--seed", seed, "--players", "4").output.splitlines()
    turns = _expected_turns(variant_id, 4, seed)
    by_turn = {int(m[1]): line for line in lines if (m := re.match(r"\s*T(\d+) P\d: ", line))}
    face_up = claims = 0
    for turn, parts, began in turns:
        line = by_turn[turn]
        for part in parts:
            assert part in line, (turn, part, line)
            face_up += part.startswith("face-up")
            claims += part.startswith("claimed")
        if began:
            following = lines[lines.index(line) + 1]
            assert re.fullmatch(r"\s*-- final round: P\d has \d trains? left; every player plays one last turn --", following)
    assert face_up > 10 and claims > 10
    assert sum("-- final round" in line for line in lines) == 1
    assert sum(1 for line in lines if line.lstrip().startswith("setup P")) == 4
    assert all("draw slot" not in line and "draw deck" not in line for line in lines)
    assert any("drew 2 cards from the deck" in line for line in lines)


def test_the_turn_log_tells_tunnels_and_stations():
    out = run("play", "--variant", "europe", "--seed", "3", "--players", "4").output
    assert re.search(r"tried the tunnel \S.* with \d+ \w+.*; revealed .*: \d more cards? to pay, then "
                     r"(paid \d+ \w+.* more and claimed|gave up the tunnel)", out)
    assert re.search(r"built a station in \w+ with \d+ \w+", out)


# --- the score table ------------------------------------------------------------------------------


def test_the_table_keeps_a_bonus_nobody_earned(tmp_path):
    """wor version 2: P1 and P2 complete one ticket each, a tie at the top: nobody gets the
    ticket-leader bonus (R-BON-2), and its column still says so. P1's trail of 4 spaces is the
    longest: +10. P1: 4 + 4 + 10 = 18; P2: Kansas City-Omaha (1) + its ticket (1) = 2."""
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"variant": "wor", "players": [
        {"name": "P1", "routes": ["Denver-Santa Fe", "El Paso-Santa Fe"], "tickets": ["Denver-El Paso"]},
        {"name": "P2", "routes": ["Kansas City-Omaha/1"], "tickets": [{"from": "Kansas City", "to": "Omaha", "points": 1}]},
    ]}), encoding="utf-8")
    out = run("score", path).output
    assert header(out) == ["Player", "Routes", "Tickets done", "Tickets failed", "Ticket pts", "longest-path",
                           "ticket-leader", "Total"]
    assert cells(out, "P1 *") == ["4", "1", "0", "+4", "10", "0", "18"]
    assert cells(out, "P2") == ["1", "1", "0", "+1", "0", "0", "2"]


def test_the_table_of_ussr_has_every_majority_bonus_even_at_zero(tmp_path):
    board = variant.load("ussr").board
    plain = next(r for r in board.routes if not r.tunnel and not r.ferry)
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"variant": "ussr", "players": [
        {"name": "A", "routes": [plain.id]}, {"name": "B"},
    ]}), encoding="utf-8")
    out = run("score", path).output
    assert header(out)[5:-1] == ["longest-path", "most-ferries", "most-tickets", "most-tunnels", "unused-stations"]
    assert cells(out, "B")[4:-1] == ["0", "0", "0", "0", "12"]  # 3 unused stations: 12


def test_notes_come_before_the_winner_line(tmp_path):
    path = tmp_path / "position.json"
    path.write_text(json.dumps({"variant": "europe", "players": [
        {"name": "Ann", "routes": ["Edinburgh-London/black", "Dieppe-London/1"], "tickets": ["Edinburgh-Paris"],
         "stations": ["Paris"]},
        {"name": "Bob", "routes": ["Bruxelles-Paris/yellow", "Dieppe-Paris"]},
    ]}), encoding="utf-8")
    lines = run("score", path).output.splitlines()
    note = lines.index("  Ann: station in Paris borrowed Dieppe-Paris")
    winner = next(i for i, line in enumerate(lines) if line.startswith("Winner:"))
    assert note < winner == len(lines) - 1


# --- ttr replay -----------------------------------------------------------------------------------


def test_replay_says_the_record_reproduced(tmp_path):
    path = tmp_path / "g.json"
    run("play", "--seed", "2", "--players", "2", "--quiet", "--out", path)
    actions = len(json.loads(path.read_text(encoding="utf-8"))["actions"])
    out = run("replay", path).output
    assert f"{path}: reproduced byte for byte ({actions} actions replayed; digest, end and stated result checked)" in out


# --- ttr variants show / check --------------------------------------------------------------------


def test_show_gives_the_variants_own_history_and_what_it_extends():
    legacy = json.loads(run("variants", "show", "wor-legacy", "--json").stdout)
    assert legacy["history"] == [{"version": 1, "note": "wor rules version 1: no ticket-leader bonus."}]
    assert {k: legacy["extends"][k] for k in ("variant", "version", "pinned")} == {"variant": "wor", "version": 1, "pinned": True}
    text = run("variants", "show", "wor-legacy").output
    assert "extends wor at rules version 1 (pinned)" in text
    assert "  v1 (shown, current): wor rules version 1: no ticket-leader bonus." in text
    assert "v2" not in text  # wor's own versions are wor's history, not this variant's
    wor = json.loads(run("variants", "show", "wor", "--version", "1", "--json").stdout)
    assert [h["version"] for h in wor["history"]] == [1, 2] and (wor["version"], wor["current"]) == (1, 2)
    assert wor["extends"] is None
    assert "ticket-leader" not in wor["plugins"]


def test_show_gives_every_parameter_in_force_defaults_included():
    shown = json.loads(run("variants", "show", "usa", "--json").stdout)
    # usa.toml gives no [rules.train-cards] table and no open-row size: the defaults are in force
    assert shown["plugins"]["train-cards"] == {"per_color": 12, "locomotives": 14, "starting_hand": 4,
                                               "face_up_locomotive_ends_draw": True}
    assert shown["plugins"]["open-row"]["size"] == 5 and shown["plugins"]["claiming"] == {}
    text = run("variants", "show", "usa").output
    assert "  train-cards: per_color = 12, locomotives = 14, starting_hand = 4, face_up_locomotive_ends_draw = true" in text
    assert "  claiming: (no parameters)" in text


MULTI = """\
id = "multi"
title = "A problem in every version"
extends = "usa"

[versions.1]
note = "a bad parameter"
[versions.1.rules.open-row]
refill = "sometimes"

[versions.2]
note = "a plugin added twice"
add_plugins = ["passing"]
"""

PLUGINS = """\
id = "plugins"
title = "Plugin problems in a later version"
extends = "usa"

[versions.1]
note = "fine"

[versions.2]
note = "stations without the tickets they need"
remove_plugins = ["tickets"]
add_plugins = ["stations"]

[versions.3]
note = "and a bad parameter"
[versions.3.rules.final-round]
trains_threshold = "two"
"""


@pytest.mark.parametrize(("text", "pieces"), [
    (MULTI, ["$.versions.1.rules.open-row.refill: 'sometimes' is not one of", "$.versions.2.add_plugins: 'passing' is enabled already"]),
    (PLUGINS, ["$.versions.2: plugin 'stations' requires 'tickets'", "$.versions.3.rules.final-round.trains_threshold"]),
])
def test_check_reports_the_problems_of_every_version_at_once(tmp_path, text, pieces):
    name = re.search(r'id = "(\w+)"', text)[1]
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    result = run("variants", "check", path, code=2)
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    for piece in pieces:
        assert sum(piece in line for line in errors) == 1, (piece, errors)
    assert all(line.startswith(f"error: {path}: $.versions.") for line in errors)
    data = json.loads(run("variants", "check", path, "--json", code=2).stdout)
    assert data["ok"] is False and all(any(piece in p["message"] for p in data["problems"]) for piece in pieces)
    assert result.stdout == ""  # nothing but the located problems
