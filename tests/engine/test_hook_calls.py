"""A game calls its hooks through pluggy (``game.hook``, :class:`ttr_core.manager.RulesetHooks`):
pluggy's own tools see the calls as pluggy documents them. Hook-call monitoring sees every hook a
usa game reaches, tracing writes them, and a hook wrapper on the ruleset's plugin manager sees the
calls and their answers. A hook that no plugin of the ruleset implements is not called at all.
"""

from __future__ import annotations

import contextlib
from collections import Counter

from ttr_core import hookspecs, variant
from ttr_core.plugin import hookimpl
from ttr_bots import play_game

SEED = 1

#: the core hooks a usa game of random bots calls
CALLED_IN_A_USA_GAME = [
    "ttr_game_created",
    "ttr_setup_table",
    "ttr_first_seat",
    "ttr_turn_ended",
    "ttr_next_seat",
    "ttr_final_round_triggered",
    "ttr_final_round_seats",
    "ttr_deck_ran_out",  # this seed's game empties the deck (R-DRAW-3)
    "ttr_closed_routes",
    "ttr_ticket_outcomes",
    "ttr_end_bonuses",
    "ttr_player_facts",
    "ttr_choose_winners",
]

#: the core hooks a usa game does not reach, and why
NOT_CALLED_IN_A_USA_GAME = {
    "ttr_addhooks": "historic: asked of each plugin as the ruleset is built, before any game",
    "ttr_register_actions": "asked as the ruleset is built, before any game",
    "ttr_deck_cards": "per ruleset: asked as the ruleset is built, before any game",
    "ttr_route_points": "per ruleset: asked as the ruleset is built, before any game",
    "ttr_route_score": "per ruleset: asked once per map route as the ruleset is built, before any game",
    "ttr_choice_preference": "only owners' end-of-game choices (stations: europe, ussr) ask it",
    "ttr_turn_started": "no usa plugin implements it",
    "ttr_route_claimed": "no usa plugin implements it",
    "ttr_route_released": "no usa plugin implements it (and only positions and tests free a route)",
    "ttr_load_position": "no usa plugin implements it (and only positions call it)",
    "ttr_dump_position": "no usa plugin implements it (and only positions call it)",
    "ttr_invariant_problems": "no usa plugin implements it (and only the invariant checks call it)",
    "ttr_decision_cancelled": "only a game ending or a seat resigning with a decision pending calls it; "
    "a usa game ends after a complete turn",
    "ttr_view": "only a seat's view calls it, and random bots do not look",
    "ttr_claim_options": "only ttr_core.claims.claim_options (what a hand could pay) calls it; "
    "the claiming plugin lists claims itself",
    "ttr_highlights": "asked by applications once a game is over (ttr_core.scoring.highlights: a game "
    "page's marks on the board), never by the game itself",
    "ttr_observation_parts": "asked by an environment (ttr_env, through ttr_core.observing) as it lays out "
    "its observation, never by a game",
    "ttr_observation_values": "asked by an environment (ttr_env, through ttr_core.observing) when it observes "
    "a seat, never by a game",
}

#: hooks the usa plugins declare for each other (``ttr_addhooks``) that a usa game calls too
PLUGIN_HOOKS_CALLED = ["ttr_card_taken", "ttr_open_row_needs_reset"]


def core_hooks() -> set[str]:
    return {name for name in dir(hookspecs) if name.startswith("ttr_") and hasattr(getattr(hookspecs, name), "ttr_spec")}


@contextlib.contextmanager
def monitored(pm):
    """Every hook call on ``pm`` counted by name, through pluggy's hook-call monitoring."""
    calls: Counter[str] = Counter()
    undo = pm.add_hookcall_monitoring(lambda name, impls, kwargs: calls.update([name]), lambda *args: None)
    try:
        yield calls
    finally:
        undo()


def test_the_lists_of_called_and_uncalled_hooks_cover_every_core_hook():
    assert not set(CALLED_IN_A_USA_GAME) & set(NOT_CALLED_IN_A_USA_GAME)
    assert set(CALLED_IN_A_USA_GAME) | set(NOT_CALLED_IN_A_USA_GAME) == core_hooks()


def test_monitoring_sees_every_hook_a_usa_game_calls():
    ruleset = variant.load("usa")
    with monitored(ruleset.rules.pm) as calls:
        game = play_game(ruleset, 4, SEED, ("random",))
    assert game.over and game.state.final_round == []  # the game went to its end (R-END-1)
    assert set(calls) & core_hooks() == set(CALLED_IN_A_USA_GAME)
    assert set(PLUGIN_HOOKS_CALLED) <= set(calls)
    # at the end of every turn, until the final round begins (asked no more after it triggered)
    assert calls["ttr_turn_ended"] == game.state.turn
    assert 0 < calls["ttr_final_round_triggered"] < game.state.turn
    assert calls["ttr_choose_winners"] == 1


def test_a_hook_no_plugin_implements_is_not_called():
    ruleset = variant.load("usa")
    pm = ruleset.rules.pm
    assert not pm.hook.ttr_turn_started.get_hookimpls()
    with monitored(pm) as calls:
        game = play_game(ruleset, 2, SEED, ("random",))
    assert calls["ttr_turn_started"] == 0
    assert all(getattr(pm.hook, name).get_hookimpls() for name in calls)
    # answered as pluggy answers a hook without implementations
    assert game.hook.ttr_turn_started(game=game, seat=0) == [] == pm.hook.ttr_turn_started(game=game, seat=0)
    assert game.hook.ttr_claim_started.get_hookimpls() == []


def test_a_hook_wrapper_on_the_plugin_manager_sees_the_calls_and_their_answers():
    class Watcher:
        def __init__(self):
            self.triggered: list[bool] = []
            self.turns_ended = 0

        @hookimpl(wrapper=True)
        def ttr_final_round_triggered(self):
            answer = yield
            self.triggered.append(answer)
            return answer

        @hookimpl(wrapper=True)
        def ttr_turn_ended(self):
            self.turns_ended += 1
            return (yield)

    ruleset = variant.load("usa")
    watcher = Watcher()
    ruleset.rules.pm.register(watcher)
    try:
        game = play_game(ruleset, 3, SEED, ("random",))
    finally:
        ruleset.rules.pm.unregister(watcher)
    assert watcher.turns_ended == game.state.turn
    # no trigger, no trigger... then the one that starts the final round (R-END-1)
    assert watcher.triggered[-1] is True and not any(watcher.triggered[:-1])


def test_pluggys_tracing_writes_the_hooks_a_game_calls():
    ruleset = variant.load("usa")
    pm = ruleset.rules.pm
    lines: list[str] = []
    undo = pm.enable_tracing()
    pm.trace.root.setwriter(lines.append)
    try:
        play_game(ruleset, 2, SEED, ("random",))
    finally:
        undo()
        pm.trace.root.setwriter(None)
    traced = "".join(lines)
    assert "ttr_final_round_triggered" in traced and "ttr_choose_winners" in traced
    assert "ttr_turn_started" not in traced
