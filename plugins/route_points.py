"""Route points (R-SCORE-1): the table by length, and each map route scored by it.

It answers ``ttr_route_points`` with its table and ``ttr_route_score`` with the table's points for
the route's length. A house rule about the points of some routes (ferries, tunnels, a colour)
wraps ``ttr_route_score``; one about every route of a length wraps ``ttr_route_points``, whose
answer is the table ``ttr_route_score`` is asked with.
"""

from __future__ import annotations

from types import MappingProxyType

import attrs

from ttr_core.plugin import Plugin, hookimpl, parameter

#: The standard table (usa). Lengths beyond the table are a map error unless ``per_car_beyond`` is set.
STANDARD = MappingProxyType({"1": 1, "2": 2, "3": 4, "4": 7, "5": 10, "6": 15})

#: The longest route any map may have when ``per_car_beyond`` makes the table open-ended.
LONGEST_ROUTE = 99


def _check_table(_instance, _attribute, table: dict[str, int]) -> None:
    for key, points in table.items():
        if not key.isdigit() or int(key) < 1:
            raise ValueError(f"table key {key!r} is not a route length (a whole number from 1)")


class RoutePoints(Plugin):
    title = "Route points"
    deterministic = True

    @attrs.frozen
    class Config:
        table: dict[str, int] = parameter(
            "points by route length, `{length = points}`", factory=lambda: dict(STANDARD), rule="R-SCORE-1",
            validator=_check_table,
        )
        per_car_beyond: int = parameter(
            "points per car for routes longer than every length in the table (wor: 2, i.e. 2 × length; "
            "0: such a route is a map error)", default=0, rule="R-SCORE-1",
        )

    @hookimpl
    def ttr_route_points(self):
        table = {int(k): v for k, v in self.config.table.items()}
        if self.config.per_car_beyond:
            top = max(table, default=0)
            table.update({n: self.config.per_car_beyond * n for n in range(top + 1, LONGEST_ROUTE + 1)})
        return table

    @hookimpl
    def ttr_route_score(self, route, table):
        # by length alone; a length the table does not cover scores nothing (a variant error)
        return table.get(route.length)
