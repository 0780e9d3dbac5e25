"""schemathesis against the running app, driven by the committed contract: no 5xx, every
answer matches the schema (status code, content type, headers and body), and every request
the schema forbids is refused."""

from __future__ import annotations

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    ignored_auth,
    missing_required_header,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from service.http.contract import CONTRACT
from service.http.schemas.parameters import GAME_ID

# A player's news is an endless stream (its own tests read it, test_turns_and_news.py): a
# request-and-answer fuzzer would wait on it for ever.
schema = schemathesis.openapi.from_path(CONTRACT).exclude(path="/v1/players/me/events")
# The document also holds the server to its inputs: what it declares open or keyed, required
# or optional, and which bodies and parameters it refuses (unknown fields, out-of-range numbers).
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_headers_conformance, response_schema_conformance, ignored_auth,
          missing_required_header, negative_data_rejection]


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def target(request):
    """A player's key and a running game of theirs, so generated calls reach real code; on
    both databases (PostgreSQL refuses inputs SQLite stores, such as a NUL in text)."""
    live = request.getfixturevalue(f"{request.param}_live")
    with httpx.Client(base_url=live.url) as http:
        keys = [http.post("/v1/players", json={}).json()["api_key"] for _ in range(2)]
        auth = [{"Authorization": f"Bearer {k}"} for k in keys]
        game_id = http.post("/v1/games", json={"ruleset": {"players": 2}},
                            headers=auth[0]).json()["game_id"]
        http.post(f"/v1/games/{game_id}/seats", headers=auth[1])
        http.post(f"/v1/games/{game_id}/start", headers=auth[0])
    return live.url, auth[0], game_id


@schema.parametrize()
@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_given_generated_requests_then_no_5xx_and_every_answer_fits_the_contract(case, target):
    url, auth, game_id = target
    generated = (case.path_parameters or {}).get("game_id")
    if generated is not None and GAME_ID.match(generated) and hash(str(case.body)) % 4:
        # Mostly a real game, sometimes a random id; an id the contract forbids stays as it is,
        # for the check that it is refused.
        case.path_parameters["game_id"] = game_id
    if case.operation.path.endswith(("/view", "/turn")):
        case.query = {**(case.query or {}), "timeout": 0.05}  # keep long polls short
    case.call_and_validate(base_url=url, headers=auth, checks=CHECKS)
