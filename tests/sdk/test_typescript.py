"""The TypeScript SDK and `cya-bot` for Node (clients/typescript) against real servers: its
node:test suite, run with the embedded server and a broken one (a database never migrated, 3
requests a minute, for 503s and 429s). `npm ci` first when its node_modules are missing."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator

import pytest

from tests.processes import running_apis
from tests.typescript import npm_ci

from .conftest import Server, embedded_env, sqlite_url


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("ts-broken")
    env = embedded_env(sqlite_url(folder / "never-migrated.sqlite3"),
                       CYA_RATE_LIMIT_PER_MINUTE="3")
    with running_apis(env, folder) as apis:
        yield apis[0].url


def test_given_real_servers_then_the_typescript_suite_passes(embedded: Server, broken: str):
    package = npm_ci()
    tests = sorted(str(p.relative_to(package)) for p in (package / "test").glob("*.test.ts"))
    env = {**os.environ, "CYA_TEST_URL": embedded.url, "CYA_TEST_BROKEN_URL": broken}
    # Three files at once: their tests mostly wait on the server.
    node = ["node", "--import", "tsx", "--test", "--test-concurrency=3", *tests]
    done = subprocess.run(node, cwd=package, env=env, capture_output=True, text=True,
                          timeout=180)
    report = done.stdout + done.stderr
    assert done.returncode == 0, report
    assert "# fail 0" in report and "# pass 0" not in report, report
