"""Schemathesis fuzzes the OpenAPI document: no request, however malformed, gets a 500, and every
answer has a status, content type and body that the document declares. Half the cases aim at a
real game with a real seat token, so request bodies reach the engine, not just the 404 path.

Bounded: a fixed number of examples per operation, derandomised so that a run is repeatable. The
event stream is left out: on a real game it stays open by design (it has its own tests).
"""

from __future__ import annotations

import random

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture
def fuzz_target(make_client):
    client = make_client()
    created = client.post("/api/games", json={"variant": "usa", "seats": [{"name": "A"}, {"name": "B"}], "seed": 1})
    game = created.json()
    return client.app, game["game"], game["seats"][0]["token"]


@pytest.fixture
def api_schema(fuzz_target):
    app, _, _ = fuzz_target
    return schemathesis.openapi.from_asgi("/api/openapi.json", app)


schema = schemathesis.pytest.from_fixture("api_schema").exclude(path_regex=r"/events$")


@schema.parametrize()
@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])
def test_no_request_gets_a_500(case, fuzz_target):
    _, game_id, token = fuzz_target
    rng = random.Random(repr(case.body) + repr(case.path_parameters))
    headers = {}
    if case.path_parameters and "game_id" in case.path_parameters and rng.random() < 0.5:
        case.path_parameters["game_id"] = game_id
        if rng.random() < 0.8:
            headers["Authorization"] = f"Bearer {token}"
    response = case.call(headers=headers)
    case.validate_response(response, checks=CHECKS, headers=headers)
