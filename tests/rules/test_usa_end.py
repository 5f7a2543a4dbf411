"""The end of a ``usa`` game: the final round (R-END-1), passing (R-TURN-2), route points (R-SCORE-1),
the longest path bonus (R-BON-1) and the winner row (most tickets, then the longest path)."""

from __future__ import annotations

import pytest
from usa_kit import draw_two_blind, position, score_of, snapshot, started

from ttr_plugins.claiming import ClaimRoute
from ttr_plugins.train_cards import DrawCard
from ttr_plugins.passing import Pass
from ttr_core.errors import GameOver, NotLegalNow
from ttr_core.position import score_position
from ttr_kit.testing import assert_invariants, give_route, set_hand, set_tickets

SIX_SIXES = ["Calgary-Winnipeg", "Duluth-Helena", "Duluth-Toronto", "El Paso-Houston", "El Paso-Los Angeles", "Helena-Seattle"]


# --- the final round (R-END-1) ----------------------------------------------------------------


def _down_to(game, seat, routes) -> None:
    for r in routes:
        give_route(game, seat, r)


def test_r_end_1_worked_example_three_players():
    """R-END-1: "A ends a turn with 2 trains; then B, C and A play their last turns; after A's, nothing
    more." Here A claims Boston-New York with 4 trains left and ends with 2."""
    game = started(3)
    _down_to(game, 0, [*SIX_SIXES, "Atlanta-Miami"])  # 41 placed: 4 left
    set_hand(game, 0, {"red": 2})
    game.apply(0, ClaimRoute("Boston-New York/red", "red"))
    assert game.view(None)["players"][0]["trains"] == 2
    assert game.view(None)["final_round"] is True
    for seat in (1, 2):  # B and C play their last turns
        assert not game.over and game.to_act() == [seat]
        draw_two_blind(game, seat)
    assert not game.over and game.to_act() == [0]  # A plays once more
    draw_two_blind(game, 0)
    assert game.over
    assert "R-END-1" in game.view(None)["result"]["reason"]
    before = snapshot(game)
    with pytest.raises(GameOver):
        game.apply(1, DrawCard(None))
    assert snapshot(game) == before
    assert_invariants(game)


def test_r_end_1_three_trains_do_not_start_the_final_round():
    """R-END-1: the trigger is "2 or fewer": a turn ending at 3 trains changes nothing."""
    game = started(3)
    _down_to(game, 0, [*SIX_SIXES, "Atlanta-Miami", "Atlanta-Nashville"])  # 42 placed: 3 left
    for _ in range(2):  # two full rounds
        for seat in (0, 1, 2):
            draw_two_blind(game, seat)
    assert not game.over
    assert game.view(None)["final_round"] is False


def test_r_end_1_trigger_by_drawing_cards_counts_as_well():
    """R-END-1: "when, after a turn, any player has 2 or fewer trains": the turn that ends need not be a
    claim. In 2 players: A's turn ends at 2 trains, then B, then A, then the game is over."""
    game = started(2)
    _down_to(game, 0, [*SIX_SIXES, "Atlanta-Miami", "Atlanta-Charleston"])  # 43 placed: 2 left
    draw_two_blind(game, 0)
    draw_two_blind(game, 1)
    assert not game.over
    draw_two_blind(game, 0)
    assert game.over


# --- passing (R-TURN-2) --------------------------------------------------------------------------


def test_r_turn_2_pass_is_not_legal_while_anything_else_is(usa2):
    assert Pass() not in usa2.legal_actions(0)
    before = snapshot(usa2)
    with pytest.raises(NotLegalNow, match="R-TURN-2"):
        usa2.apply(0, Pass())
    assert snapshot(usa2) == before


def _stuck_three_player_game():
    """3 players with 3 trains each, every route of length 3 or less taken (one of each double: the
    other closes, R-PAR-2), every card in a hand and every ticket held: nobody can draw, claim or
    take tickets."""
    game = started(3)
    board = game.board
    short, seen = [], set()
    for r in sorted(board.routes, key=lambda r: -r.length):
        pair = frozenset((r.a, r.b))
        if r.length <= 3 and pair not in seen:
            seen.add(pair)
            short.append(r)
    long_ = [r for r in board.routes if r.length >= 4 and not r.parallel]
    need = 42  # each player: 45 - 3
    bins: list[list] = [[], [], []]
    # the two first players take short routes only; the third tops up with long ones
    for r in short:
        for b in bins:
            room = need - sum(x.length for x in b)
            if r.length <= room and (b is not bins[2] or room - r.length not in (1, 2, 3, 7)):
                b.append(r)
                break
        else:
            raise AssertionError(f"could not place {r.id}")
    for r in long_:
        room = need - sum(x.length for x in bins[2])
        if r.length <= room and room - r.length not in (1, 2, 3, 7):
            bins[2].append(r)
    assert [sum(x.length for x in b) for b in bins] == [need] * 3
    for seat, b in enumerate(bins):
        for r in b:
            give_route(game, seat, r.id)
    st = game.state
    for i, card in enumerate([*st.deck, *st.discard, *(c for c in st.open_row if c >= 0)]):
        st.players[i % 3].hand[card] += 1
    st.deck.clear(), st.discard.clear()
    st.open_row[:] = [-1] * 5
    held = [board.tickets[t].id for t in st.ticket_deck]
    set_tickets(game, 2, [board.tickets[t].id for t in st.players[2].tickets] + held)
    assert_invariants(game)
    return game


def test_r_turn_2_with_nothing_else_legal_pass_is_the_only_action_and_all_passing_ends_the_game():
    """R-TURN-2 [engine decision]: when a player has no legal action, the only one is pass; when every
    player passed in a row, the game ends (nothing can change any more)."""
    game = _stuck_three_player_game()
    for seat in (0, 1, 2):
        assert game.to_act() == [seat]
        assert game.legal_actions(seat) == [Pass()]
        game.apply(seat, Pass())
    assert game.over
    assert "R-TURN-2" in game.view(None)["result"]["reason"]
    assert_invariants(game)


def test_r_turn_2_a_pass_then_a_real_action_does_not_end_the_game():
    """R-TURN-2: the passes must be "in a row": a player who can act breaks the series."""
    game = _stuck_three_player_game()
    game.apply(0, Pass())
    game.apply(1, Pass())
    # P3 gets something to do: one card back in the open row
    st = game.state
    card = next(c for c, n in enumerate(st.players[0].hand) if n)
    st.players[0].hand[card] -= 1
    st.open_row[0] = card
    assert Pass() not in game.legal_actions(2)
    game.apply(2, DrawCard(0))
    assert not game.over
    game.apply(0, Pass())
    game.apply(1, Pass())
    assert not game.over


# --- route points (R-SCORE-1) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("route", "points"),
    [
        ("Atlanta-Nashville", 1),  # length 1
        ("Atlanta-Charleston", 2),  # length 2
        ("Calgary-Vancouver", 4),  # length 3
        ("Calgary-Helena", 7),  # length 4
        ("Atlanta-Miami", 10),  # length 5
        ("Calgary-Winnipeg", 15),  # length 6
    ],
)
def test_r_score_1_route_points_by_length(route, points):
    """R-SCORE-1 (usa): 1, 2, 4, 7, 10, 15 points for lengths 1 to 6."""
    game = score_position(position({"routes": [route]}, {"routes": []}))
    assert score_of(game, "P1").routes == points
    live = started(2)
    give_route(live, 0, route)
    assert live.view(None)["players"][0]["route_points"] == points


# --- the longest path (R-BON-1) -------------------------------------------------------------------

LOOP_AND_TAIL = ["Salt Lake City-Denver", "Denver-Kansas City/black", "Kansas City-Omaha", "Omaha-Denver"]


def test_r_bon_1_longest_path_is_a_trail_loop_plus_tail():
    """R-BON-1: a trail may repeat cities, each route once: Salt Lake City-Denver (3), then the loop
    Denver-Kansas City (4)-Omaha (1)-Denver (4) is 12 spaces, though no simple path is longer than 8.
    P2's Seattle-Helena-Winnipeg (6 + 4 = 10) plus a separate Atlanta-Miami (5) is 10: disconnected
    parts never add up. So P1 alone gets the +10."""
    game = score_position(position(
        {"routes": LOOP_AND_TAIL},
        {"routes": ["Seattle-Helena", "Helena-Winnipeg", "Atlanta-Miami"]},
    ))
    p1, p2 = score_of(game, "P1"), score_of(game, "P2")
    assert p1.bonus("longest-path") == 10
    assert p2.bonus("longest-path") == 0
    assert p1.total == 4 + 7 + 1 + 7 + 10
    assert "12" in p1.bonuses[0].detail


def test_r_bon_1_ties_all_get_the_bonus():
    """R-BON-1: "Every player tied at the maximum gets it": two paths of 4, one of 1."""
    game = score_position(position(
        {"routes": ["Denver-Omaha"]}, {"routes": ["Calgary-Helena"]}, {"routes": ["Atlanta-Nashville"]},
    ))
    assert [score_of(game, n).bonus("longest-path") for n in ("P1", "P2", "P3")] == [10, 10, 0]


def test_r_bon_1_nobody_built_nobody_gets_it_in_usa():
    """R-BON-1 [engine decision, usa]: when nobody has built anything, nobody gets the bonus."""
    game = score_position(position({"tickets": ["Denver-El Paso"]}, {}))
    assert [score_of(game, n).total for n in ("P1", "P2")] == [-4, 0]
    assert all(s.bonus("longest-path") == 0 for s in game.result.scores)


# --- the winner (usa row: score, then tickets completed, then the longest path holder) -------------


def test_usa_winner_tie_broken_by_most_completed_tickets():
    """P1: routes 2 + 2, Denver-El Paso completed (+4) = 8. P2: routes 7 + 1 = 8, no ticket. P3 has the
    longest path (6: 15 + 10) but fails Los Angeles-New York (-21) = 4. P1 and P2 tie at 8; P1 completed
    more tickets."""
    game = score_position(position(
        {"routes": ["Denver-Santa Fe", "Santa Fe-El Paso"], "tickets": ["Denver-El Paso"]},
        {"routes": ["Calgary-Helena", "Atlanta-Nashville"]},
        {"routes": ["Calgary-Winnipeg"], "tickets": ["Los Angeles-New York"]},
    ))
    assert [s.total for s in game.result.scores] == [8, 8, 4]
    assert game.result.winners.seats == (0,)
    assert game.result.winners.decided_by == "tickets"


def test_usa_winner_then_broken_by_the_longest_path_holder():
    """P1: Calgary-Winnipeg 15 + longest path 10 = 25. P2: 10 + 10 + 4 + 1 = 25 on four separate routes
    (longest 5). No tickets either side: the longest path holder wins."""
    game = score_position(position(
        {"routes": ["Calgary-Winnipeg"]},
        {"routes": ["Atlanta-Miami", "Denver-Phoenix", "Calgary-Vancouver", "Dallas-Houston"]},
    ))
    assert [s.total for s in game.result.scores] == [25, 25]
    assert game.result.winners.seats == (0,)
    assert game.result.winners.decided_by == "longest-path-bonus"


def test_usa_winner_tickets_come_before_the_longest_path():
    """The order of the breakers: P1 completed a ticket (2 + 2 + 4 = 8), P2 holds the longest path
    (Atlanta-Miami 10 + 10, Boston-Miami failed -12 = 8). Tickets are asked first: P1."""
    game = score_position(position(
        {"routes": ["Denver-Santa Fe", "Santa Fe-El Paso"], "tickets": ["Denver-El Paso"]},
        {"routes": ["Atlanta-Miami"], "tickets": ["Boston-Miami"]},
    ))
    assert [s.total for s in game.result.scores] == [8, 8]
    assert score_of(game, "P2").bonus("longest-path") == 10
    assert game.result.winners.seats == (0,)
    assert game.result.winners.decided_by == "tickets"


def test_usa_winner_still_tied_after_every_breaker_shares_the_win():
    """Both 15 + 10, no tickets, both hold the bonus: a shared win."""
    game = score_position(position({"routes": ["Calgary-Winnipeg"]}, {"routes": ["Duluth-Helena"]}))
    assert game.result.winners.seats == (0, 1)
    assert game.result.winners.decided_by == "shared"


def test_usa_winner_highest_score_beats_more_tickets():
    """The tie-breakers only break ties: P2 completed a ticket but P1 scores more (15 + 10 vs 2 + 4)."""
    game = score_position(position(
        {"routes": ["Calgary-Winnipeg"]},
        {"routes": ["Denver-Santa Fe", "Santa Fe-El Paso"], "tickets": ["Denver-El Paso"]},
    ))
    assert [s.total for s in game.result.scores] == [25, 8]
    assert game.result.winners == type(game.result.winners)((0,), "score")
