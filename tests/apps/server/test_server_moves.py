"""The move log and what the game page shows at the end, over the HTTP API: every turn in words,
oldest first, the same for every reader, naming no hidden card (cards drawn blind, tickets:
R-TIX-4); what the variant's rules mark on the final position once the game is over (the longest
trails, R-BON-1, and none in a variant without that bonus); why a route cannot be claimed (the
engine's refusal, with the cards the hand lacks)."""

from __future__ import annotations

import functools
import re

import pytest

from server_kit import bearer, hurried_choice, tunnel_opening
from test_server_api import TWO, snap
from test_server_api import create as create_game
from ttr_core import variant


def create(client, variant_id="usa", seats=TWO, **extra) -> dict:
    return create_game(client, seats, variant=variant_id, **extra)


def moves(client, game, seat=None, since=None) -> dict:
    headers = bearer(game["seats"][seat]["token"]) if seat is not None else {}
    r = client.get(f"/api/games/{game['game']}/moves", headers=headers, params={} if since is None else {"since": since})
    assert r.status_code == 200, r.text
    return r.json()


def act(client, game, seat, action, version):
    r = client.post(f"/api/games/{game['game']}/actions", headers=bearer(game["seats"][seat]["token"]),
                    json={"version": version, "action": action})
    assert r.status_code == 200, r.text
    return r.json()


def play(client, game, stop=lambda version: False, watch=None, pick=hurried_choice) -> None:
    """Both seats played through the API until the game is over (or ``stop``); ``watch(seat,
    before, action, after)`` sees each of them."""
    for _ in range(2000):
        public = snap(client, game)
        if public["view"]["phase"] == "over" or stop(public["version"]):
            return
        seat = public["view"]["to_act"][0]
        before = snap(client, game, seat)
        action = pick(before["legal"])
        act(client, game, seat, action, before["version"])
        if watch is not None:
            watch(seat, before, action, snap(client, game, seat))
    raise AssertionError("the game did not end")


def test_the_move_log_tells_every_turn_in_words_oldest_first(client):
    game = create(client, seed=11)
    seen = []  # (seat, what the seat saw before, the action, after)
    play(client, game, watch=lambda *a: seen.append(a))
    log = moves(client, game)
    turns = log["moves"]
    final = snap(client, game)
    assert log["version"] == final["version"]
    # every action belongs to exactly one turn, in order
    assert turns[0]["first"] == 1 and turns[-1]["last"] == final["version"]
    assert all(t["first"] == prev["last"] + 1 for prev, t in zip(turns, turns[1:]))
    assert all(t["over"] for t in turns)
    names = {0: "Ada", 1: "Bob"}
    assert all(t["text"].startswith(names[t["seat"]] + " ") for t in turns)
    assert [t["turn"] for t in turns[:2]] == [None, None]  # the starting tickets
    assert re.fullmatch(r"(Ada|Bob) kept (all 3|2 of 3) starting tickets", turns[0]["text"])
    # each claim is told with its route and what was paid, and the board agrees
    by_first = {t["first"]: t for t in turns}
    claims = 0
    for n, (seat, before, action, after) in enumerate(seen, start=1):
        turn = next(t for t in turns if t["first"] <= n <= t["last"])
        if action["kind"] == "claim-route":
            claims += 1
            route = action["route"]
            assert turn["routes"] == [route] and final["view"]["routes"][route] == seat
            paid = {c: k - after["view"]["you"]["hand"].get(c, 0) for c, k in before["view"]["you"]["hand"].items()}
            paid = {c: k for c, k in paid.items() if k > 0}
            assert turn["text"].startswith(f"{names[seat]} claimed {route} with ")
            for card, k in paid.items():
                assert f"{k} {card}" in turn["text"], (turn, paid)
        if action["kind"] == "draw-card" and action["slot"] is not None:
            colour = before["view"]["open_row"][action["slot"]]
            assert f"took a face-up {colour}" in turn["text"] or f"took 2 face-up {colour} cards" in turn["text"], turn
    assert claims >= 5
    assert by_first[1]["turn"] is None and turns[-1]["turn"] == final["view"]["turn"]
    # the final round is announced with the turn that began it
    announced = [t for t in turns if t["final_round"]]
    assert len(announced) == 1 and "every player plays one last turn" in announced[0]["final_round"]


def test_no_card_drawn_blind_and_no_ticket_is_named(client):
    from ttr_kit import testing

    game = create(client, seed=4)
    blind = set()  # the numbers of the actions that drew blind

    def watch(seat, before, action, after):
        if action["kind"] == "draw-card" and action["slot"] is None:
            blind.add(before["version"] + 1)

    def pick(legal):  # now and then, tickets
        tickets = [a for a in legal if a["kind"] == "draw-tickets"]
        return tickets[0] if tickets and len(blind) % 7 == 3 else hurried_choice(legal)

    play(client, game, watch=watch, pick=pick)
    turns = moves(client, game)["moves"]
    both_blind = [t for t in turns if t["last"] == t["first"] + 1 and {t["first"], t["last"]} <= blind]
    # two blind cards: the words say so, and name neither card
    assert both_blind
    cards = testing.new_game("usa", 2, 0).cards.names
    for t in both_blind:
        assert t["text"].endswith(" drew 2 cards from the deck") and not any(c in t["text"] for c in cards), t
    # tickets: how many were drawn and kept, never which
    board = variant.load("usa").board
    route_ids = {r.id for r in board.routes}
    tickets = [t for t in board.tickets if t.id not in route_ids]
    assert any("ticket" in t["text"] for t in turns[2:])
    for turn in turns:
        assert not any(t.id in turn["text"] or f"{t.a} – {t.b}" in turn["text"] or f"{t.a}-{t.b}" in turn["text"]
                       for t in tickets), turn


def test_every_reader_gets_the_same_log_and_since_gives_its_tail(client):
    game = create(client, seed=8)
    play(client, game, stop=lambda version: version >= 40)
    spectator = moves(client, game)
    assert moves(client, game, seat=0) == spectator == moves(client, game, seat=1)
    cut = spectator["moves"][5]["last"]
    tail = moves(client, game, since=cut)
    assert tail["moves"] == [t for t in spectator["moves"] if t["last"] > cut]
    assert tail["moves"][0]["first"] == cut + 1
    assert moves(client, game, since=spectator["version"])["moves"] == []
    assert client.get("/api/games/nosuchgame/moves").status_code == 404
    assert client.get(f"/api/games/{game['game']}/moves", params={"since": -1}).status_code == 422


def test_a_turn_going_on_is_the_last_entry_and_names_nothing_hidden(client):
    game = create(client, seed=8)
    play(client, game, stop=lambda version: version >= 2)  # the starting tickets
    s = snap(client, game, 0 if snap(client, game)["view"]["to_act"] == [0] else 1)
    seat = s["seat"]
    act(client, game, seat, {"kind": "draw-card", "slot": None}, s["version"])
    going = moves(client, game)["moves"][-1]
    assert going["over"] is False and going["seat"] == seat
    assert going["text"] == f"{s['seats'][seat]['name']} drew a card from the deck"


def test_a_tunnel_is_told_with_the_cards_it_turned_over(client):
    seed, claim = tunnel_opening()
    game = create(client, "europe", seed=seed)
    for seat in (0, 1):
        s = snap(client, game, seat)
        act(client, game, seat, max((a for a in s["legal"] if a["kind"] == "keep-tickets"), key=lambda a: len(a["tickets"])),
            s["version"])
    s = snap(client, game, 0)
    act(client, game, 0, claim, s["version"])
    decision = snap(client, game, 1)["view"]["players"][0]["decision"]  # what the other seat sees
    going = moves(client, game)["moves"][-1]
    revealed = ", ".join(decision["revealed"])
    assert going["over"] is False
    assert f"Ada tried the tunnel {claim['route']} with " in going["text"]
    assert f"revealed {revealed}: {decision['extra']} more card" in going["text"]
    s = snap(client, game, 0)
    act(client, game, 0, next(a for a in s["legal"] if a["kind"] == "decline-tunnel"), s["version"])
    told = moves(client, game)["moves"][-1]
    assert told["over"] and told["text"].endswith("then gave up the tunnel (its cards go back to the hand)")
    assert told["routes"] == []


def test_the_longest_trails_are_given_route_by_route_once_the_game_is_over(client):
    game = create(client, seed=11)
    assert client.get(f"/api/games/{game['game']}/trails").status_code == 409
    play(client, game)
    r = client.get(f"/api/games/{game['game']}/trails")
    assert r.status_code == 200, r.text
    final = snap(client, game)
    board = {x.id: x for x in variant.load("usa").board.routes}
    for trail, score in zip(r.json()["trails"], final["view"]["result"]["scores"]):
        assert trail["length"] == score["facts"]["longest-path"] > 0
        assert trail["length"] == sum(board[x].length for x in trail["routes"])
        assert all(final["view"]["routes"][x] == trail["seat"] for x in trail["routes"])
        # one trail: each route shares a city with the next
        for a, b in zip(trail["routes"], trail["routes"][1:]):
            assert {board[a].a, board[a].b} & {board[b].a, board[b].b}


def test_the_highlights_are_the_trails_once_the_game_is_over(client):
    game = create(client, seed=11)
    assert client.get(f"/api/games/{game['game']}/highlights").status_code == 409
    play(client, game)
    shown = client.get(f"/api/games/{game['game']}/highlights").json()["highlights"]
    trails = client.get(f"/api/games/{game['game']}/trails").json()["trails"]
    assert [(h["seat"], h["name"], h["shape"]) for h in shown] == [(0, "longest-path", "trail"), (1, "longest-path", "trail")]
    assert [h["routes"] for h in shown] == [t["routes"] for t in trails]
    assert [h["title"] for h in shown] == [f"longest trail: {t['length']} spaces" for t in trails]


@pytest.fixture
def without_longest_path(monkeypatch, tmp_path):
    """A variant on the usa map whose rules have no longest-path bonus (its tie-breaker goes too)."""
    folder = tmp_path / "house"
    folder.mkdir()
    (folder / "usa-no-trail.toml").write_text(
        'id = "usa-no-trail"\ntitle = "USA without the longest route"\nextends = "usa@1"\n'
        '[versions.1]\nnote = "no longest-path bonus"\nremove_plugins = ["longest-path"]\n'
        '[versions.1.rules.winner]\ntie_breakers = ["tickets"]\n'
    )
    dirs = variant.variant_dirs()
    monkeypatch.setattr(variant, "variant_dirs", functools.cache(lambda: (*dirs, folder)))
    variant.clear_caches()
    yield "usa-no-trail"
    variant.clear_caches()


def test_a_variant_without_the_longest_path_bonus_shows_no_trails(client, without_longest_path):
    game = create(client, without_longest_path, seed=11)
    play(client, game)
    final = snap(client, game)
    assert all("longest-path" not in s["facts"] and not s["bonuses"] for s in final["view"]["result"]["scores"])
    assert final["view"]["routes"]  # routes were claimed: there were trails to draw
    r = client.get(f"/api/games/{game['game']}/highlights")
    assert r.status_code == 200 and r.json()["highlights"] == []
    assert client.get(f"/api/games/{game['game']}/trails").json()["trails"] == []


def test_a_route_the_hand_cannot_pay_says_which_cards_are_missing(client):
    game = create(client, seed=3)
    play(client, game, stop=lambda version: version >= 2)
    s = snap(client, game, 0)
    hand = s["view"]["you"]["hand"]
    board = variant.load("usa").board
    # a coloured route longer than the hand's cards of its colour and locomotives together
    route = next(r for r in board.routes if r.color != "gray" and r.length > hand.get(r.color, 0) + hand.get("locomotive", 0)
                 and r.id not in s["view"]["routes"])
    r = client.get(f"/api/games/{game['game']}/claim-check", params={"route": route.id}, headers=bearer(game["seats"][0]["token"]))
    assert r.status_code == 200, r.text
    check = r.json()
    assert check["possible"] is False and check["refusal"]["code"] == "cannot-pay"
    assert route.id in check["refusal"]["reason"]
    assert check["missing"] == {route.color: route.length - hand.get(route.color, 0) - hand.get("locomotive", 0)}
    # and the action itself is refused with the engine's reason
    refused = client.post(f"/api/games/{game['game']}/actions", headers=bearer(game["seats"][0]["token"]), json={
        "version": s["version"], "action": {"kind": "claim-route", "route": route.id, "color": route.color, "locomotives": 0}})
    assert refused.status_code == 422 and refused.json()["reason"]


def test_a_taken_route_says_who_holds_it_and_the_check_needs_a_seat(client):
    game = create(client, seed=11)
    play(client, game, stop=lambda version: bool(snap(client, game)["view"]["routes"]))
    s = snap(client, game, 0)
    route, owner = next(iter(s["view"]["routes"].items()))
    check = client.get(f"/api/games/{game['game']}/claim-check", params={"route": route},
                       headers=bearer(game["seats"][0]["token"])).json()
    assert check["possible"] is False and check["refusal"]["code"] == "taken"
    assert "R-ROUTE-5" in check["refusal"]["reason"] and check["missing"] is None
    assert client.get(f"/api/games/{game['game']}/claim-check", params={"route": route}).status_code == 401
    unknown = client.get(f"/api/games/{game['game']}/claim-check", params={"route": "Nowhere-Else"},
                         headers=bearer(game["seats"][0]["token"]))
    assert unknown.status_code == 404 and "Nowhere-Else" in unknown.json()["reason"]
