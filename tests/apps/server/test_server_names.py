"""Players' names: trimmed; nothing invisible or misleading; no two seats a player could confuse."""

from __future__ import annotations

import pytest

from test_server_api import snap
from test_server_lobby import invitation, join, open_game


def _create(client, *names):
    return client.post("/api/games", json={"variant": "usa", "seats": [{"name": n} for n in names]})


def test_a_name_is_trimmed(client):
    r = _create(client, "  Ada ", "Bob\u00a0")
    assert r.status_code == 201, r.text
    assert [p["name"] for p in snap(client, r.json())["view"]["players"]] == ["Ada", "Bob"]


@pytest.mark.parametrize("name, why", [
    ("   ", "visible character"),
    ("\u3000", "visible character"),  # an ideographic space: blank too
    ("\u202eA", "invisible formatting character (U+202E at character 1)"),  # right-to-left override
    ("A\u200bda", "invisible formatting character (U+200B at character 2)"),  # zero-width space
    ("Ada\u2066", "invisible formatting character"),  # left-to-right isolate
    ("A\x07", "control character"),
    ("Ada\u2028Lovelace", "line separator"),
])
def test_a_name_with_nothing_visible_or_with_hidden_characters_is_refused(client, name, why):
    r = _create(client, name, "Bob")
    assert r.status_code == 422
    assert why in r.text


@pytest.mark.parametrize("first, second", [("Ada", "ADA"), ("Ada", "ada "), ("Ａｄａ", "Ada"), ("Straße", "STRASSE")])
def test_two_names_a_player_could_take_for_each_other_are_refused(client, first, second):
    r = _create(client, first, second)
    assert r.status_code == 422 and "player names must differ" in r.json()["reason"]


def test_the_lobby_applies_the_same_rules_to_its_seats_and_to_joining(client):
    assert client.post("/api/lobby", json={"variant": "usa", "seats": [{"name": "\u202eAda"}, {}]}).status_code == 422
    assert client.post("/api/lobby", json={"variant": "usa", "seats": [{"name": "Ada"}, {"name": "ADA"}, {}]}) \
        .status_code == 422
    opened = open_game(client, [{"name": "Ada"}, {}, {}])
    assert join(client, opened, "\u202eAda", invitation(opened, 1)).status_code == 422
    taken = join(client, opened, "ada", invitation(opened, 1))
    assert taken.status_code == 422 and "taken" in taken.json()["reason"]
    assert join(client, opened, "  Bob  ", invitation(opened, 1)).status_code == 200
    seats = client.get(f"/api/lobby/{opened['game']['game']}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ada", "Bob", None]
