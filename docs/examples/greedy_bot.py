"""A greedy bot: it claims the longest route it can pay for, else draws the colour it needs."""

from ttr_core.actions import Action
from ttr_core.game import Game


class GreedyBot:
    """Claims the longest route it can pay for, else draws the colour its next route needs."""

    name = "greedy"

    def __init__(self, seed: int, seat: int) -> None:
        pass  # it decides from its view alone: no generator to seed, nothing to remember

    def choose(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions(seat)
        by_kind: dict[str, list] = {}
        for action in legal:
            by_kind.setdefault(action.kind, []).append(action)
        if "keep-tickets" in by_kind:  # the fewest, cheapest tickets the rules let it keep
            points = {t.id: t.points for t in game.board.tickets}
            return min(by_kind["keep-tickets"], key=lambda a: sum(points[t] for t in a.tickets))
        if "claim-route" in by_kind:  # the longest route, with the fewest locomotives
            length = {r.id: r.length for r in game.board.routes}
            return max(by_kind["claim-route"], key=lambda a: (length[a.route], -a.locomotives))
        if "draw-card" not in by_kind:
            return legal[0]  # nothing to claim or draw: pass, or whatever else is left
        view = game.view(seat)
        hand, trains = view["you"]["hand"], view["players"][seat]["trains"]
        free = [r for r in game.board.routes if r.id not in view["routes"] and r.length <= trains]
        target = max(free, key=lambda r: (r.length, hand.get(r.color, 0)), default=None)
        color = target.color if target else "gray"  # gray takes any colour: the one held most
        wanted = color if color != "gray" else max(hand, key=hand.get, default="")
        for a in by_kind["draw-card"]:  # the wanted colour face up, else blind, else any
            if a.slot is not None and view["open_row"][a.slot] == wanted:
                return a
        return next((a for a in by_kind["draw-card"] if a.slot is None), by_kind["draw-card"][0])
