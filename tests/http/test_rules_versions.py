"""Rules versions over HTTP (docs/rules.md §18): listed by the catalogue, set by the server."""

from __future__ import annotations

from cya_rules.ruleset import CURRENT_RULES_VERSION


async def test_given_the_catalogue_then_every_rules_version_is_listed_with_its_changes(api):
    body = (await api.http.get("/v1/rulesets")).json()

    versions = body["rules_versions"]
    assert [v["version"] for v in versions] == list(range(1, CURRENT_RULES_VERSION + 1))
    assert all(v["changes"] for v in versions)
    assert body["current_rules_version"] == CURRENT_RULES_VERSION
    assert {p["rules_version"] for p in body["presets"].values()} == {CURRENT_RULES_VERSION}
    schema = body["ruleset_schema"]["$defs"]["RuleSet"]["properties"]["rules_version"]
    assert schema["readOnly"] is True


async def test_given_an_older_version_asked_for_when_a_game_is_created_then_it_gets_the_current(
    api,
):
    """§18: clients cannot choose an older version; the field is the server's to set."""
    alice = await api.player()

    asked = await api.post(alice, "/v1/games", {"ruleset": {"players": 2, "rules_version": 1}})
    plain = await api.post(alice, "/v1/games", {"ruleset": {"players": 2}})

    assert asked.status_code == plain.status_code == 201, asked.text
    assert asked.json()["ruleset"]["rules_version"] == CURRENT_RULES_VERSION
    assert plain.json()["ruleset"]["rules_version"] == CURRENT_RULES_VERSION
    game_id = asked.json()["game_id"]
    view = await api.get(alice, f"/v1/games/{game_id}")
    assert view.json()["summary"]["ruleset"]["rules_version"] == CURRENT_RULES_VERSION


async def test_given_a_version_newer_than_the_server_when_a_game_is_created_then_400(api):
    alice = await api.player()

    r = await api.post(alice, "/v1/games",
                       {"ruleset": {"players": 2, "rules_version": CURRENT_RULES_VERSION + 1}})

    assert r.status_code == 400, r.text


async def test_given_a_classic_2011_game_then_its_sets_are_hidden_unless_asked_otherwise(api):
    """§17 A45: hidden is classic_2011's default; the game records the value it began with."""
    alice = await api.player()

    classic = await api.post(alice, "/v1/games",
                             {"ruleset": {"players": 4, "edition": "classic_2011"}})
    shown = await api.post(alice, "/v1/games", {"ruleset": {
        "players": 4, "edition": "classic_2011", "public_set_composition": True}})
    en = await api.post(alice, "/v1/games", {"ruleset": {"players": 4}})

    assert classic.json()["ruleset"]["public_set_composition"] is False
    assert shown.json()["ruleset"]["public_set_composition"] is True
    assert en.json()["ruleset"]["public_set_composition"] is True
