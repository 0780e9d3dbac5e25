"""The README's quickstart, run as written against the service as `serve.sh` starts it: its
embedded default (an SQLite file, bot turns in-process, no Redis), from the environment."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.events.migrate import upgrade
from tests.processes import ROOT, running_apis

README_API = "http://127.0.0.1:8000/v1"


def _quickstart() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Quickstart with curl", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None, "the quickstart has no sh block"
    assert README_API in block[1], "the quickstart no longer names the default address"
    return block[1]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    url = f"sqlite+aiosqlite:///{tmp_path / 'cya.sqlite3'}"
    upgrade(url)  # serve.sh runs `cya db upgrade` first
    env = {k: v for k, v in os.environ.items() if not k.startswith("CYA_")}
    with running_apis({**env, "CYA_DATABASE_URL": url}, tmp_path) as (api,):
        yield f"{api.url}/v1"


def test_given_the_readme_quickstart_then_it_plays_a_game_against_bots_and_verifies_it(
        served: str) -> None:
    missing = [tool for tool in ("bash", "curl", "jq") if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"the quickstart needs {', '.join(missing)} (see the README)")
    run = subprocess.run(["bash", "-c", _quickstart().replace(README_API, served)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr

    out = run.stdout
    verified = json.loads(out[out.rindex("\n{\n") + 1:])  # step 5, pretty-printed last
    assert verified.get("ok") is True, out
    assert verified["draws_verified"] > 0 and verified["events"] > 0
    final = json.loads(next(line for line in out.splitlines() if line.startswith('{"winners"')))
    assert final["winners"] and len(final["totals"]) == 4
