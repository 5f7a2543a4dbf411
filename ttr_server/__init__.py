"""ttr_server: Ticket to Ride games over HTTP, with durable storage and a page to play in.

Run it with ``ttr serve`` (needs the ``serve`` extra: ``pip install "ttr-engine[serve]"``)::

    ttr serve                                   # SQLite file ./ttr-games.sqlite3, http://127.0.0.1:8000/
    ttr serve --db sqlite:////var/lib/ttr/games.sqlite3 --host 0.0.0.0 --port 8080
    TTR_DATABASE_URL=postgresql://ttr:secret@db/ttr ttr serve   # several processes behind a load balancer

``/`` creates a game (variant, rules version, seats: people or server-side bots); each person
gets a secret link ``/play/<game>#<token>`` and anybody may watch at ``/watch/<game>``. The API
is described by ``/api/openapi.json`` (browsable at ``/api/docs``):

====================================  ============================================================
``GET  /api/variants``                variants, their rules versions, bot kinds
``GET  /api/variants/{id}/board``     a map: cities with coordinates, routes, tickets
``POST /api/games``                   create: one token per person's seat, shown once
``GET  /api/games/{id}``              the view of the token's seat (or a spectator's), legal actions
``POST /api/games/{id}/actions``      ``{"version": n, "action": {...}}``; 409 if the game moved on
                                      (``Idempotency-Key`` header: a resend gets the first answer)
``POST /api/games/{id}/resign``       where the variant's rules have a resign action
``GET  /api/games/{id}/events``       server-sent events: the public status on every change
``GET  /api/games/{id}/record``       the record (``ttr replay`` reads it), once the game is over
====================================  ============================================================

How it holds together:

- ``db.py``: two tables, ``games`` and the append-only ``actions`` log, migrated by Alembic
  (``migrations/``) at start-up. A game's state is never stored: it is the replay of its log
  under the variant id and rules version the game was created with, so a game stays on its
  rules when the variant's current version moves on.
- ``service.py``: an action is checked and applied to the live game in memory, then its log entry
  and the game's new version (and state digest) are written in one transaction, conditional on
  the version it was based on; only then is it acknowledged. The service holds its concerns
  together: ``storage.py`` (the database's reads and writes; writes waiting together share one
  commit, ``db.GroupCommit``), ``live.py`` (live games, brought level with the log before every
  use, so several processes can serve the same games from one PostgreSQL database; a lock per
  game), ``seats.py`` (seats and tokens), ``idempotency.py`` (a resent action applied once),
  ``expiry.py`` (games aborted, expired, deleted), ``listing.py``, ``bot_runner.py`` (the
  server's bots). What a seat may do, in or out of turn, it asks of the engine (``Game.acting``).
- Tokens come from ``secrets``; only their SHA-256 is stored, compared in constant time. A seat
  sees ``game.view(seat)`` and nothing else; the event stream carries only public data.
- ``app.py``: the FastAPI application, with its routers by resource in ``routes/`` (variants,
  games, actions, the game page's data, the lobby, the health check, the pages); ``errors.py``:
  the refusals and their status codes; ``limits.py``: the limits against abuse at the application
  level (body size, header count, games per client, event streams) and the headers every response
  carries; ``connections.py``: the limits at the socket level (request deadline, connections per
  client, request-head size); ``backup.py``: backups during play; ``events.py``: wakes the event
  streams; ``lobby.py``: games whose seats are taken by invitation; ``moves.py``: what the game
  page shows beside the board; ``static/``: the page (HTML, JS, SVG; no build step).
"""
