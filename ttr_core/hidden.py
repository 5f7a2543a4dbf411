"""Dealing hidden information anew: what one seat cannot see, resampled consistently with what it
sees (``Game.determinize``, for search bots; the test kit's view-leak check)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ttr_core.board import Board
from ttr_core.shuffle import shuffle
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
    shuffle(rng, cards)
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
    offers, piles = _unseen_piles(state, others)
    places: dict[str, list[tuple[list[int], int]]] = {}
    for pile in piles:
        for i, ticket in enumerate(pile):
            places.setdefault(board.tickets[ticket].kind, []).append((pile, i))
    for kind in sorted(places):
        spots = places[kind]
        tickets = [pile[i] for pile, i in spots]
        shuffle(rng, tickets)
        for (pile, i), ticket in zip(spots, tickets):
            pile[i] = ticket
    _give_back_offers(state, offers)


def redeal_tickets(
    state: GameState, others: Sequence[int], board: Board, rng: random.Random, weights: Mapping[int, Mapping[int, float]],
) -> None:
    """Deal anew, in place, the tickets that only ``others`` (and nobody) can see, each seat ``s``
    of ``weights`` drawing its held tickets with chances in proportion to ``weights[s][ticket]``
    (a ticket missing from them weighs 1), without replacement, among the unseen tickets of
    each place's kind; the rest are shuffled among the remaining places, as :func:`redeal` does.
    Piles keep their sizes and kinds. The others' hands and the deck are left alone."""
    offers, piles = _unseen_piles(state, others)
    held = {s: state.players[s].tickets for s in others if s in weights}
    pool: dict[str, list[int]] = {}
    for pile in piles:
        for ticket in pile:
            pool.setdefault(board.tickets[ticket].kind, []).append(ticket)
    for tickets in pool.values():
        tickets.sort()  # the draw depends on which tickets are unseen, not on where they lie
    drawn = {s: [_draw(pool[board.tickets[t].kind], weights[s], rng) for t in pile] for s, pile in held.items()}
    for kind in sorted(pool):
        shuffle(rng, pool[kind])
    for pile in piles:
        if any(pile is p for p in held.values()):
            continue
        pile[:] = [pool[board.tickets[t].kind].pop() for t in pile]
    for s, tickets in drawn.items():
        held[s][:] = tickets
    _give_back_offers(state, offers)


def _unseen_piles(state: GameState, others: Sequence[int]) -> tuple[dict[int, list[int]], list[list[int]]]:
    """The piles of tickets only ``others`` (and nobody) can see: the deck, the box, the others'
    tickets and the offers they are deciding on (copied, by seat: see :func:`_give_back_offers`)."""
    offers = {s: list(state.players[s].decision.held_tickets()) for s in others if state.players[s].decision}
    return offers, [state.ticket_deck, state.boxed_tickets, *(state.players[s].tickets for s in others), *offers.values()]


def _give_back_offers(state: GameState, offers: dict[int, list[int]]) -> None:
    # a pending decision is frozen: the re-dealt offer goes back as a new one
    for s, offered in offers.items():
        player = state.players[s]
        player.decision = player.decision.with_held_tickets(tuple(offered))


def _draw(tickets: list[int], weights: Mapping[int, float], rng: random.Random) -> int:
    """One of ``tickets``, taken out of the list, with chances in proportion to its weight."""
    ws = [weights.get(t, 1.0) for t in tickets]
    x = rng.random() * sum(ws)
    for i, w in enumerate(ws):
        x -= w
        if x < 0:
            return tickets.pop(i)
    return tickets.pop()
