"""The HTML pages (no build step: ``static/`` holds them with their scripts and styles)."""

from __future__ import annotations

from importlib.resources import files

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from ttr_server.routes.common import GameId

STATIC = files("ttr_server") / "static"

router = APIRouter(include_in_schema=False)


def mount_static(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")


def _page(name: str) -> FileResponse:
    return FileResponse(str(STATIC / name), media_type="text/html")


@router.get("/")
def index():
    return _page("index.html")


@router.get("/play/{game_id}")
@router.get("/watch/{game_id}")
def play(game_id: GameId):
    return _page("play.html")


@router.get("/join/{game_id}")
def join(game_id: GameId):
    return _page("join.html")


@router.get("/api/docs")
def docs():
    return _page("docs.html")
