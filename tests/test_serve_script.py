"""`scripts/serve.sh` installs only when a pyproject.toml (the service's or the rules') has
changed since its last install, so a restart serves in seconds instead of waiting for pip (it
took 57 s).

The script runs as written, in a copy of the project whose `.venv/bin` runs the test's own
Python, `cya` and `uvicorn`; only pip stands in, writing down each call instead of installing
(a real install takes minutes), because when pip runs is what is under test."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.processes import ROOT, free_port, wait_healthy

BIN = Path(sys.executable).parent


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "serve.sh", tmp_path / "scripts")
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    (tmp_path / "rules").mkdir()
    shutil.copy(ROOT / "rules" / "pyproject.toml", tmp_path / "rules")
    venv = tmp_path / ".venv" / "bin"
    venv.mkdir(parents=True)
    for name in ("python", "cya", "uvicorn"):
        _script(venv / name, f'exec {BIN / name} "$@"')
    _script(venv / "pip", f'echo "$*" >> {tmp_path / "pip.log"}\n'
                          f'[ ! -e {tmp_path / "pip-fails"} ]')
    return tmp_path


def _script(path: Path, body: str) -> None:
    path.write_text(f"#!/usr/bin/env bash\n{body}\n")
    path.chmod(0o755)


def _pip_calls(project: Path) -> list[str]:
    log = project / "pip.log"
    return log.read_text().splitlines() if log.exists() else []


@contextmanager
def _serving(project: Path) -> Iterator[str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CYA_")}
    with open(project / "serve.log", "ab") as log:
        proc = subprocess.Popen(["bash", str(project / "scripts" / "serve.sh")],
                                env={**env, "PORT": str(port)}, stdout=log,
                                stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, timeout_s=60)
        yield url
    finally:
        proc.terminate()  # serve.sh execs uvicorn: this is the server
        proc.wait(20)


def test_given_a_restart_then_serve_sh_serves_without_installing_again(project: Path):
    with _serving(project):
        first = _pip_calls(project)
    with _serving(project):
        again = _pip_calls(project)

    assert first == ["install --quiet --upgrade pip", "install --quiet -e rules -e ."]
    assert again == first


@pytest.mark.parametrize("changed", ["pyproject.toml", "rules/pyproject.toml"])
def test_given_a_changed_pyproject_then_serve_sh_installs_again(project: Path, changed: str):
    with _serving(project):
        pass
    with open(project / changed, "a") as pyproject:
        pyproject.write("\n# a new dependency, say\n")

    with _serving(project):
        calls = _pip_calls(project)

    assert calls.count("install --quiet -e rules -e .") == 2


def test_given_a_failed_install_then_the_next_start_installs_again(project: Path):
    (project / "pip-fails").touch()
    failed = subprocess.run(["bash", str(project / "scripts" / "serve.sh")], timeout=60,
                            env={**os.environ, "PORT": str(free_port())}, capture_output=True)
    (project / "pip-fails").unlink()

    with _serving(project):
        calls = _pip_calls(project)

    assert failed.returncode != 0
    assert calls == ["install --quiet --upgrade pip", "install --quiet --upgrade pip",
                     "install --quiet -e rules -e ."]
