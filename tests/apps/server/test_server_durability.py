"""An acknowledged action is never lost: the server is killed with SIGKILL in the middle of a
load, restarted on the same database, and every action it had acknowledged is in the log, at
the place it was acknowledged; every game replays to its stored state and plays on."""

from __future__ import annotations

import asyncio
import json
import urllib.request

import pytest

from loadgen import LoadResult, run_load
from server_kit import check_stored, server_process

GAMES = 40


@pytest.mark.slow
def test_sigkill_mid_load_loses_no_acknowledged_action(database_url, tmp_path):
    async def load_then_kill(server):
        result = LoadResult()
        load = asyncio.create_task(run_load(server.base, games=GAMES, seconds=120, result=result))
        # Kill once the load is well under way (every game has acted, many several times), with
        # requests in flight at that moment.
        while not load.done() and len(result.acks) < 6 * GAMES:
            await asyncio.sleep(0.05)
        server.kill()
        return await load

    with server_process(database_url, tmp_path) as server:
        result = asyncio.run(load_then_kill(server))
    assert result.errors, "the load should have been cut off by the kill"
    assert len(result.acks) > GAMES

    with server_process(database_url, tmp_path) as again:
        # every acknowledged action is stored where it was acknowledged, and the logs replay
        assert check_stored(database_url, result.games, result.acks) == len(result.acks)
        # the restarted server rebuilt each game and serves it at (at least) the acknowledged version
        last = {}
        for ack in result.acks:
            last[ack.game] = max(last.get(ack.game, 0), ack.version)
        for gid, version in last.items():
            with urllib.request.urlopen(f"{again.base}/api/games/{gid}") as r:
                assert json.load(r)["version"] >= version
        # and play goes on
        resumed = asyncio.run(run_load(again.base, games=2, seconds=2))
        assert not resumed.errors and resumed.acks

