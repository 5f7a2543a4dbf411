"""Change notifications: wake the event streams of a game when it changes.

A change made by this process wakes its streams at once (``Hub.notify``, callable from any
thread). A change made by another server process (several processes on one PostgreSQL behind a
load balancer) arrives through PostgreSQL's ``LISTEN``/``NOTIFY``: every commit of a game's
change sends a notification on ``db.CHANGES_CHANNEL`` (``db.GroupCommit``), and each process's
``ChangeListener`` hands the ones it hears to its hub. SQLite has no such channel; a server on
SQLite is one process, so nothing is missed. Either way the streams also look at the stored
version every ``poll`` seconds, which bounds how late a change is seen if a notification is lost
(a listener reconnecting after the database restarted).

What a stream sends is public (version, phase, who is to act): a client that wants its view
asks for it with its own token, so no stream can carry a hand or a ticket.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import defaultdict

from sqlalchemy.engine import Engine

from ttr_server import db

log = logging.getLogger("ttr_server")


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


class ChangeListener:
    """A thread that listens for game changes committed by any process on this PostgreSQL
    database and wakes the streams of ``hub`` for them; it reconnects after a lost connection."""

    def __init__(self, engine: Engine, hub: Hub, retry_after: float = 1.0):
        url = engine.url.set(drivername="postgresql")
        self._conninfo = url.render_as_string(hide_password=False)
        self._hub = hub
        self._retry_after = retry_after
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ttr-listen", daemon=True)

    def start(self) -> ChangeListener:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f"LISTEN {db.CHANGES_CHANNEL}")
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            self._hub.notify(note.payload)
            except Exception as exc:  # noqa: BLE001 - the database went away: the streams poll meanwhile
                log.warning("listening for changes from other processes failed (%s); retrying", type(exc).__name__)
                self._stop.wait(self._retry_after)
