"""Load: 200 games at once over HTTP against one server process, on SQLite and on PostgreSQL.

Each game's seats are clients that act as soon as they have read their legal actions (no think
time), so the server runs saturated: the latencies then are mostly queueing (200 requests in
flight over the throughput). The server's CPU time per acknowledged action is reported as well:
unlike the rates, it hardly depends on what else the machine is doing.

Bounded in time: every game plays random legal actions until it ends or the time budget runs out
(TTR_LOAD_SECONDS, default 15 s of play per database), so most games stop unfinished; that is
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

from loadgen import run_load
from server_kit import check_stored, server_process

GAMES = 200
SECONDS = float(os.environ.get("TTR_LOAD_SECONDS", "15"))


@pytest.mark.slow
def test_200_concurrent_games_over_http(database_url, tmp_path, artifacts, request, summary_line):
    kind = request.node.callspec.params["database_url"]
    with server_process(database_url, tmp_path) as server:
        cpu = _cpu_seconds(server.proc.pid)
        result = asyncio.run(run_load(server.base, games=GAMES, seconds=SECONDS, players=2))
        cpu = _cpu_seconds(server.proc.pid) - cpu
    figures = result.summary()
    if result.acks:
        figures["server_cpu_ms_per_action"] = round(cpu * 1000 / len(result.acks), 2)
    summary_line(f"game server load test, {kind}: {figures}")
    (artifacts / f"load-{kind}.json").write_text(json.dumps(figures, indent=2))
    assert len(result.games) == GAMES
    assert not result.errors, result.errors
    assert len(result.acks) >= GAMES  # every game got going
    assert check_stored(database_url, result.games, result.acks) == len(result.acks)


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux); 0 where /proc is not there."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
