"""Per-seat views of a game (R-TIX-4: tickets are hidden; hands are private).

A view is built from scratch from the state, field by field, so nothing hidden can slip in by
accident; the tests compare every view of every action against every other seat's secrets.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
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
    return {key: view_value(game, seat, key) for key in view_keys(game, seat)}


def view_keys(game: Game, seat: int | None) -> tuple[str, ...]:
    """The keys of ``game.view(seat)``, in its order: a seat's own part (``you``) for a seat, the
    ``result`` once the game is over."""
    st = game.state
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(st.players)):
        # a negative index would show another seat's hand (players[-1] is the last seat)
        raise TTRError(f"there is no seat {seat!r} (seats are 0 to {len(st.players) - 1}, or None for a spectator)")
    return _KEYS + (("you",) if seat is not None else ()) + (("result",) if game.result is not None else ())


def view_value(game: Game, seat: int | None, key: str) -> Any:
    """One key of ``game.view(seat)``, built alone (for a reader that needs a few keys of the view
    and not the rest: ``ttr_env`` observing a seat); ``seat`` is one :func:`view_keys` accepted."""
    return _VALUES[key](game, seat)


def _players(game: Game, seat: int | None) -> list[dict[str, Any]]:
    return [
        {
            "name": p.name,
            "trains": p.trains,
            "cards": sum(p.hand),
            "tickets": len(p.tickets),
            "route_points": p.route_points,
            "resigned": p.resigned,
            "decision": None if p.decision is None else (p.decision.private() if i == seat else p.decision.public()),
        }
        for i, p in enumerate(game.state.players)
    ]


def _you(game: Game, seat: int) -> dict[str, Any]:
    me = game.state.players[seat]
    return {
        "seat": seat,
        "hand": game.cards.counts_by_name(me.hand),
        "tickets": [game.board.tickets[t].id for t in me.tickets],
    }


def _rules(game: Game, seat: int | None) -> dict[str, Any]:
    rules: dict[str, Any] = {}
    for part in plugin_parts(game, seat):
        rules.update(part or {})
    return rules


#: how each key of a view is built from the game, by key in the view's order
_VALUES: Mapping[str, Callable[[Game, Any], Any]] = MappingProxyType({
    "variant": lambda game, seat: game.ruleset.variant,
    "version": lambda game, seat: game.ruleset.version,
    "phase": lambda game, seat: game.state.phase,
    "turn": lambda game, seat: game.state.turn,
    "current": lambda game, seat: game.state.current if game.state.phase == "play" else None,
    "to_act": lambda game, seat: game.to_act(),
    "final_round": lambda game, seat: game.state.final_round is not None,
    "open_row": lambda game, seat: [game.cards.names[c] if c >= 0 else None for c in game.state.open_row],
    "deck_size": lambda game, seat: len(game.state.deck),
    "discard_size": lambda game, seat: len(game.state.discard),
    "tickets_left": lambda game, seat: len(game.state.ticket_deck),
    "routes": lambda game, seat: {game.board.routes[r].id: s for r, s in enumerate(game.state.owner) if s >= 0},
    "players": _players,
    "rules": _rules,
    "you": _you,
    "result": lambda game, seat: _conv.unstructure(game.result),
})
#: the keys every view has
_KEYS = tuple(key for key in _VALUES if key not in ("you", "result"))


def plugin_parts(game: Game, seat: int | None) -> list[Any]:
    """The plugins' parts of the view of ``seat`` (``ttr_view``), a failure named as the plugin's."""
    try:
        return game.hook.ttr_view(game=game, seat=seat)
    except TTRError:
        raise
    except Exception as exc:  # named like any other plugin failure; a view changes nothing to undo
        who = "a spectator" if seat is None else f"seat {seat}"
        raise manager.blame(game.pm, exc, seat, None, doing=f"building the view of {who}; the game is unchanged") from exc
