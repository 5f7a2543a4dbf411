"""Games as the server keeps them: created, read as a seat or a spectator, advanced one action at a
time, each action durable before it is acknowledged.

The database holds the truth (``db.py``: a row per game, an append-only action log). A live
``Game`` per recently used game is kept in memory so that a request does not replay the whole
log; before every use it is brought level with the database (another server process may have
appended), and it is thrown away whenever it could differ from it (an append that failed).

Every method here is synchronous and thread-safe: the web layer runs them in its thread pool.
Each game has a lock; all work on one game's live ``Game`` happens under it.
"""

from __future__ import annotations

import hashlib
import heapq
import hmac
import itertools
import json
import logging
import re
import secrets
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from typing import Any

import attrs
import sqlalchemy as sa
from sqlalchemy.engine import Engine

import ttr_bots as bot_kinds
from ttr_core import record as records
from ttr_core import variant
from ttr_core.actions import Action
from ttr_core.errors import IllegalAction, PluginFailed, TTRError
from ttr_core.game import Game
from ttr_core.state import digest
from ttr_server import db
from ttr_server.identifiers import new_identifier

log = logging.getLogger("ttr_server")

VARIANT_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
RESIGN = "resign"


# --- errors the web layer turns into responses -------------------------------------------------


class ServiceError(Exception):
    """A request the server refuses, with the HTTP status and a reason meant for the client."""

    status = 400
    code = "bad-request"

    def __init__(self, reason: str, **extra: Any):
        super().__init__(reason)
        self.reason = reason
        self.extra = extra


class NotFound(ServiceError):
    status, code = 404, "not-found"


class Unauthorized(ServiceError):
    status, code = 401, "unauthorized"


class StaleVersion(ServiceError):
    """The action was based on an older state than the game's: nothing was applied."""

    status, code = 409, "stale-version"


class NotOver(ServiceError):
    status, code = 409, "not-over"


class Ended(ServiceError):
    """The game was aborted or expired: it takes no more actions."""

    status, code = 409, "game-ended"


class KeyReused(ServiceError):
    """An Idempotency-Key sent again with a different request."""

    status, code = 422, "idempotency-key-reused"


class Rejected(ServiceError):
    """The rules do not allow this (an illegal action, a setup the variant does not take)."""

    status, code = 422, "rejected"


class EngineFailure(ServiceError):
    """A plugin failed while checking or applying an action: a bug, reported without details
    (they could name hidden cards); the game is unchanged and the details are in the log."""

    status, code = 500, "engine-failure"


# --- data -----------------------------------------------------------------------------------


@attrs.frozen
class Seat:
    name: str
    bot: str | None  # an installed bot's name (``ttr bots``), played by the server; None: a person
    token_hash: str | None  # sha256 of the seat's token (the token itself is never stored)


@attrs.frozen
class GameMeta:
    """What a game was created with; never changes."""

    id: str
    variant: str
    rules_version: int
    seed: int
    seats: tuple[Seat, ...]


@attrs.frozen
class Status:
    """Where a game stands, as anybody may know it (read from the database, so it is current
    across server processes)."""

    version: int
    phase: str
    to_act: tuple[int, ...]
    over: bool
    ended: str | None = None  # "aborted" or "expired": the game may not go on (see ``db.games.ended``)


@attrs.frozen
class Created:
    meta: GameMeta
    tokens: tuple[str | None, ...]  # per seat; None for bots
    status: Status


@attrs.frozen
class Snapshot:
    """One reader's picture of a game: the view ``game.view(seat)`` and, for a seat, its legal
    actions (as record data) and whether it may resign."""

    meta: GameMeta
    version: int
    seat: int | None
    view: dict[str, Any]
    legal: list[dict[str, Any]] | None
    can_resign: bool


@attrs.define
class _Live:
    meta: GameMeta
    game: Game
    ended: str | None = None  # as last read from the database (``_fresh``)

    @property
    def version(self) -> int:
        return len(self.game.log)


class _Lock:
    """A per-game lock that lives as long as somebody holds or uses it (weakly indexed)."""

    __slots__ = ("lock", "__weakref__")

    def __init__(self) -> None:
        self.lock = threading.Lock()


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _now() -> datetime:
    return datetime.now(timezone.utc)


# --- the service ------------------------------------------------------------------------------


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
        #: the SQLite file as it was at the start (None on PostgreSQL): writes stop if it is moved
        self.sqlite_file = db.guard_sqlite_file(engine)
        self.reads = db.reader(engine)
        self.commits = db.GroupCommit(engine)
        self.notify = notify
        self.cache_size = cache_size
        self._cache: OrderedDict[str, _Live] = OrderedDict()
        self._cache_guard = threading.Lock()
        self._locks: weakref.WeakValueDictionary[str, _Lock] = weakref.WeakValueDictionary()
        self._locks_guard = threading.Lock()
        self.bots = BotRunner(self, bot_delay) if run_bots else None

    def close(self) -> None:
        if self.bots is not None:
            self.bots.close()
        self.commits.close()
        if self.reads.pool is not self.engine.pool:
            self.reads.dispose()

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
        ruleset = self.ruleset(variant_id, version)
        kinds = sorted({b for _, b in seats if b is not None})
        if kinds:
            try:
                bot_kinds.bot_classes(kinds)
            except bot_kinds.BotError as exc:
                raise Rejected(str(exc)) from None
        if seed is None:
            seed = secrets.randbelow(2**63)
        names = [name for name, _ in seats]
        try:
            game = Game(ruleset, names, seed)
        except TTRError as exc:
            raise Rejected(str(exc)) from None
        tokens = tuple(None if bot else new_identifier(32) for _, bot in seats)
        meta = GameMeta(
            id=new_identifier(12),
            variant=ruleset.variant,
            rules_version=ruleset.version,
            seed=seed,
            seats=tuple(Seat(name, bot, None if t is None else hash_token(t)) for (name, bot), t in zip(seats, tokens)),
        )
        summary = self._summary(meta, game)
        row = dict(id=meta.id, variant=meta.variant, rules_version=meta.rules_version, seed=meta.seed,
                   seats=json.dumps([attrs.asdict(s) for s in meta.seats]), version=0,
                   created_at=summary["updated_at"], **summary)

        def insert(conn: sa.Connection) -> None:
            conn.execute(sa.insert(db.games).values(**row))

        self.commits.run(meta.id, insert)
        self._remember(_Live(meta, game))
        if summary["bot_turn"] and self.bots is not None:
            self.bots.kick(meta.id)
        return Created(meta, tokens, self._status_of(game))

    # --- reading ----------------------------------------------------------------------------

    def status(self, game_id: str) -> Status:
        row = self._status_row(game_id)
        return Status(row.version, row.phase, tuple(json.loads(row.to_act)), bool(row.over), row.ended)

    def seat_of(self, game_id: str, token: str | None) -> int | None:
        """The seat a token stands for; None (a spectator) without a token. Every seat's hash is
        compared, in constant time, so the time taken says nothing about the token."""
        if token is None:
            self.meta(game_id)  # an unknown game is a 404
            return None
        seats = self.stored_seats(game_id)  # not a cached meta's: a seat's token may have been reissued
        given = hash_token(token)
        found = None
        for i, seat in enumerate(seats):
            if seat.token_hash is not None and hmac.compare_digest(given, seat.token_hash):
                found = i
        if found is None:
            raise Unauthorized("this token is not a seat of this game")
        return found

    def snapshot(self, game_id: str, seat: int | None) -> Snapshot:
        with self._locked(game_id):
            live = self._fresh(game_id, writing=False)
            game = live.game
            legal = None
            can_resign = False
            try:
                if seat is not None:
                    legal = [] if live.ended else [game.registry.to_data(a) for a in game.legal_actions(seat)]
                    can_resign = (self._has_resign(game) and not game.over and not live.ended
                                  and not game.state.players[seat].resigned)
                view = game.view(seat)
            except PluginFailed as exc:  # views and listings change nothing: the game goes on
                log.exception("game %s: a plugin failed while a snapshot was built", game_id)
                raise EngineFailure(f"a rule plugin ({exc.plugin}) failed while this view was built") from None
            return Snapshot(live.meta, live.version, seat, view, legal, can_resign)

    def meta(self, game_id: str) -> GameMeta:
        live = self._cached(game_id)
        if live is not None:
            return live.meta
        row = self._meta_row(game_id)
        return _meta_from_row(row)

    def record(self, game_id: str) -> dict[str, Any]:
        """The game's record, built from what is stored (the log, the digest, the result); only
        once the game is over."""
        return self._stored(game_id, over_only=True)

    def stored_record(self, game_id: str) -> dict[str, Any]:
        """As ``record``, for any game, over or not (for checks and tools; not served over HTTP)."""
        return self._stored(game_id, over_only=False)

    def _stored(self, game_id: str, over_only: bool) -> dict[str, Any]:
        with self.reads.connect() as conn:
            row = conn.execute(sa.select(db.games).where(db.games.c.id == game_id)).first()
            if row is None:
                raise NotFound(f"no game {game_id!r}")
            if over_only and not row.over:
                raise NotOver("the record is published once the game is over (it shows every hand)")
            # up to the version read with the digest: the log may grow between the two reads
            rows = conn.execute(
                sa.select(db.actions.c.seat, db.actions.c.data)
                .where(db.actions.c.game_id == game_id, db.actions.c.n <= row.version).order_by(db.actions.c.n)
            ).all()
        return _record(_meta_from_row(row), row, rows)

    # --- acting ------------------------------------------------------------------------------

    def act(self, game_id: str, seat: int, version: int, data: Any, key: str | None = None) -> Status:
        """Apply ``seat``'s action (record data) if the game is still at ``version``.

        ``key`` (a client's Idempotency-Key): the first request with it is applied and its answer
        stored with it, in the same transaction; a resend with the same key and the same request
        gets that answer again and changes nothing; the same key with another request is refused.
        """
        request_hash = None if key is None else _request_hash(version, data)
        with self._locked(game_id):
            if key is not None:
                earlier = self._answered(game_id, seat, key, request_hash)
                if earlier is not None:
                    return earlier
            live = self._fresh(game_id)
            if version != live.version and not self._independent(live, seat, version):
                raise StaleVersion(
                    f"the game is at version {live.version}, the action was based on {version}: nothing was applied",
                    version=live.version,
                )
            try:
                action = live.game.registry.from_data(data, seat)
            except IllegalAction as exc:
                raise Rejected(exc.reason, kind=type(exc).__name__) from None
            remember = None if key is None else (key, request_hash)
            status = self._apply(live, seat, action, remember)
        self._after_change(live.meta, status)
        return status

    @staticmethod
    def _independent(live: _Live, seat: int, version: int) -> bool:
        """Whether an action based on an older ``version`` stands as it was chosen: starting tickets
        are chosen by every player at the same time, in any order (R-SET-6), so while the game is
        still in its setup and every action since ``version`` was another seat's, nothing this
        seat saw or may do has changed (its own cards and tickets are its own)."""
        game = live.game
        if not 0 <= version < live.version or game.state.phase != "setup" or seat not in game.to_act():
            return False
        return all(other != seat for other, _ in game.log[version:])

    def _answered(self, game_id: str, seat: int, key: str, request_hash: str) -> Status | None:
        t = db.idempotency_keys
        with self.reads.connect() as conn:
            row = conn.execute(sa.select(t.c.request_hash, t.c.response).where(
                t.c.game_id == game_id, t.c.seat == seat, t.c.key == key)).first()
        if row is None:
            return None
        if row.request_hash != request_hash:
            raise KeyReused("this Idempotency-Key was used for another request in this game; "
                            "use a new key for every new action")
        answer = json.loads(row.response)
        return Status(answer["version"], answer["phase"], tuple(answer["to_act"]), answer["over"])

    def resign(self, game_id: str, seat: int, version: int | None) -> Status:
        with self._locked(game_id):
            live = self._fresh(game_id)
            if not self._has_resign(live.game):
                raise Rejected(
                    f"the rules of {live.meta.variant} version {live.meta.rules_version} have no resign action",
                    kind="NotInRules",
                )
            if version is not None and version != live.version:
                raise StaleVersion(
                    f"the game is at version {live.version}, the request was based on {version}: nothing was applied",
                    version=live.version,
                )
            status = self._apply(live, seat, live.game.registry.from_data({"kind": RESIGN}, seat))
        self._after_change(live.meta, status)
        return status

    def _apply(self, live: _Live, seat: int, action: Action, key: tuple[str, str] | None = None) -> Status:
        """Apply and store one action; called under the game's lock with ``live`` fresh. ``key``:
        an idempotency key and its request's hash, stored with the action and its answer."""
        game = live.game
        before = live.version
        try:
            game.apply(seat, action)
        except IllegalAction as exc:
            raise Rejected(exc.reason, kind=type(exc).__name__) from None
        except PluginFailed as exc:
            log.error("game %s: %s", live.meta.id, exc)
            raise EngineFailure(f"a rule plugin ({exc.plugin}) failed on this action; it was not applied") from None
        except Exception:  # noqa: BLE001 - a checker that crashed instead of rejecting: the same bug class
            # Game.apply checks outside its rebuild guard; a crash there may have left anything
            # behind, so this live game is dropped and the next use replays the stored log.
            log.exception("game %s: the engine failed while checking %r", live.meta.id, action)
            self._forget(live.meta.id)
            raise EngineFailure("the rules engine failed while checking this action; it was not applied") from None
        summary = self._summary(live.meta, game)
        game_id = live.meta.id
        data = json.dumps(game.registry.to_data(action), separators=(",", ":"))
        status = self._status_of(game)

        def append(conn: sa.Connection):
            # The version check and the log entry in one transaction: the log only ever grows
            # by the action that was applied to the state it was checked against.
            moved = conn.execute(
                sa.update(db.games).where(db.games.c.id == game_id, db.games.c.version == before,
                                          db.games.c.ended.is_(None))
                .values(version=before + 1, **summary)
            ).rowcount
            if moved != 1:
                return StaleVersion("another server process advanced or ended this game first: nothing was applied")
            conn.execute(sa.insert(db.actions).values(
                game_id=game_id, n=before + 1, seat=seat, data=data, created_at=summary["updated_at"]))
            if key is not None:
                answer = {"version": status.version, "phase": status.phase, "to_act": list(status.to_act),
                          "over": status.over}
                conn.execute(sa.insert(db.idempotency_keys).values(
                    game_id=game_id, seat=seat, key=key[0], request_hash=key[1], response=json.dumps(answer),
                    created_at=summary["updated_at"]))
            return None

        try:
            self.commits.run(game_id, append)
        except BaseException:
            # The live game is one action ahead of the database: forget it.
            self._forget(game_id)
            raise
        return status

    def _after_change(self, meta: GameMeta, status: Status) -> None:
        self.notify(meta.id)
        if self.bots is not None and any(meta.seats[s].bot for s in status.to_act):
            self.bots.kick(meta.id)

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
        with self._locked(game_id):
            live = self._fresh(game_id)
            game = live.game
            bots = [s for s in game.to_act() if live.meta.seats[s].bot]
            status = self._apply(live, bots[0], choose(live.meta, game, bots[0])) if bots else None
            if status is None or status.over:
                when_idle(game.over)
        if status is not None:
            self.notify(game_id)
        return status

    @staticmethod
    def _has_resign(game: Game) -> bool:
        return RESIGN in game.registry.kinds()

    # --- keeping live games level with the database -------------------------------------------

    def _locked(self, game_id: str):
        with self._locks_guard:
            holder = self._locks.get(game_id)
            if holder is None:
                holder = self._locks[game_id] = _Lock()
        return _Holding(holder)

    def _fresh(self, game_id: str, writing: bool = True) -> _Live:
        row = self._status_row(game_id, with_digest=True)
        if writing and row.ended is not None:
            raise Ended(f"this game has {row.ended}: it takes no more actions")
        live = self._fresh_live(game_id, row)
        live.ended = row.ended
        return live

    def _fresh_live(self, game_id: str, row) -> _Live:
        live = self._cached(game_id)
        if live is not None and live.version > row.version:
            self._forget(game_id)  # cannot happen unless a write was lost under us; start over
            live = None
        if live is None:
            live = self._load(game_id, row.version)
        elif live.version < row.version:
            self._catch_up(live, row.version)
        else:
            return live
        if live.version != row.version or digest(live.game.dump()) != row.digest:
            self._forget(game_id)
            log.error("game %s: the replayed log does not reach the stored state", game_id)
            raise EngineFailure("the stored game does not replay to its stored state; it was logged")
        return live

    def _load(self, game_id: str, upto: int) -> _Live:
        """Rebuild a game by replaying its log up to action ``upto`` (the version just read: another
        process may append meanwhile, and the digest read with it is that version's)."""
        meta = _meta_from_row(self._meta_row(game_id))
        game = Game(variant.load(meta.variant, meta.rules_version), [s.name for s in meta.seats], meta.seed)
        live = _Live(meta, game)
        self._catch_up(live, upto)
        self._remember(live)
        return live

    def _catch_up(self, live: _Live, upto: int) -> None:
        q = sa.select(db.actions.c.n, db.actions.c.seat, db.actions.c.data).where(
            db.actions.c.game_id == live.meta.id, db.actions.c.n > live.version, db.actions.c.n <= upto
        ).order_by(db.actions.c.n)
        with self.reads.connect() as conn:
            rows = conn.execute(q).all()
        game = live.game
        for n, seat, data in rows:
            if n != live.version + 1:
                raise EngineFailure(f"the stored log of this game has a gap at action {live.version + 1}")
            game.apply(seat, game.registry.from_data(json.loads(data), seat))

    def _status_row(self, game_id: str, with_digest: bool = False):
        cols = [db.games.c.version, db.games.c.phase, db.games.c.to_act, db.games.c.over, db.games.c.ended]
        if with_digest:
            cols.append(db.games.c.digest)
        with self.reads.connect() as conn:
            row = conn.execute(sa.select(*cols).where(db.games.c.id == game_id)).first()
        if row is None:
            raise NotFound(f"no game {game_id!r}")
        return row

    def _meta_row(self, game_id: str):
        with self.reads.connect() as conn:
            row = conn.execute(sa.select(db.games).where(db.games.c.id == game_id)).first()
        if row is None:
            raise NotFound(f"no game {game_id!r}")
        return row

    def _cached(self, game_id: str) -> _Live | None:
        with self._cache_guard:
            live = self._cache.get(game_id)
            if live is not None:
                self._cache.move_to_end(game_id)
            return live

    def _remember(self, live: _Live) -> None:
        with self._cache_guard:
            self._cache[live.meta.id] = live
            self._cache.move_to_end(live.meta.id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def _forget(self, game_id: str) -> None:
        with self._cache_guard:
            self._cache.pop(game_id, None)

    # --- summaries ---------------------------------------------------------------------------

    def _summary(self, meta: GameMeta, game: Game) -> dict[str, Any]:
        """The games-row columns that follow the state, written with every action."""
        to_act = game.to_act()
        result = records.make_record(game)["result"] if game.over else None
        return {
            "digest": digest(game.dump()),
            "phase": game.state.phase,
            "to_act": json.dumps(to_act),
            "bot_turn": any(meta.seats[s].bot for s in to_act),
            "people_playing": sum(1 for s in game.active_seats() if meta.seats[s].bot is None),
            "over": game.over,
            "result": None if result is None else json.dumps(result),
            "updated_at": _now(),
        }

    @staticmethod
    def _status_of(game: Game) -> Status:
        return Status(len(game.log), game.state.phase, tuple(game.to_act()), game.over)

    def bot_games(self) -> list[str]:
        """Games waiting for a bot (to resume them after a restart)."""
        with self.reads.connect() as conn:
            rows = conn.execute(
                sa.select(db.games.c.id).where(db.games.c.bot_turn.is_(True), db.games.c.over.is_(False))
            ).all()
        return [r.id for r in rows]

    # --- operations (the admin command, the expiry sweep, the health check, the limits) -------

    def check_database(self) -> None:
        """Raise unless the database answers (in a transaction: its statement timeout is local to it)."""
        db.check(self.engine, sqlite_file=self.sqlite_file)

    def list_games(self, limit: int = 100) -> list[dict[str, Any]]:
        """The most recently changed games, newest first, as an administrator sees them (no tokens)."""
        g = db.games
        with self.reads.connect() as conn:
            rows = conn.execute(
                sa.select(g.c.id, g.c.variant, g.c.rules_version, g.c.seats, g.c.version, g.c.phase, g.c.over,
                          g.c.ended, g.c.created_at, g.c.updated_at).order_by(g.c.updated_at.desc()).limit(limit)
            ).all()
        return [{
            "game": r.id, "variant": r.variant, "rules_version": r.rules_version, "version": r.version,
            "phase": r.phase, "over": bool(r.over), "ended": r.ended,
            "seats": [{"name": x["name"], "bot": x["bot"]} for x in json.loads(r.seats)],
            "created_at": _iso(r.created_at), "updated_at": _iso(r.updated_at),
        } for r in rows]

    def running_bot_only_games(self) -> int:
        """Unfinished games in which no seat is a person still playing: every seat a bot, or every
        person resigned (they take server CPU with nobody playing)."""
        g = db.games
        with self.reads.connect() as conn:
            return conn.execute(
                sa.select(sa.func.count()).select_from(g)
                .where(g.c.over.is_(False), g.c.ended.is_(None), g.c.people_playing == 0)
            ).scalar_one()

    def end(self, game_id: str, why: str) -> bool:
        """Stop an unfinished game (``why``: "aborted" or "expired"): its actions are refused from
        now on, in every process; its bots here are released. False if it was over or ended."""
        with self._locked(game_id):
            self._status_row(game_id)  # 404 for an unknown game

            def write(conn: sa.Connection) -> int:
                return conn.execute(
                    sa.update(db.games).where(db.games.c.id == game_id, db.games.c.over.is_(False),
                                              db.games.c.ended.is_(None))
                    .values(ended=why, bot_turn=False, updated_at=_now())
                ).rowcount

            ended = self.commits.run(game_id, write) == 1
        if self.bots is not None:
            self.bots.release(game_id)
        self.notify(game_id)
        return ended

    def expire(self, idle_seconds: float) -> list[str]:
        """End every unfinished game with no change for ``idle_seconds``; the ids ended."""
        cutoff = datetime.fromtimestamp(time.time() - idle_seconds, timezone.utc)
        g = db.games
        with self.reads.connect() as conn:
            ids = [r.id for r in conn.execute(sa.select(g.c.id).where(
                g.c.over.is_(False), g.c.ended.is_(None), g.c.updated_at < cutoff)).all()]
        return [gid for gid in ids if self.end(gid, "expired")]

    def delete(self, game_id: str) -> None:
        """Remove a game and its log for good (an administrator's command)."""
        self._status_row(game_id)

        def write(conn: sa.Connection) -> None:
            for table in (db.idempotency_keys, db.actions, db.lobby_seats):
                conn.execute(sa.delete(table).where(table.c.game_id == game_id))
            conn.execute(sa.delete(db.games).where(db.games.c.id == game_id))
            conn.execute(sa.delete(db.lobby_games).where(db.lobby_games.c.id == game_id))

        with self._locked(game_id):
            self.commits.run(game_id, write)
            self._forget(game_id)
        if self.bots is not None:
            self.bots.release(game_id)

    def reissue_token(self, game_id: str, seat: int) -> str:
        """A new token for a person's ``seat``; the old one stops working at once, in every process
        (``seat_of`` reads the stored seats). The new token is returned once and never stored."""
        with self._locked(game_id):
            meta = _meta_from_row(self._meta_row(game_id))
            if not 0 <= seat < len(meta.seats):
                raise NotFound(f"game {game_id!r} has seats 0 to {len(meta.seats) - 1}, not {seat}")
            if meta.seats[seat].bot is not None:
                raise Rejected(f"seat {seat} is played by the bot {meta.seats[seat].bot!r}: it has no token")
            token = new_identifier(32)
            seats = [attrs.asdict(s) for s in meta.seats]
            seats[seat]["token_hash"] = hash_token(token)

            def write(conn: sa.Connection) -> None:
                conn.execute(sa.update(db.games).where(db.games.c.id == game_id).values(seats=json.dumps(seats)))

            self.commits.run(game_id, write)
            self._forget(game_id)  # the cached meta holds the old hash
        return token


    # --- games whose seats were filled elsewhere (the lobby) -----------------------------------

    def stored_seats(self, game_id: str) -> tuple[Seat, ...]:
        """A game's seats as stored now (with their token hashes)."""
        with self.reads.connect() as conn:
            row = conn.execute(sa.select(db.games.c.seats).where(db.games.c.id == game_id)).first()
        if row is None:
            raise NotFound(f"no game {game_id!r}")
        return tuple(Seat(s["name"], s["bot"], s["token_hash"]) for s in json.loads(row.seats))

    def prepare(self, game_id: str, variant_id: str, version: int | None, seed: int,
                seats: Sequence[Seat]) -> Prepared:
        """A new game with these seats (tokens already hashed) and its ``games`` row, not stored:
        the caller inserts the row in a transaction of its own, then hands it to ``adopt``.
        Refuses (``Rejected``) what ``create`` refuses: a player count or a bot the rules do not take."""
        ruleset = self.ruleset(variant_id, version)
        kinds = sorted({s.bot for s in seats if s.bot is not None})
        try:
            if kinds:
                bot_kinds.bot_classes(kinds)
            game = Game(ruleset, [s.name for s in seats], seed)
        except TTRError as exc:  # a BotError is one too
            raise Rejected(str(exc)) from None
        meta = GameMeta(game_id, ruleset.variant, ruleset.version, seed, tuple(seats))
        summary = self._summary(meta, game)
        row = dict(id=meta.id, variant=meta.variant, rules_version=meta.rules_version, seed=meta.seed,
                   seats=json.dumps([attrs.asdict(s) for s in meta.seats]), version=0,
                   created_at=summary["updated_at"], **summary)
        return Prepared(row, _Live(meta, game))

    def adopt(self, prepared: Prepared) -> None:
        """A prepared game whose row is now committed: keep it live and start its bots."""
        self._remember(prepared.live)
        if prepared.row["bot_turn"] and self.bots is not None:
            self.bots.kick(prepared.live.meta.id)


@attrs.frozen
class Prepared:
    row: dict[str, Any]  # the games row to insert
    live: _Live


class _Holding:
    """``with service._locked(id):`` holds the game's lock (and keeps it alive) for the block."""

    def __init__(self, holder: _Lock):
        self.holder = holder

    def __enter__(self):
        self.holder.lock.acquire()
        return self

    def __exit__(self, *exc):
        self.holder.lock.release()


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(timespec="seconds")


def _request_hash(version: int, data: Any) -> str:
    canonical = json.dumps({"version": version, "action": data}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def _meta_from_row(row) -> GameMeta:
    seats = tuple(Seat(s["name"], s["bot"], s["token_hash"]) for s in json.loads(row.seats))
    return GameMeta(row.id, row.variant, row.rules_version, row.seed, seats)


def _record(meta: GameMeta, row, rows) -> dict[str, Any]:
    # The same keys in the same order as ttr_core.record.make_record, so that dumps() of a stored
    # record and of a replayed game compare byte for byte.
    out = {
        "format": records.FORMAT,
        "variant": meta.variant,
        "version": meta.rules_version,
        "seed": meta.seed,
        "players": [s.name for s in meta.seats],
        "actions": [{"seat": seat, **json.loads(data)} for seat, data in rows],
        "digest": row.digest,
        "over": bool(row.over),
    }
    if row.result is not None:
        out["result"] = json.loads(row.result)
    return out


# --- bots -------------------------------------------------------------------------------------


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
