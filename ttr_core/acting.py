"""Who may act now and with what (``Game.acting``): what a host asks before it takes an action.

A host that lets several clients act on one game needs more than ``to_act`` and one seat's
``legal_actions``: which seats may also act out of turn (the kinds a plugin registers
``any_time``), and whether the seats to act are deciding at the same time, so that an action one
of them chose stands however the others answered meanwhile (a simultaneous node, in OpenSpiel's
words). The core knows both from the registry and from its own turn flow; the host need not know
which rules supply them.
"""

from __future__ import annotations

import attrs

from ttr_core.actions import Action


@attrs.frozen
class SeatActions:
    """What one seat may do now."""

    seat: int
    #: ``game.legal_actions(seat)``: its turn's actions, or the answers to its pending decision
    legal: tuple[Action, ...]
    #: what it may play besides, in or out of turn, even with a decision pending (the kinds
    #: registered ``any_time``, such as leaving the game)
    any_time: tuple[Action, ...]


@attrs.frozen
class Acting:
    """Every seat that may do something now, and how their actions relate."""

    #: the active seats with something to do, in seat order (a seat with no turn, no pending
    #: decision and nothing to do at any time is left out)
    seats: tuple[SeatActions, ...]
    #: when the seats of ``to_act`` decide at the same time, each answering its own pending
    #: decision in any order (the setup's starting choices): the number of logged actions since
    #: which they have been doing so. An action one of them chose at any later point of the log
    #: stands whatever the others answered meanwhile. None while one seat acts at a time.
    together_since: int | None

    def of(self, seat: int) -> SeatActions:
        """What ``seat`` may do now (nothing, for a seat left out)."""
        for found in self.seats:
            if found.seat == seat:
                return found
        return SeatActions(seat, (), ())
