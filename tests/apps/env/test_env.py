"""ttr_env: the PettingZoo environment (PettingZoo's own api_test for every shipped variant), the
Gymnasium single-seat wrapper (Gymnasium's env checker), the fixed action space (every legal
action has an index that decodes back to it), observations that hide what the seat cannot see,
and games of random masked agents that finish."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from typing import ClassVar

import pytest

REASON = "needs the env extra (pip install '.[env]'): PettingZoo, Gymnasium, NumPy"
np = pytest.importorskip("numpy", reason=REASON)
gymnasium = pytest.importorskip("gymnasium", reason=REASON)
pytest.importorskip("pettingzoo", reason=REASON)

import attrs  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import ttr_env  # noqa: E402
from ttr_core import manager, variant  # noqa: E402
from ttr_core.actions import Action  # noqa: E402
from ttr_core.game import Game  # noqa: E402
from ttr_core.plugin import ObservationPart, Plugin, hookimpl  # noqa: E402
from ttr_env import actions as action_codecs  # noqa: E402
from ttr_env import observations as obs_module  # noqa: E402

SHIPPED = ("usa", "europe", "wor", "wor-legacy", "wor-europe", "ussr")
#: players for each variant's api_test: every count from 2 to 6 is covered somewhere
API_PLAYERS = {"usa": 2, "europe": 3, "wor": 6, "wor-legacy": 4, "wor-europe": 5, "ussr": 3}
#: the size of each variant's action space: an index is what a trained agent remembers, so a
#: change of numbering must be deliberate (and noted for users)
ACTION_SPACE = {"usa": 1075, "europe": 2416, "wor": 1104, "wor-legacy": 1104, "wor-europe": 1555, "ussr": 2214}
#: the size of each variant's observation for 3 players: the plugins supply their parts
#: (``ttr_observation_parts``), and a change of layout must be deliberate too (the map and ticket
#: features, the connected tickets and the scaled counts changed it)
OBSERVATION_SIZE = {"usa": 2403, "europe": 2953, "wor": 2594, "wor-legacy": 2594, "wor-europe": 2807, "ussr": 2958}
#: what PettingZoo's api_test says of any environment with dict observations (its own classic
#: games are exempted by name): the observation is {"observation", "action_mask"} on purpose
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


def names(players: int) -> list[str]:
    return [f"player_{i}" for i in range(players)]


def run_api_test(env, cycles: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=cycles)
    unexpected = {str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)}
    assert unexpected == set()


def test_the_shipped_variants_are_installed():
    assert set(SHIPPED) <= set(variant.available())


# --- PettingZoo ------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_pettingzoo_api_test(variant_id):
    run_api_test(ttr_env.env(variant_id, API_PLAYERS[variant_id]), cycles=25)


def test_pettingzoo_api_test_through_a_whole_game_and_a_truncated_one():
    run_api_test(ttr_env.env("usa", 2), cycles=300)  # ~160 actions: the game ends, all terminate
    run_api_test(ttr_env.env("europe", 2, max_steps=12), cycles=20)


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_random_masked_agents_finish_games_with_the_final_scores_as_rewards(variant_id):
    ruleset = variant.load(variant_id)
    for players, seed in ((ruleset.players.min, 1), (ruleset.players.max, 2)):
        env = ttr_env.env(variant_id, players)
        env.reset(seed=seed)
        rewards, actions = {}, 0
        for agent in env.agent_iter(5_000):
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                assert terminated and not truncated
                rewards[agent] = (reward, info)
                env.step(None)
                continue
            assert obs["action_mask"].any()
            env.step(env.action_space(agent).sample(obs["action_mask"]))
            actions += 1
        assert env.agents == []
        result = env.unwrapped.game.result
        assert result is not None and actions == len(env.unwrapped.game.log)
        for score in result.scores:
            reward, info = rewards[f"player_{score.seat}"]
            assert reward == score.total and info["score"] == score.total
            assert info["won"] == (score.seat in result.winners.seats)


def test_reward_modes_and_the_game_seed_option():
    finals = {}
    for mode in ttr_env.REWARDS:
        env = ttr_env.raw_env("usa", 3, reward=mode)
        env.reset(options={"game_seed": 7})
        out = {}
        while env.agents:
            obs, reward, terminated, truncated, _ = env.last()
            if terminated:
                out[env.agent_selection] = reward
            env.step(None if terminated else min(np.flatnonzero(obs["action_mask"])))
        finals[mode] = out
        winners = set(env.game.result.winners.seats)
        assert env.game.seed == 7
    assert finals["score"] == {f"player_{s.seat}": s.total for s in env.game.result.scores}
    assert finals["win"] == {f"player_{s}": float(s in winners) for s in range(3)}
    assert finals["win-loss"] == {f"player_{s}": 1.0 if s in winners else -1.0 for s in range(3)}
    totals = [s.total for s in env.game.result.scores]
    margins = finals["margin"]
    # the winner's margin is over the runner-up, everyone else's under the winner, in hundreds of points
    for s in range(3):
        best_other = max(t for j, t in enumerate(totals) if j != s)
        assert margins[f"player_{s}"] == pytest.approx(max(-1, min(1, (totals[s] - best_other) / 100)))
        assert (margins[f"player_{s}"] >= 0) == (s in winners)
    with pytest.raises(ValueError, match="reward must be one of score, win, win-loss, margin"):
        ttr_env.raw_env("usa", 2, reward="points")


def test_the_margin_reward_is_bounded_and_zero_for_a_tie():
    from ttr_env.encoding import final_rewards

    @attrs.frozen
    class Score:
        seat: int
        total: int

    @attrs.frozen
    class Winners:
        seats: tuple[int, ...]

    @attrs.frozen
    class Result:
        scores: tuple[Score, ...]
        winners: Winners

    rout = Result((Score(0, 250), Score(1, -40), Score(2, 90)), Winners((0,)))
    assert final_rewards(rout, "margin") == [1.0, -1.0, -1.0]
    tie = Result((Score(0, 100), Score(1, 100), Score(2, 70)), Winners((0, 1)))
    assert final_rewards(tie, "margin") == [0.0, 0.0, -0.3]


def test_truncation_after_max_steps_gives_no_reward():
    env = ttr_env.raw_env("wor", 3, max_steps=10)
    env.reset(seed=3)
    for _ in range(10):
        obs, *_ = env.last()
        env.step(env.action_space(env.agent_selection).sample(obs["action_mask"]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert set(env.rewards.values()) == {0.0} and not env.game.over


def test_an_index_outside_the_mask_is_refused_or_penalised():
    env = ttr_env.raw_env("usa", 2)
    env.reset(seed=1)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ttr_env.IllegalActionIndex, match=f"action {illegal} is not legal now"):
        env.step(illegal)
    env = ttr_env.raw_env("usa", 2, illegal_action="penalty", illegal_reward=-5)
    env.reset(seed=1)
    agent = env.agent_selection
    env.step(illegal)
    assert env.agent_selection == agent and env.game.log == []
    assert env.last()[1] == -5 and env.infos[agent] == {"illegal_action": illegal}


# --- the action space --------------------------------------------------------------------------------


def random_positions(variant_id: str, players: int, seed: int, limit: int = 3_000):
    """Every position of a seeded game of random legal actions: (game, seat to act)."""
    game = Game(variant.load(variant_id), names(players), seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if game.over:
            return
        seat = game.to_act()[0]
        yield game, seat
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    raise AssertionError(f"{variant_id} seed {seed}: no end after {limit} actions")


#: kinds every game of random actions of the variant meets within the seeds below
KINDS_MET = {
    "usa": {"claim-route", "draw-card", "draw-tickets", "keep-tickets"},
    "wor": {"claim-route", "draw-card", "draw-tickets", "keep-tickets"},
    "wor-legacy": {"claim-route", "draw-card", "draw-tickets", "keep-tickets"},
    "wor-europe": {"claim-route", "draw-card", "draw-tickets", "keep-tickets", "pay-tunnel", "decline-tunnel"},
    "europe": {"claim-route", "draw-card", "draw-tickets", "keep-tickets", "pay-tunnel", "decline-tunnel",
               "build-station"},
    "ussr": {"claim-route", "draw-card", "draw-tickets", "keep-tickets", "pay-tunnel", "decline-tunnel",
             "build-station", "play-controller"},
}


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_every_legal_action_has_an_index_that_decodes_to_it(variant_id):
    ruleset = variant.load(variant_id)
    met: set[str] = set()
    triples = 0
    for players, seed in ((ruleset.players.min, 11), (ruleset.players.max, 12), (3, 13)):
        space = ttr_env.encoding(ruleset, players).actions
        assert space.n == ACTION_SPACE[variant_id]
        check = random.Random(seed)
        for game, seat in random_positions(variant_id, players, seed):
            view = game.view(seat)
            legal = game.legal_actions(seat)
            by_index = space.legal(game, seat, view)  # raises if two legal actions share an index
            assert len(by_index) == len(legal)
            for index, action in by_index.items():
                assert space.action(index, view) == action
                assert space.kind_of(index) == action.kind
                met.add(action.kind)
                triples += action.kind == "claim-route" and action.triples > 0
            # an index decodes to an action the game accepts
            index = check.choice(sorted(by_index))
            game.clone().apply(seat, space.action(index, view))
    assert met >= KINDS_MET[variant_id]
    if variant_id == "wor-europe":  # 3-for-1 ferries (R-FER-2) are in the space and were legal
        assert triples


def test_the_numbering_is_the_same_for_every_player_count_and_every_build():
    ruleset = variant.load("ussr")
    a = ttr_env.ActionEncoding(ruleset, 2)
    b = ttr_env.ActionEncoding(variant.load("ussr"), 5)
    assert a.describe() == b.describe()
    assert [s.kind for s in a.segments] == sorted(s.kind for s in a.segments)
    assert "resign" not in ttr_env.ActionEncoding(variant.load("wor"), 2).kinds  # any_time: never listed
    blind = next(s for s in a.segments if s.kind == "draw-card").start
    assert a.action_data(blind, {}) == {"kind": "draw-card", "slot": None}


def test_keep_tickets_and_pay_tunnel_read_the_offer_and_the_attempt_from_the_view():
    space = ttr_env.encoding(variant.load("europe"), 2).actions
    keep = next(s for s in space.segments if s.kind == "keep-tickets")
    view = {"rules": {"tickets_on_offer": ["A-B", "C-D", "E-F"]}}
    assert space.action_data(keep.start + 0b101 - 1, view) == {"kind": "keep-tickets", "tickets": ["A-B", "E-F"]}
    assert space.action_data(keep.start + 0b1000 - 1, view) is None  # a 4th position: nothing on offer there
    pay = next(s for s in space.segments if s.kind == "pay-tunnel")
    view = {"you": {"seat": 1}, "players": [{"decision": None}, {"decision": {"kind": "tunnel-extra", "extra": 2, "color": "red"}}]}
    assert space.action_data(pay.start + 1, view) == {"kind": "pay-tunnel", "color": "red", "locomotives": 1}
    assert space.action_data(pay.start + 2, view) == {"kind": "pay-tunnel", "color": None, "locomotives": 2}
    assert space.action_data(pay.start + 3, view) is None


@attrs.frozen
class Swap(Action):
    """A house rule's action with a field."""

    kind: ClassVar[str] = "swap-card"
    card: str = "red"


class Swapping(Plugin):
    deterministic = True

    @hookimpl
    def ttr_register_actions(self, registry):
        registry.add(Swap, self)

    def legal(self, game, seat):
        return []


def test_a_house_rule_action_with_fields_needs_a_codec(tmp_path, monkeypatch):
    path = tmp_path / "usa-swap.toml"
    path.write_text('id = "usa-swap"\ntitle = "t"\nextends = "usa"\n[versions.1]\nadd_plugins = ["swapping"]\n')
    with manager.local_plugins({"swapping": Swapping}):
        ruleset = variant.load(str(path))
        with pytest.raises(ttr_env.UnsupportedAction, match=r"'swap-card' \(plugin 'swapping'; fields card\)"):
            ttr_env.ActionEncoding(ruleset, 2)
        monkeypatch.setattr(action_codecs, "_CODECS", dict(action_codecs._CODECS))
        ttr_env.register_codec(
            "swap-card", lambda ctx: action_codecs.StaticCodec("swap-card", [{"card": "red"}], "red", ctx.probe.registry)
        )
        space = ttr_env.ActionEncoding(ruleset, 2)
    assert space.n == ACTION_SPACE["usa"] + 1 and "swap-card" in space.kinds


class SwappingEveryColour(Swapping):
    """Lists a swap of each colour in the hand: more actions than its codec below has offsets."""

    def legal(self, game, seat):
        hand = game.state.players[seat].hand
        return [Swap(name) for name, n in zip(game.cards.names, hand) if n and name != "locomotive"]


class OneOffset(action_codecs.Codec):
    """A careless codec: every swap at offset 0."""

    kind, size, doc = "swap-card", 1, "any swap"

    def encode(self, action, view):
        return 0

    def decode(self, offset, view):
        return None


def test_two_legal_actions_at_one_index_are_refused_naming_both(tmp_path, monkeypatch):
    """A codec that gives two legal actions one index would make the mask lie: observing the seat
    says which index and which two actions."""
    path = tmp_path / "usa-swap.toml"
    path.write_text('id = "usa-swap"\ntitle = "t"\nextends = "usa"\n[versions.1]\nadd_plugins = ["swapping"]\n')
    monkeypatch.setattr(action_codecs, "_CODECS", dict(action_codecs._CODECS))
    ttr_env.register_codec("swap-card", lambda ctx: OneOffset())
    with manager.local_plugins({"swapping": SwappingEveryColour}):
        ruleset = variant.load(str(path))
        enc = ttr_env.Encoding(ruleset, 2)
        game = Game(ruleset, names(2), 3)
        rng = random.Random(3)
        while not (game.state.phase == "play" and len(SwappingEveryColour().legal(game, game.state.current)) > 1):
            seat = game.to_act()[0]
            game.apply(seat, rng.choice([a for a in game.legal_actions(seat) if a.kind != "swap-card"]))
        with pytest.raises(ttr_env.UnencodableAction, match=r"index \d+ would mean both \{'kind': 'swap-card', 'card': '\w+'\} "
                                                           r"and \{'kind': 'swap-card', 'card': '\w+'\}"):
            enc.observe(game, game.state.current)


# --- observations ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_the_observation_layout_of_each_shipped_variant(variant_id):
    obs = ttr_env.encoding(variant.load(variant_id), 3).observations
    assert obs.size == OBSERVATION_SIZE[variant_id]
    plugins = variant.load(variant_id).plugins
    # the plugins' parts where the module docstring lists them: the offer after the tickets, the
    # tunnel attempt and the stations after the legal action kinds
    expected = ["phase", "to_act", "current", "final_round", "turn", "open_row", "piles", "routes", "map", "players",
                "hand", "tickets", "offer", "connected", "ticket_map", "legal_kinds"]
    expected += ["tunnel"] * ("tunnels" in plugins) + ["stations"] * ("stations" in plugins) + ["result"]
    assert [p.name for p in obs.parts] == expected


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_an_observation_is_unchanged_when_what_the_seat_cannot_see_is_dealt_anew(variant_id):
    players = 3
    enc = ttr_env.encoding(variant.load(variant_id), players)
    space = enc.observation_space()
    rng = random.Random(5)
    changed_hidden = 0
    for step, (game, actor) in enumerate(random_positions(variant_id, players, 5)):
        if step % 7:
            continue
        for seat in range(players):
            obs, legal = enc.observe(game, seat)
            assert space.contains(obs)
            twin = game.determinize(seat, rng)
            again, legal_again = enc.observe(twin, seat)
            assert np.array_equal(obs["observation"], again["observation"])
            assert np.array_equal(obs["action_mask"], again["action_mask"])
            assert legal == legal_again
            if seat == actor:
                assert obs["action_mask"].any()
            changed_hidden += twin.dump() != game.dump()
    assert changed_hidden  # the test is not vacuous: hidden information did change


def test_observations_are_relative_to_the_seat_and_carry_the_own_hand_and_tickets():
    enc = ttr_env.encoding(variant.load("usa"), 3)
    game = Game(variant.load("usa"), names(3), 4)
    for seat in game.to_act():  # everyone keeps all starting tickets
        view = game.view(seat)
        keep = next(i for i, a in enc.actions.legal(game, seat, view).items() if len(a.tickets) == 3)
        game.apply(seat, enc.actions.action(keep, view))
    obs = enc.observations
    for seat in range(3):
        vec, _ = enc.observe(game, seat)
        v = vec["observation"]
        me = game.view(seat)["you"]
        hand = v[obs.part("hand").start:][: len(obs.card_names)] * obs_module.HAND_SCALE
        assert {obs.card_names[i]: round(n) for i, n in enumerate(hand) if n} == me["hand"]
        held = np.flatnonzero(v[obs.part("tickets").start:][: len(game.board.tickets)])
        assert sorted(game.board.tickets[t].id for t in held) == sorted(me["tickets"])
        current = v[obs.part("current").start:][:3]
        assert int(np.flatnonzero(current)[0]) == (game.state.current - seat) % 3
        assert v[obs.part("to_act").start] == (seat == game.state.current)
    assert "tickets" in enc.describe() and "claim-route" in enc.describe()


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_every_number_of_an_observation_has_a_small_bound(variant_id):
    obs = ttr_env.encoding(variant.load(variant_id), 4).observations
    # counts are scaled: no bound is a raw count of the deck, the map or the turns
    assert obs.low.min() >= -10 and obs.high.max() <= 15
    for part in obs.parts:
        if part.name not in ("turn", "players", "hand", "result"):
            assert obs.high[part.start:part.start + part.size].max() <= 1, part.name
    assert "divided by" in obs.describe() and "POINT_SCALE" in obs_module.__doc__


def test_the_map_and_ticket_features_describe_the_board():
    board = variant.load("usa").board
    enc_usa = ttr_env.encoding(variant.load("usa"), 2)
    obs = enc_usa.observations
    game = Game(variant.load("usa"), names(2), 1)
    v = enc_usa.observe(game, 0)[0]["observation"]
    per_route = v[obs.part("map").start:][: 16 * len(board.routes)].reshape(len(board.routes), 16)
    longest = max(r.length for r in board.routes)
    for r in board.routes:
        row = per_route[r.index]
        assert row[0] == pytest.approx(r.length / longest)
        assert obs_module.ROUTE_COLORS[int(np.flatnonzero(row[1:10])[0])] == r.color
        assert row[10] == r.tunnel
    # Seattle is west of New York: the longitude of a route's first city tells
    seattle = next(r for r in board.routes if "Seattle" in (r.a, r.b))
    new_york = next(r for r in board.routes if "New York" in (r.a, r.b))
    west = 13 if seattle.a == "Seattle" else 15
    east = 13 if new_york.a == "New York" else 15
    assert per_route[seattle.index, west] < 0.1 < 0.9 < per_route[new_york.index, east]
    per_ticket = v[obs.part("ticket_map").start:][: 5 * len(board.tickets)].reshape(len(board.tickets), 5)
    top = max(t.points for t in board.tickets)
    assert [row[4] for row in per_ticket] == pytest.approx([t.points / top for t in board.tickets])
    # the same in every game and for every seat
    other = Game(variant.load("usa"), names(2), 2)
    assert np.array_equal(enc_usa.observe(other, 1)[0]["observation"][obs.part("map").start:obs.part("players").start],
                          v[obs.part("map").start:obs.part("players").start])


def test_a_ticket_reads_connected_once_the_seats_own_routes_join_its_cities():
    rs = variant.load("usa")
    enc = ttr_env.encoding(rs, 2)
    obs = enc.observations
    game = Game(rs, names(2), 4)
    for seat in game.to_act():  # each keeps all starting tickets
        view = game.view(seat)
        keep = next(i for i, a in enc.actions.legal(game, seat, view).items() if len(a.tickets) == 3)
        game.apply(seat, enc.actions.action(keep, view))
    board = game.board
    ticket = board.tickets[game.state.players[0].tickets[0]]
    at = obs.part("connected").start + ticket.index

    def connected() -> float:
        return enc.observe(game, 0)[0]["observation"][at]

    assert connected() == 0
    # seat 0 is handed the shortest path of the ticket (a position set up for the test)
    import networkx as nx

    graph = nx.Graph()
    for r in board.routes:
        graph.add_edge(r.ai, r.bi, route=r.index)
    path = nx.shortest_path(graph, ticket.ai, ticket.bi)
    routes = [graph.edges[a, b]["route"] for a, b in zip(path, path[1:])]
    for r in routes[:-1]:
        game.state.owner[r] = 0
    assert connected() == 0  # one route missing
    game.state.owner[routes[-1]] = 1
    assert connected() == 0  # the other seat's route does not join them for seat 0
    game.state.owner[routes[-1]] = 0
    assert connected() == 1
    other = enc.observe(game, 1)[0]["observation"]
    assert other[obs.part("connected").start:obs.part("ticket_map").start].sum() == 0  # seat 1 holds its own


def test_the_plugins_parts_show_the_seats_offer_tunnel_attempt_and_the_stations_on_the_board():
    """What an AI author reads in the plugins' parts, checked against the game itself over seeded
    europe games: the tickets on offer to the seat by position (R-TIX-4: its own offer), its
    pending tunnel attempt (R-TUN-2..6: route, paying colour, extra cards, base and revealed cards
    by kind) and who has a station in each city and how many each seat has left (R-STA-1),
    seats relative to the observer."""
    rs = variant.load("europe")
    enc = ttr_env.encoding(rs, 3)
    obs, board, cards = enc.observations, rs.board, rs.rules.cards
    T, R, K, C, n = len(board.tickets), len(board.routes), len(cards.names), len(board.cities), 3
    seen = {"offer": 0, "tunnel": 0, "stations": 0}
    for seed in range(6):
        game, rng = Game(rs, names(n), seed), random.Random(seed)
        while not game.over:
            seat = game.to_act()[0]
            vector = enc.observe(game, seat)[0]["observation"]

            def part(name: str):
                start = obs.part(name).start
                return vector[start:start + obs.part(name).size]

            decision = game.state.players[seat].decision
            offer = part("offer").reshape(-1, T)
            offered = list(decision.offered) if decision is not None and decision.kind == "choose-tickets" else []
            assert [int(np.flatnonzero(row)[0]) for row in offer if row.any()] == offered
            seen["offer"] += bool(offered)
            tunnel = part("tunnel")
            if decision is not None and decision.kind == "tunnel-extra":
                seen["tunnel"] += 1
                assert np.flatnonzero(tunnel[:R]).tolist() == [board.route_index[decision.route]]
                colours = tunnel[R:R + 9]
                assert colours.sum() == 1 and (decision.color is None) == bool(colours[8])
                scale = obs.scale[obs.part("tunnel").start + R + 9]  # the extra cards' bound
                assert tunnel[R + 9] * scale == pytest.approx(decision.extra)
                base = tunnel[R + 11:R + 11 + K] * obs.scale[obs.part("tunnel").start + R + 11]
                assert base.round().astype(int).tolist() == [decision.base.count(c) for c in range(K)]
            else:
                assert not tunnel.any()
            stations = part("stations")
            owners = stations[:C * (n + 1)].reshape(C, n + 1)
            state = game.state.ext["stations"]
            for s in range(n):
                for city in state.cities.get(s, ()):
                    assert owners[board.city_index[city] if isinstance(city, str) else city, 1 + (s - seat) % n] == 1
                    seen["stations"] += 1
            assert (owners.sum(axis=1) == 1).all()
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert all(seen.values()), seen  # each part was seen with something in it


class TurnsTaken(Plugin):
    """House rule (a report, no points): everybody sees how many turns each player has taken, and
    an environment observes it, through the plugin's own observation hooks."""

    deterministic = True

    @attrs.define
    class State:
        taken: dict[int, int] = attrs.Factory(dict)

    @hookimpl
    def ttr_turn_ended(self, game, seat):
        taken = self.state(game).taken
        taken[seat] = taken.get(seat, 0) + 1

    @hookimpl
    def ttr_view(self, game, seat):
        taken = self.state(game).taken
        return {"turns-taken": [taken.get(s, 0) for s in range(len(game.state.players))]}

    @hookimpl
    def ttr_observation_parts(self, game):
        return [ObservationPart("turns-taken", len(game.state.players), high=500, doc="turns taken, per relative seat",
                                after="players")]

    @hookimpl
    def ttr_observation_values(self, view, seat):
        taken = view["rules"]["turns-taken"]
        n = len(taken)
        return {"turns-taken": [taken[(seat + k) % n] for k in range(n)]}


def _turns_taken_variant(tmp_path) -> str:
    path = tmp_path / "usa-turns.toml"
    path.write_text('id = "usa-turns"\ntitle = "t"\nextends = "usa"\n[versions.1]\nadd_plugins = ["turns-taken"]\n')
    return str(path)


def test_hook_ttr_observation_parts(tmp_path):
    usa = ttr_env.encoding(variant.load("usa"), 3).observations
    players = [p.name for p in usa.parts].index("players") + 1
    with manager.local_plugins({"turns-taken": TurnsTaken}):
        enc = ttr_env.Encoding(variant.load(_turns_taken_variant(tmp_path)), 3)
    obs = enc.observations
    # the house rule's part follows the segment it names; the rest of the layout is usa's
    assert [p.name for p in obs.parts] == [p.name for p in usa.parts][:players] + ["turns-taken"] + [
        p.name for p in usa.parts][players:]
    assert obs.size == usa.size + 3 and enc.observation_space()["observation"].shape == (obs.size,)
    at = obs.part("turns-taken").start
    # a plugin's part is divided by its bound: it lies in [0, 1]
    assert list(obs.scale[at:at + 3]) == [500] * 3 and list(obs.high[at:at + 3]) == [1] * 3
    assert "turns taken, per relative seat" in enc.describe()


def test_hook_ttr_observation_values(tmp_path):
    with manager.local_plugins({"turns-taken": TurnsTaken}):
        ruleset = variant.load(_turns_taken_variant(tmp_path))
        enc = ttr_env.Encoding(ruleset, 3)
        at = enc.observations.part("turns-taken").start
        game = Game(ruleset, names(3), 4)
        rng = random.Random(2)
        while game.state.turn < 7:
            seat = game.to_act()[0]
            game.apply(seat, rng.choice(list(game.legal_actions(seat))))
        taken = game.state.ext["turns-taken"].taken
        assert sum(taken.values()) == 7 and len(set(taken.values())) > 1  # the seats differ
        for seat in range(3):
            obs = enc.observe(game, seat)[0]["observation"]
            # the plugin's state, as the seat sees it, seats relative to it
            assert list(obs[at:at + 3] * 500) == pytest.approx([taken.get((seat + k) % 3, 0) for k in range(3)])
            assert enc.observation_space()["observation"].contains(obs)


def test_an_observation_part_must_follow_a_segment_of_the_observation(tmp_path):
    class Lost(TurnsTaken):
        @hookimpl
        def ttr_observation_parts(self, game):
            return [ObservationPart("turns-taken", 2, high=1, doc="x", after="nowhere")]

    path = tmp_path / "usa-lost.toml"
    path.write_text('id = "usa-lost"\ntitle = "t"\nextends = "usa"\n[versions.1]\nadd_plugins = ["lost"]\n')
    with manager.local_plugins({"lost": Lost}):
        with pytest.raises(ValueError, match=r"turns-taken follow no segment"):
            ttr_env.Encoding(variant.load(str(path)), 2)


# --- Gymnasium ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant_id", "opponents"), [("usa", ["random"]), ("ussr", ["ticket", "random"])])
def test_gymnasium_env_checker(variant_id, opponents):
    env = gymnasium.make(ttr_env.GYM_ID, variant=variant_id, opponents=opponents, seat=None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def test_gymnasium_make_ignores_a_render_mode_it_lacks_and_the_mask_is_reachable_through_its_wrappers():
    # Stable-Baselines3's make_vec_env asks every environment for render_mode="rgb_array"
    with pytest.warns(UserWarning, match="rgb_array"):
        env = gymnasium.make(ttr_env.GYM_ID, variant="usa", opponents=["random"], render_mode="rgb_array")
    obs, info = env.reset(seed=3)
    assert env.unwrapped.render_mode is None and env.render() is None
    with pytest.raises(AttributeError):
        env.action_masks  # noqa: B018 - Gymnasium's wrappers do not forward attributes
    masks = env.get_wrapper_attr("action_masks")()
    assert masks.dtype == bool and masks.any()
    assert np.array_equal(masks, obs["action_mask"].astype(bool))
    assert np.array_equal(info["action_mask"], masks) and np.array_equal(env.unwrapped.action_masks(), masks)
    obs, *_, info = env.step(int(np.flatnonzero(masks)[0]))
    assert np.array_equal(info["action_mask"], obs["action_mask"].astype(bool))


def test_a_vector_of_single_seat_games_as_stable_baselines3_makes_it():
    vec = gymnasium.make_vec(ttr_env.GYM_ID, num_envs=2, vectorization_mode="sync",
                             vector_kwargs={}, variant="usa", opponents=["random"])
    obs, infos = vec.reset(seed=1)
    assert obs["action_mask"].shape == (2, 1075) and infos["action_mask"].shape == (2, 1075)
    for _ in range(20):
        masks = np.stack(vec.call("action_masks"))
        assert np.array_equal(masks, obs["action_mask"].astype(bool))
        obs, *_ = vec.step(np.array([np.flatnonzero(m)[0] for m in masks]))
    vec.close()


def test_stable_baselines3_make_vec_env():
    pytest.importorskip("stable_baselines3", reason="Stable-Baselines3 is not installed (the rl extra has it)")
    from stable_baselines3.common.env_util import make_vec_env

    vec = make_vec_env(ttr_env.GYM_ID, n_envs=2, env_kwargs={"variant": "usa", "opponents": ["random"]})
    obs = vec.reset()
    masks = np.stack(vec.env_method("action_masks"))
    assert np.array_equal(masks, obs["action_mask"].astype(bool)) and masks.any(axis=1).all()
    vec.close()


def test_a_learner_plays_one_seat_against_bots_to_the_end():
    env = ttr_env.SingleSeatEnv("europe", ["ticket", "random"], seat=None, reward="win-loss")
    seats = set()
    for seed in (1, 2, 3):
        obs, info = env.reset(seed=seed)
        seats.add(info["seat"])
        rng = np.random.default_rng(seed)
        terminated = truncated = False
        while not (terminated or truncated):
            assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            assert env.game.over or env.game.to_act()[0] == env.seat  # the bots have played
        assert terminated and reward == (1.0 if info["won"] else -1.0)
        assert info["score"] == env.game.result.scores[env.seat].total
    assert len(seats) > 1  # seat=None draws the learner's seat


def test_single_seat_options():
    env = ttr_env.SingleSeatEnv("usa", "random", max_steps=3, illegal_action="penalty")
    obs, _ = env.reset(seed=9)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    log = len(env.game.log)
    _, reward, terminated, truncated, info = env.step(illegal)
    mask = info.pop("action_mask")
    assert (reward, terminated, truncated, info) == (-1.0, False, False, {"illegal_action": illegal})
    assert np.array_equal(mask, obs["action_mask"].astype(bool))
    assert len(env.game.log) == log
    for _ in range(3):
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert truncated and not terminated and info.pop("action_mask").any() and info == {"truncated_after": 3}
    with pytest.raises(Exception, match="unknown bot 'randy'"):
        ttr_env.SingleSeatEnv("usa", ["randy"])
    with pytest.raises(ValueError, match="takes 2 to 5 players: give 1 to 4 opponents, not 5"):
        ttr_env.SingleSeatEnv("usa", ["random"] * 5)


# --- packaging -------------------------------------------------------------------------------------


def test_the_engine_and_the_other_applications_load_without_the_env_extra():
    code = (
        "import sys, ttr_core.game, ttr_core.variant, ttr_bots, ttr_kit.testing, ttr_cli.main\n"
        "print(sorted({'numpy', 'gymnasium', 'pettingzoo', 'ttr_env'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_bots_page_section_runs_and_states_the_action_space_sizes():
    """docs/bots.md, "A standard environment": its example runs and it states every size."""
    from usa_kit import ROOT

    page = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    section = page.split("## A standard environment (PettingZoo, Gymnasium)")[1].split("\n## ")[0]
    code = section.split("```python\n")[1].split("```")[0]
    exec(compile(code, "docs/bots.md", "exec"), {})
    for variant_id, size in ACTION_SPACE.items():
        assert f"`{variant_id}`" in section and str(size) in section
