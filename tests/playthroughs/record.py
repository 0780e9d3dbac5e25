"""Record the playthroughs: whole games between seeded random players, with their commands
and events, as JSON (one command or event per line, so a rule change shows up as a small diff).

Run `.venv/bin/python -m tests.playthroughs.record` from the repository root to regenerate them
after an intended rule change; review the diff before committing it.
"""

from __future__ import annotations

import random
from pathlib import Path

import msgspec

from cya_rules import (
    Command,
    Event,
    RuleSet,
    StartGame,
    execute,
    legal_commands,
    new_game,
    preset,
)
from cya_rules.cards import Edition
from cya_rules.ruleset import AdvancedOptions, EndMode, LaterRoundsStart, TiePolicy

HERE = Path(__file__).parent


class Step(msgspec.Struct, frozen=True):
    actor: int | None
    command: Command


class Playthrough(msgspec.Struct, frozen=True):
    name: str
    ruleset: RuleSet
    rng_seed: int  # seeds the random choice among the legal commands
    commands: list[Step]  # the first is StartGame, which carries the master seed
    events: list[Event]


# Recorded before rules version 3, when public_set_composition was a plain bool defaulting to
# true: the recipes name it, so their rule sets encode as recorded.
GAMES: dict[str, tuple[RuleSet, bytes, int]] = {
    "2p-en2022-advanced-all-draft-to-million": (
        preset("advanced_all", 2, Edition.EN_2022, public_set_composition=True),
        bytes.fromhex("11" * 32),
        2022,
    ),
    # Round 1 deals two Swaps one under the other on pile 0, below its top card: the first is
    # revealed while a seat has no set, with eight cards under it. Recorded before rules
    # version 2 (a Swap over a Swap went out of play; since version 2 it goes back, §14.6).
    "2p-en2022-advanced-all-swap-over-swap": (
        preset("advanced_all", 2, Edition.EN_2022, end_mode=EndMode.QUICK,
               public_set_composition=True),
        (1052).to_bytes(4, "big") * 8,
        5,
    ),
    # The same deal and player under rules version 2: that Swap goes back into the pile.
    "2p-en2022-advanced-all-swap-over-swap-v2": (
        preset("advanced_all", 2, Edition.EN_2022, end_mode=EndMode.QUICK, rules_version=2,
               public_set_composition=True),
        (1052).to_bytes(4, "big") * 8,
        5,
    ),
    "3p-en2022-classic-draft": (
        RuleSet(players=3, edition=Edition.EN_2022, end_mode=EndMode.QUICK, first_player=1,
                public_set_composition=True),
        bytes.fromhex("22" * 32),
        3,
    ),
    "3p-de2024-advanced-all-draft": (
        preset("advanced_all", 3, Edition.DE_2024, end_mode=EndMode.QUICK,
               public_set_composition=True),
        bytes.fromhex("33" * 32),
        2024,
    ),
    "4p-classic2011-to-million": (
        RuleSet(players=4, edition=Edition.CLASSIC_2011, tie_policy=TiePolicy.SHARED_WIN,
                public_set_composition=True),
        bytes.fromhex("44" * 32),
        2011,
    ),
    "5p-de2024-options-first-to-2-wins": (
        RuleSet(
            players=5,
            edition=Edition.DE_2024,
            end_mode=EndMode.FIRST_TO_2_ROUND_WINS,
            later_rounds_start=LaterRoundsStart.POOREST,
            public_set_composition=True,
            advanced=AdvancedOptions(
                two_actions=True, penny_jar=True, second_set_challenge=True, improve_set=True
            ),
        ),
        bytes.fromhex("55" * 32),
        5,
    ),
}


def play(name: str, ruleset: RuleSet, seed: bytes, rng_seed: int) -> Playthrough:
    rng = random.Random(rng_seed)
    steps = [Step(None, StartGame(seed))]
    events, state = execute(new_game(ruleset), StartGame(seed), None)
    while state.status != "finished":
        seat = state.pending_seats()[0]
        command = rng.choice(legal_commands(state, seat))
        new, state = execute(state, command, seat)
        steps.append(Step(seat, command))
        events.extend(new)
    return Playthrough(name, ruleset, rng_seed, steps, events)


def dumps(p: Playthrough) -> str:
    """JSON with one command or event per line."""

    def lines(items: list[Step] | list[Event]) -> str:
        return ",\n".join("  " + msgspec.json.encode(i).decode() for i in items)

    head = msgspec.json.encode({"name": p.name, "ruleset": p.ruleset, "rng_seed": p.rng_seed})
    return (
        head.decode()[:-1]
        + ',\n"commands": [\n'
        + lines(p.commands)
        + '\n],\n"events": [\n'
        + lines(p.events)
        + "\n]}\n"
    )


def path_of(name: str) -> Path:
    return HERE / f"{name}.json"


def main() -> None:
    for name, (ruleset, seed, rng_seed) in GAMES.items():
        p = play(name, ruleset, seed, rng_seed)
        path_of(name).write_text(dumps(p))
        print(f"{path_of(name)}: {len(p.commands)} commands, {len(p.events)} events")


if __name__ == "__main__":
    main()
