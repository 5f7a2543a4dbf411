"""End-of-game scoring: route points, tickets, bonuses, winners (R-SCORE, R-BON, the winner row).

The core only adds up what the plugins answer; every number comes from a hook. One thing it does
itself, because it needs every plugin's answer: when a ticket outcome carries ``alternatives``
(choices the owner makes only at the end, such as the route each station borrows, R-STA-4), it
chooses for each owner what the owner would (:func:`resolve_choices`), by the preference a plugin
answers (``ttr_choice_preference``). Once a game is over, :func:`highlights` asks the plugins
what a page may mark on the board of the final position (``ttr_highlights``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

if TYPE_CHECKING:
    from ttr_core.game import Game


@attrs.frozen
class Borrow:
    """One way a player may use another player's route for tickets (a station, R-STA-3): what lets
    them (``label``, as the answering plugin names it: ``"station in Paris"``) and the route it
    borrows (``"Marseille-Paris"``), or None when it borrows nothing."""

    label: str
    route: str | None = None


@attrs.frozen
class TicketOutcome:
    """One player's tickets at the end (``ttr_ticket_outcomes``).

    ``alternatives``: when the owner still has a choice to make (which route each station borrows,
    R-STA-4), every outcome they may choose, each with its own ``borrows``, ``points`` and ``notes``;
    the outcome itself is one of them (the answering plugin's own preference) and the core picks
    the one the owner would (:func:`resolve_choices`). Empty: no choice.
    """

    seat: int
    completed: tuple[int, ...]  # ticket indices
    failed: tuple[int, ...]
    points: int  # + completed, - failed (R-SCORE-2)
    notes: tuple[str, ...] = ()  # e.g. which route each station borrowed (R-STA-4)
    #: per borrow group (a station): the route borrowed, or None (R-STA-3)
    borrows: tuple[Borrow, ...] = ()
    #: the outcomes the owner may choose between (R-STA-4); empty when there is no choice
    alternatives: tuple[TicketOutcome, ...] = ()

    @property
    def borrowed(self) -> int:
        """How many routes this outcome borrows."""
        return sum(1 for b in self.borrows if b.route is not None)

    def each(self, adjust: Callable[[TicketOutcome], TicketOutcome]) -> TicketOutcome:
        """This outcome and every alternative passed through ``adjust``: what a wrapper of
        ``ttr_ticket_outcomes`` that changes the answer uses, so that every choice is adjusted alike."""
        return attrs.evolve(
            adjust(attrs.evolve(self, alternatives=())), alternatives=tuple(adjust(a) for a in self.alternatives)
        )


@attrs.frozen
class Bonus:
    """Points a bonus plugin gives one player at the end: the longest trail (R-BON-1), the most
    tickets, unused stations... ``detail`` says why, in words (``"longest trail: 23"``)."""

    seat: int
    name: str  # "longest-path", "ticket-leader", "unused-stations", ...
    points: int
    detail: str = ""


@attrs.frozen
class PlayerScore:
    """One player's final score, line by line: ``total = routes + ticket_points + sum of bonuses``.
    ``tickets_completed``/``tickets_failed`` are ticket ids; ``notes`` are the scoring plugins'
    remarks in words; ``resigned`` players are scored but cannot win."""

    seat: int
    name: str
    routes: int
    tickets_completed: tuple[str, ...]
    tickets_failed: tuple[str, ...]
    ticket_points: int
    bonuses: tuple[Bonus, ...]
    total: int
    resigned: bool = False
    notes: tuple[str, ...] = ()
    #: per borrow group (a station): the route borrowed, or None (R-STA-3), from the ticket outcome
    borrows: tuple[Borrow, ...] = ()
    #: facts about the player's final position that plugins answer (``ttr_player_facts``), as JSON
    #: data: ``{"longest-path": 12, "stations": [{"city": "Paris", "borrowed": "Marseille-Paris"}]}``
    facts: Mapping[str, Any] = attrs.field(factory=dict, eq=True, hash=False)

    def bonus(self, name: str) -> int:
        return sum(b.points for b in self.bonuses if b.name == name)


@attrs.frozen
class Winners:
    """Who won: one seat, or several when a tie is left standing (``decided_by == "shared"``);
    ``decided_by`` names what settled it: the score, or the tie-breaker that did."""

    seats: tuple[int, ...]
    decided_by: str  # "score", "tickets", "longest-path", ... or "shared" for a tie left standing


@attrs.frozen
class GameResult:
    """The end of a game (``game.result``): every seat's score in seat order, the winners, and
    ``reason``, why the game ended, in words."""

    scores: tuple[PlayerScore, ...]
    winners: Winners
    reason: str  # why the game ended


@attrs.frozen
class Highlight:
    """Routes of a final position that a page may mark on the board for one seat, and what they
    mean (``ttr_highlights``): the routes of a longest trail (R-BON-1), the route a station
    borrows (R-STA-3).

    ``name`` is the answering plugin's key for it (its name, or a ``fact_titles`` key); ``title``
    says it in players' words, to follow the owner's name ("Ada's longest trail: 12 spaces");
    ``routes`` are route ids, in walking order for a trail; ``shape`` says how to draw them:
    ``"trail"``, the routes join end to end and make one line, or ``"routes"``, each is marked
    on its own."""

    TRAIL: ClassVar[str] = "trail"
    ROUTES: ClassVar[str] = "routes"

    seat: int
    name: str
    title: str
    routes: tuple[str, ...]
    shape: str = attrs.field(default="routes", validator=attrs.validators.in_(("trail", "routes")))

    def to_data(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "title": self.title, "routes": list(self.routes), "shape": self.shape}


def highlights(game: Game) -> tuple[Highlight, ...]:
    """What the variant's plugins would have a page mark on the board of a finished game
    (``ttr_highlights``): seat by seat, each seat's in the variant's plugin order. Empty before
    the end, and in a variant whose plugins answer nothing."""
    if game.result is None:
        return ()
    out: list[Highlight] = []
    for score in game.result.scores:
        answers = game.hook.ttr_highlights(game=game, seat=score.seat, score=score)
        for answer in reversed(answers):  # pluggy answers the plugin registered last first
            out.extend(answer or ())
    return tuple(out)


def score_game(game: Game) -> GameResult:
    hook = game.hook
    board = game.board
    answered = [hook.ttr_ticket_outcomes(game=game, seat=s) for s in range(len(game.state.players))]
    outcomes, bonuses = resolve_choices(game, answered)
    scores = []
    for seat, (player, outcome) in enumerate(zip(game.state.players, outcomes)):
        mine = tuple(sorted((b for b in bonuses if b.seat == seat), key=lambda b: b.name))
        routes = 0
        for r in player.routes:
            routes += game.route_score(board.routes[r])
        facts: dict[str, Any] = {}
        for answer in hook.ttr_player_facts(game=game, seat=seat, outcome=outcome):
            facts.update(answer or {})
        scores.append(
            PlayerScore(
                seat=seat,
                name=player.name,
                routes=routes,
                tickets_completed=tuple(board.tickets[t].id for t in outcome.completed),
                tickets_failed=tuple(board.tickets[t].id for t in outcome.failed),
                ticket_points=outcome.points,
                bonuses=mine,
                total=routes + outcome.points + sum(b.points for b in mine),
                resigned=player.resigned,
                notes=outcome.notes,
                borrows=outcome.borrows,
                facts=facts,
            )
        )
    winners = hook.ttr_choose_winners(game=game, scores=scores)
    return GameResult(tuple(scores), winners, game.state.end_reason)


def resolve_choices(game: Game, answered: Sequence[TicketOutcome]) -> tuple[list[TicketOutcome], list[Bonus]]:
    """Choose, for every owner whose ticket outcome carries ``alternatives``, the one the owner
    would (R-STA-4); return the chosen outcomes (by seat) and the end bonuses they give.

    An owner prefers the alternative with the highest key that ``ttr_choice_preference`` answers
    for it, asked with what the choice is worth to the owner (its ticket points plus every bonus
    ``ttr_end_bonuses`` gives them with it: a bonus for the most completed tickets counts; routes
    are fixed); on equal keys, the alternative the answering plugin lists first. Never the seat.
    With no plugin answering that hook, every owner keeps the outcome answered.

    Owners' choices can interact (one's completed tickets decide another's majority bonus); they
    are resolved as R-STA-6 says: every owner starts from its choice by its own ticket points
    alone; then every owner at once switches to its best choice given the others' current ones;
    this repeats until nobody switches. If the switching comes back to choices seen before (a
    cycle: no choices exist that every owner keeps), the starting choices stand. Every owner
    moves at once, so seat order never changes a result.

    An outcome that is not among its own alternatives (a wrapper changed the answer without
    ``TicketOutcome.each``) is kept as answered: no choice.
    """
    options = [_options(o) for o in answered]
    preferred = game.hook.ttr_choice_preference
    if not preferred.get_hookimpls():  # nobody says how an owner chooses: the answers stand
        options = [(attrs.evolve(o, alternatives=()),) for o in answered]
    tried: dict[tuple[int, ...], list[Bonus]] = {}

    def bonuses(choices: tuple[int, ...]) -> list[Bonus]:
        if choices not in tried:
            outcomes = [options[s][i] for s, i in enumerate(choices)]
            answers = game.hook.ttr_end_bonuses(game=game, outcomes=outcomes)
            tried[choices] = [b for answer in answers for b in answer or ()]
        return tried[choices]

    def preference(seat: int, i: int, points: int) -> tuple:
        key = preferred(game=game, seat=seat, outcome=options[seat][i], points=points)
        return (*(key or ()), -i)

    def by_ticket_points(seat: int) -> int:
        if len(options[seat]) == 1:  # no choice (most owners)
            return 0
        return max(range(len(options[seat])), key=lambda i: preference(seat, i, options[seat][i].points))

    def best_given(seat: int, others: tuple[int, ...]) -> int:
        if len(options[seat]) == 1:
            return 0

        def total(i: int) -> int:
            choices = (*others[:seat], i, *others[seat + 1:])
            return options[seat][i].points + sum(b.points for b in bonuses(choices) if b.seat == seat)

        return max(range(len(options[seat])), key=lambda i: preference(seat, i, total(i)))

    start = tuple(by_ticket_points(seat) for seat in range(len(options)))
    seen, chosen = {start}, start
    while True:
        switched = tuple(best_given(seat, chosen) for seat in range(len(options)))
        if switched == chosen:
            break
        if switched in seen:  # a cycle: the choices by ticket points stand (R-STA-6)
            chosen = start
            break
        seen.add(switched)
        chosen = switched
    return [options[s][i] for s, i in enumerate(chosen)], bonuses(chosen)


def _options(outcome: TicketOutcome) -> tuple[TicketOutcome, ...]:
    """The outcomes an owner may choose between (the answered one alone when there is no choice)."""
    plain = attrs.evolve(outcome, alternatives=()) if outcome.alternatives else outcome
    alternatives = tuple(attrs.evolve(a, alternatives=()) if a.alternatives else a for a in outcome.alternatives)
    return alternatives if plain in alternatives else (plain,)
