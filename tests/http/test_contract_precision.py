"""Where the contract and the server could be read two ways: whole numbers written as
decimals, a body that contradicts itself, and how operations chain (links)."""

from __future__ import annotations

import json

from service.http.contract import CONTRACT

from .api import Api


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
