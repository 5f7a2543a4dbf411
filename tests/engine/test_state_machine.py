"""Stateful property tests: random legal actions mixed with random illegal ones, for every variant.

A hypothesis ``RuleBasedStateMachine`` per variant that ``ttr_core.variant.available()`` lists (new
rule sets are picked up without touching this file). Rules play legal actions (one at a time, or
a run of them to reach the middle and the end of games) and try illegal ones: a wrong or
non-existent seat, a kind of action the moment does not allow, an unaffordable payment, a taken
route, a second face-up locomotive, a bad ticket choice, anything after the end, and junk action
data through ``game.registry.from_data``.

After an illegal action: the typed error was raised and the serialised state
(``json.dumps(game.dump(), sort_keys=True)``) and the log are byte-identical. After every step:
``testing.invariant_problems`` is empty and no view (``view(seat)`` for every seat, ``view(None)``)
shows anything its viewer may not see (``testing.view_leaks``). No step may raise anything else,
least of all ``PluginFailed``.

The profile is fixed (derandomized, no example database) so that CI runs the same games every
time; ``TTR_FUZZ=deep`` runs many more examples locally.
"""

from __future__ import annotations

import json
import os
import random

import pytest
from collections import Counter

from hypothesis import HealthCheck, Phase, assume, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from ttr_core import variant
from ttr_kit import testing
from ttr_plugins.claiming import ClaimRoute
from ttr_plugins.train_cards import DrawCard
from ttr_plugins.tickets import DrawTickets, KeepTickets
import ttr_bots
from ttr_core.cards import COLORS
from ttr_core.errors import CannotPay, GameOver, IllegalAction, MalformedAction, NotLegalNow, NotYourTurn, RouteTaken
from ttr_core.game import Game

VARIANTS = sorted(variant.available())

CI_PROFILE = settings(
    max_examples=30,
    stateful_step_count=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
DEEP_PROFILE = settings(CI_PROFILE, max_examples=200, stateful_step_count=60, derandomize=False)
PROFILE = DEEP_PROFILE if os.environ.get("TTR_FUZZ") == "deep" else CI_PROFILE

# junk that a client might send instead of an action
_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True), st.text(max_size=12),
)
_json = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)
_field_names = st.sampled_from(["slot", "route", "color", "locomotives", "triples", "tickets", "city", "mode", "seat", "kind", "x"])


def _state(game: Game) -> tuple[str, int]:
    return json.dumps(game.dump(), sort_keys=True), len(game.log)


class GameMachine(RuleBasedStateMachine):
    """One game of ``variant_id``; subclassed per variant below."""

    variant_id = "usa"
    #: what the runs of one test did: games, games that ended, each error raised on purpose
    stats: Counter = Counter()

    @initialize(data=st.data(), seed=st.integers(0, 10_000), prefix=st.one_of(st.just(0), st.integers(0, 250)))
    def start(self, data, seed, prefix):
        ruleset = variant.load(self.variant_id)
        players = data.draw(st.integers(ruleset.players.min, ruleset.players.max), label="players")
        self.game = Game(ruleset, [f"P{i + 1}" for i in range(players)], seed)
        kinds = ttr_bots.names()
        self.bots = [ttr_bots.bot_class(kinds[i % len(kinds)])(seed, i) for i in range(players)]
        self._bot_moves(prefix)  # start anywhere in a game: its setup, its middle, its end
        self.stats["games"] += 1

    # --- helpers ----------------------------------------------------------------------------

    def _bot_moves(self, n: int) -> None:
        for _ in range(n):
            if self.game.over:
                return
            seat = self.game.to_act()[0]
            self.game.apply(seat, self.bots[seat].choose(self.game.seat_view(seat)))

    def refused(self, label: str, seat, action, *errors: type[IllegalAction]) -> IllegalAction:
        """``action`` must raise one of ``errors`` and change nothing at all."""
        before = _state(self.game)
        with pytest.raises(IllegalAction) as caught:
            self.game.apply(seat, action)
        assert isinstance(caught.value, errors or (IllegalAction,)), (
            f"{action!r} by seat {seat!r}: expected {[e.__name__ for e in errors]}, got {type(caught.value).__name__}: {caught.value}"
        )
        assert _state(self.game) == before, f"the refused {action!r} changed the game: {caught.value}"
        self.stats[type(caught.value).__name__] += 1
        self.stats[label] += 1
        return caught.value

    def acting(self) -> int | None:
        """The seat that must act now (None once the game is over)."""
        seats = self.game.to_act()
        return seats[0] if seats else None

    # --- legal play -------------------------------------------------------------------------

    @precondition(lambda self: not self.game.over)
    @rule(data=st.data())
    def legal_action(self, data):
        seat = data.draw(st.sampled_from(self.game.to_act()), label="seat")
        options = self.game.legal_actions(seat)
        assert options, f"seat {seat} must act but has no legal action"
        action = data.draw(st.sampled_from(options), label="action")
        self.game.apply(seat, action)

    @precondition(lambda self: not self.game.over)
    @rule(n=st.integers(1, 80))
    def bots_play(self, n):
        self._bot_moves(n)

    @precondition(lambda self: not self.game.over and self._near_the_end())
    @rule()
    def bots_finish(self):
        """Near the end, play it out, so that the steps left try actions after the end."""
        self._bot_moves(10_000)
        assert self.game.over

    @precondition(lambda self: not self.game.over)
    @rule(data=st.data())
    def legal_action_as_data(self, data):
        """A legal action sent the way a host receives it: JSON data, read back by ``from_data``."""
        seat = self.acting()
        action = data.draw(st.sampled_from(self.game.legal_actions(seat)), label="action")
        wire = json.loads(json.dumps(self.game.registry.to_data(action)))
        again = self.game.registry.from_data(wire, seat)
        assert again == action
        self.game.apply(seat, again)

    @precondition(lambda self: not self.game.over and "resign" in self.game.registry.kinds())
    @rule(data=st.data())
    def someone_resigns(self, data):
        """Any active seat leaves, in or out of turn, even mid-decision (R-TURN-3..4). Rarely, so
        that games still get far."""
        if data.draw(st.integers(0, 3), label="rarely") != 0:
            return
        seat = data.draw(st.sampled_from(self.game.active_seats()), label="seat")
        self.game.apply(seat, self.game.registry.from_data({"kind": "resign"}, seat))
        self.stats["resigned"] += 1

    # --- illegal actions --------------------------------------------------------------------

    @precondition(lambda self: not self.game.over)
    @rule(data=st.data())
    def wrong_seat(self, data):
        """Another seat plays what the seat to act could play."""
        seat = self.acting()
        action = data.draw(st.sampled_from(self.game.legal_actions(seat)), label="action")
        n = len(self.game.state.players)
        waiting = [s for s in range(n) if s not in self.game.to_act() and not self.game.state.players[s].resigned]
        assume(waiting)
        other = data.draw(st.sampled_from(waiting), label="other")
        self.refused("wrong seat", other, action, NotYourTurn, NotLegalNow)

    @rule(data=st.data(), bad=st.sampled_from([-1, -2, 6, 99, "0", None, 1.0, 10**30]))
    def no_such_seat(self, data, bad):
        action = self.game.legal_actions(self.acting())[0] if not self.game.over else DrawCard(None)
        if bad == 6:
            bad = len(self.game.state.players)
        self.refused("no such seat", bad, action, NotYourTurn, GameOver)

    @precondition(lambda self: not self.game.over)
    @rule(data=st.data())
    def wrong_moment(self, data):
        """A kind of action the moment does not allow: anything but the answer to a pending
        decision, or an answer when nothing is pending."""
        seat = self.acting()
        decision = self.game.state.players[seat].decision
        regs = list(self.game.registry)
        if decision is not None:
            wrong = [r for r in regs if r.cls.kind not in decision.allowed and not r.any_time]
        else:
            wrong = [r for r in regs if not r.starts_turn and not r.any_time]
        assume(wrong)
        reg = data.draw(st.sampled_from(wrong), label="kind")
        sample = _sample_action(self.game, reg.cls)
        assume(sample is not None)
        self.refused("wrong moment", seat, sample, NotLegalNow, NotYourTurn)

    @precondition(lambda self: self._turn_start())
    @rule(data=st.data())
    def unaffordable_payment(self, data):
        """Claim a free, open route in a colour the hand holds too few of, without locomotives."""
        game, seat = self.game, self.acting()
        hand = game.state.players[seat].hand
        closed = game.closed_routes(seat)
        options = [
            ClaimRoute(r.id, c, 0, 0)
            for r in game.board.routes
            if game.state.owner[r.index] < 0 and r.index not in closed and r.length <= game.state.players[seat].trains
            for c in ((r.color,) if r.color != "gray" else COLORS)
            if hand[COLORS.index(c)] < r.length
        ]
        assume(options)
        self.refused("unaffordable payment", seat, data.draw(st.sampled_from(options), label="claim"), CannotPay)

    @precondition(lambda self: self._turn_start() and any(o >= 0 for o in self.game.state.owner))
    @rule(data=st.data())
    def taken_route(self, data):
        game, seat = self.game, self.acting()
        owned = [r for r in game.board.routes if game.state.owner[r.index] >= 0]
        route = data.draw(st.sampled_from(owned), label="route")
        color = route.color if route.color != "gray" else "red"
        self.refused("taken route", seat, ClaimRoute(route.id, color, 0, 0), RouteTaken)

    @precondition(lambda self: self._turn_start())
    @rule(data=st.data())
    def second_face_up_locomotive(self, data):
        """Take a first card, then try a face-up locomotive as the second (R-DRAW-2)."""
        game, seat = self.game, self.acting()
        loco = game.cards.locomotive
        firsts = [a for a in game.legal_actions(seat) if isinstance(a, DrawCard)
                  and (a.slot is None or game.state.open_row[a.slot] != loco)]
        assume(firsts)
        game.apply(seat, data.draw(st.sampled_from(firsts), label="first card"))
        if game.state.players[seat].decision is None or game.state.players[seat].decision.kind != "second-card":
            return
        slots = [i for i, c in enumerate(game.state.open_row) if c == loco]
        assume(slots)
        ends_draw = variant.load(self.variant_id).configs["train-cards"].face_up_locomotive_ends_draw
        if ends_draw:
            self.refused("second face-up locomotive", seat, DrawCard(data.draw(st.sampled_from(slots), label="slot")), NotLegalNow)

    @precondition(lambda self: self._choosing_tickets() is not None or self._can_draw_tickets())
    @rule(data=st.data(), how=st.sampled_from(["none", "unknown", "twice", "not offered", "not a list"]))
    def bad_ticket_choice(self, data, how):
        """Keep no ticket, an unknown one, one twice, one not on offer, or a bare string. Without
        an offer pending, the seat to act first draws tickets (a legal action)."""
        game = self.game
        if self._choosing_tickets() is None:
            game.apply(self.acting(), DrawTickets())
        seat = self._choosing_tickets()
        offered = [game.board.tickets[t].id for t in game.state.players[seat].decision.offered]
        others = [t.id for t in game.board.tickets if t.id not in offered]
        if how == "none":
            keep = ()
        elif how == "unknown":
            keep = ("Atlantis-El Dorado",)
        elif how == "twice":
            keep = (offered[0], offered[0], *offered[1:])
        elif how == "not offered":
            keep = (*offered, data.draw(st.sampled_from(others), label="other ticket"))
        else:
            keep = offered[0]  # a string, not a tuple
        self.refused("bad ticket choice", seat, KeepTickets(keep), IllegalAction)

    @precondition(lambda self: self.game.over)
    @rule(data=st.data())
    def after_the_end(self, data):
        seat = data.draw(st.integers(0, len(self.game.state.players) - 1), label="seat")
        kind = data.draw(st.sampled_from(list(self.game.registry)), label="kind").cls
        action = _sample_action(self.game, kind) or DrawCard(None)
        self.refused("after the end", seat, action, GameOver)

    @rule(
        data=st.data(),
        kind=st.one_of(st.none(), st.integers(), st.text(max_size=10), st.sampled_from(["draw-card", "claim-route", "keep-tickets", "pass", "draw-tickets", "resign", "build-station", "pay-tunnel", "decline-tunnel", "play-controller"])),
        fields=st.dictionaries(_field_names, _json, max_size=4),
    )
    def junk_data(self, data, kind, fields):
        """Whatever a client sends: ``from_data`` refuses it as malformed, or the action it makes is
        refused with a typed error that changes nothing, or it happens to be a legal action."""
        game = self.game
        wire = {**fields, "kind": kind} if data.draw(st.booleans(), label="has kind") else fields
        if data.draw(st.booleans(), label="not even a dict"):
            wire = data.draw(_json, label="junk")
        seat = self.acting() if self.acting() is not None else 0
        before = _state(game)
        try:
            action = game.registry.from_data(wire, seat)
        except MalformedAction:
            assert _state(game) == before
            self.stats["junk refused by from_data"] += 1
            return
        try:
            game.apply(seat, action)
        except IllegalAction as exc:
            assert _state(game) == before
            self.stats[f"junk refused: {type(exc).__name__}"] += 1

    def teardown(self):
        if hasattr(self, "game"):
            self.stats["games over"] += self.game.over

    # --- after every step -------------------------------------------------------------------

    @invariant()
    def invariants_hold(self):
        if hasattr(self, "game"):
            testing.assert_invariants(self.game)

    @invariant()
    def views_show_nothing_hidden(self):
        if hasattr(self, "game"):
            testing.assert_no_view_leaks(self.game)

    # --- preconditions ----------------------------------------------------------------------

    def _turn_start(self) -> bool:
        st_ = self.game.state
        return st_.phase == "play" and st_.players[st_.current].decision is None

    def _near_the_end(self) -> bool:
        st_ = self.game.state
        return st_.final_round is not None or min(p.trains for p in st_.players) <= 12

    def _can_draw_tickets(self) -> bool:
        return self._turn_start() and any(isinstance(a, DrawTickets) for a in self.game.legal_actions(self.acting()))

    def _choosing_tickets(self) -> int | None:
        for seat in self.game.to_act():
            d = self.game.state.players[seat].decision
            if d is not None and hasattr(d, "offered") and d.offered:
                return seat
        return None


def _sample_action(game: Game, cls):
    """Some instance of action class ``cls``, with plausible fields (None if it cannot be built)."""
    route = game.board.routes[0].id
    city = game.board.cities[0].name
    guesses = {"slot": None, "route": route, "color": "red", "locomotives": 0, "triples": 0,
               "tickets": (), "city": city, "mode": "build"}
    import attrs

    try:
        return cls(**{f.name: guesses.get(f.name) for f in attrs.fields(cls) if f.default is attrs.NOTHING or f.name in guesses})
    except TypeError:
        return None


def _machine_for(variant_id: str):
    name = "".join(ch if ch.isalnum() else "_" for ch in variant_id)
    machine = type(f"GameMachine_{name}", (GameMachine,), {"variant_id": variant_id})
    return machine.TestCase


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_random_legal_and_illegal_actions_keep_every_variant_sound(variant_id):
    GameMachine.stats.clear()
    case = _machine_for(variant_id)
    case.settings = PROFILE
    case("runTest").runTest()
    stats = GameMachine.stats
    print(variant_id, dict(stats))
    # the profile reaches what it is meant to: the end of some games, and most kinds of refusal
    # (hypothesis switches rules off at random in each example, so not necessarily all of them:
    # test_every_bad_ticket_choice_is_refused tries the rarest one directly)
    assert stats["games over"] >= 1, dict(stats)
    families = ("wrong seat", "no such seat", "wrong moment", "unaffordable payment", "taken route",
                "bad ticket choice", "after the end", "junk refused by from_data")
    assert sum(stats[f] >= 1 for f in families) >= 5, dict(stats)
    assert sum(stats[f] for f in families) >= 50, dict(stats)


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_every_bad_ticket_choice_is_refused(variant_id):
    """The starting offer of every seat, answered badly in every way: refused, nothing changed."""
    ruleset = variant.load(variant_id)
    game = Game(ruleset, [f"P{i + 1}" for i in range(ruleset.players.max)], 5)
    for seat in game.to_act():
        offered = [game.board.tickets[t].id for t in game.state.players[seat].decision.offered]
        elsewhere = next(t.id for t in game.board.tickets if t.id not in offered)
        for keep in [(), ("Atlantis-El Dorado",), (offered[0], *offered), (*offered, elsewhere), offered[0],
                     (offered[0], 7)]:
            before = _state(game)
            with pytest.raises(IllegalAction):
                game.apply(seat, KeepTickets(keep))
            assert _state(game) == before
        game.apply(seat, KeepTickets(tuple(offered)))
    assert game.state.phase == "play"


def test_the_machine_finds_a_broken_rule(tmp_path):
    """The machine is not blind: a plugin that leaks a card on every claim is caught."""
    from ttr_core import manager
    from ttr_core.plugin import Plugin, hookimpl

    class LeakyClaims(Plugin):
        @hookimpl
        def ttr_route_claimed(self, game, seat, route):
            if game.state.discard:
                game.state.discard.pop()  # a paid card vanishes

    path = tmp_path / "usa-leaky.toml"
    path.write_text('id = "usa-leaky"\ntitle = "t"\nextends = "usa"\n[versions.1]\nadd_plugins = ["leaky-claims"]\n')
    with manager.local_plugins({"leaky-claims": LeakyClaims}):
        case = _machine_for(str(path))
        # no shrinking: finding the failure is the point, not its smallest form
        case.settings = settings(PROFILE, max_examples=10, stateful_step_count=20, phases=[Phase.generate])
        with pytest.raises(AssertionError, match="cards:"):
            case("runTest").runTest()
