"""Hook specifications: every point where a rule plugs into the game.

Hooks are grouped in the order a game meets them: setup, the turn, drawing cards, claiming
routes, tickets, the end of the game. Each docstring says when the hook is called, what it
returns and whether the first result wins. Hooks are called with keyword arguments, and an
implementation may take any subset of them (pluggy), so specs can grow without breaking plugins.

Two kinds of single-answer hooks:

* **policy** hooks (marked ``@policy``) answer a question about the whole rule set, such as the
  route points table. In one variant at most one plugin may implement each; two is an error
  naming both (see :mod:`ttr_core.manager`). Their answers are resolved once per ruleset (the
  first game that needs one asks; :mod:`ttr_core.prepared` keeps it for the others).
* other ``firstresult`` hooks are decisions in the flow of play that plugins take in turn
  (``tryfirst``/``trylast`` order them); "Stops at first non-None result".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from ttr_core.actions import Action, ActionRegistry
    from ttr_core.board import Board, Route
    from ttr_core.game import Game
    from ttr_core.scoring import Bonus, PlayerScore, TicketOutcome, Winners
    from ttr_core.state import Decision

PROJECT = "ttr"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

#: Names of the policy hooks: at most one implementation per variant.
POLICY_HOOKS: set[str] = set()


def policy(fn):
    """Mark a hook spec as a single-answer policy (see the module docstring)."""
    POLICY_HOOKS.add(fn.__name__)
    return fn


# -------------------------------------------------------------------------------------------
# Setup: building the game, in this order (the first two once per ruleset, the others per game)
# -------------------------------------------------------------------------------------------


@hookspec
def ttr_register_actions(registry: ActionRegistry) -> None:
    """Register the action types this plugin handles, with their handlers.

    Called once per ruleset, by its first game, before anything else (the registry serves
    every game of the ruleset, so handlers keep no game state either). Use
    ``registry.add(ActionClass, handler)``; a kind registered twice is an error naming both
    plugins. Returns nothing.
    """


@hookspec
def ttr_deck_cards(board: Board) -> Mapping[str, int] | None:
    """Return the train cards this plugin puts into the deck, as ``{card name: count}`` (R-SET-2).

    Called once per ruleset, by its first game. The answers of all plugins are added up, so a plugin
    adding 2 controller cards returns ``{"controller": 2}``.
    """


@hookspec(firstresult=True)
@policy
def ttr_route_points() -> Mapping[int, int]:
    """Return the points of a route by its length, ``{length: points}`` (R-SCORE-1).

    Called once per ruleset and when a variant is checked: a map route whose length the table
    does not cover is a variant error. Policy: one plugin answers.
    """


@hookspec(firstresult=True)
@policy
def ttr_ticket_deal(purpose: str) -> Any:
    """Return how tickets are dealt, kept and rejected, as a ``ttr_plugins.ticket_deal.TicketDeal``.

    ``purpose`` is ``"start"`` (the starting tickets, R-SET-4) or ``"draw"`` (the draw-tickets
    action, R-TIX-1). Called once per ruleset for each purpose. Policy: one plugin answers.
    """


@hookspec
def ttr_game_created(game: Game) -> None:
    """Initialise this plugin's part of the state (``game.state.ext[...]``).

    Called once when a game is created, after the decks are built and shuffled and before any
    card is dealt. Returns nothing.
    """


@hookspec
def ttr_setup_table(game: Game) -> None:
    """Deal: starting hands, the open row, starting tickets (R-SET-3, R-SET-4).

    Called once after ``ttr_game_created``. Dealing of hands is ``tryfirst``, the open row
    ``trylast``. A plugin that needs each player to decide something before the first turn
    (choosing starting tickets) sets that player's ``decision``; the first turn starts once no
    player has one (R-SET-6). Returns nothing.
    """


# -------------------------------------------------------------------------------------------
# The turn
# -------------------------------------------------------------------------------------------


@hookspec
def ttr_turn_started(game: Game, seat: int) -> None:
    """Called when ``seat``'s turn begins, including the first turn of the game. Returns nothing."""


@hookspec
def ttr_turn_ended(game: Game, seat: int, action: Action) -> None:
    """Called when ``seat``'s turn is over (no decision pending), before the end-of-game check.

    ``action`` is the last action of the turn. Plugins refill the open row here (R-ROW-1, ``wor``),
    count passes, or end the game themselves with ``game.finish(reason)``. Returns nothing.
    """


@hookspec
def ttr_decision_cancelled(game: Game, seat: int, decision: Decision) -> None:
    """Undo ``decision``, which ``seat`` will never answer: the game ended, or the seat left (R-TURN-4).

    Called before the decision is dropped. The plugin that created it puts every card it holds
    back where the rules say (a tunnel's base returns to the hand, revealed cards go to the
    discard, offered tickets go back under the deck). Returns nothing.
    """


@hookspec(firstresult=True)
@policy
def ttr_final_round_triggered(game: Game, seat: int) -> bool | None:
    """Return True if the turn ``seat`` just finished starts the final round (R-END-1).

    Called after every turn until the final round has begun. The core then gives every active
    player, the triggering one included, one more turn. Policy: one plugin answers.
    """


@hookspec
def ttr_view(game: Game, seat: int | None) -> Mapping[str, Any] | None:
    """Return this plugin's part of what ``seat`` may see (``None``: a spectator), as JSON data.

    Called by ``game.view``. The answers are merged into the view under ``"rules"``; a plugin
    must return only what that seat is entitled to see (R-TIX-4: others' tickets are hidden).
    """


# -------------------------------------------------------------------------------------------
# Drawing train cards and the open row
# -------------------------------------------------------------------------------------------


@hookspec(firstresult=True)
@policy
def ttr_open_row_refill() -> str:
    """Return when an emptied open-row slot is refilled: ``"immediately"`` or ``"end-of-turn"`` (R-ROW-1).

    Called once per ruleset. Policy: one plugin answers.
    """


@hookspec
def ttr_open_row_needs_reset(game: Game, row: Sequence[int]) -> bool | None:
    """Return True if the open row ``row`` (card ids, -1 for an empty slot) must be reset (R-ROW-2, R-ROW-4).

    Called after the row is filled or refilled. All answers are asked; any True resets the row.
    """


@hookspec
def ttr_card_takeable(game: Game, seat: int, slot: int, card: int) -> bool | None:
    """Return False if ``seat`` may not take the face-up ``card`` from open-row ``slot`` (``ussr``: a
    controller is only ever drawn blind, R-CTL-5).

    Called when draws are listed and checked. All answers are asked; any False forbids the pick.
    """


@hookspec
def ttr_card_taken(game: Game, seat: int, slot: int | None, card: int) -> None:
    """Called after ``seat`` took ``card`` from open-row ``slot`` (``None``: blind from the deck).

    The open-row plugin refills here when the refill is immediate. Returns nothing.
    """


# -------------------------------------------------------------------------------------------
# Claiming routes
# -------------------------------------------------------------------------------------------


@hookspec
def ttr_closed_routes(game: Game, seat: int) -> Mapping[int, str] | None:
    """Return the free routes ``seat`` may not claim now, as ``{route index: reason}`` (R-PAR-1..2).

    Called when a claim is checked and when legal actions are listed. All answers are merged.
    """


@hookspec(firstresult=True)
@policy
def ttr_ferry_payment() -> Any:
    """Return the ferry payment rule (R-FER-1..2), an object with ``problem(route, locomotives, triples)``,
    ``min_locomotives(route)`` and ``options(route, colored, locomotives)``.

    Called once per ruleset. Without an answer, ferry marks are ordinary spaces and triples are
    refused. Policy: one plugin answers.
    """


@hookspec(firstresult=True)
def ttr_claim_started(game: Game, seat: int, route: Route, payment: Any) -> Decision | None:
    """Begin a checked claim. Return a decision to make it a multi-step action (a tunnel, R-TUN-1),
    or None to let the claim complete at once.

    Called after the claim passed every check, before any card moves. A plugin returning a
    decision takes the payment into its care and finishes or cancels the claim later.
    Stops at first non-None result.
    """


@hookspec
def ttr_route_claimed(game: Game, seat: int, route: Route) -> None:
    """Called after ``route`` became ``seat``'s (cards paid, trains placed, points scored). Returns nothing."""


@hookspec
def ttr_route_released(game: Game, seat: int, route: Route) -> None:
    """Called after ``route`` stopped being ``seat``'s and became free again (a ``ussr`` controller
    dismantled it, R-CTL-2: trains and points already given back). Returns nothing. A plugin that
    keeps per-route facts in ``game.state.ext`` forgets them here."""


# -------------------------------------------------------------------------------------------
# Tickets and the end of the game
# -------------------------------------------------------------------------------------------


@hookspec
def ttr_borrowable_routes(game: Game, seat: int) -> Sequence[tuple[str, Sequence[int]]] | None:
    """Return groups of routes ``seat`` may borrow for tickets: ``[(label, [route index, ...]), ...]``.

    Called when tickets are scored. From each group exactly one route is borrowed, the same one
    for every ticket (R-STA-3..4); the ticket plugin picks the choice that scores best.
    """


@hookspec(firstresult=True)
@policy
def ttr_ticket_outcomes(game: Game, seat: int) -> TicketOutcome:
    """Return which of ``seat``'s tickets are completed and failed (R-TIX-2, R-SCORE-2).

    Called once per player when the game is scored. Policy: one plugin answers.
    """


@hookspec
def ttr_end_bonuses(game: Game, outcomes: Sequence[TicketOutcome]) -> Sequence[Bonus] | None:
    """Return the end-of-game bonus lines this plugin awards (R-BON-1..4), one ``Bonus`` per seat awarded.

    Called once when the game is scored, with every player's ticket outcome (by seat). All
    answers are collected.
    """


@hookspec(firstresult=True)
@policy
def ttr_choose_winners(game: Game, scores: Sequence[PlayerScore]) -> Winners:
    """Return the winners among ``scores`` and what decided it (the winner row, tie-breakers).

    Called once when the game is scored. Policy: one plugin answers.
    """


@hookspec
def ttr_load_position(game: Game, seat: int, entry: Mapping[str, Any]) -> Sequence[str] | None:
    """Read this plugin's keys of one player's entry in a hand-given position (``ttr score``), such as
    ``stations``, into the state; return the keys it consumed.

    Called once per player when a position is loaded, after routes and tickets are placed. A key
    that no plugin consumes is reported as an error.
    """


@hookspec
def ttr_dump_position(game: Game, seat: int) -> Mapping[str, Any] | None:
    """Return this plugin's keys of ``seat``'s entry in a position (the inverse of ``ttr_load_position``),
    e.g. ``{"stations": ["Paris"]}``. Called when a finished game is exported for rescoring under
    another variant (``ttr rescore``). All answers are merged.
    """


@hookspec
def ttr_invariant_problems(game: Game) -> Sequence[str] | None:
    """Return what is wrong with this plugin's part of the state (e.g. stations on board + in supply
    no longer 3 per player), or nothing. Called by ``ttr_kit.testing.invariant_problems`` after
    every action of the test suites and the soak run. All answers are collected.
    """
