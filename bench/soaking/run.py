"""One soak of one backend: start the service, keep `--tables` tables playing for `--seconds`
(faults injected meanwhile with `--faults`), let the last games end, and report."""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .browser import Browser
from .calls import Calls
from .client import Endpoint
from .cluster import Cluster, Process
from .context import Soak
from .hooks import Hooks, receiver
from .judging import play_table
from .lag import LoopLag
from .report import figures

ROTATION = ("public", "private", "webhooks", "browser")
LAST_SCRAPE_S = 2.5
FAULT_EVERY_S = 60.0
DRAIN_S = 240.0  # the longest the run waits for the games in play once time is up


async def soak_backend(backend: str, args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix=f"cya-soak-{backend}-"))
    _log_clients(folder / "clients.log")
    cluster = Cluster(backend, folder)
    calls = Calls()
    browser = Browser(calls) if args.pages else None
    try:
        await asyncio.to_thread(cluster.start)
        endpoints = [Endpoint(url, calls) for url in cluster.urls]
        hooks = Hooks()
        with receiver(hooks) as hook_url:
            if browser is not None:
                browser.start()
            soak = Soak(endpoints, calls, hooks, hook_url, browser, args.think_ms / 1000)
            lag = LoopLag(cluster.urls, calls)
            watching = asyncio.create_task(lag.watch())
            control = Process("control", [sys.executable, "-m", "bench.soaking.control",
                                          str(folder / "control.json")], dict(os.environ),
                              folder / "control.log")
            await asyncio.to_thread(control.start)
            faults: list[dict[str, Any]] = []
            started = time.monotonic()
            injecting = (asyncio.create_task(_inject(cluster, calls, args.seconds, faults,
                                                     args.fault))
                         if args.faults or args.fault else None)
            await _keep_tables(soak, args, started + args.seconds, backend)
            if injecting is not None:
                await injecting  # every fault is over (it ended before the time was up)
            elapsed = time.monotonic() - started
            await asyncio.sleep(LAST_SCRAPE_S)  # every process's lag read once more
            watching.cancel()
            control.stop()
            lag.control = json.loads((folder / "control.json").read_text())
            for endpoint in endpoints:
                await endpoint.aclose()
        return figures(backend, soak, lag, calls, faults, elapsed, cluster.dead())
    finally:
        if browser is not None:
            browser.stop()
        await asyncio.to_thread(cluster.stop)
        print(f"[{backend}] logs in {folder}", flush=True)


async def _keep_tables(soak: Soak, args: argparse.Namespace, until: float,
                       backend: str) -> None:
    kinds = itertools.cycle(k for k in ROTATION if k != "browser" or args.pages)
    running: dict[asyncio.Task[None], str] = {}
    while time.monotonic() < until:
        while len(running) < args.tables:
            kind = next(kinds)
            if kind == "browser" and list(running.values()).count("browser") >= args.pages:
                continue
            running[asyncio.create_task(play_table(soak, kind))] = kind
        done, _ = await asyncio.wait(running, timeout=max(until - time.monotonic(), 0.1),
                                     return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            running.pop(task)
        _progress(soak, backend)
    if running:
        _, late = await asyncio.wait(running, timeout=DRAIN_S)
        for game_id, (kind, creator) in soak.in_play.items():
            summary = (await creator.get(f"/v1/games/{game_id}"))["summary"]
            soak.problem(f"{game_id} ({kind}) still {summary['status']} at the end, at "
                         f"v{summary['version']}, awaiting {summary['awaiting']} of seats "
                         f"{summary['seats']}")
            logging.getLogger("soak").warning("still in play: %s %s", game_id, summary)
        for task in late:
            soak.games["still running at the end"] += 1
            task.cancel()
    _progress(soak, backend)


_shown = 0


def _log_clients(path: Path) -> None:
    """The clients' own logs (the SDK's runner says why it did not act) to the run's folder."""
    handler = logging.FileHandler(path)
    handler.setFormatter(logging.Formatter("%(asctime)s %(threadName)s %(name)s %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    for noisy in ("httpx", "httpcore", "uvicorn.access"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def _progress(soak: Soak, backend: str) -> None:
    """New problems as they are found, and the tally."""
    global _shown
    for line in soak.problems[_shown:_shown + max(0, 60 - _shown)]:
        print(f"[{backend}] {line}", flush=True)
    _shown = len(soak.problems)
    print(f"[{backend}] games {dict(soak.games)}; reads judged {len(soak.verdicts)}",
          flush=True)


async def _inject(cluster: Cluster, calls: Calls, seconds: float,
                  log: list[dict[str, Any]], only: list[str] | None) -> None:
    """The faults in turn, one every `FAULT_EVERY_S` at most (a short run spreads one of each
    over its time), again and again until the run's time is up; each open as an outage from
    its start until the service is whole again."""
    faults = [f for f in cluster.faults() if not only or f.name in only]
    every = min(seconds / (len(faults) + 1), FAULT_EVERY_S)
    start = time.monotonic()
    for n in itertools.count(1):
        if n * every >= seconds:
            return
        fault = faults[(n - 1) % len(faults)]
        await asyncio.sleep(start + n * every - time.monotonic())
        window = calls.outage()
        t0 = time.monotonic()
        print(f"[{cluster.backend}] fault: {fault.name}", flush=True)
        try:
            await asyncio.to_thread(fault.act)
        except BaseException as e:
            log.append({"fault": fault.name, "failed": repr(e)})
            raise
        finally:
            window[1] = time.time()
        log.append({"fault": fault.name, "whole_again_after_s": round(time.monotonic() - t0, 1)})
