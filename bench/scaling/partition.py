"""The A/B of bench/scale.py (`--partitions N`): the write path's three largest tables hash
partitioned by `game_id` into N partitions, made after the migration and before the fill.

Every key and unique index of these tables leads with `game_id`
(tests/store/test_keyed_by_game.py), so each copies onto the partitioned table as it is, and a
game's rows all fall in one partition. `games` stays whole: the lobby's and the sweeper's
indexes order games across all of them (status, creation), which partitions by game would
split.
"""

from __future__ import annotations

from typing import Any

# Each table's storage options, which a partitioned table cannot hold: its partitions do.
TABLES = {"events": "", "commands": "",
          "game_views": "WITH (fillfactor = 50, toast_tuple_target = 8160)"}


async def partition(conn: Any, partitions: int) -> None:
    async with conn.transaction():
        for table, options in TABLES.items():
            await conn.execute(f"ALTER TABLE {table} RENAME TO {table}_whole")
            await conn.execute(f"CREATE TABLE {table} (LIKE {table}_whole INCLUDING ALL) "
                               "PARTITION BY HASH (game_id)")
            for i in range(partitions):
                await conn.execute(
                    f"CREATE TABLE {table}_p{i} PARTITION OF {table} "
                    f"FOR VALUES WITH (MODULUS {partitions}, REMAINDER {i}) {options}")
            await conn.execute(f"DROP TABLE {table}_whole")
