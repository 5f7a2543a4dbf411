"""The play-style bots (ttr_bots/style_bots.py): installed through the ``ttr.bots`` entry point, they
finish games of every rule set within the rules, reproducibly, and each plays its style: the
long-route player claims longer routes than the ticket-seeking bot, the hoarder takes on more
tickets. Measured over a few seeded 4-player games, seats rotating."""

from __future__ import annotations

import statistics

import pytest

from ttr_bots import bot_class, names, play_game
from ttr_core import record, variant
from ttr_core.invariants import invariant_problems

STYLES = ["long-routes", "hoarder"]


def check_invariants(game, seat, action):
    assert invariant_problems(game) == [], (seat, action)


@pytest.mark.parametrize("style", STYLES)
def test_a_style_bot_is_installed_like_any_bot(style):
    assert style in names() and bot_class(style).name == style


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("variant_id", ["usa", "europe", "wor", "ussr"])
def test_a_style_bot_finishes_games_within_the_rules_and_reproducibly(style, variant_id):
    rs = variant.load(variant_id)
    game = play_game(rs, 3, 11, [style, "ticket", "random"], on_action=check_invariants)
    again = play_game(rs, 3, 11, [style, "ticket", "random"])
    assert game.over and record.dumps(record.make_record(game)) == record.dumps(record.make_record(again))


def _habits(bot: str, games: int = 8) -> dict[str, float]:
    """Per game of ``bot`` in seat rotation against 3 ticket bots (usa 4p): mean claimed route
    length and mean tickets held at the end."""
    rs = variant.load("usa")
    lengths, tickets = [], []
    for seed in range(games):
        order = ["ticket"] * 4
        order[seed % 4] = bot
        game = play_game(rs, 4, seed, order)
        player = game.state.players[seed % 4]
        lengths += [game.board.routes[r].length for r in player.routes]
        tickets.append(len(player.tickets))
    return {"route length": statistics.mean(lengths), "tickets": statistics.mean(tickets)}


def test_each_style_plays_its_habit():
    ticket, long_routes, hoarder = _habits("ticket"), _habits("long-routes"), _habits("hoarder")
    assert long_routes["route length"] > ticket["route length"] + 0.5
    assert hoarder["tickets"] > ticket["tickets"]


class _ClaimsAnything(bot_class("ticket")):
    """A variation that claims any route it can, the first claim listed, whatever its plan."""

    def claim_along_plan(self, board, seen, plan, claims, can_draw):
        return claims[0] if claims else None


def test_a_variation_overriding_a_step_is_asked_at_every_turn_with_every_legal_claim():
    # the ticket bot lists claims only when its plan may need them: a variation's step still sees them all
    rs = variant.load("usa")
    from ttr_core.game import Game

    game = Game(rs, ["P1", "P2"], 6)
    players = [_ClaimsAnything(6, 0), bot_class("ticket")(6, 1)]
    asked = 0
    while not game.over:
        seat = game.to_act()[0]
        claims = [a for a in game.legal_actions(seat) if a.kind == "claim-route"]
        decision = game.state.players[seat].decision
        action = players[seat].choose(game.seat_view(seat))
        if seat == 0 and decision is None and claims and not game.state.final_round:
            assert action == claims[0]
            asked += 1
        game.apply(seat, action)
    assert asked > 10
