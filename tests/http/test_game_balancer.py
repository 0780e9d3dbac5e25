"""The API's balancer (deploy/balancer/haproxy.cfg), run for real on Debian's HAProxy in front of
two small HTTP servers that say which one answered: every request about one game reaches one
process, whatever its route and query; games spread over both; everything else goes round
robin; a stream passes through as it is written; a lost process's games go to the other,
with no request refused once its health check has taken it out."""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from tests.processes import free_port

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "balancer" / "haproxy.cfg"
ROUTES = ("", "/commands", "/events?after=3", "/view", "/turn?timeout=1", "/history/page")

pytestmark = pytest.mark.skipif(shutil.which("haproxy") is None,
                                reason="HAProxy is not installed (.ci/run installs it)")


class _Backend(BaseHTTPRequestHandler):
    def _answer(self) -> None:
        name = self.server.name  # type: ignore[attr-defined]
        if "slow=1" in self.path:  # a stream: one message now, the next a second later
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            for n in range(2):
                self.wfile.write(f"data: {name} {n} {time.monotonic()}\n\n".encode())
                self.wfile.flush()
                time.sleep(1.0)
            return
        body = name.encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args: object) -> None:
        pass


def _backend(name: str) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), _Backend)
    server.name = name  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def balancer(tmp_path: Path) -> Iterator[tuple[str, dict[str, ThreadingHTTPServer]]]:
    """The deploy file with its addresses made local: the backends for the replicas Docker's
    DNS would name, a free port for the front."""
    backends = {name: _backend(name) for name in ("a", "b")}
    port = free_port()
    servers = "\n".join(f"    server {n} 127.0.0.1:{s.server_address[1]} check"
                        for n, s in backends.items())
    text = CONFIG.read_text()
    text = re.sub(r"(?ms)^resolvers docker\n.*?\n\n", "", text)
    text = text.replace(" resolvers docker init-addr last,libc,none", "")
    text = text.replace("    server-template api- 2 api:8000 check", servers)
    text = text.replace("bind *:8000", f"bind 127.0.0.1:{port}")
    # Two descriptors a connection: 100,000 would need more than this box's 20,000.
    text = text.replace("maxconn 100000", "maxconn 4000")
    config = tmp_path / "haproxy.cfg"
    config.write_text(text)
    proxy = subprocess.Popen(["haproxy", "-db", "-f", str(config)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                if httpx.get(f"{url}/v1/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)
        else:
            raise AssertionError("HAProxy did not answer")
        yield url, backends
    finally:
        proxy.terminate()
        proxy.wait(10)
        for server in backends.values():
            server.shutdown()
            server.server_close()


def _where(client: httpx.Client, game_id: str) -> set[str]:
    """The backends that answered the game's requests, on every route."""
    seen = set()
    for route in ROUTES:
        method = "POST" if route == "/commands" else "GET"
        seen.add(client.request(method, f"/v1/games/{game_id}{route}").text)
    return seen


def test_given_the_balancer_then_a_game_keeps_its_process_and_the_rest_go_round(
        balancer: tuple[str, dict[str, ThreadingHTTPServer]]) -> None:
    url, _ = balancer
    with httpx.Client(base_url=url, timeout=5) as client:
        placed = {}
        for _ in range(40):
            game_id = uuid.uuid4().hex
            seen = _where(client, game_id)
            assert len(seen) == 1, f"game {game_id} reached {seen}"
            placed[game_id] = seen.pop()
        assert set(placed.values()) == {"a", "b"}, "every game went to one process"
        for game_id, backend in placed.items():  # asked again: the same process
            assert _where(client, game_id) == {backend}
        others = {client.get(path).text for path in ("/v1/games", "/v1/players/me") * 3}
        assert others == {"a", "b"}, "what no game names did not go round robin"


def test_given_a_stream_through_the_balancer_then_each_message_arrives_as_written(
        balancer: tuple[str, dict[str, ThreadingHTTPServer]]) -> None:
    url, _ = balancer
    arrived = []
    with httpx.stream("GET", f"{url}/v1/games/{uuid.uuid4().hex}/events?slow=1",
                      timeout=5) as r:
        for line in r.iter_lines():
            if line.startswith("data: "):
                arrived.append((time.monotonic(), float(line.split()[-1])))
    assert len(arrived) == 2
    first_received, _ = arrived[0]
    _, second_written = arrived[1]
    assert first_received < second_written, "the first message waited for the second"


def test_given_a_process_lost_then_its_games_go_to_the_other(
        balancer: tuple[str, dict[str, ThreadingHTTPServer]]) -> None:
    url, backends = balancer
    with httpx.Client(base_url=url, timeout=5) as client:
        placed = {(g := uuid.uuid4().hex): _where(client, g).pop() for _ in range(30)}
        backends["b"].shutdown()
        backends["b"].server_close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # until its health check has taken "b" out
            moved = {g: _where(client, g) for g in placed}
            if all(seen == {"a"} for seen in moved.values()):
                break
            time.sleep(0.5)
        for game_id, backend in placed.items():
            assert _where(client, game_id) == {"a"}, (game_id, backend)
