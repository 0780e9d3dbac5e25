"""The deployment files, checked without Docker: the compose file parses, names the processes
the architecture asks for, runs commands that exist, and sets only settings the code reads."""

from __future__ import annotations

import importlib
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from service.cli.main import main as cya
from service.events.engine import POOL_SIZE
from service.events.group_commit import WRITERS
from service.events.postgres import TAIL_CONNECTIONS, VIEW_READ_CONNECTIONS

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return loaded


def settings_the_code_reads() -> set[str]:
    names: set[str] = set()
    for path in [*(ROOT / "service").rglob("*.py"), *(ROOT / "workers").rglob("*.py")]:
        names.update(re.findall(r'"(CYA_[A-Z_]+)"', path.read_text()))
    return names


def test_given_the_compose_file_then_it_runs_postgres_redis_api_replicas_and_workers(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]

    assert {"postgres", "redis", "migrate", "api", "worker"} <= set(services)
    assert services["api"]["deploy"]["replicas"] >= 2
    assert services["worker"]["deploy"]["replicas"] >= 2
    assert "--save" in services["redis"]["command"], "Redis keeps nothing; the sweeper copes"


def test_given_the_compose_commands_then_each_exists_in_this_code(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    runner = CliRunner()
    for name in ("worker", "migrate"):
        command = services[name]["command"]
        assert command[0] == "cya"
        assert runner.invoke(cya, [*command[1:], "--help"]).exit_code == 0, name

    api = services["api"]["command"]
    assert api[:2] == ["uvicorn", "--factory"]
    module, factory = api[2].split(":")
    assert callable(getattr(importlib.import_module(module), factory))


def test_given_the_compose_environment_then_every_setting_is_one_the_code_reads(
    compose: dict[str, Any],
) -> None:
    read = settings_the_code_reads()
    for name, service in compose["services"].items():
        env = service.get("environment", {})
        cya_vars = {k for k in env if k.startswith("CYA_")}
        assert cya_vars <= read, (name, cya_vars - read)
    env = compose["services"]["worker"]["environment"]
    assert env["CYA_DATABASE_URL"].startswith("postgresql+asyncpg://")
    assert env["CYA_REDIS_URL"].startswith("redis://")


def test_given_the_dockerfile_then_it_copies_what_exists_and_serves_the_app_factory() -> None:
    lines = [ln.strip() for ln in (DEPLOY / "Dockerfile").read_text().splitlines()]
    for line in (ln for ln in lines if ln.startswith("COPY ")):
        for source in shlex.split(line)[1:-1]:
            assert (ROOT / source).exists(), source
    cmd = next(ln for ln in lines if ln.startswith("CMD "))
    assert "service.http.app:app_from_env" in cmd


def test_given_the_connections_each_process_may_open_then_compose_and_the_docs_have_room(
    compose: dict[str, Any],
) -> None:
    api = POOL_SIZE + VIEW_READ_CONNECTIONS + WRITERS + TAIL_CONNECTIONS
    worker = POOL_SIZE + TAIL_CONNECTIONS + WRITERS
    settings = [arg.split("=", 1) for arg in compose["services"]["postgres"]["command"]
                if arg.startswith("max_connections=")]
    readme = " ".join((DEPLOY / "README.md").read_text().split())

    assert settings and int(settings[0][1]) >= 4 * api + 3 * worker  # `--scale api=4 worker=3`
    assert f"an API process holds at most {api}" in readme
    assert f"a worker at most {worker}" in readme
