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
    assert [t.split("#")[0] for t in ann["tickets_completed"]] == ["Salt Lake City-Kansas City"]
    assert ann["tickets_failed"] == ["Denver-El Paso"]
    assert ann["bonuses"][0]["name"] == "longest-path" and ann["bonuses"][0]["detail"] == "12 spaces"
    assert (bob["routes"], bob["total"]) == (22, 13)
    assert data["result"]["winners"]["seats"] == [0]


def test_score_a_route_of_a_double_by_colour(tmp_path):
    """"Denver-Kansas City/black" names that route of the double: B may name the other colour, or just
    "Denver-Kansas City" (the free one), but not A's colour again."""
    path = tmp_path / "p.json"

    def score(a: str, b: str, code: int = 0):
        path.write_text(json.dumps({"variant": "usa", "players": [{"name": "A", "routes": [a]}, {"name": "B", "routes": [b]}]}),
                        encoding="utf-8")
        return run("score", path, "--json", code=code)

    for mine, other in (("black", "orange"), ("orange", "black")):
        data = json.loads(score(f"Denver-Kansas City/{mine}", f"Denver-Kansas City/{other}").stdout)
        assert [s["routes"] for s in data["result"]["scores"]] == [7, 7]
        score(f"Denver-Kansas City/{mine}", "Denver-Kansas City")
        taken = score(f"Denver-Kansas City/{mine}", f"Denver-Kansas City/{mine}", code=2)
        assert f"$.players[1].routes[0]: Denver-Kansas City/{mine} is owned by seat 0 already" in taken.output


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
        (["play", "--bots", "genius"], "unknown bot(s) genius"),
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
    play = subprocess.run([*cmd, "play", "--seed", "1", "--players", "3", "--out", str(out), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert play.returncode == 0, play.stderr
    replay = subprocess.run([*cmd, "replay", str(out), "--json"], capture_output=True, text=True, timeout=120)
    assert replay.returncode == 0, replay.stderr
    assert json.loads(play.stdout)["result"] == json.loads(replay.stdout)["result"]
    bad = subprocess.run([*cmd, "variants", "check", str(tmp_path / "nope.toml")], capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "nope.toml" in bad.stderr


def test_names_that_look_like_console_markup_are_printed_literally(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"variant": "usa", "players": [
        {"name": "[/x]", "routes": ["Calgary-Winnipeg"]}, {"name": "[bold]Eve[/bold]", "routes": []},
    ]}), encoding="utf-8")
    out = run("score", path).output
    assert "[/x] *" in out and "[bold]Eve[/bold]" in out
    assert "Winner: [/x] (decided by score)" in out
