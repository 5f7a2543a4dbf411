"""Per-seat views of a game (R-TIX-4: tickets are hidden; hands are private).

A view is built from scratch from the state, field by field, so nothing hidden can slip in by
accident; the tests compare every view of every action against every other seat's secrets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import cattrs

from ttr_core import manager
from ttr_core.errors import TTRError

if TYPE_CHECKING:
    from ttr_core.game import Game

_conv = cattrs.Converter()


def build_view(game: Game, seat: int | None) -> dict[str, Any]:
    """What ``game.view(seat)`` returns: the view of ``seat`` (``None``: a spectator) as JSON
    data (the documentation's page on views lists every key). A seat that does not exist is a
    :class:`~ttr_core.errors.TTRError`; a plugin failing in ``ttr_view`` is a
    :class:`~ttr_core.errors.PluginFailed` naming it (the game is unchanged)."""
    st = game.state
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(st.players)):
        # a negative index would show another seat's hand (players[-1] is the last seat)
        raise TTRError(f"there is no seat {seat!r} (seats are 0 to {len(st.players) - 1}, or None for a spectator)")
    names = game.cards.names
    board = game.board
    view: dict[str, Any] = {
        "variant": game.ruleset.variant,
        "version": game.ruleset.version,
        "phase": st.phase,
        "turn": st.turn,
        "current": st.current if st.phase == "play" else None,
        "to_act": game.to_act(),
        "final_round": st.final_round is not None,
        "open_row": [names[c] if c >= 0 else None for c in st.open_row],
        "deck_size": len(st.deck),
        "discard_size": len(st.discard),
        "tickets_left": len(st.ticket_deck),
        "routes": {board.routes[r].id: s for r, s in enumerate(st.owner) if s >= 0},
        "players": [
            {
                "name": p.name,
                "trains": p.trains,
                "cards": sum(p.hand),
                "tickets": len(p.tickets),
                "route_points": p.route_points,
                "resigned": p.resigned,
                "decision": None if p.decision is None else (p.decision.private() if i == seat else p.decision.public()),
            }
            for i, p in enumerate(st.players)
        ],
        "rules": {},
    }
    if seat is not None:
        me = st.players[seat]
        view["you"] = {
            "seat": seat,
            "hand": game.cards.counts_by_name(me.hand),
            "tickets": [board.tickets[t].id for t in me.tickets],
        }
    for part in plugin_parts(game, seat):
        view["rules"].update(part or {})
    if game.result is not None:
        view["result"] = _conv.unstructure(game.result)
    return view


def plugin_parts(game: Game, seat: int | None) -> list[Any]:
    """The plugins' parts of the view of ``seat`` (``ttr_view``), a failure named as the plugin's."""
    try:
        return game.hook.ttr_view(game=game, seat=seat)
    except TTRError:
        raise
    except Exception as exc:  # named like any other plugin failure; a view changes nothing to undo
        who = "a spectator" if seat is None else f"seat {seat}"
        raise manager.blame(game.pm, exc, seat, None, doing=f"building the view of {who}; the game is unchanged") from exc
