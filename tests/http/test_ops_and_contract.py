"""Operations, rule sets, docs, rate limits, and the committed OpenAPI contract."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
import sqlite3
import threading
import time
import uuid

import asyncpg
import httpx
import pytest
import sqlalchemy.exc
from prometheus_client import CONTENT_TYPE_LATEST
from sqlalchemy.engine import url as sa_url

from service.events.migrate import head_revision, upgrade
from service.http.api_settings import HttpSettings
from service.http.contract import CONTRACT, render
from service.http.problems import to_problem
from service.wiring.settings import Settings
from tests.postgres import admin, database, url_of

from .api import Api
from .conftest import serve, stop
from .contract_check import DOCUMENT, errors, examples


async def test_given_a_running_app_then_health_and_readiness_are_ok(api):
    health = await api.http.get("/v1/healthz")
    ready = await api.http.get("/v1/readyz")

    assert health.json() == {"status": "ok", "checks": {}}
    assert ready.status_code == 200 and ready.json()["checks"]["database"] == "ok"


@pytest.fixture
def database_down():
    live = serve(Settings(database_url="postgresql+asyncpg://postgres@127.0.0.1:1/nowhere"))
    yield live
    stop(live)


async def test_given_an_unreachable_database_then_requests_answer_503_with_retry_after(
        database_down):
    async with httpx.AsyncClient(base_url=database_down.url) as http:
        key = {"Authorization": "Bearer some-key"}
        answers = [await http.post("/v1/players"), await http.get("/v1/games", headers=key),
                   await http.get("/v1/games/g1/view", headers=key)]
        ready = await http.get("/v1/readyz")

    for r in answers:
        assert r.status_code == 503, r.text
        assert r.json()["code"] == "database_unavailable"
        assert r.headers["retry-after"] == "1"
    assert ready.status_code == 503 and ready.json()["checks"]["database"].startswith(
        "unavailable")


class _Recorded(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


async def test_given_an_unmigrated_database_then_not_ready_until_the_migrations_run(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'fresh.sqlite3'}"
    # On the app's own logger: the app configures the root logger at startup (caplog's).
    recorded, app_log = _Recorded(), logging.getLogger("service.http.app")
    app_log.addHandler(recorded)
    try:
        live = serve(Settings(database_url=url))
    finally:
        app_log.removeHandler(recorded)
    try:
        async with httpx.AsyncClient(base_url=live.url) as http:
            before = await http.get("/v1/readyz")
            player_before = await http.post("/v1/players")
            await asyncio.to_thread(upgrade, url)
            after = await http.get("/v1/readyz")
            player_after = await http.post("/v1/players")
    finally:
        stop(live)

    reason = f"schema at revision none, this code needs {head_revision()}: run `cya db upgrade`"
    assert before.status_code == 503
    assert before.json()["checks"] == {"database": f"not ready: {reason}"}
    assert recorded.messages == [f"the database is not ready for this code: {reason}"]
    assert after.status_code == 200 and after.json()["checks"] == {"database": "ok"}
    # Not a 500: the database is at fault, and the client may retry.
    assert player_before.status_code == 503, player_before.text
    assert player_before.json()["code"] == "database_unavailable"
    assert "schema is behind" in player_before.json()["detail"]
    assert player_before.headers["retry-after"] == "1"
    assert player_after.status_code == 201


def test_given_a_database_migrated_to_an_older_revision_then_not_ready_and_503_not_500():
    with database("cya_old_schema", revision="0001") as name:  # before the players table
        live = serve(Settings(database_url=url_of(name)))
        try:
            ready = httpx.get(f"{live.url}/v1/readyz")
            player = httpx.post(f"{live.url}/v1/players")
        finally:
            stop(live)

    assert ready.status_code == 503
    assert ready.json()["checks"]["database"] == (
        f"not ready: schema at revision 0001, this code needs {head_revision()}: run "
        "`cya db upgrade`")
    assert player.status_code == 503, player.text
    assert player.json()["code"] == "database_unavailable"


def test_given_the_database_refuses_more_connections_then_requests_answer_503():
    # PostgreSQL past max_connections (or a role's limit) answers SQLSTATE 53300.
    role = f"cya_no_room_{uuid.uuid4().hex[:8]}"
    asyncio.run(admin(f'CREATE ROLE "{role}" LOGIN CONNECTION LIMIT 0'))
    try:
        with database("cya_no_room") as name:
            url = sa_url.make_url(url_of(name)).set(username=role)
            live = serve(Settings(database_url=url.render_as_string(hide_password=False)))
            try:
                key = {"Authorization": "Bearer some-key"}
                answers = [httpx.post(f"{live.url}/v1/players"),
                           httpx.get(f"{live.url}/v1/games/g1/view", headers=key)]
            finally:
                stop(live)
    finally:
        asyncio.run(admin(f'DROP ROLE IF EXISTS "{role}"'))

    for r in answers:
        assert r.status_code == 503 and r.json()["code"] == "database_unavailable", r.text


def test_only_a_database_out_of_reach_or_not_migrated_is_a_503_other_errors_stay_500s():
    def wrapped(orig: Exception) -> Exception:
        return sqlalchemy.exc.OperationalError("SELECT 1", {}, orig)

    assert to_problem(wrapped(sqlite3.OperationalError("database is locked"))).status_code == 503
    assert to_problem(wrapped(sqlite3.OperationalError("no such table: games"))).status_code == 503
    assert to_problem(wrapped(asyncpg.UndefinedTableError("no games"))).status_code == 503
    assert to_problem(wrapped(sqlite3.OperationalError('near "SELEC": syntax error'))
                      ).status_code == 500
    assert to_problem(ConnectionRefusedError(111, "refused")).status_code == 503
    assert to_problem(asyncpg.ConnectionDoesNotExistError("closed")).status_code == 503
    assert to_problem(asyncpg.TooManyConnectionsError("too many")).status_code == 503
    assert to_problem(asyncpg.UniqueViolationError("dup")).status_code == 500
    assert to_problem(asyncpg.InternalClientError(
        "cannot switch to state 12; another operation (2) is in progress")).status_code == 503
    busy = to_problem(sqlalchemy.exc.TimeoutError("QueuePool limit of size 5 overflow 10 "
                                                  "reached, connection timed out"))
    assert busy.status_code == 503 and busy.headers == {"Retry-After": "1"}


async def test_given_requests_then_prometheus_metrics_count_them(api):
    await api.http.get("/v1/rulesets")

    r = await api.http.get("/v1/metrics")

    assert r.status_code == 200 and "cya_requests_total" in r.text
    assert r.headers["content-type"] == CONTENT_TYPE_LATEST  # the charset once


async def test_given_the_catalogue_then_editions_presets_and_the_schema_are_listed(api):
    r = await api.http.get("/v1/rulesets")

    body = r.json()
    assert {e["id"] for e in body["editions"]} == {"classic_2011", "en_2022", "de_2024"}
    assert set(body["presets"]) == {"classic", "advanced_all"}
    assert "players" in body["ruleset_schema"]["$defs"]["RuleSet"]["properties"]


async def test_given_the_docs_then_the_interactive_page_and_the_document_are_served(api):
    page = await api.http.get("/docs")
    document = await api.http.get("/docs/openapi.json")

    assert page.status_code == 200 and "html" in page.headers["content-type"]
    assert document.json()["openapi"].startswith("3.1")


async def test_given_an_unknown_route_or_method_then_problems_not_500(api):
    missing = await api.http.get("/v1/nothing-here")
    method = await api.http.delete("/v1/rulesets")

    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert method.status_code == 405 and method.json()["code"] == "method_not_allowed"


def test_given_the_app_then_the_committed_openapi_document_is_current():
    assert CONTRACT.read_text() == render(), (
        "openapi/openapi.json is stale: run `python -m service.http.contract`")


def test_given_the_contract_then_every_example_fits_its_schema():
    found = list(examples())
    wrong = [(where, problems) for where, schema, value in found
             if (problems := errors(schema, value))]

    assert not wrong
    documented = {where for where, _, _ in found}
    for operation in ("GET /v1/games/{game_id}/view 200", "POST /v1/games/{game_id}/commands 200",
                      "GET /v1/games/{game_id}/legal-commands 200",
                      "GET /v1/games/{game_id}/events 200", "POST /v1/games request"):
        assert operation in documented


def test_given_the_contract_then_every_operation_has_an_explicit_id_and_problem_answers():
    import json

    document = json.loads(CONTRACT.read_text())
    operations = [op for path in document["paths"].values() for op in path.values()]

    assert len({op["operationId"] for op in operations}) == len(operations) == 58
    for op in operations:
        if op["operationId"] not in {"getHealth", "getReadiness", "getMetrics",
                                     "listRulesets"}:
            assert "429" in op["responses"], op["operationId"]
    undescribed = [(op["operationId"], p["name"]) for op in operations
                   for p in op.get("parameters", []) if not p.get("description")]
    assert not undescribed  # a client's developer reads them in /docs


def test_given_the_contract_then_every_schema_and_field_is_described():
    import json

    schemas = json.loads(CONTRACT.read_text())["components"]["schemas"]
    undescribed = [name for name, schema in schemas.items() if not schema.get("description")]
    undescribed += [f"{name}.{field}" for name, schema in schemas.items()
                    for field, spec in schema.get("properties", {}).items()
                    if not spec.get("description")]

    assert len(schemas) > 80
    assert not undescribed


@pytest.fixture
def limited(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'limited.sqlite3'}"
    upgrade(url)
    live = serve(Settings(database_url=url), HttpSettings(rate_limit_per_minute=5))
    yield live
    stop(live)


async def test_given_a_key_over_its_limit_then_429_with_retry_after_and_others_unaffected(
        limited):
    async with httpx.AsyncClient(base_url=limited.url) as http:
        a = (await http.post("/v1/players")).json()["api_key"]
        b = (await http.post("/v1/players")).json()["api_key"]
        answers = [await http.get("/v1/players/me", headers={"Authorization": f"Bearer {a}"})
                   for _ in range(6)]
        other = await http.get("/v1/players/me", headers={"Authorization": f"Bearer {b}"})

    assert [r.status_code for r in answers] == [200] * 5 + [429]
    assert answers[0].headers["ratelimit-limit"] == "5"
    assert answers[0].headers["ratelimit-remaining"] == "4"
    assert answers[-1].json()["code"] == "rate_limited"
    assert int(answers[-1].headers["retry-after"]) > 0
    assert other.status_code == 200


async def test_given_made_up_keys_then_they_count_against_the_address(limited):
    # Counted per key, each made-up key bought a fresh quota: unlimited 401s (each a database
    # lookup), and unlimited new players once the address was over its limit.
    async with httpx.AsyncClient(base_url=limited.url) as http:
        mine = (await http.post("/v1/players")).json()["api_key"]
        made_up = [await http.get("/v1/players/me", headers={"Authorization": f"Bearer x{n}"})
                   for n in range(4)]
        create = await http.post("/v1/players", headers={"Authorization": "Bearer x9"})
        me = await http.get("/v1/players/me", headers={"Authorization": f"Bearer {mine}"})

    assert [r.status_code for r in made_up] == [401] * 4
    assert made_up[-1].headers["ratelimit-remaining"] == "0"
    assert create.status_code == 429 and create.json()["code"] == "rate_limited"
    assert me.status_code == 200 and me.headers["ratelimit-remaining"] == "4"  # its own


@pytest.fixture
def with_redis(tmp_path, request):
    url = f"sqlite+aiosqlite:///{tmp_path / 'redis.sqlite3'}"
    upgrade(url)
    live = serve(Settings(database_url=url, redis_url=request.param))
    yield live
    stop(live)


@pytest.mark.parametrize("with_redis", ["redis://127.0.0.1:6379/15"], indirect=True)
async def test_given_redis_configured_then_readiness_checks_it_too(with_redis):
    async with httpx.AsyncClient(base_url=with_redis.url) as http:
        try:
            r = await http.get("/v1/readyz")
        except httpx.HTTPError:  # pragma: no cover
            pytest.fail("readyz did not answer")
    assert r.status_code == 200 and r.json()["checks"] == {"database": "ok", "redis": "ok"}


@pytest.mark.parametrize("with_redis", ["redis://127.0.0.1:1/0"], indirect=True)
async def test_given_redis_unreachable_then_not_ready_with_the_reason(with_redis):
    async with httpx.AsyncClient(base_url=with_redis.url) as http:
        r = await http.get("/v1/readyz")

    assert r.status_code == 503
    assert r.json()["status"] == "unavailable"
    assert r.json()["checks"]["database"] == "ok"
    assert r.json()["checks"]["redis"].startswith("unavailable")


async def _play_one_command_while_the_other_seat_long_polls(live) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=10) as http:
        api = Api(http)
        alice, bob = await api.player(), await api.player()
        game_id = await api.game(alice, [bob])
        seats = await api.seats(game_id, [alice, bob])
        view = (await api.get(alice, f"/v1/games/{game_id}/view")).json()
        me, other = seats[view["awaiting"][0]], seats[1 - view["awaiting"][0]]
        command = (await api.get(me, f"/v1/games/{game_id}/legal-commands")).json()["commands"]

        poll = asyncio.create_task(api.get(other, f"/v1/games/{game_id}/view", params={
            "wait_for_version": view["version"] + 1, "timeout": 5}))
        sent = await api.post(me, f"/v1/games/{game_id}/commands", command[0])
        seen = await poll

    assert sent.status_code == 200, sent.text
    assert seen.status_code == 200 and seen.json()["version"] == sent.json()["version"]


@pytest.mark.parametrize("with_redis", ["redis://127.0.0.1:1/0"], indirect=True)
async def test_given_redis_unreachable_then_commands_succeed_and_streams_poll_the_log(
        with_redis):
    # Publishing and enqueueing follow the commit: their failure was the committed command's
    # 500 (a client retrying a game's creation made a second game).
    await _play_one_command_while_the_other_seat_long_polls(with_redis)


@pytest.fixture
def silent_redis():
    """A Redis address that accepts connections and never answers."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop_accepting = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop_accepting.is_set():
            with contextlib.suppress(TimeoutError):
                held.append(server.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    stop_accepting.set()
    thread.join()
    for conn in held:
        conn.close()
    server.close()


@pytest.fixture
def with_silent_redis(tmp_path, silent_redis):
    url = f"sqlite+aiosqlite:///{tmp_path / 'silent.sqlite3'}"
    upgrade(url)
    live = serve(Settings(database_url=url, redis_url=silent_redis))
    yield live
    stop(live)


async def test_given_redis_that_never_answers_then_commands_still_succeed(with_silent_redis):
    started = time.monotonic()
    await _play_one_command_while_the_other_seat_long_polls(with_silent_redis)

    # Four commits. The first gives up publishing after a second; the others skip it for a
    # while. When each tried, they took 4 s (20 s with redis-py's default timeout of 5 s),
    # and the blocking RQ enqueue of a clock or a bot move held the whole process as long.
    # Two one-second give-ups (rate limits, publishing) are inherent; the rest is headroom
    # for a loaded machine.
    assert time.monotonic() - started < 5


_PREFLIGHT = {"Access-Control-Request-Method": "POST",
              "Access-Control-Request-Headers": "authorization, content-type, idempotency-key, "
                                                "if-match"}


async def test_given_a_web_page_elsewhere_then_cors_lets_it_post_commands_and_read_etags(api):
    player = await api.player("alice")
    game_id = await api.game(player, [await api.player("bob")])
    page = {"Origin": "https://client.example"}

    preflight = await api.http.options(f"/v1/games/{game_id}/commands",
                                       headers={**page, **_PREFLIGHT})
    view = await api.http.get(f"/v1/games/{game_id}/view", headers={**page, **player.auth})

    assert preflight.status_code == 204
    assert preflight.headers["access-control-allow-origin"] == "*"
    allowed = {h.strip().lower()
               for h in preflight.headers["access-control-allow-headers"].split(",")}
    assert {"authorization", "content-type", "idempotency-key", "if-match"} <= allowed
    assert view.status_code == 200 and view.headers["access-control-allow-origin"] == "*"
    exposed = view.headers["access-control-expose-headers"].lower()
    assert "etag" in exposed and "ratelimit-remaining" in exposed and "retry-after" in exposed


@pytest.fixture
def one_origin(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'cors.sqlite3'}"
    upgrade(url)
    live = serve(Settings(database_url=url),
                 HttpSettings(cors_origins=("https://ours.example",)))
    yield live
    stop(live)


async def test_given_cors_origins_set_then_only_those_pages_may_call(one_origin):
    async with httpx.AsyncClient(base_url=one_origin.url) as http:
        ours = await http.options("/v1/players", headers={"Origin": "https://ours.example",
                                                          **_PREFLIGHT})
        theirs = await http.options("/v1/players", headers={"Origin": "https://evil.example",
                                                            **_PREFLIGHT})
        simple = await http.post("/v1/players", headers={"Origin": "https://evil.example"})

    assert ours.status_code == 204
    assert ours.headers["access-control-allow-origin"] == "https://ours.example"
    assert theirs.status_code == 400
    assert simple.status_code == 201  # the server acts; the browser hides the answer:
    assert "access-control-allow-origin" not in simple.headers


async def test_given_head_then_every_get_route_answers_its_status_and_headers_without_a_body(
        api):
    player = await api.player("alice")
    game_id = await api.game(player, [await api.player("bob")])
    view = await api.get(player, f"/v1/games/{game_id}/view")

    head_view = await api.http.head(f"/v1/games/{game_id}/view", headers=player.auth)
    head_health = await api.http.head("/v1/healthz")
    head_anonymous = await api.http.head(f"/v1/games/{game_id}/legal-commands")
    head_stream = await api.http.head(f"/v1/games/{game_id}/events",
                                      headers={**player.auth, "Accept": "text/event-stream"})
    head_post_only = await api.http.head(f"/v1/games/{game_id}/commands", headers=player.auth)

    assert (head_view.status_code, head_view.content) == (200, b"")
    assert head_view.headers["etag"] == view.headers["etag"]
    assert head_view.headers["content-length"] == view.headers["content-length"]
    assert (head_health.status_code, head_health.content) == (200, b"")
    assert (head_anonymous.status_code, head_anonymous.content) == (401, b"")
    assert head_stream.status_code == 200
    assert head_stream.headers["content-type"].startswith("text/event-stream")
    assert head_post_only.status_code == 405


async def test_given_options_or_a_method_a_path_lacks_then_allow_names_all_its_methods(api):
    # Litestar's OPTIONS named only the methods of the first handler at a path: POST for
    # /v1/games, which also lists the lobby with GET.
    player = await api.player("alice")
    game_id = await api.game(player, [await api.player("bob")])
    paths = {"/v1/games": "GET, HEAD, OPTIONS, POST",
             f"/v1/games/{game_id}/view": "GET, HEAD, OPTIONS",
             f"/v1/games/{game_id}/commands": "OPTIONS, POST",
             "/v1/rulesets": "GET, HEAD, OPTIONS"}

    for path, methods in paths.items():
        options = await api.http.options(path, headers=player.auth)
        anonymous = await api.http.options(path)  # no key needed to ask what a path allows
        wrong = [await api.http.request(m, path, headers=player.auth) for m in ("DELETE", "POST")
                 if m not in methods]

        assert (options.status_code, options.headers["allow"]) == (204, methods), path
        assert (anonymous.status_code, anonymous.headers["allow"]) == (204, methods), path
        for r in wrong:
            assert (r.status_code, r.headers["allow"]) == (405, methods), (path, r.request)
            assert r.json()["code"] == "method_not_allowed"


async def test_given_any_path_of_the_contract_then_allow_names_exactly_its_methods(api):
    # On OPTIONS and on a 405: the contract's methods, with HEAD beside GET and OPTIONS
    # itself, which the app answers on every path. OPTIONS left DELETE out at
    # /v1/webhooks/subscriptions/{subscription_id}.
    for template, item in DOCUMENT["paths"].items():
        methods = {m.upper() for m in item if m in ("get", "post", "put", "patch", "delete")}
        methods |= {"OPTIONS"} | ({"HEAD"} if "GET" in methods else set())

        path = re.sub(r"\{[^}]+\}", "x1", template)
        options, put = await api.http.options(path), await api.http.put(path)

        allow = ", ".join(sorted(methods))
        assert (options.status_code, options.headers.get("allow")) == (204, allow), template
        assert (put.status_code, put.headers.get("allow")) == (405, allow), template


async def test_given_the_contract_then_no_header_parameter_admits_null(api):
    # A header is a string or absent: the contract said `string or null`, so schemathesis sent
    # `If-Match: null`, a value the contract allowed and the server refuses with 400.
    headers = [(path, p["name"], p["schema"])
               for path, operations in DOCUMENT["paths"].items()
               for operation in operations.values()
               for p in operation.get("parameters", []) if p["in"] == "header"]
    alice = await api.player()
    game_id = await api.game(alice, [await api.player()])

    r = await api.post(alice, f"/v1/games/{game_id}/commands", {"type": "concede"},
                       headers={"If-Match": "null"})

    assert {"If-Match", "If-None-Match", "Idempotency-Key", "Last-Event-ID"} <= {
        name for _, name, _ in headers}
    assert [h for h in headers if h[2].get("type") != "string" or "oneOf" in h[2]] == []
    assert r.status_code == 400 and r.json()["errors"][0]["key"] == "if_match"
