"""How many live games one server sustains at a person's pace: ``python -m bench.server_capacity``.

Each game has two people, each taking about ``--pace`` seconds (10 by default) to choose an
action, so a game sends one action every ``--pace`` seconds, with the reads a page makes around
it (the seat's view before acting). The load grows step by step (``--steps``: 100, 200, 400...
games); each step plays for ``--seconds`` after its games are created and reports the 99th
percentile of an action's time (POST, acknowledged). The capacity is the largest step whose p99
stays under ``--p99-ms`` (200 ms). Three set-ups: SQLite and one process, PostgreSQL and one
process, PostgreSQL and two processes (the games' requests spread over both).

Reported, not gated: the figure depends on the machine and on what else runs on it. Only loopback
addresses are used. It starts its servers and PostgreSQL the way the tests do (the load generator
and the server starters of ``tests/`` are shared with them), so run it from a checkout with
the ``serve`` and ``test`` extras installed. A full run takes about 15 minutes on a 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))

import aiohttp  # noqa: E402

from server_kit import TEST_OPTIONS, postgres_server, server_process  # noqa: E402


async def paced_load(bases: list[str], games: int, seconds: float, pace: float, seed: int) -> dict:
    """Create ``games`` two-seat usa games (spread over ``bases``), then let each act once every
    ``pace`` seconds (jittered) for ``seconds``; the action times (ms) of acknowledged actions."""
    # idle connections are dropped before the server's keep-alive (5 s) would close them under a request
    sessions = [aiohttp.ClientSession(b, connector=aiohttp.TCPConnector(limit=games + 8, keepalive_timeout=3),
                                      timeout=aiohttp.ClientTimeout(total=60)) for b in bases]
    post_ms: list[float] = []
    errors = 0
    try:
        seats = [{"name": "Ada"}, {"name": "Bob"}]

        async def create(k: int) -> dict:
            async with sessions[k % len(sessions)].post("/api/games", json={"variant": "usa", "seats": seats,
                                                                            "seed": seed + k}) as r:
                r.raise_for_status()
                return await r.json()

        created = []
        for start in range(0, games, 50):  # in batches: a burst of creations is not what is measured
            created += await asyncio.gather(*(create(k) for k in range(start, min(games, start + 50))))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds

        async def play(k: int, game: dict) -> None:
            nonlocal errors
            rng = random.Random(f"capacity:{seed}:{k}")
            http = sessions[k % len(sessions)]
            gid = game["game"]
            auth = [{"Authorization": f"Bearer {s['token']}"} for s in game["seats"]]
            await asyncio.sleep(rng.uniform(0, pace))  # the games do not all act at once
            while loop.time() < deadline:
                async with http.get(f"/api/games/{gid}") as r:
                    public = await r.json()
                if public["view"]["phase"] == "over":
                    return
                seat = public["view"]["to_act"][0]
                async with http.get(f"/api/games/{gid}", headers=auth[seat]) as r:
                    snap = await r.json()
                if not snap["legal"]:
                    continue
                await asyncio.sleep(pace * rng.uniform(0.5, 1.5))  # a person thinking
                t0 = time.perf_counter()
                async with http.post(f"/api/games/{gid}/actions", headers=auth[seat],
                                     json={"version": snap["version"], "action": rng.choice(snap["legal"])}) as r:
                    await r.read()
                    if r.status == 200:
                        post_ms.append((time.perf_counter() - t0) * 1000)
                    elif r.status != 409:
                        errors += 1

        await asyncio.gather(*(play(k, g) for k, g in enumerate(created)))
    finally:
        for s in sessions:
            await s.close()
    return {"actions": len(post_ms), "errors": errors,
            "p99_ms": statistics.quantiles(post_ms, n=100)[98] if len(post_ms) >= 100 else float("nan"),
            "median_ms": statistics.median(post_ms) if post_ms else float("nan")}


@contextlib.contextmanager
def servers(kind: str, work: Path):
    if kind == "sqlite":
        with server_process(f"sqlite:///{work / 'capacity.sqlite3'}", work, bot_delay=0.5, options=TEST_OPTIONS) as one:
            yield [one.base]
        return
    with postgres_server() as pg:
        url = pg.new_database()
        with contextlib.ExitStack() as stack:
            count = 2 if kind == "postgresql-2" else 1
            procs = [stack.enter_context(server_process(url, work, bot_delay=0.5, options=TEST_OPTIONS))
                     for _ in range(count)]
            yield [p.base for p in procs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setups", default="sqlite,postgresql-1,postgresql-2")
    parser.add_argument("--steps", default="100,200,400,800,1200")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--pace", type=float, default=10.0)
    parser.add_argument("--p99-ms", type=float, default=200.0)
    args = parser.parse_args()
    print(f"{'set-up':14} {'games':>6} {'actions':>8} {'actions/s':>9} {'median ms':>9} {'p99 ms':>8} {'errors':>6}")
    for kind in args.setups.split(","):
        capacity = 0
        for games in map(int, args.steps.split(",")):
            with tempfile.TemporaryDirectory(prefix="ttr-capacity-") as tmp, servers(kind, Path(tmp)) as bases:
                got = asyncio.run(paced_load(bases, games, args.seconds, args.pace, seed=games))
            print(f"{kind:14} {games:6} {got['actions']:8} {got['actions'] / args.seconds:9.1f} "
                  f"{got['median_ms']:9.1f} {got['p99_ms']:8.1f} {got['errors']:6}", flush=True)
            if not got["p99_ms"] <= args.p99_ms or got["errors"]:
                break
            capacity = games
        print(f"{kind}: sustains {capacity} live games with p99 under {args.p99_ms:.0f} ms "
              f"(one action per game every {args.pace:.0f} s)\n", flush=True)


if __name__ == "__main__":
    main()
