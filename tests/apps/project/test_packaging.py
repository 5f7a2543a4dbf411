"""The installed wheel: no generic top-level names, data files inside, and a working ``ttr`` command
from a fresh virtual environment (as a user would install it), with a third party's bot beside it."""

from __future__ import annotations

import json
import subprocess
import textwrap
import zipfile

import pytest
from usa_kit import fresh_venv


pytestmark = pytest.mark.packaging


def test_wheel_adds_only_ttr_prefixed_top_level_names(project_wheel):
    names = zipfile.ZipFile(project_wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith((".dist-info", ".data"))}
    assert top == {
        "ttr_core", "ttr_plugins", "ttr_variants", "ttr_bots", "ttr_analysis", "ttr_kit", "ttr_env", "ttr_cli", "ttr_server"
    }


def test_wheel_ships_variant_and_map_files(project_wheel):
    names = set(zipfile.ZipFile(project_wheel).namelist())
    assert "ttr_variants/usa.toml" in names
    assert "ttr_variants/maps/usa.toml" in names
    assert "ttr_variants/maps/europe.toml" in names


def test_wheel_ships_the_servers_page_and_migrations(project_wheel):
    names = set(zipfile.ZipFile(project_wheel).namelist())
    for name in ("static/play.html", "static/play.js", "static/index.html", "static/style.css",
                 "migrations/env.py", "migrations/script.py.mako", "migrations/versions/0001_games_and_actions.py",
                 "static/join.html", "static/link-check.js", "migrations/versions/0002_ended_and_idempotency.py", "migrations/versions/0003_lobby.py",
                 # /api/docs works offline: Swagger UI ships in the wheel, with its license
                 "static/docs.html", "static/vendor/swagger-ui/swagger-ui-bundle.js",
                 "static/vendor/swagger-ui/swagger-ui.css", "static/vendor/swagger-ui/LICENSE"):
        assert f"ttr_server/{name}" in names, name


def test_cli_runs_from_a_fresh_venv(project_wheel, tmp_path):
    env_dir = tmp_path / "venv"
    bin_dir = fresh_venv(env_dir, project_wheel)
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


BOT_PACKAGE = {
    "pyproject.toml": """
        [build-system]
        requires = ["setuptools>=68"]
        build-backend = "setuptools.build_meta"

        [project]
        name = "ttr-mybot"
        version = "1.0"
        dependencies = ["ttr-engine"]

        [project.entry-points."ttr.bots"]
        mybot = "ttr_mybot:MyBot"

        [tool.setuptools]
        py-modules = ["ttr_mybot"]
        """,
    "ttr_mybot.py": """
        import random


        class MyBot:
            \"\"\"Claims a route whenever it can, else draws blind; never takes a card from the open row.\"\"\"

            name = "mybot"

            def __init__(self, seed, seat):
                self.rng = random.Random(f"mybot:{seed}:{seat}")

            def choose(self, view):
                legal = view.legal_actions()
                claims = [a for a in legal if a.kind == "claim-route"]
                blind = [a for a in legal if a.kind == "draw-card" and a.slot is None]
                return self.rng.choice(claims or blind or legal)
        """,
}


def test_a_third_party_bot_installed_beside_the_wheel_plays(project_wheel, tmp_path):
    source = tmp_path / "mybot"
    source.mkdir()
    for name, text in BOT_PACKAGE.items():
        (source / name).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    bin_dir = fresh_venv(tmp_path / "venv", project_wheel, source)
    work = tmp_path / "elsewhere"
    work.mkdir()

    def ttr(*args: str, code: int = 0) -> subprocess.CompletedProcess:
        done = subprocess.run([str(bin_dir / "ttr"), *args], cwd=work, capture_output=True, text=True)
        assert done.returncode == code, done.stdout + done.stderr
        return done

    listed = {r["name"]: r for r in json.loads(ttr("bots", "--json").stdout)}
    assert listed["mybot"] == {"name": "mybot", "from": "ttr-mybot 1.0", "class": "ttr_mybot:MyBot", "ok": True,
                               "doc": "Claims a route whenever it can, else draws blind; never takes a card from the open row."}
    assert {"random", "ticket"} <= set(listed)
    assert "mybot" in ttr("bots").stdout

    played = json.loads(ttr("play", "--bots", "mybot,random", "--players", "2", "--seed", "3", "--out", "game.json",
                            "--json").stdout)
    assert played["result"]["winners"]["seats"]
    actions = json.loads((work / "game.json").read_text(encoding="utf-8"))["actions"]
    draws = {seat: {a["slot"] for a in actions if a["seat"] == seat and a["kind"] == "draw-card"} for seat in (0, 1)}
    assert draws[0] == {None} and draws[1] - {None}  # mybot never took from the open row; random did
    assert any(a["seat"] == 0 and a["kind"] == "claim-route" for a in actions)
    assert "Winner" in ttr("replay", "game.json").stdout

    simulated = json.loads(ttr("simulate", "--bots", "mybot,random", "--games", "2", "--players", "2", "--workers", "2",
                               "--json").stdout)
    assert [s["bot"] for s in simulated["seats"]] == ["mybot", "random"]  # the worker processes found it too

    refused = ttr("play", "--bots", "mybott", code=2)
    assert "--bots: unknown bot 'mybott' (did you mean 'mybot'?); installed bots: hoarder, long-routes, mybot, random, route-value, search, search-quick, ticket" in refused.stderr
    assert "Traceback" not in refused.stderr
