"""Games that end without being played out: aborted by an administrator, expired after a time
without a move, or deleted; and the sweep that expires them (and the lobby games nobody joined).

An ended game is marked in the database, so that every server process refuses its actions from
then on; its bots in this process are released.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool

from ttr_server import shared_limits
from ttr_server.listing import GameListing
from ttr_server.live import LiveGames

if TYPE_CHECKING:
    from ttr_server.lobby import Lobby
    from ttr_server.service import GameService

log = logging.getLogger("ttr_server")


class Ending:
    """``release(game_id)`` drops a game's bots; ``notify(game_id)`` wakes its event streams."""

    def __init__(self, live: LiveGames, listing: GameListing, release: Callable[[str], None],
                 notify: Callable[[str], None]):
        self.live = live
        self.store = live.store
        self.listing = listing
        self.release = release
        self.notify = notify

    def end(self, game_id: str, why: str) -> bool:
        """Stop an unfinished game (``why``: "aborted" or "expired"): its actions are refused from
        now on, in every process; its bots here are released. False if it was over or ended."""
        with self.live.locked(game_id):
            self.store.status_row(game_id)  # 404 for an unknown game
            ended = self.store.end(game_id, why)
        self.release(game_id)
        self.notify(game_id)
        return ended

    def expire(self, idle_seconds: float) -> list[str]:
        """End every unfinished game with no change for ``idle_seconds``; the ids ended."""
        cutoff = datetime.fromtimestamp(time.time() - idle_seconds, timezone.utc)
        return [gid for gid in self.listing.idle_since(cutoff) if self.end(gid, "expired")]

    def delete(self, game_id: str) -> None:
        """Remove a game and its log for good (an administrator's command)."""
        self.store.status_row(game_id)
        with self.live.locked(game_id):
            self.store.delete(game_id)
            self.live.forget(game_id)
        self.release(game_id)


async def sweep(service: GameService, lobby: Lobby, idle_seconds: float) -> None:
    """End unfinished games with no move for ``idle_seconds`` (and release their bots), and remove
    lobby games nobody joined for as long, looking every few minutes (every quarter of
    ``idle_seconds`` when that is shorter)."""
    every = max(min(idle_seconds / 4, 300.0), 0.05)
    while True:
        await asyncio.sleep(every)
        try:
            ended = await run_in_threadpool(service.expire, idle_seconds)
            unfilled = await run_in_threadpool(lobby.expire, idle_seconds)
            await run_in_threadpool(shared_limits.forget_expired, service.engine)
        except Exception as exc:  # noqa: BLE001 - the sweep tries again later; the server goes on
            log.warning("the expiry sweep failed: %s", type(exc).__name__)
            continue
        if ended or unfilled:
            log.info("expired %d games with no move and %d lobby games nobody joined for %.0f s",
                     len(ended), len(unfilled), idle_seconds)
