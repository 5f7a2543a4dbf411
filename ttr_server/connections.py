"""Limits on connections, at the socket level: what a client can hold without sending a request.

Uvicorn, as configured by default, gives a connection no deadline until its first request is
complete: a client that opens thousands of connections and sends each a few bytes of headers
("slowloris") holds a file descriptor per connection for ever, and once the process runs out of
them nobody else is served. ``guarded_protocol`` (uvicorn's protocol, given to ``uvicorn.Config``
as ``http=``; on httptools, uvicorn's faster parser, where it is installed, or on h11) adds:

- a request deadline: the headers and the body of a request must arrive within
  ``request_timeout`` seconds of the connection opening (or of the previous response); a
  connection still sending them then is closed;
- a cap on connections open from one client address (``per_client``): beyond it a new
  connection is closed at once, before anything is read;
- a cap on the size of a request head (its line and headers, ``max_header_bytes``): a larger
  one is answered 431 and the connection closed. (h11's own ``max_incomplete_event_size``, set
  to the same, only applies to a head that arrives in several pieces.)

- a cap on the connections open at once from all clients (``max_connections``): beyond it a new
  connection is answered 503 with ``Retry-After`` and closed at once, before anything is read, so
  that the process never runs out of file descriptors (it needs some for its database, files and
  logs: an exhausted process answers 500s and resets connections).

The idle timeout between two requests of a kept-alive connection is uvicorn's
``timeout_keep_alive``; the requests in progress are also bounded by uvicorn's
``limit_concurrency``. ``uvicorn_options`` gathers all of them for ``uvicorn.run``.

``max_connections`` defaults to what the process's file-descriptor limit allows:
``raise_file_limit`` lifts the soft limit to the hard one at start, and
``connections_for(limit)`` leaves ``RESERVED_DESCRIPTORS`` of it to the rest of the server.
"""

from __future__ import annotations

import json
import resource
from collections import Counter
from typing import Any

import attrs
import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # httptools is optional for uvicorn: h11 is always there
    HttpToolsProtocol = None


#: file descriptors kept for what is not a client's connection: the database's connection pools
#: (SQLite holds three files per connection: the database, its write-ahead log and shared memory;
#: PostgreSQL a socket each), the listening socket, the event loop, log and static files
RESERVED_DESCRIPTORS = 160


def raise_file_limit() -> int:
    """Lift this process's soft limit on open files to its hard limit; return the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):  # a limit the system will not grant: keep the one we have
            pass
    return soft


def connections_for(file_limit: int) -> int:
    """The connections a process with ``file_limit`` descriptors can hold and still work."""
    return max(16, file_limit - RESERVED_DESCRIPTORS)


@attrs.frozen
class ConnectionLimits:
    """The socket-level limits of ``ttr serve`` (its options of the same names); 0: no limit."""

    max_header_bytes: int = 8 * 1024  # the request line and headers together
    request_timeout: float = 10.0  # seconds for a request's headers and body to arrive
    idle_timeout: float = 5.0  # seconds a kept-alive connection may wait for its next request
    per_client: int = 64  # connections open at once from one client address
    max_connections: int = 1000  # connections open at once; beyond: 503 and closed (see ``connections_for``)


class _Guard:
    """What both parsers' guarded protocols share: the count of connections per client, the
    request deadline, the refusal of an oversized request head. A subclass says whether a request
    is still coming in (``_receiving``) and watches the head's size as its parser allows."""

    limits: ConnectionLimits
    open_by_client: Counter
    _deadline = None
    _counted: str | None = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        host = self.client[0] if self.client else "unknown"
        if self.limits.per_client and self.open_by_client[host] >= self.limits.per_client:
            transport.abort()  # close at once: this address holds enough connections
            return
        if self.limits.max_connections and self.open_by_client.total() >= self.limits.max_connections:
            self._refuse_connection()  # the server holds all it can: say so, before reading anything
            return
        self.open_by_client[host] += 1
        self._counted = host
        self._arm()

    def connection_lost(self, exc) -> None:
        if self._counted is not None:
            self.open_by_client[self._counted] -= 1
            if self.open_by_client[self._counted] <= 0:
                del self.open_by_client[self._counted]
            self._counted = None
        self._disarm()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()  # the next request on this connection has its own deadline

    def _arm(self) -> None:
        self._disarm()
        if self.limits.request_timeout:
            self._deadline = self.loop.call_later(self.limits.request_timeout, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        # Once a request is in, the application answers in its own time (event streams last long).
        if self._receiving() and not self.transport.is_closing():
            self.transport.close()

    def _refuse_connection(self) -> None:
        body = json.dumps({"error": "busy", "reason": "the server holds as many connections as it can; try again"})
        self.transport.write(
            b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\n"
            b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body.encode())
        self.transport.close()

    def _refuse_head(self) -> None:
        if self.transport.is_closing():
            return
        body = json.dumps({"error": "header-too-large",
                           "reason": f"the request line and headers are over {self.limits.max_header_bytes} bytes"})
        self.transport.write(
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
            b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body.encode())
        self.transport.close()


class _GuardedH11(_Guard, H11Protocol):
    def _receiving(self) -> bool:
        # IDLE: the request head is not complete; SEND_BODY: its body is not
        return self.conn.their_state in (h11.IDLE, h11.SEND_BODY)

    def data_received(self, data: bytes) -> None:
        if self.limits.max_header_bytes and self.conn.their_state is h11.IDLE and self._head_too_large(data):
            self._refuse_head()
            return
        super().data_received(data)

    def _head_too_large(self, data: bytes) -> bool:
        buffered = self.conn.trailing_data[0] + data  # what h11 holds of this head, and the new bytes
        end = buffered.find(b"\r\n\r\n")
        return (len(buffered) if end < 0 else end + 4) > self.limits.max_header_bytes


class _HeadTooLarge(Exception):
    pass


class _GuardedHttpTools(_Guard, HttpToolsProtocol):
    _head_done = False  # the current request's head is complete
    _message_done = False  # and its body
    _head_bytes = 0  # bytes received since the current head began (a bound on its size)
    _too_large = False

    def _receiving(self) -> bool:
        return not self._message_done

    def data_received(self, data: bytes) -> None:
        if self._too_large:
            return
        if not self._head_done:
            self._head_bytes += len(data)
        super().data_received(data)
        if self.limits.max_header_bytes and not self._head_done and self._head_bytes > self.limits.max_header_bytes:
            self._too_large = True
            self._refuse_head()

    def on_message_begin(self) -> None:
        self._message_done = False
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        self._head_done = True
        size = len(self.url) + sum(len(n) + len(v) + 4 for n, v in self.headers)
        if self.limits.max_header_bytes and size > self.limits.max_header_bytes:
            self._too_large = True
            raise _HeadTooLarge  # stops the parser; answered in send_400_response
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._message_done = True
        self._head_done, self._head_bytes = False, 0  # the next request's head starts here
        super().on_message_complete()

    def send_400_response(self, msg: str) -> None:
        if self._too_large:
            self._refuse_head()
        else:
            super().send_400_response(msg)


PARSERS = ("httptools", "h11")


def guarded_protocol(limits: ConnectionLimits, parser: str = "auto") -> type:
    """A uvicorn protocol class applying ``limits`` on ``parser`` ("httptools", the faster, where
    it is installed; "h11"; "auto": httptools if it can be imported). Each call makes a class with
    its own counts."""
    if parser == "auto":
        parser = "httptools" if HttpToolsProtocol is not None else "h11"
    if parser == "httptools" and HttpToolsProtocol is None:
        raise ValueError("the httptools parser is not installed (pip install httptools), or use h11")
    base = _GuardedHttpTools if parser == "httptools" else _GuardedH11
    return type(f"Guarded{parser.capitalize()}", (base,), {"limits": limits, "open_by_client": Counter()})


def uvicorn_options(limits: ConnectionLimits, parser: str = "auto") -> dict[str, Any]:
    """Keyword arguments for ``uvicorn.run``/``uvicorn.Config`` that apply ``limits``."""
    return {
        "http": guarded_protocol(limits, parser),
        "h11_max_incomplete_event_size": limits.max_header_bytes or None,
        "timeout_keep_alive": limits.idle_timeout or 5,
        "limit_concurrency": limits.max_connections or None,
    }
