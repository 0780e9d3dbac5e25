"""Offline verification's speed: finished 4-player games verified per minute on one core by
`cya-verify`'s code (rules/cya_rules/verify/: read the history, the hash chain, the recorded
times, the seeds, every shuffle and the rules replayed, and the receipts kept, signatures
included), against the server's own `GET /v1/games/{id}/verify` on the same games, in the same
run.

It starts one API process (uvicorn, one core; SQLite in a temporary folder, the in-process
scheduler), plays `--games` games of four random bots to their end (the default rules: to a
million, several rounds), and saves each as an auditor would: the history, its salt, a receipt
every `--receipt-every` events (read from event pages, as a client following the game keeps
them) and the server's keys. Then, `--repeat` times over all games, alternately: cya-verify's
code in this process (its CPU time), and the server's /verify one request at a time (the
server process's CPU time, from /proc, and the wall time). Target: cya-verify ≥ 1,000 games a
minute. Prints the figures and targets as one JSON object on its last line; exits 1 on a miss,
or if any game fails to verify.

    .venv/bin/python bench/verify.py [--games 30] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TARGET_PER_MIN = 1000.0
ROOT = Path(__file__).resolve().parents[1]


def _args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=30, help="finished 4-player games to verify")
    p.add_argument("--repeat", type=int, default=3, help="passes over every game, each way")
    p.add_argument("--receipt-every", type=int, default=4,
                   help="keep one receipt every this many events (a page of the log)")
    p.add_argument("--end-mode", default="to_million", help="the games' end mode")
    p.add_argument("--keep", type=Path, metavar="DIR",
                   help="save the games here (histories, receipts, keys) and leave them")
    return p.parse_args()


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _serve(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    from service.events.migrate import upgrade
    from tests.processes import free_port

    url = f"sqlite+aiosqlite:///{folder / 'bench.sqlite3'}"
    upgrade(url)
    port = free_port()
    env = {**os.environ, "CYA_DATABASE_URL": url, "CYA_SCHEDULER": "in_process",
           "CYA_RATE_LIMIT_PER_MINUTE": "1000000"}
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "--factory",
                             "service.http.app:app_from_env", "--port", str(port),
                             "--log-level", "warning"], env=env, cwd=ROOT)
    return proc, f"http://127.0.0.1:{port}"


def _play(http: Any, games: int, end_mode: str) -> list[str]:
    key = http.post("/v1/players", json={"name": "bench"}).json()["api_key"]
    http.headers["Authorization"] = f"Bearer {key}"
    ids = []
    for _ in range(games):
        r = http.post("/v1/games", json={"ruleset": {"players": 4, "end_mode": end_mode},
                                         "join": False, "bots": [{}, {}, {}, {}]})
        assert r.status_code == 201, r.text
        ids.append(r.json()["game_id"])
        assert http.post(f"/v1/games/{ids[-1]}/start").status_code == 200
    waiting = set(ids)
    while waiting:
        time.sleep(0.5)
        waiting = {g for g in waiting
                   if http.get(f"/v1/games/{g}/view").json()["status"] != "finished"}
    return ids


def _save(http: Any, game_id: str, folder: Path, every: int) -> None:
    r = http.get(f"/v1/games/{game_id}/history")
    assert r.status_code == 200, r.text
    (folder / f"{game_id}.history.ndjson").write_bytes(r.content)
    (folder / f"{game_id}.salt").write_text(r.headers["Cya-Receipt-Salt"])
    kept, after = [r.headers["Cya-Receipt"]], 0
    while True:
        page = http.get(f"/v1/games/{game_id}/events",
                        params={"after": after, "limit": every}).json()
        if not page["events"]:
            break
        kept.append(json.dumps(page["receipt"]))
        after = page["next_after"]
    (folder / "receipts").mkdir(exist_ok=True)
    (folder / "receipts" / f"{game_id}.receipts.ndjson").write_text("\n".join(kept) + "\n")


def _offline(folder: Path, ids: list[str], receipts: bool = True) -> tuple[float, int]:
    """cya-verify's code over every game, as the command runs it: CPU seconds, and failures.
    Without `receipts`: the checks the server's /verify makes too, for the like-for-like."""
    from cya_rules.log.history import read_history
    from cya_rules.verify.receipts import load_keys, load_receipts, receipts_path
    from cya_rules.verify.report import ReceiptsInput, verify_history

    start, failed = time.process_time(), 0
    keys = load_keys((folder / "keys.json").read_bytes())
    for g in ids:
        given = ReceiptsInput(load_receipts(receipts_path(folder / "receipts", g)), keys,
                              bytes.fromhex((folder / f"{g}.salt").read_text())) \
            if receipts else None
        report = verify_history(g, read_history((folder / f"{g}.history.ndjson").read_bytes()),
                                given)
        failed += not report.ok
    return time.process_time() - start, failed


def _server(http: Any, pid: int, ids: list[str]) -> tuple[float, float, int]:
    """The server's /verify over every game, one at a time: its CPU seconds, wall seconds,
    and failures."""
    cpu, wall, failed = _cpu_seconds(pid), time.perf_counter(), 0
    for g in ids:
        failed += not http.get(f"/v1/games/{g}/verify").json()["ok"]
    return _cpu_seconds(pid) - cpu, time.perf_counter() - wall, failed


def main() -> int:
    args = _args()
    sys.path.insert(0, str(ROOT))
    import httpx

    with tempfile.TemporaryDirectory(prefix="cya-bench-verify-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        proc, url = _serve(folder)
        try:
            with httpx.Client(base_url=url, timeout=120) as http:
                for _ in range(300):
                    try:
                        if http.get("/v1/receipt-keys").status_code == 200:
                            break
                    except httpx.TransportError:
                        time.sleep(0.1)
                (folder / "keys.json").write_bytes(http.get("/v1/receipt-keys").content)
                played = time.perf_counter()
                ids = _play(http, args.games, args.end_mode)
                played = time.perf_counter() - played
                for g in ids:
                    _save(http, g, folder, args.receipt_every)
                offline = bare = server_cpu = server_wall = 0.0
                failures = 0
                for _ in range(args.repeat):
                    seconds, failed = _offline(folder, ids)
                    offline, failures = offline + seconds, failures + failed
                    seconds, failed = _offline(folder, ids, receipts=False)
                    bare, failures = bare + seconds, failures + failed
                    cpu, wall, failed = _server(http, proc.pid, ids)
                    server_cpu, server_wall = server_cpu + cpu, server_wall + wall
                    failures += failed
        finally:
            proc.terminate()
            proc.wait(30)
        events = sum(len((folder / f"{g}.history.ndjson").read_bytes().splitlines())
                     for g in ids) / len(ids)
        receipts = sum(len(f.read_bytes().splitlines())
                       for f in (folder / "receipts").glob("*.ndjson")) / len(ids)
    verified = args.games * args.repeat
    figures = {
        "games": args.games, "events_per_game": round(events, 1), "receipts_per_game":
        round(receipts, 1), "games_played_s": round(played, 1),
        "cya_verify_games_per_min": round(verified / offline * 60, 1),
        "cya_verify_without_receipts_games_per_min": round(verified / bare * 60, 1),
        "server_verify_games_per_min_cpu": round(verified / server_cpu * 60, 1)
        if server_cpu else None,
        "server_verify_games_per_min_wall": round(verified / server_wall * 60, 1),
        "failures": failures, "target_cya_verify_games_per_min": TARGET_PER_MIN,
    }
    figures["met"] = failures == 0 and figures["cya_verify_games_per_min"] >= TARGET_PER_MIN
    print(f"cya-verify: {figures['cya_verify_games_per_min']} games/min on one core "
          f"({figures['cya_verify_without_receipts_games_per_min']} without receipts); the "
          f"server's /verify: {figures['server_verify_games_per_min_cpu']} games/min of its "
          f"CPU, {figures['server_verify_games_per_min_wall']} by the clock")
    print(json.dumps(figures))
    return 0 if figures["met"] else 1


if __name__ == "__main__":
    sys.exit(main())
