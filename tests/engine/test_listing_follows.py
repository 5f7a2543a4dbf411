"""The legal actions follow the game: what the rules keep between listings (the free routes and
each seat's closed routes in ``game.memo``, the ruleset's payment tables) never makes a listing
differ from one worked out from nothing.

Seeded random games of every shipped variant, at every player count, are checked after every
action: the listing equals the listing of a copy of the game that kept nothing (its ``memo``
emptied), and its claims are those the seat's hand can pay route by route (``claim_options``:
R-ROUTE-2..3, R-PAR-1..2, R-FER-1..2). On the way the games branch into copies (``clone``,
``determinize``, ``SeatView.sample_game``), copies that free a route by hand, and a replay of the
record so far, each played on and checked the same way, while the game they came from goes on
unchanged.
"""

from __future__ import annotations

import random

import pytest
from usa_kit import hand, started

from ttr_core import record, variant
from ttr_core.claims import claim_options
from ttr_core.game import Game
from ttr_kit import testing

VARIANTS = sorted(variant.available())


def listed_anew(game: Game, seat: int) -> list:
    """``seat``'s legal actions in a copy of ``game`` that kept nothing between turns."""
    fresh = game.clone()
    fresh.memo.clear()
    return list(fresh.legal_actions(seat))


def claims_route_by_route(game: Game, seat: int) -> dict[str, set]:
    """By route id, the claims the seat's listing must offer, worked out one route at a time from
    every payment the hand can make: for each paying colour the one with fewest locomotives, and
    the all-locomotive payment (for a ferry, every payment of a colour left after the cheaper
    ones: the listing offers one per number of triples, R-FER-2)."""
    wanted = {}
    ferries = _ferry_rule(game)
    for route in game.board.routes:
        payments = claim_options(game, seat, route).payments
        if not payments:
            continue
        if route.ferry and ferries:
            wanted[route.id] = {p.action for p in payments}  # a superset: checked as one below
            continue
        cheapest = {}
        for p in payments:
            best = cheapest.get(p.action.color)
            if best is None or p.action.locomotives < best.locomotives:
                cheapest[p.action.color] = p.action
        wanted[route.id] = set(cheapest.values())
    return wanted


def _ferry_rule(game: Game) -> bool:
    return game.policy("ttr_ferry_payment") is not None


def assert_claims_payable(game: Game, seat: int, listed: list, where: str) -> None:
    claims = [a for a in listed if a.kind == "claim-route"]
    index = game.board.route_index
    assert [index[a.route] for a in claims] == sorted(index[a.route] for a in claims), f"{where}: map order"
    by_route: dict[str, set] = {}
    for a in claims:
        by_route.setdefault(a.route, set()).add(a)
    wanted = claims_route_by_route(game, seat)
    assert by_route.keys() == wanted.keys(), f"{where}: the routes the hand can pay"
    ferries = _ferry_rule(game)
    for rid, offered in by_route.items():
        route = game.board.routes[index[rid]]
        if ferries and route.ferry:
            assert offered <= wanted[rid], f"{where}: {rid}"
            paying = {a.color for a in wanted[rid]}
            assert {a.color for a in offered} == paying, f"{where}: {rid}, a paying colour missing"
        else:
            assert offered == wanted[rid], f"{where}: {rid}"


def check_listing(game: Game, where: str, payable: bool) -> None:
    for seat in game.to_act():
        listed = list(game.legal_actions(seat))
        assert listed == listed_anew(game, seat), where
        if payable and game.state.phase == "play" and game.state.players[seat].decision is None:
            assert_claims_payable(game, seat, listed, where)


def play_checked(game: Game, steps: int, rng: random.Random, where: str, every: int = 4) -> None:
    """Play ``steps`` random actions, checking the listing after each (and the claims route by
    route after every ``every``-th)."""
    for step in range(steps):
        if game.over:
            return
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        check_listing(game, f"{where}, action {len(game.log)}", payable=step % every == 0)


def branch(game: Game, how: str, rng: random.Random) -> Game:
    """A copy of ``game`` made as a search bot or a replay makes one."""
    if how == "clone":
        return game.clone()
    others = [s for s in range(len(game.state.players)) if s != game.to_act()[0]]
    if how == "determinize":  # the seat to act has its hand dealt anew
        return game.determinize(rng.choice(others), rng)
    if how == "sample":
        view = game.seat_view(rng.choice(others))
        try:
            return view.sample_game(rng)
        finally:
            view.close()
    if how == "replay":
        return record.replay(record.make_record(game))
    assert how == "free"  # a route released by hand (as a controller card does, R-CTL-2)
    twin = game.clone()
    owned = [r for r in game.board.routes if game.state.owner[r.index] >= 0]
    if owned:
        twin.free_route(rng.choice(owned))
    return twin


BRANCHES = ("clone", "determinize", "sample", "replay", "free")


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_the_kept_listing_is_the_listing_worked_out_anew(variant_id):
    ruleset = variant.load(variant_id)
    for seed in range(3):
        players = ruleset.players.min + seed % (ruleset.players.max - ruleset.players.min + 1)
        game = Game(ruleset, [f"P{i + 1}" for i in range(players)], seed)
        rng = random.Random(f"{variant_id}:{seed}")
        where = f"{variant_id} {players}p seed {seed}"
        check_listing(game, where, payable=False)
        n = 0
        while not game.over:
            play_checked(game, 40, rng, where, every=8)
            if game.over:
                break
            before = game.dump()
            how = BRANCHES[n % len(BRANCHES)]
            n += 1
            twin = branch(game, how, rng)
            check_listing(twin, f"{where}, {how} at {len(game.log)}", payable=True)
            play_checked(twin, 12, rng, f"{where}, {how} at {len(game.log)}", every=3)
            assert game.dump() == before  # the copy's play left the game alone
            check_listing(game, f"{where}, back from {how}", payable=True)


def test_drawing_the_cards_a_route_lacks_changes_its_payments():
    """R-ROUTE-2..3: three blue cards and a locomotive pay a 4-space blue route with the
    locomotive, and no 5-space one; two blue cards drawn later, the seat's next listing pays the
    4-space route in blue alone and offers the 5- and 6-space blue routes."""
    game = started(2, seed=4)
    testing.set_hand(game, 0, {"blue": 3, "locomotive": 1})
    testing.stack_deck(game, ["blue", "blue", "red", "red"])

    def payments(route_id: str) -> set[tuple[str | None, int]]:
        return {(a.color, a.locomotives) for a in game.legal_actions(0) if a.kind == "claim-route" and a.route == route_id}

    assert payments("Chicago-Omaha") == {("blue", 1)}
    assert payments("Atlanta-Miami") == payments("Portland-Salt Lake City") == set()
    draw = {"kind": "draw-card", "slot": None}
    testing.play(game, (0, draw), (0, draw), (1, draw), (1, draw))
    assert hand(game, 0) == {"blue": 5, "locomotive": 1}
    assert payments("Chicago-Omaha") == {("blue", 0)}
    assert payments("Atlanta-Miami") == {("blue", 0)}
    assert payments("Portland-Salt Lake City") == {("blue", 1)}
    assert [p.cards for p in claim_options(game, 0, "Atlanta-Miami").payments] == [
        {"blue": 5}, {"blue": 4, "locomotive": 1},
    ]
