"""Bots: players that choose actions by themselves, for bot games, simulations and the server.

Every bot, built-in or third-party, is found through the ``ttr.bots`` entry-point group, as rule
plugins are through ``ttr``: an entry point's name is the name ``ttr play --bots``, ``simulate``,
``compare`` and the server take, and it points at a class following the :class:`Bot` protocol::

    # pyproject.toml of a bot package
    [project.entry-points."ttr.bots"]
    greedy = "my_bots.greedy:GreedyBot"

``ttr bots`` lists the installed ones. Problems are errors naming the bot: an unknown name (with
close matches and the installed names), an entry point that fails to load or is not a bot, a bot
still written for the old ``choose(game, seat)``.

A bot is asked for its move with :func:`ask`: ``bot.choose(game.seat_view(seat))``, the view closed
once it has chosen.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import inspect
from collections.abc import Callable, Iterator, Mapping, Sequence
from importlib.metadata import EntryPoint
from typing import ClassVar, Protocol

import attrs

from ttr_core.actions import Action
from ttr_core.errors import TTRError
from ttr_core.manager import installed
from ttr_core.game import Game
from ttr_core.seat_view import SeatView
from ttr_core.variant import Ruleset

#: the entry-point group bots are declared in
GROUP = "ttr.bots"

#: the registry of bots enabled in-process by ``local_bots`` (tests, a bot not packaged yet), by
#: name; the process's only bot state besides the classes of installed bots (``_installed_class``)
_LOCAL: dict[str, type[Bot]] = {}


class Bot(Protocol):
    """What the applications need of a bot.

    ``BotClass(seed, seat)`` builds the player of one seat for one game; ``choose(view)`` is asked
    for that seat's next action whenever the seat is to act (its turn, or a decision pending for
    it such as a second card or tickets to keep), and returns an action the rules accept,
    typically one of ``view.legal_actions()``. The view (:class:`~ttr_core.seat_view.SeatView`,
    ``game.seat_view(seat)``) is what the seat may know: the board and the public table, its own
    hand, tickets and pending decision, the legal actions (``view.actions(kind)`` lists one kind),
    the plugins' parts of the view (``view.rules``). It holds nothing of another seat's hand or
    tickets, the decks' order or the game's generator. A bot that searches deals whole games
    from it, ``view.sample_game(rng)``, consistent with what the seat knows and never the real
    one. The view serves one decision: it is closed once the bot has chosen (:func:`ask`).

    A bot seeds its own generator from ``(seed, seat)`` (``random.Random(f"my-bot:{seed}:{seat}")``),
    so that a bot game is reproducible from its seed alone. One instance plays one seat of one
    game, so it may remember what it learnt during that game on itself. What it works out to save
    time lives on the instance too, never in a module: keyed by what it was made from (the board,
    the ruleset, kept as references, never an ``id()``), it stays right when the game is asked
    about through another object (a server loads a game again between moves).

    Bots written for ``choose(game, seat)`` (before the view) are refused when their class is
    looked up (:class:`OldBotSignature`): ``choose(self, view)`` reads ``view.seat`` for the seat.

    ``name`` is the name the bot is installed under (its entry point's name).
    """

    name: ClassVar[str]

    def __init__(self, seed: int, seat: int) -> None:
        """The player of ``seat`` for the game of ``seed``."""

    def choose(self, view: SeatView) -> Action:
        """The next action of the seat ``view`` is of: asked whenever that seat is to act, it must
        return an action the rules accept (``game.apply`` raises an ``IllegalAction`` otherwise)."""


class BotError(TTRError):
    """A bot could not be found or loaded."""


class OldBotSignature(BotError):
    """A bot class whose ``choose`` still takes ``(game, seat)``: bots are handed a seat's view now."""


def ask(bot: Bot, game: Game, seat: int) -> Action:
    """``bot``'s action for ``seat`` in ``game``: ``bot.choose(game.seat_view(seat))``, the view
    closed once it has chosen (a bot keeping it keeps values only)."""
    view = game.seat_view(seat)
    try:
        return bot.choose(view)
    finally:
        view.close()


def check_bot_class(cls: type, name: str) -> None:
    """Refuse a class that cannot be a bot: no ``choose``, or the old ``choose(game, seat)``
    (:class:`OldBotSignature`, saying what to change)."""
    choose = getattr(cls, "choose", None)
    if not isinstance(cls, type) or not callable(choose):
        raise BotError(f"bot {name!r} is not a bot class: it needs a choose(view) method")
    try:
        params = list(inspect.signature(choose).parameters.values())
    except (TypeError, ValueError):  # a builtin or a callable without a signature: taken as it is
        return
    positional = [p for p in params[1:] if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    if len(required) >= 2 or [p.name for p in positional[:2]] == ["game", "seat"]:
        raise OldBotSignature(
            f"bot {name!r} ({cls.__module__}.{cls.__qualname__}) defines choose(game, seat): bots are handed "
            "the seat's view now, choose(self, view) (ttr_core.seat_view.SeatView: view.seat, "
            "view.legal_actions(), view.board, view.hand...; see docs/tutorial-bot.md)"
        )


class UnknownBot(BotError):
    """A bot name that no installed package (and no ``local_bots`` block) provides."""


@contextlib.contextmanager
def local_bots(bots: Mapping[str, type[Bot]]) -> Iterator[None]:
    """Make bot classes usable by name without installing a package, for the ``with`` block.

    Processes forked inside the block (``simulate``'s local pool) see them too; Dask workers do not.
    """
    clash = sorted(set(bots) & (set(available()) | set(_LOCAL)))
    if clash:
        raise BotError(f"local bot name(s) already taken: {', '.join(clash)}")
    for name, cls in bots.items():
        check_bot_class(cls, name)
    _LOCAL.update(bots)
    try:
        yield
    finally:
        for name in bots:
            _LOCAL.pop(name, None)


def available() -> Mapping[str, EntryPoint]:
    """All bots installed, by entry-point name."""
    return installed(GROUP)


def names() -> list[str]:
    """Every bot name usable now: the installed ones and those of a ``local_bots`` block."""
    return sorted({*available(), *_LOCAL})


def bot_class(name: str) -> type[Bot]:
    """The bot class installed (or made local) under ``name``; :class:`UnknownBot` if none is."""
    if name in _LOCAL:
        return _LOCAL[name]
    return _installed_class(name)


def bot_classes(wanted: Sequence[str]) -> tuple[type[Bot], ...]:
    """``bot_class`` of each name, checked all at once: the error names every unknown bot."""
    if not wanted:
        raise UnknownBot(f"no bot given; installed bots: {', '.join(names())}")
    unknown = [n for n in dict.fromkeys(wanted) if n not in _LOCAL and n not in available()]
    if unknown:
        raise UnknownBot(_unknown(unknown))
    return tuple(bot_class(n) for n in wanted)


def _unknown(wanted: Sequence[str]) -> str:
    known = names()
    parts = []
    for name in wanted:
        close = difflib.get_close_matches(name, known, n=3)
        parts.append(f"unknown bot {name!r}" + (f" (did you mean {', '.join(map(repr, close))}?)" if close else ""))
    return "; ".join(parts) + f"; installed bots: {', '.join(known)}"


@functools.cache
def _installed_class(name: str) -> type[Bot]:
    """The class installed under ``name``: the registry of installed bots, each entry point loaded
    once per process (the installed packages do not change while it runs)."""
    eps = available()
    if name not in eps:
        raise UnknownBot(_unknown([name]))
    try:
        cls = eps[name].load()
    except Exception as exc:  # a broken third-party package must not look like our bug
        raise BotError(f"bot {name!r} ({eps[name].value}) failed to load: {type(exc).__name__}: {exc}") from exc
    if not isinstance(cls, type) or not callable(getattr(cls, "choose", None)):
        raise BotError(f"bot {name!r} ({eps[name].value}) is not a bot class: it needs a choose(view) method")
    check_bot_class(cls, name)
    return cls


@attrs.frozen
class BotInfo:
    """One line of ``ttr bots``."""

    name: str
    origin: str  # the distribution that installed it ("ttr-engine 0.1.0"), or "local"
    target: str  # where the class is: "ttr_bots.random_bot:RandomBot"
    doc: str  # the first line of the class's docstring
    error: str | None = None  # why it cannot be loaded


def describe() -> list[BotInfo]:
    """Every usable bot name with where it comes from; a bot that fails to load is listed with why."""
    out = []
    for name in names():
        ep = available().get(name) if name not in _LOCAL else None
        origin = "local" if ep is None else f"{ep.dist.name} {ep.dist.version}" if ep.dist else "installed"
        try:
            cls = bot_class(name)
        except BotError as exc:
            out.append(BotInfo(name, origin, ep.value if ep else "", "", str(exc)))
            continue
        doc = (cls.__doc__ or "").strip().splitlines()
        target = ep.value if ep else f"{cls.__module__}:{cls.__qualname__}"
        out.append(BotInfo(name, origin, target, doc[0] if doc else ""))
    return out


def play_game(
    ruleset: Ruleset,
    players: int,
    seed: int,
    bots: Sequence[str] = ("random",),
    on_action: Callable[[Game, int, Action], None] | None = None,
    max_actions: int = 20_000,
    on_start: Callable[[Game], None] | None = None,
) -> Game:
    """Play a whole game of bots and return it, over (read ``game.result``).

    ``bots`` are names (``ttr bots`` lists them; :func:`local_bots` adds some), cycled over the
    ``players`` seats, who are named ``P1``, ``P2``... Each seat's bot is built as
    ``BotClass(seed, seat)``; ``on_start(game)`` is called once the game is set up and
    ``on_action(game, seat, action)`` after every action (to print or record the game as it
    goes). An unknown bot name is an :class:`UnknownBot` before the game starts; a game still
    running after ``max_actions`` actions is a ``RuntimeError``."""
    classes = bot_classes(bots)  # before the game is built: an unknown name costs nothing
    game = Game(ruleset, [f"P{i + 1}" for i in range(players)], seed)
    if on_start:
        on_start(game)
    seats = [classes[i % len(classes)](seed, i) for i in range(players)]
    for _ in range(max_actions):
        if game.over:
            return game
        seat = game.to_act()[0]
        action = ask(seats[seat], game, seat)
        game.apply(seat, action)
        if on_action:
            on_action(game, seat, action)
    raise RuntimeError(f"seed {seed}: the game did not end within {max_actions} actions")
