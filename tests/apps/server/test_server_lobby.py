"""The lobby over HTTP: open games listed, seats taken by single-use invitation links (so the creator
never holds another player's token), the game starting when the last seat is taken, the host's
re-issue of a lost link, and every bad link refused with a reason."""

from __future__ import annotations

import json
import threading
import time

import pytest
import sqlalchemy as sa

from server_kit import bearer

ADA_AND_AN_OPEN_SEAT = [{"name": "Ada"}, {}]


def open_game(client, seats=ADA_AND_AN_OPEN_SEAT, **extra) -> dict:
    r = client.post("/api/lobby", json={"variant": "usa", "seats": seats, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def invitation(opened, seat) -> str:
    url = opened["seats"][seat]["invitation_url"]
    assert url.startswith(f"/join/{opened['game']['game']}#")
    return url.split("#", 1)[1]


def join(client, opened, name, invite=None):
    body = {"name": name} if invite is None else {"name": name, "invitation": invite}
    return client.post(f"/api/lobby/{opened['game']['game']}/join", json=body)


def reissue(client, opened, seat, token):
    return client.post(f"/api/lobby/{opened['game']['game']}/seats/{seat}/reissue", headers=bearer(token))


def listing(client) -> dict[str, dict]:
    r = client.get("/api/lobby")
    assert r.status_code == 200
    return {g["game"]: g for g in r.json()["games"]}


# --- the listing --------------------------------------------------------------------------------


def test_the_lobby_lists_listed_games_that_have_a_free_seat(client):
    listed = open_game(client, [{"name": "Ada"}, {}, {}], listed=True)
    unlisted = open_game(client)
    full = open_game(client, [{"name": "Ada"}, {"name": "Robo", "bot": "random"}], listed=True)
    shown = listing(client)
    assert set(shown) == {listed["game"]["game"]}
    entry = shown[listed["game"]["game"]]
    assert entry["variant"] == "usa" and entry["title"] and entry["free"] == 2 and not entry["started"]
    assert entry["created"].endswith("+00:00")
    assert [(s["name"], s["open"]) for s in entry["seats"]] == [("Ada", False), (None, True), (None, True)]
    assert unlisted["game"]["game"] not in shown and full["game"]["started"]

    assert join(client, listed, "Bob").status_code == 200
    assert listing(client)[listed["game"]["game"]]["free"] == 1
    assert join(client, listed, "Cy").status_code == 200
    assert listed["game"]["game"] not in listing(client)  # started: no longer open


# --- joining by invitation ------------------------------------------------------------------------


def test_an_invitation_gives_its_seat_and_its_own_token_and_the_game_starts_with_the_last_seat(client):
    opened = open_game(client)
    gid = opened["game"]["game"]
    ada = opened["seats"][0]["token"]
    assert opened["seats"][1]["token"] is None  # the creator does not get the joiner's token
    assert client.get(f"/api/games/{gid}").status_code == 404  # not started: nobody is dealt a hand yet

    r = join(client, opened, "Bob", invitation(opened, 1))
    assert r.status_code == 200, r.text
    bob = r.json()
    assert bob["seat"] == 1 and bob["started"] and bob["url"] == f"/play/{gid}#{bob['token']}"
    assert bob["token"] != ada

    as_bob = client.get(f"/api/games/{gid}", headers=bearer(bob["token"])).json()
    assert as_bob["seat"] == 1 and [s["name"] for s in as_bob["seats"]] == ["Ada", "Bob"]
    assert as_bob["legal"]  # Bob chooses his starting tickets
    assert client.get(f"/api/games/{gid}", headers=bearer(ada)).json()["seat"] == 0
    assert client.get(f"/api/lobby/{gid}").json()["started"]


def test_an_invitation_is_good_for_one_join(client):
    opened = open_game(client, [{"name": "Ada"}, {}, {}])
    code = invitation(opened, 1)
    assert join(client, opened, "Bob", code).status_code == 200
    again = join(client, opened, "Eve", code)
    assert again.status_code == 409 and again.json()["error"] == "invitation-used"
    assert "used already" in again.json()["reason"]
    seats = client.get(f"/api/lobby/{opened['game']['game']}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ada", "Bob", None]  # Eve took nothing


def test_an_unlisted_game_takes_nobody_without_an_invitation_a_listed_one_anybody(client):
    private = open_game(client)
    r = join(client, private, "Eve")
    assert r.status_code == 403 and r.json()["error"] == "invitation-invalid" and "invitation only" in r.json()["reason"]
    public = open_game(client, listed=True)
    assert join(client, public, "Bob").json()["seat"] == 1
    r = join(client, public, "Eve")
    assert r.status_code == 409 and r.json()["error"] == "game-full"


def test_seats_are_taken_once_when_many_join_at_the_same_moment(make_client, database_url):
    """Joins of one game follow one another, in one server process and across two on one database
    (each with its own writer): each free seat goes to exactly one joiner, and the game starts
    once, with exactly those players."""
    from ttr_server.lobby import Lobby
    from ttr_server.errors import ServiceError

    one, two = make_client(db_url=database_url), make_client(db_url=database_url)
    opened = open_game(one, [{"name": "Ada"}, {}, {}, {}], listed=True)
    lobbies = [Lobby(one.app.state.service), Lobby(two.app.state.service)]
    outcomes: dict[str, object] = {}
    start = threading.Barrier(8)

    def try_join(i):
        start.wait()
        try:
            outcomes[f"P{i}"] = lobbies[i % 2].join(opened["game"]["game"], f"P{i}")
        except Exception as exc:  # noqa: BLE001 - recorded and checked below
            outcomes[f"P{i}"] = exc

    threads = [threading.Thread(target=try_join, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    joined = {name: o for name, o in outcomes.items() if not isinstance(o, Exception)}
    refused = [o for o in outcomes.values() if isinstance(o, Exception)]
    assert len(outcomes) == 8 and sorted(j.seat for j in joined.values()) == [1, 2, 3]
    assert [e.code if isinstance(e, ServiceError) else repr(e) for e in refused] == ["game-full"] * 5
    assert sum(j.started for j in joined.values()) == 1
    game = two.get(f"/api/games/{opened['game']['game']}").json()
    assert sorted(s["name"] for s in game["seats"]) == sorted(["Ada", *joined])
    for name, j in joined.items():
        for server in (one, two):
            assert server.get(f"/api/games/{j.game_id}", headers=bearer(j.token)).json()["seat"] == j.seat


def test_a_lobby_game_nobody_joins_expires_and_its_invitation_stops_working(make_client):
    client = make_client(expire_after=2.0)
    waiting = open_game(client, listed=True)
    started = open_game(client, seats=[{"name": "Ada"}, {}])
    assert join(client, started, "Bob", invitation(started, 1)).status_code == 200  # dealt: the service's now
    assert waiting["game"]["game"] in listing(client)
    deadline = time.monotonic() + 15
    while waiting["game"]["game"] in listing(client) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert waiting["game"]["game"] not in listing(client)
    assert client.get(f"/api/lobby/{waiting['game']['game']}").status_code == 404
    assert join(client, waiting, "Bob", invitation(waiting, 1)).status_code == 404
    assert client.get(f"/api/games/{started['game']['game']}").status_code == 200  # a started game stays


def test_a_game_with_a_bot_starts_and_the_bot_plays_once_the_seats_are_taken(client):
    opened = open_game(client, [{}, {"name": "Robo", "bot": "random"}])
    gid = opened["game"]["game"]
    assert opened["host_token"] and all(s["token"] is None for s in opened["seats"])
    ada = join(client, opened, "Ada", invitation(opened, 0)).json()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:  # the bot keeps its tickets by itself
        view = client.get(f"/api/games/{gid}", headers=bearer(ada["token"])).json()["view"]
        if view["players"][1]["decision"] is None:
            break
        time.sleep(0.02)
    assert view["players"][1]["decision"] is None


# --- the host's recovery of a lost link -------------------------------------------------------------


def test_a_reissued_token_replaces_the_old_one_in_every_server_process(make_client, database_url):
    """Two server processes on one database: the old token is refused by the one that had the game
    in memory as well as by the one that re-issued it."""
    one, two = make_client(db_url=database_url), make_client(db_url=database_url)
    opened = open_game(one)
    gid = opened["game"]["game"]
    bob = join(one, opened, "Bob", invitation(opened, 1)).json()
    assert one.get(f"/api/games/{gid}", headers=bearer(bob["token"])).json()["seat"] == 1  # now live in `one`

    r = reissue(two, opened, 1, opened["host_token"])
    assert r.status_code == 200, r.text
    new = r.json()
    assert new["seat"] == 1 and new["token"] not in (None, bob["token"]) and new["invitation_url"] is None
    assert new["url"] == f"/play/{gid}#{new['token']}"
    for server in (one, two):
        old = server.get(f"/api/games/{gid}", headers=bearer(bob["token"]))
        assert old.status_code == 401
        assert server.get(f"/api/games/{gid}", headers=bearer(new["token"])).json()["seat"] == 1
    s = one.get(f"/api/games/{gid}", headers=bearer(new["token"])).json()
    acted = one.post(f"/api/games/{gid}/actions", headers=bearer(new["token"]),
                     json={"version": s["version"], "action": s["legal"][0]})
    assert acted.status_code == 200, acted.text
    refused = one.post(f"/api/games/{gid}/actions", headers=bearer(bob["token"]),
                       json={"version": s["version"] + 1, "action": s["legal"][0]})
    assert refused.status_code == 401


def test_a_reissued_invitation_replaces_the_lost_one(client):
    opened = open_game(client)
    lost = invitation(opened, 1)
    r = reissue(client, opened, 1, opened["host_token"])
    assert r.status_code == 200 and r.json()["token"] is None
    fresh = r.json()["invitation_url"].split("#", 1)[1]
    assert fresh != lost
    old = join(client, opened, "Eve", lost)
    assert old.status_code == 403 and old.json()["error"] == "invitation-invalid"
    assert join(client, opened, "Bob", fresh).json()["seat"] == 1


def test_only_the_host_reissues_and_only_a_persons_seat(client):
    opened = open_game(client, [{"name": "Ada"}, {}, {"name": "Robo", "bot": "random"}])
    gid = opened["game"]["game"]
    assert client.post(f"/api/lobby/{gid}/seats/1/reissue").status_code == 401
    r = reissue(client, opened, 1, opened["seats"][0]["token"])  # a seat's token is not the host's
    assert r.status_code == 401 and r.json()["error"] == "unauthorized"
    r = reissue(client, opened, 2, opened["host_token"])
    assert r.status_code == 422 and "bot" in r.json()["reason"]
    assert reissue(client, opened, 5, opened["host_token"]).status_code == 404
    assert join(client, opened, "Bob", invitation(opened, 1)).status_code == 200  # the invitation still holds


# --- secrets stay with their owner -----------------------------------------------------------------


def test_no_response_that_another_player_or_a_spectator_sees_holds_a_secret(client):
    opened = open_game(client, [{"name": "Ada"}, {}, {}], listed=True)
    gid = opened["game"]["game"]
    bob = join(client, opened, "Bob", invitation(opened, 1))
    cy = join(client, opened, "Cy")  # a listed game's free seat
    secrets = {
        "host": opened["host_token"], "ada": opened["seats"][0]["token"], "bob": bob.json()["token"],
        "cy": cy.json()["token"], "bob-invitation": invitation(opened, 1), "cy-invitation": invitation(opened, 2),
    }
    seen = {  # what each reader gets, with the secrets it may hold
        "bob's join": (bob.text, {"bob"}),
        "cy's join": (cy.text, {"cy"}),
        "the listing": (client.get("/api/lobby").text, set()),
        "the lobby game": (client.get(f"/api/lobby/{gid}").text, set()),
        "a spectator": (client.get(f"/api/games/{gid}").text, set()),
    }
    for who in ("ada", "bob", "cy"):
        seen[f"{who}'s view"] = (client.get(f"/api/games/{gid}", headers=bearer(secrets[who])).text, set())
    r = client.post("/api/lobby", json={"variant": "usa", "seats": ADA_AND_AN_OPEN_SEAT})
    for with_secret in (bob, cy, r, reissue(client, r.json(), 1, r.json()["host_token"])):
        assert "no-store" in with_secret.headers.get("cache-control", "")  # no cache keeps a secret
    for reader, (text, own) in seen.items():
        leaked = [name for name, secret in secrets.items() if name not in own and secret in text]
        assert leaked == [], f"{reader} shows {leaked}"
    engine = client.app.state.service.engine
    with engine.connect() as conn:  # and the database holds hashes only
        stored = json.dumps([[list(r) for r in conn.execute(sa.text(f"SELECT * FROM {t}")).all()]
                             for t in ("games", "lobby_games", "lobby_seats")], default=str)
    assert [name for name, secret in secrets.items() if secret in stored] == []


# --- bad requests and bad links ----------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/lobby/no-such-game", "/api/lobby/no-such-game/join"])
def test_an_unknown_game_is_404(client, path):
    r = client.post(path, json={"name": "Eve", "invitation": "x"}) if path.endswith("join") else client.get(path)
    assert r.status_code == 404 and "no game 'no-such-game'" in r.json()["reason"]


def test_bad_invitations_and_names_are_refused_with_a_reason_and_change_nothing(client):
    opened = open_game(client, [{"name": "Ada"}, {}, {}])
    gid = opened["game"]["game"]
    before = client.get(f"/api/lobby/{gid}").json()
    refusals = [
        (join(client, opened, "Eve", "not-an-invitation"), 403, "invitation-invalid"),
        (join(client, open_game(client), "Eve", invitation(opened, 1)), 403, "invitation-invalid"),  # another game's
        (join(client, opened, "Ada", invitation(opened, 1)), 422, "rejected"),  # a name taken in the game
        (join(client, opened, "", invitation(opened, 1)), 422, "invalid-request"),
        (join(client, opened, "a\nb", invitation(opened, 1)), 422, "invalid-request"),
    ]
    for r, status, code in refusals:
        assert (r.status_code, r.json()["error"]) == (status, code), r.text
        assert r.json()["reason"]
    assert client.get(f"/api/lobby/{gid}").json() == before


@pytest.mark.parametrize("seats, words", [
    ([{"bot": "random"}, {}], "needs a name"),
    ([{"name": "Ada"}, {"name": "Ada"}], "must differ"),
    ([{}], "takes 2 to 5 players"),
    ([{}, {"name": "Robo", "bot": "no-such-bot"}], "no-such-bot"),
])
def test_openings_the_rules_do_not_take_are_422_and_store_nothing(client, seats, words):
    r = client.post("/api/lobby", json={"variant": "usa", "seats": seats, "listed": True})
    assert r.status_code == 422 and words in r.json()["reason"], r.text
    assert listing(client) == {}


def test_an_unknown_variant_is_404(client):
    r = client.post("/api/lobby", json={"variant": "nope", "seats": ADA_AND_AN_OPEN_SEAT})
    assert r.status_code == 404 and "unknown variant" in r.json()["reason"]


# --- the schema -----------------------------------------------------------------------------------------


def test_the_lobby_migration_upgrades_a_database_that_has_games(make_client, tmp_path):
    """A database at the first revision, with a game in it, gains the lobby's tables on start-up,
    and its game is played on as before."""
    from alembic import command
    from alembic.config import Config
    from fastapi.testclient import TestClient

    from ttr_server import db
    from ttr_server.app import Settings, create_app

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    with TestClient(create_app(Settings(db_url=url, bot_delay=0.0))) as before:
        game = before.post("/api/games", json={"variant": "usa", "seats": [{"name": "Ada"}, {"name": "Bob"}]}).json()
    engine = db.make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(db.MIGRATIONS))
    with engine.begin() as conn:  # back to the first revision: no lobby tables, one game
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0001")
        assert not sa.inspect(conn).has_table("lobby_games")
    engine.dispose()

    after = make_client(db_url=url)  # starts by migrating to the head
    assert open_game(after)["game"]["free"] == 1
    token = game["seats"][0]["token"]
    s = after.get(f"/api/games/{game['game']}", headers=bearer(token)).json()
    r = after.post(f"/api/games/{game['game']}/actions", headers=bearer(token),
                   json={"version": s["version"], "action": s["legal"][0]})
    assert r.status_code == 200, r.text
