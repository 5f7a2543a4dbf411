"""Identifiers never start with ``-`` (a game id pasted after ``ttr admin token`` would be read as
an option); one stored before that rule keeps working when passed after ``--``."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("sqlalchemy")

from ttr_server import db  # noqa: E402
from ttr_server.identifiers import new_identifier  # noqa: E402
from ttr_server.lobby import Lobby  # noqa: E402
from ttr_server.service import GameService  # noqa: E402


@pytest.fixture
def service(tmp_path):
    engine = db.make_engine(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    db.migrate(engine)
    service = GameService(engine, run_bots=False)
    yield service
    service.close()
    engine.dispose()


def test_no_identifier_starts_with_a_dash():
    drawn = [new_identifier(n) for n in (12, 16, 32) for _ in range(4000)]
    # one draw in 64 would start with "-" if nothing prevented it
    assert not [i for i in drawn if i.startswith("-")]
    assert {len(new_identifier(12)), len(new_identifier(32))} == {16, 43}  # as long as token_urlsafe's
    assert len(set(drawn)) == len(drawn)


def test_games_tokens_invitations_and_host_secrets_never_start_with_a_dash(service):
    made = []
    for _ in range(150):
        created = service.create("usa", None, [("Ada", None), ("Bob", None)])
        made += [created.meta.id, *created.tokens]
    lobby = Lobby(service)
    for _ in range(100):
        opened = lobby.open("usa", None, [("Ada", None), (None, None), (None, None)])
        made += [opened.game.id, opened.host_token, *(t for t in opened.tokens + opened.invitations if t)]
    assert len(made) > 800
    assert not [i for i in made if i.startswith("-")]


def test_a_stored_game_id_that_starts_with_a_dash_still_works_after_double_dash(service, tmp_path, monkeypatch):
    import ttr_server.service as service_module

    # as the server drew a game id before identifiers were kept from starting with "-"
    made = service_module.new_identifier
    monkeypatch.setattr(service_module, "new_identifier", lambda nbytes: "-4legacyGameId" if nbytes == 12 else made(nbytes))
    created = service.create("usa", None, [("Ada", None), ("Bob", None)])
    assert created.meta.id == "-4legacyGameId"

    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    run = subprocess.run([sys.executable, "-m", "ttr_cli.main", "admin", "token", "--db", url, "--", "-4legacyGameId", "0"],
                         capture_output=True, text=True, env=os.environ, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("seat 0 of -4legacyGameId: token ")
    assert service.status("-4legacyGameId").version == 0
