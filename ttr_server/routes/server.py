"""The server itself: whether it can serve (for a load balancer or a supervisor)."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Response
from pydantic import BaseModel

from ttr_server import db
from ttr_server.routes.common import DATABASE_RETRY_AFTER, Service

log = logging.getLogger("ttr_server")

router = APIRouter(prefix="/api", tags=["server"])


class HealthOut(BaseModel):
    ok: bool
    database: str
    reason: str | None = None  # why not, when not


@router.get("/health", response_model=HealthOut, response_model_exclude_none=True,
            responses={503: {"model": HealthOut, "description": "the database does not answer"}})
def health(service: Service, response: Response) -> HealthOut:
    """Whether the server can serve: it asks the database (503 if it does not answer)."""
    database = service.engine.dialect.name
    try:
        service.check_database()
    except db.DatabaseUnavailable as exc:
        log.warning("health: %s", exc)
        reason = str(exc)
    except Exception as exc:  # noqa: BLE001 - any failure to answer is "not healthy"
        log.warning("health: the database does not answer: %s", type(exc).__name__)
        reason = f"the database does not answer ({type(exc).__name__})"
    else:
        return HealthOut(ok=True, database=database)
    response.status_code = 503
    response.headers["Retry-After"] = str(DATABASE_RETRY_AFTER)
    return HealthOut(ok=False, database=database, reason=reason)
