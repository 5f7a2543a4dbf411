"""The installed wheel: no generic top-level names, data files inside, and a working ``ttr`` command
from a fresh virtual environment (as a user would install it)."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.packaging


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(out), str(ROOT)],
        check=True, capture_output=True, text=True,
    )
    (found,) = out.glob("ttr_engine-*.whl")
    return found


def test_wheel_adds_only_ttr_prefixed_top_level_names(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith((".dist-info", ".data"))}
    assert top == {"ttr_core", "ttr_plugins", "ttr_variants", "ttr_bots", "ttr_analysis", "ttr_kit", "ttr_cli", "ttr_server"}


def test_wheel_ships_variant_and_map_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "ttr_variants/usa.toml" in names
    assert "ttr_variants/maps/usa.toml" in names
    assert "ttr_variants/maps/europe.toml" in names


def test_wheel_ships_the_servers_page_and_migrations(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("static/play.html", "static/play.js", "static/index.html", "static/style.css",
                 "migrations/env.py", "migrations/script.py.mako", "migrations/versions/0001_games_and_actions.py"):
        assert f"ttr_server/{name}" in names, name


def test_cli_runs_from_a_fresh_venv(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bin_dir = env_dir / ("Scripts" if sys.platform == "win32" else "bin")
    subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(wheel)], check=True)
    # Run from an empty folder so nothing from the source tree can be imported by accident.
    work = tmp_path / "elsewhere"
    work.mkdir()
    played = subprocess.run(
        [str(bin_dir / "ttr"), "play", "--seed", "1", "--out", "game.json"], cwd=work, capture_output=True, text=True
    )
    assert played.returncode == 0, played.stderr
    assert "Final scores" in played.stdout and "Winner" in played.stdout
    replayed = subprocess.run([str(bin_dir / "ttr"), "replay", "game.json"], cwd=work, capture_output=True, text=True)
    assert replayed.returncode == 0, replayed.stderr
    listed = subprocess.run([str(bin_dir / "ttr"), "variants"], cwd=work, capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    assert "usa" in listed.stdout
    where = subprocess.run(
        [str(bin_dir / "python"), "-c", "import ttr_variants, ttr_plugins; print(ttr_variants.__file__)"],
        cwd=work, capture_output=True, text=True, check=True,
    )
    assert str(env_dir) in where.stdout
