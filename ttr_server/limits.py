"""Limits against abuse at the application level, and the headers every response carries.

ASGI middleware: a cap on request bodies (``BodyLimit``) and on the number of request headers
(``HeaderLimit``), ``Cache-Control: no-store`` on game responses (``NoStore``), the security
headers (``SecurityHeaders``). Plain ASGI rather than Starlette's BaseHTTPMiddleware: that one
buffers streaming responses, which would hold back the event streams.

The counters the endpoints consult (games created per client per minute, event streams open
per client and per game) count in the database, shared by every server process:
``shared_limits.py``.

The limits on connections themselves (header size, header and idle timeouts, connections per
client) are at the socket level, in ``connections.py``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ttr_server.errors import SeedRefused, TooMany
from ttr_server.shared_limits import SharedRateLimit

if TYPE_CHECKING:
    from ttr_server.service import GameService


class BodyLimit:
    """Refuse a request whose body is larger than ``max_body`` bytes with 413, before the
    application reads any of it (a declared Content-Length) or as soon as it is exceeded."""

    def __init__(self, app, max_body: int):
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            try:
                size = int(declared)
            except ValueError:
                await _refuse(send, 400, "bad-request", "Content-Length is not a number")
                return
            if size > self.max_body:
                await _refuse(send, 413, "too-large", f"the body is {size} bytes; the limit is {self.max_body}")
                return
        # Read the whole body first (it is small by the rule above, or cut off at the limit), then
        # hand it to the application: a chunked body over the limit is refused the same way.
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await _refuse(send, 413, "too-large", f"the body is over the limit of {self.max_body} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay():
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: disconnect notices, for streams

        await self.app(scope, replay, send)


class HeaderLimit:
    """Refuse a request with more than ``max_headers`` header fields with 431 (their total size
    is bounded before this, by the HTTP parser: ``connections.py``)."""

    def __init__(self, app, max_headers: int):
        self.app = app
        self.max_headers = max_headers

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and len(scope.get("headers") or ()) > self.max_headers:
            await _refuse(send, 431, "too-many-headers",
                          f"the request has {len(scope['headers'])} header fields; the limit is {self.max_headers}")
            return
        await self.app(scope, receive, send)


class NoStore:
    """``Cache-Control: no-store`` on every /api/games response: they carry tokens (a creation) or
    a seat's view (its hand), which no shared or browser cache may keep."""

    def __init__(self, app, prefix: str = "/api/games"):
        self.app = app
        self.prefix = prefix

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not scope.get("path", "").startswith(self.prefix):
            await self.app(scope, receive, send)
            return

        async def send_no_store(message):
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers") or [] if k.lower() != b"cache-control"]
                message = {**message, "headers": [*headers, (b"cache-control", b"no-store")]}
            await send(message)

        await self.app(scope, receive, send_no_store)


async def _refuse(send, status: int, code: str, reason: str) -> None:
    body = json.dumps({"error": code, "reason": reason}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


# The page loads nothing from elsewhere and runs no inline script: a strict policy costs nothing.
_CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
_DOCS_CSP = "frame-ancestors 'none'"  # /api/docs (Swagger UI) loads its script from a CDN


class SecurityHeaders:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = (_DOCS_CSP if scope.get("path", "").startswith("/api/docs") else _CSP).encode()

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                headers += [
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"content-security-policy", csp),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class Admission:
    """The check every new game passes (``POST /api/games`` and the lobby's), called with the
    request, the client's seed (None: the server draws one) and whether every seat is a bot: a
    client's seed only with ``allow_seed``, at most ``games_per_minute`` new games per client
    address, and at most ``max_bot_games`` unfinished games without a person."""

    def __init__(self, service: GameService, *, allow_seed: bool, games_per_minute: int, max_bot_games: int):
        self.service = service
        self.allow_seed = allow_seed
        self.games_per_minute = games_per_minute
        self.max_bot_games = max_bot_games
        self.creations = SharedRateLimit(service.engine, "create-game", games_per_minute, 60.0)

    def __call__(self, request, seed: int | None, bots_only: bool) -> None:
        if seed is not None and not self.allow_seed:
            raise SeedRefused("this server does not take a client's seed (whoever knows it knows every hand); "
                              "it was not started with --allow-seed")
        wait = self.creations.take(client_address(request))
        if wait:
            raise TooMany(f"at most {self.games_per_minute} new games per minute from one address",
                          retry_after=int(wait) + 1)
        if bots_only:
            running = self.service.running_bot_only_games()
            if running >= self.max_bot_games:
                raise TooMany(f"{running} games without a person are running; this server allows "
                              f"{self.max_bot_games}: seat a person, or try again later", retry_after=60)


def client_address(request) -> str:
    """The peer's address; behind a reverse proxy, the one it forwards (uvicorn's --forwarded-allow-ips)."""
    return request.client.host if request.client else "unknown"
