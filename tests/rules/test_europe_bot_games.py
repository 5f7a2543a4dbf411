"""200 seeded ``europe`` games of random bots, 2 to 5 players: the invariants hold after every
action (stations included: on the board + in supply = 3 per player), every game ends by the rules,
records replay, and the europe-only parts of the rules actually happen in these games: stations are
built and borrow routes, tunnels are attempted, ferries are claimed."""

from __future__ import annotations

from collections import Counter

import pytest

import ttr_bots as bots
from ttr_core import record, variant
from ttr_kit import testing

GAMES = 200


def _ruleset():
    return variant.load("europe")


@pytest.fixture(scope="module")
def sweep():
    """Play the games once for the module; collect problems instead of stopping at the first."""
    ruleset = _ruleset()
    counts: Counter = Counter()
    problems: list[str] = []
    assert {"tunnels", "ferries"} <= set(ruleset.plugins), "europe plays with tunnels and ferries"
    for seed in range(GAMES):
        players = 2 + seed % 4

        def watch(game, seat, action, seed=seed):
            found = testing.invariant_problems(game)
            if found:
                problems.append(f"seed {seed}, action {len(game.log)} ({action!r}): {'; '.join(found)}")
            counts[action.kind] += 1
            if action.kind == "claim-route":
                route = game.board.routes[game.board.route_index[action.route]]
                if route.ferry:
                    counts["ferry claims"] += 1
                    if action.locomotives < route.ferry:
                        problems.append(f"seed {seed}: {route.id} claimed with {action.locomotives} locomotives (R-FER-1)")
                if route.tunnel:
                    counts["tunnel attempts"] += 1

        game = bots.play_game(ruleset, players, seed, on_action=watch)
        if not game.over or game.result is None:
            problems.append(f"seed {seed}: the game did not end")
            continue
        st = game.state
        counts["games"] += 1
        counts["ended by the final round"] += "R-END-1" in st.end_reason
        counts["stations built"] += sum(st.ext["stations"].built.values())
        counts["tunnels built"] += sum(1 for r in game.board.routes if r.tunnel and st.owner[r.index] >= 0)
        counts["ferries built"] += sum(1 for r in game.board.routes if r.ferry and st.owner[r.index] >= 0)
        counts["borrowed routes"] += sum(len(s.notes) for s in game.result.scores)
        for s in game.result.scores:
            if s.bonus("unused-stations") != 4 * (3 - st.ext["stations"].built[s.seat]):
                problems.append(f"seed {seed}: seat {s.seat}'s unused-stations bonus is {s.bonus('unused-stations')}")
        if seed % 10 == 0:
            data = record.make_record(game)
            if record.dumps(record.make_record(record.replay(data))) != record.dumps(data):
                problems.append(f"seed {seed}: the record does not replay to the same bytes")
    return counts, problems


@pytest.mark.slow
def test_europe_bot_games_keep_every_invariant(sweep):
    counts, problems = sweep
    assert problems == []
    assert counts["games"] == GAMES
    assert counts["ended by the final round"] > GAMES // 2


@pytest.mark.slow
def test_europe_bot_games_build_stations_that_borrow_routes(sweep):
    counts, _ = sweep
    assert counts["build-station"] == counts["stations built"] > 0
    assert counts["borrowed routes"] > 0  # R-STA-4's search picked routes that mattered


@pytest.mark.slow
def test_europe_bot_games_attempt_and_build_tunnels(sweep):
    counts, _ = sweep
    assert counts["tunnel attempts"] > 0 and counts["tunnels built"] > 0
    assert counts["pay-tunnel"] + counts["decline-tunnel"] > 0  # R-TUN-2: extra cards were asked for


@pytest.mark.slow
def test_europe_bot_games_claim_ferries(sweep):
    counts, _ = sweep
    assert counts["ferry claims"] > 0 and counts["ferries built"] > 0
