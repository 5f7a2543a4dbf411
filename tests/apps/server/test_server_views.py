"""Nothing private leaks over HTTP: a seat reads exactly ``game.view(seat)`` and its own legal
actions; no response to a seat (views, legal actions, refusals of bad actions) names another
seat's tickets or offered tickets; a refusal does not change when the other seats' hands and
tickets and the decks are dealt differently (non-interference: it depends only on what the seat
may know); and a seat acts for itself only. Whole seeded games are played through the API, with
bad actions thrown in from every seat at every step."""

from __future__ import annotations

import json
import random

import pytest

from server_kit import bearer
from ttr_core import variant
from ttr_kit import testing
from ttr_core.cards import COLORS

SEATS = [{"name": "Ada"}, {"name": "Bob"}, {"name": "Cy"}]
COLORS_AND_JUNK = [*COLORS, None, "locomotive", "plaid"]


def _live(client, game_id):
    service = client.app.state.service
    with service.live.locked(game_id):
        return service.live.fresh(game_id).game


def _secrets(game, seat) -> set[str]:
    """Ticket ids only ``seat`` may know: held and on offer."""
    p = game.state.players[seat]
    offered = getattr(p.decision, "offered", ())
    return {game.board.tickets[t].id for t in (*p.tickets, *offered)}


def _walk(data, path=()):
    if isinstance(data, dict):
        for k, v in data.items():
            yield (*path, k), v
            yield from _walk(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _walk(v, (*path, i))


def _check_shape(body: dict, seat: int | None) -> None:
    """Private fields appear only where the reader's own data lives."""
    for path, value in _walk(body):
        key = path[-1]
        assert key not in ("deck", "ticket_deck", "boxed_tickets", "rng", "seed", "token", "token_hash"), path
        if key == "hand":
            assert path == ("view", "you", "hand"), path
        if key == "offered" and isinstance(value, list):
            assert seat is not None and path == ("view", "players", seat, "decision", "offered"), path
        if key == "tickets" and isinstance(value, list) and path[0] == "view":
            assert path == ("view", "you", "tickets"), path


def _with_others_redealt(client, game_id, seat, salt, request):
    """Make ``request`` while the live game's hidden parts that ``seat`` may not see (other hands,
    other tickets and offers, both decks) are dealt differently; then put the real state back."""
    live = client.app.state.service.live.cached(game_id)
    real = live.game.state
    # the engine deals anew exactly what a seat may not see (every seat's, for a spectator),
    # keeping every visible count
    live.game.state = live.game.determinize(seat, random.Random(f"{game_id}:{seat}:{salt}")).state
    try:
        return request()
    finally:
        live.game.state = real


def _bad_actions(rng: random.Random, game, seat: int) -> list[dict]:
    board = game.board
    own = sorted(_secrets(game, seat))
    routes = [r.id for r in board.routes]
    public_tickets = [t.id for t in board.tickets]
    candidates = [
        {"kind": "draw-card", "slot": rng.choice([None, -1, 0, 1, 4, 5, 9])},
        {"kind": "draw-tickets"},
        {"kind": "keep-tickets", "tickets": rng.sample(own, min(len(own), rng.randint(0, 3)))},
        {"kind": "keep-tickets", "tickets": [rng.choice(public_tickets)]},
        {"kind": "claim-route", "route": rng.choice(routes), "color": rng.choice(COLORS_AND_JUNK),
         "locomotives": rng.choice([0, 1, 2, 6, -1]), "triples": rng.choice([0, 1])},
        {"kind": "pass"},
        {"kind": "build-station", "city": rng.choice(board.cities).name, "color": rng.choice(COLORS_AND_JUNK),
         "locomotives": rng.choice([0, 1, 3])},
        {"kind": "pay-tunnel", "color": rng.choice(COLORS_AND_JUNK), "locomotives": rng.choice([0, 1, 2])},
        {"kind": "decline-tunnel"},
        {"kind": "play-controller", "route": rng.choice(routes)},
        {"kind": "no-such-kind"},
    ]
    return rng.sample(candidates, 2)


@pytest.mark.parametrize("variant_id,seed", [("usa", 1), ("europe", 3), ("wor", 4)])
def test_no_seat_learns_another_seats_secrets_over_http(client, variant_id, seed):
    if variant_id not in variant.available():
        pytest.skip(f"variant {variant_id!r} is not in this tree")
    r = client.post("/api/games", json={"variant": variant_id, "seats": SEATS, "seed": seed})
    assert r.status_code == 201, r.text
    created = r.json()
    gid = created["game"]
    tokens = [s["token"] for s in created["seats"]]
    rng = random.Random(seed)
    refusals = 0
    for step in range(100):
        game = _live(client, gid)
        secrets = {s: _secrets(game, s) for s in range(len(SEATS))}
        for seat in (None, *range(len(SEATS))):
            headers = bearer(tokens[seat]) if seat is not None else {}
            res = client.get(f"/api/games/{gid}", headers=headers)
            body = res.json()
            if step % 4 == 0:  # exactly the engine's view of this seat, and its own legal actions
                assert body["view"] == game.view(seat)
                if seat is None:
                    assert body["legal"] is None
                else:
                    assert body["legal"] == [game.registry.to_data(a) for a in game.legal_actions(seat)]
            _check_shape(body, seat)
            if step % 5 == 0:  # the whole answer (view and legal actions) depends only on what seat may know
                again = _with_others_redealt(client, gid, seat, step, lambda: client.get(f"/api/games/{gid}", headers=headers))
                assert again.json() == body, f"GET as seat {seat} changes when others' secrets are dealt differently"
            others = set().union(*(v for s, v in secrets.items() if s != seat))
            mine = secrets.get(seat, set())
            leaked = {t for t in others - mine if t in res.text}
            assert not leaked, f"seat {seat} sees {leaked}"
        if game.over:
            break
        for seat in range(len(SEATS)):
            others = set().union(*(v for s, v in secrets.items() if s != seat)) - secrets[seat]
            for bad in _bad_actions(rng, game, seat):
                sent = json.dumps(bad)
                res = client.post(f"/api/games/{gid}/actions", headers=bearer(tokens[seat]),
                                  json={"version": len(game.log), "action": bad})
                if res.status_code == 200:
                    break  # it happened to be legal: the state moved on; read it again
                assert 400 <= res.status_code < 500, res.text
                refusals += 1
                leaked = {t for t in others if t in res.text and t not in sent}
                assert not leaked, f"refusing {bad} for seat {seat} names {leaked}: {res.text}"
                if step % 3 == 0:
                    again = _with_others_redealt(client, gid, seat, step, lambda: client.post(
                        f"/api/games/{gid}/actions", headers=bearer(tokens[seat]),
                        json={"version": len(game.log), "action": bad}))
                    assert again.json() == res.json(), f"refusing {bad} for seat {seat} depends on others' secrets"
            else:
                continue
            break
        game = _live(client, gid)
        if game.over:
            break
        seat = rng.choice(game.to_act())
        action = rng.choice(game.legal_actions(seat))
        res = client.post(f"/api/games/{gid}/actions", headers=bearer(tokens[seat]),
                          json={"version": len(game.log), "action": game.registry.to_data(action)})
        assert res.status_code == 200, res.text
    assert refusals > 200  # the bad actions were exercised, not accepted


def test_a_seat_cannot_act_for_another(client):
    r = client.post("/api/games", json={"variant": "usa", "seats": SEATS[:2], "seed": 8})
    created = r.json()
    gid = created["game"]
    game = _live(client, gid)
    # seat 1's own legal keep-tickets, sent with seat 0's token, is checked against seat 0's offer
    theirs = game.registry.to_data(game.legal_actions(1)[0])
    res = client.post(f"/api/games/{gid}/actions", headers=bearer(created["seats"][0]["token"]),
                      json={"version": 0, "action": {**theirs}})
    assert res.status_code == 422
    assert _live(client, gid).state.players[1].decision is not None  # seat 1 still has to choose
    # a "seat" field in the action is not a way to pick the seat either
    res = client.post(f"/api/games/{gid}/actions", headers=bearer(created["seats"][0]["token"]),
                      json={"version": 0, "action": {**theirs, "seat": 1}})
    assert res.status_code == 422
    assert len(_live(client, gid).log) == 0
