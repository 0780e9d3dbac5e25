"""`cya-bot` finds its opponents (issue 41 part 2): two runners seeking (`--seek 2p --rated`)
meet in one game; a runner challenges another by id (`--challenge PLAYER`) or anyone
(`--challenge open`), and one with `--accept-challenges` takes it; each plays it to the end."""

from __future__ import annotations

import subprocess
from pathlib import Path

from .conftest import Server, player
from .test_cli import CYA_BOT, EXAMPLES


def _run(server: Server, key: str, *mode: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [CYA_BOT, "play", str(EXAMPLES / "greedy_bot.py"), "--server", server.url, "--key", key,
         "--quiet", "--games", "1", "--end-mode", "quick", *mode],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finished(proc: subprocess.Popen[str]) -> str:
    out, err = proc.communicate(timeout=180)
    assert proc.returncode == 0, err
    assert out.count(" finished: ") == 1, (out, err)
    return out


def _game_of(out: str) -> str:
    return next(line.split()[1] for line in out.splitlines() if " finished: " in line)


def test_given_two_seeking_runners_then_they_meet_in_one_rated_game(embedded: Server):
    ann, bob = player(embedded.url, "ann"), player(embedded.url, "bob")
    assert ann.api_key and bob.api_key
    mode = ("--seek", "2p", "--rated", "--edition", "de_2024")

    runs = [_run(embedded, ann.api_key, *mode), _run(embedded, bob.api_key, *mode)]

    games = {_game_of(_finished(p)) for p in runs}
    assert len(games) == 1
    summary = ann.games.get(games.pop()).summary
    assert summary.rated and summary.status == "finished"


def test_given_a_challenge_by_id_then_the_runner_accepting_challenges_plays_it(
        embedded: Server):
    ann, bob = player(embedded.url, "ann"), player(embedded.url, "bob")
    assert ann.api_key and bob.api_key
    taker = _run(embedded, bob.api_key, "--accept-challenges")
    maker = _run(embedded, ann.api_key, "--challenge", bob.players.me().player_id,
                 "--bots", "random,random")

    game = _game_of(_finished(maker))
    assert _game_of(_finished(taker)) == game
    assert ann.games.get(game).summary.players == 4


def test_given_an_open_challenge_then_a_runner_accepting_challenges_finds_it(
        embedded: Server, tmp_path: Path):
    ann, bob = player(embedded.url, "ann"), player(embedded.url, "bob")
    assert ann.api_key and bob.api_key
    maker = _run(embedded, ann.api_key, "--challenge", "open")
    taker = _run(embedded, bob.api_key, "--accept-challenges")

    assert _game_of(_finished(maker)) == _game_of(_finished(taker))
