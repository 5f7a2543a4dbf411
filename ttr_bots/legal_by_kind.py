"""A seat's legal actions grouped by kind, each kind listed only when a bot first asks for it.

A bot that draws a card does not need the hundred-odd payments of every route it could claim:
at the start of a turn or with a decision pending, each kind is asked of the plugin that
registered it (``game.registry``, ``handler.legal(game, seat)``), as ``game.legal_actions``
asks every kind it lists. A kind listed this way holds the same actions, in the same order, as
in ``game.legal_actions``. Anywhere else (another seat's turn) the whole list is taken at once.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from ttr_core.actions import Action


class Listing(Sequence):
    """A list of actions made on first use (iterating, ``len``, indexing, ``bool``)."""

    __slots__ = ("_make", "_items")

    def __init__(self, make: Callable[[], list[Action]] | None, items: list[Action] | None = None):
        self._make = make
        self._items = items

    def items(self) -> list[Action]:
        if self._items is None:
            self._items = self._make()
        return self._items

    def __getitem__(self, i):
        return self.items()[i]

    def __len__(self) -> int:
        return len(self.items())

    def __bool__(self) -> bool:
        items = self._items
        return bool(items if items is not None else self.items())

    def __iter__(self) -> Iterator[Action]:
        return iter(self.items())

    def __repr__(self) -> str:
        return f"Listing({self._items!r})" if self._items is not None else "Listing(<not listed yet>)"


class KindHandlers:
    """The handlers of one ruleset's action kinds, by kind: ``turn_openers`` those of the kinds
    that may start a turn (fallbacks aside), :meth:`answering` those of the kinds a decision
    allows. A ruleset's registry serves all its games and never changes once filled, so a bot
    keeps the one of the registry it plays with (:meth:`of`) instead of looking them up at every
    decision."""

    __slots__ = ("registry", "turn_openers", "_answering")

    def __init__(self, registry: Any):
        self.registry = registry
        self.turn_openers: dict[str, Any] = {r.cls.kind: r.handler for r in registry if r.starts_turn and not r.fallback}
        self._answering: dict[tuple[str, ...], dict[str, Any]] = {}  # by the kinds allowed

    @classmethod
    def of(cls, registry: Any, kept: KindHandlers | None) -> KindHandlers:
        """``kept`` if it was made for ``registry`` (the same object), else the handlers of ``registry``."""
        return kept if kept is not None and kept.registry is registry else cls(registry)

    def answering(self, kinds: tuple[str, ...]) -> dict[str, Any]:
        """The handlers of ``kinds``."""
        found = self._answering.get(kinds)
        if found is None:
            found = self._answering[kinds] = {r.cls.kind: r.handler for r in self.registry if r.cls.kind in kinds}
        return found


#: the listing of a kind that no rule offers now: one constant, listed already (empty), that
#: nothing changes
_NOTHING = Listing(None, ())


class LegalByKind:
    """The legal actions of ``seat`` in ``game`` now, by kind: ``by_kind.get("draw-card")`` (a
    :class:`Listing`, empty if the kind has none), ``"claim-route" in by_kind`` (the kind has at
    least one), ``by_kind["draw-tickets"]``; ``by_kind.everything`` is ``game.legal_actions(seat)``.

    Built as is, every kind is taken from ``everything``; :meth:`at_turn_start` and
    :meth:`answering` list each kind alone, where the rules make that the same."""

    def __init__(self, game: Any, seat: int, handlers: Mapping[str, Any] | None = None):
        self.game, self.seat, self._handlers = game, seat, handlers
        self._kinds: dict[str, Listing] = {}
        self.everything = Listing(partial(game.legal_actions, seat))

    @classmethod
    def at_turn_start(cls, game: Any, seat: int, handlers: KindHandlers | None = None) -> LegalByKind:
        """For ``seat`` starting its turn (no decision pending): the kinds that may start a turn.
        A ruleset's fallback actions (passing, R-TURN-2) are then only in ``everything``, as they
        are legal only when nothing else is. ``handlers``: those of ``game.registry``, if the
        caller keeps them."""
        return cls(game, seat, KindHandlers.of(game.registry, handlers).turn_openers)

    @classmethod
    def answering(cls, game: Any, seat: int, allowed: Collection[str], handlers: KindHandlers | None = None) -> LegalByKind:
        """For ``seat`` with a decision pending that the kinds ``allowed`` answer (``handlers`` as
        for :meth:`at_turn_start`)."""
        return cls(game, seat, KindHandlers.of(game.registry, handlers).answering(tuple(allowed)))

    def get(self, kind: str, default: Any = None) -> Listing:
        """The actions of ``kind``, listed on first use; an empty listing stands for ``default``."""
        listing = self._kinds.get(kind)
        if listing is None:
            if self._handlers is not None and kind not in self._handlers:
                listing = _NOTHING  # no rule of this ruleset offers it now
            else:
                listing = Listing(partial(_list, self.game, self.seat, self._handlers, self.everything, kind))
            self._kinds[kind] = listing
        return listing

    def asked_of_rule(self, kind: str) -> bool:
        """Whether the rule registering ``kind`` offers it now and lists it alone (at a turn's start
        or answering a decision), rather than ``everything`` holding it."""
        return self._handlers is not None and kind in self._handlers

    def __getitem__(self, kind: str) -> Listing:
        return self.get(kind)

    def __contains__(self, kind: str) -> bool:
        listing = self._kinds.get(kind)
        if listing is None:
            listing = self.get(kind)
        return listing is not _NOTHING and bool(listing)


def _list(game: Any, seat: int, handlers: Mapping[str, Any] | None, everything: Listing, kind: str) -> list[Action]:
    """The actions of ``kind``. A function, not a method: a listing holding its ``LegalByKind``
    would make a reference cycle, garbage left at every action for the cycle collector."""
    if handlers is not None:
        handler = handlers.get(kind)
        if handler is None:
            return []
        try:
            return list(handler.legal(game, seat))
        except Exception:  # noqa: BLE001 - listed again below, by the game, whose error names the plugin
            pass
    return [a for a in everything if a.kind == kind]
