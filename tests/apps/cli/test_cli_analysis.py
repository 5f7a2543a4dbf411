"""``ttr simulate``, ``ttr rescore``, ``ttr compare`` from the command line: options, output, exit codes."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ttr_core import record, variant
from ttr_analysis import compare, simulate
from ttr_analysis.rescore import Target
from ttr_cli.main import main


def _run(*args: str, code: int = 0):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    assert result.exit_code == code, (result.output, result.exception)
    return result


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")
    result = _run("simulate", "--variant", "wor", "--games", "3", "--seed", "5", "--workers", "1", "--out", str(folder), "--json")
    return folder, json.loads(result.stdout)


def test_simulate_writes_records_that_replay_and_summarises_them(records):
    folder, summary = records
    files = sorted(p.name for p in folder.glob("*.json"))
    assert files == ["wor-v2-seed5.json", "wor-v2-seed6.json", "wor-v2-seed7.json"]
    games = [record.replay(record.load(folder / f)) for f in files]
    assert summary["games"] == 3 and summary["seeds"] == [5, 7] and summary["version"] == 2
    for seat in range(4):
        totals = [g.result.scores[seat].total for g in games]
        assert summary["seats"][seat]["score"]["mean"] == round(sum(totals) / 3, 2)
        assert summary["seats"][seat]["bot"] == "ticket"
    assert summary["timing"]["workers"] == 1


def test_simulate_text_output():
    result = _run("simulate", "--variant", "usa", "--games", "2", "--players", "3", "--bots", "ticket,random", "--workers", "1")
    assert "2 games of usa@1, 3 players" in result.stdout
    assert "Winner decided by" in result.stdout and "games/s" in result.stdout


def test_rescore_a_folder_under_two_rule_sets(records):
    folder, _ = records
    result = _run("rescore", str(folder), "--variant", "wor", "--variant", "wor-legacy", "--json")
    data = json.loads(result.stdout)
    assert [g["seed"] for g in data["games"]] == [5, 6, 7]
    for g in data["games"]:
        assert [(r["variant"], r["version"]) for r in g["rescored"]] == [("wor", 2), ("wor-legacy", 1)]
        assert {d["line"] for d in g["differences"]} <= {"ticket-leader", "total"}
        winners = [r["winners"] for r in g["rescored"]]
        assert g["winner_changes"] == (set(winners[0]) != set(winners[1]))
    text = _run("rescore", str(folder / "wor-v2-seed5.json"), "--variant", "wor@1", "--variant", "wor@2").stdout
    assert "total wor@1" in text and "total wor@2" in text and "game(s) rescored" in text


def test_rescore_under_a_rule_set_that_cannot_read_the_game_exits_2(records):
    folder, _ = records
    result = _run("rescore", str(folder / "wor-v2-seed5.json"), "--variant", "europe", code=2)
    assert "cannot score under europe" in result.output


def test_compare_json_gives_the_library_numbers_and_writes_the_plot(tmp_path):
    result = _run("compare", "--variant", "wor", "--variant", "wor-legacy", "--games", "3", "--seed", "2",
                  "--workers", "1", "--out", str(tmp_path), "--json")
    data = json.loads(result.stdout)
    expected = compare.report(compare.compare(Target("wor"), Target("wor-legacy"), 3, 2))
    assert {k: v for k, v in data.items() if k != "plots"} == json.loads(json.dumps(expected))
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "compare-wor-v2-vs-wor-legacy-v1.png", "compare-wor-v2-vs-wor-legacy-v1.svg",
    ]


def test_compare_text_output(tmp_path):
    result = _run("compare", "--variant", "wor@2", "--variant", "wor@1", "--games", "2", "--workers", "1",
                  "--out", str(tmp_path), "--save-records")
    # every line the comparison scored is in the table (the ticket-leader's only where a game had
    # one leader: a tie at the top gives it to nobody, R-BON-2)
    lines = compare.report(compare.compare(Target.parse("wor@2"), Target.parse("wor@1"), 2, 1))["lines"]
    assert "Winner changes:" in result.stdout and "routes" in lines
    assert all(f"│ {line}" in result.stdout for line in lines)
    assert len(list((tmp_path / "records").glob("*.json"))) == 2


@pytest.mark.parametrize("args", [
    ("compare", "--variant", "wor", "--games", "2"),
    ("compare", "--variant", "wor@x", "--variant", "wor", "--games", "2"),
    ("simulate", "--variant", "wor", "--games", "2", "--bots", "clever"),
    ("simulate", "--variant", "usa", "--games", "2", "--players", "6"),
    ("simulate", "--variant", "nowhere", "--games", "2"),
])
def test_bad_input_exits_2_with_a_message(args):
    result = _run(*args, code=2)
    assert "error:" in result.output


def test_default_player_count_fits_the_variant():
    assert compare.default_players(Target("wor")) == 4
    assert simulate.local_cores() >= 1


def test_rescore_prints_names_from_records_literally(tmp_path):
    from ttr_core import variant
    from ttr_kit import testing
    from ttr_core.game import Game

    game = testing.play_to_end(Game(variant.load("wor"), ["[/x]", "[bold]B"], 3), ("ticket",), check=False)
    record.save(game, tmp_path / "odd.json")
    result = _run("rescore", str(tmp_path / "odd.json"), "--variant", "wor", "--variant", "wor-legacy")
    assert "[/x]" in result.stdout and "[bold]B" in result.stdout


# --- rescore: one target, broken records, other maps ---------------------------------------------


@pytest.fixture(scope="module")
def wor1_records(tmp_path_factory):
    """Two wor games played under rules version 1 (no ticket-leader bonus), and who would get it."""
    import ttr_bots

    folder = tmp_path_factory.mktemp("wor1")
    leaders = {}
    for seed in (4, 5):
        game = ttr_bots.play_game(variant.load("wor", 1), 4, seed, ("ticket",))
        record.save(game, folder / f"wor-v1-seed{seed}.json")
        done = [len(s.tickets_completed) for s in game.result.scores]
        assert done.count(max(done)) == 1 and max(done) > 0  # a single leader: version 2 gives +10
        leader = game.result.scores[done.index(max(done))]
        leaders[seed] = (leader.name, leader.total)
    return folder, leaders


def test_rescore_under_one_target_compares_with_the_recorded_result(wor1_records):
    folder, leaders = wor1_records
    path = folder / "wor-v1-seed4.json"
    name, total = leaders[4]
    data = json.loads(_run("rescore", str(path), "--variant", "wor@2", "--json", code=0).stdout)
    (game,) = data["games"]
    assert game["compared_with_record"] is True
    assert (game["recorded"]["variant"], game["recorded"]["version"]) == ("wor", 1)
    assert game["differences"] == [
        {"player": name, "line": "ticket-leader", "values": [0, 10]},
        {"player": name, "line": "total", "values": [total, total + 10]},
    ]
    text = _run("rescore", str(path), "--variant", "wor@2").stdout
    assert "total as recorded (wor@1)" in text and "total wor@2" in text
    row = next(line for line in text.splitlines() if line.startswith(f"│ {name} "))
    assert f"ticket-leader 0→10, total {total}→{total + 10}" in row


def test_a_broken_record_is_reported_and_the_others_are_still_rescored(wor1_records, tmp_path):
    folder, leaders = wor1_records
    for p in folder.glob("*.json"):
        (tmp_path / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    text = (folder / "wor-v1-seed4.json").read_text(encoding="utf-8")
    (tmp_path / "wor-v1-seed4b.json").write_text(text[: len(text) // 2], encoding="utf-8")  # cut in half
    result = _run("rescore", str(tmp_path), "--variant", "wor@2", code=2)
    assert "Traceback" not in result.output
    assert result.stdout.count("played under wor@1") == 2  # both good games shown
    assert "2 game(s) rescored" in result.stdout and "1 record(s) could not be read" in result.stdout
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert errors and all(line.startswith(f"error: {tmp_path / 'wor-v1-seed4b.json'}: ") for line in errors)
    data = json.loads(_run("rescore", str(tmp_path), "--variant", "wor@2", "--json", code=2).stdout)
    assert [g["seed"] for g in data["games"]] == [4, 5]
    assert [b["record"] for b in data["broken"]] == [str(tmp_path / "wor-v1-seed4b.json")]


def test_rule_sets_on_different_maps_are_refused_up_front_with_one_message(wor1_records):
    folder, _ = wor1_records
    result = _run("rescore", str(folder), "--variant", "wor", "--variant", "europe", code=2)
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "error: these rule sets play on different maps, so no game can be scored under all of them: "
        "wor@2 on map 'usa'; europe@1 on map 'europe'",
    ]


def test_a_record_on_another_map_than_the_target_is_one_message(wor1_records):
    folder, _ = wor1_records
    result = _run("rescore", str(folder / "wor-v1-seed4.json"), "--variant", "europe", code=2)
    assert result.stderr.splitlines() == [
        f"error: {folder / 'wor-v1-seed4.json'}: cannot score under europe: europe@1 plays on map 'europe', "
        "the game was played on map 'usa'",
    ]
