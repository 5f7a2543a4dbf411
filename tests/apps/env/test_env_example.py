"""docs/examples/train_maskable_ppo.py, the worked example of training an agent on the
environment: it trains sb3-contrib's MaskablePPO for a few hundred steps and plays the result
against a shipped bot (the ``rl`` extra; skipped without it)."""

from __future__ import annotations

import importlib.util
import os

import pytest
from usa_kit import ROOT

# tox's rl environment installs the extra and sets TTR_NEEDS_RL, so that there a missing extra fails
if not os.environ.get("TTR_NEEDS_RL"):
    pytest.importorskip("sb3_contrib", reason="needs the rl extra (pip install '.[rl]'): sb3-contrib, Stable-Baselines3, PyTorch")

EXAMPLE = ROOT / "docs" / "examples" / "train_maskable_ppo.py"


def test_the_worked_example_trains_a_few_hundred_steps_and_plays_the_shipped_bots():
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    rows = example.main(["--steps", "200", "--eval-bots", "random", "--eval-games", "2", "--seed", "3"])
    assert [(r["bot"], r["games"]) for r in rows] == [("random", 2)]
    assert 0 <= rows[0]["wins"] <= 2
