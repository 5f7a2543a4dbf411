"""The behaviour section of a playtest page (:mod:`ttr_analysis.behaviour`): how the players
played under each rule set, the per-seed difference with its interval, and the games each
difference would need to be seen. Every number carries its place in the report's JSON
(``data-figure``) and its value there (``data-value``), as on the rest of the page."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ttr_analysis.behaviour import FIGURES


def cell(path: Sequence[str], value: Any, text: str, cls: str = "") -> str:
    if value is None:
        return "<td>–</td>"
    klass = f' class="{cls}"' if cls else ""
    return (f"<td{klass} data-figure='{escape(json.dumps(list(path)))}' data-value='{json.dumps(value)}'>"
            f"{escape(text)}</td>")


def estimate_text(e: Mapping[str, Any] | None, signed: bool = False, percent: bool = False) -> str:
    if not e or e.get("mean") is None:
        return "–"
    f = (lambda v: f"{v:+.1%}" if signed else f"{v:.1%}") if percent else (lambda v: f"{v:+.2f}" if signed else f"{v:.2f}")
    text = f(e["mean"])
    if e.get("low") is not None:
        text += f" [{f(e['low'])}, {f(e['high'])}]"
    if "k" in e:
        text += f" ({e['k']}/{e['n']})"
    return text


def estimate_cell(path: Sequence[str], e: Mapping[str, Any] | None, signed: bool = False, percent: bool = False) -> str:
    if not e or e.get("mean") is None:
        return "<td>–</td>"
    cls = ("up" if e["low"] > 0 else "down" if e["high"] < 0 else "") if signed and e.get("low") is not None else ""
    return cell(path, e["mean"], estimate_text(e, signed, percent), cls)


def section(report: Mapping[str, Any], players: str) -> str:
    """The behaviour of one player count's games under both rule sets; empty without ``against``."""
    b = report["counts"][players].get("behaviour")
    if not b:
        return ""
    base = ["counts", players, "behaviour"]
    v, a = escape(report["variant"]), escape(report["against"])
    rows = "".join(
        f"<tr><td>{escape(words)}</td>"
        + estimate_cell([*base, "variant", key], b["variant"][key])
        + estimate_cell([*base, "against", key], b["against"][key])
        + estimate_cell([*base, "differences", key], b["differences"][key], signed=True)
        + cell([*base, "games_needed", key], b["games_needed"][key], f"{b['games_needed'][key]:,}" if b["games_needed"][key] else "")
        + "</tr>"
        for key, words in FIGURES)
    w = b["winner_changes"]
    if report.get("mode") == "play":
        how = ("Games played under each rule set by bots that play to the rules in force (<code>--play</code>): "
               "what the players do differently.")
    else:
        how = ("The same seeds played by the same bots under each rule set (<code>--rescore</code> compares their scoring); "
               "bots that do not read the scoring play both alike, so a difference here is the rules of play, not the scoring. "
               "<code>--play</code> plays with a bot that plays to the rules in force.")
    return (
        f"<h3>How the players played: {v} and {a}</h3><p class=\"note\">{how}</p>"
        f"<p>The winner of a seed's game as played changes in "
        f"<strong><span data-figure='{escape(json.dumps([*base, 'winner_changes']))}' data-value='{json.dumps(w['mean'])}'>"
        f"{escape(estimate_text(w, percent=True))}</span></strong> of the seeds. Stating that share within ±5 points "
        f"takes about <span data-figure='{escape(json.dumps([*base, 'games_for_winner_change_within_5_points']))}' "
        f"data-value='{b['games_for_winner_change_within_5_points']}'>{b['games_for_winner_change_within_5_points']:,}</span> games.</p>"
        f"<table><tr><th>per game</th><th>{v}</th><th>{a}</th><th>{a} − {v}, per seed [95% CI]</th>"
        f"<th>games to see this difference</th></tr>{rows}</table>"
        "<p class=\"note\">Games to see a difference d (its 95% interval excluding 0 in 4 runs of 5): "
        "n = (1.96 + 0.84)² · sd² / d², sd that of the per-seed differences; – when there is no difference.</p>"
    )
