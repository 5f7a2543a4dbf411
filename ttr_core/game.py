"""One game: its plugins, its state, and the turn flow.

The core sequences turns and nothing else: who may act, pending decisions, the end of a turn,
the final round's bookkeeping, and the end of the game. Who starts, who plays next, when the final
round begins and who plays in it are asked of plugins, as is every rule a variant can change (the
hooks of :mod:`ttr_core.hookspecs`).

A game is fully described by its ruleset, seed, player names and action log (randomness comes
only from ``game.rng``, seeded here), which is what records store and what ``replay`` rebuilds.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from ttr_core import hidden, manager
from ttr_core.acting import Acting, SeatActions
from ttr_core.actions import Action, Registration
from ttr_core.errors import (
    GameOver,
    IllegalAction,
    MalformedAction,
    NotLegalNow,
    NotYourTurn,
    TTRError,
)
from ttr_core.listing import Listing
from ttr_core.open_row_table import OpenRowOperations
from ttr_core.prepared import PreparedRules
from ttr_core.scoring import GameResult, score_game
from ttr_core.seat_view import SeatView
from ttr_core.shuffle import shuffle
from ttr_core.state import Decision, GameState, PlayerState, StateSnapshot, digest
from ttr_core.table import TableOperations
from ttr_core.variant import Ruleset



class SetupError(TTRError):
    """A game cannot be created as asked (e.g. a player count the variant does not allow)."""


class SharedGenerator:
    """A game's seeded generator, shared by the game, its clones and its checkpoint until one of
    them draws from it.

    A clone or a checkpoint must go on from the generator's state at the time it was made, but
    copying a generator (625 words) costs more than the rest of a clone, and most never draw: a
    search bot's clones seldom do, and a checkpoint is replaced at the next turn (a usa game draws
    only to shuffle the discard, R-DRAW-3). So a copy of a game takes a share (:meth:`shared`),
    and a holder about to draw first takes the generator as its own (:meth:`own`): the same one
    if nobody else holds it, else a copy of its state, leaving the others theirs. A holder
    dropped without drawing still counts: another then copies once more than it had to."""

    __slots__ = ("generator", "holders")

    def __init__(self, generator: random.Random):
        self.generator = generator
        self.holders = 1

    def shared(self) -> SharedGenerator:
        """This generator, held by one more (a clone, a checkpoint)."""
        self.holders += 1
        return self

    def own(self) -> SharedGenerator:
        """This generator for a holder about to draw from it: itself if nobody else holds it,
        else a copy of it held by that holder alone."""
        if self.holders == 1:
            return self
        self.holders -= 1
        copy = random.Random.__new__(random.Random)  # not seeded: seeding reads the system's entropy
        copy.setstate(self.generator.getstate())
        return SharedGenerator(copy)


@attrs.frozen
class Checkpoint:
    """A game as it was after an action, ``log_length`` actions in: what a failed action is undone
    from (``Game._undo``) by replaying the actions logged since."""

    state: StateSnapshot
    rng: SharedGenerator  # a share of the game's generator (the checkpoint never draws from it)
    result: GameResult | None
    log_length: int


class Game(TableOperations, OpenRowOperations):
    """One game of a ruleset: the turn flow, the state, and the table operations plugins use
    (:class:`ttr_core.table.TableOperations`).

    What a program driving a game reads:

    - ``ruleset``, ``board`` (cities, routes, tickets), ``seed`` and ``names`` (the players, by seat);
    - ``state``: the whole state, hidden cards included (a bot reads :meth:`view` instead);
    - ``log``: every applied action as ``(seat, action)``, in order (what a record holds);
    - ``result``: the :class:`~ttr_core.scoring.GameResult` once :meth:`over`, else None;
    - ``memo``: what plugins work out from the state and keep between turns (never part of it).

    A turn: ``seat in game.to_act()``, ``action in game.legal_actions(seat)``, ``game.apply(seat, action)``.
    """

    def __init__(self, ruleset: Ruleset, players: Sequence[str], seed: int):
        lo, hi = ruleset.players.min, ruleset.players.max
        if not lo <= len(players) <= hi:
            raise SetupError(f"variant {ruleset.variant!r} takes {lo} to {hi} players, not {len(players)}")
        if len(set(players)) != len(players):
            raise SetupError(f"player names must differ: {list(players)}")
        self.ruleset = ruleset
        self.board = ruleset.board
        self.seed = seed
        self.names = tuple(players)
        self.rng = random.Random(seed)
        self.memo: dict[str, Any] = {}  # see GameAPI.memo
        self._listed: Listing | None = None  # the latest legal actions listed (``legal_actions``)...
        self._listed_seat: object = None  # ...for this seat,
        self._listed_state: GameState | None = None  # in this state,
        self._listed_after = 0  # after this many actions
        self._use(ruleset.rules)
        try:
            self.log: list[tuple[int, Action]] = []
            self.result: GameResult | None = None
            self.state = self._new_state(players)
            self.hook.ttr_game_created(game=self)
            self.hook.ttr_setup_table(game=self)
            if not any(p.decision for p in self.state.players):
                self._start_play()
        except TTRError:
            raise
        except Exception as exc:  # a plugin failed while the game was set up
            raise self._blame(exc, None, None, doing="setting up the game; no game was created") from exc

    # --- the generator ----------------------------------------------------------------------

    @property
    def rng(self) -> random.Random:
        """The game's seeded generator, the only source of randomness of the rules: read only to
        draw from it (clones and the checkpoint share it until then, see :class:`SharedGenerator`)."""
        self._generator = self._generator.own()
        return self._generator.generator

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._generator = SharedGenerator(value)

    # --- building ---------------------------------------------------------------------------

    def _use(self, shared: PreparedRules) -> None:
        self._shared = shared
        self.pm, self.hook, self.registry = shared.pm, shared.hook, shared.registry
        self.deck_counts, self.cards, self._points = shared.deck_counts, shared.cards, shared.points
        self._answers, self._watch = shared.answers, shared.watch
        # what lists the actions that open a turn, bound once (the registry is complete): asked at every turn
        self._turn_listings = tuple(r.handler.legal for r in shared.registry.turn_openers())
        #: the game after the last action that consulted a plugin that may not replay; None before
        #: one is needed
        self._checkpoint: Checkpoint | None = None
        self._seen: object = None  # the watch's token when the checkpoint was taken

    def _new_state(self, players: Sequence[str]) -> GameState:
        counts = self.deck_counts
        deck: list[int] = []
        for card, name in enumerate(self.cards.names):  # a card's id is its place among the names
            deck += [card] * counts.get(name, 0)
        shuffle(self.rng, deck)
        tickets = list(range(len(self.board.tickets)))
        shuffle(self.rng, tickets)
        width = len(self.cards.names)
        state = GameState(
            players=[PlayerState(name, [0] * width, self.board.trains) for name in players],
            deck=deck,
            discard=[],
            open_row=[],
            ticket_deck=tickets,
            owner=[-1] * len(self.board.routes),
        )
        for name, plugin in self._shared.plugins():
            if getattr(plugin, "State", None) is not None:
                state.ext[name] = plugin.new_state(len(players))
        return state

    # --- questions ------------------------------------------------------------------------

    def policy(self, hook: str, **kwargs: Any) -> Any:
        """The answer of a per-ruleset hook (``@per_ruleset``), asked once for all the ruleset's games."""
        try:  # the ruleset's answers, looked up here first: plugins ask at every turn
            return self._answers[(hook, *sorted(kwargs.items())) if kwargs else (hook,)]
        except KeyError:
            return self._shared.policy(hook, **kwargs)

    # what a program telling of a game reads (a move log, a record's facts, a server's listing),
    # all of it public at the table but a seat's hand and decision: values, not the state's own lists

    @property
    def phase(self) -> str:
        """``"setup"`` (the starting choices), ``"play"`` or ``"over"``."""
        return self.state.phase

    @property
    def turn(self) -> int:
        """How many turns have been completed."""
        return self.state.turn

    @property
    def final_round(self) -> bool:
        """Whether the final round has begun (R-END-1)."""
        return self.state.final_round is not None

    @property
    def end_reason(self) -> str:
        """Why the game ended, in words, once :attr:`over` (the result's ``reason``); else ``""``."""
        return self.state.end_reason

    @property
    def owner(self) -> tuple[int, ...]:
        """The owning seat of each route, by route index (-1: nobody's)."""
        return tuple(self.state.owner)

    @property
    def cards_left(self) -> int:
        """How many train cards are neither in a hand nor face up: the deck's and the discard pile's
        together. Whether the discard comes back into play is a plugin's rule (``ttr_deck_ran_out``;
        the train-cards plugin shuffles it into a new deck, R-DRAW-3), so 0 means no card is left
        under any rule; a positive count need not be drawable."""
        st = self.state
        return len(st.deck) + len(st.discard)

    @property
    def open_row_resets(self) -> tuple[int, int]:
        """How often the open row was discarded and dealt again, and how often the reset limit
        left it as dealt although a rule still asked for a reset (R-ROW-3)."""
        st = self.state
        return st.open_row_resets, st.open_row_reset_limits

    def hand_counts(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds, a count by card id (hidden from the other seats)."""
        return tuple(self.state.players[seat].hand)

    def decision(self, seat: int) -> Decision | None:
        """``seat``'s pending decision (a frozen value; its private part hidden from the others), or None."""
        return self.state.players[seat].decision

    def active_seats(self) -> list[int]:
        """The seats still in the game (not resigned), in seat order; every seat until someone resigns."""
        return [i for i, p in enumerate(self.state.players) if not p.resigned]

    def to_act(self) -> list[int]:
        """The seats that may act now."""
        st = self.state
        if st.phase == "setup":
            return [i for i, p in enumerate(st.players) if p.decision is not None and not p.resigned]
        return [st.current] if st.phase == "play" else []

    @property
    def over(self) -> bool:
        """Whether the game has ended (its final round played, everybody passed, or all but one
        resigned); ``result`` then holds the scores and the winners, and nobody may act."""
        return self.state.phase == "over"

    def legal_actions(self, seat: int) -> Listing:
        """Legal actions for ``seat`` now: one per choice, with one payment per route and colour
        (any other valid payment of that route is accepted too), as a tuple that also picks out
        a kind's or a route's actions (``ttr_core.listing.Listing``). The game remembers the
        latest one with its seat and moment: an action taken from it is applied without being
        checked again."""
        self._listed = None  # until this listing is made: a plugin failing in it leaves none trusted
        self._listed_seat, self._listed_state, self._listed_after = seat, self.state, len(self.log)
        listing = self._listed = Listing(self._legal_now(seat))
        return listing

    def _legal_now(self, seat: int) -> list[Action]:
        st = self.state
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(st.players):
            return []
        player = st.players[seat]
        if st.phase == "over" or player.resigned:
            return []
        decision = player.decision
        out: list[Action] = []
        try:
            if decision is not None:
                for reg in self.registry.answering(decision.allowed):
                    out += reg.handler.legal(self, seat)
                return out
            if st.phase != "play" or seat != st.current:
                return out
            for legal in self._turn_listings:
                out += legal(self, seat)
            if not out:
                for reg in self.registry.fallbacks():
                    out += reg.handler.legal(self, seat)
            return out
        except TTRError:
            raise
        except Exception as exc:  # a plugin failed while listing its actions
            raise self._blame(exc, seat, None, doing=f"listing the legal actions of seat {seat}") from exc

    def has_regular_action(self, seat: int) -> bool:
        """True if ``seat`` has any legal action besides the fallback ones (pass, R-TURN-2)."""
        return any(next(iter(r.handler.legal(self, seat)), None) is not None for r in self.registry.turn_openers())

    def acting(self, seats: Iterable[int] | None = None) -> Acting:
        """Who may act now and with what: each active seat's legal actions and the actions it may
        play at any time, and whether the seats to act decide together (see :class:`Acting`).
        During the setup every seat answers its own starting decision, in any order, from the
        first action on; after it one seat acts at a time. ``seats``: only these seats are listed
        (a host asking for one reader spares the listing of the others)."""
        st = self.state
        if st.phase == "over":
            return Acting((), None)
        to_act = set(self.to_act())
        any_time = tuple(r.handler for r in self.registry if r.any_time)
        wanted = None if seats is None else set(seats)
        found = []
        for seat in self.active_seats():
            if wanted is not None and seat not in wanted:
                continue
            legal = tuple(self.legal_actions(seat)) if seat in to_act else ()
            anytime = self._any_time_actions(seat, any_time)
            if legal or anytime:
                found.append(SeatActions(seat, legal, anytime))
        return Acting(tuple(found), 0 if st.phase == "setup" else None)

    def _any_time_actions(self, seat: int, handlers: tuple) -> tuple[Action, ...]:
        try:
            return tuple(a for handler in handlers for a in handler.legal(self, seat))
        except TTRError:
            raise
        except Exception as exc:  # a plugin failed while listing its actions
            raise self._blame(exc, seat, None, doing=f"listing the actions seat {seat} may play at any time") from exc

    # --- acting -----------------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> None:
        """Apply ``seat``'s action, or raise an ``IllegalAction`` and leave the game unchanged."""
        logged = len(self.log)
        watch = self._watch
        if watch is not None and watch.token is not self._seen:
            # a plugin that may not replay was consulted since the last copy (checks included: they
            # run again in a replay): copy the state, and the actions after it replay exactly
            self._seen = watch.token
            self._checkpoint = self._copied(logged, self._checkpoint)
        listed = self._listed
        try:
            if (listed is not None and self._listed_seat == seat and type(seat) is int  # (``1.0`` is no seat)
                    and self._listed_state is self.state and self._listed_after == logged and listed.holds(action)):
                reg = self.registry.by_class[type(action)]  # just listed for this seat and moment: legal
            else:
                reg = self._admit(seat, action)
        except IllegalAction:
            raise  # checks change nothing
        except Exception as exc:  # a plugin failed while the action was checked (checks change nothing)
            raise self._blame(exc, seat, action) from exc
        try:
            if watch is not None and reg.plugin in watch.plugins:
                # its action handler, noted here; calls of its hooks are noted by a hook wrapper
                # on the ruleset's plugin manager (``prepared._watch_unpredictable``)
                watch.consulted()
            reg.apply(self, seat, action)
            self.log.append((seat, action))
            # what follows an action, written out here as it follows every one: nothing while the
            # seat has a decision pending or after an out-of-turn action (resigning); the end of
            # the setup once every seat chose; else the end of the turn
            st = self.state
            if st.phase != "over" and st.players[seat].decision is None:
                if st.phase == "setup":
                    if not any(p.decision for p in st.players):
                        self._start_play()
                elif st.phase != "play" or seat == st.current:
                    self._end_turn(seat, action)
        except BaseException as exc:
            # blame before undoing: the blame recognises this game's plugin instances
            failure = None if isinstance(exc, IllegalAction | KeyboardInterrupt) else self._blame(exc, seat, action)
            self._undo(logged)
            if failure is None:
                raise
            raise failure from exc

    def _admit(self, seat: int, action: Action) -> Registration:
        st = self.state
        if st.phase == "over":
            raise GameOver(seat, action, f"the game is over ({st.end_reason})")
        reg = self.registry.by_class.get(type(action))  # ``registry.for_action``, without the call
        if reg is None:
            raise MalformedAction(seat, action, f"not an action of this game (known: {', '.join(self.registry.kinds())})")
        if not isinstance(seat, int) or not 0 <= seat < len(st.players):
            raise NotYourTurn(seat, action, f"there is no seat {seat!r}")
        player = st.players[seat]
        if player.resigned:
            raise NotYourTurn(seat, action, "this seat has left the game")
        if reg.any_time:
            pass
        elif player.decision is not None:
            if action.kind not in player.decision.allowed:
                raise NotLegalNow(
                    seat, action,
                    f"waiting for {player.decision.kind}: allowed now: {', '.join(player.decision.allowed)}",
                )
        elif st.phase == "setup":
            raise NotYourTurn(seat, action, "the first turn starts when every player has chosen starting tickets")
        elif seat != st.current:
            raise NotYourTurn(seat, action, f"it is seat {st.current}'s turn")
        elif not reg.starts_turn:
            raise NotLegalNow(seat, action, "there is nothing pending that this action answers")
        reg.check(self, seat, action)
        return reg

    def _start_play(self) -> None:
        self.state.phase = "play"
        self.state.current = self._seat_answer(self.hook.ttr_first_seat(game=self), "ttr_first_seat")
        self._turn_started(self.state.current)

    def _end_turn(self, seat: int, action: Action) -> None:
        st = self.state
        st.turn += 1
        self.hook.ttr_turn_ended(game=self, seat=seat, action=action)
        if st.phase == "over":
            return
        if st.final_round is None:
            if self.hook.ttr_final_round_triggered(game=self, seat=seat):
                # R-END-1: the seats that play once more; each is taken off as it finishes a turn
                seats = self.hook.ttr_final_round_seats(game=self, seat=seat)
                st.final_round = [s for s in seats if not st.players[s].resigned]
        else:
            st.final_round = [s for s in st.final_round if s != seat and not st.players[s].resigned]
            if not st.final_round:
                self.finish("the final round has been played (R-END-1)")
                return
        nxt = self.hook.ttr_next_seat(game=self, seat=seat)
        if nxt is None:
            self.finish("no player is left")
            return
        players = st.players  # ``_seat_answer``, written out: it runs at every turn
        if type(nxt) is not int or not 0 <= nxt < len(players) or players[nxt].resigned:
            self._seat_answer(nxt, "ttr_next_seat")
        st.current = nxt
        self._turn_started(nxt)

    def _turn_started(self, seat: int) -> None:
        if "ttr_turn_started" in self.hook.implemented:  # most rulesets have nothing to do then
            self.hook.ttr_turn_started(game=self, seat=seat)

    def _seat_answer(self, seat: Any, hook: str) -> int:
        """``seat``, the answer of ``hook``, if it is a seat still in the game: a plugin's mistake is
        reported here, naming the plugins that answer, not by the next action failing."""
        players = self.state.players
        if type(seat) is not int or not 0 <= seat < len(players) or players[seat].resigned:
            answering = ", ".join(repr(i.plugin_name) for i in getattr(self.pm.hook, hook).get_hookimpls()
                                  if i.plugin_name != manager.WATCH)
            raise ValueError(f"{hook} (answered by {answering}) gave {seat!r}, not a seat still in the game "
                             f"(seats 0 to {len(players) - 1}, not resigned)")
        return seat

    def finish(self, reason: str) -> None:
        """End the game now and score it. Plugins call this to end a game early (all passed, resigned)."""
        st = self.state
        self._listed = None  # nothing listed before is legal now
        for seat in range(len(st.players)):
            self.cancel_decision(seat)
        st.phase = "over"
        st.end_reason = reason
        self.result = score_game(self)

    def cancel_decision(self, seat: int) -> None:
        """Drop ``seat``'s pending decision, letting its plugin put held cards back (R-TURN-4)."""
        player = self.state.players[seat]
        if player.decision is not None:
            self._listed = None  # the answers listed to the decision answer nothing now
            self.hook.ttr_decision_cancelled(game=self, seat=seat, decision=player.decision)
            player.decision = None

    # --- failure -------------------------------------------------------------------------------

    def _undo(self, upto: int) -> None:
        """Back to the state before the failed action, the ``upto``-th of the log (it may have been
        logged already): replay the log from the last checkpoint (every action since consulted only
        plugins that replay exactly), or from the start where there is none (every plugin is
        deterministic, or the state could not be copied). The log is the truth."""
        if self._checkpoint is None:
            fresh, at = Game(self.ruleset, self.names, self.seed), 0
        else:
            fresh, at = self._from_checkpoint()
        for seat, action in self.log[at:upto]:
            fresh.apply(seat, action)
        self.__dict__.update(fresh.__dict__)

    def _from_checkpoint(self) -> tuple[Game, int]:
        """A copy of this game as it was at its checkpoint (which stays usable), and the length of
        the log then."""
        checkpoint = self._checkpoint
        fresh = object.__new__(Game)
        fresh.__dict__.update(self.__dict__)
        fresh.state = GameState.from_snapshot(checkpoint.state)
        fresh._generator = checkpoint.rng.shared()
        fresh.result = checkpoint.result
        fresh.log, fresh.memo = self.log[:checkpoint.log_length], {}
        return fresh, checkpoint.log_length

    def _copied(self, logged: int, last: Checkpoint | None = None) -> Checkpoint | None:
        """A checkpoint of this game, ``logged`` actions in, sharing what has not changed since the
        checkpoint ``last``; None if a plugin made its state uncopyable. A result is frozen."""
        try:
            snapshot = self.state.snapshot(None if last is None else last.state)
        except Exception:  # noqa: BLE001 - state a plugin made uncopyable: the log is all there is
            return None
        return Checkpoint(snapshot, self._generator.shared(), self.result, logged)

    def _blame(self, exc: BaseException, seat: int | None, action: Action | None, doing: str | None = None):
        return manager.blame(self.pm, exc, seat, action, doing)

    # --- copies, for search ------------------------------------------------------------------

    def clone(self) -> Game:
        """An independent copy that plays on exactly as this game would (same state, same generator
        state, same log), sharing the ruleset's immutable parts: what a search bot tries moves on."""
        twin = object.__new__(Game)
        twin.__dict__.update(self.__dict__)
        twin.state = self.state.copy()
        twin._generator = self._generator.shared()
        twin.log = self.log[:]
        twin.memo = {name: kept.copy() for name, kept in self.memo.items() if hasattr(kept, "copy")}
        return twin

    def determinize(self, seat: int | None, rng: random.Random) -> Game:
        """A clone in which everything ``seat`` cannot see (``None``: a spectator) is dealt anew from
        ``rng``, consistently with what it sees: the other players' hands and the deck are shuffled
        together (each hand keeps its size); the tickets it cannot see (the others' tickets and
        offers, the ticket deck, the tickets out of the game) are shuffled among their places, each
        place keeping its kind (a long ticket stays a long ticket); the game's generator is
        reseeded from ``rng``, since its state would tell how the discard will be shuffled. What
        ``seat`` sees, its view, does not change."""
        twin = self.clone()
        twin.rng = random.Random(rng.getrandbits(64))
        hidden.redeal(twin.state, [s for s in range(len(self.state.players)) if s != seat], self.board, rng)
        # a failure is undone from here, not by replaying the log from the seed (the real deal)
        twin._checkpoint = twin._copied(len(twin.log))
        return twin

    # --- looking ------------------------------------------------------------------------------

    def dump(self) -> dict[str, Any]:
        """The whole state as JSON data (hidden parts included), for comparisons and digests."""
        data = self.state.dump()
        data["rng"] = digest(repr(self._generator.generator.getstate()))  # reading its state draws nothing
        data["log"] = len(self.log)
        return data

    def seat_view(self, seat: int) -> SeatView:
        """What ``seat`` may know, typed and read-only (:class:`~ttr_core.seat_view.SeatView`): what
        a bot is handed for one decision, closed once it has chosen."""
        return SeatView.of(self, seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): public information plus that seat's own hand,
        tickets and pending decision. No deck order, no RNG state, no other hand or tickets."""
        from ttr_core.view import build_view

        return build_view(self, seat)
