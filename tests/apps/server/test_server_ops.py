"""Operating a server: the health check asks the database, the database URL from the environment,
``ttr admin`` beside a running server, backups taken during play (SQLite and PostgreSQL), a
migration that rebuilds tables on a populated SQLite file, two processes starting on one fresh
SQLite file."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
from datetime import datetime, timezone
import urllib.request
from pathlib import Path

import pytest
import sqlalchemy as sa

from loadgen import LoadResult, run_load
from server_kit import (
    bearer, check_stored, free_port, migrations_head, need, server_process, with_migration, work_dir,
)
from test_server_api import create, keep_all

TWO = [{"name": "Ada"}, {"name": "Bob"}]


def _call(base: str, path: str, body=None, token=None, method=None):
    headers = {"content-type": "application/json", **(bearer(token) if token else {})}
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def ttr(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ttr_cli.main", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, **(env or {})}, timeout=120)


# --- health, the database URL -------------------------------------------------------------------


def test_health_says_so_when_postgresql_stops_answering(make_client, postgres):
    import psycopg

    url = postgres.new_database()
    name = url.rsplit("/", 1)[1]
    client = make_client(db_url=url)
    assert client.get("/api/health").json() == {"ok": True, "database": "postgresql"}
    with psycopg.connect(postgres.admin_url, autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
        try:
            down = client.get("/api/health")
            assert down.status_code == 503 and down.json()["ok"] is False
        finally:
            admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
    assert client.get("/api/health").status_code == 200  # and it recovers by itself


def test_every_endpoint_answers_503_with_retry_after_while_postgresql_is_down(make_client, postgres):
    import psycopg

    url = postgres.new_database()
    name = url.rsplit("/", 1)[1]
    client = make_client(db_url=url)
    game = create(client, TWO)
    with psycopg.connect(postgres.admin_url, autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
        try:
            for method, path, body in [("POST", "/api/games", {"variant": "usa", "seats": TWO}),
                                       ("GET", f"/api/games/{game['game']}", None),
                                       ("POST", "/api/lobby", {"variant": "usa", "seats": [{"name": "Ada"}, {}]}),
                                       ("GET", "/api/health", None)]:
                r = client.request(method, path, json=body)
                assert r.status_code == 503, (path, r.status_code, r.text)
                assert r.headers["Retry-After"] == "5", path
        finally:
            admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
    assert client.post("/api/games", json={"variant": "usa", "seats": TWO}).status_code == 201  # recovered


def _count_games(path: Path) -> int:
    engine = sa.create_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as conn:
            return conn.execute(sa.text("SELECT count(*) FROM games")).scalar()
    finally:
        engine.dispose()


def test_a_sqlite_file_moved_away_stops_the_server_writing_to_it(make_client, tmp_path):
    path = tmp_path / "games.sqlite3"
    client = make_client(db_url=f"sqlite:///{path}")
    create(client, TWO)
    moved = tmp_path / "moved.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{path}{suffix}").exists():
            os.rename(f"{path}{suffix}", f"{moved}{suffix}")
    health = client.get("/api/health")
    assert health.status_code == 503 and "gone" in health.json()["reason"] and health.headers["Retry-After"]
    r = client.post("/api/games", json={"variant": "usa", "seats": TWO})
    assert r.status_code == 503 and r.json()["error"] == "database-unavailable"
    assert _count_games(moved) == 1  # nothing written where nobody looks


def test_a_sqlite_file_replaced_or_made_read_only_is_unhealthy(make_client, tmp_path):
    path = tmp_path / "games.sqlite3"
    client = make_client(db_url=f"sqlite:///{path}")
    create(client, TWO)
    os.chmod(path, 0o444)
    try:
        health = client.get("/api/health")
        assert health.status_code == 503 and "read-only" in health.json()["reason"]
        assert client.post("/api/games", json={"variant": "usa", "seats": TWO}).status_code == 503
    finally:
        os.chmod(path, 0o644)
    assert client.get("/api/health").status_code == 200  # made writable again: healthy again
    shutil.copy(path, tmp_path / "copy.sqlite3")
    os.replace(tmp_path / "copy.sqlite3", path)
    health = client.get("/api/health")
    assert health.status_code == 503 and "replaced" in health.json()["reason"]


def test_the_database_url_can_come_from_the_environment(tmp_path):
    db_file = tmp_path / "from-env.sqlite3"
    port = free_port()
    cwd = work_dir(tmp_path, "serve")
    env = {**os.environ, "TTR_DATABASE_URL": f"sqlite:///{db_file}"}
    proc = subprocess.Popen([sys.executable, "-m", "ttr_cli.main", "serve", "--port", str(port), "--log-level",
                             "warning"], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                status, created = _call(base, "/api/games", {"variant": "usa", "seats": TWO})
                break
            except (urllib.error.URLError, ConnectionError):
                assert time.monotonic() < deadline and proc.poll() is None, "the server did not come up"
                time.sleep(0.1)
        assert status == 201
    finally:
        proc.terminate()
        proc.wait(15)
    assert not (cwd / "ttr-games.sqlite3").exists()
    listed = ttr("admin", "list", "--json", cwd=cwd, env={"TTR_DATABASE_URL": f"sqlite:///{db_file}"})
    assert listed.returncode == 0, listed.stderr
    assert [json.loads(line)["game"] for line in listed.stdout.splitlines()] == [created["game"]]


# --- ttr admin beside a running server ----------------------------------------------------------


def test_admin_reissues_a_token_aborts_and_deletes_games_of_a_running_server(tmp_path):
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with server_process(url, tmp_path) as server:
        status, game = _call(server.base, "/api/games", {"variant": "usa", "seats": TWO})
        gid, old = game["game"], game["seats"][0]["token"]
        assert _call(server.base, f"/api/games/{gid}", token=old)[0] == 200

        issued = ttr("admin", "token", "--db", url, "--", gid, "0", cwd=server.cwd)  # as the help says
        assert issued.returncode == 0, issued.stderr
        new = issued.stdout.split("token ", 1)[1].split()[0]
        assert _call(server.base, f"/api/games/{gid}", token=old)[0] == 401  # at once, in the running server
        status, seen = _call(server.base, f"/api/games/{gid}", token=new)
        assert status == 200 and seen["seat"] == 0
        bot_seat = ttr("admin", "token", "--db", url, "--", gid, "7", cwd=server.cwd)
        assert bot_seat.returncode == 2 and "seats 0 to 1" in bot_seat.stderr and "Traceback" not in bot_seat.stderr

        assert ttr("admin", "abort", "--db", url, "--", gid, cwd=server.cwd).returncode == 0
        keep = next(a for a in seen["legal"] if a["kind"] == "keep-tickets")
        status, refused = _call(server.base, f"/api/games/{gid}/actions", {"version": seen["version"], "action": keep},
                                token=new)
        assert status == 409 and refused["error"] == "game-ended"
        listed = ttr("admin", "list", "--json", "--db", url, cwd=server.cwd)
        assert json.loads(listed.stdout.splitlines()[0])["ended"] == "aborted"

        refused = ttr("admin", "delete", "--db", url, "--", gid, cwd=server.cwd)
        assert refused.returncode == 2 and "--yes" in refused.stderr
        assert ttr("admin", "delete", "--db", url, "--yes", "--", gid, cwd=server.cwd).returncode == 0
        assert _call(server.base, f"/api/games/{gid}")[0] == 404


# --- backups during play ------------------------------------------------------------------------


async def _play_and_back_up(server, backup_cmd: list[str], cwd: Path):
    """Load the server; once it is well under way, take a backup while the load goes on. Returns the
    load's result and how many acknowledgements came before the backup started."""
    result = LoadResult()
    load = asyncio.create_task(run_load(server.base, games=20, seconds=10, result=result))
    while not load.done() and len(result.acks) < 100:
        await asyncio.sleep(0.02)
    before = len(result.acks)
    proc = await asyncio.create_subprocess_exec(*backup_cmd, cwd=cwd, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    assert proc.returncode == 0, err.decode()
    await load
    assert len(result.acks) > before  # play went on during and after the backup
    return result, before


def test_a_sqlite_backup_during_play_holds_every_action_acknowledged_before_it(tmp_path):
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    out = tmp_path / "backup.sqlite3"
    with server_process(url, tmp_path) as server:
        cmd = [sys.executable, "-m", "ttr_cli.main", "admin", "backup", "--db", url, str(out)]
        result, before = asyncio.run(_play_and_back_up(server, cmd, server.cwd))
    acked = result.acks[:before]
    games = sorted({a.game for a in acked})
    # the backup replays game by game to its stored state, and holds each action acknowledged before it began
    assert check_stored(f"sqlite:///{out}", games, acked) == before
    again = ttr("admin", "backup", "--db", url, str(out), cwd=tmp_path)
    assert again.returncode == 2 and "exists already" in again.stderr


def test_a_postgresql_backup_with_pg_dump_restores_every_action_acknowledged_before_it(tmp_path, postgres):
    import psycopg

    need("pg_dump and pg_restore (Debian package postgresql-client)",
         shutil.which("pg_dump") is not None and shutil.which("pg_restore") is not None)
    url = postgres.new_database()
    out = tmp_path / "backup.dump"
    with server_process(url, tmp_path) as server:
        cmd = [sys.executable, "-m", "ttr_cli.main", "admin", "backup", str(out)]
        env_before = os.environ.get("TTR_DATABASE_URL")
        os.environ["TTR_DATABASE_URL"] = url  # the URL from the environment, as a host would give it
        try:
            result, before = asyncio.run(_play_and_back_up(server, cmd, server.cwd))
        finally:
            if env_before is None:
                os.environ.pop("TTR_DATABASE_URL", None)
            else:
                os.environ["TTR_DATABASE_URL"] = env_before
    restored = postgres.new_database()
    done = subprocess.run(["pg_restore", "--no-owner", "--dbname", restored, str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    acked = result.acks[:before]
    assert check_stored(restored, sorted({a.game for a in acked}), acked) == before
    with psycopg.connect(restored) as conn:  # the restored database is at the schema's head
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] == migrations_head()


# --- migrations ---------------------------------------------------------------------------------


def test_a_migration_that_rebuilds_tables_works_on_a_populated_sqlite_file(tmp_path):
    from fastapi.testclient import TestClient

    from ttr_server import db
    from ttr_server.app import Settings, create_app
    from ttr_server.service import GameService

    url = f"sqlite:///{tmp_path / 'populated.sqlite3'}"
    with TestClient(create_app(Settings(db_url=url, allow_seed=True))) as client:
        games = [create(client, seed=k) for k in range(3)]
        for game in games:
            keep_all(client, game, 0)
            keep_all(client, game, 1)
    engine = db.make_engine(url)
    with engine.connect() as conn:
        counted = conn.execute(sa.text("SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM actions)")).one()
    assert counted == (3, 6)

    scripts = with_migration(
        tmp_path / "migrations",
        "A test migration that rebuilds both tables (as changing a column's type or a constraint does on SQLite).",
        """
        with op.batch_alter_table("games", recreate="always") as batch:
            batch.add_column(sa.Column("note", sa.Text, nullable=True))
        with op.batch_alter_table("actions", recreate="always") as batch:
            batch.alter_column("data", existing_type=sa.Text, nullable=False)
        """, imports="import sqlalchemy as sa")
    db.migrate(engine, script_location=str(scripts))

    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == "9001"
        assert conn.execute(sa.text("SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM actions)")).one() \
            == counted
        assert conn.execute(sa.text("PRAGMA foreign_key_check")).all() == []
        actions_sql = conn.execute(sa.text("SELECT sql FROM sqlite_master WHERE name = 'actions'")).scalar()
        assert "REFERENCES games" in actions_sql.replace('"', "")  # not the rebuild's temporary name
    service = GameService(engine, run_bots=False)
    try:
        for game in games:  # every game replays to its stored state, and play goes on
            st = service.status(game["game"])
            service.act(game["game"], st.to_act[0], st.version, {"kind": "draw-card", "slot": None})
            assert len(service.stored_record(game["game"])["actions"]) == st.version + 1
        with pytest.raises(sa.exc.IntegrityError):  # and the foreign key still holds
            with engine.begin() as conn:
                conn.execute(sa.insert(db.actions).values(game_id="nosuchgame", n=1, seat=0, data="{}",
                                                          created_at=datetime.now(timezone.utc)))
    finally:
        service.close()
        engine.dispose()


STARTER = """
import os, sys, time
from ttr_server.app import Settings, create_app
go = sys.argv[2]
while not os.path.exists(go):
    time.sleep(0.001)
create_app(Settings(db_url=sys.argv[1]))
print("started")
"""


def test_two_processes_starting_on_one_fresh_sqlite_file_both_start(tmp_path):
    for k in range(5):
        url = f"sqlite:///{tmp_path / f'fresh{k}.sqlite3'}"
        go = tmp_path / f"go{k}"
        procs = [subprocess.Popen([sys.executable, "-c", STARTER, url, str(go)], cwd=tmp_path,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
        time.sleep(1.5)  # both have imported the server and wait for the word
        go.touch()
        for p in procs:
            out, err = p.communicate(timeout=120)
            assert p.returncode == 0 and out.strip() == "started", err[-2000:]
