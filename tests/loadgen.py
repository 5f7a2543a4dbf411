"""A load generator: many concurrent games of random players, each seat a client over HTTP.

Each game is one asyncio task that reads the game as the seat to act (its legal actions), picks
one at random and sends it with the version it read, until the game ends or the time is up.
Every acknowledged action is remembered (game, version, seat, action), so that a test can check
afterwards that the database holds each of them. Only loopback addresses are ever used.

Run by hand against a running server (``ttr serve``):

    python tests/loadgen.py http://127.0.0.1:8000 --games 200 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import aiohttp


@dataclass(frozen=True)
class Ack:
    game: str
    version: int  # the game's version after the action: the action is the log's entry number `version`
    seat: int
    action: dict


@dataclass
class LoadResult:
    games: list[str] = field(default_factory=list)
    acks: list[Ack] = field(default_factory=list)
    post_ms: list[float] = field(default_factory=list)  # acknowledged actions only
    get_ms: list[float] = field(default_factory=list)
    finished: int = 0
    stale: int = 0
    errors: Counter = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def actions_per_second(self) -> float:
        return len(self.acks) / self.seconds if self.seconds else 0.0

    def summary(self) -> dict:
        def pct(values, p):
            return round(statistics.quantiles(values, n=100, method="inclusive")[p - 1], 2) if len(values) > 1 else None

        return {
            "games": len(self.games), "games_finished": self.finished, "actions": len(self.acks),
            "seconds": round(self.seconds, 2), "actions_per_second": round(self.actions_per_second, 1),
            "action_ms_p50": pct(self.post_ms, 50), "action_ms_p99": pct(self.post_ms, 99),
            "read_ms_p50": pct(self.get_ms, 50), "read_ms_p99": pct(self.get_ms, 99),
            "stale_409": self.stale, "errors": dict(self.errors),
        }


def _loopback_only(base: str) -> None:
    host = urlsplit(base).hostname or ""
    if not (host == "localhost" or host.startswith("127.") or host == "::1"):
        raise ValueError(f"the load generator only targets loopback addresses, not {host!r}")


async def run_load(base: str, games: int = 200, seconds: float = 20.0, variant: str = "usa", players: int = 2,
                   seed: int = 0, stop: asyncio.Event | None = None, result: LoadResult | None = None) -> LoadResult:
    """Play ``games`` games at once for at most ``seconds`` (or until ``stop`` is set). ``result``
    fills as the games go, for a caller that watches the progress."""
    _loopback_only(base)
    result = result if result is not None else LoadResult()
    stop = stop or asyncio.Event()
    # aiohttp rather than httpx: on a 2-core machine the client shares the CPU with the server,
    # and aiohttp spends several times less of it per request.
    connector = aiohttp.TCPConnector(limit=games + 8)
    async with aiohttp.ClientSession(base, connector=connector, timeout=aiohttp.ClientTimeout(total=120)) as http:
        seats = [{"name": f"P{i + 1}"} for i in range(players)]

        async def create(k: int):
            async with http.post("/api/games", json={"variant": variant, "seats": seats, "seed": seed + k}) as r:
                r.raise_for_status()
                return await r.json()

        created = await asyncio.gather(*(create(k) for k in range(games)))
        result.games = [g["game"] for g in created]
        loop = asyncio.get_running_loop()
        start = loop.time()
        deadline = start + seconds

        async def get(path, headers=None):
            async with http.get(path, headers=headers) as r:
                return r.status, await r.json()

        async def post(path, body, headers):
            async with http.post(path, json=body, headers=headers) as r:
                return r.status, await r.json()

        async def play(k: int, game: dict) -> None:
            gid = game["game"]
            auth = [{"Authorization": f"Bearer {s['token']}"} for s in game["seats"]]
            rng = random.Random(f"load:{seed}:{k}")
            to_act = None
            try:
                while loop.time() < deadline and not stop.is_set():
                    seat = to_act[0] if to_act else None
                    if seat is None:  # who is to act: the public view says
                        _, public = await get(f"/api/games/{gid}")
                        if public["view"]["phase"] == "over":
                            result.finished += 1
                            return
                        seat = public["view"]["to_act"][0]
                    t0 = time.perf_counter()
                    _, snap = await get(f"/api/games/{gid}", auth[seat])
                    result.get_ms.append((time.perf_counter() - t0) * 1000)
                    if not snap["legal"]:
                        to_act = None
                        continue
                    action = rng.choice(snap["legal"])
                    t0 = time.perf_counter()
                    code, status = await post(f"/api/games/{gid}/actions",
                                              {"version": snap["version"], "action": action}, auth[seat])
                    took = (time.perf_counter() - t0) * 1000
                    if code == 200:
                        result.post_ms.append(took)
                        result.acks.append(Ack(gid, status["version"], seat, action))
                        if status["over"]:
                            result.finished += 1
                            return
                        to_act = status["to_act"]
                    elif code == 409:
                        result.stale += 1
                        to_act = None
                    else:
                        result.errors[f"{code}: {status.get('reason', '')[:80]}"] += 1
                        return
            except (aiohttp.ClientError, asyncio.TimeoutError, ValueError) as exc:  # the server went away (SIGKILL test)
                result.errors[type(exc).__name__] += 1

        await asyncio.gather(*(play(k, g) for k, g in enumerate(created)))
        result.seconds = loop.time() - start
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the server, e.g. http://127.0.0.1:8000 (loopback only)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variant", default="usa")
    args = parser.parse_args()
    result = asyncio.run(run_load(args.base, args.games, args.seconds, args.variant, args.players))
    print(result.summary())


if __name__ == "__main__":
    main()
