"""Games as the server plays them: created, read as a seat or a spectator, advanced one action at
a time, each action durable before it is acknowledged.

``GameService`` is what the web layer, the lobby and ``ttr admin`` call; each concern is a module
of its own, which the service holds together:

- ``storage.py``: the database (a row per game, an append-only action log), the truth;
- ``live.py``: a live ``Game`` per recently used game, and a lock per game;
- ``seats.py``: seats and their tokens; ``idempotency.py``: a resent action applied once;
- ``expiry.py``: games aborted, expired or deleted; ``listing.py``: games listed;
- ``bot_runner.py``: the server's bots, which play through ``play_bot_action``.

Every method here is synchronous and thread-safe: the web layer runs them in its thread pool.
All work on one game's live ``Game`` happens under its lock. What a seat may do, in or out of
turn, is the engine's to say (``Game.acting``).
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections.abc import Callable, Sequence
from typing import Any

import attrs
from sqlalchemy.engine import Engine

import ttr_bots as bot_kinds
from ttr_core import variant
from ttr_core.actions import Action
from ttr_core.errors import IllegalAction, PluginFailed, TTRError
from ttr_core.game import Game
from ttr_server.bot_runner import BotRunner
from ttr_server.errors import EngineFailure, NotFound, Rejected, StaleVersion
from ttr_server.expiry import Ending
from ttr_server.idempotency import IdempotencyKeys, Keyed, request_hash
from ttr_server.identifiers import new_identifier
from ttr_server.listing import GameListing
from ttr_server.live import Live, LiveGames
from ttr_server.seats import SeatTokens, seated
from ttr_server.storage import GameMeta, GameStore, Seat, Status, new_row, status_of, summary

log = logging.getLogger("ttr_server")

VARIANT_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


@attrs.frozen
class Created:
    meta: GameMeta
    tokens: tuple[str | None, ...]  # per seat; None for bots
    status: Status


@attrs.frozen
class Snapshot:
    """One reader's picture of a game: the view ``game.view(seat)`` and, for a seat, its legal
    actions (as record data) and whether it may resign (play an action out of turn)."""

    meta: GameMeta
    version: int
    seat: int | None
    view: dict[str, Any]
    legal: list[dict[str, Any]] | None
    can_resign: bool


@attrs.frozen
class Prepared:
    row: dict[str, Any]  # the games row to insert
    live: Live


class GameService:
    def __init__(
        self,
        engine: Engine,
        *,
        bot_delay: float = 0.5,
        cache_size: int = 2000,
        notify: Callable[[str], None] = lambda game_id: None,
        run_bots: bool = True,
    ):
        self.engine = engine
        self.store = GameStore(engine)
        self.notify = notify
        self.live = LiveGames(self.store, cache_size)
        self.tokens = SeatTokens(self.live)
        self.keys = IdempotencyKeys(self.store)
        self.listing = GameListing(self.store)
        self.bots = BotRunner(self, bot_delay) if run_bots else None
        self.ending = Ending(self.live, self.listing, self._release_bots, notify)

    def close(self) -> None:
        if self.bots is not None:
            self.bots.close()
        self.store.close()

    # --- variants ---------------------------------------------------------------------------

    @staticmethod
    def ruleset(variant_id: str, version: int | None = None):
        """A shipped variant by id (never a path: clients name variants, not files)."""
        if not isinstance(variant_id, str) or not VARIANT_ID.match(variant_id) or variant_id not in variant.available():
            raise NotFound(f"unknown variant {variant_id!r}; GET /api/variants lists them")
        try:
            return variant.load(variant_id, version)
        except TTRError as exc:
            raise Rejected(f"variant {variant_id!r}: {exc}") from None

    # --- creating -------------------------------------------------------------------------

    def create(self, variant_id: str, version: int | None, seats: Sequence[tuple[str, str | None]],
               seed: int | None = None) -> Created:
        made, tokens = seated(seats)
        prepared = self.prepare(new_identifier(12), variant_id, version,
                                secrets.randbelow(2**63) if seed is None else seed, made)
        self.store.insert(prepared.row)
        self.adopt(prepared)
        return Created(prepared.live.meta, tokens, status_of(prepared.live.game))

    def prepare(self, game_id: str, variant_id: str, version: int | None, seed: int,
                seats: Sequence[Seat]) -> Prepared:
        """A new game with these seats (tokens already hashed) and its ``games`` row, not stored:
        the caller inserts the row (``create``; the lobby, in a transaction of its own), then hands
        it to ``adopt``. Refuses (``Rejected``) a player count or a bot the rules do not take."""
        ruleset = self.ruleset(variant_id, version)
        kinds = sorted({s.bot for s in seats if s.bot is not None})
        try:
            if kinds:
                bot_kinds.bot_classes(kinds)
            game = Game(ruleset, [s.name for s in seats], seed)
        except TTRError as exc:  # a BotError is one too
            raise Rejected(str(exc)) from None
        meta = GameMeta(game_id, ruleset.variant, ruleset.version, seed, tuple(seats))
        return Prepared(new_row(meta, game), Live(meta, game))

    def adopt(self, prepared: Prepared) -> None:
        """A prepared game whose row is now committed: keep it live and start its bots."""
        self.live.remember(prepared.live)
        if prepared.row["bot_turn"] and self.bots is not None:
            self.bots.kick(prepared.live.meta.id)

    # --- reading ----------------------------------------------------------------------------

    def status(self, game_id: str) -> Status:
        return self.store.status(game_id)

    def meta(self, game_id: str) -> GameMeta:
        return self.live.meta(game_id)

    def seat_of(self, game_id: str, token: str | None) -> int | None:
        """The seat a token stands for; None (a spectator) without a token (``SeatTokens.seat_of``)."""
        return self.tokens.seat_of(game_id, token)

    def acting_seat(self, game_id: str, token: str | None) -> int:
        """The seat of a token that must be a seat's (``SeatTokens.acting_seat``)."""
        return self.tokens.acting_seat(game_id, token)

    def stored_seats(self, game_id: str) -> tuple[Seat, ...]:
        """A game's seats as stored now (with their token hashes)."""
        return self.store.seats(game_id)

    def snapshot(self, game_id: str, seat: int | None) -> Snapshot:
        with self.live.locked(game_id):
            live = self.live.fresh(game_id, writing=False)
            game = live.game
            legal = None
            can_resign = False
            try:
                if seat is not None:
                    mine = game.acting([seat]).of(seat)
                    legal = [] if live.ended else [game.registry.to_data(a) for a in mine.legal]
                    can_resign = bool(mine.any_time) and not live.ended
                view = game.view(seat)
            except PluginFailed as exc:  # views and listings change nothing: the game goes on
                log.exception("game %s: a plugin failed while a snapshot was built", game_id)
                raise EngineFailure(f"a rule plugin ({exc.plugin}) failed while this view was built") from None
            return Snapshot(live.meta, live.version, seat, view, legal, can_resign)

    def record(self, game_id: str) -> dict[str, Any]:
        """The game's record, built from what is stored (the log, the digest, the result); only
        once the game is over."""
        return self.store.record(game_id, over_only=True)

    def stored_record(self, game_id: str) -> dict[str, Any]:
        """As ``record``, for any game, over or not (for checks and tools; not served over HTTP)."""
        return self.store.record(game_id, over_only=False)

    # --- acting ------------------------------------------------------------------------------

    def act(self, game_id: str, seat: int, version: int, data: Any, key: str | None = None) -> Status:
        """Apply ``seat``'s action (record data) if the game is still at ``version``, or if the
        seats are choosing at the same time and nothing this seat may do has changed since.

        ``key`` (a client's Idempotency-Key, ``idempotency.py``): a resend gets the first answer.
        """
        keyed = None if key is None else Keyed(key, request_hash(version, data))
        with self.live.locked(game_id):
            if keyed is not None:
                earlier = self.keys.answered(game_id, seat, keyed)
                if earlier is not None:
                    return earlier
            live = self.live.fresh(game_id)
            if version != live.version and not self._independent(live, seat, version):
                raise StaleVersion(
                    f"the game is at version {live.version}, the action was based on {version}: nothing was applied",
                    version=live.version,
                )
            try:
                action = live.game.registry.from_data(data, seat)
            except IllegalAction as exc:
                raise Rejected(exc.reason, kind=type(exc).__name__) from None
            status = self._apply(live, seat, action, keyed)
        self._after_change(live.meta, status)
        return status

    @staticmethod
    def _independent(live: Live, seat: int, version: int) -> bool:
        """Whether an action based on an older ``version`` stands as it was chosen: while the seats
        to act choose at the same time (the engine says since when: the starting tickets, R-SET-6)
        and every action since ``version`` was another seat's, nothing this seat may do has
        changed (its own cards and tickets are its own)."""
        game = live.game
        acting = game.acting([seat])
        since = acting.together_since
        if since is None or not since <= version < live.version or not acting.of(seat).legal:
            return False
        return all(other != seat for other, _ in game.log[version:])

    def resign(self, game_id: str, seat: int, version: int | None) -> Status:
        """Play ``seat``'s action out of turn (resigning, where the rules have it), if the game is
        still at ``version`` (when given)."""
        with self.live.locked(game_id):
            live = self.live.fresh(game_id)
            leaving = live.game.acting([seat]).of(seat).any_time
            if not leaving:
                raise Rejected(f"the rules of {live.meta.variant} version {live.meta.rules_version} have no resign "
                               "action for this seat now (nothing it may play out of turn)", kind="NotInRules")
            if len(leaving) > 1:
                kinds = ", ".join(sorted({a.kind for a in leaving}))
                raise Rejected(f"this seat may play several actions out of turn ({kinds}): post the one meant "
                               "to /actions", kind="Ambiguous")
            if version is not None and version != live.version:
                raise StaleVersion(
                    f"the game is at version {live.version}, the request was based on {version}: nothing was applied",
                    version=live.version,
                )
            status = self._apply(live, seat, leaving[0])
        self._after_change(live.meta, status)
        return status

    def play_bot_action(
        self, game_id: str, choose: Callable[[GameMeta, Game, int], Action], when_idle: Callable[[bool], None]
    ) -> Status | None:
        """Play one action for the first bot seat to act, if any, applied and stored like a
        person's: ``choose(meta, game, seat)`` picks it, reading the live game under the game's lock
        (a bot must not change it). Returns the new status, or None when no bot is to act.

        When no bot action follows (no bot is to act, or the game is over), ``when_idle(over)`` is
        called before the game's lock is released: a person's action that hands the turn to a bot
        commits after it, so the bot runner is idle by the time that action asks for a bot.
        """
        with self.live.locked(game_id):
            live = self.live.fresh(game_id)
            game = live.game
            bots = [s for s in game.to_act() if live.meta.seats[s].bot]
            status = self._apply(live, bots[0], choose(live.meta, game, bots[0])) if bots else None
            if status is None or status.over:
                when_idle(game.over)
        if status is not None:
            self.notify(game_id)
        return status

    def _apply(self, live: Live, seat: int, action: Action, keyed: Keyed | None = None) -> Status:
        """Apply and store one action; called under the game's lock with ``live`` fresh. ``keyed``:
        the request's idempotency key, stored with the action and its answer."""
        game = live.game
        game_id = live.meta.id
        before = live.version
        try:
            game.apply(seat, action)
        except IllegalAction as exc:
            raise Rejected(exc.reason, kind=type(exc).__name__) from None
        except PluginFailed as exc:
            log.error("game %s: %s", game_id, exc)
            raise EngineFailure(f"a rule plugin ({exc.plugin}) failed on this action; it was not applied") from None
        except Exception:  # noqa: BLE001 - a checker that crashed instead of rejecting: the same bug class
            # Game.apply checks outside its rebuild guard; a crash there may have left anything
            # behind, so this live game is dropped and the next use replays the stored log.
            log.exception("game %s: the engine failed while checking %r", game_id, action)
            self.live.forget(game_id)
            raise EngineFailure("the rules engine failed while checking this action; it was not applied") from None
        state = summary(live.meta, game)
        data = json.dumps(game.registry.to_data(action), separators=(",", ":"))
        status = status_of(game)
        also = None if keyed is None else self.keys.storing(game_id, seat, keyed, status, state["updated_at"])
        try:
            self.store.append(game_id, before, seat, data, state, also)
        except BaseException:
            # The live game is one action ahead of the database: forget it.
            self.live.forget(game_id)
            raise
        return status

    def _after_change(self, meta: GameMeta, status: Status) -> None:
        self.notify(meta.id)
        if self.bots is not None and any(meta.seats[s].bot for s in status.to_act):
            self.bots.kick(meta.id)

    def _release_bots(self, game_id: str) -> None:
        if self.bots is not None:
            self.bots.release(game_id)

    # --- operations (the admin command, the expiry sweep, the health check, the limits) -------

    def check_database(self) -> None:
        """Raise unless the database answers (in a transaction: its statement timeout is local to it)."""
        self.store.check()

    def bot_games(self) -> list[str]:
        """Games waiting for a bot (to resume them after a restart)."""
        return self.listing.waiting_for_a_bot()

    def list_games(self, limit: int = 100) -> list[dict[str, Any]]:
        """The most recently changed games, newest first, as an administrator sees them (no tokens)."""
        return self.listing.recent(limit)

    def running_bot_only_games(self) -> int:
        """Unfinished games in which no seat is a person still playing (``GameListing.running_bot_only``)."""
        return self.listing.running_bot_only()

    def end(self, game_id: str, why: str) -> bool:
        """Stop an unfinished game (``Ending.end``); False if it was over or ended."""
        return self.ending.end(game_id, why)

    def expire(self, idle_seconds: float) -> list[str]:
        """End every unfinished game with no change for ``idle_seconds``; the ids ended."""
        return self.ending.expire(idle_seconds)

    def delete(self, game_id: str) -> None:
        """Remove a game and its log for good (an administrator's command)."""
        self.ending.delete(game_id)

    def reissue_token(self, game_id: str, seat: int) -> str:
        """A new token for a person's ``seat`` (``SeatTokens.reissue``); the old one stops working."""
        return self.tokens.reissue(game_id, seat)
