"""Request and response examples for the OpenAPI document."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example
from litestar.openapi.spec.base import BaseSchemaObject

from cya_rules import (
    EndMode,
    Event,
    StartGame,
    execute,
    legal_commands,
    new_game,
    player_view,
    preset,
    redact,
)
from cya_rules.commands import FormSet
from service.http.schemas.events import EventOut, EventPage
from service.http.schemas.play import CommandResult, LegalCommands, ViewOut
from service.receipts import KeyRing, Receipt, ReceiptSigner
from service.table.turns import GameStatus, Turn

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
REACTION = [Example(summary="Good game", value={"reaction": "good_game"})]
PLAYER = [Example(summary="A display name", value={"name": "alice"})]
NEW_CHALLENGE = [
    Example(summary="A rated two-player game against one player",
            value={"to": "5b0c2f4e9a1d4c3b8e7f6a5d4c3b2a10", "ruleset": {"players": 2},
                   "rated": True, "turn_clock": 30}),
    Example(summary="An open four-seat challenge: anyone takes the second seat, two bots the "
                    "rest",
            value={"ruleset": {"players": 4}, "bots": ["greedy", "expert"]}),
]
NEW_SEEK = [Example(summary="Any rated four-player game",
                    value={"players": 4, "rated": True, "rating_range": 5})]


# Response examples: one two-seat game dealt from a fixed seed, as seat 0 sees it, built with
# the engine and the answer types the routes use, so they cannot drift from what is served.
_GAME_ID = "3f2a9c1e6b7d4e0f8a5c2b1d9e8f7a6b"
_LOBBY_EVENTS = 2  # game_created (its creator seated) and seat_taken: versions before the deal
# Receipts signed by a key made for the examples alone (its seed is fixed, so the contract does
# not change from one generation to the next); the chain hashes are made up.
_EXAMPLE_SIGNER = ReceiptSigner(KeyRing.from_document(
    b'{"seal_secret": "' + b"11" * 32 + b'", "keys": [{"private_key": "' + b"22" * 32 + b'"}]}'))


def example_receipt(version: int) -> Receipt:
    return _EXAMPLE_SIGNER.receipt(_GAME_ID, version, f"{version:064x}")


RECEIPT = example_receipt(7)


def _play_examples() -> dict[str, dict[str, Any]]:
    state = new_game(preset("classic", 2, end_mode=EndMode.QUICK))
    deal, state = execute(state, StartGame(bytes(range(32))), None)
    version = _LOBBY_EVENTS + len(deal)
    seat = state.pending_seats()[0]
    legal = legal_commands(state, seat)
    # The example command forms a set when the hand holds a pair, else it discards.
    move = next((c for c in legal if isinstance(c, FormSet)), legal[-1])
    events, after = execute(state, move, seat)

    def seen(first: int, evs: list[Event]) -> list[EventOut]:
        return [EventOut(first + i, redact(e, seat)) for i, e in enumerate(evs)]

    answers = {
        "view": ViewOut(_GAME_ID, version, seat, GameStatus.PLAYING,
                        list(state.pending_seats()), None, player_view(state, seat)),
        "legal": LegalCommands(_GAME_ID, version, seat, legal),
        "command": CommandResult(_GAME_ID, version + len(events), seen(version + 1, events),
                                 replayed=False, committed=True, partial=False,
                                 receipt=example_receipt(version + len(events))),
        "events": EventPage(_GAME_ID, version + len(events),
                            seen(_LOBBY_EVENTS + 1, deal), next_after=version,
                            awaiting=list(after.pending_seats()), deadline=None,
                            receipt=example_receipt(version)),
        "turn": Turn(_GAME_ID, version, GameStatus.PLAYING, seat, [seat], None,
                     player_view(state, seat), legal, example_receipt(version)),
    }
    return {name: msgspec.to_builtins(answer) for name, answer in answers.items()}


_PLAY = _play_examples()


@dataclass
class _Verbatim(BaseSchemaObject):
    """An example value exactly as given: Litestar renders the document dropping every None,
    inside example values too, so a required field that is null would go missing."""

    value: Any

    def to_schema(self) -> Any:
        return self.value


def ok(data: type, summary: str, name: str, description: str) -> ResponseSpec:
    """The 200 of a play route, with its example."""
    return ResponseSpec(data_container=data, generate_examples=False, description=description,
                        examples=[Example(summary=summary, value=_Verbatim(_PLAY[name]))])
