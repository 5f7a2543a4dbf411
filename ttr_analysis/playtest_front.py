"""The front of a playtest report: what changed between the two rule sets, and the headline, the
one paragraph that answers "does it matter".

Both are computed from the report's own figures and the games' facts once the rest of the report
is done (:func:`front`, called by :func:`ttr_analysis.playtest.playtest`), and drawn first on the
page (:func:`headline_html`, :func:`changes_html`). With ``--against W`` the report's
``changes`` is ``ttr variants diff W V`` (what V changes from W) and the headline says, per
player count, three effects of that change, each with its 95% interval and whether the interval
excludes no effect:

* how often the winner changes (the games of V rescored under W; Wilson's interval: any change
  seen is distinguishable from none);
* the shift in the mean score per player, V − W, paired by seed (each seed's table mean under V
  minus under W; normal interval of the mean difference);
* the shift in seat balance: the first seat's win rate under V minus under W (Newcombe's interval).

When no interval excludes no effect, the headline says so with the smallest effect the run would
have seen (:data:`POWER_RULE`). Without ``--against``, it says per player count whether the first
seat wins more or less often than an even game would (1/players), with its interval.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ttr_analysis import stats
from ttr_analysis.rescore import Target
from ttr_analysis.variant_diff import diff_lines, variant_diff
from ttr_core import variant

POWER_RULE = (
    "An effect \"would have been seen\" when a run of this size finds it distinguishable from no effect (its 95% "
    "interval excluding 0) 4 times in 5 (80% power): for a shift, (1.96 + 0.84) standard errors, i.e. 1.43 times "
    "the half-width of its 95% interval; for the winner-change rate, the rate p at which N games show at least one "
    "change with probability 0.8, p = 1 − 0.2^(1/N)."
)


# --- the data ------------------------------------------------------------------------------------


def front(report: Mapping[str, Any], facts: Mapping[str, Sequence[Any]],
          rulesets: tuple[variant.Ruleset, variant.Ruleset] | None = None) -> dict[str, Any]:
    """The report's ``changes`` (None without ``--against``) and ``headline``. ``rulesets``: the
    variant's and the against's rules as played (settings applied); by default loaded by the
    report's names."""
    changes = None
    if report["against"]:
        changed, base = rulesets or (_ruleset(report["variant"]), _ruleset(report["against"]))
        changes = variant_diff(base, changed)
    counts = {}
    for p, entry in report["counts"].items():
        if report["against"]:
            counts[p] = _effects(entry, facts[p], facts[f"{p}-against"])
        else:
            counts[p] = _balance(entry, int(p))
    head = {"counts": counts, "rule": POWER_RULE}
    head["text"] = headline_text(report, head, changes)
    return {"changes": changes, "headline": head}


def _ruleset(label: str):
    t = Target.parse(label)
    return variant.load(t.variant, t.version)


def _effect(mean: float, low: float, high: float) -> dict[str, Any]:
    if not (math.isfinite(low) and math.isfinite(high)):  # one game: no interval to speak of
        return {"mean": round(mean, 4) + 0.0, "low": None, "high": None, "distinguishable": False, "seen_if_at_least": None}
    return {"mean": round(mean, 4) + 0.0, "low": round(low, 4) + 0.0, "high": round(high, 4) + 0.0,  # never -0.0
            "distinguishable": low > 0 or high < 0, "seen_if_at_least": round(stats.detectable_shift((high - low) / 2), 4)}


def _effects(entry: Mapping[str, Any], mine: Sequence[Any], theirs: Sequence[Any]) -> dict[str, Any]:
    n = len(mine)
    out: dict[str, Any] = {"games": n}
    rescored = entry.get("rescored")
    if rescored:
        w = rescored["winner_changes"]
        out["winner_changes"] = {k: w[k] for k in ("k", "n", "mean", "low", "high")} | {
            "distinguishable": w["k"] > 0, "seen_if_at_least": round(1 - 0.2 ** (1 / n), 4)}
    out["score_shift"] = _score_shift(mine, theirs)
    seat = (entry.get("differences") or {}).get("balance", {}).get("win_rate_by_seat", {}).get("1")
    if seat:  # the report's differences are against − variant: the headline says what the change does
        out["first_seat_win_rate_shift"] = _effect(-seat["mean"], -seat["high"], -seat["low"])
    return out


def _score_shift(mine: Sequence[Any], theirs: Sequence[Any]) -> dict[str, Any]:
    """V − W in the mean score per player, paired by seed: each seed's table mean under V minus
    under W (the same seed and lineup at both; the same games move for move when the bots play
    alike), with the normal 95% interval of the mean of those differences."""
    against = {g.seed: statistics.fmean(g.totals) for g in theirs}
    pairs = [(statistics.fmean(g.totals), against[g.seed]) for g in mine if g.seed in against]
    e = stats.mean_ci([a - b for a, b in pairs])
    low, high = (e.low, e.high) if e.n > 1 else (math.nan, math.nan)
    return _effect(e.mean, low, high) | {"variant": round(statistics.fmean(a for a, _ in pairs), 4),
                                         "against": round(statistics.fmean(b for _, b in pairs), 4), "pairs": e.n}


def _balance(entry: Mapping[str, Any], players: int) -> dict[str, Any]:
    bal = entry["variant"]["balance"]
    w = bal["win_rate_by_seat"]["1"]
    even = 1 / players
    return {"games": w["n"], "even": round(even, 4), "first_seat_win_rate": {k: w[k] for k in ("k", "n", "mean", "low", "high")},
            "first_seat_advantage": _effect(w["mean"] - even, w["low"] - even, w["high"] - even)}


# --- in words ------------------------------------------------------------------------------------


def _pct(x: float, signed: bool = False) -> str:
    return f"{x:+.1%}" if signed else f"{x:.1%}"


def _pts(x: float, signed: bool = True) -> str:
    return f"{x:+.1f}" if signed else f"{x:.1f}"


def _pp(x: float) -> str:
    return f"{x * 100:+.1f}"


def _seen(x: float | None, scale: float = 1.0) -> str:
    return "an unknown size" if x is None else f"{x * scale:.1f}"


def _interval(e: Mapping[str, Any], fmt) -> str:
    if e["low"] is None:
        return f"{fmt(e['mean'])} (no interval from one game)"
    return f"{fmt(e['mean'])} [{fmt(e['low'])}, {fmt(e['high'])}]"


def _verdict(e: Mapping[str, Any], seen: str) -> str:
    if e["distinguishable"]:
        return "distinguishable from no effect"
    if e["seen_if_at_least"] is None:
        return "not distinguishable from no effect"
    return f"not distinguishable from no effect (one of at least {seen} would have been seen)"


def count_sentence(report: Mapping[str, Any], p: str, h: Mapping[str, Any]) -> str:
    """What the headline says of one player count."""
    n = h["games"]
    if not report["against"]:
        a, w = h["first_seat_advantage"], h["first_seat_win_rate"]
        if not a["distinguishable"]:
            return (f"{p} players: no first-seat advantage found in {n} games: the first seat wins "
                    f"{_interval(w, _pct)} (even: {_pct(h['even'])}); an advantage of at least "
                    f"{_seen(a['seen_if_at_least'], 100)} percentage points would have been seen.")
        more = "more" if a["mean"] > 0 else "less"
        return (f"{p} players ({n} games): the first seat wins {_interval(w, _pct)}, {more} often than an even game "
                f"({_pct(h['even'])}): {_interval(a, _pp)} percentage points, distinguishable from an even game.")
    parts = [k for k in ("winner_changes", "score_shift", "first_seat_win_rate_shift") if k in h]
    if not any(h[k]["distinguishable"] for k in parts):
        seen = []
        if "winner_changes" in h:
            seen.append(f"the winner changing in {_pct(h['winner_changes']['seen_if_at_least'])} of games")
        seen.append(f"a mean-score shift of {_seen(h['score_shift']['seen_if_at_least'])} points per player")
        if "first_seat_win_rate_shift" in h:
            seen.append(f"a first-seat win-rate shift of {_seen(h['first_seat_win_rate_shift']['seen_if_at_least'], 100)} "
                        "percentage points")
        return (f"{p} players: no difference found in {n} games (an effect of at least this size would have been "
                f"seen: {', '.join(seen)}).")
    said = []
    if "winner_changes" in h:
        w = h["winner_changes"]
        said.append(f"the winner changes in {_interval(w, _pct)} of games ({w['k']} of {w['n']}), "
                    + ("distinguishable from none" if w["distinguishable"] else
                       f"none seen (a rate of at least {_pct(w['seen_if_at_least'])} would have been)"))
    s = h["score_shift"]
    said.append(f"the mean score per player shifts by {_interval(s, _pts)} points ({_pts(s['variant'], False)} against "
                f"{_pts(s['against'], False)}), {_verdict(s, _seen(s['seen_if_at_least']) + ' points')}")
    if "first_seat_win_rate_shift" in h:
        f = h["first_seat_win_rate_shift"]
        said.append(f"the first seat's win rate shifts by {_interval(f, _pp)} percentage points, "
                    f"{_verdict(f, _seen(f['seen_if_at_least'], 100) + ' percentage points')}")
    return f"{p} players ({n} games): " + "; ".join(said) + "."


def _change_words(changes: Mapping[str, Any] | None) -> str:
    """The change in a few words: the plugins added and removed, the parameters changed."""
    if not changes:
        return ""
    bits = [f"{p['title']} ({p['plugin']}" + "".join(f", {q['parameter']} = {json.dumps(q['value'])}" for q in p["parameters"])
            + ") added" for p in changes["plugins"]["added"]]
    bits += [f"{p['title']} ({p['plugin']}) removed" for p in changes["plugins"]["removed"]]
    bits += [f"{p['plugin']}.{p['parameter']} {json.dumps(p['old'])} → {json.dumps(p['new'])}" for p in changes["parameters"]]
    if changes["map"]["differs"]:
        bits.append("the map")
    return "; ".join(bits) if bits else "nothing but the names"


def headline_text(report: Mapping[str, Any], head: Mapping[str, Any], changes: Mapping[str, Any] | None) -> str:
    counts = head["counts"]
    if report["against"]:
        lead = (f"Does it matter? {report['variant']} against {report['against']} (what changes: "
                f"{_change_words(changes)}); effects are {report['variant']} − {report['against']}.")
    else:
        lead = f"Seat balance of {report['variant']}: does the first seat win more often than an even game?"
    return " ".join([lead, *(count_sentence(report, p, h) for p, h in counts.items())])


# --- on the page ---------------------------------------------------------------------------------


def _span(path: Sequence[str], e: Mapping[str, Any], text: str) -> str:
    return (f"<span data-figure='{escape(json.dumps(list(path)))}' data-value='{json.dumps(e['mean'])}'>"
            f"{escape(text)}</span>")


def headline_html(report: Mapping[str, Any]) -> str:
    """The headline paragraph, its numbers marked with their place in the JSON."""
    head = report.get("headline")
    if not head:
        return ""
    text = escape(head["text"])
    for p, h in head["counts"].items():  # each interval as a figure of the JSON
        for key, fmt in (("winner_changes", _pct), ("score_shift", _pts), ("first_seat_win_rate_shift", _pp),
                         ("first_seat_win_rate", _pct), ("first_seat_advantage", _pp)):
            if key in h:
                shown = escape(_interval(h[key], fmt))
                marked = _span(["headline", "counts", p, key], h[key], _interval(h[key], fmt))
                at = text.find(f"{p} players")
                found = text.find(shown, at)
                if at >= 0 and found >= 0:
                    text = text[:found] + marked + text[found + len(shown):]
    for p in head["counts"]:  # each player count's sentence found at a glance
        text = text.replace(f" {p} players", f" <strong>{p} players</strong>", 1)
    return (f'<section id="headline"><p class="headline">{text}</p>'
            f'<p class="note">{escape(head["rule"])}</p></section>')


def changes_html(report: Mapping[str, Any]) -> str:
    """The report's first section with ``--against``: what changed, as ``ttr variants diff`` says it."""
    changes = report.get("changes")
    if not changes:
        return ""
    sub = ' class="sub"'  # a plugin's parameters, under it
    items = "".join(f"<li{sub if line.startswith('    ') else ''}>{escape(line.strip())}</li>" for line in diff_lines(changes)[1:])
    return (f'<section id="changes"><h2>What changed: from {escape(changes["from"])} to {escape(changes["to"])}</h2>'
            f'<ul class="changes">{items}</ul><p class="note">As <code>ttr variants diff {escape(changes["from"])} '
            f'{escape(changes["to"])}</code> says it: the meanings and rule ids are the plugins\' own.</p></section>')
