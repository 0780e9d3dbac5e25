"""A store of a given size, bulk-loaded with COPY from the template games: each full game is a
template's log under a new game id, its people mapped onto a pool of players, its times spread
over the past year, and its hash chain computed again (the chain covers the game id), so that
every copy verifies like the original. Beside each full game stand nine that expired in the
lobby (a public server's `games` table is mostly those), so 10^5 full games bring 10^6 rows to
`games`, the lobby's table.

COPY goes into the tables as the migrations made them, indexes included, in the order a live
server would write them (games interleaved): the indexes grow as they would in service."""

from __future__ import annotations

import hashlib
import random
import uuid
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from scaling.templates import TEMPLATE_PLAYERS, template_player

PER_GAME_TABLES = ("events", "commands", "games", "game_views", "rating_changes")
LOBBY_GAMES_PER_GAME = 9
YEAR = timedelta(days=365)
CHUNK_GAMES = 2_000


def pool_player(i: int) -> str:
    return f"{i:032x}"


def pool_key(i: int) -> str:
    """The API key of pool player i (the bench signs in as some of them)."""
    return f"scale-key-{i}"


def pool_size(games: int) -> int:
    return max(TEMPLATE_PLAYERS, games // 4)  # ~10 full games a player


@dataclass
class Template:
    game_id: str
    people: list[str]  # the template players seated in it
    created_at: datetime
    rows: dict[str, list[dict[str, Any]]]


async def load_templates(conn: Any) -> tuple[list[Template], list[Template]]:
    """(full games, lobby-expired games) of the templates database."""
    per_table: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for table in PER_GAME_TABLES:
        order = " ORDER BY game_id, version" if table == "events" else ""
        by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in await conn.fetch(f"SELECT * FROM {table}{order}"):
            by_game[r["game_id"]].append(dict(r))
        per_table[table] = by_game
    full, lobby = [], []
    players = [template_player(i) for i in range(TEMPLATE_PLAYERS)]
    for game in per_table["games"].values():
        row = game[0]
        gid = row["game_id"]
        rows = {t: per_table[t].get(gid, []) for t in PER_GAME_TABLES}
        text = "".join(str(e["data"]) for e in rows["events"]) + row["creator"]
        template = Template(gid, [p for p in players if p in text], row["created_at"], rows)
        (lobby if row["end_reason"] else full).append(template)
    return full, lobby


def copy_rows(template: Template, pool: int, rng: random.Random, now: datetime
              ) -> dict[str, list[tuple[Any, ...]]]:
    """The template's rows under a new game id, people and time, as COPY records."""
    new_id = uuid.uuid4().hex
    people = rng.sample(range(pool), len(template.people))
    swaps = [(template.game_id, new_id)] + [
        (old, pool_player(p)) for old, p in zip(template.people, people, strict=True)]
    shift = (now - rng.random() * YEAR) - template.created_at

    def fixed(value: Any) -> Any:
        if isinstance(value, str):
            for old, new in swaps:
                if old in value:
                    value = value.replace(old, new)
            return value
        if isinstance(value, datetime):
            return value + shift
        return value

    out: dict[str, list[tuple[Any, ...]]] = {}
    for table, rows in template.rows.items():
        out[table] = [tuple(fixed(v) for v in row.values()) for row in rows]
    _rechain(out["events"], list(template.rows["events"][0]) if template.rows["events"] else [])
    return out


def _rechain(events: list[tuple[Any, ...]], columns: list[str]) -> None:
    from cya_rules.log.chain import event_hash

    if not events:
        return
    at = {c: i for i, c in enumerate(columns)}
    prev = "0" * 64
    for n, e in enumerate(events):
        prev = event_hash(prev, e[at["game_id"]], e[at["version"]], e[at["type"]],
                          e[at["schema_version"]], e[at["visibility"]], e[at["command_id"]],
                          e[at["actor"]], e[at["data"]].encode())
        events[n] = (*e[:at["hash"]], prev, *e[at["hash"] + 1:])


async def fill(conn: Any, games: int, full: list[Template], lobby: list[Template],
               seed: int = 7, progress: Any = None) -> None:
    """`games` full games and nine lobby-expired games beside each, a pool of players (each
    with its API key, `pool_key`) and their ratings."""
    rng = random.Random(seed)
    now = datetime.now(UTC)
    pool = pool_size(games)
    await conn.copy_records_to_table(
        "players", columns=("player_id", "name", "key_sha256", "created_at"),
        records=[(pool_player(i), f"player {i}", hashlib.sha256(pool_key(i).encode()).hexdigest(),
                  now - YEAR) for i in range(pool)])
    columns = {t: list(next(tp.rows[t][0] for tp in full + lobby if tp.rows[t]))
               for t in PER_GAME_TABLES}
    done = 0
    while done < games:
        batch: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
        n = min(CHUNK_GAMES, games - done)
        picks = [rng.choice(full) for _ in range(n)]
        picks += [rng.choice(lobby) for _ in range(n * LOBBY_GAMES_PER_GAME)]
        rng.shuffle(picks)
        for template in picks:
            for table, rows in copy_rows(template, pool, rng, now).items():
                batch[table] += rows
        for table, rows in batch.items():
            if rows:
                await conn.copy_records_to_table(table, columns=columns[table], records=rows)
        done += n
        if progress is not None:
            progress(done)
    await conn.execute(
        "INSERT INTO ratings (identity, family, mu, sigma, ordinal, games) "
        "SELECT identity, family, 25 + random() * 10, 3 + random() * 5, 0, count(*) "
        "FROM rating_changes GROUP BY identity, family")
    await conn.execute("UPDATE ratings SET ordinal = mu - 3 * sigma")
    await conn.execute("ANALYZE")
