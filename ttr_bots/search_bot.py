"""The search bot: determinised Monte Carlo search over a shortlist of moves, played out by bots.

Its own policy (``SearchBot.policy``) is the route-value bot (:mod:`ttr_bots.route_value_bot`: the
ticket bot planning by what a route is worth in turns and points, fewer and longer routes), which
alone wins far more often against ticket bots than a ticket bot does, in 4-player games above all.
At a decision that matters, it lists a few candidate moves, its policy's move first, and
samples full games consistent with what its seat sees (:mod:`ttr_bots.sampling`: the others'
hands and tickets and the deck dealt anew, from its view only). In games of ``model_players`` or
more, the others' tickets are not dealt at random but drawn by how likely each player holds each
ticket, judged from the routes it claimed (:mod:`ttr_bots.opponent_model`): the ticket bots of
the play-outs then follow plans like the real players'. In each sampled game it plays each
candidate, then the game on to its end, its own seat by its policy and the others by ticket-seeking
bots (``SearchBot.others``), and scores the play-out by its margin over the best other player (a
win counts ``WIN_POINTS`` more). Every candidate is played on the same sampled games by the same bots (common random
numbers), so that the difference between two candidates is not the luck of the deal. It takes the
candidate that gains most over its policy's move, if it gains clearly: by ``CONFIDENCE``
standard errors of the per-game differences. Otherwise it plays its policy's move: with few
play-outs a noisy winner would often be a worse move.

Candidates:

* **tickets to keep**: every offer (its policy judges offers by a plan; here they are played
  out, against the routes the others take);
* **a turn**: its policy's move; drawing new tickets instead of cards while the plan leaves
  trains to spare; the longest claim it can pay if 5 spaces or more; near the end of the game
  (8 trains or fewer, anyone's; 12 in games of more than 2 players), the 4 longest claims, since
  play-outs are short by then;
  optionally (``BLOCK_CLAIMS``, off: it measured no better) the claim of the route whose loss
  would cost the others' likely tickets most;
* other decisions (a second card, a tunnel's extra cards) are its policy's, unsearched.

Budget (:class:`Budget`): ``iterations`` play-outs per decision, spread evenly over its candidates
(at least ``MIN_WORLDS`` sampled games each; by default ``PLAYOUTS``, or ``MANY_PLAYOUTS`` in games of
more than ``MID_GAME_PLAYERS`` players); deterministic, so a game is reproduced from its seed.
``seconds`` optionally caps each decision's time too (a game is then no longer reproducible, as it
depends on the machine's speed). :meth:`SearchBot.with_budget` makes a class with another budget,
for ``local_bots`` or a benchmark.

Fairness: it reads only its view, its legal actions, the public map and the routes' owners, and
samples the rest; its
own generator, seeded from the game seed and its seat, draws the samples. It never uses the game's
generator.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence

import attrs

from ttr_core.actions import Action
from ttr_core.game import Game
from ttr_core.seat_view import SeatView
from ttr_bots import ask
from ttr_bots.opponent_model import TicketModel, likely_tickets, route_needs
from ttr_bots.route_value_bot import RouteValueBot
from ttr_bots.ticket import TicketBot
from ttr_bots.ticket.seen import read_view

#: play-outs per decision by default in games of up to ``MID_GAME_PLAYERS`` players (a usa move then
#: takes at most about 0.6 s of CPU in 2-player games; see the README)
PLAYOUTS = 24
#: play-outs per decision by default in games of more than ``MID_GAME_PLAYERS`` players: only their
#: last turns are searched, whose play-outs are short, and a 4-player margin is noisier, so more
#: play-outs still fit in a second (a usa move then takes at most about 0.7 s of CPU)
MANY_PLAYOUTS = 48
#: a claim of this many spaces or more is tried besides its policy's move (the longest one)
LONG_CLAIM = 5
#: drawing new tickets is tried with this many trains or more, when the plan left needs at most
#: this share of them
MIN_TRAINS_FOR_TICKETS = 12
PLAN_SHARE_FOR_TICKETS = 0.5
#: with this many trains left (its own or anyone's) the game is near its end: the longest
#: ``LATE_CLAIMS`` claims are all tried
LATE_TRAINS = 8
#: the same in games of more than ``MID_GAME_PLAYERS`` players, where only the last turns are
#: searched: from 12 trains the search finds better moves than its policy's more often than it
#: picks worse ones (bench/data/search-model-experiments.jsonl)
MANY_LATE_TRAINS = 12
LATE_CLAIMS = 4
#: in games of at most this many players, decisions before the last turns are searched too (tickets
#: to keep, drawing tickets, a long claim); with more, only the last turns' (``MANY_LATE_TRAINS``). In
#: 4-player usa games against ticket bots every turn searched measured no better than the last
#: turns alone with the others' tickets at random (40% of seeds 1-40), somewhat better with them
#: modelled (52% of seeds 1-46 where the last turns alone won 46%; with their true tickets, an
#: upper bound no fair bot reaches, 55% of seeds 1001-1100 against 42%), but at about 30 times
#: the time and not significantly: bench/data/search-model-experiments.jsonl
MID_GAME_PLAYERS = 2
#: a claim blocking what the others' likely tickets need is tried when it costs them at least this
#: many trains of detour (or a ticket); the ``BLOCK_CLAIMS`` that cost them most (none by default:
#: one measured no better in 4-player usa games, 16 wins of 43 against 19 without)
BLOCK_LOSS = 4
BLOCK_CLAIMS = 0
#: sampled games per decision at least (a spread needs two)
MIN_WORLDS = 2
#: another move replaces its policy's only if it gains this many standard errors on average
#: (for many sampled games; a few need more, as their spread is itself uncertain: Student's t)
CONFIDENCE = 2.0
#: a play-out stops after this many actions (a game of bots ends long before)
MAX_ACTIONS = 5_000
#: points a won play-out counts for, on top of the margin
WIN_POINTS = 10


@attrs.frozen
class Budget:
    """How long the bot thinks about one decision: play-outs, and an optional time cap."""

    iterations: int | None = None  # None: PLAYOUTS
    seconds: float | None = None

    def playouts(self, players: int) -> int:
        """Play-outs per decision in a game of ``players``."""
        if self.iterations is not None:
            return self.iterations
        return PLAYOUTS if players <= MID_GAME_PLAYERS else MANY_PLAYOUTS


class SearchBot:
    """Searches a shortlist of moves by playing sampled games out with bots (determinised Monte Carlo)."""

    name = "search"
    budget = Budget()
    #: its own policy: the default move, and its seat's in play-outs
    policy: type[TicketBot] = RouteValueBot
    #: the other seats' policy in play-outs
    others: type[TicketBot] = TicketBot
    #: from this many players on, the others' tickets in sampled games are drawn by what their routes
    #: tell (:mod:`ttr_bots.opponent_model`), and claims blocking them are tried; with fewer, at random
    model_players = 3

    def __init__(self, seed: int, seat: int):
        self.seat = seat
        self.rng = random.Random(f"search-bot:{seed}:{seat}")
        self.base = self.policy(seed, seat)  # the default move, and the source of candidates
        self.searched = 0  # decisions searched, for the benchmark
        self.playouts = 0
        self.model: TicketModel | None = None  # built for the first game's board

    @classmethod
    def with_budget(cls, iterations: int | None = None, seconds: float | None = None) -> type[SearchBot]:
        """A search bot class thinking ``iterations`` play-outs (None: the default for the number of
        players) and at most ``seconds`` (None: no cap) per decision."""
        return type(cls.__name__, (cls,), {"budget": Budget(iterations, seconds)})

    # --- choosing ---------------------------------------------------------------------------

    def choose(self, view: SeatView) -> Action:
        default = self.base.choose(view)
        candidates = self.candidates(view, default)
        if len(candidates) < 2:
            return default
        seed = self.rng.getrandbits(64)  # drawn whatever happens next, so later decisions do not shift
        return self.search(view, candidates, random.Random(seed))

    def candidates(self, view: SeatView, default: Action) -> list[Action]:
        """The moves worth searching, its policy's first; one only when there is nothing to search."""
        legal = [a for a in view.legal_actions() if a.kind != "resign"]
        kinds = {a.kind for a in legal}
        mid_game = len(view.players) <= MID_GAME_PLAYERS
        late_trains = LATE_TRAINS if mid_game else MANY_LATE_TRAINS
        if "keep-tickets" in kinds:
            return _unique([default, *(a for a in legal if a.kind == "keep-tickets")]) if mid_game else [default]
        if view.decision is not None:
            return [default]
        board = view.board
        seen = read_view(view)
        late = seen.final_round or seen.trains <= late_trains or seen.min_other_trains <= late_trains
        if not late and not mid_game:
            return [default]
        claims = [a for a in legal if a.kind == "claim-route"]
        out = [default]
        if "draw-tickets" in kinds and default.kind == "draw-card" and seen.trains >= MIN_TRAINS_FOR_TICKETS:
            plan = self.base.plan_for(board, seen, claims)
            if plan.cost <= seen.trains * PLAN_SHARE_FOR_TICKETS:
                out.append(next(a for a in legal if a.kind == "draw-tickets"))
        if late:  # the last turns: play-outs are short, and the points of each claim are what counts
            out += _longest_claims(view, claims, LATE_CLAIMS)
        else:
            out += [c for c in _longest_claims(view, claims, 1) if _length(board, c) >= LONG_CLAIM]
        out += self.block_claims(view, claims)
        return _unique(out)

    def block_claims(self, view: SeatView, claims: list[Action]) -> list[Action]:
        """Claims of the routes whose loss would cost the others most (their likely tickets'
        detours, or the tickets themselves), ``BLOCK_CLAIMS`` at most, each costing at least
        ``BLOCK_LOSS``."""
        if BLOCK_CLAIMS <= 0 or not claims:
            return []
        weights = self.ticket_weights(view)
        if not weights:
            return []
        board, owner = view.board, _owners(view)
        mine = set(view.tickets)
        loss: dict[int, float] = {}
        for s, w in weights.items():
            likely = likely_tickets({t: x for t, x in w.items() if t not in mine}, view.players[s].tickets)
            for r, lost in route_needs(board, owner, s, likely, len(view.players) >= 4, self.base.board_index(board)).items():
                loss[r] = loss.get(r, 0.0) + lost
        wanted = {board.routes[r].id for r, lost in loss.items() if lost >= BLOCK_LOSS}
        blocks = _longest_claims(view, [c for c in claims if c.route in wanted], len(wanted))
        blocks.sort(key=lambda c: (-loss[board.route_index[c.route]], c.route))
        return blocks[:BLOCK_CLAIMS]

    def search(self, view: SeatView, candidates: Sequence[Action], rng: random.Random) -> Action:
        """The candidate that beats its policy's move (``candidates[0]``) by most over the same
        sampled play-outs, if it does so clearly (by ``CONFIDENCE`` standard errors); else that move."""
        self.searched += 1
        budget = self.budget
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        seat = view.seat
        worlds = max(MIN_WORLDS, budget.playouts(len(view.players)) // len(candidates))
        values: list[list[float]] = [[] for _ in candidates]
        weights = self.ticket_weights(view)
        for _ in range(worlds):
            world, bots_seed = view.sample_game(rng, weights), rng.getrandbits(32)
            for i, candidate in enumerate(candidates):
                values[i].append(self.playout(world, seat, candidate, bots_seed))
            if deadline is not None and len(values[0]) >= MIN_WORLDS and time.perf_counter() > deadline:
                break
        best, best_gain = 0, 0.0
        for i in range(1, len(candidates)):
            gains = [v - d for v, d in zip(values[i], values[0])]
            mean = statistics.fmean(gains)
            error = statistics.stdev(gains) / len(gains) ** 0.5
            if mean > _critical(len(gains)) * error and mean > best_gain:
                best, best_gain = i, mean
        return candidates[best]

    def ticket_weights(self, view: SeatView) -> dict[int, dict[int, float]] | None:
        """By other seat, how likely it holds each ticket, from the routes it owns (public); None
        when the others' tickets are sampled at random (fewer players than ``model_players``)."""
        players = len(view.players)
        if players < self.model_players:
            return None
        if self.model is None or self.model.board is not view.board:
            self.model = TicketModel(view.board)
        owner = _owners(view)
        return {s: self.model.weights(owner, s) for s in range(players) if s != view.seat}

    def playout(self, world: Game, seat: int, first: Action, bots_seed: int) -> float:
        """``seat``'s margin over the best other player (plus ``WIN_POINTS`` for a win) after playing
        ``first`` in a copy of ``world`` and the game on: its seat by its policy, the others by ticket bots."""
        self.playouts += 1
        sim = world.clone()
        sim.apply(seat, first)
        bots = [(self.policy if s == seat else self.others)(bots_seed, s) for s in range(len(sim.names))]
        index, rules = self.base.board_index(sim.board), self.base.rules_memo(sim.seat_view(seat))
        for bot in bots:
            if isinstance(bot, TicketBot):
                bot.start_from(index, rules)
        for _ in range(MAX_ACTIONS):
            if sim.over:
                break
            s = sim.to_act()[0]
            sim.apply(s, ask(bots[s], sim, s))
        else:
            return 0.0
        totals = [p.total for p in sim.result.scores]
        best_other = max(t for i, t in enumerate(totals) if i != seat)
        won = seat in sim.result.winners.seats
        return totals[seat] - best_other + (WIN_POINTS if won else 0)


def _critical(n: int) -> float:
    """``CONFIDENCE`` standard errors, widened for ``n`` games as Student's t with ``n - 1`` degrees
    of freedom is (Cornish-Fisher expansion): 7.6 for 2 games, 3.2 for 4, 2.3 for 10."""
    z, df = CONFIDENCE, max(1, n - 1)
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def _owners(view: SeatView) -> dict[int, int]:
    """The claimed routes' owners, by route index (public, R-ROUTE-5)."""
    return {r: s for r, s in enumerate(view.owner) if s >= 0}


def _unique(actions: Sequence[Action]) -> list[Action]:
    return list(dict.fromkeys(actions))


def _longest_claims(view: SeatView, claims: list[Action], k: int) -> list[Action]:
    """One payment for each of the ``k`` longest routes claimable: the fewest locomotives, of the
    colour the hand holds most of."""
    hand = view.hand
    board = view.board
    best: dict[str, Action] = {}
    for c in claims:
        key = (c.locomotives, getattr(c, "triples", 0), -hand.get(c.color or "", 0), c.color or "")
        old = best.get(c.route)
        if old is None or key < (old.locomotives, getattr(old, "triples", 0), -hand.get(old.color or "", 0), old.color or ""):
            best[c.route] = c
    ranked = sorted(best.values(), key=lambda c: (-board.routes[board.route_index[c.route]].length, c.route))
    return ranked[:k]


def _length(board, claim: Action) -> int:
    return board.routes[board.route_index[claim.route]].length


#: play-outs per decision of ``search-quick``, whatever the number of players
QUICK_PLAYOUTS = 24


class QuickSearchBot(SearchBot):
    """The search bot on a small fixed budget, for playtests of hundreds of games.

    ``QUICK_PLAYOUTS`` play-outs per decision: the rule-aware player of ``ttr playtest --play``. It scores
    its play-outs by the rules in force, as the search bot does, so it plays to them: in 2-player
    games its ticket choices, ticket draws and long claims, in larger games its last turns' claims."""

    name = "search-quick"
    budget = Budget(QUICK_PLAYOUTS)
