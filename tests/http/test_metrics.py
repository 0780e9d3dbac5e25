"""`RequestMetrics` records exactly the samples Litestar's own Prometheus middleware records;
the loop-lag probe records a stall of the event loop, and the API exports it."""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import time
import uuid

import httpx
import pytest
from litestar import Litestar, MediaType, Response, get
from litestar.exceptions import NotFoundException
from litestar.plugins.prometheus import PrometheusConfig, PrometheusMiddleware
from litestar.response import Stream
from litestar.testing import TestClient
from prometheus_client import REGISTRY, Histogram

from service.http.metrics import LAG_BUCKETS, LoopLagProbe, RequestMetrics


@get("/items/{item_id:int}")
async def item(item_id: int) -> dict[str, int]:
    if item_id == 0:
        raise NotFoundException("no item 0")
    return {"item": item_id}


@get("/boom")
async def boom() -> None:
    raise RuntimeError("boom")


@get("/created", status_code=201)
async def created() -> Response[str]:
    return Response("made", media_type=MediaType.TEXT)


@get("/stream")
async def stream() -> Stream:
    async def chunks():  # type: ignore[no-untyped-def]
        for part in (b"a", b"b", b"c"):
            yield part

    return Stream(chunks())


def _samples(prefix: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the prefix's families, the name without the prefix; durations are left
    out (they differ), the histograms' counts are kept."""
    out = {}
    for family in REGISTRY.collect():
        for s in family.samples:
            if not s.name.startswith(prefix + "_") or s.name.endswith(("_sum", "_created")):
                continue
            if s.name.endswith("_bucket") and s.labels.get("le") != "+Inf":
                continue
            out[(s.name.removeprefix(prefix), tuple(sorted(s.labels.items())))] = s.value
    return out


def _exercise(middleware: type[PrometheusMiddleware]) -> dict:
    prefix = f"t{uuid.uuid4().hex[:8]}"
    config = PrometheusConfig(app_name="cya", prefix=prefix, group_path=True,
                              middleware_class=middleware)
    app = Litestar([item, boom, created, stream], middleware=[config.middleware])
    with TestClient(app, raise_server_exceptions=False) as client:
        for path in ("/items/1", "/items/2", "/items/0", "/boom", "/boom", "/created",
                     "/stream", "/nowhere"):
            client.get(path)
        client.post("/items/1")  # no such method: 405 before any handler
    return _samples(prefix)


def test_given_the_same_requests_then_the_samples_equal_litestars():
    ours, theirs = _exercise(RequestMetrics), _exercise(PrometheusMiddleware)

    assert ours == theirs
    assert ours[("_requests_total", (("app_name", "cya"), ("method", "GET"),
                                     ("path", "/items/{item_id}"),
                                     ("status_code", "200")))] == 2
    assert ours[("_requests_error_total", (("app_name", "cya"), ("method", "GET"),
                                           ("path", "/boom"), ("status_code", "500")))] == 2


def test_given_extra_labels_then_request_metrics_refuses_them():
    config = PrometheusConfig(app_name="cya", prefix="refused", group_path=True,
                              labels={"team": "x"}, middleware_class=RequestMetrics)
    with pytest.raises(ValueError):
        RequestMetrics(item, config)  # type: ignore[arg-type]


def _lag_buckets(histogram: Histogram) -> dict[str, float]:
    return {s.labels["le"]: s.value for s in histogram.collect()[0].samples
            if s.name.endswith("_bucket")}


async def test_given_a_call_that_blocks_the_loop_then_the_lag_probe_records_the_stall():
    histogram = Histogram(f"t{uuid.uuid4().hex[:8]}_lag", "lag", buckets=LAG_BUCKETS,
                          registry=None)
    probe = LoopLagProbe(histogram, interval_s=0.01)
    probe.start()
    await asyncio.sleep(0.1)
    kept_up = _lag_buckets(histogram)

    time.sleep(0.3)  # a handler that blocks the loop
    await asyncio.sleep(0.05)
    await probe.close()

    assert kept_up["+Inf"] >= 3 and kept_up["0.1"] == kept_up["+Inf"]
    stalled = _lag_buckets(histogram)
    assert stalled["0.25"] < stalled["+Inf"] == stalled["0.5"]


def _block_the_loop_for(seconds: float) -> None:
    time.sleep(seconds)  # a handler that blocks the loop


class _Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


async def test_given_a_stall_past_the_bound_then_the_loops_stack_is_logged_once():
    histogram = Histogram(f"t{uuid.uuid4().hex[:8]}_lag", "lag", buckets=LAG_BUCKETS,
                          registry=None)
    kept = _Kept()
    logging.getLogger("cya.http.metrics").addHandler(kept)
    probe = LoopLagProbe(histogram, interval_s=0.01, stall_log_s=0.05)
    probe.start()
    await asyncio.sleep(0.1)
    quiet = list(kept.messages)

    _block_the_loop_for(0.3)
    await asyncio.sleep(0.05)
    await probe.close()
    logging.getLogger("cya.http.metrics").removeHandler(kept)

    told = kept.messages
    assert quiet == [] and len(told) == 1, told
    assert "_block_the_loop_for" in told[0]
    late = int(told[0].split("the event loop was ")[1].split(" ms late")[0])
    assert 250 <= late <= 1000, told[0]  # the whole stall, told once it ended


def test_given_a_running_api_then_its_metrics_export_the_loop_lag(sqlite_live):
    time.sleep(0.2)  # a few of the probe's naps

    text = httpx.get(f"{sqlite_live.url}/v1/metrics").text

    inf = re.search(r'^cya_event_loop_lag_seconds_bucket\{le="\+Inf"\} (\S+)$', text, re.M)
    assert inf is not None and float(inf.group(1)) >= 1


class CollectedOn:
    """A collector that notes the thread each scrape collects it on."""

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []

    def collect(self) -> list[object]:
        self.threads.append(threading.current_thread())
        return []


def test_given_a_scrape_then_the_metrics_are_written_off_the_event_loop(sqlite_live):
    """Found by bench/soak.py: writing every route's samples held the event loop (and every
    request of the process) for up to 250 ms a scrape on a busy machine."""
    noted = CollectedOn()
    REGISTRY.register(noted)  # type: ignore[arg-type]
    try:
        assert httpx.get(f"{sqlite_live.url}/v1/metrics").status_code == 200
    finally:
        REGISTRY.unregister(noted)  # type: ignore[arg-type]

    assert noted.threads[-1] is not sqlite_live.thread  # the server's event loop runs there
