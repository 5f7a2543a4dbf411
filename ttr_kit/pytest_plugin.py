"""The house-rule kit: pytest fixtures for testing plugins and variants (the ``pytest11`` entry point
``ttr``, so they are there in any project that has ttr-engine installed; nothing to import).

A variant is named by its id (installed ones, yours included once your package declares it in the
``ttr.variants`` entry-point group) or by the path of its ``.toml`` file. Games are seeded, so a
test always plays the same game.

Fixtures
--------

``ttr_game(variant="usa", players=2, seed=1, version=None, setup=True)``
    A new game. With ``setup`` every player has kept every starting ticket offered, so seat 0 is
    to play its first turn; without, the game is still choosing its starting tickets.

``ttr_position(variant="usa", players=2, seed=1, version=None, *, hands=None, routes=None,
tickets=None, open_row=None, deck_top=None, turn=None, trains=None)``
    A game past its setup, arranged: ``hands={0: {"red": 3, "locomotive": 1}}``,
    ``routes={1: ["Helena-Seattle"]}`` (built without cards, points scored), ``trains={0: 3}``
    (trains left in supply, after the routes), ``tickets={0: ["Denver-El Paso"]}`` (exactly
    these), ``open_row=["red", None, "blue", "blue", "green"]``, ``deck_top=["locomotive"]``
    (drawn first), ``turn=1`` (whose turn it is). Real cards and tickets are moved, so the
    engine's invariants keep holding; trains taken from a supply go out of the game
    (``PlayerState.trains_out``), which the trains invariant counts: on the board + in supply +
    out of the game = the map's trains.

``ttr_act(game, seat, action)``
    Apply one action, as an object (``ClaimRoute("Denver-Omaha", "red")``) or as the JSON data a
    host receives (``{"kind": "claim-route", "route": "Denver-Omaha", "color": "red"}``), then
    assert every invariant. Returns the game.

``ttr_expect_illegal(game, seat, action, error=IllegalAction)``
    Assert the action is refused with ``error`` (or a subclass) and changes nothing at all;
    returns the error (its ``reason`` is the message a player sees).

``ttr_breakdown(game, player)``
    One player's final score by line, scoring the game where it stands if it is not over:
    ``{"routes", "tickets", "completed", "failed", "bonuses": {name: points}, "total", "winner"}``.

``ttr_play_to_end(game, bots=("random",))``
    Let bots finish the game, asserting the invariants after every action.

``ttr_conformance(variant, games=20)``
    The problems ``ttr variants check FILE --play N`` would report (seeded bot games over every
    allowed player count, invariants after every action, every record replayed): assert it is
    ``[]``.

``ttr_replacement_conformance(plugin, name=None, games=3, variants=None, rules=None)``
    The rules ``plugin`` breaks when it replaces the built-in plugins that provide what it
    provides (``provides = ("open-row",)``), in every shipped variant that has one, ``games``
    seeded bot games each (:mod:`ttr_kit.conformance`): its capability's hooks declared, the
    invariants and replays, and the capability's own rules (``open-row``: R-SET-3, R-ROW-1..4).
    Assert it is ``[]``.

``ttr_variant(variant, version=None)``
    The loaded, checked ``Ruleset`` (``.plugins``, ``.configs``, ``.board``, ``.version``).

``ttr_kit``
    :mod:`ttr_kit.testing` itself: ``set_hand``, ``stack_deck``, ``set_open_row``, ``give_route``,
    ``set_trains``, ``set_tickets``, ``set_turn``, ``invariant_problems``, ``view_leaks``, ``state_text``...

``ttr_score_position(data)``
    Score a hand-given finished position as ``ttr score`` does (``{"variant": ..., "players":
    [{"routes": [...], "tickets": [...]}, ...]}``); returns the scored game.

Example, for a house rule that makes unfinished tickets cost nothing::

    def test_an_unfinished_ticket_costs_nothing(ttr_position, ttr_breakdown):
        game = ttr_position("usa-house", tickets={0: ["Denver-El Paso"]})
        assert ttr_breakdown(game, 0)["failed"] == ["Denver-El Paso"]
        assert ttr_breakdown(game, 0)["tickets"] == 0

And in the shell, before publishing: ``ttr variants check my-variant.toml --play 50``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import pytest

from ttr_core import variant
from ttr_kit import conformance, testing
from ttr_core.errors import IllegalAction
from ttr_core.position import score_position


@pytest.fixture
def ttr_kit():
    return testing


@pytest.fixture
def ttr_game():
    def make(variant_id: str | os.PathLike = "usa", players: int = 2, seed: int = 1, version: int | None = None,
             setup: bool = True):
        game = testing.new_game(variant_id, players, seed, version)
        return testing.keep_all_starting_tickets(game) if setup else game

    return make


@pytest.fixture
def ttr_position():
    def make(
        variant_id: str | os.PathLike = "usa", players: int = 2, seed: int = 1, version: int | None = None,
        **arrangement: Any,
    ):
        # the keywords are testing.arrange's (hands, routes, tickets, open_row, deck_top, turn, trains)
        game = testing.keep_all_starting_tickets(testing.new_game(variant_id, players, seed, version))
        testing.arrange(game, **arrangement)
        testing.assert_invariants(game)
        return game

    return make


@pytest.fixture
def ttr_act():
    def act(game, seat: int, action: Any):
        testing.act(game, seat, action)
        testing.assert_invariants(game)
        return game

    return act


@pytest.fixture
def ttr_expect_illegal():
    def expect(game, seat: int, action: Any, error: type[IllegalAction] = IllegalAction) -> IllegalAction:
        return testing.expect_illegal(game, seat, action, error)

    return expect


@pytest.fixture
def ttr_breakdown():
    def read(game, player: int | str) -> dict[str, Any]:
        testing.score_now(game)
        return testing.breakdown(game, player)

    return read


@pytest.fixture
def ttr_play_to_end():
    def finish(game, bots: Sequence[str] = ("random",)):
        return testing.play_to_end(game, bots)

    return finish


@pytest.fixture
def ttr_conformance():
    def problems(variant_id: str | os.PathLike, games: int = 20, first_seed: int = 0) -> list[str]:
        newest = variant.load(os.fspath(variant_id))
        return [
            p
            for number in range(1, newest.version + 1)
            for p in testing.conformance_problems(variant.load(os.fspath(variant_id), number), games, first_seed)
        ]

    return problems


@pytest.fixture
def ttr_replacement_conformance():
    def problems(
        plugin: type, name: str | None = None, games: int = 3, variants: Sequence[str] | None = None,
        rules: dict[str, Any] | None = None,
    ) -> list[str]:
        return conformance.replacement_problems(plugin, name, games, variants, rules)

    return problems


@pytest.fixture
def ttr_variant():
    def load(variant_id: str | os.PathLike, version: int | None = None):
        return variant.load(os.fspath(variant_id), version)

    return load


@pytest.fixture
def ttr_score_position():
    return score_position
