"""Template games: real finished games, played by the engine through the real pipeline into a
database of their own, with the seats a public server sees (people and bots, 2 to 4 seats,
half of them rated). `fill` copies them, under new game and player ids, into stores of each
size: playing 10^5 games through the pipeline would take hours on two cores.

Every seat is moved by a bot policy (random or greedy, by seat): the store cannot tell a
person's commands from a bot's, only the seat holder and the command ids, which follow the
API's (`player:<player id>:<key>` for a person, `bot:<n>` for a bot of the table)."""

from __future__ import annotations

import asyncio
import os
import random
import uuid

TEMPLATE_PLAYERS = 64  # the people seated in templates; `fill` maps them onto its own


def template_player(i: int) -> str:
    return f"tplayer{i:04d}" + "0" * 24  # the length of a real player id (32 hex digits)


async def play_templates(database_url: str, count: int, lobbies: int, seed: int = 1,
                         concurrency: int = 8) -> None:
    """`count` finished games and `lobbies` games that expired in the lobby."""
    os.environ.update({"CYA_DATABASE_URL": database_url, "CYA_SCHEDULER": "none"})
    os.environ.pop("CYA_REDIS_URL", None)
    from cya_rules import EndMode, RuleSet, legal_commands, player_view
    from cya_rules.bots import greedy_policy, random_policy
    from cya_rules.table.seats import BotSeat
    from service.events.migrate import upgrade
    from service.scheduling.idle_games import end_if_idle
    from service.table.lobby_commands import CreateGame, Start, TakeSeat
    from service.wiring.bootstrap import build
    from service.wiring.settings import Settings

    await asyncio.to_thread(upgrade, database_url)
    services = build(Settings.from_env())
    pipeline = services.pipeline
    async def one(i: int) -> None:
        rng = random.Random(seed * 1_000_003 + i)
        players = rng.choice((2, 3, 4, 4))
        three_rounds = rng.random() < 0.1  # most games on a public server are quick ones
        ruleset = RuleSet(players=players, end_mode=EndMode.HIGHEST_AFTER_3_ROUNDS
                          if three_rounds else EndMode.QUICK)
        people = rng.randint(1, players)
        who = rng.sample(range(TEMPLATE_PLAYERS), people)
        creator = template_player(who[0])
        bots = tuple(BotSeat(rng.choice(("random", "greedy"))) for _ in range(players - people))
        seats = (None,) * people + bots
        created = await pipeline.create_game(
            CreateGame(ruleset, seats=seats, rated=rng.random() < 0.5), creator,
            command_id=f"player:{creator}:{uuid.uuid4().hex}")
        game_id = created.game_id
        for p in who:
            await pipeline.lobby(game_id, TakeSeat(), template_player(p),
                                 command_id=f"player:{template_player(p)}:{uuid.uuid4().hex}")
        await pipeline.lobby(game_id, Start(), creator)
        policies = [random_policy if rng.random() < 0.5 else greedy_policy
                    for _ in range(players)]
        game = await pipeline.load(game_id)
        n = 0
        while game.status != "finished":
            assert game.state is not None and game.lobby is not None
            seat = game.state.pending_seats()[0]
            command = policies[seat](player_view(game.state, seat),
                                     legal_commands(game.state, seat), rng)
            if seat < people:
                player = template_player(who[seat])
                await pipeline.play(game_id, seat, command, player_id=player,
                                    command_id=f"player:{player}:{uuid.uuid4().hex}")
            else:
                await pipeline.play(game_id, seat, command, command_id=f"bot:{n}",
                                    actor=f"bot:{seat}")
            n += 1
            game = await pipeline.load(game_id)

    async def expired(i: int) -> None:
        rng = random.Random(-seed * 1_000_003 - i)
        creator = template_player(rng.randrange(TEMPLATE_PLAYERS))
        created = await pipeline.create_game(
            CreateGame(RuleSet(players=rng.choice((2, 3, 4)))), creator,
            command_id=f"player:{creator}:{uuid.uuid4().hex}")
        await pipeline.lobby(created.game_id, TakeSeat(), creator,
                             command_id=f"player:{creator}:{uuid.uuid4().hex}")
        assert await end_if_idle(pipeline, created.game_id, lobby_ttl_s=0, abandon_after_s=1e9)

    try:
        for start in range(0, count, concurrency):
            await asyncio.gather(*(one(i) for i in range(start, min(count, start + concurrency))))
        await asyncio.gather(*(expired(i) for i in range(lobbies)))
    finally:
        await services.close()
