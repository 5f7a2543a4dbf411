"""ASGI middleware: a cap on request bodies, and the headers every response carries.

Plain ASGI rather than Starlette's BaseHTTPMiddleware: that one buffers streaming responses,
which would hold back the event streams.
"""

from __future__ import annotations

import json


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
