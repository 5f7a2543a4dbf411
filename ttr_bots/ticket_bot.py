"""The ticket bot's names where they were first found: the bot is the package
:mod:`ttr_bots.ticket` (its parts by concern), and this module only names them again for code
written against ``ttr_bots.ticket_bot``."""

from __future__ import annotations

from ttr_bots.ticket.bot import TicketBot
from ttr_bots.ticket.claiming import claims_of, listing, may_pay
from ttr_bots.ticket.planning import (
    CARDS_PER_TURN, SAFE_TRAINS, STATION_WEIGHT, TRAIN_RESERVE, TRAINS_PER_TURN, FreePlanned, Plan, Searches,
    build_graph, plan_tickets, still_valid, time_budget,
)
from ttr_bots.ticket.seen import RulesMemo, SeatReader, Seen, read_view

__all__ = [
    "CARDS_PER_TURN", "SAFE_TRAINS", "STATION_WEIGHT", "TRAIN_RESERVE", "TRAINS_PER_TURN", "FreePlanned", "Plan",
    "RulesMemo", "Searches", "SeatReader", "Seen", "TicketBot", "build_graph", "claims_of", "listing", "may_pay",
    "plan_tickets", "read_view", "still_valid", "time_budget",
]
