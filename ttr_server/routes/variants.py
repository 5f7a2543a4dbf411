"""The variants a server offers, their rules versions, and their maps."""

from __future__ import annotations

from pathlib import Path as FilePath
from typing import Annotated

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, Field

import ttr_bots as bot_kinds
from ttr_core import variant
from ttr_core.errors import TTRError, VariantError
from ttr_core.files import read_toml
from ttr_server.plugin_words import RulesWordsOut, rules_words
from ttr_server.routes.common import Service, errors

MAX_VERSIONS = 100

router = APIRouter(prefix="/api/variants", tags=["variants"])


class PlayerRangeOut(BaseModel):
    min: int
    max: int


class VariantOut(BaseModel):
    id: str
    title: str
    description: str = ""
    version: int = Field(description="The current rules version: new games get it unless they ask for another.")
    versions: list[int]
    map: str
    players: PlayerRangeOut
    plugins: list[str]


class VariantsOut(BaseModel):
    variants: list[VariantOut]
    bots: list[str]


class CityOut(BaseModel):
    name: str
    lat: float
    lon: float
    x: float | None = None  # where the map's own board draws it (board units), if it has one
    y: float | None = None


class RouteOut(BaseModel):
    id: str
    a: str
    b: str
    length: int
    color: str
    tunnel: bool
    ferry: int


class TicketOut(BaseModel):
    id: str
    a: str
    b: str
    points: int
    kind: str


class BoardOut(BaseModel):
    variant: str
    version: int
    map: str
    title: str
    trains: int
    cities: list[CityOut]
    routes: list[RouteOut]
    tickets: list[TicketOut]
    rules: RulesWordsOut = Field(description="The rules in players' words, from the plugins: titles, parameters, bonus names.")


@router.get("", response_model=VariantsOut)
def list_variants() -> VariantsOut:
    """The installed variants (those that load), with their rules versions, and the bot kinds."""
    out = []
    for vid in sorted(variant.available()):
        try:
            rs = variant.load(vid)
        except TTRError:
            continue  # a broken file: `ttr variants` reports it; the server offers the others
        out.append(VariantOut(
            id=vid, title=rs.title, version=rs.version, versions=_versions(vid), map=rs.board.id,
            players=PlayerRangeOut(min=rs.players.min, max=rs.players.max), plugins=list(rs.plugins),
            description=_description(rs),
        ))
    return VariantsOut(variants=out, bots=bot_kinds.names())


@router.get("/{variant_id}/board", response_model=BoardOut, responses=errors(404, 422))
def board(service: Service, variant_id: Annotated[str, Path(max_length=64)],
          version: Annotated[int | None, Query(ge=1, le=10_000)] = None) -> BoardOut:
    """The map of a variant at a rules version: cities (with coordinates, to draw it), routes, tickets."""
    rs = service.ruleset(variant_id, version)
    b = rs.board
    return BoardOut(
        variant=rs.variant, version=rs.version, map=b.id, title=b.title, trains=b.trains,
        cities=[CityOut(name=c.name, lat=c.lat, lon=c.lon, x=c.x, y=c.y) for c in b.cities],
        routes=[RouteOut(id=r.id, a=r.a, b=r.b, length=r.length, color=r.color, tunnel=r.tunnel, ferry=r.ferry)
                for r in b.routes],
        tickets=[TicketOut(id=t.id, a=t.a, b=t.b, points=t.points, kind=t.kind) for t in b.tickets],
        rules=rules_words(rs),
    )


def _versions(vid: str) -> list[int]:
    found = []
    for v in range(1, MAX_VERSIONS + 1):
        try:
            variant.load(vid, v)
        except VariantError:
            break
        found.append(v)
    return found


def _description(rs) -> str:
    # The Ruleset does not carry the file's description; it is read from the file it came from.
    try:
        return str(read_toml(FilePath(rs.path)).get("description", ""))
    except Exception:  # noqa: BLE001 - a description is decoration; never fail a listing for it
        return ""
