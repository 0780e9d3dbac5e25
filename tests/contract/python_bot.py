"""A bot written against the client `openapi-python-client` generates from the contract with
default options: mypy must find zero errors in it (test_generated_clients.py)."""

from __future__ import annotations

import random
import uuid

from cover_your_assets_client import AuthenticatedClient, Client
from cover_your_assets_client.api.lobby import create_game, start_game
from cover_your_assets_client.api.play import get_turn, post_command
from cover_your_assets_client.api.players import create_player
from cover_your_assets_client.models import (
    BotLevel,
    BotSpec,
    EndMode,
    FormSet,
    GameStatus,
    NewGame,
    NewPlayer,
    PlayerCreated,
    ProblemBody,
    RuleSet,
    Turn,
)


def play(base_url: str) -> list[int]:
    player = create_player.sync(client=Client(base_url=base_url), body=NewPlayer(name="py-bot"))
    assert isinstance(player, PlayerCreated), player
    client = AuthenticatedClient(base_url=base_url, token=player.api_key)
    created = create_game.sync(client=client, body=NewGame(
        ruleset=RuleSet(players=4, end_mode=EndMode.QUICK),
        bots=[BotSpec(level=BotLevel.GREEDY), BotSpec(level=BotLevel.RANDOM),
              BotSpec(level=BotLevel.RANDOM)]))
    if isinstance(created, ProblemBody) or created is None:
        raise RuntimeError(created)
    start_game.sync(created.game_id, client=client)
    while True:
        turn = get_turn.sync(created.game_id, client=client, timeout=25)
        if not isinstance(turn, Turn):
            raise RuntimeError(turn)
        if turn.status == GameStatus.FINISHED:
            return list(turn.view.winners) if turn.view else []
        if turn.legal_commands:
            sets = [c for c in turn.legal_commands if isinstance(c, FormSet)]
            sent = post_command.sync(created.game_id, client=client,
                                     body=random.choice(sets or turn.legal_commands),
                                     idempotency_key=str(uuid.uuid4()))
            if isinstance(sent, ProblemBody) and sent.code != "not_your_decision":
                raise RuntimeError(f"{sent.code}: {sent.detail}")
