"""`cya-bot` as a person runs it: a new player, games against built-in bots, the results; and
Ctrl-C, once (finish the game in play) and twice (resign it)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from .conftest import Server

CYA_BOT = str(Path(sys.executable).parent / "cya-bot")
EXAMPLES = Path(__file__).resolve().parents[2] / "clients" / "python" / "examples"
SLOW_BOT = '''
import random, time

def choose(view, legal):
    time.sleep(0.05)  # a game lasts a few seconds: long enough to interrupt
    return random.choice(legal)
'''


def _play(server: Server, bot: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [CYA_BOT, "play", str(bot), "--server", server.url, "--new", "4p",
         "--bots", "greedy,random,random", "--quiet", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _until_started(proc: subprocess.Popen[str]) -> list[str]:
    assert proc.stdout is not None
    lines = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        lines.append(line)
        if " started: seat " in line:
            return lines
    raise AssertionError(f"no game started: {lines}")


def test_given_no_key_then_cya_bot_creates_a_player_plays_and_tabulates(embedded: Server):
    proc = _play(embedded, EXAMPLES / "greedy_bot.py", "--games", "2")
    out, err = proc.communicate(timeout=120)

    assert proc.returncode == 0, err
    assert "Created player greedy_bot" in out and "API key, shown once: cya_" in out
    assert out.count(" finished: ") == 2
    assert "Results" in err and "average score" in err


def test_given_ctrl_c_once_then_the_game_in_play_is_finished(embedded: Server,
                                                              tmp_path: Path):
    (bot := tmp_path / "slow_bot.py").write_text(SLOW_BOT)
    proc = _play(embedded, bot, "--games", "5")
    _until_started(proc)

    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)

    assert proc.returncode == 0, err
    assert "finishing the 1 game(s) in play" in err
    assert out.count(" finished: ") == 1 and "resigned" not in err


def test_given_ctrl_c_twice_then_the_game_in_play_is_resigned(embedded: Server,
                                                               tmp_path: Path):
    (bot := tmp_path / "slow_bot.py").write_text(SLOW_BOT)
    proc = _play(embedded, bot, "--games", "5")
    _until_started(proc)

    proc.send_signal(signal.SIGINT)
    time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)

    assert proc.returncode == 130, err
    assert "resigned game " in err and "a bot plays seat" in err
    assert " finished: " not in out
