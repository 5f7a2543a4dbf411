"""Change notifications: wake the event streams of a game when it changes.

A change made by this process wakes its streams at once (``Hub.notify``, callable from any
thread). A change made by another server process (PostgreSQL, several processes behind a load
balancer) is noticed by the streams' periodic look at the stored version, so no message bus is
needed; ``poll`` bounds how late that can be.

What a stream sends is public (version, phase, who is to act): a client that wants its view
asks for it with its own token, so no stream can carry a hand or a ticket.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict


class Hub:
    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiters: dict[str, set[asyncio.Event]] = defaultdict(set)

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def notify(self, game_id: str) -> None:
        """Wake every stream of ``game_id``; safe from worker threads."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(self._wake, game_id)
        except RuntimeError:  # the loop closed between the check and the call
            pass

    def _wake(self, game_id: str) -> None:
        for event in self._waiters.get(game_id, ()):
            event.set()

    async def wait(self, game_id: str, timeout: float) -> None:
        """Return when ``game_id`` changes in this process, or after ``timeout`` seconds."""
        event = asyncio.Event()
        waiters = self._waiters[game_id]
        waiters.add(event)
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            pass
        finally:
            waiters.discard(event)
            if not waiters:
                self._waiters.pop(game_id, None)
