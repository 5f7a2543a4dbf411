"""End-of-game scoring: route points, tickets, bonuses, winners (R-SCORE, R-BON, the winner row).

The core only adds up what the plugins answer; every number comes from a hook.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from ttr_core.game import Game


@attrs.frozen
class TicketOutcome:
    seat: int
    completed: tuple[int, ...]  # ticket indices
    failed: tuple[int, ...]
    points: int  # + completed, - failed (R-SCORE-2)
    notes: tuple[str, ...] = ()  # e.g. which route each station borrowed (R-STA-4)


@attrs.frozen
class Bonus:
    seat: int
    name: str  # "longest-path", "ticket-leader", "unused-stations", ...
    points: int
    detail: str = ""


@attrs.frozen
class PlayerScore:
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

    def bonus(self, name: str) -> int:
        return sum(b.points for b in self.bonuses if b.name == name)


@attrs.frozen
class Winners:
    seats: tuple[int, ...]
    decided_by: str  # "score", "tickets", "longest-path", ... or "shared" for a tie left standing


@attrs.frozen
class GameResult:
    scores: tuple[PlayerScore, ...]
    winners: Winners
    reason: str  # why the game ended


def score_game(game: Game) -> GameResult:
    hook = game.hook
    board = game.board
    outcomes = [hook.ttr_ticket_outcomes(game=game, seat=s) for s in range(len(game.state.players))]
    bonuses: list[Bonus] = [b for answer in hook.ttr_end_bonuses(game=game, outcomes=outcomes) for b in answer or ()]
    scores = []
    for seat, (player, outcome) in enumerate(zip(game.state.players, outcomes)):
        mine = tuple(sorted((b for b in bonuses if b.seat == seat), key=lambda b: b.name))
        routes = sum(game.route_points(board.routes[r].length) for r in player.routes)
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
            )
        )
    winners = hook.ttr_choose_winners(game=game, scores=scores)
    return GameResult(tuple(scores), winners, game.state.end_reason)
