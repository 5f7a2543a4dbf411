"""Limits on connections, at the socket level: what a client can hold without sending a request.

Uvicorn, as configured by default, gives a connection no deadline until its first request is
complete: a client that opens thousands of connections and sends each a few bytes of headers
("slowloris") holds a file descriptor per connection for ever, and once the process runs out of
them nobody else is served. ``GuardedH11`` (uvicorn's h11 protocol, given to ``uvicorn.Config``
as ``http=``) adds:

- a request deadline: the headers and the body of a request must arrive within
  ``request_timeout`` seconds of the connection opening (or of the previous response); a
  connection still sending them then is closed;
- a cap on connections open from one client address (``per_client``): beyond it a new
  connection is closed at once, before anything is read;
- a cap on the size of a request head (its line and headers, ``max_header_bytes``): a larger
  one is answered 431 and the connection closed. (h11's own ``max_incomplete_event_size``, set
  to the same, only applies to a head that arrives in several pieces.)

The idle timeout between two requests of a kept-alive connection is uvicorn's
``timeout_keep_alive``; the total number of connections is uvicorn's ``limit_concurrency``.
``uvicorn_options`` gathers all of them for ``uvicorn.run``.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import attrs
import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


@attrs.frozen
class ConnectionLimits:
    """The socket-level limits of ``ttr serve`` (its options of the same names); 0: no limit."""

    max_header_bytes: int = 8 * 1024  # the request line and headers together
    request_timeout: float = 10.0  # seconds for a request's headers and body to arrive
    idle_timeout: float = 5.0  # seconds a kept-alive connection may wait for its next request
    per_client: int = 64  # connections open at once from one client address
    max_connections: int = 1000  # connections and requests in progress; beyond: 503 (mind the fd limit)


def guarded_protocol(limits: ConnectionLimits) -> type[H11Protocol]:
    """An h11 protocol class applying ``limits``; each call makes a class with its own counts."""

    open_by_client: Counter[str] = Counter()

    class GuardedH11(H11Protocol):
        _deadline = None
        _counted: str | None = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            host = self.client[0] if self.client else "unknown"
            if limits.per_client and open_by_client[host] >= limits.per_client:
                transport.abort()  # close at once: this address holds enough connections
                return
            open_by_client[host] += 1
            self._counted = host
            self._arm()

        def connection_lost(self, exc) -> None:
            if self._counted is not None:
                open_by_client[self._counted] -= 1
                if open_by_client[self._counted] <= 0:
                    del open_by_client[self._counted]
                self._counted = None
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if limits.max_header_bytes and self.conn.their_state is h11.IDLE and self._head_too_large(data):
                self._refuse_head()
                return
            super().data_received(data)

        def _head_too_large(self, data: bytes) -> bool:
            buffered = self.conn.trailing_data[0] + data  # what h11 holds of this head, and the new bytes
            end = buffered.find(b"\r\n\r\n")
            return (len(buffered) if end < 0 else end + 4) > limits.max_header_bytes

        def _refuse_head(self) -> None:
            body = json.dumps({"error": "header-too-large",
                               "reason": f"the request line and headers are over {limits.max_header_bytes} bytes"})
            self.transport.write(
                b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
                b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body.encode())
            self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()  # the next request on this connection has its own deadline

        def _arm(self) -> None:
            self._disarm()
            if limits.request_timeout:
                self._deadline = self.loop.call_later(limits.request_timeout, self._expired)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expired(self) -> None:
            self._deadline = None
            # IDLE: the request head is not complete; SEND_BODY: its body is not. Once the request
            # is in (DONE), the application answers in its own time (event streams last long).
            if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
                self.transport.close()

    return GuardedH11


def uvicorn_options(limits: ConnectionLimits) -> dict[str, Any]:
    """Keyword arguments for ``uvicorn.run``/``uvicorn.Config`` that apply ``limits``."""
    return {
        "http": guarded_protocol(limits),
        "h11_max_incomplete_event_size": limits.max_header_bytes or None,
        "timeout_keep_alive": limits.idle_timeout or 5,
        "limit_concurrency": limits.max_connections or None,
    }
