"""Seeded games are byte-identical to the records of a fixed engine state (the same seed and the same
actions give the same bytes; refactorings must not change what a seed plays).

``tests/data/golden_records.json`` holds the sha256 of each game's record text, made at the commit
it names. A change that must alter seeded games re-baselines it and says so in its commit.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from usa_kit import DATA

from ttr_core import record, variant
from ttr_bots import play_game

GOLDEN = json.loads((DATA / "golden_records.json").read_text())


@pytest.mark.parametrize(
    "case", GOLDEN["games"], ids=lambda c: f"{c['variant']}-{c['players']}p-seed{c['seed']}-{'+'.join(c['bots'])}"
)
def test_a_seeded_game_gives_the_recorded_bytes(case):
    game = play_game(variant.load(case["variant"]), case["players"], case["seed"], case["bots"])
    text = record.dumps(record.make_record(game))
    assert len(game.log) == case["actions"]
    assert hashlib.sha256(text.encode()).hexdigest() == case["sha256"]
