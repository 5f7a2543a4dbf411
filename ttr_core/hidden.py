"""Dealing hidden information anew: what one seat cannot see, resampled consistently with what it
sees (``Game.determinize``, for search bots; the test kit's view-leak check)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ttr_core.board import Board
from ttr_core.state import GameState


def redeal(state: GameState, others: Sequence[int], board: Board, rng: random.Random) -> None:
    """Deal anew, in place, the cards and tickets that only ``others`` (and nobody) can see."""
    _redeal_cards(state, others, rng)
    _redeal_tickets(state, others, board, rng)


def _redeal_cards(state: GameState, others: Sequence[int], rng: random.Random) -> None:
    # the deck and the others' hands are one pool of unseen cards; each hand keeps its size
    cards = list(state.deck)
    for s in others:
        cards += [card for card, n in enumerate(state.players[s].hand) for _ in range(n)]
    rng.shuffle(cards)
    for s in others:
        hand = state.players[s].hand
        size = sum(hand)
        hand[:] = [0] * len(hand)
        for card in cards[:size]:
            hand[card] += 1
        del cards[:size]
    state.deck = cards


def _redeal_tickets(state: GameState, others: Sequence[int], board: Board, rng: random.Random) -> None:
    # Every place an unseen ticket lies in, as (pile, index); the tickets of one kind are shuffled
    # among the places that held that kind, so every pile keeps its size and its kinds.
    offers = {s: list(state.players[s].decision.held_tickets()) for s in others if state.players[s].decision}
    piles = [state.ticket_deck, state.boxed_tickets, *(state.players[s].tickets for s in others), *offers.values()]
    places: dict[str, list[tuple[list[int], int]]] = {}
    for pile in piles:
        for i, ticket in enumerate(pile):
            places.setdefault(board.tickets[ticket].kind, []).append((pile, i))
    for kind in sorted(places):
        spots = places[kind]
        tickets = [pile[i] for pile, i in spots]
        rng.shuffle(tickets)
        for (pile, i), ticket in zip(spots, tickets):
            pile[i] = ticket
    for s, offered in offers.items():
        player = state.players[s]
        player.decision = player.decision.with_held_tickets(tuple(offered))
