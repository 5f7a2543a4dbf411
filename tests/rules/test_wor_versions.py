"""Rules versions of ``wor`` (R-BON-2: "a game keeps the rules version it was created with"):
version 1 is the rule set before the ticket-leader bonus, which ``wor-legacy`` names; version 2
is current. Records and positions are scored under the version they name, through the library
and through ``ttr replay`` / ``ttr score``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import ttr_bots as bots
from ttr_core import record, variant
from ttr_cli.main import main
from ttr_core.errors import RecordError, VariantError
from ttr_core.position import score_position

WOR_FILE = variant.find_variant("wor")

#: seat 0 completes 2 tickets and has the longest path; see test_wor_rules.py (R-WIN-1)
ROUTES_32 = ["Duluth-Helena", "Helena-Seattle", "Seattle-Vancouver/1", "Portland-Seattle/1"]
TICKETS = [
    {"from": "Duluth", "to": "Seattle", "points": 8},
    {"from": "Helena", "to": "Vancouver", "points": 12},
    {"from": "Miami", "to": "Boston", "points": 7},
]


def pos(other_completes: int) -> dict:
    return {
        "variant": "wor",
        "players": [
            {"name": "Ann", "routes": ROUTES_32, "tickets": TICKETS},
            {"name": "Bob", "routes": ["Atlanta-Nashville"],
             "tickets": [{"from": "Atlanta", "to": "Nashville", "points": 1}] * other_completes},
        ],
    }


def totals(game) -> list[int]:
    return [s.total for s in game.result.scores]


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


# --- the variant files ----------------------------------------------------------------------------


def test_R_BON_2_wor_version_2_is_current_and_adds_only_the_ticket_leader():
    v1, v2 = variant.load("wor", 1), variant.load("wor")
    assert v2.version == 2
    assert "ticket-leader" not in v1.plugins
    assert v2.plugins == (*v1.plugins, "ticket-leader")
    assert {k: v for k, v in v2.configs.items() if k != "ticket-leader"} == dict(v1.configs)
    assert len(v2.notes) == 2 and "ticket-leader" in v2.notes[1]


def test_R_BON_2_wor_legacy_is_wor_version_1():
    legacy, v1 = variant.load("wor-legacy"), variant.load("wor", 1)
    assert legacy.variant == "wor-legacy" and legacy.version == 1
    assert legacy.plugins == v1.plugins and dict(legacy.configs) == dict(v1.configs)
    assert legacy.board.id == "usa" and legacy.players == v1.players


def test_wor_europe_is_wor_version_2_on_the_europe_map():
    we, wor = variant.load("wor-europe"), variant.load("wor", 2)
    assert we.board.id == "europe" and we.players.max == 6
    assert we.plugins == wor.plugins and dict(we.configs) == dict(wor.configs)
    assert we.configs["ferries"].three_for_one
    assert we.configs["tunnels"].revealed_locomotives == "with-locomotive-in-base"
    assert "stations" not in we.plugins
    assert any(r.tunnel for r in we.board.routes) and any(r.ferry for r in we.board.routes)


@pytest.mark.parametrize("vid", ["wor", "wor-legacy", "wor-europe"])
def test_the_variant_files_check(vid):
    result = run("variants", "check", vid)
    assert result.exit_code == 0 and ": ok" in result.output


def test_an_unknown_rules_version_is_a_clear_error(tmp_path):
    with pytest.raises(VariantError, match=r"variant 'wor' has no rules version 3 \(versions: 1, 2\)"):
        variant.load("wor", 3)
    with pytest.raises(VariantError, match="has no rules version 2"):
        variant.load("wor-legacy", 2)
    with pytest.raises(RecordError, match="no rules version 9"):
        score_position({**pos(0), "version": 9})
    path = tmp_path / "p.json"
    path.write_text(json.dumps(pos(0)))
    result = run("score", str(path), "--version", "3")
    assert result.exit_code == 2 and "has no rules version 3" in result.output


# --- positions: wor against wor-legacy --------------------------------------------------------------


def test_R_BON_2_ttr_score_under_wor_and_wor_legacy_differs_by_exactly_the_bonus(tmp_path):
    # Bob completes 1 ticket, Ann 2: Ann is the single ticket leader under version 2
    path = tmp_path / "leader.json"
    path.write_text(json.dumps(pos(1)))
    now = json.loads(run("score", str(path), "--json").output)
    old = json.loads(run("score", str(path), "--variant", "wor-legacy", "--json").output)
    assert (now["variant"], now["version"], old["variant"], old["version"]) == ("wor", 2, "wor-legacy", 1)
    now_totals = [s["total"] for s in now["result"]["scores"]]
    old_totals = [s["total"] for s in old["result"]["scores"]]
    assert now_totals == [65, 1 + 1 + 0] and old_totals == [55, 2]
    leader = [b for b in now["result"]["scores"][0]["bonuses"] if b["name"] == "ticket-leader"]
    assert [b["points"] for b in leader] == [now_totals[0] - old_totals[0]]
    assert not any(b["name"] == "ticket-leader" for s in old["result"]["scores"] for b in s["bonuses"])


def test_R_BON_2_ttr_score_under_wor_and_wor_legacy_agree_where_no_bonus_applies(tmp_path):
    path = tmp_path / "tie.json"
    path.write_text(json.dumps(pos(2)))  # 2 and 2 completed tickets: nobody leads
    now = json.loads(run("score", str(path), "--json").output)
    old = json.loads(run("score", str(path), "--variant", "wor-legacy", "--json").output)
    assert [s["total"] for s in now["result"]["scores"]] == [s["total"] for s in old["result"]["scores"]] == [55, 3]


def test_ttr_score_prints_the_rules_version_it_used(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({**pos(1), "version": 1}))
    result = run("score", str(path))
    assert result.exit_code == 0 and "variant wor, rules version 1" in result.output
    assert "ticket-leader" not in result.output
    path.write_text(json.dumps(pos(1)))
    result = run("score", str(path))
    assert "variant wor, rules version 2" in result.output and "ticket-leader" in result.output


# --- records: a game keeps its rules version -----------------------------------------------------------


@pytest.fixture(scope="module")
def wor_before_version_2(tmp_path_factory) -> Path:
    """``wor.toml`` as it was published before version 2: the same file without version 2."""
    text = WOR_FILE.read_text(encoding="utf-8")
    head = text[: text.index("[versions.2]")]
    lines = [line for line in head.splitlines() if not line.startswith("current =")]
    path = tmp_path_factory.mktemp("old") / "wor.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def old_record(wor_before_version_2) -> dict:
    """A 3-player bot game recorded under the old file, in which one player completed the most tickets."""
    old = variant.load(str(wor_before_version_2))
    assert (old.variant, old.version) == ("wor", 1)
    for seed in range(50):
        game = bots.play_game(old, 3, seed)
        done = sorted((len(s.tickets_completed) for s in game.result.scores), reverse=True)
        if done[0] > done[1]:
            return record.make_record(game)
    pytest.fail("no seed in 0..49 gave a single ticket leader")


def test_R_BON_2_a_version_1_record_replays_under_version_1_after_version_2_is_current(old_record):
    assert old_record["version"] == 1 and variant.load("wor").version == 2
    game = record.replay(old_record)  # the installed wor.toml, whose current version is 2
    assert game.ruleset.version == 1 and "ticket-leader" not in game.ruleset.plugins
    assert {s.name: s.total for s in game.result.scores} == old_record["result"]["scores"]
    assert not any(b.name == "ticket-leader" for s in game.result.scores for b in s.bonuses)


def test_R_BON_2_the_same_game_under_version_2_would_score_the_bonus(old_record):
    newer = record.replay(old_record, version=2)  # same actions, same state: only the scoring differs
    old = record.replay(old_record)
    diff = [n.total - o.total for n, o in zip(newer.result.scores, old.result.scores)]
    assert sorted(diff) == [0, 0, 10]
    leader = diff.index(10)
    assert newer.result.scores[leader].bonus("ticket-leader") == 10


def test_ttr_replay_prints_the_rules_version_of_the_record(old_record, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(record.dumps(old_record), encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 0, result.output
    assert "variant wor, rules version 1" in result.output and "ticket-leader" not in result.output
    data = json.loads(run("replay", str(path), "--json").output)
    assert data["version"] == 1 and data["reproduced"] is True


def test_a_record_naming_an_unknown_version_is_refused(old_record):
    with pytest.raises(RecordError, match="no rules version 3"):
        record.replay({**old_record, "version": 3})
