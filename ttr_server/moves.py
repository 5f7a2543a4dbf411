"""What the game page shows beside the board, read from the stored actions: the move log (every
turn in words, ``ttr_analysis.move_words``), what the variant's plugins mark on the board at the
end (``ttr_core.scoring.highlights``: the longest trails, the stations' borrows), and why a seat
cannot claim a route.

The words of a turn are read from what changed between two states, so they need the game as it
was before and after each action: a replica of each followed game is kept here, advanced from
the stored log (never from the service's live game, whose lock serves the players). The words
name nothing hidden: cards drawn blind and tickets are never named, and neither are the fields of
an action the words do not know (a plugin's own action could carry a card), so every reader,
seat or spectator, gets the same log.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

import attrs

from ttr_analysis.move_words import Turn, Turns, final_round_words
from ttr_core import variant
from ttr_core.claims import CANNOT_PAY, claim_options
from ttr_core.game import Game
from ttr_core.scoring import Highlight, highlights
from ttr_server.errors import NotFound, NotOver
from ttr_server.service import GameService

#: replicas kept (the games followed most recently)
CACHE = 256


@attrs.define
class _Replica:
    game: Game
    turns: Turns
    done: list[dict[str, Any]]
    lock: threading.Lock = attrs.field(factory=threading.Lock)
    #: what the plugins mark on the board once the game is over (it cannot change after)
    highlights: tuple[Highlight, ...] | None = None

    @property
    def version(self) -> int:
        return len(self.game.log)


class GamePageData:
    """The move log, the highlights at the end and claim refusals of the service's games."""

    def __init__(self, service: GameService, cache: int = CACHE):
        self.service = service
        self.cache = cache
        self._replicas: OrderedDict[str, _Replica] = OrderedDict()
        self._guard = threading.Lock()

    # --- what the page asks ---------------------------------------------------------------------

    def moves(self, game_id: str, since: int = 0) -> dict[str, Any]:
        """The turns whose last action is after action ``since`` (0: all), oldest first; the turn
        still going on, if any, is the last (``over`` false)."""
        replica = self._replica(game_id)
        with replica.lock:
            self._catch_up(game_id, replica)
            turns = [t for t in replica.done if t["last"] > since]
            going = replica.turns.going
            if going is not None and going.last > since:
                turns.append(_turn_data(going, None))
            return {"game": game_id, "version": replica.version, "moves": turns}

    def highlights(self, game_id: str) -> dict[str, Any]:
        """What the variant's plugins mark on the board of the final position (``ttr_highlights``):
        routes per seat with their words, once the game is over; none if no plugin answers."""
        replica, shown = self._highlights(game_id)
        return {"game": game_id, "version": replica.version, "highlights": [h.to_data() for h in shown]}

    def trails(self, game_id: str) -> dict[str, Any]:
        """Each seat's trail among the highlights (the longest trail, R-BON-1, when the variant
        has that bonus), route by route, once the game is over: the older form of
        :meth:`highlights`, kept for its clients."""
        replica, shown = self._highlights(game_id)
        routes = replica.game.board.routes
        index = replica.game.board.route_index
        out: dict[int, dict[str, Any]] = {}
        for h in shown:
            if h.shape == Highlight.TRAIL and h.seat not in out:
                length = sum(routes[index[r]].length for r in h.routes)
                out[h.seat] = {"seat": h.seat, "length": length, "routes": list(h.routes)}
        return {"game": game_id, "version": replica.version, "trails": [out[s] for s in sorted(out)]}

    def _highlights(self, game_id: str) -> tuple[_Replica, tuple[Highlight, ...]]:
        replica = self._replica(game_id)
        with replica.lock:
            self._catch_up(game_id, replica)
            if not replica.game.over:
                raise NotOver("the highlights of the final position are shown once the game is over")
            if replica.highlights is None:
                replica.highlights = highlights(replica.game)
            return replica, replica.highlights

    def claim_check(self, game_id: str, seat: int, route: str) -> dict[str, Any]:
        """Whether ``seat`` could claim ``route`` with its hand now, and if not, why (the engine's
        refusal: its code and reason) and, when the hand is short, the fewest cards it lacks."""
        replica = self._replica(game_id)
        with replica.lock:
            self._catch_up(game_id, replica)
            game = replica.game
            if route not in game.board.route_index:
                raise NotFound(f"no route {route!r} on the map {game.board.id!r}")
            options = claim_options(game, seat, route)
            out = options.to_data()
            del out["payments"]  # the page lists the legal claims from the seat's own snapshot
            out["missing"] = _missing(game, seat, route) if options.refusal and options.refusal.code == CANNOT_PAY else None
            return out

    # --- replicas --------------------------------------------------------------------------------

    def _replica(self, game_id: str) -> _Replica:
        with self._guard:
            replica = self._replicas.get(game_id)
            if replica is not None:
                self._replicas.move_to_end(game_id)
                return replica
        meta = self.service.meta(game_id)  # NotFound for an unknown game
        game = Game(variant.load(meta.variant, meta.rules_version), [s.name for s in meta.seats], meta.seed)
        turns = Turns(fields=False)
        turns.start(game)
        with self._guard:
            replica = self._replicas.setdefault(game_id, _Replica(game, turns, []))
            while len(self._replicas) > self.cache:
                self._replicas.popitem(last=False)
            return replica

    def _catch_up(self, game_id: str, replica: _Replica) -> None:
        upto = self.service.status(game_id).version
        if upto <= replica.version:
            return
        game = replica.game
        for n, seat, data in self.service.store.actions(game_id, replica.version, upto):
            if n != replica.version + 1:
                break  # a gap: the next read tries again
            action = game.registry.from_data(json.loads(data), seat)
            game.apply(seat, action)
            turn = replica.turns.add(game, seat, action)
            if turn is not None:
                replica.done.append(_turn_data(turn, final_round_words(game, seat) if turn.final_round else None))


def _turn_data(turn: Turn, final_round: str | None) -> dict[str, Any]:
    return {
        "first": turn.first, "last": turn.last, "seat": turn.seat, "name": turn.name, "turn": turn.turn,
        "text": f"{turn.name} {turn.text}", "over": turn.over, "routes": list(turn.routes),
        "cities": list(turn.cities), "final_round": final_round,
    }


def _missing(game: Game, seat: int, route_id: str) -> dict[str, int] | None:
    """The fewest cards that, added to the hand, would pay for the route: of one colour (the
    route's, or any for a grey route) and locomotives, fewest in all, then fewest locomotives.
    None if no such cards would do (the route asks for something else)."""
    route = game.board.routes[game.board.route_index[route_id]]
    cards = game.cards
    loco = cards.names[cards.locomotive]
    hand = cards.counts_by_name(list(game.hand_counts(seat)))
    colours = [route.color] if route.color in cards.index else [n for n in cards.names if n != loco]
    for total in range(1, route.length + route.ferry + 1):
        for locos in range(total + 1):
            for colour in colours:
                extra = {colour: total - locos, loco: locos}
                trial = {n: hand.get(n, 0) + extra.get(n, 0) for n in {*hand, *extra}}
                if claim_options(game, seat, route_id, hand=trial).possible:
                    return {n: k for n, k in extra.items() if k}
    return None
