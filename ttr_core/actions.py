"""Actions as data, and the registry that maps each kind of action to the plugin handling it.

An action is a small frozen attrs class with a ``kind`` tag. Every kind belongs to the plugin that
registers it with ``ttr_register_actions`` (``draw-card``, ``claim-route``, ``build-station``...):
the core knows only the base class and the registry. Records store actions as ``{"kind": ..., fields...}``, so a plugin's
action serialises like a built-in one (a tagged union, as cattrs' strategies describe).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Protocol

import attrs
import cattrs

from ttr_core.errors import MalformedAction, PluginConflict
from ttr_core.files import make_converter


@attrs.frozen
class Action:
    """The base class of every action: a frozen attrs class whose fields are the action's data.

    ``kind`` (a class attribute) names the kind in records and JSON data (``"claim-route"``); the
    fields are the rest (``route``, ``color``...). Actions are immutable values: equal fields,
    equal actions, so a host may compare a client's action with ``legal_actions``.
    """

    kind: ClassVar[str] = ""


class ActionHandler(Protocol):
    """What a plugin provides for each action kind it registers."""

    def legal(self, game: Any, seat: int) -> Iterable[Action]:
        """The legal actions of this kind for ``seat`` now (one payment per route and colour), read
        once into the game's listing (``ttr_core.listing.Listing``)."""

    def check(self, game: Any, seat: int, action: Action) -> None:
        """Raise an ``IllegalAction`` subclass if ``action`` is not allowed; change nothing."""

    def apply(self, game: Any, seat: int, action: Action) -> None:
        """Carry out a checked action. Set ``player.decision`` to keep the turn open."""


@attrs.define
class Registration:
    cls: type[Action]
    handler: ActionHandler
    plugin: str
    starts_turn: bool  # may open a turn, not only answer a pending decision
    fallback: bool  # legal only when nothing else is (R-TURN-2)
    any_time: bool  # any seat, in or out of turn, even with a decision pending (resigning)
    #: the handler's ``check`` and ``apply``, bound once: the game calls them for every action of
    #: every kind from one place, where a method looked up on handlers of many classes is looked
    #: up anew at each call
    check: Callable[[Any, int, Action], None] = attrs.field(init=False, repr=False, eq=False)
    apply: Callable[[Any, int, Action], None] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        handler = self.handler
        # a handler lacking one fails when it is called, as the plugin's error, not at registration
        self.check = getattr(handler, "check", None) or (lambda *args: handler.check(*args))
        self.apply = getattr(handler, "apply", None) or (lambda *args: handler.apply(*args))


_DECODED_LIMIT = 50_000


class ActionRegistry:
    """The action kinds of one game, filled by ``ttr_register_actions`` and then frozen."""

    def __init__(self) -> None:
        self._by_kind: dict[str, Registration] = {}
        self._by_cls: dict[type, Registration] = {}
        #: the registrations by action class, read without a call where every action is admitted
        #: (``Game.apply``); ``for_action`` is the same look-up
        self.by_class: Mapping[type, Registration] = self._by_cls
        self.current_plugin = "?"
        self._converter = make_converter()
        self._decoded: dict[tuple, Action] = {}
        self._handlers: dict[object, tuple[Registration, ...]] = {}  # asked at every action: kept

    def add(
        self, cls: type[Action], handler: ActionHandler, *, starts_turn: bool = True, fallback: bool = False,
        any_time: bool = False,
    ) -> None:
        """Register ``cls`` (its ``kind``) with ``handler``. ``starts_turn``: may open a turn (False: only
        answers a pending decision). ``fallback``: legal only when nothing else is. ``any_time``:
        any active seat may play it at any moment (its handler must settle the seat's pending
        decision and turn itself)."""
        if not cls.kind:
            raise PluginConflict(f"plugin {self.current_plugin!r}: action class {cls.__name__} has no kind")
        if cls.kind in self._by_kind:
            other = self._by_kind[cls.kind].plugin
            raise PluginConflict(
                f"plugins {other!r} and {self.current_plugin!r} both register the action {cls.kind!r}"
            )
        reg = Registration(cls, handler, self.current_plugin, starts_turn, fallback, any_time)
        self._by_kind[cls.kind] = reg
        self._by_cls[cls] = reg
        self._handlers.clear()

    def __iter__(self):
        return iter(self._by_kind.values())

    def turn_openers(self) -> tuple[Registration, ...]:
        """The kinds that may open a turn, fallbacks aside, in registration order."""
        found = self._handlers.get("turn")
        if found is None:
            found = self._handlers["turn"] = self._matching(lambda r: r.starts_turn and not r.fallback)
        return found

    def fallbacks(self) -> tuple[Registration, ...]:
        """The kinds legal only when nothing else is (R-TURN-2), in registration order."""
        found = self._handlers.get("fallback")
        if found is None:
            found = self._handlers["fallback"] = self._matching(lambda r: r.fallback)
        return found

    def answering(self, kinds: Sequence[str]) -> tuple[Registration, ...]:
        """The registrations of ``kinds`` (the kinds a decision allows), in registration order."""
        key = kinds if type(kinds) is tuple else tuple(kinds)  # a decision may hold a list
        found = self._handlers.get(key)
        if found is None:
            found = self._handlers[key] = self._matching(lambda r: r.cls.kind in key)
        return found

    def _matching(self, wanted) -> tuple[Registration, ...]:
        return tuple(r for r in self._by_kind.values() if wanted(r))

    def for_action(self, action: object) -> Registration | None:
        """How ``action``'s kind is registered (handler, plugin, when it may be played), or None."""
        return self._by_cls.get(type(action))

    def kinds(self) -> list[str]:
        """The action kinds of this ruleset, sorted."""
        return sorted(self._by_kind)

    def action_class(self, kind: str) -> type[Action] | None:
        """The action class registered for ``kind`` (None if no plugin of this ruleset registers it)."""
        reg = self._by_kind.get(kind)
        return None if reg is None else reg.cls

    # --- serialisation -------------------------------------------------------------------

    def to_data(self, action: Action) -> dict[str, Any]:
        """``action`` as JSON data: ``{"kind": ..., fields...}``, every field included."""
        return {"kind": action.kind, **self._converter.unstructure(action)}

    def from_data(self, data: Any, seat: int | None = None) -> Action:
        """The action that JSON ``data`` (``{"kind": ..., fields...}``) describes. Fields left out
        take their defaults. Raises :class:`~ttr_core.errors.MalformedAction` (naming ``seat``) if
        ``data`` is not an object with a known ``kind`` and fields of the right types; whether the
        action is legal is ``Game.apply``'s to decide."""
        return self._cached(data, self._structure, seat)

    def from_entry(self, entry: dict[str, Any]) -> Action:
        """Decode one line of a record, ``{"seat": s, "kind": ..., fields...}``: replay's hot path,
        so the line itself is the cache key (the seat is not part of the action)."""
        return self._cached(entry, self._structure_entry, entry.get("seat"))

    def _structure_entry(self, entry: dict[str, Any], seat: int | None) -> Action:
        return self.from_data({k: v for k, v in entry.items() if k != "seat"}, seat)

    def _cached(self, data: Any, decode, seat: int | None) -> Action:
        # Actions are immutable values and a record repeats a few hundred of them, so decoded ones
        # are kept, keyed by their fields' values *and types* (True == 1, but a slot is no bool).
        try:
            key = tuple([(k, v.__class__, v) for k, v in data.items()])
            return self._decoded[key]
        except KeyError:  # not seen yet
            pass
        except (TypeError, AttributeError):  # unhashable (a ticket list), or not a dict: not kept
            return decode(data, seat)
        action = decode(data, seat)
        if len(self._decoded) >= _DECODED_LIMIT:
            self._decoded.clear()
        self._decoded[key] = action
        return action

    def _structure(self, data: Any, seat: int | None) -> Action:
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise MalformedAction(seat, data, "an action is an object with a string 'kind'")
        reg = self._by_kind.get(data["kind"])
        if reg is None:
            raise MalformedAction(seat, data, f"unknown action kind {data['kind']!r}; known: {', '.join(self.kinds())}")
        fields = {k: v for k, v in data.items() if k != "kind"}
        try:
            return self._converter.structure(fields, reg.cls)
        except (cattrs.BaseValidationError, TypeError, ValueError) as exc:
            lines = cattrs.transform_error(exc) if isinstance(exc, cattrs.BaseValidationError) else [str(exc)]
            raise MalformedAction(seat, data, "; ".join(lines)) from None
