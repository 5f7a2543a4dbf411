"""Fixtures for the game server's tests: an in-process app, a PostgreSQL server, the databases.

The system pieces (PostgreSQL from Debian's ``postgresql``, Chromium from ``chromium``) are
installed by ``tools/ensure_test_services.py`` before a tox run. When one is missing, a test that
needs it is skipped with the reason on a developer's machine, and fails under CI (``CI=true``),
so that CI can never pass by skipping them (``server_kit.need``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import os

import pytest

from server_kit import ARTIFACTS, TEST_SETTINGS, Postgres, postgres_server

try:
    import fastapi  # noqa: F401 - the 'serve' extra, part of the 'test' extra
except ModuleNotFoundError:
    if os.environ.get("CI", "").lower() == "true":
        raise
    # A developer without the test extra: nothing here can run (pip install -e ".[test]").
    collect_ignore_glob = ["test_*.py"]


@pytest.fixture
def make_client(tmp_path) -> Iterator[Callable]:
    """``make_client(**settings)``: a TestClient on a fresh app with its own SQLite file."""
    from fastapi.testclient import TestClient

    from ttr_server.app import Settings, create_app

    clients = []

    def make(**overrides):
        overrides.setdefault("db_url", f"sqlite:///{tmp_path / f'games{len(clients)}.sqlite3'}")
        overrides.setdefault("bot_delay", 0.0)
        # the suite seeds games and makes many from one client: the limits have their own tests
        for name, value in TEST_SETTINGS.items():
            overrides.setdefault(name, value)
        client = TestClient(create_app(Settings(**overrides)))
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for c in clients:
        c.__exit__(None, None, None)


@pytest.fixture
def client(make_client):
    return make_client()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    with postgres_server() as pg:
        yield pg


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> str:
    """Each database the server supports, fresh: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    return request.getfixturevalue("postgres").new_database()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
