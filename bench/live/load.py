"""One load-generator process: it makes its share of the games through the API, opens both
seats' streams, then sends its share of the commands, open loop (command k at start + k /
rate, each to the next game ready for one), and reports what it measured. The main process
steers it through a pipe: each step starts when told and answers when done."""

from __future__ import annotations

import asyncio
import os
import time
from multiprocessing.connection import Connection
from typing import Any

import aiohttp
import msgspec
import uvloop

from .servers import raise_open_files
from .streams import Stream
from .tables import RULES, Sent, Table, choose, now

MAKING = 16  # games made at once by one process
OPENING = 64  # streams opened at once by one process
YIELD = 10  # the load processes' niceness, above the servers'


class Load:
    def __init__(self, ports: list[int], first: int, games: int, by_game: bool) -> None:
        self.ports, self.first, self.count = ports, first, games
        self.by_game = by_game  # a game's seats on one process (a balancer hashing its id)
        # msgspec for the bodies, as for the streams: the standard library's JSON was the
        # load's own cost, taken from the cores it shares with the servers.
        self.http = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0), timeout=aiohttp.ClientTimeout(total=60),
            json_serialize=lambda body: msgspec.json.encode(body).decode())
        self.tables: list[Table] = []
        self.sent: list[Sent] = []
        self.latencies: list[float] = []  # due → answer, seconds
        self.refused = 0
        self.failed = 0  # commands without an answer (a transport error or the timeout)
        self.skipped = 0  # due with no game ready for a command
        self.failed_makes = 0
        self._cursor = 0
        self._tasks: list[asyncio.Task[None]] = []

    async def call(self, port: int, method: str, path: str, key: str | None = None,
                   body: Any = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {key}"} if key else None
        async with self.http.request(method, f"http://127.0.0.1:{port}{path}", json=body,
                                     headers=headers) as r:
            return r.status, (msgspec.json.decode(await r.read())
                              if r.content_type == "application/json" else None)

    async def make(self, i: int) -> Table | None:
        ports = (self.ports[i % 2], self.ports[i % 2 if self.by_game else (i + 1) % 2])
        keys = []
        for port in ports:
            _, player = await self.call(port, "POST", "/v1/players", body={})
            keys.append(player["api_key"])
        status, game = await self.call(ports[0], "POST", "/v1/games", keys[0], {"ruleset": RULES})
        if status not in (200, 201):
            return None
        game_id = game["game_id"]
        joined, _ = await self.call(ports[1], "POST", f"/v1/games/{game_id}/seats", keys[1])
        started, _ = await self.call(ports[0], "POST", f"/v1/games/{game_id}/start", keys[0])
        if joined >= 300 or started >= 300:
            return None
        return Table(game_id, ports, (keys[0], keys[1]))

    async def make_all(self) -> dict[str, Any]:
        began, gate = now(), asyncio.Semaphore(MAKING)

        async def one(i: int) -> None:
            async with gate:
                try:
                    table = await self.make(i)
                except Exception:
                    table = None
                if table is None:
                    self.failed_makes += 1
                else:
                    self.tables.append(table)

        await asyncio.gather(*(one(self.first + i) for i in range(self.count)))
        return {"games": len(self.tables), "failed": self.failed_makes, "s": now() - began}

    async def open_all(self) -> dict[str, Any]:
        began, gate = now(), asyncio.Semaphore(OPENING)

        async def one(table: Table, seat: int) -> None:
            async with gate:
                stream = Stream(table.ports[seat], table.game_id, table.keys[seat], 0,
                                table.follower(seat))
                table.streams.append(stream)
                self._tasks.append(asyncio.create_task(stream.run()))
                await stream.opened.wait()

        await asyncio.gather(*(one(t, s) for t in self.tables for s in (0, 1)))
        streams = [s for t in self.tables for s in t.streams]
        return {"streams": sum(s.status == 200 and s.error is None for s in streams),
                "refused": {str(code): sum(s.status == code for s in streams)
                            for code in {s.status for s in streams if s.status != 200}},
                "errors": sum(s.error is not None for s in streams), "s": now() - began}

    def _next_ready(self) -> Table | None:
        for _ in range(len(self.tables)):
            table = self.tables[self._cursor]
            self._cursor = (self._cursor + 1) % len(self.tables)
            if table.ready():
                return table
        return None

    async def command(self, table: Table, due: float) -> None:
        seat = table.awaiting[0]
        table.busy = True
        try:
            sent = now()
            try:
                status, body = await self.call(table.ports[seat], "POST",
                                               f"/v1/games/{table.game_id}/commands",
                                               table.keys[seat], choose(table.hands[seat]))
            except (OSError, TimeoutError, aiohttp.ClientError):
                self.failed += 1  # unanswered within the client's minute: timed as such
                self.latencies.append(now() - due)
                return
            answered = now()
            self.latencies.append(answered - due)
            if status == 200:
                table.version = max(table.version, body["version"])
                self.sent.append(Sent(table, body["version"], due, sent, answered))
                return
            self.refused += 1  # the hand was not what the bench thought: any legal one
            _, legal = await self.call(table.ports[seat], "GET",
                                       f"/v1/games/{table.game_id}/legal-commands",
                                       table.keys[seat])
            if legal and legal.get("commands"):
                status, body = await self.call(table.ports[seat], "POST",
                                               f"/v1/games/{table.game_id}/commands",
                                               table.keys[seat], legal["commands"][0])
                if status == 200:
                    table.version = max(table.version, body["version"])
        finally:
            table.busy = False

    async def play(self, rate: float, seconds: float) -> dict[str, Any]:
        """Commands at `rate` a second for `seconds`, then the figures of the window."""
        start, cpu = now(), time.process_time()
        sends: list[asyncio.Task[None]] = []
        for k in range(int(rate * seconds)):
            due = start + k / rate
            await asyncio.sleep(max(0.0, due - now()))
            table = self._next_ready()
            if table is None:
                self.skipped += 1
                continue
            sends.append(asyncio.create_task(self.command(table, due)))
        await asyncio.gather(*sends)
        return {"cpu_s": time.process_time() - cpu, "s": now() - start}

    def judge(self) -> dict[str, Any]:
        """Deliveries: for each command, when each seat's stream had its last event; and
        every stream's versions, which must be 1 … its game's last, in order."""
        from_answer, from_send, missing = [], [], 0
        for s in self.sent:
            got = [s.table.arrived[seat].get(s.version) for seat in (0, 1)]
            if None in got:
                missing += 1
                continue
            last = max(t for t in got if t is not None)
            from_answer.append(last - s.answered)
            from_send.append(last - s.sent)
        misses = disorder = 0
        for table in self.tables:
            for stream in table.streams:
                want = list(range(1, table.version + 1))
                misses += len(set(want) - set(stream.versions))
                disorder += stream.versions != sorted(set(stream.versions))
        streams = [s for t in self.tables for s in t.streams]
        return {"latencies": self.latencies, "from_answer": from_answer,
                "send_late": [s.sent - s.due for s in self.sent],
                "from_send": from_send, "commands": len(self.sent), "refused": self.refused,
                "unanswered": self.failed,
                "skipped": self.skipped, "undelivered_commands": missing,
                "missed_events": misses, "out_of_order_streams": disorder,
                "streams_lost": sum(s.error is not None or s.ended for s in streams)}

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.http.close()


def run(pipe: Connection, ports: list[int], first: int, games: int, by_game: bool = False
        ) -> None:
    """The process's body: each message from the main process is a step to take. It yields
    the CPU to the service it measures (as bench/soak.py's clients do): on one machine the
    load generator would otherwise take the servers' share."""
    raise_open_files()
    os.nice(YIELD)

    async def steps() -> None:
        load = Load(ports, first, games, by_game)
        loop = asyncio.get_running_loop()
        try:
            while True:
                step, *args = await loop.run_in_executor(None, pipe.recv)
                if step == "make":
                    pipe.send(await load.make_all())
                elif step == "open":
                    pipe.send(await load.open_all())
                elif step == "play":
                    pipe.send(await load.play(*args))
                elif step == "judge":
                    await asyncio.sleep(args[0])  # the last deliveries' grace
                    pipe.send(load.judge())
                else:
                    return
        finally:
            await load.close()

    # uvloop, as the servers run: the load's own CPU is taken from the cores it shares with
    # them, and what it lacks it pays for in sending late (`p99_send_late_ms`).
    uvloop.run(steps())
