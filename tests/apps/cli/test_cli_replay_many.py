"""``ttr replay`` takes many records and folders and replays them in one process: one line per
record, a count, and a broken record reported (located) without stopping the others."""

from __future__ import annotations

import json

from click.testing import CliRunner

from ttr_bots import play_game
from ttr_cli.main import main
from ttr_core import record, variant


def _records(folder, seeds):
    rs = variant.load("usa")
    for seed in seeds:
        record.save(play_game(rs, 2, seed, ["random"]), folder / f"game-{seed}.json")


def test_a_folder_of_records_replays_in_one_call(tmp_path):
    _records(tmp_path, range(4))
    result = CliRunner().invoke(main, ["replay", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.output.count("reproduced byte for byte") == 4
    assert "4 of 4 records reproduced" in result.output


def test_a_broken_record_is_reported_and_the_others_still_replay(tmp_path):
    _records(tmp_path, [1, 2])
    broken = tmp_path / "game-1.json"
    broken.write_text(broken.read_text().replace('"kind":"draw-card"', '"kind":"draw-cards"', 1))
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "game-1.json"), str(tmp_path / "game-2.json"), "--json"])
    assert result.exit_code == 2
    data = json.loads(result.output)
    assert (data["reproduced"], data["broken"]) == (1, 1)
    assert data["records"][0]["problems"][0]["message"].startswith(str(broken))
    assert data["problems"] == data["records"][0]["problems"]  # the --json failure shape (docs/cli.md)
    assert data["records"][1]["reproduced"]
