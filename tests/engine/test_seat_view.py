"""A bot is handed its seat's view (``game.seat_view(seat)``), never the game: what the view gives
is what the seat may know, a closed view holds no reference to the game or its state, and every
shipped bot chooses the same from the same knowledge however the hidden cards and tickets lie
(R-TIX-4: tickets are hidden; hands are private)."""

from __future__ import annotations

import copy
import gc
import random
import types

import pytest

import ttr_bots
from ttr_bots import OldBotSignature, ask, bot_class, local_bots
from ttr_bots.search_bot import SearchBot
from ttr_bots.ticket import TicketBot
from ttr_core import variant
from ttr_core.errors import TTRError
from ttr_core.game import Game

VARIANTS = ("usa", "europe", "ussr", "wor")
#: the shipped bots, the search bot with a small budget (its choices come from the same view)
SHIPPED = {"random": bot_class("random"), "ticket": bot_class("ticket"), "route-value": bot_class("route-value"),
           "long-routes": bot_class("long-routes"), "hoarder": bot_class("hoarder"),
           "search": SearchBot.with_budget(iterations=4)}
POSITIONS = 50


def _played(variant_id: str, players: int, seed: int, actions: int) -> Game:
    game = Game(variant.load(variant_id), [f"P{i + 1}" for i in range(players)], seed)
    bots = [TicketBot(seed, s) for s in range(players)]
    for _ in range(actions):
        if game.over:
            break
        seat = game.to_act()[0]
        game.apply(seat, ask(bots[seat], game, seat))
    return game


def _reachable(root: object, skip: object = None) -> list[object]:
    """Every object reachable from ``root`` through its referents, code aside (classes, modules,
    functions: what any object reaches through its type); ``skip`` is not walked into."""
    seen, out, todo = set(), [], [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or obj is skip:
            continue
        seen.add(id(obj))
        out.append(obj)
        if isinstance(obj, type | types.ModuleType | types.FunctionType | types.BuiltinFunctionType | types.CodeType):
            continue
        todo.extend(gc.get_referents(obj))
    return out


def _secrets(game: Game) -> list[object]:
    """The game, its state and every mutable part of it (players, lists, plugin states), its log,
    its memo and its generator."""
    st = game.state
    parts = [game, st, game.log, game.memo, game.rng, st.ext, *st.ext.values()]
    parts += [st.deck, st.discard, st.open_row, st.ticket_deck, st.boxed_tickets, st.owner]
    for p in st.players:
        parts += [p, p.hand, p.tickets, p.routes]
    return parts


@pytest.mark.parametrize("variant_id", ["usa", "europe"])
def test_a_closed_view_holds_no_reference_to_the_game_or_its_state(variant_id):
    game = _played(variant_id, 4, 3, 90)
    seat = game.to_act()[0]
    view = game.seat_view(seat)
    answers = (view.legal_actions(), view.actions("draw-card"), view.players, view.rules, view.hand, view.owner)
    forbidden = {id(x) for x in _secrets(game)}
    # open, the game is reached through the view's link alone, which closing cuts
    assert not [x for x in _reachable(view, skip=view._link) if id(x) in forbidden]  # noqa: SLF001
    assert game in _reachable(view)
    view.close()
    assert not [x for x in _reachable(view) if id(x) in forbidden]
    # what it was asked stays; anything new is refused
    assert (view.legal_actions(), view.actions("draw-card"), view.players) == answers[:3]
    with pytest.raises(TTRError, match="closed"):
        view.actions("claim-route")
    with pytest.raises(TTRError, match="closed"):
        view.sample_game(random.Random(1))


def test_a_view_shows_what_the_seat_may_see_and_its_samples_are_whole_games():
    game = _played("usa", 4, 5, 70)
    seat = game.to_act()[0]
    view = game.seat_view(seat)
    shown = game.view(seat)
    board = game.board
    assert view.hand == shown["you"]["hand"] and [board.tickets[t].id for t in view.tickets] == shown["you"]["tickets"]
    assert [p.cards for p in view.players] == [p["cards"] for p in shown["players"]]
    assert [p.tickets for p in view.players] == [p["tickets"] for p in shown["players"]]
    assert {board.routes[r].id: s for r, s in enumerate(view.owner) if s >= 0} == shown["routes"]
    assert list(view.open_row) == shown["open_row"] and view.deck_size == shown["deck_size"]
    assert list(view.legal_actions()) == game.legal_actions(seat)
    world = view.sample_game(random.Random(2))
    assert world.log == [] and world.seed is None  # the log would tell the others' kept tickets
    assert world.view(seat)["you"] == shown["you"] and world.view(seat)["players"] == shown["players"]


def test_a_bot_written_for_choose_game_seat_is_refused_with_what_to_change():
    class OldBot:
        name = "old"

        def __init__(self, seed, seat):
            pass

        def choose(self, game, seat):
            return game.legal_actions(seat)[0]

    with pytest.raises(OldBotSignature, match=r"choose\(game, seat\).*choose\(self, view\)"):
        with local_bots({"old": OldBot}):
            pass
    with pytest.raises(OldBotSignature, match="docs/tutorial-bot.md"):
        ttr_bots.check_bot_class(OldBot, "old")


# --- the same knowledge, the same choice ---------------------------------------------------------


class PeekingBot(TicketBot):
    """A cheat, to show that the check below catches one: handed the game besides its view (as
    bots were before the view), it claims the route whose colour the next seat holds most of,
    before that seat can, whenever it may pay one; otherwise it plays as the ticket bot."""

    game: Game | None = None

    def choose(self, view):
        game, seat = self.game, view.seat
        claims = view.actions("claim-route") if view.my_turn else ()
        if claims and game is not None:
            rival = game.state.players[(seat + 1) % len(game.state.players)].hand  # another seat's hand
            names = view.cards.names
            return max(claims, key=lambda c: (rival[names.index(c.color)] if c.color else -1, c.route, c.color or ""))
        return super().choose(view)


def _twin_choices(bot_cls, variant_id: str, seed: int, positions: int, players: int = 4) -> tuple[int, int, int]:
    """Play a game of ``bot_cls`` in every seat; before each decision, a copy of the bot chooses
    from the view of a copy of the game whose hidden cards and tickets were dealt anew (same view:
    ``game.determinize``). Returns (positions compared, choices that differed, positions where a
    claim could be made and the re-deal changed the next seat's hand)."""
    game = Game(variant.load(variant_id), [f"P{i + 1}" for i in range(players)], seed)
    bots = [bot_cls(seed, s) for s in range(players)]
    rng = random.Random(seed)
    compared = differed = claims = 0
    while not game.over and compared < positions:
        seat = game.to_act()[0]
        bot = bots[seat]
        bot.game = None  # (only the cheat reads it)
        twin = copy.deepcopy(bot)
        other = game.determinize(seat, rng)
        twin.game, bot.game = other, game
        mine = ask(twin, other, seat)
        action = ask(bot, game, seat)
        compared += 1
        differed += mine != action
        nxt = (seat + 1) % players
        claims += bool(game.seat_view(seat).actions("claim-route")) and other.state.players[nxt].hand != game.state.players[nxt].hand
        game.apply(seat, action)
    return compared, differed, claims


@pytest.mark.parametrize("variant_id", VARIANTS)
@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_shipped_bot_chooses_the_same_with_the_hidden_cards_and_tickets_dealt_anew(name, variant_id):
    compared = differed = claims = 0
    players = 2 if name == "search" else 4  # with two players it searches from the first tickets on
    for seed in range(1, 10):
        c, d, k = _twin_choices(SHIPPED[name], variant_id, seed, POSITIONS - compared, players)
        compared, differed, claims = compared + c, differed + d, claims + k
        if compared >= POSITIONS:
            break
    assert compared >= POSITIONS
    assert claims > 0  # some positions offered claims while the next seat's hand was another
    assert differed == 0


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_the_check_catches_a_bot_that_peeks_at_a_hidden_hand(variant_id):
    compared, differed, claims = _twin_choices(PeekingBot, variant_id, 2, 150)
    assert claims > 5 and differed > 0
