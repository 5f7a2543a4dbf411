"""Several server processes on one PostgreSQL database (a host behind a load balancer): a game
created through one is played through both, each process bringing its copy level with the log
before acting, a version made stale by the other process is refused, a change made through
one reaches the event stream of the other at once (LISTEN/NOTIFY), and the per-client limits
count what a client does through every process."""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.error
import urllib.request

import pytest

from server_kit import server_process


def _call(base, path, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                 headers=headers, method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


@pytest.mark.slow
def test_two_processes_play_the_same_games_through_postgresql(postgres, tmp_path):
    url = postgres.new_database()
    with server_process(url, tmp_path) as one, server_process(url, tmp_path) as two:
        status, game = _call(one.base, "/api/games", {"variant": "usa", "seed": 21,
                                                      "seats": [{"name": "Ada"}, {"name": "Bob"}]})
        assert status == 201
        gid = game["game"]
        tokens = [s["token"] for s in game["seats"]]
        # the other process follows the game's events
        seen: list[int] = []
        follower = threading.Thread(target=_follow, args=(two.base, gid, seen, 40), daemon=True)
        follower.start()
        rng = random.Random(21)
        servers = [one, two]
        for i in range(40):
            read, write = servers[i % 2], servers[(i + 1) % 2]  # read from one, act through the other
            _, spectator = _call(read.base, f"/api/games/{gid}")
            seat = spectator["view"]["to_act"][0]
            _, snap = _call(read.base, f"/api/games/{gid}", token=tokens[seat])
            assert snap["version"] == i
            action = rng.choice(snap["legal"])
            status, done = _call(write.base, f"/api/games/{gid}/actions", {"version": i, "action": action}, tokens[seat])
            assert status == 200, done
            assert done["version"] == i + 1
            # the same action again, through the first process: stale there too
            status, refused = _call(read.base, f"/api/games/{gid}/actions", {"version": i, "action": action}, tokens[seat])
            assert status == 409 and refused["version"] == i + 1
        follower.join(30)
        # A stream sends the latest version when it changes (changes in between may merge into
        # one event). The last action went through process one: process two's stream saw it
        # all the same, from the stored version.
        assert seen == sorted(set(seen)) and seen[0] == 0 and seen[-1] == 40
        # both processes serve the same state to every reader
        for token in (None, *tokens):
            assert _call(one.base, f"/api/games/{gid}", token=token)[1] == _call(two.base, f"/api/games/{gid}", token=token)[1]


def _follow(base, gid, seen, last):
    with urllib.request.urlopen(f"{base}/api/games/{gid}/events", timeout=60) as stream:
        for raw in stream:
            line = raw.decode().strip()
            if line.startswith("data: "):
                seen.append(json.loads(line[6:])["version"])
                if seen[-1] >= last:
                    return


SHARED = ("--allow-seed", "--max-bot-games", "1000", "--connections-per-client", "0", "--stream-poll", "60")


@pytest.mark.slow
def test_a_move_through_one_process_reaches_a_stream_of_the_other_at_once(postgres, tmp_path):
    # streams look at the database only once a minute here: an event within seconds came by NOTIFY
    url = postgres.new_database()
    with server_process(url, tmp_path, options=SHARED) as one, server_process(url, tmp_path, options=SHARED) as two:
        status, game = _call(one.base, "/api/games", {"variant": "usa", "seed": 5,
                                                      "seats": [{"name": "Ada"}, {"name": "Bob"}]})
        assert status == 201
        gid, token = game["game"], game["seats"][0]["token"]
        seen: list[int] = []
        follower = threading.Thread(target=_follow, args=(two.base, gid, seen, 1), daemon=True)
        follower.start()
        deadline = time.monotonic() + 20
        while not seen and time.monotonic() < deadline:  # the stream's first event: it is open
            time.sleep(0.05)
        _, snap = _call(one.base, f"/api/games/{gid}", token=token)
        keep = next(a for a in snap["legal"] if a["kind"] == "keep-tickets")
        acted = time.monotonic()
        assert _call(one.base, f"/api/games/{gid}/actions", {"version": 0, "action": keep}, token)[0] == 200
        follower.join(30)
        assert seen == [0, 1]
        assert time.monotonic() - acted < 10  # well under the streams' 60 s look


@pytest.mark.slow
def test_the_per_client_limits_count_across_processes(postgres, tmp_path):
    url = postgres.new_database()
    options = (*SHARED, "--games-per-minute", "3", "--streams-per-client", "2")
    with server_process(url, tmp_path, options=options) as one, server_process(url, tmp_path, options=options) as two:
        seats = {"variant": "usa", "seats": [{"name": "Ada"}, {"name": "Bob"}]}
        made = [_call(server.base, "/api/games", seats) for server in (one, two, one)]
        assert [status for status, _ in made] == [201, 201, 201]
        refused, body = _call(two.base, "/api/games", seats)  # the fourth in a minute, through the other process
        assert refused == 429 and "per minute" in body["reason"]
        gid = made[0][1]["game"]
        streams = [urllib.request.urlopen(f"{s.base}/api/games/{gid}/events", timeout=30) for s in (one, two)]
        try:
            for stream in streams:
                assert stream.readline().startswith(b"event: change")
            try:
                urllib.request.urlopen(f"{one.base}/api/games/{gid}/events", timeout=30)
                third = 200
            except urllib.error.HTTPError as exc:
                third = exc.code
            assert third == 429  # two streams are open from this address, one through each process
        finally:
            for stream in streams:
                stream.close()
