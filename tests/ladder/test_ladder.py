"""The ladder: duplicate seating, reproducible games, honest intervals and ratings, and the exit
status of its command. The ladder itself (minutes of play) runs under the `soak` marker."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from openskill.models import PlackettLuce

from cya_rules.bots import LEVELS
from cya_rules.bots.ismcts import DEFAULT_ITERATIONS
from service.cli.ladder import ladder
from service.ladder.plan import ORDER, QUICK, Game, Lineup, games_of
from service.ladder.play import deal_seed, play, policy_of
from service.ladder.run import DOC_END, DOC_START, markdown, run, write_docs
from service.ladder.stats import Rate, ratings

TINY = (Lineup("2p advanced_all", "greedy", "random", 2), Lineup("4p classic", "expert",
                                                                 "greedy", 1))


def test_given_a_lineup_then_each_deal_is_played_once_per_seat_rotation() -> None:
    games = games_of(TINY)

    assert games == [Game(0, 0, 0), Game(0, 0, 1), Game(0, 1, 0), Game(0, 1, 1),
                     Game(1, 0, 0), Game(1, 0, 1), Game(1, 0, 2), Game(1, 0, 3)]
    assert deal_seed(TINY[1], 0) == deal_seed(Lineup("4p classic", "ismcts", "greedy", 9), 0)


def test_given_a_game_when_played_twice_then_the_result_is_the_same() -> None:
    assert play(TINY[1], Game(1, 0, 2)) == play(TINY[1], Game(1, 0, 2))
    assert play(TINY[1], Game(1, 0, 2)).seats == ("greedy", "greedy", "expert", "greedy")


def test_given_each_level_then_the_ladder_plays_the_settings_object_the_service_plays() -> None:
    assert all(policy_of(level) is LEVELS[level].policy for level in ORDER)


def test_given_an_ismcts_game_then_it_plays_the_default_search_and_reproduces(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The CPU cap guards a machine too slow for the iterations. Under this suite's own load on
    # a slow host one search in a game hit it (a busy sibling core inflates CPU time) and the
    # replay differed: lifted here, the game is the one the ladder plays wherever the machine
    # runs the iterations (`test_ismcts_pinned` holds the searches themselves).
    monkeypatch.setattr(LEVELS["ismcts"].policy, "cpu_cap_s", None)
    lineup = Lineup("2p advanced_all", "ismcts", "random", 1)

    first, again = play(lineup, Game(0, 0, 1)), play(lineup, Game(0, 0, 1))

    assert first == again
    assert first.searches > 0
    assert f"{DEFAULT_ITERATIONS} iterations a decision" in markdown(
        run(quick=False, workers=1, lineups=(lineup,)))


def test_given_win_counts_then_the_interval_is_wilsons() -> None:
    low, high = Rate(65, 100).interval()

    assert (round(low, 4), round(high, 4)) == (0.5525, 0.7364)  # Wilson, z = 1.96
    assert Rate(0, 0).interval() == (0.0, 1.0)


def test_given_a_two_player_game_then_the_ratings_are_openskills() -> None:
    result = play(TINY[0], Game(0, 0, 0))
    model = PlackettLuce()
    winner = result.seats[result.winners[0]]
    ranks = [1.0 if s in result.winners else 2.0 for s in range(2)]
    expected = model.rate([[model.rating()], [model.rating()]], ranks=ranks)

    table = ratings([result])

    assert table[winner].mu == pytest.approx(expected[result.winners[0]][0].mu)
    assert table["expert"].mu == model.mu  # not in the game: untouched


def test_given_a_tiny_ladder_then_the_table_names_every_lineup_and_goes_into_the_docs(
    tmp_path: Path,
) -> None:
    report = run(quick=False, workers=1, lineups=TINY)
    doc = tmp_path / "bots.md"
    doc.write_text(f"# Bots\n\n{DOC_START}\nold\n{DOC_END}\n\nafter\n")

    write_docs(report, doc)

    text = doc.read_text()
    assert "| 2p advanced_all | greedy vs random | 4 |" in text
    assert "| 4p classic | expert vs 3 × greedy | 4 |" in text
    assert "old" not in text and text.endswith("after\n")
    assert not report.met  # the targets' line-ups were not played: missed, not passed
    assert "not played" in markdown(report)


def test_given_one_lineup_on_the_command_line_then_only_it_is_played() -> None:
    played = CliRunner().invoke(ladder, ["--lineup", "2p advanced_all,greedy,random,1",
                                         "--workers", "1"])
    wrong = CliRunner().invoke(ladder, ["--lineup", "2p advanced_all,greedy,nobody,1"])

    assert "| 2p advanced_all | greedy vs random | 2 |" in played.output
    assert "| expert vs" not in played.output  # no other line-up's row
    assert played.exit_code == 1  # the other line-ups' targets: not played, so missed
    assert wrong.exit_code == 2 and "levels random, greedy, expert, ismcts" in wrong.output


@pytest.mark.soak
@pytest.mark.skipif(not os.environ.get("CYA_SOAK_LADDER"), reason=(
    "the quick ladder plays for minutes (about ten on two cores when ismcts ran 100 iterations"
    " a decision; it now plays the product's 300): CYA_SOAK_LADDER=1 runs it"))
def test_soak_the_quick_ladder_meets_its_target_and_exits_0() -> None:
    result = CliRunner().invoke(ladder, ["--quick", "--workers", "2"])

    assert result.exit_code == 0, result.output
    assert "ismcts vs greedy" in result.output
    assert QUICK[0].deals * 2 >= 80
