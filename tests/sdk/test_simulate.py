"""`cya-bot simulate` as a bot author runs it, no server: an example bot plays its games and
gets the results table; duplicate seating plays each deal once per rotation; an illegal
command stops the run with a clear error; a seed gives the same games, in one process or two;
without the rules engine the command says what to install."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import get_args

import msgspec
import pytest
from cya_client import models
from cya_client.bot.loading import load_choose
from cya_client.bot.runner import GameResult
from cya_client.simulate.convert import IllegalCommand
from cya_client.simulate.games import Settings, deal_seed, schedule
from cya_client.simulate.run import simulate, simulate_file

from cya_rules import EndMode, StartGame, execute, new_game, preset

from .test_cli import CYA_BOT, EXAMPLES

SDK = EXAMPLES.parent
FOUR = preset("classic", 4, end_mode=EndMode.QUICK).for_new_game()



def _simulate(bot: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CYA_BOT, "simulate", str(bot), "--quiet", *extra],
                          capture_output=True, text=True, timeout=300)


def test_given_the_greedy_example_then_simulate_plays_the_games_and_prints_the_table():
    run = _simulate(EXAMPLES / "greedy_bot.py", "--against", "greedy,expert", "--games", "12",
                    "--players", "4")

    assert run.returncode == 0, run.stderr
    assert "Results (simulated)" in run.stderr and "95% interval" in run.stderr
    row = next(line for line in run.stderr.splitlines() if line.startswith("│"))
    assert row.split("│")[1].strip() == "12"  # games
    assert "against greedy, expert, greedy" in run.stderr


def test_given_the_function_then_it_gets_the_sdks_own_models_and_its_seat_rotates():
    seen: list[tuple[int, type, set[type]]] = []

    def choose(view: models.GameView, legal: list[models.Command]) -> models.Command:
        assert view.viewer is not None and view.hand is not None
        seen.append((view.viewer, type(view), {type(c) for c in legal}))
        return legal[0]

    results = simulate(choose, Settings(FOUR, ("random",), games=8, seed=1))

    assert [r.seat for r in results] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert {kind for _, kind, _ in seen} == {models.GameView}
    assert all(kinds <= set(get_args(models.Command)) for _, _, kinds in seen)
    assert {seat for seat, _, _ in seen} == {0, 1, 2, 3}
    assert all(r.decisions > 0 and len(r.totals) == 4 for r in results)


def test_given_duplicate_seating_then_each_deal_is_played_once_per_rotation():
    settings = Settings(FOUR, ("greedy", "expert"), games=10, duplicate=True, seed=5)

    games = schedule(settings)

    assert settings.total == len(games) == 12  # rounded up to whole deals of 4
    by_deal: dict[int, list[int]] = {}
    for game in games:
        by_deal.setdefault(game.deal, []).append(game.seat)
        assert game.levels[game.seat] is None
        # The table turns with the bot: the same levels follow it clockwise.
        after = [game.levels[(game.seat + k) % 4] for k in range(1, 4)]
        assert after == ["greedy", "expert", "greedy"]
    assert by_deal == {0: [0, 1, 2, 3], 1: [0, 1, 2, 3], 2: [0, 1, 2, 3]}
    for deal in range(3):  # the same cards, dealt the same, in every rotation
        hands = {execute(new_game(FOUR), StartGame(deal_seed(settings, g)), None)[1].hands
                 for g in games if g.deal == deal}
        assert len(hands) == 1
    without = schedule(Settings(FOUR, ("greedy",), games=8, seed=5))
    assert len({g.deal for g in without}) == 8


def test_given_a_duplicate_run_then_the_bot_holds_every_seats_hand_of_each_deal():
    """Before its first turn a seat's hand is the one dealt (classic has no action cards),
    so the bot's first look at each game shows which seat of which deal it holds."""
    settings = Settings(FOUR, ("random",), games=8, duplicate=True, seed=2)
    first: dict[int, tuple[str, ...]] = {}
    finished: list[GameResult] = []

    def choose(view: models.GameView, legal: list[models.Command]) -> models.Command:
        assert view.hand is not None
        first.setdefault(len(finished), tuple(view.hand))
        return legal[0]

    simulate(choose, settings, on_result=finished.append)

    assert len(finished) == 8
    for game in schedule(settings):
        dealt = execute(new_game(FOUR), StartGame(deal_seed(settings, game)), None)[1].hands
        assert first[game.number] == dealt[game.seat]


def test_given_an_illegal_command_then_the_run_stops_with_a_clear_error(tmp_path: Path):
    (bot := tmp_path / "cheat.py").write_text(
        "from cya_client.models import Discard\n\n"
        "def choose(view, legal):\n    return Discard(card='gold#99')\n")
    (junk := tmp_path / "junk.py").write_text("def choose(view, legal):\n    return 'discard'\n")

    run = _simulate(bot, "--games", "3", "--seed", "4")
    with pytest.raises(IllegalCommand, match="not a command"):
        simulate(load_choose(junk), Settings(FOUR, ("greedy",), games=1))

    assert run.returncode == 1
    message = " ".join(run.stderr.split())
    assert "game 0 (--seed 4), seat 0: choose() returned Discard(card='gold#99')" in message
    assert "card_not_in_hand" in message and "Return one of the legal commands" in message
    assert "Results" not in run.stderr


def test_given_a_legal_command_built_anew_then_it_is_played_as_online():
    """The server takes any command the rules allow, not only the very objects it listed: a
    pair's cards in the other order, say. So does the simulation."""
    def choose(view: models.GameView, legal: list[models.Command]) -> models.Command:
        pairs = [c for c in legal if isinstance(c, models.FormSet) and c.source == "hand"]
        if pairs:
            return models.FormSet(source="hand", hand_cards=pairs[0].hand_cards[::-1])
        return msgspec.json.decode(msgspec.json.encode(legal[-1]), type=models.Command)

    results = simulate(choose, Settings(FOUR, ("greedy",), games=4, seed=3))

    assert len(results) == 4


def test_given_the_same_seed_then_the_same_results_in_one_process_or_two():
    bot = EXAMPLES / "random_bot.py"  # it draws from `random`: seeded per game too
    settings = Settings(FOUR, ("greedy", "random"), games=10, seed=11)

    once = simulate_file(bot, "choose", settings)
    again = simulate_file(bot, "choose", settings, parallel=2)
    other = simulate_file(bot, "choose", Settings(FOUR, ("greedy", "random"), games=10,
                                                  seed=12))

    assert once == again
    assert [(r.winners, r.totals) for r in once] != [(r.winners, r.totals) for r in other]


def test_given_an_unknown_level_then_the_command_says_which_exist():
    run = _simulate(EXAMPLES / "random_bot.py", "--against", "grandmaster")

    assert run.returncode == 2
    assert "grandmaster" in run.stderr and "greedy" in run.stderr


def test_given_no_rules_engine_then_simulate_says_what_to_install_and_exits_2(tmp_path: Path):
    """The SDK and its libraries alone, as `pip install ./clients/python` leaves them: no
    `site` (the editable installs' hooks are .pth files), so cya_rules cannot be found."""
    path = os.pathsep.join([str(SDK), sysconfig.get_paths()["purelib"]])
    env = {**os.environ, "PYTHONPATH": path}
    script = ("import sys\nfrom cya_client.bot.cli import main\n"
              "sys.exit(main(sys.argv[1:]))\n")

    run = subprocess.run([sys.executable, "-S", "-c", script, "simulate",
                          str(EXAMPLES / "random_bot.py")], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=60)
    rules = subprocess.run([sys.executable, "-S", "-c", "import cya_rules"], env=env,
                           cwd=tmp_path, capture_output=True, timeout=60)

    assert rules.returncode != 0  # the engine really is missing here
    assert run.returncode == 2, run.stderr
    assert "pip install ./rules ./clients/python" in run.stderr
