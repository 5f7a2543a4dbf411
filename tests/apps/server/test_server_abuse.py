"""Limits against abuse, tried as an abuser would: each test is bounded in time and count, and
uses loopback addresses only (127.0.0.2 and the like stand for other machines: Linux routes all
of 127.0.0.0/8 to the loopback interface).

In process (TestClient): bad text in an action, a client-chosen seed, games per client per minute,
bot-only games, abandoned games, independent setup decisions, idempotency keys, header count,
gzip, Cache-Control. With a real ``ttr serve`` process and real sockets: half-open connections
(slowloris), a request that never completes, an oversized request head, event streams.
"""

from __future__ import annotations

import gzip
import http.client
import json
import logging
import resource
import socket
import threading
import time
from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient

from server_kit import bearer, server_process
from test_server_api import act, create, keep_all, snap, wait_until

TWO = [{"name": "Ada"}, {"name": "Bob"}]
BOTS = [{"name": "R1", "bot": "random"}, {"name": "R2", "bot": "random"}]


# --- bad text -----------------------------------------------------------------------------------


@pytest.mark.parametrize("action", [
    {"kind": "keep-tickets", "tickets": ["\ud800"]},
    {"kind": "\ud800"},
    {"kind": "draw-card", "slot": "\udfff" * 2000},
    {"kind": "claim-route", "route": "\ud800-Denver", "color": "red"},
])
def test_a_lone_surrogate_in_an_action_is_a_4xx_with_a_reason_that_encodes(make_client, action, caplog):
    client = make_client()
    game = create(client, seed=1)
    body = json.dumps({"version": 0, "action": action})  # ensure_ascii: "\ud800" travels as its escape
    with caplog.at_level(logging.INFO, logger="ttr_server"):
        r = client.post(f"/api/games/{game['game']}/actions", content=body,
                        headers={**bearer(game["seats"][0]["token"]), "content-type": "application/json"})
    assert 400 <= r.status_code < 500, r.text
    answer = json.loads(r.content.decode("utf-8"))  # strict UTF-8: no surrogate escaped its encoding
    assert answer["error"] == "rejected" and answer["reason"]
    assert len(r.content) < 4096
    assert all(len(record.getMessage()) < 5000 for record in caplog.records)
    assert snap(client, game, 0)["version"] == 0


def test_a_surrogate_in_a_name_or_a_header_is_a_4xx(client):
    r = client.post("/api/games", content='{"variant": "usa", "seats": [{"name": "\\ud800"}, {"name": "B"}]}',
                    headers={"content-type": "application/json"})
    assert r.status_code == 422 and json.loads(r.content.decode("utf-8"))["error"]
    r = client.get("/api/games/nosuchgame", headers={"Authorization": "Bearer \udcff".encode("utf-8", "surrogateescape")})
    assert r.status_code in (401, 404)


# --- fairness -----------------------------------------------------------------------------------


def test_a_client_chosen_seed_is_refused_unless_the_server_allows_it(make_client):
    strict = make_client(allow_seed=False)
    r = strict.post("/api/games", json={"variant": "usa", "seats": TWO, "seed": 5})
    assert r.status_code == 403 and r.json()["error"] == "seed-not-allowed"
    assert "--allow-seed" in r.json()["reason"]
    assert strict.post("/api/games", json={"variant": "usa", "seats": TWO}).status_code == 201
    relaxed = make_client(allow_seed=True)
    assert relaxed.post("/api/games", json={"variant": "usa", "seats": TWO, "seed": 5}).status_code == 201


def test_no_response_a_seat_or_a_spectator_reads_carries_a_token(client):
    game = create(client, [{"name": "Ada"}, {"name": "Bob"}, {"name": "Cy"}], seed=2)
    tokens = [s["token"] for s in game["seats"]]
    keep_all(client, game, 0)
    seen = [client.get(f"/api/games/{game['game']}").text]
    for seat in range(3):
        seen.append(client.get(f"/api/games/{game['game']}", headers=bearer(tokens[seat])).text)
    s = snap(client, game, 1)
    seen.append(act(client, game, 1, s["legal"][0], s["version"]).text)
    with client.stream("GET", f"/api/games/{game['game']}/events") as r:
        seen.append(next(r.iter_lines()))
    for text in seen:
        assert not any(t in text for t in tokens), text[:200]


# --- games per client, bot-only games, abandoned games -----------------------------------------


def test_a_client_may_create_only_so_many_games_per_minute(make_client):
    client = make_client(games_per_minute=3)
    for _ in range(3):
        assert client.post("/api/games", json={"variant": "usa", "seats": TWO}).status_code == 201
    r = client.post("/api/games", json={"variant": "usa", "seats": TWO})
    assert r.status_code == 429 and r.json()["error"] == "too-many"
    assert 1 <= int(r.headers["retry-after"]) <= 60
    other = TestClient(client.app, client=("10.1.2.3", 50000))  # another address has its own count
    assert other.post("/api/games", json={"variant": "usa", "seats": TWO}).status_code == 201


def test_games_without_a_person_are_capped(make_client):
    client = make_client(max_bot_games=2, bot_delay=30.0)  # the bots wait: the games stay unfinished
    for _ in range(2):
        assert client.post("/api/games", json={"variant": "usa", "seats": BOTS}).status_code == 201
    r = client.post("/api/games", json={"variant": "usa", "seats": BOTS})
    assert r.status_code == 429 and "without a person" in r.json()["reason"]
    assert client.post("/api/games", json={"variant": "usa", "seats": [TWO[0], BOTS[0]]}).status_code == 201
    none = make_client(max_bot_games=0)
    assert none.post("/api/games", json={"variant": "usa", "seats": BOTS}).status_code == 429


def test_a_game_whose_people_all_resigned_counts_as_without_a_person(make_client):
    client = make_client(max_bot_games=1, bot_delay=30.0)  # the bots wait: the game stays unfinished
    game = create(client, [{"name": "Ada"}, *BOTS[:2]], variant="wor", seed=3)
    assert client.post(f"/api/games/{game['game']}/resign", headers=bearer(game["seats"][0]["token"])).status_code == 200
    assert snap(client, game, 0)["view"]["phase"] != "over"  # the two bots play on, with nobody watching
    r = client.post("/api/games", json={"variant": "usa", "seats": BOTS})
    assert r.status_code == 429 and "without a person" in r.json()["reason"]
    assert client.post("/api/games", json={"variant": "usa", "seats": [TWO[0], BOTS[0]]}).status_code == 201


def test_an_abandoned_game_expires_and_its_bots_are_released(make_client):
    client = make_client(expire_after=2.0)
    service = client.app.state.service
    game = create(client, [{"name": "Ada"}, {"name": "Robo", "bot": "random"}], seed=4)
    keep_all(client, game, 0)
    wait_until(lambda: service.status(game["game"]).to_act == (0,) and snap(client, game, 0)["view"]["phase"] == "play")
    assert game["game"] in service.bots.games_held()  # the bot waits for Ada, who has gone
    wait_until(lambda: service.status(game["game"]).ended == "expired", timeout=15)
    # the sweep releases the bots right after it commits the end
    wait_until(lambda: game["game"] not in service.bots.games_held(), timeout=5)
    s = snap(client, game, 0)
    assert s["legal"] == [] and not s["can_resign"]  # the page offers nothing more
    r = act(client, game, 0, {"kind": "draw-card", "slot": None}, s["version"])
    assert r.status_code == 409 and r.json()["error"] == "game-ended"


# --- setup decisions, idempotency --------------------------------------------------------------


def test_players_keeping_their_starting_tickets_at_the_same_moment_both_succeed(client):
    # R-SET-6: starting tickets are chosen at the same time, in any order
    refused = 0
    for k in range(20):
        game = create(client, seed=k)
        reads = [snap(client, game, seat) for seat in (0, 1)]
        start = threading.Barrier(2)
        answers = [None, None]

        def keep(seat):
            biggest = max((a for a in reads[seat]["legal"] if a["kind"] == "keep-tickets"),
                          key=lambda a: len(a["tickets"]))
            start.wait(5)
            answers[seat] = act(client, game, seat, biggest, reads[seat]["version"])

        threads = [threading.Thread(target=keep, args=(seat,)) for seat in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        refused += sum(a.status_code == 409 for a in answers)
        assert all(a.status_code in (200, 409) for a in answers), [a.text for a in answers]
        if all(a.status_code == 200 for a in answers):
            assert snap(client, game, 0)["view"]["phase"] == "play"
    assert refused == 0


def test_an_idempotency_key_makes_a_resent_action_safe(make_client, tmp_path):
    url = f"sqlite:///{tmp_path / 'keys.sqlite3'}"
    client = make_client(db_url=url)
    game = create(client, seed=3)
    keep_all(client, game, 0)
    keep_all(client, game, 1)
    s = snap(client, game, 0)
    draw = {"version": s["version"], "action": {"kind": "draw-card", "slot": None}}
    headers = {**bearer(game["seats"][0]["token"]), "Idempotency-Key": "draw-1"}
    path = f"/api/games/{game['game']}/actions"
    first = client.post(path, json=draw, headers=headers)
    assert first.status_code == 200
    again = client.post(path, json=draw, headers=headers)  # its answer was lost: sent again
    assert again.status_code == 200 and again.json() == first.json()
    assert snap(client, game, 0)["version"] == s["version"] + 1  # applied once
    other = client.post(path, json={**draw, "action": {"kind": "draw-card", "slot": 0}}, headers=headers)
    assert other.status_code == 422 and other.json()["error"] == "idempotency-key-reused"
    without = client.post(path, json=draw, headers=bearer(game["seats"][0]["token"]))
    assert without.status_code == 409  # without a key, a resend is stale: the client cannot tell
    restarted = make_client(db_url=url)  # the key is stored with the action: a restart keeps it
    assert restarted.post(path, json=draw, headers=headers).json() == first.json()
    assert snap(restarted, game, 0)["version"] == s["version"] + 1


# --- headers, gzip, caching ---------------------------------------------------------------------


def test_a_request_with_too_many_header_fields_is_431(client):
    headers = {f"x-filler-{i}": "1" for i in range(200)}
    r = client.get("/api/variants", headers=headers)
    assert r.status_code == 431 and r.json()["error"] == "too-many-headers"
    assert client.get("/api/variants").status_code == 200


def test_large_responses_are_gzipped_for_clients_that_accept_it(client):
    r = client.get("/api/variants/usa/board", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    assert int(r.headers["content-length"]) < len(r.content) / 3  # the board compresses well
    assert r.json()["map"]
    plain = client.get("/api/variants/usa/board", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.json() == r.json()


def test_responses_with_tokens_or_a_seats_view_are_not_stored_by_caches(client):
    created = client.post("/api/games", json={"variant": "usa", "seats": TWO, "seed": 1})
    game = created.json()
    read = client.get(f"/api/games/{game['game']}", headers=bearer(game["seats"][0]["token"]))
    s = read.json()
    acted = act(client, game, 0, s["legal"][0], s["version"])
    for r in (created, read, acted):
        assert r.headers["cache-control"] == "no-store", r.request.url


# --- real sockets against a real server process ------------------------------------------------

LIMITED = ("--allow-seed", "--request-timeout", "1", "--idle-timeout", "1", "--connections-per-client", "50",
           "--streams-per-client", "2", "--streams-per-game", "3")


def _low_file_limit():
    # the soft limit of many hosts (systemd's default for services): 1024 descriptors
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


def _port(server) -> int:
    return int(server.base.rsplit(":", 1)[1])


def _get(server, path: str, source: str = "127.0.0.1", timeout: float = 5.0) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", _port(server), timeout=timeout, source_address=(source, 0))
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


PARSERS = pytest.mark.parametrize("parser", ["httptools", "h11"])


@PARSERS
def test_thousands_of_half_open_connections_do_not_lock_others_out(tmp_path, parser):
    with server_process(f"sqlite:///{tmp_path / 'g.sqlite3'}", tmp_path, options=(*LIMITED, "--http", parser),
                        preexec_fn=_low_file_limit) as server, ExitStack() as held:
        for _ in range(2000):  # slowloris from another address: a request head that never ends
            s = held.enter_context(socket.socket())
            s.settimeout(2)
            s.bind(("127.0.0.2", 0))
            try:
                s.connect(("127.0.0.1", _port(server)))
                s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            except OSError:
                pass  # refused or closed by the server: what a guard does
        started = time.monotonic()
        assert _get(server, "/api/health", timeout=5.0) == 200
        assert time.monotonic() - started < 5.0


def _tiny_file_limit():
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))  # soft and hard: the server cannot raise it


def _post_status(server, path: str, body: dict, timeout: float = 5.0) -> int | str:
    conn = http.client.HTTPConnection("127.0.0.1", _port(server), timeout=timeout)
    try:
        conn.request("POST", path, body=json.dumps(body), headers={"content-type": "application/json"})
        return conn.getresponse().status
    except OSError as exc:
        return type(exc).__name__
    finally:
        conn.close()


@pytest.mark.slow
def test_a_flood_from_many_addresses_past_the_file_limit_gets_503s_never_500s(tmp_path):
    # 40 loopback addresses, 12 half-open connections each (under the per-address cap of 50): 480
    # connections against a server allowed 256 open files, with the default --max-connections
    with server_process(f"sqlite:///{tmp_path / 'g.sqlite3'}", tmp_path, options=LIMITED,
                        preexec_fn=_tiny_file_limit) as server, ExitStack() as held:
        answers = []
        for k in range(480):
            s = held.enter_context(socket.socket())
            s.settimeout(2)
            s.bind((f"127.0.1.{k % 40 + 1}", 0))
            try:
                s.connect(("127.0.0.1", _port(server)))
                s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            except OSError:
                pass
            if k % 40 == 39:  # a person creating a game while the flood goes on
                answers.append(_post_status(server, "/api/games", {"variant": "usa", "seats": TWO}))
        # a broken pipe or a reset: the server answered 503 and closed before reading the request (as
        # it may); which of the two the client sees depends on when the close reaches it
        assert set(answers) <= {201, 503, "BrokenPipeError", "ConnectionResetError"}, answers
        assert 503 in answers  # the flood filled what the server can hold: it said so
    log = server.log.read_text()
    assert "Too many open files" not in log and "Errno 24" not in log, log[-2000:]
    assert "at most 96 connections, 256 open files" in log


@PARSERS
def test_a_request_head_or_body_that_never_completes_is_cut_off(tmp_path, parser):
    with server_process(f"sqlite:///{tmp_path / 'g.sqlite3'}", tmp_path, options=(*LIMITED, "--http", parser)) as server:
        with socket.create_connection(("127.0.0.1", _port(server)), timeout=8) as s:
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # and nothing more
            assert _closed_within(s, 5)
        with socket.create_connection(("127.0.0.1", _port(server)), timeout=8) as s:
            s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100\r\n\r\n{")  # a body that never comes
            assert _closed_within(s, 5)
        with socket.create_connection(("127.0.0.1", _port(server)), timeout=8) as s:
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            time.sleep(0.3)
            assert s.recv(1024).startswith(b"HTTP/1.1 200")  # a kept-alive connection
            s.sendall(b"GET /api/health HTTP/1.1\r\n")  # whose next request never ends
            assert _closed_within(s, 5)
        with socket.create_connection(("127.0.0.1", _port(server)), timeout=8) as s:
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            time.sleep(0.3)
            assert s.recv(1024).startswith(b"HTTP/1.1 200")
            assert _closed_within(s, 3)  # an idle kept-alive connection: --idle-timeout


def _closed_within(s: socket.socket, seconds: float) -> bool:
    started = time.monotonic()
    try:
        while s.recv(1024):
            pass
    except TimeoutError:
        return False
    return time.monotonic() - started < seconds


@PARSERS
@pytest.mark.parametrize("pieces", [1, 64])
def test_an_oversized_request_head_is_refused_and_closed(tmp_path, parser, pieces):
    head = b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 64 * 1024 + b"\r\n\r\n"
    with server_process(f"sqlite:///{tmp_path / 'g.sqlite3'}", tmp_path, options=(*LIMITED, "--http", parser)) as server:
        with socket.create_connection(("127.0.0.1", _port(server)), timeout=8) as s:
            answer = b""
            try:
                step = len(head) // pieces + 1
                for k in range(0, len(head), step):  # at once, or in pieces as a slow sender would
                    s.sendall(head[k:k + step])
            except (BrokenPipeError, ConnectionResetError):
                pass  # closed before the end of the head: the answer is already there
            try:
                while chunk := s.recv(65536):
                    answer += chunk
            except ConnectionResetError:
                pass
        assert answer.split(b" ", 2)[1] == b"431", answer[:100]
        assert _get(server, "/api/health") == 200


def test_event_streams_are_capped_per_client_and_per_game(tmp_path):
    with server_process(f"sqlite:///{tmp_path / 'g.sqlite3'}", tmp_path, options=LIMITED) as server:
        conn = http.client.HTTPConnection("127.0.0.1", _port(server), timeout=5)
        conn.request("POST", "/api/games", json.dumps({"variant": "usa", "seats": TWO}),
                     {"content-type": "application/json"})
        gid = json.load(conn.getresponse())["game"]
        path = f"/api/games/{gid}/events"

        def open_stream(source):
            c = http.client.HTTPConnection("127.0.0.1", _port(server), timeout=5, source_address=(source, 0))
            c.request("GET", path)
            r = c.getresponse()
            if r.status == 200:
                assert r.readline().startswith(b"event: change")
            return c, r

        opened = [open_stream("127.0.0.1"), open_stream("127.0.0.1")]
        third = open_stream("127.0.0.1")[1]
        assert third.status == 429 and b"from one address" in third.read()
        opened.append(open_stream("127.0.0.3"))  # another client: the game's third stream
        fourth = open_stream("127.0.0.4")[1]
        assert fourth.status == 429 and b"on one game" in fourth.read()
        opened.pop(0)[0].close()  # a stream that ends gives its place back
        wait_until(lambda: _open_status(open_stream, opened) == 200, timeout=10)
        for c, _ in opened:
            c.close()


def _open_status(open_stream, opened) -> int:
    c, r = open_stream("127.0.0.1")
    if r.status == 200:
        opened.append((c, r))
    else:
        c.close()
    return r.status
