"""Operations: liveness, readiness (database, and Redis when configured), Prometheus metrics."""

from __future__ import annotations

import asyncio
from typing import Any

from litestar import Request, Response, get
from litestar.openapi.datastructures import ResponseSpec
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from service.events.migrate import schema_behind_of
from service.http.context import Runtime, refuse_unknown_query, runtime_of
from service.http.openapi import PublicOperation
from service.http.problems import problem_responses
from service.http.schemas.health import Health
from service.redis_clients import async_client
from service.scheduling.clock_lateness import exposition


@get("/v1/healthz", operation_id="getHealth", summary="The process is up", tags=["ops"],
     exclude_from_rate_limit=True, operation_class=PublicOperation,
     before_request=refuse_unknown_query, responses=problem_responses(400, database=False))
async def healthz() -> Health:
    return Health("ok")


async def _database(runtime: Runtime) -> str:
    behind = await schema_behind_of(runtime.services.engine)
    return "ok" if behind is None else f"not ready: {behind}"


async def _redis(url: str) -> str:
    client = async_client(url)
    try:
        await client.ping()
    finally:
        await client.aclose()
    return "ok"


@get("/v1/readyz", operation_id="getReadiness", tags=["ops"],
     summary="The database (with the schema this code needs) and Redis, when configured, "
     "answer", exclude_from_rate_limit=True,
     responses={503: ResponseSpec(data_container=Health, generate_examples=False,
                                  description="Not ready: `checks` names what is not, and why."),
                **problem_responses(400, database=False)},
     operation_class=PublicOperation, before_request=refuse_unknown_query)
async def readyz(request: Request[Any, Any, Any]) -> Response[Health]:
    runtime = runtime_of(request)
    checks: dict[str, str] = {}
    probes = {"database": _database(runtime)}
    if runtime.services.settings.redis_url:
        probes["redis"] = _redis(runtime.services.settings.redis_url)
    for name, probe in probes.items():
        try:
            checks[name] = await asyncio.wait_for(probe, 2.0)
        except Exception as exc:  # any failure means "not ready", with the reason
            checks[name] = f"unavailable: {type(exc).__name__}"
    ok = all(v == "ok" for v in checks.values())
    return Response(Health("ok" if ok else "unavailable", checks), status_code=200 if ok else 503)


@get("/v1/metrics", operation_id="getMetrics", summary="Prometheus metrics", tags=["ops"],
     media_type=CONTENT_TYPE_LATEST, exclude_from_rate_limit=True,
     operation_class=PublicOperation, before_request=refuse_unknown_query,
     responses=problem_responses(400, database=False))
async def metrics(request: Request[Any, Any, Any]) -> Response[bytes]:
    # The clocks' lateness is read apart: under RQ the workers count it in Redis.
    lateness = await runtime_of(request).services.clock_lateness.counts()
    # Written on a thread: every route's histograms and counters take long enough on the
    # event loop to stall the process's requests at each scrape (250 ms seen under load by
    # bench/soak.py, which reads the loop lag from here).
    written = await asyncio.to_thread(generate_latest, REGISTRY)
    # Litestar appends the charset to a text/* type itself: the header named it twice.
    return Response(written + exposition(lateness),
                    media_type=CONTENT_TYPE_LATEST.replace("; charset=utf-8", ""))
