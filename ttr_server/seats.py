"""Seats and their tokens: a person's seat is played by whoever holds its token.

Tokens come from ``secrets`` (``identifiers.py``); only their SHA-256 is stored, and a token is
compared in constant time with every seat's hash, read from the database at each use, so that a
re-issued token replaces the old one at once in every server process.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

import attrs

from ttr_server.errors import NotFound, Rejected, Unauthorized
from ttr_server.identifiers import new_identifier
from ttr_server.live import LiveGames
from ttr_server.storage import Seat


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return new_identifier(32)


def seated(seats: Sequence[tuple[str, str | None]]) -> tuple[tuple[Seat, ...], tuple[str | None, ...]]:
    """The seats of a new game (``(name, bot)`` each) and their tokens: one per person, None for a bot."""
    tokens = tuple(None if bot else new_token() for _, bot in seats)
    made = tuple(Seat(name, bot, None if t is None else hash_token(t)) for (name, bot), t in zip(seats, tokens))
    return made, tokens


class SeatTokens:
    """Which seat a token stands for, and a new token for a seat whose token was lost."""

    def __init__(self, live: LiveGames):
        self.live = live
        self.store = live.store

    def seat_of(self, game_id: str, token: str | None) -> int | None:
        """The seat a token stands for; None (a spectator) without a token. Every seat's hash is
        compared, in constant time, so the time taken says nothing about the token."""
        if token is None:
            self.live.meta(game_id)  # an unknown game is a 404
            return None
        seats = self.store.seats(game_id)  # not a cached meta's: a seat's token may have been reissued
        given = hash_token(token)
        found = None
        for i, seat in enumerate(seats):
            if seat.token_hash is not None and hmac.compare_digest(given, seat.token_hash):
                found = i
        if found is None:
            raise Unauthorized("this token is not a seat of this game")
        return found

    def acting_seat(self, game_id: str, token: str | None) -> int:
        """The seat of a token that must be a seat's (to act): refused without one."""
        if token is None:
            self.live.meta(game_id)  # an unknown game is a 404 before it is a 401
            raise Unauthorized("acting needs a seat token: Authorization: Bearer <token>")
        seat = self.seat_of(game_id, token)
        assert seat is not None
        return seat

    def reissue(self, game_id: str, seat: int) -> str:
        """A new token for a person's ``seat``; the old one stops working at once, in every process
        (``seat_of`` reads the stored seats). The new token is returned once and never stored."""
        with self.live.locked(game_id):
            meta = self.store.meta(game_id)
            if not 0 <= seat < len(meta.seats):
                raise NotFound(f"game {game_id!r} has seats 0 to {len(meta.seats) - 1}, not {seat}")
            if meta.seats[seat].bot is not None:
                raise Rejected(f"seat {seat} is played by the bot {meta.seats[seat].bot!r}: it has no token")
            token = new_token()
            seats = list(meta.seats)
            seats[seat] = attrs.evolve(seats[seat], token_hash=hash_token(token))
            self.store.set_seats(game_id, seats)
            self.live.forget(game_id)  # the cached meta holds the old hash
        return token
