"""Hook specifications: every point where the core asks the rule plugins.

This module lists the hooks the core itself calls, in the order a game meets them: building
the ruleset, setting up a game, the turn, the table (routes claimed and freed), the end of the
game, positions and checks; then the hooks through which applications ask the plugins what to
show of a game (a page's highlights of the final position, an environment's observation), which
no game calls. A plugin that offers an extension point of its own to other plugins
(the claiming plugin's ``ttr_claim_started``, the tickets plugin's ``ttr_ticket_deal``...)
declares it itself through ``ttr_addhooks``, as pytest plugins do with ``pytest_addhooks``: the
plugin reference (``docs/plugins.md``) lists both kinds.

Each docstring says who calls the hook and when, what it returns, and whether the first result
wins ("Stops at first non-None result"). Hooks are called with keyword arguments and an
implementation may take any subset of them (pluggy), so a spec can grow without breaking plugins.

Three markers say more about single-answer hooks; :mod:`ttr_core.manager` enforces them when a
ruleset is built:

* ``@single_answer``: at most one plugin of a variant implements it; two is an error naming both
  (wrappers, ``hookimpl(wrapper=True)``, may still adjust the answer);
* ``@per_ruleset``: asked once per ruleset, never per game, and kept (``game.policy``); such a
  hook takes no ``game`` argument, since its answer serves every game of the ruleset;
* ``@required``: a variant must enable a plugin that answers it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from ttr_core.actions import Action, ActionRegistry
    from ttr_core.board import Board, Route
    from ttr_core.cards import CardKinds
    from ttr_core.claims import ClaimOptions
    from ttr_core.game import Game
    from ttr_core.observing import ObservationPart
    from ttr_core.scoring import Bonus, Highlight, PlayerScore, TicketOutcome, Winners
    from ttr_core.seat_view import SeatView
    from ttr_core.state import Decision
    from ttr_core.table import Refusal

PROJECT = "ttr"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

#: the attribute on a spec function that holds its markers
MARKS = "ttr_marks"
SINGLE_ANSWER, PER_RULESET, REQUIRED = "single-answer", "per-ruleset", "required"


def _marker(mark: str) -> Callable:
    def marked(fn: Callable) -> Callable:
        setattr(fn, MARKS, frozenset({mark, *getattr(fn, MARKS, ())}))
        return fn

    marked.__name__ = mark.replace("-", "_")
    marked.__doc__ = f"Mark a hook spec as {mark} (see the module docstring)."
    return marked


single_answer = _marker(SINGLE_ANSWER)
per_ruleset = _marker(PER_RULESET)
required = _marker(REQUIRED)


def marks_of(spec_function: Callable) -> frozenset[str]:
    """The markers of a hook spec function (empty for a hook without any)."""
    return getattr(spec_function, MARKS, frozenset())


# -------------------------------------------------------------------------------------------
# Building a ruleset: once per variant and rules version, before any game
# -------------------------------------------------------------------------------------------


@hookspec(historic=True)
def ttr_addhooks(pluginmanager: pluggy.PluginManager) -> None:
    """Declare the hooks this plugin offers to other plugins: ``pluginmanager.add_hookspecs(MyHooks)``.

    Called by the core's plugin manager once per plugin, when it is registered (a historic hook:
    a plugin registered later is called too). The declaring plugin is the one that calls its hooks;
    the plugins implementing them name it in their ``requires``. Returns nothing.

    Example::

        class OpenRowHooks:
            @hookspec
            def ttr_open_row_needs_reset(game, row): ...

        class OpenRow(Plugin):
            @hookimpl
            def ttr_addhooks(self, pluginmanager):
                pluginmanager.add_hookspecs(OpenRowHooks)
    """


@hookspec
def ttr_register_actions(registry: ActionRegistry) -> None:
    """Register the action types this plugin handles, with their handlers.

    Called by the core once per ruleset, when it is built, before any game (the registry serves
    every game of the ruleset, so handlers keep no game state either). Use
    ``registry.add(ActionClass, handler)``; a kind registered twice is an error naming both
    plugins. Returns nothing.

    Example::

        @hookimpl
        def ttr_register_actions(self, registry):
            registry.add(BuildStation, self)   # self.legal / self.check / self.apply
    """


@hookspec
@per_ruleset
def ttr_deck_cards(board: Board) -> Mapping[str, int] | None:
    """Return the train cards this plugin puts into the deck, as ``{card name: count}`` (R-SET-2).

    Called by the core once per ruleset, when it is built. The answers of all plugins are added
    up, so a plugin adding 2 controller cards returns ``{"controller": 2}``.

    Example::

        @hookimpl
        def ttr_deck_cards(self):
            return {"controller": self.config.count}
    """


@hookspec(firstresult=True)
@single_answer
@per_ruleset
@required
def ttr_route_points() -> Mapping[int, int]:
    """Return the points of a route by its length, ``{length: points}`` (R-SCORE-1).

    Called by the core once per ruleset, when it is built. The answer is what
    ``game.route_points(length)`` reads (bots weigh routes by it) and what ``ttr_route_score`` is
    asked with: the built-in answer there scores each route by this table, so a wrapper of this
    hook changes the points of every route of a length. Stops at first non-None result.

    Example::

        @hookimpl
        def ttr_route_points(self):
            return {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}
    """


@hookspec(firstresult=True)
@single_answer
@per_ruleset
@required
def ttr_route_score(route: Route, table: Mapping[int, int]) -> int | None:
    """Return the points ``route`` scores when it is claimed (R-SCORE-1), or None if it scores
    nothing under these rules (a variant error: every map route must score).

    ``route`` is the map's route, with its ``length``, ``color``, ``tunnel`` and ``ferry`` marks,
    its cities and its ``parallel`` routes; ``table`` is the points by length that
    ``ttr_route_points`` answered (wrappers included).

    Called by the core once per route of the map when the ruleset is built, before any game; the
    answers are kept, and ``game.route_score(route)``, ``game.place_route``, ``game.free_route``
    and the end of the game's route points read them. The ``route-points`` plugin answers with
    ``table[route.length]``; a house rule about some routes wraps that answer. Stops at first
    non-None result.

    Example::

        @hookimpl(wrapper=True)
        def ttr_route_score(self, route):
            points = yield   # the variant's answer: by length
            return points // 2 if route.ferry else points   # house rule: ferries score half
    """


# -------------------------------------------------------------------------------------------
# Setting up a game
# -------------------------------------------------------------------------------------------


@hookspec
def ttr_game_created(game: Game) -> None:
    """Set up this plugin's part of a new game (the open row's slots, say).

    Called by the core once per game, after the decks are built and shuffled and each plugin's
    typed ``State`` is created, before any card is dealt. Returns nothing.

    Example::

        @hookimpl
        def ttr_game_created(self, game):
            game.state.open_row = [-1] * self.config.size
    """


@hookspec
def ttr_setup_table(game: Game) -> None:
    """Deal: starting hands, the open row, starting tickets (R-SET-3, R-SET-4).

    Called by the core once per game, after ``ttr_game_created``. Dealing the hands is
    ``tryfirst``, the open row ``trylast``. A plugin that needs each player to decide something
    before the first turn (choosing starting tickets) sets that player's ``decision``; the first
    turn starts once no player has one (R-SET-6). Returns nothing.

    Example::

        @hookimpl(tryfirst=True)
        def ttr_setup_table(self, game):
            for player in game.state.players:
                player.hand[game.draw_card()] += 1
    """


# -------------------------------------------------------------------------------------------
# The turn
# -------------------------------------------------------------------------------------------

@hookspec(firstresult=True)
@single_answer
@required
def ttr_first_seat(game: Game) -> int:
    """Return the seat that takes the first turn of the game, one that has not resigned.

    Called by the core once per game, when the setup is over (no player has a decision pending,
    R-SET-6), before ``ttr_turn_started`` for that seat. The ``turn-order`` plugin answers the
    first seat still in the game [engine decision: a host seats the players in the order it
    wants]; a house rule choosing another seat wraps that answer. Stops at first non-None result.

    Example::

        @hookimpl(wrapper=True)
        def ttr_first_seat(self, game):
            yield   # the variant's answer, replaced: the youngest player, seated last, starts
            return game.active_seats()[-1]
    """



@hookspec
def ttr_turn_started(game: Game, seat: int) -> None:
    """Called by the core when ``seat``'s turn begins, the first turn of the game included.
    Returns nothing.

    Example::

        @hookimpl
        def ttr_turn_started(self, game, seat):
            self.state(game).turns_started[seat] += 1
    """


@hookspec
def ttr_turn_ended(game: Game, seat: int, action: Action) -> None:
    """Called by the core when ``seat``'s turn is over (no decision pending), before the
    end-of-game check; ``action`` is the last action of the turn.

    Plugins refill the open row here (R-ROW-1, ``wor``), count passes, or end the game themselves
    with ``game.finish(reason)``. Returns nothing.

    Example::

        @hookimpl
        def ttr_turn_ended(self, game, action):
            if action.kind == "pass":
                self.state(game).passes_in_a_row += 1
    """


@hookspec
def ttr_decision_cancelled(game: Game, seat: int, decision: Decision) -> None:
    """Undo ``decision``, which ``seat`` will never answer: the game ended, or the seat left (R-TURN-4).

    Called by the core (``game.cancel_decision``) before the decision is dropped. The plugin that
    created it puts every card it holds back where the rules say (a tunnel's base returns to the
    hand, revealed cards go to the discard, offered tickets go back under the deck). Returns
    nothing.

    Example::

        @hookimpl
        def ttr_decision_cancelled(self, game, decision):
            if isinstance(decision, ChooseTickets):
                game.state.ticket_deck[:0] = list(decision.offered)
    """


@hookspec(firstresult=True)
@single_answer
@required
def ttr_final_round_triggered(game: Game, seat: int) -> bool | None:
    """Return True if the turn ``seat`` just finished starts the final round (R-END-1).

    Called by the core after every turn until the final round has begun. The core then asks
    ``ttr_final_round_seats`` who plays in it. Stops at first non-None result.

    Example::

        @hookimpl
        def ttr_final_round_triggered(self, game):
            return any(p.trains <= 2 for p in game.state.players if not p.resigned)
    """


@hookspec(firstresult=True)
@single_answer
@required
def ttr_final_round_seats(game: Game, seat: int) -> Sequence[int]:
    """Return the seats that each take one more turn, now that the turn ``seat`` just finished
    started the final round (R-END-1).

    Called by the core once per game, right after ``ttr_final_round_triggered`` answered True.
    The core keeps the seats in ``game.state.final_round`` (resigned ones left out), takes each
    seat off as it finishes a turn, and ends the game once none is left; ``ttr_next_seat`` still
    says who plays next, and should name a seat that is still listed. The ``turn-order`` plugin
    answers every seat, the triggering one included, from the next one in seat order. Stops at
    first non-None result.

    Example::

        @hookimpl(wrapper=True)
        def ttr_final_round_seats(self, game, seat):
            seats = yield   # house rule: whoever ends the game does not play again
            return [s for s in seats if s != seat]
    """


@hookspec(firstresult=True)
@single_answer
@required
def ttr_next_seat(game: Game, seat: int) -> int | None:
    """Return the seat that plays after ``seat``, whose turn just ended: one that has not
    resigned, or None when no seat is left to play (the core then ends the game).

    Called by the core after every turn that does not end the game, after
    ``ttr_turn_ended`` and the final round's checks (``game.state.final_round`` is the list of
    seats still to play their last turn, or None before the final round), before
    ``ttr_turn_started`` for the seat it answers. The ``turn-order`` plugin answers the next seat
    in seat order that has not resigned (R-TURN-1); a house rule changing the order wraps it.
    Stops at first non-None result.

    Example::

        @hookimpl(wrapper=True)
        def ttr_next_seat(self, game, seat):
            after = yield   # house rule: once the final round begins, play goes the other way
            if game.state.final_round is None:
                return after
            active = game.active_seats()
            return active[active.index(seat) - 1]
    """


@hookspec
def ttr_view(game: Game, seat: int | None) -> Mapping[str, Any] | None:
    """Return this plugin's part of what ``seat`` may see (``None``: a spectator), as JSON data.

    Called by the core (``game.view``) whenever a view is built. The answers are merged into the
    view under ``"rules"``; a plugin returns only what that seat is entitled to see (R-TIX-4:
    others' tickets are hidden).

    Example::

        @hookimpl
        def ttr_view(self, game, seat):
            return {"stations": [{"cities": list(cities)} for cities in self.state(game).cities.values()]}
    """


# -------------------------------------------------------------------------------------------
# The table: the deck, routes closed, claimed and freed
# -------------------------------------------------------------------------------------------


@hookspec
def ttr_deck_ran_out(game: Game) -> None:
    """Do what the rules say now that the train-card deck is empty and a card is to be drawn.

    Called by the core (``game.draw_card``) whenever a card is drawn from an empty deck: a blind
    draw, a refill of the open row, a tunnel's revealed cards. The ``train-cards`` plugin shuffles
    the discard pile into a new deck here (R-DRAW-3); the core then draws the new deck's top card,
    or nothing if the deck is still empty. All implementations are called (a plugin registered
    later first, as pluggy orders them, unless ``tryfirst``/``trylast`` says otherwise). Returns
    nothing.

    Example::

        @hookimpl(tryfirst=True)   # before the discard is shuffled in
        def ttr_deck_ran_out(self, game):
            self.state(game).reshuffles[game.state.current] += 1
    """


@hookspec
def ttr_closed_routes(game: Game, seat: int, route: Route | None) -> Mapping[int, str | Refusal] | None:
    """Return the free routes ``seat`` may not claim now, as ``{route index: why}`` (R-PAR-1..2).

    ``why`` is a reason for people (a string: its code is ``closed``), or a ``Refusal(code,
    reason)`` whose code, the refusing plugin's own, tells programs which rule closed it (the
    ``parallel-routes`` plugin gives ``own-parallel`` for R-PAR-1 and ``closed-parallel`` for
    R-PAR-2). Called by the core
    (``game.closures``, ``game.closed_routes``, ``game.claim_problem``) whenever a claim is
    listed or checked, and when a position given by hand places its routes. All answers are
    merged. The answer may depend on the seat and on who owns which route, nothing else: the
    core asks once for each seat until a route changes hands, and keeps the answer meanwhile.

    ``route`` is None when the caller asks about every route (listing claims), or the one route
    it asks about (``game.claim_problem``, checking a claim): an implementation may then answer
    for that route alone, and entries for other routes are not read. Leave the parameter out to
    answer for every route always.

    Example::

        @hookimpl
        def ttr_closed_routes(self, game, seat):
            desert = [r for r in game.board.routes if r.a == "Phoenix"]
            return {r.index: Refusal("desert", "no claims in the desert (house rule)") for r in desert}
    """


@hookspec(firstresult=True)
@single_answer
def ttr_claim_options(game: Game, seat: int, route: Route) -> ClaimOptions | None:
    """Return every payment ``seat``'s hand can make for ``route``, as a ``ClaimOptions``
    (``ttr_core.claims``): its ``payments`` (each the claim action to send and the cards it takes),
    cheapest first, or none and a ``Refusal`` with code ``cannot-pay`` saying why.

    Called by the core (``ttr_core.claims.claim_options``) when a program asks what a hand can pay,
    after ``game.claim_problem`` found nothing against the route (not taken, not closed, trains
    enough). The game may be a copy whose seat holds the hand asked about; whose turn it is does
    not matter, and the answer changes nothing. The plugin owning the claim action answers (the
    ``claiming`` plugin, with its own payment check, ferry marks included); a plugin whose rules
    add to a claim wraps the answer (``tunnels`` fills in how many extra cards each payment still
    covers). Stops at first non-None result.

    Example::

        @hookimpl(wrapper=True)
        def ttr_claim_options(self, game, seat, route):
            options = yield   # house rule: no all-locomotive payments
            kept = tuple(p for p in options.payments if set(p.cards) != {"locomotive"})
            return attrs.evolve(options, payments=kept)
    """


@hookspec
def ttr_route_claimed(game: Game, seat: int, route: Route) -> None:
    """Called by the core (``game.place_route``) after ``route`` became ``seat``'s: cards paid,
    trains placed, points scored. Routes of a position given by hand are placed the same way,
    while the game is still in its ``"setup"`` phase: a plugin reacting to play only checks
    ``game.state.phase``. Returns nothing.

    Example::

        @hookimpl
        def ttr_route_claimed(self, game, seat, route):
            if route.tunnel:
                self.state(game).tunnels[seat] += 1
    """


@hookspec
def ttr_route_released(game: Game, seat: int, route: Route) -> None:
    """Called by the core (``game.free_route``) after ``route`` stopped being ``seat``'s and became
    free again (a ``ussr`` controller dismantled it, R-CTL-2), trains and points already given
    back. A plugin that keeps per-route facts forgets them here. Returns nothing.

    Example::

        @hookimpl
        def ttr_route_released(self, game, seat, route):
            if route.tunnel:
                self.state(game).tunnels[seat] -= 1
    """


# -------------------------------------------------------------------------------------------
# The end of the game: tickets, bonuses, winners
# -------------------------------------------------------------------------------------------


@hookspec(firstresult=True)
@single_answer
@required
def ttr_ticket_outcomes(game: Game, seat: int) -> TicketOutcome:
    """Return which of ``seat``'s tickets are completed and failed (R-TIX-2, R-SCORE-2).

    Called by the core once per player when the game is scored. Stops at first non-None result;
    a wrapper (``hookimpl(wrapper=True)``) may adjust the answer, as the example house rules do.

    When the owner still has a choice to make at the end (which route each station borrows,
    R-STA-4), the answer lists the outcomes the owner may choose in ``alternatives`` (each with its
    ``borrows``, ``points`` and ``notes``; the answer itself is one of them, the plugin's own
    preference), and the core chooses what the owner would, by ``ttr_choice_preference``, each
    alternative weighed with what it is worth to the owner, every end bonus included
    (``ttr_end_bonuses`` is asked for each alternative weighed); on equal preferences, the
    plugin's order. Owners' choices can interact (a bonus for the most tickets); R-STA-6: every owner starts from its
    choice by ticket points alone, then every owner at once switches to its best alternative
    given the others' current choices, until nobody switches; a cycle leaves the starting choices
    (``ttr_core.scoring.resolve_choices``). A wrapper that
    changes the answer adjusts every alternative alike with ``outcome.each(...)``; an answer that
    is not among its own alternatives is scored as it is, without a choice.

    Example::

        @hookimpl(wrapper=True)
        def ttr_ticket_outcomes(self, game):
            outcome = yield   # what the variant's ticket plugin answered
            earned = lambda o: sum(game.board.tickets[t].points for t in o.completed)
            return outcome.each(lambda o: attrs.evolve(o, points=earned(o)))
    """


@hookspec(firstresult=True)
@single_answer
def ttr_choice_preference(game: Game, seat: int, outcome: TicketOutcome, points: int) -> Sequence[Any] | None:
    """Return how much the owner of ``seat`` likes ``outcome``, one of the alternatives they may
    choose at the end (``TicketOutcome.alternatives``: the route each station borrows, R-STA-4),
    as a key: the owner takes the alternative with the highest key (keys compare as tuples).

    ``points`` is what the choice is worth to the owner: ``outcome.points`` plus every end bonus
    the owner gets with it, given the other owners' current choices (their route points, the same
    whatever they choose, are left out); when the core makes every owner's starting choice
    (R-STA-6), ``outcome.points`` alone. Called by the core (``ttr_core.scoring.resolve_choices``)
    when the game is scored, for each alternative of an owner who has a choice; the answer depends
    only on the arguments, and answering changes nothing. Equal keys go to the alternative the
    ticket plugin lists first. The ``stations`` plugin answers R-STA-4's order: the most points,
    then the most completed tickets, then the fewest borrowed routes. With no plugin answering,
    every owner keeps the outcome the ticket plugin answered. Stops at first non-None result.

    Example::

        @hookimpl(wrapper=True)
        def ttr_choice_preference(self, outcome, points):
            yield   # house rule: a station borrows as little as it can, points come second
            return (-outcome.borrowed, points)
    """


@hookspec
def ttr_end_bonuses(game: Game, outcomes: Sequence[TicketOutcome]) -> Sequence[Bonus] | None:
    """Return the end-of-game bonus lines this plugin awards (R-BON-1..4), one ``Bonus`` per seat awarded.

    Called by the core when the game is scored, with every player's ticket outcome (by seat): once,
    and once more for each choice an owner weighs when a ticket outcome carries ``alternatives``
    (R-STA-4: a bonus for the most tickets can decide which route a station borrows). So the answer
    depends only on the game and ``outcomes``, and answering changes nothing. All answers are
    collected.

    Example::

        @hookimpl
        def ttr_end_bonuses(self, game, outcomes):
            best = max(len(o.completed) for o in outcomes)
            return [Bonus(o.seat, "globetrotter", 10) for o in outcomes if best and len(o.completed) == best]
    """


@hookspec
def ttr_player_facts(game: Game, seat: int, outcome: TicketOutcome) -> Mapping[str, Any] | None:
    """Return facts about ``seat``'s final position that this plugin knows, as JSON data keyed by
    names of its own: ``{"longest-path": 12}``, ``{"stations": [{"city": "Paris", "borrowed": None}]}``.

    Called by the core once per player when the game is scored, after the owners' choices are made
    (``outcome`` is the ticket outcome chosen, with its ``borrows``). The answers are merged into
    ``PlayerScore.facts``, which hosts and ``ttr score --json`` show; they never change a score.

    Example::

        @hookimpl
        def ttr_player_facts(self, game, seat):
            return {"trains-left": game.state.players[seat].trains}
    """


@hookspec(firstresult=True)
@single_answer
@required
def ttr_choose_winners(game: Game, scores: Sequence[PlayerScore]) -> Winners:
    """Return the winners among ``scores`` and what decided it (the winner row, tie-breakers).

    Called by the core once when the game is scored. Stops at first non-None result.

    Example::

        @hookimpl
        def ttr_choose_winners(self, scores):
            top = max(s.total for s in scores)
            return Winners(tuple(s.seat for s in scores if s.total == top), "score")
    """


# -------------------------------------------------------------------------------------------
# Positions given by hand, and checks
# -------------------------------------------------------------------------------------------


@hookspec
def ttr_load_position(game: Game, seat: int, entry: Mapping[str, Any]) -> Sequence[str] | None:
    """Read this plugin's keys of one player's entry in a hand-given position (``ttr score``), such
    as ``stations``, into the state; return the keys it consumed.

    Called by the core (``ttr_core.position.score_position``) once per player, in seat order, when a
    position is loaded: after that player's routes and tickets are placed, before the next
    player's (a check of the whole board belongs in ``ttr_invariant_problems``). A key that no plugin consumes is reported as an
    error; a plugin raises ``RecordError`` with located problems for a bad value.

    Example::

        @hookimpl
        def ttr_load_position(self, game, seat, entry):
            self.state(game).cities[seat] = list(entry.get("stations", []))
            return ["stations"]
    """


@hookspec
def ttr_dump_position(game: Game, seat: int) -> Mapping[str, Any] | None:
    """Return this plugin's keys of ``seat``'s entry in a position (the inverse of ``ttr_load_position``),
    e.g. ``{"stations": ["Paris"]}``.

    Called by the core (``ttr_core.position.position_of``) when a finished game is exported for
    rescoring under another variant (``ttr rescore``). All answers are merged.

    Example::

        @hookimpl
        def ttr_dump_position(self, game, seat):
            cities = self.state(game).cities[seat]
            return {"stations": list(cities)} if cities else None
    """


@hookspec
def ttr_invariant_problems(game: Game) -> Sequence[str] | None:
    """Return what is wrong with this plugin's part of the state (e.g. stations on the board and in
    the supply no longer adding up to 3 per player), or nothing.

    Called by the core's invariant check (``ttr_core.invariants.invariant_problems``), which the
    test kit and ``ttr variants check --play N`` run after every action. All answers are collected.

    Example::

        @hookimpl
        def ttr_invariant_problems(self, game):
            if any(n < 0 for n in self.state(game).built.values()):
                return ["stations: a negative count of stations built"]
    """


# -------------------------------------------------------------------------------------------
# What applications show of a game: asked by hosts and environments, never by a game
# -------------------------------------------------------------------------------------------


@hookspec
def ttr_highlights(game: Game, seat: int, score: PlayerScore) -> Sequence[Highlight] | None:
    """Return the routes of ``seat``'s final position that this plugin would have a page mark on
    the board, each a ``Highlight`` with a title in players' words: the routes of the longest
    trail (R-BON-1), the route a station borrows (R-STA-3).

    Called by ``ttr_core.scoring.highlights`` once per seat of a finished game, when an
    application asks (the server's game page, ``GET /api/games/{id}/highlights``); never while a
    game plays or is scored, so an answer may take longer than scoring would (walking a trail
    route by route). ``score`` is the seat's ``PlayerScore``: its borrows as chosen, its facts
    (``ttr_player_facts``). All answers are collected, in the variant's plugin order; a variant
    whose plugins answer nothing shows nothing. Answering changes nothing.

    Example::

        @hookimpl
        def ttr_highlights(self, game, seat):
            mine = [game.board.routes[r] for r in game.state.players[seat].routes]
            tunnels = tuple(r.id for r in mine if r.tunnel)
            return [Highlight(seat, "tunnels", f"{len(tunnels)} tunnels", tunnels)] if tunnels else None
    """


@hookspec
def ttr_observation_parts(game: Game) -> Sequence[ObservationPart] | None:
    """Return the parts this plugin adds to what a seat observes in an environment (``ttr_env``),
    each an ``ObservationPart`` (``ttr_core.observing``): its name, size, bounds and meaning, and
    the environment's segment it follows (by default the legal action kinds; the tickets on offer
    follow the seat's tickets).

    Called by ``ttr_core.observing.observation_parts`` once per ruleset and player count, when
    ``ttr_env`` lays out its observation, with ``game`` a game of that ruleset and player count
    just set up (nothing played: its board, card kinds, ``deck_counts`` and the plugin's own state
    give the sizes and bounds). A plugin whose state a seat can see answers, so that a house rule
    replacing a built-in plugin carries its own state into the environment. All answers are
    collected; parts that follow one segment come in the variant's plugin order, and two parts
    of one name are an error. ``ttr_observation_values`` gives their numbers.

    Example::

        @hookimpl
        def ttr_observation_parts(self, game):
            n = len(game.state.players)
            return [ObservationPart("turns-taken", n, high=1000, doc="turns taken, per relative seat")]
    """


@hookspec
def ttr_observation_values(
    board: Board, cards: CardKinds, view: Mapping[str, Any], seat: int, seat_view: SeatView,
) -> Mapping[str, Sequence[float]] | None:
    """Return the numbers of this plugin's observation parts (``ttr_observation_parts``) as
    ``seat`` observes them, ``{part name: numbers}``: the part's first numbers, as many as its
    size at most (the rest, and a part left out, are zeros).

    ``view`` is ``seat``'s view (``game.view(seat)``: public information, its own hand, tickets
    and decision, each plugin's ``ttr_view`` part under ``"rules"``) and ``seat_view`` the same
    seat's typed view (``game.seat_view(seat)``: its pending decision as the plugin's own
    :class:`~ttr_core.state.Decision`, its hand by card id...); with ``board`` and ``cards`` (the
    game's card kinds, in vocabulary order) they are all an answer may read, so nothing hidden
    from the seat reaches its observation. Seats are relative in an observation: seat ``s`` is
    seat ``+(s - seat) % players`` there. Called by ``ttr_core.observing.observation_values``
    each time ``ttr_env`` observes a seat. All answers are merged; the environment clips each
    number to its part's bounds. The environment builds each key of ``view`` when an answer first
    reads it, and ``"rules"`` asks every plugin's ``ttr_view``: an answer that finds what it needs
    in ``seat_view`` (a pending decision, say) spares that work at every step.

    Example::

        @hookimpl
        def ttr_observation_values(self, view, seat):
            taken = view["rules"]["turns-taken"]
            n = len(taken)
            return {"turns-taken": [taken[(seat + k) % n] for k in range(n)]}
    """
