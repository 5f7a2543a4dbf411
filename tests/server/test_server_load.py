"""Load: 200 games at once over HTTP against one server process, on SQLite and on PostgreSQL.

Bounded in time: every game plays random legal actions until it ends or the time budget runs out
(TTR_LOAD_SECONDS, default 20 s of play per database), so most games stop unfinished; that is
by design. The figures (actions per second, p50/p99 latency of an acknowledged action and of a
read) are printed at the end of the run and written to ``artifacts/``; nothing asserts on them.
What is asserted: no request failed, and every game's stored log replays, byte for byte, to the
state the server stored, holding every acknowledged action.
"""

from __future__ import annotations

import asyncio
import json
import os

import pytest

from conftest import LOAD_FIGURES
from loadgen import run_load
from server_kit import check_stored, server_process

GAMES = 200
SECONDS = float(os.environ.get("TTR_LOAD_SECONDS", "20"))


@pytest.mark.slow
def test_200_concurrent_games_over_http(database_url, tmp_path, artifacts, request):
    kind = request.node.callspec.params["database_url"]
    with server_process(database_url, tmp_path) as server:
        result = asyncio.run(run_load(server.base, games=GAMES, seconds=SECONDS, players=2))
    figures = result.summary()
    LOAD_FIGURES.append((kind, figures))
    (artifacts / f"load-{kind}.json").write_text(json.dumps(figures, indent=2))
    assert len(result.games) == GAMES
    assert not result.errors, result.errors
    assert len(result.acks) >= GAMES  # every game got going
    assert check_stored(database_url, result.games, result.acks) == len(result.acks)
