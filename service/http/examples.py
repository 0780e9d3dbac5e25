"""Request body examples for the OpenAPI document."""

from __future__ import annotations

from litestar.openapi.spec import Example

NEW_GAME = [
    Example(summary="You and three bots, quick game",
            value={"ruleset": {"players": 4, "end_mode": "quick"},
                   "bots": [{"level": "greedy"}, {"level": "random"}, {"level": "random"}]}),
    Example(summary="A private table for four friends with a 60 s turn clock",
            value={"ruleset": {"players": 4, "edition": "de_2024",
                               "advanced": {"two_actions": True, "action_cards": True}},
                   "turn_clock": 60, "public": False,
                   "timeout_policy": {"bot_level": "greedy", "hand_over_after": 3}}),
]
COMMAND = [
    Example(summary="Form a set from two hand cards",
            value={"type": "form_set", "source": "hand", "hand_cards": ["jewels#1", "jewels#4"]}),
    Example(summary="Discard", value={"type": "discard", "card": "piano#2"}),
    Example(summary="Challenge the top set of seat 2",
            value={"type": "challenge", "target_seat": 2, "position": "top",
                   "cards": ["jewels#3"]}),
    Example(summary="Concede a challenge", value={"type": "concede"}),
]
JOIN = [Example(summary="The lowest open seat", value={}),
        Example(summary="Seat 2", value={"seat": 2})]
BOT = [Example(summary="A greedy bot in the lowest open seat", value={"level": "greedy"})]
PLAYER = [Example(summary="A display name", value={"name": "alice"})]
