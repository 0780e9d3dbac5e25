"""Webhooks, measured against servers of their own on loopback. Each section runs its own
baseline in the same run:

(a) `decisions`: a webhook bot's decision round trip, p50 ≤ 2× that of the same bot polling
    with the one-call turn route (`GET /turn` + `POST /commands`). One API process (uvicorn,
    a fresh SQLite file, deliveries in-process); two-player `quick` games of the bot against
    a built-in `random` bot, the two kinds alternating. A decision's round trip, read from
    the game's log: from the event that made the decision the bot's to the bot's command,
    both times as the server recorded them (so the same clock measures both kinds).
(b) `deliveries`: one `cya worker` sustains ≥ 200 event-webhook deliveries a second to a
    local receiver. PostgreSQL + Redis; a backlog of `events` messages (two human players,
    each subscribed, playing through the API while no worker runs), then one worker starts:
    the rate is messages / (last received − first received). Baseline: the same signed
    POSTs sent one after another by a bare httpx client, no database, no queue.

Sections live in `SECTIONS` (each returns its figures, targets and whether each is met), so
another can be added; `--only NAME` runs one. Prints one JSON object on its last line; exits
1 on a miss.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import uvicorn

ROOT = Path(__file__).resolve().parents[1]
PG = os.environ.get("CYA_BENCH_PG", "postgres@127.0.0.1:5432")
REDIS = os.environ.get("CYA_BENCH_REDIS", "redis://127.0.0.1:6379")
CYA = str(Path(sys.executable).parent / "cya")
Section = Callable[[argparse.Namespace], tuple[dict[str, Any], dict[str, float], dict[str, bool]]]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_up(base: str, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(300):
        if proc.poll() is not None:
            raise SystemExit("the API exited during start-up")
        try:
            if httpx.get(f"{base}/v1/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise SystemExit("the API did not start")


@contextmanager
def api(env: dict[str, str], log: Path) -> Iterator[str]:
    """One API process as deployed (uvicorn, the app from the environment)."""
    subprocess.run([CYA, "db", "upgrade"], env=env, check=True, capture_output=True)
    port = _free_port()
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "service.http.app:app_from_env",
             "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_up(base, proc)
        yield base
    finally:
        proc.terminate()
        proc.wait(30)


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """An ASGI app on a loopback port, in a thread of this process."""
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def asgi(answer: Callable[[bytes], tuple[int, bytes]]) -> Any:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        status, out = answer(body)
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": out})
    return app


def choose(turn: dict[str, Any]) -> dict[str, Any]:
    """The bot, the same for both kinds: a legal command, seeded by the version."""
    return dict(random.Random(turn["version"]).choice(turn["legal_commands"]))


class Player:
    def __init__(self, http: httpx.Client, name: str) -> None:
        r = http.post("/v1/players", json={"name": name})
        self.http, self.id = http, r.json()["player_id"]
        self.auth = {"Authorization": f"Bearer {r.json()['api_key']}"}

    def get(self, path: str, **params: Any) -> Any:
        return self.http.get(path, headers=self.auth, params=params).json()

    def post(self, path: str, body: Any = None) -> Any:
        # With an Idempotency-Key, as the SDK sends commands (the log then names them).
        r = self.http.post(path, json=body, headers={**self.auth,
                                                     "Idempotency-Key": uuid.uuid4().hex})
        assert r.status_code < 300, r.text
        return r.json()


def bot_game(p: Player) -> str:
    game = p.post("/v1/games", {"ruleset": {"players": 2, "end_mode": "quick"},
                                "bots": [{"level": "random"}]})["game_id"]
    p.post(f"/v1/games/{game}/start")
    return str(game)


def round_trips(p: Player, game: str, actor: str) -> list[float]:
    """Seconds from the event before each of the actor's commands to the command."""
    r = p.http.get(f"/v1/games/{game}/history", headers=p.auth)
    rows = [json.loads(line) for line in r.text.splitlines() if line.strip()]
    times = [datetime.fromisoformat(row["recorded_at"]) for row in rows]
    return [(times[i] - times[i - 1]).total_seconds() for i, row in enumerate(rows)
            if i > 0 and row["actor"] == actor and row["command_id"] is not None
            and row["type"] not in ("seat_taken", "game_created")
            and rows[i - 1]["type"] != "game_created"]


def decisions(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, float],
                                                 dict[str, bool]]:
    folder = Path(tempfile.mkdtemp(prefix="cya-bench-webhooks-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("CYA_")}
    env |= {"CYA_DATABASE_URL": f"sqlite+aiosqlite:///{folder / 'cya.sqlite3'}",
            "CYA_SCHEDULER": "in_process", "CYA_RATE_LIMIT_PER_MINUTE": "0",
            "CYA_WEBHOOKS_ALLOW_PRIVATE": "1"}
    bot = asgi(lambda body: (200, json.dumps(choose(json.loads(body))).encode()))
    hooked: list[float] = []
    polled: list[float] = []
    with api(env, folder / "api.log") as base, serving(bot) as bot_url, \
            httpx.Client(base_url=base, timeout=60) as http:
        webhook_bot, polling_bot = Player(http, "webhook-bot"), Player(http, "polling-bot")
        webhook_bot.post("/v1/webhooks/bot", {"url": bot_url})
        for _ in range(args.games):
            game = bot_game(webhook_bot)
            while webhook_bot.get(f"/v1/games/{game}")["summary"]["status"] != "finished":
                time.sleep(0.05)
            hooked += round_trips(webhook_bot, game, f"webhook:{webhook_bot.id}")
            game = bot_game(polling_bot)
            while (turn := polling_bot.get(f"/v1/games/{game}/turn", timeout=25))[
                    "status"] != "finished":
                if turn["legal_commands"]:
                    polling_bot.post(f"/v1/games/{game}/commands", choose(turn))
            polled += round_trips(polling_bot, game, f"player:{polling_bot.id}")
    webhook_p50 = statistics.median(hooked) * 1000
    polling_p50 = statistics.median(polled) * 1000
    figures = {"webhook_decision_p50_ms": round(webhook_p50, 2),
               "polling_decision_p50_ms": round(polling_p50, 2),
               "webhook_vs_polling_p50": round(webhook_p50 / polling_p50, 3),
               "decisions_measured": [len(hooked), len(polled)]}
    targets = {"webhook_vs_polling_p50": 2.0}
    return figures, targets, {"webhook_vs_polling_p50": webhook_p50 <= 2.0 * polling_p50}


async def _pg(sql: str, database: str = "postgres") -> Any:
    import asyncpg

    conn = await asyncpg.connect(f"postgresql://{PG}/{database}")
    try:
        return await conn.fetchval(sql)
    finally:
        await conn.close()


@contextmanager
def redis_index() -> Iterator[str]:
    """A Redis database index of its own (1–15), claimed as the tests claim theirs."""
    from redis import Redis

    token = uuid.uuid4().hex
    for index in range(1, 16):
        client = Redis.from_url(f"{REDIS}/{index}")
        if client.dbsize() == 0 and client.set("cya:test:claimed-by", token, nx=True, ex=900):
            break
        client.close()
    else:
        raise SystemExit("no free Redis database index (1–15)")
    try:
        yield f"{REDIS}/{index}"
    finally:
        client.flushdb()
        client.close()


def play_backlog(a: Player, b: Player, commands: int) -> None:
    """Two-player games between a and b, played through the API until `commands` sent."""
    rng, sent = random.Random(7), 0
    while sent < commands:
        game = a.post("/v1/games", {"ruleset": {"players": 2, "end_mode": "quick"},
                                    "bots": []})["game_id"]
        b.post(f"/v1/games/{game}/seats")
        a.post(f"/v1/games/{game}/start")
        seats = {0: a, 1: b}
        while sent < commands:
            turn = a.get(f"/v1/games/{game}/turn", timeout=0)
            if turn["status"] == "finished":
                break
            who = seats[turn["awaiting"][0]]
            if who is not a:
                turn = who.get(f"/v1/games/{game}/turn", timeout=0)
            who.post(f"/v1/games/{game}/commands", rng.choice(turn["legal_commands"]))
            sent += 1


def receive(port: int) -> None:
    """`--receive PORT`: the local receiver, a process of its own (in a thread of this one it
    would share the interpreter lock with the sender). It answers every POST 204; `GET`
    answers how many it took and when the first and the last came."""
    seen: list[float] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        while (await receive()).get("more_body"):
            pass
        if scope["method"] == "POST":
            seen.append(time.monotonic())
            status, body = 204, b""
        else:
            status = 200
            body = json.dumps({"count": len(seen), "first": seen[0] if seen else None,
                               "last": seen[-1] if seen else None}).encode()
            if scope["path"] == "/reset":
                seen.clear()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})

    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")


@contextmanager
def receiver_process(folder: Path) -> Iterator[str]:
    port = _free_port()
    with open(folder / "receiver.log", "wb") as out:
        proc = subprocess.Popen([sys.executable, __file__, "--receive", str(port)],
                                stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx.get(url + "/stats", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def _stats(url: str, reset: bool = False) -> dict[str, Any]:
    return dict(httpx.get(url + ("/reset" if reset else "/stats"), timeout=10).json())


def deliveries(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, float],
                                                  dict[str, bool]]:
    folder = Path(tempfile.mkdtemp(prefix="cya-bench-webhooks-"))
    name = f"cya_bench_webhooks_{uuid.uuid4().hex[:10]}"
    asyncio.run(_pg(f'CREATE DATABASE "{name}"'))
    try:
        with redis_index() as redis_url, receiver_process(folder) as receiver:
            env = {k: v for k, v in os.environ.items() if not k.startswith("CYA_")}
            env |= {"CYA_DATABASE_URL": f"postgresql+asyncpg://{PG}/{name}",
                    "CYA_REDIS_URL": redis_url, "CYA_SCHEDULER": "rq",
                    "CYA_RATE_LIMIT_PER_MINUTE": "0", "CYA_WEBHOOKS_ALLOW_PRIVATE": "1"}
            with api(env, folder / "api.log") as base, \
                    httpx.Client(base_url=base, timeout=60) as http:
                a, b = Player(http, "a"), Player(http, "b")
                for p in (a, b):
                    p.post("/v1/webhooks/subscriptions", {"url": receiver + "/hook",
                                                          "event_types": ["events"]})
                play_backlog(a, b, args.messages // 2)
            owed = int(asyncio.run(_pg("SELECT count(*) FROM webhook_messages", name)))
            figures = _drain(env, folder, name, owed, receiver)
            _stats(receiver, reset=True)
            baseline = asyncio.run(_bare_posts(receiver + "/hook", min(owed, 2000)))
    finally:
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    figures["bare_client_posts_per_s"] = round(baseline, 1)
    figures["worker_vs_bare_client"] = round(figures["worker_deliveries_per_s"] / baseline, 3)
    targets = {"worker_deliveries_per_s": 200.0}
    return figures, targets, {
        "worker_deliveries_per_s": figures["worker_deliveries_per_s"] >= 200.0}


def _drain(env: dict[str, str], folder: Path, name: str, owed: int, receiver: str
           ) -> dict[str, Any]:
    """One worker delivers the backlog; the rate from the first message received to the
    last."""
    with open(folder / "worker.log", "wb") as out:
        worker = subprocess.Popen([CYA, "worker", "--name", f"bench-{uuid.uuid4().hex[:6]}"],
                                  cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                  start_new_session=True)
    try:
        until = time.monotonic() + 300
        while (stats := _stats(receiver))["count"] < owed and time.monotonic() < until:
            time.sleep(0.5)
        left = int(asyncio.run(_pg(
            "SELECT count(*) FROM webhook_messages WHERE delivered_at IS NULL", name)))
    finally:
        os.killpg(worker.pid, 15)
        worker.wait(30)
    count = stats["count"]
    span = (stats["last"] - stats["first"]) if count > 1 else float("inf")
    return {"messages_owed": owed, "messages_received": count,
            "messages_undelivered": left,
            "worker_deliveries_per_s": round((count - 1) / span, 1)}


async def _bare_posts(url: str, count: int) -> float:
    """The receiver's pace for one sender with no database or queue: signed POSTs one after
    another."""
    from service.webhooks.signing import new_secret, signed_headers

    secret, body = new_secret(), b'{"type":"events","events":[]}' * 8
    async with httpx.AsyncClient() as client:
        start = time.perf_counter()
        for i in range(count):
            r = await client.post(url, content=body,
                                  headers=signed_headers((secret,), f"msg_{i}", body))
            assert r.status_code == 204
        return count / (time.perf_counter() - start)


SECTIONS: dict[str, Section] = {"decisions": decisions, "deliveries": deliveries}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--only", choices=sorted(SECTIONS), help="run one section")
    parser.add_argument("--receive", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--games", type=int, default=10,
                        help="games of each kind in `decisions` (default 10)")
    parser.add_argument("--messages", type=int, default=4000,
                        help="messages in the backlog of `deliveries` (default 4000)")
    args = parser.parse_args()
    if args.receive:
        receive(args.receive)
        return 0
    figures: dict[str, Any] = {}
    targets: dict[str, float] = {}
    met: dict[str, bool] = {}
    for name, section in SECTIONS.items():
        if args.only and name != args.only:
            continue
        f, t, m = section(args)
        figures[name] = f
        targets |= t
        met |= m
        print(f"{name}: {json.dumps(f)}", flush=True)
    print(json.dumps({"benchmark": "webhooks", "figures": figures, "targets": targets,
                      "met": met, "ok": all(met.values())}))
    return 0 if all(met.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
