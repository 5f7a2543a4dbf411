"""Playtest figures for rule designers: what a rule set does to the game, per player count.

The games are seeded bot games (:mod:`ttr_analysis.simulate`, records kept), and every figure is
computed from the replayed records: each record is replayed action by action
(:func:`game_facts`), which is how the turn each route was claimed, the passes, and the moment the
deck and the discard ran out are seen. Per player count (:func:`figures`):

* **balance**: win rate by seat and by bot style, the score edge of each seat over its table's
  mean, scores and game length, how games end, what decided the winner;
* **board**: how often each route is claimed, when, by which style; how much of each city's
  routes is claimed; the routes claimed early (the contested ones) and the doubles taken twice;
* **tickets**: completion rate and net points of each ticket held at the end;
* **bonuses**: how often each is given, to which seat and style, and how often it decides the winner;
* **failures**: games ended by passing, deck and discard exhausted, players passing turn after
  turn, resignations, with a seed of an example game.

The bot styles are rotated over the seats from game to game (game ``i`` shifts the lineup by
``i``), so each style sits in each seat equally often and a seat's figures are not one style's.

With a second rule set (``against``), the same seeds are played under it, every figure gets its
difference (:func:`differences`, against minus variant, with a 95% interval), and the games of the
variant are rescored under it (:func:`rescored`), which says what its scoring alone changes.
How the players played under each (:mod:`ttr_analysis.behaviour`) is compared seed by seed; the
plan's ``mode`` says which comparison the run is for: ``rescore`` (bots blind to the scoring, so
the same games) or ``play`` (bots that play to the rules in force, :data:`PLAY_BOTS`).
"""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from ttr_analysis import behaviour, playtest_front, stats, table_watch
from ttr_analysis.table_watch import TableTrouble, TableWatch
from ttr_analysis.rescore import TOTAL, Scored, Target, check_same_map, rescore_position, scored_of
from ttr_analysis.rescore import differences as line_differences
from ttr_analysis.game_cache import GameCache
from ttr_analysis.simulate import GameSummary, SimSpec, run
from ttr_bots import bot_classes
from ttr_core import record, variant
from ttr_core.board import Board
from ttr_core.errors import TTRError
from ttr_core.game import Game
from ttr_core.position import position_of

#: the installed play styles a variant is judged against when no --bots are given (``ttr bots``)
DEFAULT_BOTS = ("random", "ticket", "long-routes", "hoarder")
#: the two ways of setting rule sets against each other: the same games scored under both
#: (``rescore``, the default with --against: it isolates the scoring change), or games played under
#: each by bots that play to the rules in force (``play``, the default of sweeps)
RESCORE, PLAY = "rescore", "play"
#: the lineup of ``play`` when no --bots are given: the search bot on a small budget (it scores its
#: play-outs by the rules in force, so it plays to them) with the styles that do not
PLAY_BOTS = ("search-quick", "ticket", "long-routes", "hoarder")
#: a player passing this many of their turns in a row is reported (R-TURN-2: nothing else was legal)
LONG_PASS_RUN = 3
#: a route claimed within this share of the game's turns counts as claimed early
EARLY = 1 / 3
#: how many routes the report names as the most contested
CONTESTED = 10
#: the action limit of a bot game (``ttr_bots.play_game``): a game still running then stops the run
TURN_CAP_ACTIONS = 20_000

METHOD = (
    "Shares: Wilson's 95% interval; means: mean ± 1.96·sd/√n. Win rates count every winner of a shared win. "
    "Seat figures are per game (n = games); style figures are per player-game. Differences (against − variant): "
    "Newcombe's interval for two shares, mean difference ± 1.96·√(sd₁²/n₁ + sd₂²/n₂) for means, the two runs "
    "taken as independent (they share seeds, so this is conservative). A bonus decides the winner when, "
    "without its points, the highest totals belong to other players (a tie counts as a change)."
)


# --- the games ----------------------------------------------------------------------------------


def lineups(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The seat lineups of a run: the styles cycled over the seats, shifted by 0, 1, ... so that
    every style sits in every seat equally often."""
    k = len(bots)
    return [tuple(bots[(shift + s) % k] for s in range(players)) for shift in range(k)]


def play_games(
    target: Target, players: int, bots: Sequence[str], seeds: Sequence[int], workers: int = 1,
    scheduler: str | None = None, on_progress: Callable[[int], None] | None = None,
    cache: GameCache | None = None, on_cache_problem: Callable[[str], None] | None = None,
) -> list[GameSummary]:
    """The games of one player count, records kept, in seed order: game ``i`` (``seeds[i]``) with
    lineup ``i mod len(bots)`` (:func:`lineups`). Games already in ``cache`` are not played again."""
    teams = lineups(bots, players)
    out: list[GameSummary] = []
    for shift, team in enumerate(teams):
        mine = [s for i, s in enumerate(seeds) if i % len(teams) == shift]
        if mine:
            spec = SimSpec(target.variant, target.version, players, team, records=True, settings=target.settings)
            out += run(spec, mine, workers, scheduler, on_progress, cache=cache, on_cache_problem=on_cache_problem)
    return sorted(out, key=lambda g: g.seed)


# --- one game, replayed --------------------------------------------------------------------------


@attrs.frozen
class Claim:
    route: str  # route id
    seat: int
    turn: int  # 1-based: the turn during which it was claimed


@attrs.frozen
class GameFacts:
    """What the figures need of one game, read from its replayed record."""

    seed: int
    bots: tuple[str, ...]  # per seat
    turns: int
    actions: int
    end_reason: str
    last_action: str  # the kind of the action that ended the game
    totals: tuple[int, ...]
    winners: tuple[int, ...]  # seats
    decided_by: str
    bonuses: tuple[tuple[tuple[str, int], ...], ...]  # per seat: (name, points)
    completed: tuple[tuple[str, ...], ...]  # per seat: ticket ids
    failed: tuple[tuple[str, ...], ...]
    stations: tuple[tuple[str, ...], ...]  # per seat: cities
    claims: tuple[Claim, ...]  # in the order they happened
    passes: tuple[int, ...]  # per seat
    longest_pass_run: tuple[int, ...]  # per seat: most of its turns in a row spent passing
    resigned: tuple[bool, ...]
    exhausted_at: int | None  # the first turn after which deck and discard were both empty
    played: Scored
    rescored: tuple[Scored, ...] = ()  # under the targets asked of :func:`game_facts`
    table: TableTrouble = TableTrouble()  # the open row's reset limit, rows left needing a reset, seats stuck
    tickets_offered: tuple[int, ...] = ()  # per seat: tickets offered to it (start and draws)
    tickets_kept: tuple[int, ...] = ()  # per seat: of those, kept
    record: str = attrs.field(default="", repr=False)
    reused: bool = attrs.field(default=False, eq=False)  # taken from the played-games cache

    @property
    def players(self) -> int:
        return len(self.totals)

    def bonus(self, seat: int, name: str) -> int:
        return sum(p for n, p in self.bonuses[seat] if n == name)


def replay_watched(text: str, where: str, ruleset: variant.Ruleset | None = None) -> tuple[Game, dict[str, Any]]:
    """Replay a record's actions one by one under its own rules (``ruleset``: the rules it was
    played under, when parameters were set on them), noting what only the course of the game
    shows; check that the replay gives the record back byte for byte."""
    data = record.check_shape(json.loads(text), where)
    game = Game(ruleset or variant.load(data["variant"], data["version"]), data["players"], data["seed"])
    n = len(data["players"])
    claims: list[Claim] = []
    passes, run_now, run_max = [0] * n, [0] * n, [0] * n
    exhausted_at = None
    owner = game.owner
    table = TableWatch(game)
    offered, kept = [0] * n, [0] * n  # behaviour (ttr_analysis.behaviour): tickets offered and kept
    for entry in data["actions"]:
        seat, turn = entry["seat"], game.turn + 1
        if entry["kind"] == "keep-tickets":
            offered[seat] += len(getattr(game.decision(seat), "offered", ()))
            kept[seat] += len(entry.get("tickets", ()))
        game.apply(seat, game.registry.from_entry(entry))
        table.after(game, seat, entry["kind"])
        if entry["kind"] == "pass":
            passes[seat] += 1
            run_now[seat] += 1
            run_max[seat] = max(run_max[seat], run_now[seat])
        else:
            run_now[seat] = 0
        now = game.owner
        if now != owner:
            claims += [Claim(game.board.routes[r].id, o, turn) for r, o in enumerate(now) if o >= 0 and owner[r] < 0]
            owner = now
        if exhausted_at is None and not game.cards_left and game.phase == "play":
            exhausted_at = turn
    if record.dumps(record.make_record(game)) != text:
        raise TTRError(f"{where}: the record does not replay to the same bytes")
    return game, {"claims": tuple(claims), "passes": tuple(passes), "longest_pass_run": tuple(run_max),
                  "exhausted_at": exhausted_at, "table": table.trouble(), "tickets_offered": tuple(offered),
                  "tickets_kept": tuple(kept)}


def game_facts(summary: GameSummary, rescore: Sequence[Target] = (), ruleset: variant.Ruleset | None = None) -> GameFacts:
    """The facts of one played game, from its record (``SimSpec(records=True)``), replayed under
    ``ruleset`` (by default the rules the record names); rescored under ``rescore`` from the
    replayed final position."""
    if summary.record is None:
        raise TTRError(f"seed {summary.seed}: the game was played without its record")
    game, seen = replay_watched(summary.record, f"seed {summary.seed}", ruleset)
    result = game.result
    assert result is not None  # bot games are played to the end
    position = position_of(game) if rescore else None
    return GameFacts(
        seed=game.seed,
        bots=summary.bots,
        turns=game.turn,
        actions=len(game.log),
        end_reason=result.reason,
        last_action=game.log[-1][1].kind if game.log else "",
        totals=tuple(s.total for s in result.scores),
        winners=tuple(result.winners.seats),
        decided_by=result.winners.decided_by,
        bonuses=tuple(tuple((b.name, b.points) for b in s.bonuses) for s in result.scores),
        completed=tuple(s.tickets_completed for s in result.scores),
        failed=tuple(s.tickets_failed for s in result.scores),
        stations=tuple(tuple(x["city"] for x in s.facts.get("stations", ())) for s in result.scores),
        resigned=tuple(s.resigned for s in result.scores),
        played=scored_of(game),
        rescored=tuple(rescore_position(position, t, f"seed {game.seed}") for t in rescore),
        record=summary.record,
        reused=summary.reused,
        **seen,
    )


# --- estimates -----------------------------------------------------------------------------------


def share(k: int, n: int) -> dict[str, Any]:
    """``k`` of ``n`` as a figure: the share with Wilson's 95% interval, and ``k`` and ``n``."""
    e = stats.proportion_ci(k, n)
    return {"k": k, "n": n, "mean": _r(e.mean), "low": _r(e.low), "high": _r(e.high)}


def average(values: Sequence[float]) -> dict[str, Any]:
    """A mean as a figure: with its sd, n and 95% interval."""
    e = stats.mean_ci(list(values))
    return {"mean": _r(e.mean), "sd": _r(e.sd), "n": e.n, "low": _r(e.low), "high": _r(e.high)}


def _r(x: float) -> float | None:
    return None if x is None or math.isnan(x) else round(x, 4)


def is_estimate(x: Any) -> bool:
    return isinstance(x, dict) and "mean" in x and "low" in x and "n" in x


def difference(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any] | None:
    """``b − a`` with its 95% interval: Newcombe's for two shares (built from their Wilson
    intervals), normal for two means. None when either side has no data."""
    if not a.get("n") or not b.get("n") or a["mean"] is None or b["mean"] is None:
        return None
    d = b["mean"] - a["mean"]
    if "k" in a and "k" in b:
        low = d - math.sqrt((b["mean"] - b["low"]) ** 2 + (a["high"] - a["mean"]) ** 2)
        high = d + math.sqrt((b["high"] - b["mean"]) ** 2 + (a["mean"] - a["low"]) ** 2)
    else:
        half = stats.Z95 * math.sqrt((a["sd"] or 0) ** 2 / a["n"] + (b["sd"] or 0) ** 2 / b["n"])
        low, high = d - half, d + half
    return {"mean": round(d, 4), "low": round(low, 4), "high": round(high, 4)}


def differences(a: Any, b: Any) -> Any:
    """Every estimate of figures ``a`` that ``b`` also has, as ``b − a`` (:func:`difference`), in
    the same nesting; what only one side has is left out."""
    if is_estimate(a) and is_estimate(b):
        return difference(a, b)
    if isinstance(a, dict) and isinstance(b, dict):
        out = {k: differences(a[k], b[k]) for k in a if k in b}
        return {k: v for k, v in out.items() if v is not None and v != {}}
    return None


def quantiles(values: Sequence[float]) -> dict[str, float]:
    """Min, 10th, 25th, 50th, 75th, 90th percentiles and max (inclusive method)."""
    xs = sorted(values)
    if len(xs) == 1:
        return dict.fromkeys(("min", "p10", "p25", "median", "p75", "p90", "max"), float(xs[0]))
    q = statistics.quantiles(xs, n=20, method="inclusive")  # 5% steps
    return {"min": xs[0], "p10": round(q[1], 2), "p25": round(q[4], 2), "median": round(q[9], 2),
            "p75": round(q[14], 2), "p90": round(q[17], 2), "max": xs[-1]}


def histogram(values: Sequence[int], bins: int = 12) -> dict[str, Any]:
    """Counts in ``bins`` equal bins from the minimum to the maximum: ``edges`` has one more item."""
    lo, hi = min(values), max(values)
    width = max(1, math.ceil((hi - lo + 1) / bins))
    edges = [lo + i * width for i in range(bins + 1)]
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, (v - lo) // width)] += 1
    return {"edges": edges, "counts": counts}


# --- the figures of one player count -------------------------------------------------------------


def figures(games: Sequence[GameFacts], board: Board) -> dict[str, Any]:
    """Every figure of one player count's games (the same rule set, the same player count)."""
    if not games:
        raise TTRError("no games to draw figures from")
    return {
        "games": len(games),
        "seeds": [games[0].seed, games[-1].seed],
        "balance": balance(games),
        "board": board_figures(games, board),
        "tickets": ticket_figures(games, board),
        "bonuses": bonus_figures(games),
        "failures": failure_figures(games),
    }


def styles_of(games: Sequence[GameFacts]) -> list[str]:
    return sorted({b for g in games for b in g.bots})


def balance(games: Sequence[GameFacts]) -> dict[str, Any]:
    n, seats = len(games), games[0].players
    player_games = [(g, s) for g in games for s in range(seats)]
    by_style: dict[str, list[tuple[GameFacts, int]]] = defaultdict(list)
    for g, s in player_games:
        by_style[g.bots[s]].append((g, s))
    return {
        "win_rate_by_seat": {str(s + 1): share(sum(1 for g in games if s in g.winners), n) for s in range(seats)},
        "score_edge_by_seat": {
            str(s + 1): average([g.totals[s] - statistics.fmean(g.totals) for g in games]) for s in range(seats)
        },
        "score_by_seat": {str(s + 1): average([g.totals[s] for g in games]) for s in range(seats)},
        "win_rate_by_style": {k: share(sum(1 for g, s in v if s in g.winners), len(v)) for k, v in sorted(by_style.items())},
        "score_by_style": {k: average([g.totals[s] for g, s in v]) for k, v in sorted(by_style.items())},
        "score_quantiles_by_style": {k: quantiles([g.totals[s] for g, s in v]) for k, v in sorted(by_style.items())},
        "score_quantiles_by_seat": {str(s + 1): quantiles([g.totals[s] for g in games]) for s in range(seats)},
        "turns": average([g.turns for g in games]),
        "turns_quantiles": quantiles([g.turns for g in games]),
        "turns_histogram": histogram([g.turns for g in games]),
        "ends": {r: share(c, n) for r, c in sorted(Counter(g.end_reason for g in games).items())},
        "decided_by": {d: share(c, n) for d, c in sorted(Counter(g.decided_by for g in games).items())},
    }


def board_figures(games: Sequence[GameFacts], board: Board) -> dict[str, Any]:
    n = len(games)
    claims: dict[str, list[tuple[GameFacts, Claim]]] = defaultdict(list)
    for g in games:
        for c in g.claims:
            claims[c.route].append((g, c))
    routes = {}
    for r in board.routes:
        mine = claims.get(r.id, [])
        when = [c.turn for _, c in mine]
        part = [c.turn / max(1, g.turns) for g, c in mine]
        routes[r.id] = {
            "claimed": share(len(mine), n),
            "early": share(sum(1 for p in part if p <= EARLY), n),
            "median_turn": statistics.median(when) if when else None,
            "median_part_of_game": round(statistics.median(part), 4) if part else None,
            "by_style": dict(sorted(Counter(g.bots[c.seat] for g, c in mine).items())),
        }
    cities = {}
    for city in board.cities:
        touching = [r.id for r in board.routes if city.name in (r.a, r.b)]
        owned = [sum(1 for c in g.claims if c.route in touching) / max(1, len(touching)) for g in games]
        cities[city.name] = {
            "routes": len(touching),
            "claimed_part": average(owned),
            "stations": average([sum(st.count(city.name) for st in g.stations) for g in games]),
        }
    doubles = {}
    for pair in double_pairs(board):
        both = sum(1 for g in games if all(any(c.route == rid for c in g.claims) for rid in pair))
        doubles["+".join(pair)] = {"both_taken": share(both, n)}
    contested = sorted(routes, key=lambda rid: (-routes[rid]["early"]["k"], -routes[rid]["claimed"]["k"], rid))
    return {"routes": routes, "cities": cities, "doubles": doubles, "contested": contested[:CONTESTED]}


def double_pairs(board: Board) -> list[tuple[str, ...]]:
    """The groups of routes joining the same two cities, by route id."""
    groups: dict[frozenset[str], list[str]] = defaultdict(list)
    for r in board.routes:
        groups[frozenset((r.a, r.b))].append(r.id)
    return [tuple(ids) for ids in groups.values() if len(ids) > 1]


def ticket_figures(games: Sequence[GameFacts], board: Board) -> dict[str, Any]:
    points = {t.id: t.points for t in board.tickets}
    held: dict[str, list[int]] = defaultdict(list)  # per ticket: net points of each holding
    style_done: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # done, held, player-games
    for g in games:
        for s in range(g.players):
            counts = style_done[g.bots[s]]
            counts[2] += 1
            for tid in g.completed[s]:
                held[tid].append(points[tid])
                counts[0] += 1
            for tid in g.failed[s]:
                held[tid].append(-points[tid])
            counts[1] += len(g.completed[s]) + len(g.failed[s])
    done = sum(len(c) for g in games for c in g.completed)
    total = done + sum(len(f) for g in games for f in g.failed)
    by_ticket = {}
    for t in board.tickets:
        nets = held.get(t.id, [])
        by_ticket[t.id] = {
            "points": t.points,
            "kind": t.kind,
            "held": len(nets),
            "completion": share(sum(1 for x in nets if x > 0), len(nets)),
            "net_points": average(nets) if nets else None,
        }
    return {
        "completion": share(done, total),
        "held_per_player": average([len(g.completed[s]) + len(g.failed[s]) for g in games for s in range(g.players)]),
        "by_style": {k: {"completion": share(v[0], v[1]), "held_per_player": round(v[1] / v[2], 4)}
                     for k, v in sorted(style_done.items())},
        "by_ticket": by_ticket,
    }


def winners_without(g: GameFacts, bonus: str) -> frozenset[int]:
    """The seats with the highest total once ``bonus``'s points are taken away."""
    totals = [t - g.bonus(s, bonus) for s, t in enumerate(g.totals)]
    best = max(totals)
    return frozenset(s for s, t in enumerate(totals) if t == best)


def bonus_figures(games: Sequence[GameFacts]) -> dict[str, Any]:
    n, seats = len(games), games[0].players
    names = sorted({name for g in games for per_seat in g.bonuses for name, p in per_seat if p})
    out = {}
    for name in names:
        got = [[g.bonus(s, name) > 0 for s in range(seats)] for g in games]
        styles: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for g, row in zip(games, got):
            for s, has in enumerate(row):
                styles[g.bots[s]][0] += has
                styles[g.bots[s]][1] += 1
        given = [sum(g.bonus(s, name) for s in range(seats)) for g in games if any(g.bonus(s, name) for s in range(seats))]
        decided = [g.seed for g in games if winners_without(g, name) != frozenset(g.winners)]
        out[name] = {
            "given": share(sum(1 for row in got if any(row)), n),
            "points_per_game_given": average(given) if given else None,
            "by_seat": {str(s + 1): share(sum(1 for row in got if row[s]), n) for s in range(seats)},
            "by_style": {k: share(*v) for k, v in sorted(styles.items())},
            "decides_winner": share(len(decided), n),
            "decides_winner_example": decided[0] if decided else None,
        }
    return out


def failure_figures(games: Sequence[GameFacts]) -> dict[str, Any]:
    n = len(games)
    passed_out = [g for g in games if g.last_action == "pass"]
    exhausted = [g for g in games if g.exhausted_at is not None]
    long_runs = [(g, s) for g in games for s in range(g.players) if g.longest_pass_run[s] >= LONG_PASS_RUN]
    resigned = [g for g in games if any(g.resigned)]

    def counted(found: Sequence[GameFacts], total: int = n, **extra: Any) -> dict[str, Any]:
        return {**share(len(found), total), "example": found[0].seed if found else None, **extra}

    return {
        "ended_by_passing": counted(passed_out),
        "deck_and_discard_exhausted": counted(exhausted, first_turn=min((g.exhausted_at for g in exhausted), default=None)),
        "long_pass_runs": {**share(len(long_runs), n * games[0].players), "example": long_runs[0][0].seed if long_runs else None,
                           "longest": max((max(g.longest_pass_run) for g in games), default=0), "threshold": LONG_PASS_RUN},
        "passes_per_game": average([sum(g.passes) for g in games]),
        "resignations": counted(resigned),
        "turn_cap": {"actions": TURN_CAP_ACTIONS, "games": 0,
                     "note": "a game still running at the cap stops the run with an error naming its seed"},
        **table_watch.failure_figures(games),  # R-ROW-3's limit, rows left needing a reset, seats stuck
    }


# --- a rule set rescored ---------------------------------------------------------------------------


def rescored(games: Sequence[GameFacts]) -> dict[str, Any]:
    """The games as played (``played``) against their rescoring under the other rule set
    (``rescored[1]``; ``rescored[0]`` is the played rules themselves, a check of the export)."""
    n = len(games)
    pairs = [(g.played, g.rescored[1]) for g in games]
    changed = [g for g in games if frozenset(g.played.winners) != frozenset(g.rescored[1].winners)]
    blame: Counter[str] = Counter()
    for g in changed:
        blame.update({d.line for d in line_differences([g.played, g.rescored[1]]) if d.line != TOTAL})
    return {
        "from": games[0].played.label,
        "to": games[0].rescored[1].label,
        "winner_changes": {**share(len(changed), n), "seeds": [g.seed for g in changed[:20]],
                           "lines": dict(sorted(blame.items()))},
        "lines": stats.line_deltas(pairs),
        "export_mismatches": [g.seed for g in games if g.played != g.rescored[0]],
    }


# --- the whole report ------------------------------------------------------------------------------


@attrs.frozen
class Plan:
    """What a playtest plays: a rule set (and one to set against it), player counts, games, bots."""

    target: Target
    against: Target | None
    players: tuple[int, ...]
    games: int
    bots: tuple[str, ...]
    seed: int = 1
    mode: str = RESCORE  # RESCORE or PLAY: what the comparison with ``against`` shows first

    @property
    def seeds(self) -> range:
        return range(self.seed, self.seed + self.games)


def check_plan(plan: Plan) -> tuple[Board, Target, Target | None]:
    """Refuse, before any game, what no game could give: an unknown rule set, player counts a rule
    set does not take, two rule sets on different maps. Returns the map and the resolved targets."""
    targets = [plan.target] + ([plan.against] if plan.against else [])
    rulesets = [t.ruleset() for t in targets]
    if plan.against:
        check_same_map(targets)
    for t, rs in zip(targets, rulesets):
        bad = [p for p in plan.players if not rs.players.min <= p <= rs.players.max]
        if bad:
            raise TTRError(f"--players: {rs.variant}@{rs.version} takes {rs.players.min} to {rs.players.max} players, "
                           f"not {', '.join(map(str, bad))}")
    if not plan.players:
        raise TTRError("--players: no player count given")
    bot_classes(plan.bots)
    resolved = [t.resolved() for t in targets]
    return rulesets[0].board, resolved[0], resolved[1] if plan.against else None


def playtest(
    plan: Plan, workers: int = 1, scheduler: str | None = None, on_progress: Callable[[int], None] | None = None,
    cache: GameCache | None = None, on_cache_problem: Callable[[str], None] | None = None,
) -> tuple[dict[str, Any], dict[str, list[GameFacts]]]:
    """Play the plan and compute its report (JSON data). Also returns the facts of every game, by
    ``"<players>"`` and ``"<players>-against"``, for the example records."""
    board, target, against = check_plan(plan)
    facts: dict[str, list[GameFacts]] = {}
    counts = {}
    for p in plan.players:
        rescore = (target, against) if against else ()
        rules = target.ruleset()
        mine = [game_facts(s, rescore, rules) for s in play_games(target, p, plan.bots, plan.seeds, workers, scheduler, on_progress, cache, on_cache_problem)]
        facts[str(p)] = mine
        entry: dict[str, Any] = {"players": p, "variant": figures(mine, board)}
        if against:
            theirs = [game_facts(s, (), against.ruleset()) for s in play_games(against, p, plan.bots, plan.seeds, workers, scheduler, on_progress, cache, on_cache_problem)]
            facts[f"{p}-against"] = theirs
            entry["against"] = figures(theirs, board)
            entry["differences"] = differences(entry["variant"], entry["against"])
            entry["rescored"] = {**rescored(mine), "from": str(target), "to": str(against)}
            entry["same_games"] = share(sum(1 for a, b in zip(mine, theirs) if same_actions(a, b)), len(mine))
            entry["behaviour"] = behaviour.compare(mine, theirs, board)  # the games as played under each
        counts[str(p)] = entry
    report = {
        "format": "ttr-playtest/1",
        "variant": str(target),
        "against": str(against) if against else None,
        **plan_fields(plan, board),
        "lineups": {str(p): [list(t) for t in lineups(plan.bots, p)] for p in plan.players},
        "counts": counts,
        "method": METHOD + (" " + behaviour.METHOD if against else ""),
    }
    rulesets = (target.ruleset(), against.ruleset()) if against else None
    report.update(playtest_front.front(report, facts, rulesets))  # what changed, and the headline: from the figures above
    return report, facts


def plan_fields(plan: Plan, board: Board) -> dict[str, Any]:
    """What a report says of the games it stands on: the mode, map, player counts, games per
    count, seeds and bots (a playtest's and a sweep's alike)."""
    return {
        "mode": plan.mode,
        "map": board.id,
        "players": list(plan.players),
        "games": plan.games,
        "seeds": [plan.seed, plan.seed + plan.games - 1],
        "bots": list(plan.bots),
    }


def same_actions(a: GameFacts, b: GameFacts) -> bool:
    """True when two games' records hold the same actions (a record has one action per line
    between its head line and its tail line)."""
    return a.seed == b.seed and a.record.splitlines()[1:-1] == b.record.splitlines()[1:-1]


def examples(report: Mapping[str, Any], facts: Mapping[str, Sequence[GameFacts]]) -> dict[str, str]:
    """The records of the example games the report names (rule failures, decisive bonuses), by
    file name: ``<variant>-v<version>-<players>p-seed<seed>.json``."""
    out = {}
    for key, games in facts.items():
        p, _, side = key.partition("-")
        figs = report["counts"][p]["against" if side else "variant"]
        wanted = {f.get("example") for f in figs["failures"].values() if isinstance(f, dict)}
        wanted |= {b.get("decides_winner_example") for b in figs["bonuses"].values()}
        for g in games:
            if g.seed in wanted:
                name = example_name(g)
                if side and out.get(name, g.record) != g.record:  # the same rules version, other settings
                    name = name.removesuffix(".json") + "-against.json"
                out[name] = g.record
    return dict(sorted(out.items()))


def example_name(g: GameFacts) -> str:
    return f"{g.played.variant}-v{g.played.version}-{g.players}p-seed{g.seed}.json"
