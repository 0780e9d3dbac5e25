"""docs/audit.md's commands work as written: its `curl` lines (and its SDK snippet) save a
real game's history, salt and keys from a real server, and its `cya-verify` lines pass on them
(with the receipts the game's players kept)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import httpx

from cya_rules.verify.cli import main
from tests.http.conftest import Live

from .games import Saved

DOC = Path(__file__).resolve().parents[2] / "docs" / "audit.md"


def _blocks(language: str = "bash") -> list[str]:
    return [textwrap.dedent(b) for b in re.findall(rf"```{language}\n(.*?)```", DOC.read_text(),
                                                   re.S)]


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


def test_the_docs_sdk_snippet_saves_the_same_files(four_player_game: Saved, verify_live: Live,
                                                   tmp_path: Path, monkeypatch):
    (snippet,) = _blocks("python")
    monkeypatch.chdir(tmp_path)
    key = httpx.post(f"{verify_live.url}/v1/players", json={"name": "auditor"}).json()["api_key"]

    exec(snippet, {"URL": verify_live.url, "KEY": key, "GAME": four_player_game.game_id})

    game = four_player_game.game_id
    assert (tmp_path / f"{game}.history.ndjson").read_bytes() == \
        four_player_game.history.read_bytes()
    assert (tmp_path / f"{game}.salt").read_text() == (four_player_game.folder /
                                                       f"{game}.salt").read_text()
    assert main([f"{game}.history.ndjson", "--receipts", "cya-receipts", "--keys",
                 "keys.json"]) == 0  # the history's own receipt, kept by the box
