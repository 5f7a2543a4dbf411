"""Per-seat views (R-TIX-4: tickets are hidden; hands are private; no deck order, no RNG state).

Two checks after every action of a few bot games:

* textual: the JSON view of a seat names none of another seat's tickets (``testing.secrets_of``),
  the spectator's names nobody's, and only the seat's own view has a hand;
* differential: changing a secret (another seat's hand, tickets or ticket offer; the deck order;
  the ticket deck order; the RNG state) leaves every view that may not see it byte-identical,
  whatever the view's layout.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import attrs
import pytest

import ttr_bots as bots
from ttr_core import variant
from ttr_kit import testing
from ttr_core.game import Game


def text(game: Game, seat: int | None) -> str:
    return json.dumps(game.view(seat), sort_keys=True)


def viewers(game: Game) -> list[int | None]:
    return [*range(len(game.state.players)), None]


def _keys(data) -> Iterator[str]:
    if isinstance(data, dict):
        for k, v in data.items():
            yield k
            yield from _keys(v)
    elif isinstance(data, list):
        for v in data:
            yield from _keys(v)


# --- secrets, each a change of the state that some viewers must not notice ----------------------


@contextmanager
def changed_hand(game: Game, seat: int):
    hand = game.state.players[seat].hand
    saved = list(hand)
    src = next((c for c, n in enumerate(hand) if n), None)
    if src is not None:  # same number of cards, one of another kind
        hand[src] -= 1
        hand[(src + 1) % len(hand)] += 1
    try:
        yield src is not None
    finally:
        hand[:] = saved


@contextmanager
def changed_tickets(game: Game, seat: int):
    player = game.state.players[seat]
    saved = list(player.tickets)
    n = len(game.board.tickets)
    player.tickets[:] = [(t + 1) % n for t in saved]
    try:
        yield bool(saved)
    finally:
        player.tickets[:] = saved


@contextmanager
def changed_offer(game: Game, seat: int):
    player = game.state.players[seat]
    saved = player.decision
    offered = getattr(saved, "offered", ())
    if offered:
        n = len(game.board.tickets)
        player.decision = attrs.evolve(saved, offered=tuple((t + 7) % n for t in offered))
    try:
        yield bool(offered)
    finally:
        player.decision = saved


@contextmanager
def changed_deck_order(game: Game):
    st = game.state
    saved = list(st.deck), list(st.ticket_deck)
    st.deck.reverse()
    st.ticket_deck.reverse()
    try:
        yield len(set(st.deck)) > 1
    finally:
        st.deck[:], st.ticket_deck[:] = saved


@contextmanager
def changed_rng(game: Game):
    saved = game.rng.getstate()
    game.rng.random()
    try:
        yield True
    finally:
        game.rng.setstate(saved)


def check_views(game: Game) -> None:
    """Every check of this module, for the game as it is now."""
    seats = range(len(game.state.players))
    if not game.over:  # R-TIX-4: "hidden from other players until the end of the game"
        for viewer in viewers(game):
            seen = text(game, viewer)
            for other in seats:
                if other == viewer:
                    continue
                for ticket in testing.secrets_of(game, other)["tickets"]:
                    assert ticket not in seen, f"seat {viewer} sees seat {other}'s ticket {ticket}"
            keys = set(_keys(game.view(viewer)))
            assert not keys & {"deck", "rng", "seed", "ticket_deck", "discard"}, keys
            if viewer is None:
                assert "you" not in keys and "hand" not in keys
            else:
                assert list(_keys(game.view(viewer))).count("hand") == 1
    before = {v: text(game, v) for v in viewers(game)}
    secrets: list[tuple[Callable, list[int | None]]] = [(changed_deck_order, []), (changed_rng, [])]
    if not game.over:
        for s in seats:
            secrets += [
                (lambda g, s=s: changed_hand(g, s), [s]),
                (lambda g, s=s: changed_tickets(g, s), [s]),
                (lambda g, s=s: changed_offer(g, s), [s]),
            ]
    for change, entitled in secrets:
        with change(game) as changed:
            for v in viewers(game):
                now = text(game, v)
                if v in entitled:
                    assert not changed or now != before[v], f"seat {v} does not see its own secret"
                else:
                    assert now == before[v], f"view of {v!r} reveals a secret ({change})"
        assert {v: text(game, v) for v in viewers(game)} == before  # restored


@pytest.mark.parametrize(("seed", "players"), [(11, 2), (12, 3), (13, 4)])
def test_views_hide_what_each_seat_may_not_see_after_every_action(seed, players):
    game_holder: list[Game] = []

    def watch(game, seat, action):
        game_holder[:] = [game]
        check_views(game)

    ruleset = variant.load("usa")
    # the setup (before the first action) is checked too
    check_views(Game(ruleset, [f"P{i + 1}" for i in range(players)], seed))
    game = bots.play_game(ruleset, players, seed, on_action=watch)
    assert game.over and game_holder


def test_own_view_shows_own_hand_tickets_and_offer():
    """The checks above can fail: a seat's own secrets are in its view."""
    game = testing.new_game("usa", 3, seed=2)
    for seat in range(3):
        secrets = testing.secrets_of(game, seat)["tickets"]
        assert len(secrets) == 3
        offer = game.view(seat)["players"][seat]["decision"]["offered"]  # ticket numbers of the map
        assert [game.board.tickets[t].id for t in offer] == secrets
    testing.keep_all_starting_tickets(game)
    me = game.view(0)["you"]
    assert me["hand"] == game.cards.counts_by_name(game.state.players[0].hand)
    assert sorted(me["tickets"]) == sorted(testing.secrets_of(game, 0)["tickets"])


def test_a_leaking_view_is_caught(monkeypatch):
    """The differential check notices a view that shows another seat's hand."""
    from ttr_core import view as view_module

    real = view_module.build_view

    def leaky(game, seat):
        data = real(game, seat)
        data["players"][1]["hand"] = list(game.state.players[1].hand)
        return data

    game = testing.keep_all_starting_tickets(testing.new_game("usa", 2, seed=2))
    monkeypatch.setattr(view_module, "build_view", leaky)
    with pytest.raises(AssertionError):
        check_views(game)


def test_results_show_everybodys_tickets_once_the_game_is_over():
    """R-TIX-4: tickets are hidden "until the end of the game": the final result names them."""
    game = bots.play_game(variant.load("usa"), 2, seed=21)
    for seat in range(2):
        tickets = [game.board.tickets[t].id for t in game.state.players[seat].tickets]
        assert all(t in text(game, None) for t in tickets)


def check_reads(game: Game) -> None:
    """The game's read accessors tell what the spectator's view and each seat's own view tell."""
    table = game.view(None)
    assert (game.phase, game.turn, game.final_round) == (table["phase"], table["turn"], table["final_round"])
    assert game.cards_left == table["deck_size"] + table["discard_size"]
    assert {game.board.routes[r].id: s for r, s in enumerate(game.owner) if s >= 0} == table["routes"]
    for seat, player in enumerate(table["players"]):
        own = game.view(seat)
        assert game.cards.counts_by_name(list(game.hand_counts(seat))) == own["you"]["hand"]
        decision = game.decision(seat)
        assert (None if decision is None else decision.private()) == own["players"][seat]["decision"]
        assert (None if decision is None else decision.public()) == player["decision"]


def test_the_game_s_read_accessors_tell_what_the_views_tell_after_every_action():
    """What a move log and a server's listing read without the state: phase, turn, the final
    round, route owners, cards left, each seat's hand and pending decision (R-END-1, R-TIX-4)."""
    ruleset = variant.load("usa")
    check_reads(Game(ruleset, ["P1", "P2", "P3"], 14))
    game = bots.play_game(ruleset, 3, 14, on_action=lambda game, seat, action: check_reads(game))
    assert game.over and game.phase == "over" and game.final_round
    assert game.end_reason == game.result.reason


def test_the_read_accessors_hand_back_values_that_do_not_follow_the_game():
    """A move log keeps what it read before an action to compare it with what it reads after."""
    game = testing.keep_all_starting_tickets(testing.new_game("usa", 2, seed=3))
    owner, hand = game.owner, game.hand_counts(game.to_act()[0])
    seat = game.to_act()[0]
    claim = next(a for a in game.legal_actions(seat) if a.kind == "claim-route")
    game.apply(seat, claim)
    assert game.owner != owner and owner.count(seat) == 0
    assert game.hand_counts(seat) != hand and sum(hand) > sum(game.hand_counts(seat))
