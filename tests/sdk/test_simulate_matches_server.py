"""What the bot's function sees in a simulated game is what the server sends for the same
state: a real game is played through a real server, each turn the news brought is kept, and
the game's unredacted log (open once it is over) is folded to each turn's version and put
through the simulator's conversion. Same model types, same values, and no other seat's hand
in either."""

from __future__ import annotations

import re
from collections.abc import Iterator

import msgspec
import pytest
from cya_client import models
from cya_client.bot import Plan, Runner
from cya_client.bot.loading import load_choose
from cya_client.client import Client
from cya_client.simulate.convert import seat_turn

from cya_rules import GameState
from cya_rules.log.codec import EventCodec
from service.table.game import Game, apply

from .conftest import Server, player
from .test_cli import EXAMPLES

CARD = re.compile(r'"([a-z_]+#\d+)"')


def _recording(news: Iterator[models.News], turns: list[models.Turn]) -> Iterator[models.News]:
    try:
        for item in news:
            if isinstance(item, models.NewsYourTurn) and item.turn.legal_commands:
                turns.append(item.turn)
            yield item
    finally:
        close = getattr(news, "close", None)
        if close is not None:
            close()


def _states(client: Client, game_id: str) -> dict[int, GameState]:
    """The game's rules state at each version, from its whole log."""
    codec, game, states = EventCodec(), Game(game_id), {}
    for line in client.audit.history(game_id):
        event = codec.decode(line.type, line.schema_version, msgspec.json.encode(line.data))
        game = apply(game, event)
        if game.state is not None:
            states[line.version] = game.state
    return states


def _cards(value: object) -> set[str]:
    return set(CARD.findall(msgspec.json.encode(value).decode()))


@pytest.mark.parametrize(("players", "bots"), [(4, ["greedy", "random", "random"]),
                                               (2, ["greedy"])])
def test_given_a_real_game_then_the_simulators_views_and_commands_equal_the_servers(
        embedded: Server, players: int, bots: list[str]):
    turns: list[models.Turn] = []
    with player(embedded.url, f"compared{players}") as client:
        runner = Runner(client, load_choose(EXAMPLES / "greedy_bot.py"),
                        Plan(new=True, players=players, bots=bots, games=1))
        [result] = runner.run(news=_recording(client.players.news(), turns))
        states = _states(client, result.game_id)

    assert len(turns) > 5 and result.errors == 0
    hidden = 0
    for turn in turns:
        state = states[turn.version]
        view, legal, _ = seat_turn(state, turn.seat)

        assert type(view) is type(turn.view) is models.GameView
        assert view == turn.view
        assert [type(c) for c in legal] == [type(c) for c in turn.legal_commands]
        assert legal == turn.legal_commands
        others = {c for seat, hand in enumerate(state.hands) if seat != turn.seat for c in hand}
        assert not _cards(view) & others and not _cards(turn.view) & others
        assert view.hand is not None and set(view.hand) == set(state.hands[turn.seat])
        hidden += len(others)  # none once the other hands are played out, at a round's end
    assert hidden > 0
