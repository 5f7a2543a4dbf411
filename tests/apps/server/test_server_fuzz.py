"""Schemathesis fuzzes the OpenAPI document: no request, however malformed, gets a 500, and every
answer has a status, content type and body that the document declares. Half the cases aim at a
real game with a real seat token, so request bodies reach the engine, not just the 404 path.

Bounded: a fixed number of examples per operation, valid and invalid ones, derandomised so that a
run is repeatable. Schemathesis is used through its Hypothesis strategies rather than its pytest
plugin, which follows pytest's internals too closely to be relied on across pytest releases. The
event stream is left out: on a real game it stays open by design (it has its own tests).
"""

from __future__ import annotations

import random

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
OPERATIONS = [
    ("GET", "/api/health"),
    ("GET", "/api/variants"),
    ("GET", "/api/variants/{variant_id}/board"),
    ("POST", "/api/games"),
    ("GET", "/api/games/{game_id}"),
    ("POST", "/api/games/{game_id}/actions"),
    ("POST", "/api/games/{game_id}/resign"),
    ("GET", "/api/games/{game_id}/record"),
    # the game page's: the move log, the highlights at the end (and the trails, their older form), claim checks
    ("GET", "/api/games/{game_id}/moves"),
    ("GET", "/api/games/{game_id}/highlights"),
    ("GET", "/api/games/{game_id}/trails"),
    ("GET", "/api/games/{game_id}/claim-check"),
    # the lobby's
    ("GET", "/api/lobby"),
    ("POST", "/api/lobby"),
    ("GET", "/api/lobby/{game_id}"),
    ("POST", "/api/lobby/{game_id}/check"),
    ("POST", "/api/lobby/{game_id}/join"),
    ("POST", "/api/lobby/{game_id}/seats/{seat}/reissue"),
]


def test_every_operation_but_the_stream_is_fuzzed(client):
    documented = {(m.upper(), p) for p, ops in client.get("/api/openapi.json").json()["paths"].items() for m in ops}
    assert documented - set(OPERATIONS) == {("GET", "/api/games/{game_id}/events")}


@pytest.mark.parametrize("method,path", OPERATIONS)
def test_no_request_gets_a_500(client, method, path):
    created = client.post("/api/games", json={"variant": "usa", "seats": [{"name": "A"}, {"name": "B"}], "seed": 1})
    game_id, token = created.json()["game"], created.json()["seats"][0]["token"]
    if path.startswith("/api/lobby"):  # a lobby game with open seats, and its host's token
        opened = client.post("/api/lobby", json={"variant": "usa", "seats": [{"name": "A"}, {}, {}], "listed": True})
        game_id, token = opened.json()["game"]["game"], opened.json()["host_token"]
    operation = schemathesis.openapi.from_asgi("/api/openapi.json", client.app)[path][method]
    modes = [GenerationMode.POSITIVE]
    if operation.path_parameters or operation.query or operation.body:
        modes.append(GenerationMode.NEGATIVE)
    cases = st.one_of(*(operation.as_strategy(mode) for mode in modes))

    @given(case=cases)
    @settings(max_examples=40, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    def fuzz(case):
        rng = random.Random(repr(case.body) + repr(case.path_parameters) + repr(case.query))
        headers = {}
        if case.path_parameters and "game_id" in case.path_parameters and rng.random() < 0.5:
            case.path_parameters["game_id"] = game_id
            if rng.random() < 0.8:
                headers["Authorization"] = f"Bearer {token}"
        response = case.call(headers=headers)
        case.validate_response(response, checks=CHECKS, headers=headers)

    fuzz()


_FIELDS = ["slot", "route", "color", "locomotives", "triples", "tickets", "city", "mode"]
_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30) | st.sampled_from(["red", "locomotive", "Denver-Omaha", "Paris", "build", "dismantle"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@pytest.mark.parametrize("variant_id", ["usa", "europe", "ussr", "wor"])
def test_actions_of_any_shape_reach_the_engine_and_get_a_4xx(client, variant_id):
    """Every action kind of the variant, with fields of every JSON type, from a seat in setup and
    in play: refused with a 4xx and a reason (or, rarely, legal and applied), never a 500."""
    created = client.post("/api/games", json={"variant": variant_id, "seed": 3,
                                              "seats": [{"name": "A"}, {"name": "B"}]}).json()
    gid = created["game"]
    tokens = [s["token"] for s in created["seats"]]
    service = client.app.state.service
    service.snapshot(gid, None)  # makes sure the game is live in memory
    kinds = service.live.cached(gid).game.registry.kinds()

    @given(kind=st.sampled_from([*kinds, "nope"]), fields=st.dictionaries(st.sampled_from(_FIELDS), _json, max_size=4),
           seat=st.sampled_from([0, 1]))
    @settings(max_examples=60, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    def fuzz(kind, fields, seat):
        version = client.get(f"/api/games/{gid}").json()["version"]
        r = client.post(f"/api/games/{gid}/actions", headers={"Authorization": f"Bearer {tokens[seat]}"},
                        json={"version": version, "action": {"kind": kind, **fields}})
        assert r.status_code in (200, 422), r.text
        assert r.json().get("reason") or r.status_code == 200

    fuzz()
    # and again once play has started: every seat has kept its tickets
    for seat in (0, 1):
        snap = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
        keeps = [a for a in snap["legal"] if a["kind"] == "keep-tickets"]
        if keeps:
            client.post(f"/api/games/{gid}/actions", headers={"Authorization": f"Bearer {tokens[seat]}"},
                        json={"version": snap["version"], "action": keeps[0]})
    fuzz()
