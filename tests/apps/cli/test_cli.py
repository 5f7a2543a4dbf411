"""The ``ttr`` command line: play, replay, score, variants; ``--json`` everywhere; bad input gives
located messages and exit code 2, never a traceback."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner
from usa_kit import DATA

from ttr_cli.main import main

POSITION = DATA / "position_usa.json"


def run(*args: str, code: int = 0):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    if code == 0:
        assert result.exception is None, result.exception
    return result


def run_json(*args: str):
    return json.loads(run(*args, "--json").stdout)


def test_play_then_replay(tmp_path):
    out = tmp_path / "f.json"
    played = run("play", "--seed", "1", "--players", "3", "--out", out)
    assert out.is_file()
    assert "Winner:" in played.output
    assert "R-END-1" in played.output or "R-TURN-2" in played.output
    replayed = run("replay", out)
    # the same final table and winner line
    table = played.output[played.output.index("Final scores"):]
    assert replayed.output.endswith(table)
    assert json.loads(out.read_text(encoding="utf-8"))["players"] == ["P1", "P2", "P3"]


def test_play_and_replay_json_agree(tmp_path):
    out = tmp_path / "g.json"
    played = run_json("play", "--seed", "4", "--players", "2", "--out", out)
    replayed = run_json("replay", out)
    assert played["variant"] == replayed["variant"] == "usa"
    assert replayed["reproduced"] is True
    assert played["result"] == replayed["result"]
    totals = [s["total"] for s in played["result"]["scores"]]
    assert [s["name"] for s in played["result"]["scores"]] == ["P1", "P2"]
    winners = played["result"]["winners"]["seats"]
    assert winners and all(totals[w] == max(totals) for w in winners)


def test_the_final_table_json_has_each_trail_and_each_station(tmp_path):
    """The result as data for hosts: per player the longest trail, per station its borrowed route
    (or null), in ``play`` and ``replay`` alike (R-BON-1, R-STA-3)."""
    out = tmp_path / "e.json"
    played = run_json("play", "--variant", "europe", "--bots", "ticket", "--seed", "4", "--players", "3", "--out", out)
    assert run_json("replay", out)["result"] == played["result"]
    stations = 0
    for score in played["result"]["scores"]:
        assert isinstance(score["facts"]["longest-path"], int)
        bonus = [b for b in score["bonuses"] if b["name"] == "longest-path"]
        assert not bonus or bonus[0]["detail"] == f"{score['facts']['longest-path']} spaces"
        cities = [s["city"] for s in score["facts"]["stations"]]
        assert [b["label"] for b in score["borrows"]] == [f"station in {c}" for c in cities]
        assert [s["borrowed"] for s in score["facts"]["stations"]] == [b["route"] for b in score["borrows"]]
        stations += len(cities)
    assert stations  # the ticket bots build stations


def test_same_seed_same_record_bytes(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    run("play", "--seed", "9", "--players", "4", "--quiet", "--out", a)
    run("play", "--seed", "9", "--players", "4", "--quiet", "--out", b)
    assert a.read_bytes() == b.read_bytes()


def test_score_prints_the_breakdown_and_the_winner():
    """The position (tests/data/position_usa.json), by hand: Ann owns Denver-Kansas City/black (7),
    Kansas City-Omaha (1), Omaha-Denver (7), Salt Lake City-Denver (4) = 19; her custom ticket Salt Lake
    City-Kansas City (9) is done, Denver-El Paso (4) failed: +5; her trail of 12 beats Bob's 10: +10;
    34. Bob: Seattle-Helena (15) + Helena-Winnipeg (7) = 22, Seattle-Los Angeles failed -9: 13."""
    out = run("score", POSITION).output
    for header in ("Routes", "Tickets done", "Tickets failed", "Ticket pts", "longest-path", "Total"):
        assert header in out
    ann = next(line for line in out.splitlines() if "Ann" in line)
    bob = next(line for line in out.splitlines() if "Bob" in line)
    assert [c.strip() for c in ann.split("│")[2:-1]] == ["19", "1", "1", "+5", "10", "34"]
    assert [c.strip() for c in bob.split("│")[2:-1]] == ["22", "0", "1", "-9", "0", "13"]
    assert "Ann *" in ann and "*" not in bob
    assert "Winner: Ann (decided by score)" in out


def test_score_json_reads_a_chosen_double_and_a_custom_ticket():
    data = run_json("score", POSITION)
    ann, bob = data["result"]["scores"]
    assert (ann["routes"], ann["ticket_points"], ann["total"]) == (19, 5, 34)
    assert ann["tickets_completed"] == ["Salt Lake City-Kansas City"]  # the name given, no "#30" suffix
    assert ann["tickets_failed"] == ["Denver-El Paso"]
    assert ann["bonuses"][0]["name"] == "longest-path" and ann["bonuses"][0]["detail"] == "12 spaces"
    assert (bob["routes"], bob["total"]) == (22, 13)
    assert data["result"]["winners"]["seats"] == [0]


def test_score_a_route_of_a_double_by_colour(tmp_path):
    """"Denver-Kansas City/black" names that route of the double: with 4 players (R-PAR-2 does not
    close doubles) B may name the other colour, or just "Denver-Kansas City" (the free one), but
    not A's colour again, which is taken, and by A."""
    path = tmp_path / "p.json"

    def score(a: str, b: str, code: int = 0):
        players = [{"name": "A", "routes": [a]}, {"name": "B", "routes": [b]}, {"name": "C"}, {"name": "D"}]
        path.write_text(json.dumps({"variant": "usa", "players": players}), encoding="utf-8")
        return run("score", path, "--json", code=code)

    for mine, other in (("black", "orange"), ("orange", "black")):
        data = json.loads(score(f"Denver-Kansas City/{mine}", f"Denver-Kansas City/{other}").stdout)
        assert [s["routes"] for s in data["result"]["scores"]] == [7, 7, 0, 0]
        score(f"Denver-Kansas City/{mine}", "Denver-Kansas City")
        taken = score(f"Denver-Kansas City/{mine}", f"Denver-Kansas City/{mine}", code=2)
        assert f"$.players[1].routes[0]: Denver-Kansas City/{mine} is taken by seat 0 (A) (R-ROUTE-5)" in taken.output


@pytest.mark.parametrize(
    ("players", "problem"),
    [
        pytest.param([{"routes": ["Denver-Kansas City/black", "Denver-Kansas City/orange"]}, {}, {}, {}],
                     "$.players[0].routes[1]: Denver-Kansas City/orange is closed to this player (own-parallel): "
                     "you own the parallel route Denver-Kansas City/black (R-PAR-1)", id="R-PAR-1"),
        pytest.param([{"routes": ["Portland-Seattle/1"]}, {"routes": ["Denver-Omaha", "Duluth-Helena", "Seattle-Portland/2"]}],
                     "$.players[1].routes[2]: Portland-Seattle/2 is closed to this player (closed-parallel): the parallel "
                     "route Portland-Seattle/1 is taken, and with 2 players the others close (R-PAR-2)", id="R-PAR-2"),
        pytest.param([{"tickets": ["Denver-El Paso", "Boston-Miami", "Denver-El Paso"]}, {}],
                     "$.players[0].tickets[2]: Denver-El Paso is held by this player already", id="a ticket twice"),
        pytest.param([{"tickets": ["Denver-El Paso"]}, {"tickets": ["Boston-Miami", "Denver-El Paso"]}],
                     "$.players[1].tickets[1]: Denver-El Paso is held by seat 0 (P1) already", id="a ticket of two players"),
        pytest.param([{"routes": ["Portland-Seattle/1"]}, {"routes": ["Seattle-Portland/1"]}, {}, {}],
                     "$.players[1].routes[0]: Portland-Seattle/1 is taken by seat 0 (P1) (R-ROUTE-5)", id="taken"),
        pytest.param([{"routes": ["Denver-Kansas City/blue"]}, {}],
                     "$.players[0].routes[0]: no route 'Denver-Kansas City/blue' on map 'usa': the routes between Denver "
                     "and Kansas City are Denver-Kansas City/black, Denver-Kansas City/orange", id="misnamed double"),
    ],
)
def test_score_refuses_a_position_the_rules_could_not_produce(tmp_path, players, problem):
    path = tmp_path / "position.json"
    players = [{"name": f"P{i + 1}", **p} for i, p in enumerate(players)]
    path.write_text(json.dumps({"variant": "usa", "players": players}), encoding="utf-8")
    result = run("score", path, code=2)
    assert f"error: {path}: {problem}" in " ".join(result.stderr.split())


def test_score_reads_the_position_from_standard_input():
    text = POSITION.read_text(encoding="utf-8")
    piped = CliRunner().invoke(main, ["score", "-", "--json"], input=text)
    assert piped.exit_code == 0, piped.output
    assert json.loads(piped.stdout) == run_json("score", POSITION)
    bad = CliRunner().invoke(main, ["score", "-"], input='{"variant": "usa", "players": [{"routes": ["Denver-Atlantis"]}, {}]}')
    assert bad.exit_code == 2 and "error: <stdin>: $.players[0].routes[0]: no route 'Denver-Atlantis'" in bad.stderr
    broken = CliRunner().invoke(main, ["score", "-"], input="{")
    assert broken.exit_code == 2 and "error: <stdin>: line 1 column 2" in broken.stderr
    assert "Traceback" not in piped.output + bad.output + broken.output


def test_the_installed_command_scores_a_position_piped_in():
    exe = shutil.which("ttr")
    cmd = [exe] if exe else [sys.executable, "-m", "ttr_cli.main"]
    done = subprocess.run([*cmd, "score", "-", "--json"], input=POSITION.read_text(encoding="utf-8"),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"]["winners"]["seats"] == [0]


@pytest.mark.parametrize(
    ("players", "where"),
    [
        ([{"routes": ["Denver-Atlantis"]}, {}], "$.players[0].routes[0]"),
        ([{"routes": ["Denver-Omaha"]}, {"routes": ["Denver-Omaha"]}], "$.players[1].routes[0]"),
        ([{"tickets": [{"from": "Denver", "to": "Atlantis", "points": 3}]}, {}], "$.players[0].tickets[0]"),
        ([{"tickets": [{"from": "Denver", "to": "Omaha", "points": "3"}]}, {}], "$.players[0].tickets[0].points"),
        ([{"stations": ["Denver"]}, {}], "$.players[0].stations"),
    ],
)
def test_score_bad_position_is_located(tmp_path, players, where):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"variant": "usa", "players": players}), encoding="utf-8")
    result = run("score", path, code=2)
    assert f"{path}: {where}" in result.output


def test_variants_json():
    rows = run_json("variants")
    usa = next(r for r in rows if r["id"] == "usa")
    assert usa == {"id": "usa", "title": "Ticket to Ride: USA", "version": 1, "map": "usa", "players": "2-5", "ok": True}
    shown = run_json("variants", "show", "usa")
    assert shown["id"] == "usa" and shown["players"] == [2, 5]
    assert shown["map"] == {"id": "usa", "cities": 36, "routes": 100, "tickets": 30, "trains": 45}
    assert shown["plugins"]["open-row"]["refill"] == "immediately"
    assert shown["plugins"]["route-points"]["table"] == {"1": 1, "2": 2, "3": 4, "4": 7, "5": 10, "6": 15}
    checked = json.loads(run("variants", "check", "usa", "--json").stdout)
    assert checked["ok"] is True and checked["versions"] == [1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--players", "7"], "takes 2 to 5 players, not 7"),
        (["play", "--variant", "no-such-variant"], "unknown variant 'no-such-variant'"),
        (["play", "--bots", "genius"], "--bots: unknown bot 'genius'"),
        (["replay", "missing.json"], "cannot read"),
        (["score", "missing.json"], "cannot read"),
        (["variants", "show", "no-such-variant"], "unknown variant"),
        (["variants", "show", "usa", "--version", "5"], "no rules version 5"),
    ],
)
def test_bad_input_exits_2_with_a_message(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    result = run(*args, code=2)
    assert message in result.output


def test_replay_of_a_tampered_record_exits_2(tmp_path):
    out = tmp_path / "f.json"
    run("play", "--seed", "2", "--players", "2", "--quiet", "--out", out)
    text = out.read_text(encoding="utf-8")
    data = json.loads(text)
    data["seed"] = 3
    out.write_text(json.dumps(data), encoding="utf-8")
    result = run("replay", out, code=2)
    assert f"error: {out}" in result.output
    out.write_text(text[: len(text) // 3], encoding="utf-8")
    assert f"error: {out}: line" in run("replay", out, code=2).output


def test_the_installed_command_plays_and_replays(tmp_path):
    """The real entry point, in a process of its own."""
    exe = shutil.which("ttr")
    cmd = [exe] if exe else [sys.executable, "-m", "ttr_cli.main"]
    out = tmp_path / "f.json"
    # outside the repository, so that ``-m`` (when there is no ``ttr`` script) imports the installed package
    play = subprocess.run([*cmd, "play", "--seed", "1", "--players", "3", "--out", str(out), "--json"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert play.returncode == 0, play.stderr
    replay = subprocess.run([*cmd, "replay", str(out), "--json"], capture_output=True, text=True, timeout=120,
                            cwd=tmp_path)
    assert replay.returncode == 0, replay.stderr
    assert json.loads(play.stdout)["result"] == json.loads(replay.stdout)["result"]
    bad = subprocess.run([*cmd, "variants", "check", str(tmp_path / "nope.toml")], capture_output=True, text=True,
                         timeout=120, cwd=tmp_path)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "nope.toml" in bad.stderr


def test_names_that_look_like_console_markup_are_printed_literally(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"variant": "usa", "players": [
        {"name": "[/x]", "routes": ["Calgary-Winnipeg"]}, {"name": "[bold]Eve[/bold]", "routes": []},
    ]}), encoding="utf-8")
    out = run("score", path).output
    assert "[/x] *" in out and "[bold]Eve[/bold]" in out
    assert "Winner: [/x] (decided by score)" in out
