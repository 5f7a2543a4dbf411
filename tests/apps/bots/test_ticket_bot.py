"""The ticket-seeking bot: it plays by what its seat may know, it plays for its tickets (keeping,
planning, drawing, claiming, tunnels, stations), and it beats the random bot.

The 500-game strength measurement per variant is ``bench/bot_strength.py``; here a few games.
"""

from __future__ import annotations

import copy
import random

import pytest

import ttr_bots as bots
from ttr_core import record, variant
from ttr_kit import testing
from ttr_plugins.claiming import ClaimRoute
from ttr_plugins.tickets import KeepTickets
from ttr_bots.ticket import TicketBot
from ttr_core.game import Game
from ttr_plugins.tickets import ChooseTickets


def _board_ticket(game: Game, ticket_id: str) -> int:
    return game.board.find_ticket(ticket_id).index


# --- what the bot may know ----------------------------------------------------------------------


def _shuffle_secrets(game: Game, seat: int, rng: random.Random) -> bool:
    """Reshuffle everything ``seat`` may not know, keeping everything it may: other players' hands
    are redealt from their cards and the deck (same sizes), their tickets from theirs and the ticket
    deck (same counts), the deck order and the game's generator change. True if a hand changed."""
    st = game.state
    others = [p for i, p in enumerate(st.players) if i != seat]
    pool = list(st.deck)
    sizes = []
    for p in others:
        pool += [c for c, n in enumerate(p.hand) for _ in range(n)]
        sizes.append(sum(p.hand))
    before = [list(p.hand) for p in others]
    rng.shuffle(pool)
    for p, n in zip(others, sizes):
        p.hand[:] = [0] * len(p.hand)
        for c in pool[:n]:
            p.hand[c] += 1
        pool = pool[n:]
    st.deck[:] = pool
    tickets = list(st.ticket_deck)
    counts = []
    for p in others:
        tickets += p.tickets
        counts.append(len(p.tickets))
    rng.shuffle(tickets)
    for p, n in zip(others, counts):
        p.tickets[:] = tickets[:n]
        tickets = tickets[n:]
    st.ticket_deck[:] = tickets
    game.rng.seed(rng.random())
    return before != [list(p.hand) for p in others]


def _choices_under_shuffled_secrets(variant_id: str, seed: int, bot_class=TicketBot) -> tuple[int, int]:
    """Play a 4-player game (the bot in seat 0, ticket bots elsewhere). Before each of seat 0's
    choices, a copy of the bot chooses in a copy of the position whose secrets were reshuffled;
    returns (choices that differed, positions where the reshuffle changed a hand)."""
    game = Game(variant.load(variant_id), ["P1", "P2", "P3", "P4"], seed)
    players = [bot_class(seed, 0)] + [TicketBot(seed, i) for i in range(1, 4)]
    rng = random.Random(seed)
    differed = changed = 0
    while not game.over:
        seat = game.to_act()[0]
        if seat == 0:
            saved_state, saved_rng = copy.deepcopy(game.state), game.rng.getstate()
            players[0].game = None
            twin = copy.deepcopy(players[0])
            changed += _shuffle_secrets(game, 0, rng)
            twin.game = players[0].game = game  # what only a cheat reads (``_PeekingBot``)
            other = twin.choose(game.seat_view(0))
            game.state, _ = saved_state, game.rng.setstate(saved_rng)
            action = players[0].choose(game.seat_view(0))
            differed += other != action
        else:
            action = players[seat].choose(game.seat_view(seat))
        game.apply(seat, action)
    return differed, changed


@pytest.mark.parametrize("variant_id", ["usa", "wor-europe", "europe"])
def test_choices_do_not_change_when_other_hands_tickets_and_the_deck_are_shuffled(variant_id):
    differed, changed = _choices_under_shuffled_secrets(variant_id, seed=3)
    assert changed > 20  # the reshuffles did change other hands, many times over
    assert differed == 0


class _PeekingBot(TicketBot):
    """A bot that cheats: handed the game besides its view, it draws blind whenever the next
    player holds a locomotive."""

    game = None

    def choose(self, view):
        action = super().choose(view)
        game, seat = self.game, view.seat
        peek = game.state.players[(seat + 1) % len(game.state.players)].hand[game.cards.locomotive]
        legal = view.legal_actions()
        if peek and action.kind == "draw-card" and legal:
            return legal[0]
        return action


def test_the_shuffle_check_catches_a_bot_that_peeks():
    # the check above can fail: a bot reading another hand is caught by it
    differed, _ = _choices_under_shuffled_secrets("usa", seed=3, bot_class=_PeekingBot)
    assert differed > 0


def test_code_written_against_the_old_module_gets_the_same_bot():
    from ttr_bots import ticket_bot

    assert ticket_bot.TicketBot is TicketBot is bots.bot_class("ticket")


def test_the_bot_has_its_own_generator_and_games_are_reproducible():
    rs = variant.load("wor")
    first = record.dumps(record.make_record(bots.play_game(rs, 3, 11, ("ticket",))))
    again = record.dumps(record.make_record(bots.play_game(rs, 3, 11, ("ticket",))))
    assert first == again
    bot = TicketBot(11, 2)
    assert bot.rng.random() == random.Random("ticket-bot:11:2").random()


# --- what it does ------------------------------------------------------------------------------------


def test_keeps_the_tickets_it_can_finish_and_rejects_one_cut_off():
    game = testing.new_game("usa", 4, seed=2)
    # Vancouver is cut off: every route into it belongs to someone else
    for seat, route in ((1, "Seattle-Vancouver/1"), (2, "Seattle-Vancouver/2"), (3, "Calgary-Vancouver")):
        testing.give_route(game, seat, route)
    offered = tuple(_board_ticket(game, t) for t in ("Denver-El Paso", "Vancouver-Santa Fe", "Kansas City-Houston"))
    game.state.players[0].decision = ChooseTickets(offered=offered, purpose="start")
    action = TicketBot(2, 0).choose(game.seat_view(0))
    assert action == KeepTickets(("Denver-El Paso", "Kansas City-Houston"))


def test_claims_a_planned_route_it_can_pay():
    game = testing.keep_all_starting_tickets(testing.new_game("usa", 2, seed=4))
    testing.set_tickets(game, 0, ["Denver-El Paso"])
    testing.set_hand(game, 0, {"red": 1, "blue": 2})
    # the shortest way: Denver-Santa Fe and El Paso-Santa Fe, both grey and 2 long: two blue pay one
    action = TicketBot(4, 0).choose(game.seat_view(0))
    assert action == ClaimRoute("Denver-Santa Fe", "blue", 0, 0)


def test_draws_the_colour_its_plan_needs_from_the_open_row():
    game = testing.keep_all_starting_tickets(testing.new_game("usa", 2, seed=4))
    testing.set_tickets(game, 0, ["Denver-Pittsburgh"])
    for route in ("Denver-Omaha", "Chicago-Omaha"):
        testing.give_route(game, 0, route)
    # what is missing is Chicago-Pittsburgh (3, black or orange); the hand leans to black
    testing.set_hand(game, 0, {"black": 1})
    testing.set_open_row(game, ["white", "yellow", "white", "black", "yellow"])
    bot = TicketBot(4, 0)
    first = bot.choose(game.seat_view(0))
    assert first.kind == "draw-card" and first.slot == 3
    game.apply(0, first)
    # the second card: no black in sight any more (the row refilled from the deck, whatever came),
    # so black again if it came, else blind
    row = game.view(0)["open_row"]
    second = bot.choose(game.seat_view(0))
    assert second.kind == "draw-card"
    assert second.slot == (row.index("black") if "black" in row else None)


def test_with_its_tickets_done_and_trains_to_spare_it_draws_tickets():
    game = testing.keep_all_starting_tickets(testing.new_game("usa", 2, seed=4))
    testing.set_tickets(game, 0, ["Denver-El Paso"])
    testing.give_route(game, 0, "Denver-Santa Fe")
    testing.give_route(game, 0, "El Paso-Santa Fe")
    assert TicketBot(4, 0).choose(game.seat_view(0)).kind == "draw-tickets"


def _tunnel_attempt(hand: dict[str, int]) -> Game:
    """wor-europe, seat 0 attempting the tunnel Angora-Smyrna (orange, 3) with 3 orange; the deck
    reveals orange, blue, black: one extra orange card or locomotive is asked for (R-TUN-2)."""
    game = testing.keep_all_starting_tickets(testing.new_game("wor-europe", 2, seed=1))
    testing.set_hand(game, 0, hand)
    testing.stack_deck(game, ["orange", "blue", "black"])
    game.apply(0, ClaimRoute("Angora-Smyrna", "orange", 0, 0))
    assert game.state.players[0].decision is not None
    return game


def test_pays_a_tunnel_extra_when_it_can_with_the_fewest_locomotives():
    game = _tunnel_attempt({"orange": 4, "locomotive": 1})
    action = TicketBot(1, 0).choose(game.seat_view(0))
    assert action.kind == "pay-tunnel" and action.locomotives == 0 and action.color == "orange"


def test_declines_a_tunnel_it_cannot_pay():
    game = _tunnel_attempt({"orange": 3, "blue": 2})
    assert TicketBot(1, 0).choose(game.seat_view(0)).kind == "decline-tunnel"


def test_builds_a_station_that_saves_a_ticket():
    game = testing.keep_all_starting_tickets(testing.new_game("europe", 4, seed=1))
    # Edinburgh's only routes (both to London) belong to others: Edinburgh-Paris needs a station
    testing.give_route(game, 1, "Edinburgh-London/black")
    testing.give_route(game, 2, "Edinburgh-London/orange")
    testing.give_route(game, 0, "Dieppe-London/1")
    testing.give_route(game, 0, "Dieppe-Paris")
    testing.set_tickets(game, 0, ["Edinburgh-Paris"])
    testing.set_hand(game, 0, {"red": 1})
    action = TicketBot(1, 0).choose(game.seat_view(0))
    assert action.kind == "build-station" and action.city in ("Edinburgh", "London")
    game.apply(0, action)
    result = testing.score_now(game)
    assert testing.breakdown(game, 0)["completed"] == ["Edinburgh-Paris"], result


def _one_route_short_of_denver_pittsburgh(hand: dict[str, int], others_trains: int) -> Game:
    """usa, 2 players: seat 0 holds Denver-Pittsburgh with Chicago-Omaha and Chicago-Pittsburgh
    its own, so the shortest way left is Denver-Omaha (purple, 4); seat 1 has ``others_trains``
    trains left (R-END-1: the end is that near)."""
    game = testing.keep_all_starting_tickets(testing.new_game("usa", 2, seed=4))
    testing.set_tickets(game, 0, ["Denver-Pittsburgh"])
    for route in ("Chicago-Omaha", "Chicago-Pittsburgh/black"):
        testing.give_route(game, 0, route)
    testing.set_hand(game, 0, hand)
    testing.set_trains(game, 1, others_trains)
    return game


def test_far_from_the_end_it_waits_for_the_colour_of_the_shortest_way():
    game = _one_route_short_of_denver_pittsburgh({"black": 5}, others_trains=40)
    assert TicketBot(4, 0).choose(game.seat_view(0)).kind == "draw-card"


def test_near_the_end_it_takes_a_detour_its_hand_can_pay_instead_of_waiting_for_a_colour():
    # no purple for Denver-Omaha; five black pay Denver-Kansas City (black, 4) and Kansas City-Omaha (grey, 1)
    game = _one_route_short_of_denver_pittsburgh({"black": 5}, others_trains=10)
    action = TicketBot(4, 0).choose(game.seat_view(0))
    assert action == ClaimRoute("Denver-Kansas City/black", "black", 0, 0)
    game.apply(0, action)
    testing.set_turn(game, 0)
    game.apply(0, TicketBot(4, 0).choose(game.seat_view(0)))
    testing.score_now(game)
    assert testing.breakdown(game, 0)["completed"] == ["Denver-Pittsburgh"]


def test_near_the_end_it_spends_cards_its_plan_does_not_need_on_a_long_route():
    # the plan still lacks two purple for Denver-Omaha; the six yellow pay a 6-long route
    # (Helena-Seattle is yellow, Sault St. Marie-Winnipeg grey)
    hand = {"purple": 2, "yellow": 6}
    early = _one_route_short_of_denver_pittsburgh(hand, others_trains=20)
    assert TicketBot(4, 0).choose(early.seat_view(0)).kind == "draw-card"
    late = _one_route_short_of_denver_pittsburgh(hand, others_trains=8)
    action = TicketBot(4, 0).choose(late.seat_view(0))
    assert action.kind == "claim-route" and (action.color, action.locomotives) == ("yellow", 0)
    assert action.route in ("Helena-Seattle", "Sault St. Marie-Winnipeg")
    late.apply(0, action)
    assert late.seat_view(0).hand.get("purple") == 2  # what the plan needs is still in hand


def test_near_the_end_it_keeps_the_cards_its_plan_needs():
    # the six purple are all the plan's: two pay Denver-Omaha with the locomotives, none go to a long route
    game = _one_route_short_of_denver_pittsburgh({"purple": 2, "locomotive": 2, "yellow": 3}, others_trains=8)
    assert TicketBot(4, 0).choose(game.seat_view(0)) == ClaimRoute("Denver-Omaha", "purple", 2, 0)


# --- how well it plays --------------------------------------------------------------------------------


def test_beats_random_bots():
    rs = variant.load("usa")
    wins = 0
    for seed in range(12):
        game = bots.play_game(rs, 4, seed, ("ticket", "random", "random", "random"))
        wins += 0 in game.result.winners.seats
    assert wins >= 11


@pytest.mark.parametrize("variant_id", sorted(variant.available()))
def test_plays_every_variant_to_a_legal_end(variant_id):
    rs = variant.load(variant_id)
    players = min(max(4, rs.players.min), rs.players.max)
    game = testing.play_to_end(Game(rs, [f"P{i + 1}" for i in range(players)], 5), ("ticket",))
    assert game.over and "R-END-1" in game.state.end_reason
    # ticket bots complete more tickets than they fail, even against each other
    done = sum(len(s.tickets_completed) for s in game.result.scores)
    failed = sum(len(s.tickets_failed) for s in game.result.scores)
    assert done > failed


def test_a_plan_is_made_again_when_another_player_takes_one_of_its_routes():
    game = testing.keep_all_starting_tickets(testing.new_game("usa", 2, seed=4))
    testing.set_tickets(game, 0, ["Denver-El Paso"])
    testing.set_hand(game, 0, {"red": 1, "blue": 2})
    bot = TicketBot(4, 0)
    assert bot.choose(game.seat_view(0)) == ClaimRoute("Denver-Santa Fe", "blue", 0, 0)
    # the same bot, its plan made: seat 1 takes Denver-Santa Fe, and the hand can pay more
    testing.give_route(game, 1, "Denver-Santa Fe")
    testing.set_hand(game, 0, {"red": 1, "blue": 2, "locomotive": 3})
    action = bot.choose(game.seat_view(0))
    # the shortest way left is through Phoenix (5 + 3 trains; through Oklahoma City it is 9)
    assert action.kind == "claim-route" and action.route in ("Denver-Phoenix", "El Paso-Phoenix")


# --- how it finds its way: the route graph ------------------------------------------------------------


def _graph_pair(board, rng: random.Random):
    """The same graph twice, edges added in the same order: as the bot's planner holds it and as a
    networkx graph (weights: a route's length, or 0 as for the seat's own routes)."""
    import networkx as nx

    from ttr_bots.route_graph import RouteGraph

    ours, theirs = RouteGraph(len(board.cities)), nx.Graph()
    theirs.add_nodes_from(range(len(board.cities)))
    for r in board.routes:
        if rng.random() < 0.3:  # taken by someone else: not an edge
            continue
        w = 0 if rng.random() < 0.1 else r.length
        ours.set_edge(r.ai, r.bi, w)
        theirs.add_edge(r.ai, r.bi, weight=w)
    return ours, theirs


def _same_paths(ours, theirs, rng: random.Random, searches: int) -> int:
    """Compare shortest paths between random cities, some edges chosen already (costing nothing)."""
    import networkx as nx

    from ttr_bots.route_graph import pair, shortest_path

    n = len(ours.adj)
    chosen = {pair(u, v) for u, v in theirs.edges if rng.random() < 0.15}
    zero = [set() for _ in range(n)]
    for u, v in chosen:
        zero[u].add(v)
        zero[v].add(u)
    compared = 0
    for _ in range(searches):
        a, b = rng.randrange(n), rng.randrange(n)
        try:
            expected = nx.bidirectional_dijkstra(
                theirs, a, b, weight=lambda u, v, d: 0 if pair(u, v) in chosen else d["weight"])
        except nx.NetworkXNoPath:
            expected = None
        found = shortest_path(ours, zero, a, b)
        assert (found if found is None else (found[0], found[1])) == expected, (a, b)
        compared += expected is not None
    return compared


@pytest.mark.parametrize("variant_id", ["usa", "europe", "ussr"])
def test_the_planner_finds_the_paths_networkx_finds_ties_included(variant_id):
    # equally short paths are many on these maps: the planner must pick networkx's, so that the
    # bot's seeded games do not change with the search
    board = variant.load(variant_id).board
    rng = random.Random(variant_id)
    compared = 0
    for _ in range(20):
        ours, theirs = _graph_pair(board, rng)
        compared += _same_paths(ours, theirs, rng, 25)
        # a copy lists neighbours in another order; edges added to it go last
        ours, theirs = ours.copy(), theirs.copy()
        for r in board.routes:
            if not theirs.has_edge(r.ai, r.bi) and rng.random() < 0.5:
                ours.set_edge(r.ai, r.bi, 3)
                theirs.add_edge(r.ai, r.bi, weight=3)
        compared += _same_paths(ours, theirs, rng, 25)
    assert compared > 500  # most searches found a path: the comparison compared paths


def _mid_game_plan_inputs(variant_id: str):
    """The board, what the seat to act sees and its planning graph, 120 ticket-bot actions into a
    4-player game: routes taken, hands and trains spent."""
    from ttr_bots.ticket.planning import build_graph
    from ttr_bots.ticket.seen import read_view

    game = Game(variant.load(variant_id), ["P1", "P2", "P3", "P4"], 8)
    players = [TicketBot(8, i) for i in range(4)]
    for _ in range(120):
        seat = game.to_act()[0]
        game.apply(seat, players[seat].choose(game.seat_view(seat)))
    board = game.board
    seen = read_view(game.seat_view(game.to_act()[0]))
    return board, seen, build_graph(board, seen, set())


def test_plans_sharing_searches_are_the_plans_made_alone():
    from ttr_bots.ticket.planning import plan_tickets

    board, seen, graph = _mid_game_plan_inputs("usa")
    rng = random.Random(8)
    searches: dict = {}
    for _ in range(30):
        tickets = rng.sample(range(len(board.tickets)), rng.randint(1, 6))
        budget = rng.choice([10, 20, seen.trains])
        assert plan_tickets(board, graph, seen, tickets, budget, searches) == plan_tickets(board, graph, seen, tickets, budget)
    assert searches  # the shared searches were used


@pytest.mark.parametrize("variant_id", ["usa", "europe"])
def test_a_plan_given_up_below_a_score_would_have_scored_below_it(variant_id):
    from ttr_bots.ticket.planning import plan_tickets

    board, seen, graph = _mid_game_plan_inputs(variant_id)
    rng = random.Random(8)
    given_up = 0
    for _ in range(40):
        tickets = rng.sample(range(len(board.tickets)), rng.randint(1, 6))
        budget = rng.choice([10, 20, seen.trains])
        plan = plan_tickets(board, graph, seen, tickets, budget)
        pts = board.tickets
        score = (sum(pts[t].points for t in (*plan.done, *plan.planned)) - sum(pts[t].points for t in plan.dropped)
                 - 0.25 * plan.cost)
        for below in (score - 5, score, score + 0.25, score + 10):
            cut = plan_tickets(board, graph, seen, tickets, budget, below=below)
            assert (score < below) if cut is None else cut == plan  # given up only when sure
            given_up += cut is None
    assert given_up


# --- what it asks the game: the legal actions of one kind ---------------------------------------------


@pytest.mark.parametrize("variant_id", ["wor-europe", "europe", "ussr"])
def test_each_kind_listed_alone_is_that_kind_of_the_legal_actions(variant_id):
    rs = variant.load(variant_id)
    game = Game(rs, ["P1", "P2", "P3", "P4"], 2)
    players = [TicketBot(2, i) for i in range(4)]
    kinds = game.registry.kinds()
    decisions = turns = 0
    while not game.over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        view = game.seat_view(seat)
        decisions += view.decision is not None
        turns += view.decision is None
        for kind in kinds:
            assert list(view.actions(kind)) == [a for a in legal if a.kind == kind], (kind, seat)
        assert list(view.legal_actions()) == legal
        game.apply(seat, players[seat].choose(game.seat_view(seat)))
    assert turns > 50 and decisions > 20


@pytest.mark.parametrize("variant_id", ["usa", "europe", "ussr"])
def test_what_the_bot_reads_is_what_the_view_shows(variant_id):
    from ttr_bots.ticket.seen import read_view

    game = Game(variant.load(variant_id), ["P1", "P2", "P3", "P4"], 6)
    players = [TicketBot(6, i) for i in range(4)]
    compared = 0
    while not game.over:
        seat = game.to_act()[0]
        shown = game.view(seat)
        seen = read_view(game.seat_view(seat))
        board = game.board
        assert {board.routes[r].id: s for r, s in seen.owner.items()} == shown["routes"]
        assert dict(seen.hand) == shown["you"]["hand"]
        assert [board.tickets[t].id for t in seen.tickets] == shown["you"]["tickets"]
        assert seen.trains == shown["players"][seat]["trains"]
        assert seen.decision == shown["players"][seat]["decision"]
        assert list(seen.open_row) == shown["open_row"]
        assert seen.tickets_left == shown["tickets_left"] and seen.final_round == shown["final_round"]
        stations = shown["rules"].get("stations")
        if stations:
            assert seen.stations_left == stations[seat]["left"] and list(seen.my_stations) == stations[seat]["cities"]
        compared += 1
        game.apply(seat, players[seat].choose(game.seat_view(seat)))
    assert compared > 100


@pytest.mark.parametrize("variant_id", ["usa", "wor"])
def test_the_tickets_kept_are_the_best_offer_planned_in_full(variant_id):
    # keeping tickets stops planning offers that cannot beat the best one found: the same choice
    # as planning every offer and taking the first of the best
    from ttr_bots.ticket.planning import opening_bound, plan_tickets, time_budget

    class Checked(TicketBot):
        kept = 0

        def keep_tickets(self, board, seen, offers):
            chosen = super().keep_tickets(board, seen, offers)
            graph = self.planner.graph(board, seen)
            budget = min(seen.trains * (1 - self.reserve), time_budget(seen))

            def value(offer):
                kept = tuple(board.ticket_index[t] for t in offer.tickets)
                plan = plan_tickets(board, graph, seen, seen.tickets + kept, budget)
                pts = board.tickets
                gain = sum(pts[t].points for t in (*plan.done, *plan.planned))
                loss = sum(pts[t].points for t in plan.dropped)
                return (gain - loss - 0.25 * plan.cost, -len(kept))

            assert chosen is max(offers, key=value)
            for offer in offers:  # the bound offers are skipped by is never below their score
                kept = tuple(board.ticket_index[t] for t in offer.tickets)
                points = sum(board.tickets[t].points for t in seen.tickets + kept)
                assert opening_bound(board, graph, seen, seen.tickets + kept, budget, points) >= value(offer)[0]
            Checked.kept += 1
            return chosen

    rs = variant.load(variant_id)
    for seed in range(3):
        game = Game(rs, ["P1", "P2", "P3", "P4"], seed)
        players = [Checked(seed, i) for i in range(4)]
        while not game.over:
            seat = game.to_act()[0]
            game.apply(seat, players[seat].choose(game.seat_view(seat)))
    assert Checked.kept > 12


class ShortRoutesWithoutLocomotives:
    """A house rule replacing the claiming rule: no locomotive pays a route of 1 or 2 spaces."""

    @staticmethod
    def plugin_class():
        from ttr_plugins.claiming import Claiming

        class Strict(Claiming):
            def legal(self, game, seat):
                return [c for c in super().legal(game, seat) if not self._short_with_locos(game, c)]

            def payment_problem(self, game, route, action):
                if route.length <= 2 and action.locomotives:
                    return f"{route.id}: no locomotives on a route of {route.length} spaces (house rule)"
                return super().payment_problem(game, route, action)

            @staticmethod
            def _short_with_locos(game, claim):
                return claim.locomotives > 0 and game.board.routes[game.board.route_index[claim.route]].length <= 2

        return Strict


def test_the_ticket_bot_plays_a_variant_whose_claims_are_paid_otherwise(tmp_path):
    """The bot takes its claims from the rules' listing: where a house rule pays for routes
    otherwise, every game ends, and no claim breaks the house rule."""
    from ttr_core import manager

    path = tmp_path / "usa-strict.toml"
    path.write_text('id = "usa-strict"\ntitle = "t"\nextends = "usa"\n[versions.1]\n'
                    'remove_plugins = ["claiming"]\nadd_plugins = ["strict-claiming"]\n', encoding="utf-8")
    with manager.local_plugins({"strict-claiming": ShortRoutesWithoutLocomotives.plugin_class()}):
        ruleset = variant.load(str(path))
        for seed in range(6):
            players = [TicketBot(seed, s) for s in range(4)]
            game = Game(ruleset, ["A", "B", "C", "D"], seed)
            while not game.over:
                seat = game.to_act()[0]
                game.apply(seat, players[seat].choose(game.seat_view(seat)))
            short = [a for _, a in game.log if a.kind == "claim-route" and a.locomotives
                     and game.board.routes[game.board.route_index[a.route]].length <= 2]
            assert short == []
