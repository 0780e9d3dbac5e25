"""docs/audit.md's commands work as written: its `curl` lines save a real game's history,
salt and keys from a real server, and its `cya-verify` lines pass on them (with the receipts
the game's players kept)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.http.conftest import Live

from .games import Saved

DOC = Path(__file__).resolve().parents[2] / "docs" / "audit.md"


def _blocks() -> list[str]:
    return re.findall(r"```bash\n(.*?)```", DOC.read_text(), re.S)


def test_the_doc_saves_and_verifies_a_game_as_it_says(four_player_game: Saved, verify_live: Live,
                                                      tmp_path: Path):
    install, save, verify = _blocks()[:3]
    assert "pip install './rules[receipts]'" in install
    shutil.copytree(four_player_game.receipts, tmp_path / "cya-receipts")
    env = {**os.environ, "API": f"{verify_live.url}/v1", "GAME": four_player_game.game_id,
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}

    saved = subprocess.run(["bash", "-ec", save], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=60)
    assert saved.returncode == 0, saved.stderr
    assert (tmp_path / f"{four_player_game.game_id}.history.ndjson").read_bytes() == \
        four_player_game.history.read_bytes()
    assert len((tmp_path / f"{four_player_game.game_id}.salt").read_text().strip()) == 64

    for line in verify.strip().splitlines():
        run = subprocess.run(["bash", "-ec", line], cwd=tmp_path, env=env, capture_output=True,
                             text=True, timeout=120)
        assert run.returncode == 0, (line, run.stdout, run.stderr)
        assert "verified: every check passed" in run.stdout
    assert "receipts" in run.stdout  # the last line checked them
