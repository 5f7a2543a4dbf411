"""The lobby: games whose seats are taken by invitation, so that the creator never holds another
player's token.

Creating a game here (``Lobby.open``) may leave seats open. Each open seat gets an invitation, a
secret that whoever holds it exchanges once for the seat and a token of their own, under a name
of their choosing (``Lobby.join``). A *listed* game is also shown in the lobby's listing, and
anybody may take a free seat of it without an invitation.

The game itself (its ``games`` row, the deal from its seed) starts when the last seat is taken,
in the same transaction: the engine knows its players by name from the first deal, so a game
never starts with a seat whose player is unknown, and bots never play against an empty chair.

The creator gets a host token that re-issues a seat's secret (``Lobby.reissue``): a taken seat's
token (the old one stops working at once, in every server process: tokens are checked against
the database) or an open seat's invitation. Secrets are stored as sha256 hashes only.
"""

from __future__ import annotations

import hmac
import json
import secrets
import time
from collections.abc import Sequence
from datetime import datetime, timezone

import attrs
import sqlalchemy as sa

from ttr_server import db
from ttr_server.identifiers import new_identifier
from ttr_server.names import clashing_names, name_key
from ttr_server.errors import NotFound, Rejected, ServiceError, Unauthorized
from ttr_server.seats import hash_token
from ttr_server.service import GameService, Prepared
from ttr_server.storage import Seat


class InvitationInvalid(ServiceError):
    """No seat of this game has this invitation (or the game takes none without one)."""

    status, code = 403, "invitation-invalid"


class InvitationUsed(ServiceError):
    status, code = 409, "invitation-used"


class GameFull(ServiceError):
    status, code = 409, "game-full"


@attrs.frozen
class LobbySeat:
    seat: int
    name: str | None  # None while the seat is open
    bot: str | None

    @property
    def open(self) -> bool:
        return self.name is None


@attrs.frozen
class LobbyGame:
    """A game of the lobby as anybody may see it: no secret of any seat."""

    id: str
    variant: str
    rules_version: int
    listed: bool
    created_at: datetime
    started: bool
    seats: tuple[LobbySeat, ...]

    @property
    def free(self) -> int:
        return sum(s.open for s in self.seats)


@attrs.frozen
class Opened:
    game: LobbyGame
    host_token: str
    tokens: tuple[str | None, ...]  # per seat: a person's seat named at creation
    invitations: tuple[str | None, ...]  # per seat: an open seat's


@attrs.frozen
class Joined:
    game_id: str
    seat: int
    token: str
    started: bool


@attrs.frozen
class Reissued:
    seat: int
    token: str | None  # a taken seat's new token
    invitation: str | None  # an open seat's new invitation


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _matches(given: str, stored: str | None) -> bool:
    return stored is not None and hmac.compare_digest(given, stored)


class Lobby:
    def __init__(self, service: GameService, listing_size: int = 50):
        self.service = service
        self.listing_size = listing_size

    # --- opening a game -----------------------------------------------------------------------

    def open(self, variant_id: str, version: int | None, seats: Sequence[tuple[str | None, str | None]],
             seed: int | None = None, listed: bool = False) -> Opened:
        """A new game whose seats are ``(name, bot)``: a named person (given a token now), a bot, or
        ``(None, None)``, an open seat (given an invitation). With no open seat it starts at once."""
        if any(bot is not None and name is None for name, bot in seats):
            raise Rejected("a bot's seat needs a name")
        names = [name for name, _ in seats if name is not None]
        if clashing_names(names):
            raise Rejected(f"player names must differ (without regard to case): {clashing_names(names)}")
        seed = secrets.randbelow(2**63) if seed is None else seed
        game_id = new_identifier(12)
        host = new_identifier(32)
        tokens = tuple(new_identifier(32) if name is not None and bot is None else None for name, bot in seats)
        invitations = tuple(new_identifier(16) if name is None else None for name, _ in seats)
        # The rules check the seats now (the player count, the bots), an open seat standing in
        # under a name no player can have (names cannot hold control characters).
        trial = [Seat(name if name is not None else f"\x01{i}", bot, None if t is None else hash_token(t))
                 for i, ((name, bot), t) in enumerate(zip(seats, tokens))]
        prepared = self.service.prepare(game_id, variant_id, version, seed, trial)
        full = all(name is not None for name, _ in seats)
        row = prepared.row
        now = _now()

        def write(conn: sa.Connection) -> None:
            conn.execute(sa.insert(db.lobby_games).values(
                id=game_id, variant=row["variant"], rules_version=row["rules_version"], seed=seed, listed=listed,
                host_hash=hash_token(host), joins=0, created_at=now, started_at=now if full else None))
            conn.execute(sa.insert(db.lobby_seats), [
                dict(game_id=game_id, seat=i, name=name, bot=bot, token_hash=None if t is None else hash_token(t),
                     invite_hash=None if inv is None else hash_token(inv), joined_at=now if name is not None else None)
                for i, ((name, bot), t, inv) in enumerate(zip(seats, tokens, invitations))])
            if full:
                conn.execute(sa.insert(db.games).values(**row))

        self.service.store.commits.run(game_id, write)
        if full:
            self.service.adopt(prepared)
        game = LobbyGame(game_id, row["variant"], row["rules_version"], listed, now, full,
                         tuple(LobbySeat(i, name, bot) for i, (name, bot) in enumerate(seats)))
        return Opened(game, host, tokens, invitations)

    # --- expiry -------------------------------------------------------------------------------

    def expire(self, idle_seconds: float) -> list[str]:
        """Remove the games still waiting for players that nobody opened or joined for
        ``idle_seconds`` (their invitations stop working); the ids removed. Games already
        started are the service's to expire (``GameService.expire``)."""
        cutoff = datetime.fromtimestamp(time.time() - idle_seconds, timezone.utc)
        g, s = db.lobby_games, db.lobby_seats
        recent = sa.select(s.c.game_id).where(s.c.game_id == g.c.id, s.c.joined_at >= cutoff).exists()
        with self.service.store.reads.connect() as conn:
            ids = [r.id for r in conn.execute(
                sa.select(g.c.id).where(g.c.started_at.is_(None), g.c.created_at < cutoff, ~recent)).all()]
        return [game_id for game_id in ids if self.service.store.commits.run(game_id, self._remove_unstarted(game_id, cutoff))]

    @staticmethod
    def _remove_unstarted(game_id: str, cutoff: datetime):
        def write(conn: sa.Connection) -> bool:
            try:
                _lock(conn, game_id)  # a join in progress finishes first; then the game is no longer idle
            except NotFound:  # removed meanwhile (another server process's sweep)
                return False
            g, s = db.lobby_games, db.lobby_seats
            idle = conn.execute(sa.select(g.c.id).where(
                g.c.id == game_id, g.c.started_at.is_(None),
                ~sa.select(s.c.game_id).where(s.c.game_id == game_id, s.c.joined_at >= cutoff).exists())).first()
            if idle is None:
                return False
            conn.execute(sa.delete(s).where(s.c.game_id == game_id))
            conn.execute(sa.delete(g).where(g.c.id == game_id))
            return True

        return write

    # --- reading ------------------------------------------------------------------------------

    def listing(self) -> list[LobbyGame]:
        """The listed games with a free seat, newest first."""
        g = db.lobby_games
        with self.service.store.reads.connect() as conn:
            rows = conn.execute(
                sa.select(g).where(g.c.started_at.is_(None), g.c.listed.is_(True))
                .order_by(g.c.created_at.desc()).limit(self.listing_size)
            ).all()
            seats = self._seats(conn, [r.id for r in rows])
        return [_game(r, seats.get(r.id, ())) for r in rows]

    def get(self, game_id: str) -> LobbyGame:
        with self.service.store.reads.connect() as conn:
            row = conn.execute(sa.select(db.lobby_games).where(db.lobby_games.c.id == game_id)).first()
            if row is None:
                raise NotFound(f"no game {game_id!r} in the lobby")
            return _game(row, self._seats(conn, [game_id]).get(game_id, ()))

    @staticmethod
    def _seats(conn: sa.Connection, ids: list[str]) -> dict[str, list]:
        if not ids:
            return {}
        s = db.lobby_seats
        found: dict[str, list] = {}
        for r in conn.execute(sa.select(s).where(s.c.game_id.in_(ids)).order_by(s.c.game_id, s.c.seat)):
            found.setdefault(r.game_id, []).append(r)
        return found

    # --- joining ------------------------------------------------------------------------------

    def check(self, game_id: str, invitation: str | None) -> int:
        """The seat ``join`` would give now (nothing is taken): so that a page can say at once that
        a link is stale, before its reader types a name. Refuses as ``join`` would."""
        given = None if invitation is None else hash_token(invitation)
        with self.service.store.reads.connect() as conn:
            game = conn.execute(sa.select(db.lobby_games).where(db.lobby_games.c.id == game_id)).first()
            if game is None:
                raise NotFound(f"no game {game_id!r} in the lobby")
            seats = self._seats(conn, [game_id]).get(game_id, [])
        return _seat_to_take(seats, given, bool(game.listed))

    def join(self, game_id: str, name: str, invitation: str | None = None) -> Joined:
        """Take the seat of ``invitation`` (once), or without one the first free seat of a listed
        game; the seat's token is returned to the joiner alone. The last seat starts the game."""
        token = new_identifier(32)
        given = None if invitation is None else hash_token(invitation)

        def write(conn: sa.Connection):
            try:
                return self._join(conn, game_id, name, given, token)
            except ServiceError as exc:  # refused before anything was written
                return exc

        joined, prepared = self.service.store.commits.run(game_id, write)
        if prepared is not None:
            self.service.adopt(prepared)
        return joined

    def _join(self, conn: sa.Connection, game_id: str, name: str, given: str | None,
              token: str) -> tuple[Joined, Prepared | None]:
        g, s = db.lobby_games, db.lobby_seats
        game = _lock(conn, game_id)
        seats = conn.execute(sa.select(s).where(s.c.game_id == game_id).order_by(s.c.seat)).all()
        seat = _seat_to_take(seats, given, bool(game.listed))
        if any(r.name is not None and name_key(r.name) == name_key(name) for r in seats):
            raise Rejected(f"the name {name!r} is taken in this game; choose another")
        now = _now()
        prepared = None
        if sum(r.name is None for r in seats) == 1:  # the last seat: the game starts
            final = [Seat(name, None, hash_token(token)) if r.seat == seat else Seat(r.name, r.bot, r.token_hash)
                     for r in seats]
            prepared = self.service.prepare(game_id, game.variant, game.rules_version, game.seed, final)
        conn.execute(sa.update(s).where(s.c.game_id == game_id, s.c.seat == seat)
                     .values(name=name, token_hash=hash_token(token), joined_at=now))
        if prepared is not None:
            conn.execute(sa.insert(db.games).values(**prepared.row))
            conn.execute(sa.update(g).where(g.c.id == game_id).values(started_at=now))
        return Joined(game_id, seat, token, prepared is not None), prepared

    # --- the host's recovery of a lost link ---------------------------------------------------

    def reissue(self, game_id: str, host_token: str | None, seat: int) -> Reissued:
        """A new secret for ``seat`` (the host only): a taken seat's token, the old one refused from
        now on; an open seat's invitation, the old one refused from now on."""
        if host_token is None:
            raise Unauthorized("re-issuing a seat's link needs the host token: Authorization: Bearer <host token>")
        secret = new_identifier(32)

        def write(conn: sa.Connection):
            try:
                return self._reissue(conn, game_id, hash_token(host_token), seat, secret)
            except ServiceError as exc:
                return exc

        return self.service.store.commits.run(game_id, write)

    def _reissue(self, conn: sa.Connection, game_id: str, host: str, seat: int, secret: str) -> Reissued:
        s = db.lobby_seats
        game = _lock(conn, game_id)
        if not _matches(host, game.host_hash):
            raise Unauthorized("this token is not the host's of this game")
        row = conn.execute(sa.select(s).where(s.c.game_id == game_id, s.c.seat == seat)).first()
        if row is None:
            raise NotFound(f"this game has no seat {seat}")
        if row.bot is not None:
            raise Rejected(f"seat {seat} is played by the server's bot {row.bot!r}; it has no link")
        if row.name is None:
            conn.execute(sa.update(s).where(s.c.game_id == game_id, s.c.seat == seat)
                         .values(invite_hash=hash_token(secret)))
            return Reissued(seat, None, secret)
        conn.execute(sa.update(s).where(s.c.game_id == game_id, s.c.seat == seat)
                     .values(token_hash=hash_token(secret)))
        stored = conn.execute(sa.select(db.games.c.seats).where(db.games.c.id == game_id)).first()
        if stored is not None:  # the game has started: its own copy of the seat's token changes too
            seats = json.loads(stored.seats)
            seats[seat]["token_hash"] = hash_token(secret)
            conn.execute(sa.update(db.games).where(db.games.c.id == game_id).values(seats=json.dumps(seats)))
        return Reissued(seat, secret, None)


def _lock(conn: sa.Connection, game_id: str):
    """Take the lobby game's row lock, then read the row. Every join and re-issue of a game starts
    so: they follow one another in any number of server processes, exactly one join takes the last
    seat, and a SQLite transaction asks for the write lock first (one that read before writing could
    not wait for it: SQLite answers "database is locked" at once to avoid a deadlock)."""
    g = db.lobby_games
    if conn.execute(sa.update(g).where(g.c.id == game_id).values(joins=g.c.joins + 1)).rowcount != 1:
        raise NotFound(f"no game {game_id!r} in the lobby")
    return conn.execute(sa.select(g).where(g.c.id == game_id)).one()


def _seat_to_take(seats: Sequence, given: str | None, listed: bool) -> int:
    if given is None:
        if not listed:
            raise InvitationInvalid("this game is joined by invitation only: ask its host for a link")
        free = [r.seat for r in seats if r.name is None]
        if not free:
            raise GameFull("every seat of this game is taken")
        return free[0]
    found = None
    for r in seats:  # every seat compared, in constant time: the time taken says nothing of the secret
        if _matches(given, r.invite_hash):
            found = r
    if found is None:
        raise InvitationInvalid("this invitation is not one of this game's: it may have been replaced by a new one")
    if found.name is not None:
        raise InvitationUsed(f"this invitation was used already, by {found.name}")
    return found.seat


def _game(row, seats: Sequence) -> LobbyGame:
    created = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=timezone.utc)
    return LobbyGame(row.id, row.variant, row.rules_version, bool(row.listed), created, row.started_at is not None,
                     tuple(LobbySeat(r.seat, r.name, r.bot) for r in seats))
