"""What a command checks before any work: the optional extras it needs, and the paths it writes to.

A missing library or a bad output path is bad input: a message naming the extra to install or the
path, exit code 2, and no game played, rather than a traceback after minutes of simulation. The
extras are made to fail by putting ``None`` in ``sys.modules`` (an import then fails as if the
library were not installed).
"""

from __future__ import annotations

import os
import sys

import pytest
from click.testing import CliRunner

import ttr_bots
from ttr_analysis import simulate
from ttr_cli.main import main

ANALYSIS = 'pip install "ttr-engine[analysis]"'
SERVE = 'pip install "ttr-engine[serve]"'
COMPARE = ("compare", "--variant", "wor", "--variant", "wor-legacy", "--games", "2", "--workers", "1")
SIMULATE = ("simulate", "--variant", "usa", "--games", "2", "--workers", "1")


def run(*args, code: int = 0):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == code, (result.output, result.exception)
    assert "Traceback" not in result.output
    if code == 2:
        assert isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture
def games_played(monkeypatch):
    """Counts the games ``simulate`` and ``compare`` play (in this process: --workers 1), and the
    games ``ttr play`` plays."""
    played = []
    real_one, real_play = simulate.play_one, ttr_bots.play_game

    def play_one(spec, seed):
        played.append(seed)
        return real_one(spec, seed)

    def play_game(*args, **kwargs):
        played.append(args)
        return real_play(*args, **kwargs)

    monkeypatch.setattr(simulate, "play_one", play_one)
    monkeypatch.setattr(ttr_bots, "play_game", play_game)
    return played


def missing(monkeypatch, *modules):
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


# --- optional extras ------------------------------------------------------------------------------


@pytest.mark.parametrize("asked", [("--plots",), ("--out", "{tmp}")])
def test_compare_plots_without_matplotlib_name_the_extra_before_any_game(monkeypatch, tmp_path, games_played, asked):
    missing(monkeypatch, "matplotlib")
    monkeypatch.chdir(tmp_path)
    result = run(*COMPARE, *(a.format(tmp=tmp_path / "out") for a in asked), code=2)
    assert ANALYSIS in result.output and "matplotlib is not installed" in result.output
    assert games_played == []
    assert list(tmp_path.iterdir()) == []


def test_compare_without_plots_needs_no_matplotlib(monkeypatch, tmp_path, games_played):
    missing(monkeypatch, "matplotlib")
    monkeypatch.chdir(tmp_path)
    result = run(*COMPARE)
    assert "Winner changes:" in result.output and "Plots:" not in result.output
    assert games_played == [1, 2]


@pytest.mark.parametrize("command", [SIMULATE, COMPARE])
def test_a_scheduler_without_dask_names_the_extra_before_any_game(monkeypatch, games_played, command):
    missing(monkeypatch, "distributed")
    result = run(*command, "--scheduler", "local", code=2)
    assert "--scheduler needs the 'analysis' extra (distributed is not installed)" in result.output
    assert ANALYSIS in result.output
    assert games_played == []


@pytest.mark.parametrize("module", ["uvicorn", "fastapi", "sqlalchemy", "alembic"])
def test_serve_without_its_extra_names_it(monkeypatch, module):
    missing(monkeypatch, module)
    result = run("serve", code=2)
    assert f"ttr serve needs the 'serve' extra ({module} is not installed)" in result.output and SERVE in result.output


def test_serve_on_postgresql_without_psycopg_names_the_extra_before_opening_anything(monkeypatch, tmp_path):
    missing(monkeypatch, "psycopg")
    monkeypatch.chdir(tmp_path)
    result = run("serve", "--db", "postgresql://ttr@localhost:1/ttr", code=2)
    assert "ttr serve with PostgreSQL needs the 'serve' extra (psycopg is not installed)" in result.output
    assert SERVE in result.output and "cannot open the database" not in result.output


# --- output paths ---------------------------------------------------------------------------------


def test_play_out_into_a_missing_folder_is_refused_before_the_game(tmp_path, games_played):
    result = run("play", "--seed", "1", "--out", tmp_path / "nowhere" / "game.json", code=2)
    assert f"--out {tmp_path / 'nowhere' / 'game.json'}: the folder '{tmp_path / 'nowhere'}' does not exist" in result.output
    assert games_played == []


def test_play_out_under_a_file_is_refused_before_the_game(tmp_path, games_played):
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    result = run("play", "--seed", "1", "--out", tmp_path / "a-file" / "game.json", code=2)
    assert f"'{tmp_path / 'a-file'}' is not a folder" in result.output
    assert games_played == []


def test_play_out_naming_a_folder_is_refused_before_the_game(tmp_path, games_played):
    result = run("play", "--seed", "1", "--out", tmp_path, code=2)
    assert "is a directory" in result.output or "is a folder" in result.output
    assert games_played == []


@pytest.mark.parametrize("command", [SIMULATE, COMPARE])
def test_an_out_folder_under_a_file_is_refused_before_any_game(tmp_path, games_played, command):
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    result = run(*command, "--out", tmp_path / "a-file" / "sub", code=2)
    assert f"--out {tmp_path / 'a-file' / 'sub'}: '{tmp_path / 'a-file'}' is a file, not a folder" in result.output
    assert games_played == []


def test_compare_save_records_where_records_is_a_file_is_refused_before_any_game(tmp_path, games_played):
    (tmp_path / "records").write_text("x", encoding="utf-8")
    result = run(*COMPARE, "--out", tmp_path, "--save-records", code=2)
    assert f"--save-records {tmp_path / 'records'}: is a file, not a folder" in result.output
    assert games_played == []


def test_simulate_out_makes_missing_folders(tmp_path):
    run(*SIMULATE, "--out", tmp_path / "a" / "b")
    assert sorted(p.name for p in (tmp_path / "a" / "b").iterdir()) == ["usa-v1-seed1.json", "usa-v1-seed2.json"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_out_folder_is_refused_before_any_game(tmp_path, games_played):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        assert "is not writable" in run("play", "--out", locked / "g.json", code=2).output
        assert "is not writable" in run(*SIMULATE, "--out", locked / "sub", code=2).output
        assert "is not writable" in run(*SIMULATE, "--out", locked, code=2).output
    finally:
        locked.chmod(0o700)
    assert games_played == []


def test_compare_writes_no_plot_unless_asked(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    result = run(*COMPARE, "--json")
    assert '"plots": []' in result.output
    assert list(tmp_path.iterdir()) == []  # nothing in the current folder by default


def test_compare_plots_go_into_the_current_folder_when_asked(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    result = run(*COMPARE, "--plots")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "compare-wor-v2-vs-wor-legacy-v1.png", "compare-wor-v2-vs-wor-legacy-v1.svg",
    ]
    assert "Plots: compare-wor-v2-vs-wor-legacy-v1.png" in result.output
