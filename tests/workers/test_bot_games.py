"""Bots and clocks move games forward with no client action: RQ workers as real processes."""

from __future__ import annotations

from cya_rules.table.seats import TimeoutPolicy
from service.wiring.bootstrap import Services

from .conftest import Workers
from .games import (
    assert_each_due_decision_taken_once,
    assert_no_clock_expired_early,
    bots,
    command_log,
    event_types,
    humans,
    start_game,
    wait_until_finished,
)


async def test_given_four_bots_when_a_to_million_game_starts_then_it_finishes_untouched(
    api: Services, workers: Workers
) -> None:
    workers.start()
    game_id = await start_game(api, bots(2) + bots(2, "greedy"), end_mode="to_million")

    await wait_until_finished(api, game_id, timeout_s=120)

    assert_each_due_decision_taken_once(await command_log(api, game_id))


async def test_given_two_silent_humans_on_1s_clocks_and_two_bots_then_the_game_finishes(
    api: Services, workers: Workers
) -> None:
    workers.start()
    game_id = await start_game(api, humans("ann", "bob") + bots(2), turn_clock=1,
                               policy=TimeoutPolicy("random", hand_over_after=2))

    await wait_until_finished(api, game_id, timeout_s=60)

    types = await event_types(api, game_id)
    assert types.count("seat_handed_to_bot") == 2, "each silent human's seat went to the bot"
    # RQ's scheduler keeps whole seconds: on its own it let clocks expire up to one early.
    assert await assert_no_clock_expired_early(api, game_id, turn_clock=1) >= 4
    log = await command_log(api, game_id)
    assert_each_due_decision_taken_once(log)
    assert {c.actor for c in log if c.command_id.endswith(":deadline")} == {"timeout:0",
                                                                            "timeout:1"}
