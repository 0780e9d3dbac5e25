"""Clients generated from the committed contract with default options, as a client developer
would make them: `openapi-python-client` (Python) and `openapi-typescript` + `openapi-fetch`
(TypeScript, versions pinned in ts/package-lock.json). A small bot written against each
type-checks with zero errors (mypy --strict; tsc --strict), and the Python one plays a game
to its end against a real server."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from service.http.contract import CONTRACT
from tests.processes import running_apis

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent


def _run(*command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}",
                               **(env or {})}, timeout=300)
    assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def python_client(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("python") / "client"
    done = _run(BIN / "openapi-python-client", "generate", "--path", CONTRACT,
                "--output-path", out)
    # Its one warning: the NDJSON history has no JSON answer (GET /history/page has one).
    warnings = [line for line in (done.stdout + done.stderr).splitlines()
                if line.startswith("WARNING")]
    assert warnings == ["WARNING parsing GET /v1/games/{game_id}/history within audit."]
    return out


def test_given_the_python_client_then_a_bot_type_checks(python_client: Path) -> None:
    _run(BIN / "mypy", "--strict", "--no-incremental", HERE / "python_bot.py",
         env={"MYPYPATH": str(python_client)})


def test_given_the_python_client_then_a_bot_plays_a_game_to_its_end(
        python_client: Path, tmp_path: Path) -> None:
    env = {"CYA_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'contract.sqlite3'}",
           "CYA_SCHEDULER": "in_process"}
    _run(BIN / "cya", "db", "upgrade", env=env)
    with running_apis(env, tmp_path) as (api,):
        done = _run(sys.executable, "-c", "import sys; from tests.contract.python_bot import "
                    "play; print(play(sys.argv[1]))", api.url,
                    cwd=HERE.parents[1], env={"PYTHONPATH": f"{python_client}:{HERE.parents[1]}"})
    winners = [int(seat) for seat in done.stdout.strip().strip("[]").split(",")]
    assert winners and all(0 <= seat < 4 for seat in winners)


def test_given_the_typescript_client_then_a_bot_type_checks(tmp_path: Path) -> None:
    npm = shutil.which("npm")
    assert npm, "Node.js and npm are needed to check the TypeScript client"
    work = tmp_path / "ts"
    shutil.copytree(HERE / "ts", work, ignore=shutil.ignore_patterns("node_modules"))
    _run(npm, "ci", "--no-audit", "--no-fund", cwd=work)
    _run(work / "node_modules/.bin/openapi-typescript", CONTRACT, "-o", work / "schema.d.ts")
    _run(work / "node_modules/.bin/tsc", "-p", work)
