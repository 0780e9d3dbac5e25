"""The one path between the rules engine's values and the SDK's models: the JSON the server
sends. A view and the legal commands are encoded as the server encodes them and decoded into
the SDK's generated models, so the bot's function gets exactly the types it gets online; the
command it returns goes back the same way."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from cya_client.models import Command, GameView
from cya_rules import GameState, legal_commands, player_view
from cya_rules.commands import SeatCommand
from cya_rules.views import GameView as RulesView

_ENCODE = msgspec.json.Encoder().encode
_VIEW = msgspec.json.Decoder(GameView).decode
_COMMANDS = msgspec.json.Decoder(list[Command]).decode
_RULES_COMMAND = msgspec.json.Decoder(SeatCommand).decode


class IllegalCommand(Exception):
    """The bot's function returned something the game refuses (online: a 422 `rule_violation`)."""


def view_of(view: RulesView) -> GameView:
    """The seat's view as the SDK decodes it from the server."""
    return _VIEW(_ENCODE(view))


def commands_of(legal: Sequence[SeatCommand]) -> list[Command]:
    """The legal commands as the SDK decodes them from the server, in the server's order."""
    return _COMMANDS(_ENCODE(legal))


def seat_turn(state: GameState, seat: int) -> tuple[GameView, list[Command], list[SeatCommand]]:
    """What the seat's function is given (its view, its legal commands), and the engine's own
    legal commands, index for index."""
    legal = legal_commands(state, seat)
    return view_of(player_view(state, seat)), commands_of(legal), legal


def engine_command(chosen: object, offered: Sequence[Command],
                   legal: Sequence[SeatCommand]) -> SeatCommand:
    """The engine's command for what the function returned: the legal command it is (found by
    identity first, the usual case, then by value), or else its JSON decoded as the server
    would: the engine then judges it, as the server does (it takes a pair's cards in either
    order, say)."""
    for i, command in enumerate(offered):
        if command is chosen:
            return legal[i]
    for i, command in enumerate(offered):
        if command == chosen:
            return legal[i]
    try:
        return _RULES_COMMAND(_ENCODE(chosen))
    except (TypeError, msgspec.ValidationError) as refused:
        raise IllegalCommand(f"choose() returned {chosen!r}, which is not a command: "
                             f"{refused}. Return one of the legal commands it is given.") from None
