"""The HTTP API: creating games, reading them as a seat or a spectator, acting, the refusals
(each a 4xx with a reason), resigning, records, rules versions side by side, bots, events."""

from __future__ import annotations

import functools
import json
import random
import subprocess
import sys
import threading
import time

import attrs
import pytest
import sqlalchemy as sa

from server_kit import bearer
from ttr_core import record, variant
from ttr_core.errors import PluginError
from ttr_core.manager import plugin_class

TWO = [{"name": "Ada"}, {"name": "Bob"}]


def create(client, seats=TWO, **extra) -> dict:
    r = client.post("/api/games", json={"variant": "usa", "seats": seats, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def snap(client, game, seat=None) -> dict:
    headers = bearer(game["seats"][seat]["token"]) if seat is not None else {}
    r = client.get(f"/api/games/{game['game']}", headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


def act(client, game, seat, action, version):
    return client.post(f"/api/games/{game['game']}/actions", headers=bearer(game["seats"][seat]["token"]),
                       json={"version": version, "action": action})


def keep_all(client, game, seat) -> None:
    for _ in range(20):  # a server bot may act in between: a stale version is read again, as a client does
        s = snap(client, game, seat)
        biggest = max((a for a in s["legal"] if a["kind"] == "keep-tickets"), key=lambda a: len(a["tickets"]))
        r = act(client, game, seat, biggest, s["version"])
        if r.status_code != 409:
            assert r.status_code == 200, r.text
            return
    raise AssertionError("the game kept moving on")


def wait_until(predicate, timeout=20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out")


# --- variants and boards ---------------------------------------------------------------------


def test_variants_list_ids_versions_and_bots(client):
    body = client.get("/api/variants").json()
    usa = next(v for v in body["variants"] if v["id"] == "usa")
    assert usa["versions"] == list(range(1, usa["version"] + 1)) or usa["version"] in usa["versions"]
    assert usa["players"] == {"min": 2, "max": 5}
    assert "random" in body["bots"]


def test_board_has_city_coordinates_routes_and_tickets(client):
    board = client.get("/api/variants/usa/board").json()
    ruleset = variant.load("usa")
    assert len(board["cities"]) == len(ruleset.board.cities)
    denver = next(c for c in board["cities"] if c["name"] == "Denver")
    assert (denver["lat"], denver["lon"]) == next((c.lat, c.lon) for c in ruleset.board.cities if c.name == "Denver")
    assert {r["id"] for r in board["routes"]} == {r.id for r in ruleset.board.routes}
    assert len(board["tickets"]) == len(ruleset.board.tickets)


@pytest.mark.parametrize("name", ["nope", "usa.toml", "..%2Fvariants%2Fusa.toml", "USA", "/etc/passwd"])
def test_a_variant_is_named_by_id_never_by_path(client, name):
    r = client.post("/api/games", json={"variant": name, "seats": TWO})
    assert r.status_code in (404, 422), r.text
    assert r.json()["error"] in ("not-found", "invalid-request")
    assert client.get(f"/api/variants/{name}/board").status_code in (404, 422)


# --- creating and reading -------------------------------------------------------------------


def test_create_gives_one_token_per_person_and_stores_only_hashes(client):
    game = create(client, [{"name": "Ada"}, {"name": "Bob"}, {"name": "Robo", "bot": "random"}], seed=7)
    tokens = [s["token"] for s in game["seats"]]
    assert tokens[2] is None and tokens[0] and tokens[1] and tokens[0] != tokens[1]
    assert game["seats"][0]["url"] == f"/play/{game['game']}#{tokens[0]}"
    assert game["spectator_url"] == f"/watch/{game['game']}"
    engine = client.app.state.service.engine
    with engine.connect() as conn:
        dumped = json.dumps([list(r) for r in conn.execute(sa.text("SELECT * FROM games")).all()], default=str)
    assert tokens[0] not in dumped and tokens[1] not in dumped


def test_a_seat_reads_its_own_view_a_spectator_the_public_one(client):
    game = create(client, seed=3)
    ada, bob, anyone = snap(client, game, 0), snap(client, game, 1), snap(client, game)
    assert ada["seat"] == 0 and ada["view"]["you"]["seat"] == 0
    # each sees the tickets offered to itself, and only how many the other was offered
    assert isinstance(ada["view"]["players"][0]["decision"]["offered"], list)
    assert ada["view"]["players"][1]["decision"] == {"kind": "choose-tickets", "offered": 3}
    assert bob["view"]["players"][0]["decision"] == {"kind": "choose-tickets", "offered": 3}
    assert anyone["seat"] is None and "you" not in anyone["view"] and anyone["legal"] is None
    assert all(a["kind"] == "keep-tickets" for a in ada["legal"]) and ada["legal"]


@pytest.mark.parametrize("header", ["Bearer nope", "Bearer ", "Basic abc", "token-without-scheme", "Bearer " + "x" * 300])
def test_a_wrong_token_is_401_not_a_spectator(client, header):
    game = create(client)
    r = client.get(f"/api/games/{game['game']}", headers={"Authorization": header})
    assert r.status_code == 401 and r.json()["error"] == "unauthorized"
    r = client.post(f"/api/games/{game['game']}/actions", headers={"Authorization": header},
                    json={"version": 0, "action": {"kind": "draw-card"}})
    assert r.status_code == 401


def test_a_token_of_another_game_is_refused(client):
    one, two = create(client), create(client)
    r = client.get(f"/api/games/{one['game']}", headers=bearer(two["seats"][0]["token"]))
    assert r.status_code == 401


def test_acting_needs_a_token(client):
    game = create(client)
    r = client.post(f"/api/games/{game['game']}/actions", json={"version": 0, "action": {"kind": "draw-card"}})
    assert r.status_code == 401 and "token" in r.json()["reason"]
    assert r.headers["www-authenticate"] == "Bearer"


def test_unknown_games_are_404_everywhere(client):
    action = {"version": 0, "action": {"kind": "pass"}}
    for method, path, body in (("GET", "/api/games/nope", None), ("POST", "/api/games/nope/actions", action),
                               ("POST", "/api/games/nope/resign", {}), ("GET", "/api/games/nope/record", None),
                               ("GET", "/api/games/nope/events", None)):
        r = client.request(method, path, json=body, headers=bearer("whatever") if method == "POST" else {})
        assert r.status_code == 404, (path, r.text)
        assert r.json()["error"] == "not-found"


# --- acting -------------------------------------------------------------------------------


def test_an_action_advances_the_version_and_a_stale_one_is_409_with_nothing_applied(client):
    game = create(client, seed=5)
    keep_all(client, game, 0)
    keep_all(client, game, 1)
    s = snap(client, game, 0)  # seat 0's turn (starting tickets are independent: see test_server_abuse)
    r = act(client, game, 0, {"kind": "draw-card", "slot": None}, s["version"])
    assert r.status_code == 200 and r.json()["version"] == s["version"] + 1
    before = snap(client, game, 0)
    stale = act(client, game, 0, {"kind": "draw-card", "slot": None}, s["version"])  # the game has moved on
    assert stale.status_code == 409
    assert stale.json()["error"] == "stale-version" and stale.json()["version"] == s["version"] + 1
    assert snap(client, game, 0) == before


def test_an_illegal_action_is_422_with_the_engines_reason_and_changes_nothing(client):
    game = create(client, seed=5)
    keep_all(client, game, 0)
    keep_all(client, game, 1)
    s = snap(client, game, 1)
    assert s["view"]["current"] == 0
    r = act(client, game, 1, {"kind": "draw-card", "slot": None}, s["version"])
    assert r.status_code == 422
    assert r.json()["error"] == "rejected" and "seat 0's turn" in r.json()["reason"]
    r = act(client, game, 0, {"kind": "fly-to-the-moon"}, s["version"])
    assert r.status_code == 422 and "known:" in r.json()["reason"]
    r = act(client, game, 0, {"kind": "claim-route", "route": "Nowhere-Else", "color": "red"}, s["version"])
    assert r.status_code == 422 and "Nowhere-Else" in r.json()["reason"]
    r = act(client, game, 0, {"kind": "draw-card", "slot": "three"}, s["version"])
    assert r.status_code == 422
    assert snap(client, game, 1) == s


@pytest.mark.parametrize("body", [
    {"version": 0},
    {"action": {"kind": "pass"}},
    {"version": "0", "action": {"kind": "pass"}},
    {"version": True, "action": {"kind": "pass"}},
    {"version": -1, "action": {"kind": "pass"}},
    {"version": 0, "action": "pass"},
    {"version": 0, "action": {"kind": "pass"}, "extra": 1},
    [1, 2, 3],
    "just a string",
])
def test_malformed_bodies_are_422_with_a_reason(client, body):
    game = create(client)
    r = client.post(f"/api/games/{game['game']}/actions", headers=bearer(game["seats"][0]["token"]), json=body)
    assert r.status_code == 422 and r.json()["error"] == "invalid-request" and r.json()["reason"]


def test_not_json_is_a_4xx(client):
    game = create(client)
    r = client.post(f"/api/games/{game['game']}/actions", headers={**bearer(game["seats"][0]["token"]),
                    "Content-Type": "application/json"}, content=b"{not json")
    assert r.status_code == 422 and r.json()["reason"]


def test_bodies_over_the_limit_are_413_declared_or_streamed(client):
    game = create(client)
    url = f"/api/games/{game['game']}/actions"
    big = json.dumps({"version": 0, "action": {"kind": "pass", "pad": "x" * 20_000}}).encode()
    r = client.post(url, headers=bearer(game["seats"][0]["token"]), content=big)
    assert r.status_code == 413 and r.json()["error"] == "too-large"

    def chunks():  # no Content-Length: the limit is enforced while reading
        for i in range(0, len(big), 1000):
            yield big[i:i + 1000]

    r = client.post(url, headers=bearer(game["seats"][0]["token"]), content=chunks())
    assert r.status_code == 413


@pytest.mark.parametrize("seats", [
    [{"name": "Solo"}],
    [{"name": "A"}, {"name": "A"}],
    [{"name": "A"}, {"name": "B", "bot": "no-such-bot"}],
    [{"name": ""}, {"name": "B"}],
    [{"name": "A\nB"}, {"name": "B"}],
    [{"name": str(i)} for i in range(6)],
])
def test_setups_the_variant_does_not_take_are_422(client, seats):
    r = client.post("/api/games", json={"variant": "usa", "seats": seats})
    assert r.status_code == 422, r.text
    assert r.json()["reason"]


def test_seed_and_version_are_checked(client):
    for extra in ({"seed": -1}, {"seed": 2**64}, {"seed": "1"}, {"version": 0}, {"version": 99}):
        r = client.post("/api/games", json={"variant": "usa", "seats": TWO, **extra})
        assert r.status_code == 422, (extra, r.text)


# --- resigning ---------------------------------------------------------------------------------


def test_resigning_where_the_rules_have_no_resign_action_is_422(client):
    game = create(client)
    r = client.post(f"/api/games/{game['game']}/resign", headers=bearer(game["seats"][0]["token"]))
    assert r.status_code == 422 and "no resign action" in r.json()["reason"]


@pytest.fixture
def house_variants(tmp_path, monkeypatch):
    """A folder of extra variant files, installed as if a package shipped them."""
    folder = tmp_path / "house"
    folder.mkdir()
    dirs = variant.variant_dirs()
    monkeypatch.setattr(variant, "variant_dirs", functools.cache(lambda: (*dirs, folder)))
    variant.clear_caches()
    yield folder
    variant.clear_caches()


def test_resigning_where_the_rules_allow_it_ends_a_two_player_game(client, house_variants):
    try:
        plugin_class("resignation")
    except PluginError:
        pytest.skip("the resignation plugin is not installed in this tree")
    (house_variants / "usa-resign.toml").write_text(
        'id = "usa-resign"\ntitle = "USA with resigning"\nextends = "usa@1"\n'
        '[versions.1]\nnote = "resigning"\nadd_plugins = ["resignation"]\n'
    )
    r = client.post("/api/games", json={"variant": "usa-resign", "seats": TWO, "seed": 1})
    game = r.json()
    assert snap(client, game, 1)["can_resign"]
    stale = client.post(f"/api/games/{game['game']}/resign", headers=bearer(game["seats"][1]["token"]), json={"version": 5})
    assert stale.status_code == 409
    r = client.post(f"/api/games/{game['game']}/resign", headers=bearer(game["seats"][1]["token"]))
    assert r.status_code == 200 and r.json()["over"]
    final = snap(client, game)
    assert final["view"]["players"][1]["resigned"] and final["view"]["result"]["winners"]["seats"] == [0]
    again = client.post(f"/api/games/{game['game']}/resign", headers=bearer(game["seats"][0]["token"]))
    assert again.status_code == 422


# --- rules versions side by side ------------------------------------------------------------


def _house_file(current: int) -> str:
    return f"""id = "house"
title = "House rules on the USA map"
extends = "usa@1"
current = {current}
[versions.1]
note = "as usa"
[versions.2]
note = "five starting tickets"
[versions.2.rules.ticket-deal]
start = {{ deal = {{ any = 5 }}, keep = {{ any = 2 }}, rejects = "bottom" }}
"""


def test_a_game_keeps_its_rules_version_after_the_default_moves_on(make_client, house_variants, tmp_path):
    path = house_variants / "house.toml"
    path.write_text(_house_file(current=1))
    db_url = f"sqlite:///{tmp_path / 'versions.sqlite3'}"
    client = make_client(db_url=db_url)
    old = client.post("/api/games", json={"variant": "house", "seats": TWO, "seed": 2}).json()
    assert old["rules_version"] == 1
    keep_all(client, old, 0)

    path.write_text(_house_file(current=2))  # the host publishes version 2 and makes it current
    variant.clear_caches()
    new = client.post("/api/games", json={"variant": "house", "seats": TWO, "seed": 2}).json()
    assert new["rules_version"] == 2
    offered = lambda g, c: len(max((a["tickets"] for a in snap(c, g, 1)["legal"]), key=len))  # noqa: E731
    assert offered(new, client) == 5

    restarted = make_client(db_url=db_url)  # a new process: the old game is rebuilt from its log
    again = snap(restarted, old, 1)
    assert again["rules_version"] == 1 and again["view"]["version"] == 1
    assert offered(old, restarted) == 3
    keep_all(restarted, old, 1)
    assert snap(restarted, old)["view"]["phase"] == "play"


# --- bots, records, events ------------------------------------------------------------------


def test_bots_fill_seats_and_a_finished_game_publishes_a_record_that_replays(client):
    game = create(client, [{"name": "R1", "bot": "random"}, {"name": "R2", "bot": "random"}], seed=11)
    gid = game["game"]
    assert client.get(f"/api/games/{gid}/record").status_code in (200, 409)
    wait_until(lambda: snap(client, game)["view"]["phase"] == "over", timeout=60)
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 200
    data = r.json()
    replayed = record.replay(data)
    assert record.dumps(record.make_record(replayed)) == r.text
    assert replayed.view(None) == snap(client, game)["view"]


def test_a_person_plays_against_a_server_bot(client):
    game = create(client, [{"name": "Ada"}, {"name": "Robo", "bot": "random"}], seed=4)
    keep_all(client, game, 0)
    # the bot keeps its tickets by itself, then it is Ada's turn (seat 0 starts)
    s = wait_until(lambda: (lambda x: x if x["view"]["phase"] == "play" else None)(snap(client, game, 0)))
    assert s["view"]["current"] == 0
    draw = {"kind": "draw-card", "slot": None}
    assert act(client, game, 0, draw, s["version"]).status_code == 200
    assert act(client, game, 0, draw, s["version"] + 1).status_code == 200
    # the bot plays its turn; then it is Ada's again
    s = wait_until(lambda: (lambda x: x if x["view"]["current"] == 0 and x["version"] > s["version"] + 2 else None)(
        snap(client, game, 0)))
    assert s["view"]["turn"] == 2


def test_an_installed_third_party_bot_plays_its_seats_and_is_offered(client):
    import ttr_bots

    chosen = []

    class Claimer:
        """Claims a route whenever it can."""

        name = "claimer"

        def __init__(self, seed, seat):
            self.rng = random.Random(f"claimer:{seed}:{seat}")

        def choose(self, view):
            legal = view.legal_actions()
            action = self.rng.choice([a for a in legal if a.kind == "claim-route"] or legal)
            chosen.append({"kind": action.kind, **{k: list(v) if isinstance(v, tuple) else v for k, v in attrs.asdict(action).items()}})
            return action

    with ttr_bots.local_bots({"claimer": Claimer}):
        assert "claimer" in client.get("/api/variants").json()["bots"]
        game = create(client, [{"name": "C", "bot": "claimer"}, {"name": "R", "bot": "random"}], seed=5)
        wait_until(lambda: snap(client, game)["view"]["phase"] == "over", timeout=60)
    actions = client.get(f"/api/games/{game['game']}/record").json()["actions"]
    assert [{k: v for k, v in a.items() if k != "seat"} for a in actions if a["seat"] == 0] == chosen
    assert any(a["kind"] == "claim-route" for a in chosen)


def test_an_unknown_bot_is_refused_naming_it_and_the_installed_ones(client):
    r = client.post("/api/games", json={"variant": "usa", "seats": [{"name": "A"}, {"name": "B", "bot": "randm"}]})
    assert r.status_code == 422
    assert r.json()["reason"] == "unknown bot 'randm' (did you mean 'random'?); installed bots: hoarder, long-routes, random, route-value, search, search-quick, ticket"


def test_bot_only_games_do_not_hold_up_a_persons_game(make_client):
    client = make_client(bot_delay=0.02)
    robots = [create(client, [{"name": "R1", "bot": "random"}, {"name": "R2", "bot": "random"}], seed=s)
              for s in range(4)]
    game = create(client, [{"name": "Ada"}, {"name": "Robo", "bot": "random"}], seed=4)
    keep_all(client, game, 0)
    # the bot answers (keeps its tickets, so that play starts) while the bot-only games go on
    wait_until(lambda: snap(client, game, 0)["view"]["phase"] == "play")
    assert not any(snap(client, g)["view"]["phase"] == "over" for g in robots)


def test_the_event_stream_says_what_changed_and_nothing_private(client):
    game = create(client, seed=9)
    gid = game["game"]
    events = []

    def poke():
        time.sleep(0.3)
        keep_all(client, game, 0)

    poker = threading.Thread(target=poke, daemon=True)
    poker.start()
    with client.stream("GET", f"/api/games/{gid}/events") as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        for line in r.iter_lines():
            if line.startswith("data: "):
                events.append(json.loads(line[6:]))
                if len(events) == 2:
                    break
    poker.join(10)  # its request must finish before the client closes
    assert [e["version"] for e in events] == [0, 1]
    for e in events:
        assert set(e) == {"game", "version", "phase", "to_act", "over", "ended"}


# --- the command ---------------------------------------------------------------------------


def test_ttr_serve_reports_a_bad_database_url(tmp_path):
    done = subprocess.run([sys.executable, "-m", "ttr_cli.main", "serve", "--db", "nosuchdb://x"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 2
    assert "cannot open the database" in done.stderr and "Traceback" not in done.stderr


def test_ttr_serve_has_help(tmp_path):
    done = subprocess.run([sys.executable, "-m", "ttr_cli.main", "serve", "--help"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60)
    assert done.returncode == 0 and "--db" in done.stdout and "postgresql" in done.stdout


def test_migrations_build_the_tables_the_code_queries(database_url):
    """The head migration and ``db.metadata`` describe the same schema (on both databases)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from ttr_server import db

    engine = db.make_engine(database_url)
    db.migrate(engine)
    db.migrate(engine)  # a second start finds nothing to do
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
    engine.dispose()
    assert diff == []


def test_a_plugin_failing_while_a_view_is_built_is_a_500_naming_it_and_the_game_goes_on(client, monkeypatch):
    from ttr_core.errors import PluginFailed
    from ttr_core.game import Game

    game = create(client)
    before = snap(client, game, 0)
    real_view = Game.view

    def failing_view(self, seat):
        raise PluginFailed("stations", "ttr_view", seat, None, RuntimeError("boom"), doing=f"building the view of seat {seat}")

    monkeypatch.setattr(Game, "view", failing_view)
    r = client.get(f"/api/games/{game['game']}", headers=bearer(game["seats"][0]["token"]))
    assert r.status_code == 500 and r.json()["error"] == "engine-failure"
    assert "stations" in r.json()["reason"] and "boom" not in r.json()["reason"]  # details stay in the log
    monkeypatch.setattr(Game, "view", real_view)
    assert snap(client, game, 0) == before  # nothing changed, and the game is served again
