"""Answers and examples held against the committed OpenAPI document: the leak walk reaches
states (challenges, drafts, action cards) that schemathesis's generated calls never do."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Any

import httpx
import jsonschema_rs

from service.http.contract import CONTRACT

DOCUMENT = json.loads(CONTRACT.read_text())


@functools.cache
def _validator(schema_json: str) -> jsonschema_rs.Validator:
    # `$ref`s point into the document's components: validate against a root that has them.
    return jsonschema_rs.Draft202012Validator(
        {**json.loads(schema_json), "components": DOCUMENT["components"]})


def errors(schema: dict[str, Any], value: Any) -> list[str]:
    validator = _validator(json.dumps(schema, sort_keys=True))
    return [f"{list(e.instance_path)}: {e.message[:200]}" for e in validator.iter_errors(value)]


def assert_fits(response: httpx.Response, path: str) -> None:
    """`response` (to a request on the templated `path`) is one its operation documents."""
    operation = DOCUMENT["paths"][path][response.request.method.lower()]
    answer = operation["responses"].get(str(response.status_code))
    assert answer is not None, (path, response.status_code, "status not documented")
    media_type = response.headers["content-type"].split(";")[0]
    media = answer["content"][media_type]
    if media_type == "application/x-ndjson":
        values = [json.loads(line) for line in response.text.splitlines() if line]
    else:
        values = [response.json()]
    for value in values:
        found = errors(media["schema"], value)
        assert not found, (path, response.status_code, found[:3])


def examples() -> Iterator[tuple[str, dict[str, Any], Any]]:
    """(where, schema, value) for every example the document gives a JSON body."""
    for path, operations in DOCUMENT["paths"].items():
        for method, operation in operations.items():
            bodies = [("request", operation.get("requestBody", {}))]
            bodies += list(operation["responses"].items())
            for label, body in bodies:
                for media_type, media in body.get("content", {}).items():
                    if "json" not in media_type:
                        continue
                    values = list(media["schema"].get("examples", []))
                    values += [e["value"] for e in media.get("examples", {}).values()]
                    for value in values:
                        yield f"{method.upper()} {path} {label}", media["schema"], value
