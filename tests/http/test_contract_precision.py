"""Where the contract and the server could be read two ways: whole numbers written as
decimals, a body that contradicts itself, and how operations chain (links)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from service.http.contract import CONTRACT

from .api import Api, Player
from .contract_check import DOCUMENT


async def test_given_whole_numbers_written_as_decimals_then_they_are_integers(api: Api):
    # JSON Schema counts 2.0 as an integer, and so does the contract's `integer`.
    ann = await api.player("ann")

    created = await api.post(ann, "/v1/games", {"ruleset": {"players": 2.0}, "turn_clock": 60.0,
                                                "bots": [{"level": "random", "seat": 1.0}]})
    fraction = await api.post(ann, "/v1/games", {"ruleset": {"players": 2.5}})

    assert created.status_code == 201, created.text
    assert created.json()["players"] == 2 and created.json()["turn_clock"] == 60
    assert created.json()["seats"][1] == {"kind": "bot", "level": "random"}
    assert fraction.status_code == 400 and fraction.json()["errors"][0]["key"] == "ruleset.players"


async def test_given_any_integer_field_of_any_body_then_a_decimal_reads_the_same_way(api: Api):
    # Every integer field of every request body in the contract, required or optional, at any
    # depth: 2.0 answers as 2 does, and 2.5 is refused with a 400 naming that field.
    fields = list(_integer_fields())
    ann = await api.player("ann")

    assert {"turn_clock", "timeout_policy.hand_over_after", "rounds", "ruleset.first_player",
            "bots[0].seat", "seat", "target_seat"} <= {f.key for f in fields}
    for field in fields:
        whole = field.value
        integer, decimal, fraction = [await _send(api, ann, field, value)
                                      for value in (whole, float(whole), whole + 0.5)]

        assert integer[0] != 400, (field, integer)
        assert decimal == integer, (field, decimal, integer)
        assert fraction == (400, "malformed_request", field.key), (field, fraction)


Steps = tuple[tuple[str, Any], ...]  # ("property", name), ("item", 0), ("variant", i)


@dataclass(frozen=True)
class IntegerField:
    """An integer field of an operation's body: where it is, its bounds."""
    method: str
    path: str
    steps: Steps
    bounds: dict[str, Any]

    @property
    def key(self) -> str:
        """The field as a 400 names it: `bots[0].seat`."""
        parts = {"property": ".{}", "item": "[{}]"}
        return "".join(parts[kind].format(step) for kind, step in self.steps
                       if kind in parts).lstrip(".")

    @property
    def value(self) -> int:
        return _within(self.bounds)


def _within(bounds: dict[str, Any]) -> int:
    """1, or the bound nearest to it."""
    return int(min(max(1, bounds.get("minimum", 1)), bounds.get("maximum", 1)))


def _body_schema(operation: dict[str, Any]) -> dict[str, Any] | None:
    media = operation.get("requestBody", {}).get("content", {}).get("application/json")
    return None if media is None else media["schema"]  # type: ignore[no-any-return]


def _integer_fields() -> Iterator[IntegerField]:
    for path, item in DOCUMENT["paths"].items():
        for method, operation in item.items():
            if (schema := _body_schema(operation)) is not None:
                for steps, bounds in _integers_in(schema, (), {}):
                    yield IntegerField(method.upper(), path, steps, bounds)


def _resolved(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema or len(schema.get("allOf", ())) == 1:
        schema = (DOCUMENT["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
                  if "$ref" in schema else schema["allOf"][0])
    return schema


def _bounds(schema: dict[str, Any], outer: dict[str, Any]) -> dict[str, Any]:
    # A nullable integer's bounds sit beside its union (`minimum` next to `oneOf`).
    return {**outer, **{k: schema[k] for k in ("minimum", "maximum") if k in schema}}


def _integers_in(schema: dict[str, Any], steps: Steps,
                 outer: dict[str, Any]) -> Iterator[tuple[Steps, dict[str, Any]]]:
    schema = _resolved(schema)
    bounds = _bounds(schema, outer)
    for i, variant in enumerate(schema.get("oneOf", schema.get("anyOf", []))):
        yield from _integers_in(variant, (*steps, ("variant", i)), bounds)
    if schema.get("type") == "integer":
        yield steps, bounds
    for name, sub in schema.get("properties", {}).items():
        yield from _integers_in(sub, (*steps, ("property", name)), {})
    if "items" in schema:
        yield from _integers_in(schema["items"], (*steps, ("item", 0)), {})


def _sample(schema: dict[str, Any], steps: Steps, value: Any, known: dict[str, str],
            outer: dict[str, Any] | None = None, variant: int = 0) -> Any:
    """The least document `schema` takes (its required fields only), with `value` at
    `steps` (off that way, `value` is None and a field gets the least value it takes). A
    property named in `known` has that value; off `steps`, a union is its `variant`th member
    (the items of an array take each member in turn, so that they differ)."""
    schema = _resolved(schema)
    bounds = _bounds(schema, outer or {})
    (kind, step), rest = steps[0] if steps else (None, None), steps[1:]
    if variants := schema.get("oneOf", schema.get("anyOf")):
        if kind == "variant":
            return _sample(variants[step], rest, value, known, bounds)
        return _sample(variants[variant % len(variants)], steps, value, known, bounds)
    if "const" in schema or "enum" in schema:
        return schema["const"] if "const" in schema else schema["enum"][0]
    match schema.get("type"):
        case "object":
            names = dict.fromkeys([*schema.get("required", ()), *([step] if steps else [])])
            return {name: known[name] if name in known else _sample(
                schema["properties"][name], rest if name == step else (),
                value if name == step else None, known) for name in names}
        case "array":
            count = max(schema.get("minItems", 0), 1 if steps else 0)
            return [_sample(schema["items"], rest if i == 0 else (),
                            value if i == 0 else None, known, variant=i)
                    for i in range(count)]
        case "integer":
            return value if value is not None else _within(bounds)
        case "string":
            return "x" * schema.get("minLength", 1)
        case "boolean":
            return False
    raise AssertionError(f"no sample for {schema}")


async def _send(api: Api, caller: Player, field: IntegerField,
                value: float) -> tuple[int, str | None, str | None]:
    """The answer to the least body with `value` at `field`: its status, its problem's code
    and the rule it breaks or the field its first error names. A path's game is a new one
    for each request, so that no answer depends on an earlier one."""
    operation = DOCUMENT["paths"][field.path][field.method.lower()]
    body = _sample(_body_schema(operation) or {}, field.steps, value,
                   {"player_id": caller.player_id, "level": "random"})
    path = field.path
    if "{game_id}" in path:
        game_id = await api.game(caller, [], start=False, ruleset={"players": 2})
        path = path.format(game_id=game_id)
    r = await api.http.request(field.method, path, json=body, headers=caller.auth)
    if r.status_code < 400:
        return r.status_code, None, None
    problem = r.json()
    return r.status_code, problem["code"], problem.get("rule") or problem["errors"][0]["key"]


async def test_given_a_body_that_contradicts_itself_then_400_naming_the_field(api: Api):
    # One rule (README): a body that cannot describe a table, however each field looks alone,
    # is a 400; a request the game's state refuses is a 422.
    ann = await api.player("ann")
    bodies = {
        "bots[0].seat": {"ruleset": {"players": 2}, "bots": [{"seat": 5}]},
        "bots": {"ruleset": {"players": 2}, "bots": [{}, {}]},
        "ruleset": {"ruleset": {"players": 2, "first_player": 4}},
    }

    for key, body in bodies.items():
        r = await api.post(ann, "/v1/games", body)
        assert r.status_code == 400 and r.json()["code"] == "malformed_request", (key, r.text)
        assert r.json()["errors"][0]["key"].startswith(key), (key, r.json())


def test_given_the_contracts_links_then_each_names_an_operation_and_its_parameter():
    document = json.loads(CONTRACT.read_text())
    operations = {op["operationId"]: op for item in document["paths"].values()
                  for op in item.values()}
    links = [(source, name, link) for source, op in operations.items()
             for response in op["responses"].values()
             for name, link in response.get("links", {}).items()]

    assert {"createGame", "startGame", "getTurn", "postCommand"} <= {s for s, _, _ in links}
    for source, name, link in links:
        target = operations[link["operationId"]]
        names = {p["name"] for p in target.get("parameters", [])}
        assert set(link["parameters"]) <= names, (source, name)
