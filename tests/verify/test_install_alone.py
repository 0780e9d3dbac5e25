"""The rules distribution installs and verifies alone: a fresh virtual environment, `pip
install ./rules` (msgspec only: no service, no database, no web framework), then `cya-verify` on
a history saved from a real game. Receipts need the `receipts` extra; without it cya-verify
says so and exits 2 rather than passing them over."""

from __future__ import annotations

import shutil
import subprocess
import venv
from pathlib import Path

from .games import Saved

RULES = Path(__file__).resolve().parents[2] / "rules"


def _run(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=300,
                          cwd=cwd)


def test_given_only_the_rules_installed_in_a_fresh_venv_then_cya_verify_runs(
        four_player_game: Saved, tmp_path: Path):
    source = tmp_path / "rules"  # a copy: the build writes beside the sources
    shutil.copytree(RULES, source, ignore=shutil.ignore_patterns("*.egg-info", "build",
                                                                 "__pycache__"))
    venv.create(tmp_path / "venv", with_pip=True)
    bin_dir = tmp_path / "venv" / "bin"
    installed = _run(bin_dir / "pip", "install", "--quiet", str(source))
    assert installed.returncode == 0, installed.stderr

    alone = _run(bin_dir / "python", "-c", "import importlib.util as u; print("
                 "[m for m in ('service', 'litestar', 'sqlalchemy', 'cryptography') "
                 "if u.find_spec(m)])", cwd=tmp_path)
    plain = _run(bin_dir / "cya-verify", four_player_game.history)
    with_receipts = _run(bin_dir / "cya-verify", four_player_game.history, "--receipts",
                         four_player_game.receipts, "--keys", four_player_game.keys)

    assert alone.stdout.strip() == "[]", alone  # nothing of the service came along
    assert plain.returncode == 0, plain.stdout + plain.stderr
    assert "verified: every check passed" in plain.stdout
    assert "receipts" not in plain.stdout  # none asked for
    assert with_receipts.returncode == 2, with_receipts.stdout
    assert "cya-rules[receipts]" in with_receipts.stderr
