"""The bot runner: plays the bot seats of games in the server, one action at a time."""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import ttr_bots as bot_kinds
from ttr_core.actions import Action
from ttr_core.game import Game
from ttr_server.errors import Ended, NotFound, StaleVersion
from ttr_server.storage import GameMeta

if TYPE_CHECKING:
    from ttr_server.service import GameService

log = logging.getLogger("ttr_server")


class BotRunner:
    """Plays the bot seats of games in the server, one action at a time through the service's
    ``play_bot_action`` (so a bot's action is logged and versioned like anybody's).

    A game whose turn is a bot's is scheduled for one step ``delay`` seconds later; a step plays
    one action and schedules the next. Steps of all games share a small pool in due order, so a
    long bot-only game never holds a worker while others wait.
    """

    def __init__(self, service: GameService, delay: float, workers: int = 2):
        self.service = service
        self.delay = delay
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ttr-bots")
        self._due: list[tuple[float, int, str]] = []  # a heap of (when, order, game id)
        self._order = itertools.count()
        self._scheduled: set[str] = set()  # games with a step due or running
        self._cv = threading.Condition()
        self._stop = False
        self._players: dict[tuple[str, int], bot_kinds.Bot] = {}
        self._clock = threading.Thread(target=self._dispatch, name="ttr-bot-clock", daemon=True)
        self._clock.start()

    def kick(self, game_id: str) -> None:
        """A game may have a bot to move: schedule a step, unless one is scheduled already."""
        with self._cv:
            if game_id in self._scheduled or self._stop:
                return
            self._scheduled.add(game_id)
            self._push(game_id)

    def close(self) -> None:
        with self._cv:
            self._stop = True
            self._cv.notify_all()
        self._clock.join(10)
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _push(self, game_id: str) -> None:  # with self._cv held
        heapq.heappush(self._due, (time.monotonic() + self.delay, next(self._order), game_id))
        self._cv.notify()

    def _dispatch(self) -> None:
        with self._cv:
            while not self._stop:
                if not self._due:
                    self._cv.wait()
                    continue
                wait = self._due[0][0] - time.monotonic()
                if wait > 0:
                    self._cv.wait(wait)
                    continue
                _, _, game_id = heapq.heappop(self._due)
                try:
                    self._pool.submit(self._step, game_id)
                except RuntimeError:  # the pool is shutting down
                    return

    def _step(self, game_id: str) -> None:
        again = False
        try:
            status = self.service.play_bot_action(
                game_id, self._choose, lambda over: self._forget(game_id, players=over)
            )
            again = status is not None and not status.over
        except StaleVersion:
            log.info("game %s: another process moved first; its bots carry on there", game_id)
            self._forget(game_id)
        except (Ended, NotFound):
            self._forget(game_id)
        except Exception:  # noqa: BLE001 - a failing bot must not take the server down; it is logged
            log.exception("game %s: a bot step failed", game_id)
            self._forget(game_id)
        if again:
            with self._cv:
                if not self._stop:
                    self._push(game_id)

    def _choose(self, meta: GameMeta, game: Game, seat: int) -> Action:
        return bot_kinds.ask(self._player(meta, seat), game, seat)

    def _player(self, meta: GameMeta, seat: int) -> bot_kinds.Bot:
        key = (meta.id, seat)
        with self._cv:
            player = self._players.get(key)
            if player is None:
                player = self._players[key] = bot_kinds.bot_class(meta.seats[seat].bot)(meta.seed, seat)
            return player

    def _forget(self, game_id: str, players: bool = True) -> None:
        """Unschedule the game; ``players``: also drop its bots (they keep their own random state
        while the game goes on)."""
        with self._cv:
            self._scheduled.discard(game_id)
            if players:
                for key in [k for k in self._players if k[0] == game_id]:
                    del self._players[key]

    def release(self, game_id: str) -> None:
        """Drop a game's bots and any step it has due (the game ended or was deleted)."""
        self._forget(game_id)

    def games_held(self) -> set[str]:
        """The games whose bots are kept in memory."""
        with self._cv:
            return {game_id for game_id, _seat in self._players}
