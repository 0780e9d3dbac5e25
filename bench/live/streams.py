"""A lightweight event-stream client on raw asyncio streams: one connection and one task per
stream, chunked transfer decoding and SSE parsing by hand, each event's version and receipt
time kept (`time.monotonic`, the same clock in every process of this box)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import msgspec

_decode = msgspec.json.Decoder().decode
OnEvent = Callable[[int, dict[str, Any], list[int], float], None]  # version, event, awaiting, at


class Stream:
    """A seat's `GET /v1/games/{id}/events` as Server-Sent Events, from version `after`."""

    def __init__(self, port: int, game_id: str, key: str, after: int, on_event: OnEvent) -> None:
        self.port, self.game_id, self.key, self.after = port, game_id, key, after
        self.on_event = on_event
        self.versions: list[int] = []  # as received, in order
        self.opened = asyncio.Event()
        self.status = 0
        self.error: str | None = None
        self.ended = False  # the server closed it (after game_ended, or stopping)

    async def run(self) -> None:
        writer = None
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            writer.write((f"GET /v1/games/{self.game_id}/events?after={self.after} HTTP/1.1\r\n"
                          f"Host: 127.0.0.1:{self.port}\r\nAuthorization: Bearer {self.key}\r\n"
                          "Accept: text/event-stream\r\n\r\n").encode())
            self.status = int((await reader.readline()).split()[1])
            chunked = False
            while (line := await reader.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"transfer-encoding:") and b"chunked" in line.lower():
                    chunked = True
            self.opened.set()
            if self.status != 200:
                self.error = f"status {self.status}"
                return
            await self._read(reader, chunked)
            self.ended = True
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as exc:
            self.error = repr(exc)
        finally:
            self.opened.set()
            if writer is not None:
                writer.close()

    async def _read(self, reader: asyncio.StreamReader, chunked: bool) -> None:
        pending = b""
        data = b""
        while True:
            if chunked:
                size = int((await reader.readline()).strip() or b"0", 16)
                if size == 0:
                    return
                block = await reader.readexactly(size + 2)
                block = block[:-2]
            else:
                block = await reader.read(65536)
                if not block:
                    return
            at = time.monotonic()
            pending += block
            *lines, pending = pending.split(b"\n")
            for line in lines:
                if line.startswith(b"data:"):
                    data = line[5:].strip()
                elif not line.strip() and data:
                    body = _decode(data)
                    data = b""
                    self.versions.append(body["version"])
                    self.on_event(body["version"], body["event"], body["awaiting"], at)
