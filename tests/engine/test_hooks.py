"""One test per hook: every spec of ``ttr_core.hookspecs`` and every hook a shipped plugin declares
through ``ttr_addhooks`` has a ``test_hook_<name>`` here (as datasette's ``tests/test_plugins.py``
has one per plugin hook).

Each test enables a small house rule, a local plugin written only against ``ttr_core.plugin``, in
a variant file that extends a shipped variant (``usa``, ``europe``, ``wor``, ``ussr``), then plays
or arranges a seeded game and checks what a player would notice of the hook's answer: a score, a
refused claim, a card that cannot be taken, the final round starting early. Where it is cheap, it
also checks that the hook was called with the documented arguments.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest

from ttr_core import variant
from ttr_core.errors import CannotPay, NotLegalNow, NotYourTurn, PluginFailed, RecordError, RouteTaken, VariantError
from ttr_core.game import Game
from ttr_core.invariants import invariant_problems
from ttr_core.manager import local_plugins
from ttr_core.claims import claim_options
from ttr_core.plugin import (
    CLOSED, Action, Bonus, ClaimOptions, Decision, Highlight, Payment, Plugin, Refusal, Winners, hookimpl, hookspec,
)
from ttr_core.position import position_of, score_position
from ttr_core.scoring import highlights
from ttr_kit import testing

SEED = 1

# --- helpers --------------------------------------------------------------------------------------


def write_variant(
    tmp_path: Path, base: str = "usa", add: tuple[str, ...] | list[str] = (), remove: tuple[str, ...] | list[str] = (),
    rules: str = "", name: str = "house",
) -> Path:
    """A variant file ``name.toml`` that extends ``base``, adding and removing plugins in its version 1;
    ``rules`` is more TOML for that version (``[versions.1.rules.winner]``...)."""
    path = tmp_path / f"{name}.toml"
    path.write_text(
        f'id = "{name}"\ntitle = "House rules"\nextends = "{base}"\n\n[versions.1]\n'
        f"add_plugins = {json.dumps(list(add))}\nremove_plugins = {json.dumps(list(remove))}\n\n{rules}",
        encoding="utf-8",
    )
    return path


@contextlib.contextmanager
def house(
    tmp_path: Path, plugins: dict[str, type], base: str = "usa", remove: tuple[str, ...] | list[str] = (),
    rules: str = "", players: int = 2, setup: bool = True,
) -> Iterator[Game]:
    """A seeded game of ``base`` with the local ``plugins`` enabled (and ``remove`` disabled), past its
    setup (every starting ticket kept, seat 0 to play) unless ``setup`` is False."""
    with local_plugins(plugins):
        path = write_variant(tmp_path, base, list(plugins), remove, rules)
        game = Game(variant.load(str(path)), [f"P{i + 1}" for i in range(players)], SEED)
        if setup:
            testing.keep_all_starting_tickets(game)
        yield game


def act(game: Game, seat: int, kind: str, **fields: Any) -> None:
    """Play one action given as the data a host receives; the engine's invariants must still hold."""
    testing.act(game, seat, {"kind": kind, **fields})
    testing.assert_invariants(game)


def draw_two(game: Game, seat: int) -> None:
    """A whole turn: two cards drawn blind."""
    act(game, seat, "draw-card", slot=None)
    act(game, seat, "draw-card", slot=None)


def claim(game: Game, seat: int, route: str, color: str | None, locomotives: int = 0) -> None:
    act(game, seat, "claim-route", route=route, color=color, locomotives=locomotives)


def claim_data(route: str, color: str | None, locomotives: int = 0) -> dict[str, Any]:
    return {"kind": "claim-route", "route": route, "color": color, "locomotives": locomotives}


def hand(game: Game, seat: int) -> dict[str, int]:
    return game.view(seat)["you"]["hand"]


def cards_held(game: Game, seat: int) -> int:
    return game.view(None)["players"][seat]["cards"]


def owner(game: Game, route_id: str) -> int | None:
    return game.view(None)["routes"].get(route_id)


def breakdown(game: Game, player: int | str) -> dict[str, Any]:
    testing.score_now(game)
    return testing.breakdown(game, player)


# --- house rules shared by several tests -------------------------------------------------------------


@attrs.define
class PioneerState:
    seat: int = -1  # who claimed the game's first route


class Pioneer(Plugin):
    """House rule: whoever claims the first route of the game scores 5 more at the end. Who that was
    is history, not position: a position carries it as ``"pioneer": true``."""

    State = PioneerState
    deterministic = True

    @hookimpl
    def ttr_route_claimed(self, game, seat):
        state = self.state(game)
        if game.state.phase == "play" and state.seat < 0:  # routes placed by a position loader do not count
            state.seat = seat

    @hookimpl
    def ttr_end_bonuses(self, game):
        seat = self.state(game).seat
        return [Bonus(seat, "pioneer", 5, "claimed the first route")] if seat >= 0 else []

    @hookimpl
    def ttr_load_position(self, game, seat, entry):
        if entry.get("pioneer") is True:
            self.state(game).seat = seat
        return ["pioneer"]

    @hookimpl
    def ttr_dump_position(self, game, seat):
        return {"pioneer": True} if self.state(game).seat == seat else None

    @hookimpl
    def ttr_invariant_problems(self, game):
        seat = self.state(game).seat
        if seat >= 0 and not game.state.players[seat].routes:
            return [f"pioneer: seat {seat} is the pioneer but owns no route"]
        return None


# --- building a ruleset ------------------------------------------------------------------------------


class RouteBonusHooks:
    @hookspec
    def ttr_house_route_bonus(self, game, seat, route):
        """Return extra points for ``seat``'s ``route`` at the end of the game, or None."""


def test_hook_ttr_addhooks(tmp_path):
    managers = []

    class RouteBonuses(Plugin):
        """Declares ``ttr_house_route_bonus`` and adds up its answers as an end-of-game bonus."""

        provides = ("route-bonuses",)

        @hookimpl
        def ttr_addhooks(self, pluginmanager):
            managers.append(pluginmanager)
            pluginmanager.add_hookspecs(RouteBonusHooks)

        @hookimpl
        def ttr_end_bonuses(self, game):
            lines = []
            for seat, player in enumerate(game.state.players):
                routes = [game.board.routes[r] for r in player.routes]
                points = sum(sum(game.hook.ttr_house_route_bonus(game=game, seat=seat, route=r)) for r in routes)
                if points:
                    lines.append(Bonus(seat, "route-bonus", points))
            return lines

    class DenverBonus(Plugin):
        """House rule: 3 more points for every route into Denver."""

        requires = ("route-bonuses",)

        @hookimpl
        def ttr_house_route_bonus(self, route):
            return 3 if "Denver" in (route.a, route.b) else None

    plugins = {"route-bonuses": RouteBonuses, "denver-bonus": DenverBonus}
    with house(tmp_path, plugins) as game:
        assert managers and managers[-1] is game.pm
        testing.arrange(game, routes={0: ["Denver-Omaha", "Denver-Santa Fe"], 1: ["Chicago-Duluth"]})
        assert breakdown(game, 0)["bonuses"]["route-bonus"] == 6
        assert "route-bonus" not in breakdown(game, 1)["bonuses"]
    # the implementing plugin alone is refused, naming the plugin that declares its hook
    with local_plugins(plugins), pytest.raises(VariantError) as info:
        variant.load(str(write_variant(tmp_path, add=["denver-bonus"], name="lonely")))
    (problem,) = info.value.problems
    assert "plugin 'denver-bonus' requires 'route-bonuses'" in problem and "add 'route-bonuses'" in problem


@attrs.frozen
class Wait(Action):
    """Do nothing this turn."""

    kind: ClassVar[str] = "wait"


def test_hook_ttr_register_actions(tmp_path):
    registries = []

    class Waiting(Plugin):
        """House rule: a player may always let their turn go by."""

        @hookimpl
        def ttr_register_actions(self, registry):
            registries.append(registry)
            registry.add(Wait, self)

        def legal(self, game, seat):
            yield Wait()

        def check(self, game, seat, action):
            return None

        def apply(self, game, seat, action):
            return None

    with house(tmp_path, {"waiting": Waiting}) as game:
        assert registries == [game.registry]
        assert Wait() in game.legal_actions(0) and Wait() not in game.legal_actions(1)
        act(game, 0, "wait")
        assert game.state.current == 1 and game.state.turn == 1
        assert game.registry.to_data(game.log[-1][1]) == {"kind": "wait"}
        with pytest.raises(NotYourTurn):
            act(game, 0, "wait")


def test_hook_ttr_deck_cards(tmp_path):
    boards = []

    class MoreLocomotives(Plugin):
        """House rule: 6 more locomotives in the deck."""

        @hookimpl
        def ttr_deck_cards(self, board):
            boards.append(board.id)
            return {"locomotive": 6}

    with house(tmp_path, {"more-locomotives": MoreLocomotives}) as game:
        second = testing.keep_all_starting_tickets(Game(game.ruleset, ["A", "B"], SEED + 1))
        assert boards == ["usa"]  # asked once for the ruleset, not per game
        for g in (game, second):
            census = testing.card_census(g)
            assert census[g.cards.locomotive] == 14 + 6 and sum(census.values()) == 110 + 6
            view = g.view(None)
            in_sight = sum(p["cards"] for p in view["players"]) + sum(c is not None for c in view["open_row"])
            assert view["deck_size"] + view["discard_size"] + in_sight == 116


def test_hook_ttr_route_points(tmp_path):
    calls = []

    class DoublePoints(Plugin):
        """House rule: every route scores double."""

        @hookimpl(wrapper=True)
        def ttr_route_points(self):
            calls.append("asked")
            table = yield
            return {length: 2 * points for length, points in table.items()}

    with house(tmp_path, {"double-points": DoublePoints}) as game:
        testing.set_hand(game, 0, {"purple": 4})
        claim(game, 0, "Denver-Omaha", "purple")
        assert game.view(None)["players"][0]["route_points"] == 14  # 7 in usa
        assert breakdown(game, 0)["routes"] == 14
        Game(game.ruleset, ["A", "B"], SEED)
        assert calls == ["asked"]  # once per ruleset


def test_hook_ttr_route_score(tmp_path):
    asked = []

    class HalfFerries(Plugin):
        """House rule: a ferry scores half its points (rounded down); other routes as the variant says."""

        deterministic = True

        @hookimpl(wrapper=True)
        def ttr_route_score(self, route, table):
            asked.append(route.id)
            points = yield  # the variant's answer: by the length table
            assert points == table[route.length]
            return points // 2 if route.ferry else points

    ferry, road = "Constantinople-Sevastopol", "Berlin-Wien"  # 4 spaces, 2 locomotive marks; 3 spaces
    with house(tmp_path, {"half-ferries": HalfFerries}, base="europe") as game:
        testing.arrange(game, hands={0: {"red": 2, "locomotive": 2}, 1: {"green": 3}})
        claim(game, 0, ferry, "red", locomotives=2)
        claim(game, 1, road, "green")
        players = game.view(None)["players"]
        assert (players[0]["route_points"], players[1]["route_points"]) == (3, 4)  # 7 // 2, and 4 as ever
        assert (breakdown(game, 0)["routes"], breakdown(game, 1)["routes"]) == (3, 4)
        Game(game.ruleset, ["A", "B"], SEED)
        assert sorted(asked) == sorted(r.id for r in game.board.routes)  # once per route, per ruleset


# --- setting up a game --------------------------------------------------------------------------------


def test_hook_ttr_game_created(tmp_path):
    seen = []

    class LocomotivesLast(Plugin):
        """House rule: the locomotives go to the bottom of the shuffled deck, so none is dealt."""

        @hookimpl
        def ttr_game_created(self, game):
            st = game.state
            seen.append((len(st.deck), sum(sum(p.hand) for p in st.players)))
            st.deck.sort(key=lambda card: card != game.cards.locomotive)  # stable: the rest keep their order

    plain = testing.new_game("usa", 2, SEED)
    loco = plain.cards.locomotive
    assert any(p.hand[loco] for p in plain.state.players) or loco in plain.state.open_row  # what the seed deals
    with house(tmp_path, {"locomotives-last": LocomotivesLast}) as game:
        assert seen == [(110, 0)]  # the deck built and shuffled, nothing dealt yet
        assert all(p.hand[loco] == 0 for p in game.state.players)
        assert "locomotive" not in game.view(None)["open_row"]


def test_hook_ttr_setup_table(tmp_path):
    seen = []

    class StartingLocomotive(Plugin):
        """House rule: every player starts with a locomotive besides the 4 dealt cards."""

        @hookimpl
        def ttr_setup_table(self, game):
            st = game.state
            seen.append(([sum(p.hand) for p in st.players], list(st.open_row)))
            for player in st.players:
                st.deck.remove(game.cards.locomotive)
                player.hand[game.cards.locomotive] += 1

    with house(tmp_path, {"starting-locomotive": StartingLocomotive}, setup=False) as game:
        assert seen == [([4, 4], [-1] * 5)]  # after the hands are dealt (tryfirst), before the row (trylast)
        for seat in (0, 1):
            assert sum(hand(game, seat).values()) == 5 and hand(game, seat)["locomotive"] >= 1
        testing.assert_invariants(game)


# --- the turn -----------------------------------------------------------------------------------------


def test_hook_ttr_first_seat(tmp_path):
    asked = []

    class YoungestStarts(Plugin):
        """House rule: the youngest player starts; the host seats them last."""

        deterministic = True

        @hookimpl(wrapper=True)
        def ttr_first_seat(self, game):
            asked.append(game.state.phase)
            yield  # the variant's answer (the first seat), replaced
            return game.active_seats()[-1]

    with house(tmp_path, {"youngest-starts": YoungestStarts}, players=3) as game:
        assert game.to_act() == [2] and game.view(None)["current"] == 2
        testing.expect_illegal(game, 0, {"kind": "draw-card", "slot": None}, NotYourTurn)
        draw_two(game, 2)
        assert game.to_act() == [0]  # then round the table in seat order (R-TURN-1)
        draw_two(game, 0)
        assert game.to_act() == [1]
        assert asked == ["play"]  # once per game, as the first turn starts


def test_hook_ttr_turn_started(tmp_path):
    calls = []

    class CardPerTurn(Plugin):
        """House rule: a player draws one card blind as each of their turns begins."""

        @hookimpl
        def ttr_turn_started(self, game, seat):
            calls.append((seat, game.state.current))
            game.state.players[seat].hand[game.draw_card()] += 1

    with house(tmp_path, {"card-per-turn": CardPerTurn}) as game:
        assert calls == [(0, 0)]  # the first turn, once the starting tickets are chosen
        assert (cards_held(game, 0), cards_held(game, 1)) == (5, 4)
        draw_two(game, 0)
        assert calls == [(0, 0), (1, 1)]
        assert (cards_held(game, 0), cards_held(game, 1)) == (7, 5)


def test_hook_ttr_turn_ended(tmp_path):
    calls = []

    class ThreeTurns(Plugin):
        """House rule: a quick game, over after three turns."""

        @hookimpl
        def ttr_turn_ended(self, game, seat, action):
            calls.append((seat, action.kind, game.state.turn))
            if game.state.turn == 3:
                game.finish("three turns played (house rule)")

    with house(tmp_path, {"three-turns": ThreeTurns}) as game:
        draw_two(game, 0)
        act(game, 1, "draw-tickets")
        act(game, 1, "keep-tickets", tickets=game.view(1)["rules"]["tickets_on_offer"])
        assert not game.over
        draw_two(game, 0)
        assert game.over and game.result.reason == "three turns played (house rule)"
        # once per turn, with the turn's last action
        assert calls == [(0, "draw-card", 1), (1, "keep-tickets", 2), (0, "draw-card", 3)]


@attrs.define
class WalkOuts:
    seats: list[int] = attrs.Factory(list)


def test_hook_ttr_decision_cancelled(tmp_path):
    calls = []

    class WalkOutPenalty(Plugin):
        """House rule: leaving the game in the middle of a decision costs 5 points."""

        State = WalkOuts

        @hookimpl
        def ttr_decision_cancelled(self, game, seat, decision):
            calls.append((seat, decision.kind, game.state.players[seat].decision is decision))
            self.state(game).seats.append(seat)

        @hookimpl
        def ttr_end_bonuses(self, game):
            return [Bonus(seat, "walked-out", -5) for seat in self.state(game).seats]

    with house(tmp_path, {"walk-out": WalkOutPenalty}, base="wor") as game:
        act(game, 0, "draw-tickets")
        act(game, 0, "resign")  # while choosing tickets (R-TURN-4)
        assert calls == [(0, "choose-tickets", True)]  # before the decision is dropped
        assert game.over  # one player is left (R-TURN-3)
        assert breakdown(game, 0)["bonuses"]["walked-out"] == -5
        assert "walked-out" not in breakdown(game, 1)["bonuses"]


def test_hook_ttr_final_round_triggered(tmp_path):
    calls = []

    class ShortGame(Plugin):
        """House rule replacing R-END-1's trains: the final round begins after the third turn."""

        @hookimpl
        def ttr_final_round_triggered(self, game, seat):
            calls.append(seat)
            return game.state.turn >= 3

    with house(tmp_path, {"short-game": ShortGame}, remove=["final-round"]) as game:
        draw_two(game, 0)
        draw_two(game, 1)
        assert not game.view(None)["final_round"]
        draw_two(game, 0)  # the third turn: everyone plays once more, seat 0 included
        assert game.view(None)["final_round"] and not game.over
        draw_two(game, 1)
        assert not game.over
        draw_two(game, 0)
        assert game.over and "R-END-1" in game.result.reason
        assert calls == [0, 1, 0]  # asked after every turn until the final round began


def test_hook_ttr_final_round_seats(tmp_path):
    asked = []

    class NoEncore(Plugin):
        """House rule: whoever starts the final round does not play again; everyone else plays once more."""

        deterministic = True

        @hookimpl(wrapper=True)
        def ttr_final_round_seats(self, game, seat):
            asked.append(seat)
            seats = yield
            return [s for s in seats if s != seat]

    with house(tmp_path, {"no-encore": NoEncore}, players=3) as game:
        testing.set_trains(game, 0, 2)
        draw_two(game, 0)  # seat 0 ends a turn with 2 trains: the final round begins (R-END-1)
        assert game.view(None)["final_round"] and game.to_act() == [1]
        draw_two(game, 1)
        draw_two(game, 2)
        assert game.over and "R-END-1" in game.result.reason  # seat 0 did not play again
        assert asked == [0]  # once, with the seat that started it


def _backwards(seat: int, players) -> int | None:
    """The seat before ``seat`` round the table that is still in the game."""
    n = len(players)
    return next(((seat - k) % n for k in range(1, n + 1) if not players[(seat - k) % n].resigned), None)


def test_hook_ttr_next_seat(tmp_path):
    asked = []

    class BackwardsFinale(Plugin):
        """House rule: once the final round begins, play goes the other way round the table."""

        deterministic = True

        @hookimpl(wrapper=True)
        def ttr_next_seat(self, game, seat):
            asked.append(seat)
            after = yield  # the variant's answer: the next seat (R-TURN-1)
            if game.state.final_round is None:
                return after
            return _backwards(seat, game.state.players)

    with house(tmp_path, {"backwards-finale": BackwardsFinale}, players=4) as game:
        draw_two(game, 0)
        assert game.to_act() == [1]  # before the final round: seat order
        draw_two(game, 1)
        testing.set_trains(game, 3, 2)
        played = [2]
        draw_two(game, 2)  # seat 3 has 2 trains when seat 2's turn ends: the final round begins
        assert game.view(None)["final_round"]
        while not game.over:
            (seat,) = game.to_act()
            played.append(seat)
            draw_two(game, seat)
        assert played == [2, 1, 0, 3, 2]  # then the other way, each once more, seat 2 last (R-END-1)
        assert asked == [0, 1, 2, 1, 0, 3]  # after every turn that did not end the game


def test_a_turn_order_answering_no_seat_in_the_game_is_reported(tmp_path):
    class Lost(Plugin):
        """A broken house rule: the turn passes to a seat the table does not have."""

        @hookimpl(wrapper=True)
        def ttr_next_seat(self, game):
            yield
            return 7

    with house(tmp_path, {"lost": Lost}) as game:
        act(game, 0, "draw-card", slot=None)
        before = testing.state_text(game)
        with pytest.raises(PluginFailed, match=r"ttr_next_seat \(answered by 'turn-order', 'lost'\) gave 7"):
            act(game, 0, "draw-card", slot=None)
        assert testing.state_text(game) == before  # the turn that would have passed to it is undone


def test_hook_ttr_view(tmp_path):
    calls = []

    class Coach(Plugin):
        """House rule: each player is told privately how many cards they hold."""

        @hookimpl
        def ttr_view(self, game, seat):
            calls.append(seat)
            if seat is None:
                return None
            return {"coach": f"seat {seat}: {sum(game.state.players[seat].hand)} cards in hand"}

    with house(tmp_path, {"coach": Coach}) as game:
        testing.arrange(game, hands={0: {"blue": 3}, 1: {"red": 2}})
        assert game.view(0)["rules"]["coach"] == "seat 0: 3 cards in hand"
        assert game.view(1)["rules"]["coach"] == "seat 1: 2 cards in hand"
        assert "coach" not in game.view(None)["rules"]
        assert calls[-3:] == [0, 1, None]


# --- the table ----------------------------------------------------------------------------------------


@attrs.define
class Reshuffles:
    caused: dict[int, int] = attrs.Factory(dict)  # seat -> reshuffles its draws needed


def test_hook_ttr_deck_ran_out(tmp_path):
    seen = []

    class ReshuffleFee(Plugin):
        """House rule: each reshuffle of the discard pile costs the player whose draw needed it 2 points."""

        State = Reshuffles
        deterministic = True

        @hookimpl(tryfirst=True)  # before the train-cards plugin shuffles the discard in
        def ttr_deck_ran_out(self, game):
            st = game.state
            seen.append((len(st.deck), len(st.discard)))
            if st.discard:
                caused = self.state(game).caused
                caused[st.current] = caused.get(st.current, 0) + 1

        @hookimpl
        def ttr_end_bonuses(self, game):
            return [Bonus(seat, "reshuffle-fee", -2 * n) for seat, n in self.state(game).caused.items()]

    with house(tmp_path, {"reshuffle-fee": ReshuffleFee}) as game:
        st = game.state
        st.discard.extend(st.deck[:-1])  # one card left in the deck, the rest played out
        del st.deck[:-1]
        draw_two(game, 0)  # the second card comes from the reshuffled discard (R-DRAW-3)
        view = game.view(None)
        assert (view["deck_size"], view["discard_size"]) == (len(st.discard + st.deck), 0)
        assert seen == [(0, view["deck_size"] + 1)]  # asked once, the deck empty and the discard full
        assert breakdown(game, 0)["bonuses"]["reshuffle-fee"] == -2
        assert "reshuffle-fee" not in breakdown(game, 1)["bonuses"]


def test_hook_ttr_closed_routes(tmp_path):
    calls = []

    class Desert(Plugin):
        """House rule: no claims in the desert; the mountains close with a code of their own."""

        @hookimpl
        def ttr_closed_routes(self, game, seat):
            calls.append(seat)
            desert = [r for r in game.board.routes if "Phoenix" in (r.a, r.b)]
            closed = {r.index: "no claims in the desert (house rule)" for r in desert}
            closed[game.board.find_route("Denver-Salt Lake City/red").index] = Refusal("snow", "snowed in (house rule)")
            return closed

    with house(tmp_path, {"desert": Desert}) as game:
        testing.set_hand(game, 0, {"white": 5, "red": 3})
        claimable = {a.route for a in game.legal_actions(0) if a.kind == "claim-route"}
        assert "Denver-Santa Fe" in claimable
        assert not {"Denver-Phoenix", "Phoenix-Santa Fe", "El Paso-Phoenix", "Denver-Salt Lake City/red"} & claimable
        error = testing.expect_illegal(game, 0, claim_data("Denver-Phoenix", "white"), RouteTaken)
        assert error.reason == "no claims in the desert (house rule)"
        assert game.claim_problem(0, game.board.find_route("Denver-Phoenix")).code == CLOSED  # a reason only
        snow = game.claim_problem(0, game.board.find_route("Denver-Salt Lake City/red"))
        assert (snow.code, snow.reason) == ("snow", "snowed in (house rule)")
        error = testing.expect_illegal(game, 0, claim_data("Denver-Salt Lake City/red", "red"), RouteTaken)
        assert error.reason == "snowed in (house rule)"
        assert set(calls) == {0}
        claim(game, 0, "Denver-Santa Fe", "white")  # outside the desert, claims go on
        assert owner(game, "Denver-Santa Fe") == 0


def test_the_parallel_route_codes_belong_to_their_plugin_and_the_old_names_warn():
    game = testing.keep_all_starting_tickets(testing.new_game("usa", players=2))
    testing.give_route(game, 0, "Denver-Kansas City/black")
    closed = game.closures(1)[game.board.route_index["Denver-Kansas City/orange"]]
    assert closed.code == "closed-parallel" and "(R-PAR-2)" in closed.reason  # parallel-routes' own code
    with pytest.warns(DeprecationWarning, match="parallel-routes plugin's own"):
        from ttr_core.plugin import CLOSED_PARALLEL
    assert CLOSED_PARALLEL == closed.code


@attrs.frozen
class Grab(Action):
    kind: ClassVar[str] = "grab-route"
    route: str = ""


def test_hook_ttr_claim_options(tmp_path):
    calls = []

    class Grabbing(Plugin):
        """House rule: routes are taken without cards, with their trains (it replaces ``claiming``),
        and it says so to ``claim_options``."""

        @hookimpl
        def ttr_register_actions(self, registry):
            registry.add(Grab, self)

        def legal(self, game, seat):
            return [Grab(r.id) for r in game.board.routes if game.claim_problem(seat, r) is None]

        def check(self, game, seat, action):
            refusal = game.claim_problem(seat, game.board.routes[game.board.route_index[action.route]])
            if refusal is not None:
                raise RouteTaken(seat, action, refusal.reason)

        def apply(self, game, seat, action):
            game.place_route(seat, game.board.routes[game.board.route_index[action.route]])

        @hookimpl
        def ttr_claim_options(self, game, seat, route):
            calls.append((seat, route.id, game.cards.counts_by_name(game.state.players[seat].hand)))
            return ClaimOptions(route.id, (Payment(Grab(route.id), {}),))

    with house(tmp_path, {"grabbing": Grabbing}, remove=["claiming"]) as game:
        options = claim_options(game, 0, "Omaha-Denver", hand={"red": 1})
        assert options.possible and options.payments == (Payment(Grab("Denver-Omaha"), {}),)
        assert calls == [(0, "Denver-Omaha", {"red": 1})]  # asked with the hand asked about
        testing.act(game, 0, options.payments[0].action)
        assert owner(game, "Denver-Omaha") == 0
        # the core's check comes first: a taken route is refused without asking the hook
        assert claim_options(game, 1, "Denver-Omaha").refusal.code == "taken"
        assert len(calls) == 1


def test_hook_ttr_route_claimed(tmp_path):
    calls = []

    class Refund(Plugin):
        """House rule: whoever claims a route draws one card blind at once."""

        @hookimpl
        def ttr_route_claimed(self, game, seat, route):
            player = game.state.players[seat]
            calls.append((seat, route.id, game.state.owner[route.index], player.trains, player.route_points))
            player.hand[game.draw_card()] += 1

    with house(tmp_path, {"refund": Refund}) as game:
        testing.set_hand(game, 0, {"purple": 4})
        claim(game, 0, "Denver-Omaha", "purple")
        assert calls == [(0, "Denver-Omaha", 0, 41, 7)]  # placed, trains down, scored
        assert cards_held(game, 0) == 1
        assert game.state.current == 1


def test_hook_ttr_route_released(tmp_path):
    calls = []

    class Compensation(Plugin):
        """House rule: whoever loses a route to a controller draws two cards blind."""

        @hookimpl
        def ttr_route_released(self, game, seat, route):
            player = game.state.players[seat]
            calls.append((seat, route.id, game.state.owner[route.index], player.trains, player.route_points))
            for _ in range(2):
                player.hand[game.draw_card()] += 1

    with house(tmp_path, {"compensation": Compensation}, base="ussr") as game:
        testing.arrange(game, routes={1: ["Riga-Moscow"]}, hands={0: {"controller": 1}, 1: {}})
        act(game, 0, "play-controller", mode="dismantle", route="Riga-Moscow")
        assert calls == [(1, "Riga-Moscow", -1, 45, 0)]  # free again, trains and points given back
        assert owner(game, "Riga-Moscow") is None and cards_held(game, 1) == 2


# --- the end of the game ------------------------------------------------------------------------------


def test_hook_ttr_ticket_outcomes(tmp_path):
    seats = []

    class NoPenalty(Plugin):
        """House rule: an unfinished ticket costs nothing."""

        @hookimpl(wrapper=True)
        def ttr_ticket_outcomes(self, game, seat):
            seats.append(seat)
            outcome = yield
            earned = sum(game.board.tickets[t].points for t in outcome.completed)
            return attrs.evolve(outcome, points=earned)

    with house(tmp_path, {"no-penalty": NoPenalty}) as game:
        testing.arrange(
            game,
            routes={0: ["Denver-Santa Fe", "El Paso-Santa Fe"]},
            tickets={0: ["Denver-El Paso", "Boston-Miami"], 1: ["Seattle-New York"]},
        )
        mine, theirs = breakdown(game, 0), breakdown(game, 1)
        assert (mine["completed"], mine["failed"], mine["tickets"]) == (["Denver-El Paso"], ["Boston-Miami"], 4)
        assert (theirs["failed"], theirs["tickets"]) == (["Seattle-New York"], 0)
        assert seats == [0, 1]


def _no_penalty(each: bool) -> type:
    class NoPenalty(Plugin):
        """House rule: an unfinished ticket costs nothing."""

        @hookimpl(wrapper=True)
        def ttr_ticket_outcomes(self, game, seat):
            outcome = yield
            earned = lambda o: attrs.evolve(o, points=sum(game.board.tickets[t].points for t in o.completed))  # noqa: E731
            return outcome.each(earned) if each else earned(outcome)

    return NoPenalty


@pytest.mark.parametrize("each, borrowed, points, bonus", [
    (True, "Moscow-Gorky/green", 4 + 4, 15),  # the choice is made among adjusted alternatives
    (False, "Moscow-Voronezh", 9, 0),  # the answer as adjusted: no choice, never a mix
])
def test_a_ticket_outcome_wrapper_adjusts_every_alternative(tmp_path, each, borrowed, points, bonus):
    """No ticket penalty under ``ussr``, on the R-STA-4 example: P1's station in Moscow borrows
    Moscow-Voronezh (9, 1 ticket) or Moscow-Gorky (4 + 4, 2 tickets, which ties P2 for the +15). A
    wrapper that adjusts with ``outcome.each`` leaves the owner that choice (8 + 15 beats 9); one that
    adjusts only the answer is scored as it answered: the tickets plugin's preference, adjusted."""
    tickets = [{"from": "Moscow", "to": c, "points": p} for c, p in (("Voronezh", 9), ("Gorky", 4), ("Kazan", 4))]
    with local_plugins({"no-penalty": _no_penalty(each)}):
        path = write_variant(tmp_path, base="ussr", add=["no-penalty"])
        game = score_position({"variant": str(path), "players": [
            {"name": "P1", "routes": ["Gorky-Kazan"], "stations": ["Moscow"], "tickets": tickets},
            {"name": "P2", "routes": ["Moscow-Gorky/green", "Moscow-Voronezh"], "tickets": tickets[:2]},
        ]})
    me = game.result.scores[0]
    assert me.notes == (f"station in Moscow borrowed {borrowed}",)
    assert (me.ticket_points, me.bonus("most-tickets")) == (points, bonus)


def test_hook_ttr_choice_preference(tmp_path):
    """Europe, P1 with stations in Berlin and Wien and the route between them: both stations
    borrowing (Berlin-Danzig, Wien-Zagrab) complete Danzig-Zagrab (20), Berlin's alone borrowing
    Berlin-Essen completes Berlin-Essen (5); not both, Berlin's station borrows one route (R-STA-4)."""
    asked = []

    class FewestBorrows(Plugin):
        """House rule: a station owner borrows as few routes as they can, points come second."""

        deterministic = True

        @hookimpl(wrapper=True)
        def ttr_choice_preference(self, game, seat, outcome, points):
            asked.append((seat, outcome.borrowed, points))
            yield  # the stations plugin's order (R-STA-4), replaced
            return (-outcome.borrowed, points)

    tickets = [{"from": "Danzig", "to": "Zagrab", "points": 20}, {"from": "Berlin", "to": "Essen", "points": 5}]

    def scored(variant_path: str):
        return score_position({"variant": variant_path, "players": [
            {"name": "P1", "routes": ["Berlin-Wien"], "stations": ["Berlin", "Wien"], "tickets": tickets},
            {"name": "P2", "routes": ["Berlin-Danzig", "Wien-Zagrab", "Berlin-Essen"], "tickets": []},
        ]}).result.scores[0]

    published = scored("europe")
    assert (published.ticket_points, published.notes) == (
        20 - 5, ("station in Berlin borrowed Berlin-Danzig", "station in Wien borrowed Wien-Zagrab"))
    with local_plugins({"fewest-borrows": FewestBorrows}):
        mine = scored(str(write_variant(tmp_path, base="europe", add=["fewest-borrows"])))
    assert (mine.ticket_points, mine.notes) == (5 - 20, ("station in Berlin borrowed Berlin-Essen",))
    assert mine.total == published.total - 30
    # every choice weighed, with what it is worth to P1: its ticket points alone for the starting
    # choice (R-STA-6), then with the unused station's 4
    assert sorted(set(asked)) == [(0, 1, 5 - 20), (0, 1, 5 - 20 + 4), (0, 2, 20 - 5), (0, 2, 20 - 5 + 4)]


def test_hook_ttr_player_facts(tmp_path):
    seen = []

    class TrainsLeft(Plugin):
        """House rule (a report, no points): how many trains each player has left at the end."""

        @hookimpl
        def ttr_player_facts(self, game, seat, outcome):
            seen.append((seat, outcome.seat))
            return {"trains-left": game.state.players[seat].trains}

    with house(tmp_path, {"trains-left": TrainsLeft}) as game:
        testing.arrange(game, routes={0: ["Denver-Omaha"], 1: []})
        testing.score_now(game)
        p1, p2 = game.result.scores
        assert p1.facts == {"trains-left": 41, "longest-path": 4} and p2.facts == {"trains-left": 45, "longest-path": 0}
        assert (p1.total, p2.total) == (7 + 10 + testing.breakdown(game, 0)["tickets"], testing.breakdown(game, 1)["tickets"])
        assert seen == [(0, 0), (1, 1)]  # once per player, with that player's ticket outcome


def test_hook_ttr_highlights(tmp_path):
    seen = []

    class LongestRouteShown(Plugin):
        """House rule (a report, no points): a page marks each player's longest single route."""

        @hookimpl
        def ttr_highlights(self, game, seat, score):
            seen.append((seat, score.seat))
            mine = [game.board.routes[r] for r in game.state.players[seat].routes]
            if not mine:
                return None
            best = max(mine, key=lambda r: r.length)
            return [Highlight(seat, "longest-route", f"longest route: {best.length} spaces", (best.id,))]

    no_trail = '[versions.1.rules.winner]\ntie_breakers = ["tickets"]\n'
    with house(tmp_path, {"longest-route": LongestRouteShown}, remove=["longest-path"], rules=no_trail) as game:
        testing.arrange(game, routes={0: ["Denver-Omaha", "Denver-Santa Fe"], 1: []})
        assert highlights(game) == () and seen == []  # asked once the game is over, not before
        testing.score_now(game)
        assert highlights(game) == (Highlight(0, "longest-route", "longest route: 4 spaces", ("Denver-Omaha",)),)
        assert seen == [(0, 0), (1, 1)]  # once per player, with that player's score
        assert "longest-path" not in game.result.scores[0].facts  # and no trail: the variant has no such bonus

    # the built-in longest-path answers each player's trail, route by route, walking order (R-BON-1)
    game = Game(variant.load("usa"), ["P1", "P2"], SEED)
    testing.keep_all_starting_tickets(game)
    testing.arrange(game, routes={0: ["Denver-Omaha", "Denver-Santa Fe", "Kansas City-Omaha/1"], 1: []})
    testing.score_now(game)
    trail, = highlights(game)
    assert trail.shape == Highlight.TRAIL and trail.seat == 0 and trail.title == "longest trail: 7 spaces"
    assert trail.routes in (("Denver-Santa Fe", "Denver-Omaha", "Kansas City-Omaha/1"),
                            ("Kansas City-Omaha/1", "Denver-Omaha", "Denver-Santa Fe"))


def test_hook_ttr_end_bonuses(tmp_path):
    seen = []

    class Globetrotter(Plugin):
        """House rule: 10 points for the most completed tickets."""

        @hookimpl
        def ttr_end_bonuses(self, game, outcomes):
            seen.append([o.seat for o in outcomes])
            best = max(len(o.completed) for o in outcomes)
            return [Bonus(o.seat, "globetrotter", 10) for o in outcomes if best and len(o.completed) == best]

    with house(tmp_path, {"globetrotter": Globetrotter}) as game:
        testing.arrange(
            game,
            routes={0: ["Denver-Santa Fe", "El Paso-Santa Fe"], 1: ["Chicago-Duluth"]},
            tickets={0: ["Denver-El Paso"], 1: ["Boston-Miami"]},
        )
        mine = breakdown(game, 0)
        assert mine["bonuses"] == {"globetrotter": 10, "longest-path": 10}
        assert mine["total"] == 2 + 2 + 4 + 10 + 10
        assert "globetrotter" not in breakdown(game, 1)["bonuses"]
        assert seen == [[0, 1]]  # once, every seat's outcome by seat


def test_hook_ttr_choose_winners(tmp_path):
    seen = []

    class LowestWins(Plugin):
        """House rule: the lowest score wins."""

        @hookimpl
        def ttr_choose_winners(self, game, scores):
            seen.append([(s.seat, s.total) for s in scores])
            low = min(s.total for s in scores)
            return Winners(tuple(s.seat for s in scores if s.total == low), "lowest-score")

    with house(tmp_path, {"lowest-wins": LowestWins}, remove=["winner"]) as game:
        testing.arrange(game, routes={0: ["Denver-Omaha"]}, tickets={0: [], 1: []})
        assert breakdown(game, 1)["winner"] and not breakdown(game, 0)["winner"]
        assert game.result.winners == Winners((1,), "lowest-score")
        assert seen == [[(0, 7 + 10), (1, 0)]]


# --- positions and checks -----------------------------------------------------------------------------


def test_hook_ttr_load_position(tmp_path):
    loads = []

    class WatchedPioneer(Pioneer):
        @hookimpl
        def ttr_load_position(self, game, seat, entry):
            routes = [game.board.routes[r].id for r in game.state.players[seat].routes]
            loads.append((seat, entry["name"], routes))
            return super().ttr_load_position(game, seat, entry)

    with local_plugins({"pioneer": WatchedPioneer}):
        path = write_variant(tmp_path, add=["pioneer"])
        data = {
            "variant": str(path),
            "players": [
                {"name": "Ann", "routes": ["Denver-Omaha"]},
                {"name": "Bob", "routes": ["Chicago-Duluth"], "pioneer": True},
            ],
        }
        game = score_position(data)
        assert loads == [(0, "Ann", ["Denver-Omaha"]), (1, "Bob", ["Chicago-Duluth"])]  # after the routes
        assert testing.breakdown(game, "Bob")["bonuses"] == {"pioneer": 5}
        assert "pioneer" not in testing.breakdown(game, "Ann")["bonuses"]
        data["players"][0]["stations"] = ["Denver"]  # a key nobody reads in this variant
        with pytest.raises(RecordError) as info:
            score_position(data)
        assert info.value.problems == [
            "position: $.players[0].stations: unknown key (no plugin of 'house' reads it)"
        ]


def test_hook_ttr_dump_position(tmp_path):
    with house(tmp_path, {"pioneer": Pioneer}) as game:
        testing.set_hand(game, 1, {"red": 3})
        testing.set_turn(game, 1)
        claim(game, 1, "Chicago-Duluth", "red")
        testing.give_route(game, 0, "Denver-Omaha")
        testing.score_now(game)
        position = position_of(game)
        assert position["players"][1]["pioneer"] is True and "pioneer" not in position["players"][0]
        rescored = score_position(position, variant_id=game.ruleset.path)
        assert [s.bonus("pioneer") for s in rescored.result.scores] == [0, 5]
        assert rescored.result.scores == game.result.scores


def test_hook_ttr_invariant_problems(tmp_path):
    with house(tmp_path, {"pioneer": Pioneer}) as game:
        testing.give_route(game, 1, "Chicago-Duluth")
        assert game.state.ext["pioneer"].seat == 1 and invariant_problems(game) == []
        game.state.ext["pioneer"].seat = 0  # as a buggy rule would leave it: a pioneer without a route
        assert invariant_problems(game) == ["pioneer: seat 0 is the pioneer but owns no route"]
        with pytest.raises(AssertionError, match="pioneer: seat 0"):
            testing.assert_invariants(game)


# --- hooks declared by plugins: train-cards ------------------------------------------------------------


def test_hook_ttr_card_takeable(tmp_path):
    calls = []

    class NoRed(Plugin):
        """House rule: red cards are drawn blind only."""

        requires = ("card-draws",)

        @hookimpl
        def ttr_card_takeable(self, game, seat, slot, card):
            calls.append((seat, slot, game.cards.names[card]))
            return False if game.cards.names[card] == "red" else None

    with house(tmp_path, {"no-red": NoRed}) as game:
        testing.set_open_row(game, ["red", "blue", "red", "green", "yellow"])
        assert {a.slot for a in game.legal_actions(0) if a.kind == "draw-card"} == {None, 1, 3, 4}
        assert (0, 0, "red") in calls and (0, 1, "blue") in calls
        error = testing.expect_illegal(game, 0, {"kind": "draw-card", "slot": 0}, NotLegalNow)
        assert "red in slot 0 cannot be taken" in error.reason
        act(game, 0, "draw-card", slot=1)  # the other face-up cards are taken as usual
        assert hand(game, 0).get("blue", 0) >= 1


def test_hook_ttr_card_taken(tmp_path):
    calls = []

    class LuckyLocomotive(Plugin):
        """House rule: a locomotive drawn blind brings one more card from the deck."""

        requires = ("card-draws",)

        @hookimpl
        def ttr_card_taken(self, game, seat, slot, card):
            calls.append((seat, slot, game.cards.names[card]))
            if slot is None and card == game.cards.locomotive:
                game.state.players[seat].hand[game.draw_card()] += 1

    with house(tmp_path, {"lucky-locomotive": LuckyLocomotive}) as game:
        testing.arrange(
            game, hands={0: {}}, open_row=["blue", "green", "green", "white", "black"], deck_top=["locomotive", "red"]
        )
        act(game, 0, "draw-card", slot=None)
        assert hand(game, 0) == {"locomotive": 1, "red": 1}
        act(game, 0, "draw-card", slot=0)
        assert hand(game, 0) == {"locomotive": 1, "red": 1, "blue": 1}
        assert calls == [(0, None, "locomotive"), (0, 0, "blue")]
        assert game.state.current == 1  # still two draws: the extra card is the house rule's


# --- open-row -----------------------------------------------------------------------------------------


def test_hook_ttr_open_row_needs_reset(tmp_path):
    rows = []

    class ThreeOfAColour(Plugin):
        """House rule: three face-up cards of one colour reset the row too."""

        requires = ("open-row",)

        @hookimpl
        def ttr_open_row_needs_reset(self, game, row):
            rows.append([game.cards.names[c] if c >= 0 else None for c in row])
            colours = [c for c in row if 0 <= c < game.cards.locomotive]
            return True if any(colours.count(c) >= 3 for c in colours) else None

    with house(tmp_path, {"three-of-a-colour": ThreeOfAColour}) as game:
        testing.arrange(
            game,
            open_row=["red", "red", "blue", "green", "white"],
            deck_top=["red", "yellow", "white", "black", "orange", "purple"],
        )
        discarded = game.view(None)["discard_size"]
        rows.clear()
        act(game, 0, "draw-card", slot=2)  # the blue; a red refills its slot: three reds
        assert rows == [["red", "red", "red", "green", "white"], ["yellow", "white", "black", "orange", "purple"]]
        assert game.view(None)["open_row"] == ["yellow", "white", "black", "orange", "purple"]
        assert game.view(None)["discard_size"] == discarded + 5


# --- claiming -----------------------------------------------------------------------------------------


class OneLocomotiveFerry:
    """The house rule's answer to ``ttr_ferry_payment``: one locomotive pays for all of a ferry's marks."""

    def problem(self, route, locomotives, triples):
        if triples:
            return "no 3-for-1 here (house rule)"
        if locomotives < 1:
            return f"{route.id}: a ferry takes one locomotive (house rule)"
        return None

    def options(self, route, n_color, n_loco):
        locos = max(1, route.length - n_color)
        return [(locos, 0)] if locos <= n_loco else []


def test_hook_ttr_ferry_payment(tmp_path):
    calls = []

    class OneLocomotiveFerries(Plugin):
        requires = ("route-claims",)

        @hookimpl
        def ttr_ferry_payment(self):
            calls.append("asked")
            return OneLocomotiveFerry()

    ferry = "Constantinople-Sevastopol"  # 4 spaces, 2 of them locomotive marks
    with house(tmp_path, {"one-locomotive-ferries": OneLocomotiveFerries}, base="europe", remove=["ferries"]) as game:
        testing.set_hand(game, 0, {"red": 4, "locomotive": 1})
        claims = [a for a in game.legal_actions(0) if a.kind == "claim-route" and a.route == ferry]
        assert [(a.color, a.locomotives) for a in claims] == [("red", 1)]
        error = testing.expect_illegal(game, 0, claim_data(ferry, "red"), CannotPay)
        assert error.reason == f"{ferry}: a ferry takes one locomotive (house rule)"
        claim(game, 0, ferry, "red", locomotives=1)  # R-FER-1 would want 2 locomotives
        assert owner(game, ferry) == 0 and hand(game, 0) == {"red": 1}
        assert calls == ["asked"]  # once per ruleset


@attrs.frozen
class Inspection(Decision):
    """A claim waiting for the inspector's approval, its payment on the table."""

    kind: str = "inspection"
    allowed: tuple[str, ...] = ("approve-claim",)
    route: str = ""
    paid: tuple[tuple[int, int], ...] = ()

    def held_cards(self) -> list[int]:
        return [card for card, n in self.paid for _ in range(n)]


@attrs.frozen
class ApproveClaim(Action):
    kind: ClassVar[str] = "approve-claim"


def test_hook_ttr_claim_started(tmp_path):
    calls = []

    class ChicagoInspection(Plugin):
        """House rule: a claim of a route into Chicago is completed only once approved."""

        requires = ("route-claims",)

        @hookimpl
        def ttr_register_actions(self, registry):
            registry.add(ApproveClaim, self, starts_turn=False)

        @hookimpl
        def ttr_claim_started(self, game, seat, route, color, locomotives, paid):
            calls.append((seat, route.id, color, locomotives, tuple((game.cards.names[c], n) for c, n in paid)))
            return Inspection(route=route.id, paid=paid) if "Chicago" in (route.a, route.b) else None

        def legal(self, game, seat):
            yield ApproveClaim()

        def check(self, game, seat, action):
            return None

        def apply(self, game, seat, action):
            player = game.state.players[seat]
            decision, player.decision = player.decision, None
            game.place_route(seat, game.board.find_route(decision.route), decision.paid)

    with house(tmp_path, {"inspection": ChicagoInspection}) as game:
        testing.arrange(game, hands={0: {"black": 3, "red": 1}, 1: {"blue": 2}})
        claim(game, 0, "Chicago-Pittsburgh/black", "black")
        assert calls == [(0, "Chicago-Pittsburgh/black", "black", 0, (("black", 3),))]
        assert owner(game, "Chicago-Pittsburgh/black") is None and hand(game, 0) == {"red": 1}
        assert game.view(1)["players"][0]["decision"] == {"kind": "inspection"}
        assert game.legal_actions(0) == [ApproveClaim()] and game.state.current == 0
        act(game, 0, "approve-claim")
        assert owner(game, "Chicago-Pittsburgh/black") == 0 and game.state.current == 1
        claim(game, 1, "Denver-Santa Fe", "blue")  # no answer: the claim completes at once
        assert owner(game, "Denver-Santa Fe") == 1 and game.state.current == 0


# --- tickets ------------------------------------------------------------------------------------------


@attrs.frozen
class Deal:
    """The house rule's answer to ``ttr_ticket_deal``."""

    deal: dict[str, int]
    keep: dict[str, int]
    rejects: str = "bottom"
    box_undealt: tuple[str, ...] = ()


def test_hook_ttr_ticket_deal(tmp_path):
    purposes = []

    class KeepThemAll(Plugin):
        """House rule: 4 starting tickets, all kept; a draw offers 2."""

        requires = ("tickets",)
        provides = ("ticket-deal",)

        @hookimpl
        def ttr_ticket_deal(self, purpose):
            purposes.append(purpose)
            return Deal({"any": 4}, {"any": 4}) if purpose == "start" else Deal({"any": 2}, {"any": 1})

    with house(tmp_path, {"keep-them-all": KeepThemAll}, remove=["ticket-deal"], setup=False) as game:
        rules = game.view(0)["rules"]
        assert len(rules["tickets_on_offer"]) == 4 and rules["keep_at_least"] == {"any": 4}
        error = testing.expect_illegal(
            game, 0, {"kind": "keep-tickets", "tickets": rules["tickets_on_offer"][:3]}, NotLegalNow
        )
        assert "keep at least 4" in error.reason
        testing.keep_all_starting_tickets(game)
        assert [len(p.tickets) for p in game.state.players] == [4, 4]
        act(game, 0, "draw-tickets")
        assert len(game.view(0)["rules"]["tickets_on_offer"]) == 2
        assert purposes == ["start", "draw"]  # once per purpose for the ruleset


def test_hook_ttr_borrowable_routes(tmp_path):
    calls = []

    class Neighbourly(Plugin):
        """House rule: each player may borrow one other player's route for their tickets."""

        requires = ("tickets",)

        @hookimpl
        def ttr_borrowable_routes(self, game, seat):
            calls.append(seat)
            return [("a neighbour's route", [r for r, s in enumerate(game.state.owner) if s not in (-1, seat)])]

    with house(tmp_path, {"neighbourly": Neighbourly}) as game:
        testing.arrange(
            game, routes={0: ["El Paso-Santa Fe"], 1: ["Denver-Santa Fe"]}, tickets={0: ["Denver-El Paso"], 1: []}
        )
        mine = breakdown(game, 0)
        assert (mine["completed"], mine["tickets"]) == (["Denver-El Paso"], 4)
        assert game.result.scores[0].notes == ("a neighbour's route borrowed Denver-Santa Fe",)
        assert calls == [0, 1]


# --- winner -------------------------------------------------------------------------------------------


def test_hook_ttr_tie_breaker(tmp_path):
    asked = []

    class TrainsLeft(Plugin):
        """House rule: no longest-path bonus; a tie goes to whoever has more trains left."""

        provides = ("tie-breaker:most-trains-left",)

        @hookimpl
        def ttr_tie_breaker(self, game, name, score):
            if name != "most-trains-left":
                return None
            asked.append((name, score.seat))
            return game.state.players[score.seat].trains

    rules = '[versions.1.rules.winner]\ntie_breakers = ["most-trains-left"]\n'
    with house(tmp_path, {"trains-left": TrainsLeft}, remove=["longest-path"], rules=rules) as game:
        testing.arrange(
            game,
            routes={0: ["Chicago-Duluth"], 1: ["Denver-Santa Fe", "Chicago-Saint Louis/green"]},  # 3 vs 2 + 2 spaces
            tickets={0: [], 1: []},
        )
        result = testing.score_now(game)
        assert [s.total for s in result.scores] == [4, 4]
        assert result.winners == Winners((0,), "most-trains-left")
        assert sorted(asked) == [("most-trains-left", 0), ("most-trains-left", 1)]
