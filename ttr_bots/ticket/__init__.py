"""The ticket-seeking bot (``ticket``): plays for its tickets, as most people do, so that
simulated games resemble real ones.

What it knows is what a player knows: its seat's view (``game.seat_view(seat)``: the public
table, its own hand, tickets and decision, its legal actions, the public map). Its own
``random.Random``, seeded from the game seed and its seat, only breaks ties.

How it plays, turn by turn:

* **tickets**: it keeps the offered tickets it can plausibly finish, judged by planning them
  (below) against the trains it has, and keeps the fewest the rules allow when none fit;
* **plan**: the shortest missing connections for its tickets (Dijkstra over the free routes and
  its own, weighted by length, its own at 0, :mod:`ttr_bots.route_graph`; tickets by points, each
  reusing what the plan has already chosen), within a train budget. A ticket that the free routes can no longer
  join may be saved by stations borrowing other players' routes (where the variant has them).
  The plan is recomputed only when the board, its tickets, trains or stations changed, and near
  the end around the cards in hand (a detour the hand can pay rather than a colour it lacks);
* **cards**: it draws the colours the plan still lacks from the open row, else blind; near the
  end, cards the plan does not need pay a long route for its points;
* **claims**: the rules' own listing of its claims (``view.actions("claim-route")``), asked for
  only on a turn where the hand may pay a planned route. It claims planned routes as soon as it
  can pay them, longest first, paying with the cards the rest of the plan needs least; tunnels
  it attempts with a spare card in hand, pays the extra when it can, otherwise declines;
* **the end**: with its tickets done it draws new tickets while that is safe (trains to spare,
  nobody close to the end), otherwise claims the longest routes it can for points; on its last
  turn it takes the action worth most points at once.

Its parts, each by concern: :mod:`.seen` (what the seat knows, read from its view),
:mod:`.planning` (paths, stations, whether a plan holds, which tickets to keep), :mod:`.planner`
(the plan kept from turn to turn, and the steps a play style may override), :mod:`.cards` (the
cards the plan asks for, the card to draw), :mod:`.claiming` (which claim, with which payment),
:mod:`.bot` (:class:`TicketBot`, its turn and its overridable steps).
"""

from ttr_bots.ticket.bot import TicketBot

__all__ = ["TicketBot"]
