"""Sampling what a seat cannot see, from what it sees only: the worlds a search bot plays out.

``game.determinize(seat, rng)`` deals the hidden cards and tickets anew, but it shuffles them
starting from where they lie now, so two games that look the same to ``seat`` but differ in the
others' hands would give different samples for the same ``rng``, and a bot using them would choose
differently: it would (a little) depend on what it cannot see. :func:`sample` first puts the
hidden parts in an order that depends only on the seat's view (sorted, hand sizes and ticket kinds
kept), then determinizes; so the worlds it samples, and the choices made from them, depend on the
view and ``rng`` alone.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from ttr_core.game import Game
from ttr_core.hidden import redeal_tickets


def sample(game: Game, seat: int, rng: random.Random, weights: Mapping[int, Mapping[int, float]] | None = None) -> Game:
    """A full game consistent with what ``seat`` sees, drawn from ``rng`` (the game is untouched).
    ``weights``: by seat, by ticket, how likely that seat holds that ticket
    (:class:`ttr_bots.opponent_model.TicketModel`); the others' tickets are then drawn by them."""
    world = canonical(game, seat).determinize(seat, rng)
    if weights:
        others = [s for s in range(len(world.state.players)) if s != seat]
        redeal_tickets(world.state, others, world.board, rng, weights)
    return world


def canonical(game: Game, seat: int) -> Game:
    """A clone of ``game`` whose hidden parts (the deck, the others' hands, tickets and offers, the
    ticket deck and the tickets out of the game) are sorted: the same for every game that shows
    ``seat`` the same view."""
    twin = game.clone()
    state = twin.state
    others = [s for s in range(len(state.players)) if s != seat]
    _sort_cards(state, others)
    _sort_tickets(state, others, game.board)
    return twin


def _sort_cards(state, others: list[int]) -> None:
    pool = list(state.deck)
    for s in others:
        pool += [card for card, n in enumerate(state.players[s].hand) for _ in range(n)]
    pool.sort()
    for s in others:
        player = state.players[s]
        size = sum(player.hand)
        hand = [0] * len(player.hand)
        for card in pool[:size]:
            hand[card] += 1
        player.hand = hand
        del pool[:size]
    state.deck = pool


def _sort_tickets(state, others: list[int], board) -> None:
    offers = {s: list(state.players[s].decision.held_tickets()) for s in others if state.players[s].decision}
    piles = [state.ticket_deck, state.boxed_tickets, *(state.players[s].tickets for s in others), *offers.values()]
    places: dict[str, list[tuple[list[int], int]]] = {}
    for pile in piles:
        for i, ticket in enumerate(pile):
            places.setdefault(board.tickets[ticket].kind, []).append((pile, i))
    for spots in places.values():
        for (pile, i), ticket in zip(spots, sorted(pile[i] for pile, i in spots)):
            pile[i] = ticket
    for s, offered in offers.items():
        player = state.players[s]
        player.decision = player.decision.with_held_tickets(tuple(offered))
