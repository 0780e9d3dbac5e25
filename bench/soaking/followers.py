"""Clients that only read a game, each recording what it got in a `Read`:

- `stream`: plain Server-Sent Events (`GET /events`, `Accept: text/event-stream`), cut now and
  then on purpose and resumed with `Last-Event-ID`, as a browser's EventSource does;
- `pages`: `GET /events?after=` page after page;
- `long_polls`: `GET /view?wait_for_version=` one version after the other;
- `summaries`: a watcher's `GET /v1/games/{id}` and its line in the lobby.

Each ends when it has seen the game's end, or gives up `GRACE_S` after the game is over.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import httpx
from cya_client.streams import SseParser

from .client import Endpoint, GaveUp
from .reads import Read, Wait

GRACE_S = 30.0


class Ending:
    """Set once the soak knows the game is over; readers then have `GRACE_S` to catch up."""

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.at = 0.0

    def set(self) -> None:
        self.at = time.monotonic()
        self.event.set()

    @property
    def past_grace(self) -> bool:
        return self.event.is_set() and time.monotonic() - self.at > GRACE_S


def _auth(key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"} if key else {}


async def stream(api: Endpoint, read: Read, key: str | None, ending: Ending,
                 rng: random.Random) -> None:
    path = f"/v1/games/{read.game_id}/events"
    last: str | None = str(read.after) if read.after else None
    while not ending.past_grace:
        headers = {"Accept": "text/event-stream", **_auth(key)}
        if last is not None:
            headers["Last-Event-ID"] = last
        cut_after = rng.randint(3, 80) if rng.random() < 0.5 else None  # resume on purpose
        got, opened = 0, False
        try:
            async with api.http.stream("GET", path, headers=headers) as r:
                if r.status_code != 200:
                    read.notes[f"answered {r.status_code}"] += 1
                    await r.aread()
                else:
                    opened, parser = True, SseParser()
                    async for line in r.aiter_lines():
                        message = parser.feed(line)
                        if message is None or message.event != "message":
                            continue
                        data = json.loads(message.data)
                        read.event(data["version"], data["event"], data["awaiting"])
                        last, got = message.id or str(data["version"]), got + 1
                        if data["event"]["type"] == "game_ended":
                            read.finished = True
                            return
                        if cut_after is not None and got >= cut_after:
                            read.notes["cut on purpose"] += 1
                            break
        except httpx.TransportError:
            read.notes["connection lost"] += 1
        if opened and not got:
            read.notes["closed without an event"] += 1
        await asyncio.sleep(0.05 if got else 0.5)


async def pages(api: Endpoint, read: Read, key: str | None, ending: Ending,
                rng: random.Random) -> None:
    after = read.after
    while True:
        over = ending.event.is_set()
        try:
            page = await api.json("GET", f"/v1/games/{read.game_id}/events", key,
                                  params={"after": after, "limit": rng.choice((3, 20, 100))})
        except GaveUp:
            read.notes["gave up"] += 1
            return
        for item in page["events"]:
            read.event(item["version"], item["event"])
        after = page["next_after"]
        if over and not page["events"] and after >= page["version"]:
            read.finished = True
            return
        if ending.past_grace:
            return
        if not page["events"]:
            await asyncio.sleep(rng.uniform(0.3, 1.0))


async def long_polls(api: Endpoint, read: Read, key: str | None, ending: Ending) -> None:
    version = 0
    while not ending.past_grace:
        started = time.time()
        try:
            r = await api.request("GET", f"/v1/games/{read.game_id}/view", key,
                                  params={"wait_for_version": version + 1, "timeout": 10})
        except GaveUp:
            read.notes["gave up"] += 1
            return
        body: dict[str, Any] = r.json()
        read.waits.append(Wait(started, time.time(), version + 1, body["version"],
                               body["status"]))
        read.event(body["version"], body["view"], body["awaiting"])
        version = max(version, body["version"])
        if body["status"] not in ("lobby", "playing"):
            read.finished = True
            return


async def summaries(api: Endpoint, read: Read, ending: Ending, rng: random.Random) -> None:
    """A watcher without a key: the game's summary, and the lobby's line for it."""
    while not ending.event.is_set():
        try:
            if rng.random() < 0.5:
                summary = (await api.json("GET", f"/v1/games/{read.game_id}"))["summary"]
            else:
                lobby = await api.json("GET", "/v1/games",
                                       params={"status": "playing", "limit": 50})
                summary = next((g for g in lobby["games"] if g["game_id"] == read.game_id),
                               None)
        except GaveUp:
            read.notes["gave up"] += 1
            return
        if summary is not None:
            read.event(summary["version"], summary["status"], summary["awaiting"])
        await asyncio.sleep(rng.uniform(0.5, 1.5))
