"""Live games: a ``Game`` in memory per recently used game, so that a request does not replay the
whole log, and a lock per game, under which all work on its live ``Game`` happens.

Before every use a live game is brought level with the database (another server process may have
appended), and it is thrown away whenever it could differ from it (an append that failed, a log
that does not replay to its stored digest).
"""

from __future__ import annotations

import json
import logging
import threading
import weakref
from collections import OrderedDict

import attrs

from ttr_core import variant
from ttr_core.game import Game
from ttr_core.state import digest
from ttr_server.errors import Ended, EngineFailure
from ttr_server.storage import GameMeta, GameStore

log = logging.getLogger("ttr_server")


@attrs.define
class Live:
    meta: GameMeta
    game: Game
    ended: str | None = None  # as last read from the database (``LiveGames.fresh``)

    @property
    def version(self) -> int:
        return len(self.game.log)


class _Lock:
    """A per-game lock that lives as long as somebody holds or uses it (weakly indexed)."""

    __slots__ = ("lock", "__weakref__")

    def __init__(self) -> None:
        self.lock = threading.Lock()


class _Holding:
    """``with live_games.locked(id):`` holds the game's lock (and keeps it alive) for the block."""

    def __init__(self, holder: _Lock):
        self.holder = holder

    def __enter__(self):
        self.holder.lock.acquire()
        return self

    def __exit__(self, *exc):
        self.holder.lock.release()


class LiveGames:
    """The live games of this process (at most ``size``, the least recently used dropped first)."""

    def __init__(self, store: GameStore, size: int = 2000):
        self.store = store
        self.size = size
        self._cache: OrderedDict[str, Live] = OrderedDict()
        self._cache_guard = threading.Lock()
        self._locks: weakref.WeakValueDictionary[str, _Lock] = weakref.WeakValueDictionary()
        self._locks_guard = threading.Lock()

    def locked(self, game_id: str) -> _Holding:
        """``with live.locked(game_id):`` the game's lock, for the block."""
        with self._locks_guard:
            holder = self._locks.get(game_id)
            if holder is None:
                holder = self._locks[game_id] = _Lock()
        return _Holding(holder)

    def fresh(self, game_id: str, writing: bool = True) -> Live:
        """The live game level with the database (loaded or caught up as needed); under the
        game's lock. ``writing``: refused (``Ended``) if the game was aborted or expired."""
        row = self.store.status_row(game_id, with_digest=True)
        if writing and row.ended is not None:
            raise Ended(f"this game has {row.ended}: it takes no more actions")
        live = self._level(game_id, row)
        live.ended = row.ended
        return live

    def meta(self, game_id: str) -> GameMeta:
        """What the game was created with: the live game's, else the stored one."""
        live = self.cached(game_id)
        return live.meta if live is not None else self.store.meta(game_id)

    def cached(self, game_id: str) -> Live | None:
        with self._cache_guard:
            live = self._cache.get(game_id)
            if live is not None:
                self._cache.move_to_end(game_id)
            return live

    def remember(self, live: Live) -> None:
        with self._cache_guard:
            self._cache[live.meta.id] = live
            self._cache.move_to_end(live.meta.id)
            while len(self._cache) > self.size:
                self._cache.popitem(last=False)

    def forget(self, game_id: str) -> None:
        with self._cache_guard:
            self._cache.pop(game_id, None)

    def _level(self, game_id: str, row) -> Live:
        live = self.cached(game_id)
        if live is not None and live.version > row.version:
            self.forget(game_id)  # cannot happen unless a write was lost under us; start over
            live = None
        if live is None:
            live = self._load(game_id, row.version)
        elif live.version < row.version:
            self._catch_up(live, row.version)
        else:
            return live
        if live.version != row.version or digest(live.game.dump()) != row.digest:
            self.forget(game_id)
            log.error("game %s: the replayed log does not reach the stored state", game_id)
            raise EngineFailure("the stored game does not replay to its stored state; it was logged")
        return live

    def _load(self, game_id: str, upto: int) -> Live:
        """Rebuild a game by replaying its log up to action ``upto`` (the version just read: another
        process may append meanwhile, and the digest read with it is that version's)."""
        meta = self.store.meta(game_id)
        game = Game(variant.load(meta.variant, meta.rules_version), [s.name for s in meta.seats], meta.seed)
        live = Live(meta, game)
        self._catch_up(live, upto)
        self.remember(live)
        return live

    def _catch_up(self, live: Live, upto: int) -> None:
        game = live.game
        for n, seat, data in self.store.actions(live.meta.id, live.version, upto):
            if n != live.version + 1:
                raise EngineFailure(f"the stored log of this game has a gap at action {live.version + 1}")
            game.apply(seat, game.registry.from_data(json.loads(data), seat))
