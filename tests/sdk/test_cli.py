"""`cya-bot` as a person runs it: a new player, games against built-in bots, the results; and
Ctrl-C, once (finish the game in play) and twice (resign it), also a game dealt a moment
before the runner heard of it."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from cya_client.bot.runner import Plan, Runner
from cya_client.models import BotSeat, NewGame

from .conftest import Server, player

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


def test_given_a_game_dealt_before_the_runner_heard_of_it_then_ctrl_c_resigns_it(
        embedded: Server, tmp_path: Path):
    """The runner still counts the game as in the lobby (its `game_started` news has not been
    read yet), so it asks to leave; the game has started and leave is refused. Without a
    resign the seat would wait 7 days for the game to be abandoned."""
    creator, runner_player = player(embedded.url, "creator"), player(embedded.url, "runner")
    game_id = creator.games.create(msgspec.convert(
        {"ruleset": {"players": 2}, "bots": [], "public": False}, NewGame)).game_id
    (bot := tmp_path / "slow_bot.py").write_text(SLOW_BOT)
    proc = subprocess.Popen(
        [CYA_BOT, "play", str(bot), "--server", embedded.url, "--key",
         str(runner_player.api_key), "--join", game_id, "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _until(lambda: None not in creator.games.get(game_id).summary.seats)

    proc.send_signal(signal.SIGSTOP)  # the runner hears nothing from here on...
    creator.games.start(game_id)  # ...of the deal
    proc.send_signal(signal.SIGINT)  # pending until it runs again: nothing is started for it
    proc.send_signal(signal.SIGCONT)
    _, err = proc.communicate(timeout=60)

    assert proc.returncode == 130, err
    assert f"resigned game {game_id}" in err, err
    seats = creator.games.get(game_id).summary.seats
    assert seats[1] == BotSeat(level="random")


def _until(condition: Callable[[], bool], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_given_ctrl_c_as_the_join_is_answered_then_the_runner_still_knows_its_seat(
        embedded: Server) -> None:
    """The server seats the runner, and Ctrl-C lands before the runner read the answer (CI
    met it: the runner stopped between the two). It must still know the game, or its seat is
    neither left nor resigned and waits 7 days to be abandoned."""
    creator, joiner = player(embedded.url, "creator"), player(embedded.url, "interrupted")
    game_id = creator.games.create(msgspec.convert(
        {"ruleset": {"players": 2}, "bots": [], "public": False}, NewGame)).game_id
    join = joiner.games.join

    def seated_then_interrupted(game: str, *args: object, **kwargs: object) -> object:
        join(game, *args, **kwargs)  # the server commits the seat...
        raise KeyboardInterrupt  # ...and the answer is never read

    joiner.games.join = seated_then_interrupted  # type: ignore[method-assign]
    runner = Runner(joiner, lambda view, legal: legal[0], Plan(join=game_id))

    with pytest.raises(KeyboardInterrupt):
        runner.run(news=iter(()))

    assert list(runner.games) == [game_id]
    assert runner.games[game_id].seat == 1 and not runner.games[game_id].started
