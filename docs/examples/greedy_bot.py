"""A greedy bot: it claims the longest route it can pay for, else draws the colour it needs."""

from ttr_core.actions import Action
from ttr_core.seat_view import SeatView


class GreedyBot:
    """Claims the longest route it can pay for, else draws the colour its next route needs."""

    name = "greedy"

    def __init__(self, seed: int, seat: int) -> None:
        pass  # it decides from its view alone: no generator to seed, nothing to remember

    def choose(self, view: SeatView) -> Action:
        if view.actions("keep-tickets"):  # the fewest, cheapest tickets the rules let it keep
            points = {t.id: t.points for t in view.board.tickets}
            return min(view.actions("keep-tickets"), key=lambda a: sum(points[t] for t in a.tickets))
        if view.actions("claim-route"):  # the longest route, with the fewest locomotives
            length = {r.id: r.length for r in view.board.routes}
            return max(view.actions("claim-route"), key=lambda a: (length[a.route], -a.locomotives))
        draws = view.actions("draw-card")
        if not draws:
            return view.legal_actions()[0]  # nothing to claim or draw: pass, or whatever else is left
        hand = view.hand
        free = [r for r in view.board.routes if view.owner[r.index] < 0 and r.length <= view.trains]
        target = max(free, key=lambda r: (r.length, hand.get(r.color, 0)), default=None)
        color = target.color if target else "gray"  # gray takes any colour: the one held most
        wanted = color if color != "gray" else max(hand, key=hand.get, default="")
        for a in draws:  # the wanted colour face up, else blind, else any
            if a.slot is not None and view.open_row[a.slot] == wanted:
                return a
        return next((a for a in draws if a.slot is None), draws[0])
