"""The tables, as SQLAlchemy Core: the event log and the read models kept beside it.

The Alembic migrations in `service/events/migrations/` create exactly these; a test holds the
two together.
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

metadata = sa.MetaData()


class UtcDateTime(sa.TypeDecorator[datetime]):
    """A moment, read back aware and in UTC on every backend. PostgreSQL's `timestamptz` keeps
    the zone; SQLite keeps none and gives back the naive UTC time that every writer stored, so
    it is read as UTC here, once, rather than by each reader."""

    impl = sa.DateTime
    cache_ok = True

    def process_result_value(self, value: datetime | None, dialect: sa.Dialect
                             ) -> datetime | None:
        if value is None or value.tzinfo is not None:
            return value
        return value.replace(tzinfo=UTC)


# JSON columns hold the exact msgspec-encoded text: the engine's JSON serializer passes strings
# through untouched (see `engine.py`), so the bytes the hash chain covers are the stored bytes.
# PostgreSQL's `json` (not `jsonb`) keeps the text verbatim.
JsonText = sa.JSON().with_variant(postgresql.JSON(), "postgresql")
Timestamp = UtcDateTime(timezone=True)
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")  # SQLite rowids are INTEGER

events = sa.Table(
    "events",
    metadata,
    # Keyed by game first, as every table a command writes is (tests/store/test_keyed_by_game.py):
    # a game's log stays on one node when the tables are distributed by `game_id`.
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("type", sa.String(64), nullable=False),
    sa.Column("schema_version", sa.Integer, nullable=False),
    sa.Column("data", JsonText, nullable=False),
    # "public", "server", or a seat number as text: who may see the event unredacted.
    sa.Column("visibility", sa.String(16), nullable=False),
    # Set on the first event of each command only: a command's events are the run of versions
    # up to the next row that carries a command id.
    sa.Column("command_id", sa.String(256), nullable=True),
    sa.Column("actor", sa.String(128), nullable=True),
    sa.Column("recorded_at", Timestamp, nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
)
# Only a command's first event carries its id: indexing the others' NULLs (which never
# conflict) would only cost an index entry per event.
sa.Index("uq_events_game_command", events.c.game_id, events.c.command_id, unique=True,
         postgresql_where=events.c.command_id.isnot(None),
         sqlite_where=events.c.command_id.isnot(None))

# One row per accepted command: what idempotency compares a repeated key against.
commands = sa.Table(
    "commands",
    metadata,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("command_id", sa.String(256), primary_key=True),
    sa.Column("body_sha256", sa.String(64), nullable=False),
    sa.Column("first_version", sa.Integer, nullable=False),
    sa.Column("last_version", sa.Integer, nullable=False),
)

RATED_FINISHED = "rated AND status = 'finished'"
RATING_DUE = f"{RATED_FINISHED} AND NOT rating_counted"
RATING_COUNTED = f"{RATED_FINISHED} AND rating_counted"

games = sa.Table(
    "games",
    metadata,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False),  # lobby | playing | finished
    sa.Column("creator", sa.String(128), nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("ruleset", JsonText, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("seats", JsonText, nullable=False),
    sa.Column("turn_clock", sa.Integer, nullable=True),  # seconds; NULL: no clock
    sa.Column("timeout_policy", JsonText, nullable=False),
    # Events a watcher trails the table by while the game runs (0: none).
    sa.Column("spectator_delay", sa.Integer, nullable=False, server_default="0"),
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
    # Seats kept for invited players (a rematch's), by seat: [player id or null]; [] if none.
    sa.Column("invited", JsonText, nullable=False, server_default="[]"),
    sa.Column("rematch_of", sa.String(64), nullable=True),
    sa.Column("rematch", sa.String(64), nullable=True),  # the rematch offered after it
    sa.Column("end_reason", sa.Text, nullable=True),  # why it expired or was abandoned
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("pending_seats", JsonText, nullable=False),
    sa.Column("deadline", Timestamp, nullable=True),
    sa.Column("created_at", Timestamp, nullable=False),
    sa.Column("updated_at", Timestamp, nullable=False),
    # Whether the ratings counted it (a rated game that finished): `projections/ratings.py`
    # finds what is left to count, and the last game counted, by the two partial indexes below,
    # whatever the number of games counted before.
    sa.Column("rating_counted", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Index("ix_games_status", "status", "created_at"),
    # The lobby, newest first, without a status filter, and `?mine=true` (by creator, and on
    # PostgreSQL by seat: `SEATS_INDEX`). None of these columns changes once a game is
    # dealt, so commands still update the row in place.
    sa.Index("ix_games_created", "created_at", "game_id"),
    sa.Index("ix_games_creator", "creator", "created_at"),
    sa.Index("ix_games_rating_due", "updated_at", "game_id",
             postgresql_where=sa.text(RATING_DUE), sqlite_where=sa.text(RATING_DUE)),
    sa.Index("ix_games_rating_counted", "updated_at", "game_id",
             postgresql_where=sa.text(RATING_COUNTED), sqlite_where=sa.text(RATING_COUNTED)),
    # Every command rewrites its game's row and views. Free room on the page lets PostgreSQL
    # update them in place (HOT: no new index entries), and prune old versions as it goes.
    postgresql_with={"fillfactor": 50},
)
# The columns of a games row that no command writes: the ratings' own (`projections/ratings.py`).
RATINGS_COLUMNS = ("rating_counted",)
# The columns of a games row that a command may change without touching the lobby (the rest
# come from the lobby, the ruleset and the creation time): a command that leaves the lobby as
# it was writes only these.
PROGRESS_COLUMNS = ("game_id", "status", "version", "pending_seats", "deadline", "updated_at")

# PostgreSQL only: the games a player sits in, by JSON containment (`?mine=true`). SQLite
# has no such index and scans.
SEATS_JSONB = sa.cast(games.c.seats, postgresql.JSONB)
SEATS_INDEX = sa.Index("ix_games_seats", SEATS_JSONB.label("seats_jsonb"),
                       postgresql_using="gin",
                       postgresql_ops={"seats_jsonb": "jsonb_path_ops"},
                       # every search reads the pending list: keep it short (migration 0018)
                       postgresql_with={"gin_pending_list_limit": 256}).ddl_if(
                           dialect="postgresql")


SPECTATOR = -1  # the `viewer` of the spectator view
HANDS = -2  # the `viewer` of the row holding every seat's hand (never served as it is)

game_views = sa.Table(
    "game_views",
    metadata,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("viewer", sa.Integer, primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
    # The exact JSON the API serves, as text: PostgreSQL need not parse it on every write.
    sa.Column("view", sa.Text, nullable=False),
    postgresql_with={"fillfactor": 50, "toast_tuple_target": 8160},
)

# A player: an identity and the SHA-256 of its bearer API key (the key itself is never stored).
players = sa.Table(
    "players",
    metadata,
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("key_sha256", sa.String(64), nullable=False),
    sa.Column("created_at", Timestamp, nullable=False),
    # A bot account (as Lichess's BOT accounts): shown in player views and the leaderboard.
    sa.Column("bot", sa.Boolean, nullable=False, server_default=sa.false()),
    # A bot account in the standing arena (`CYA_BOT_ARENA_PLAYERS`): paired in rated games.
    sa.Column("arena", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.UniqueConstraint("key_sha256", name="uq_players_key"),
)

# Ratings: a projection of the finished rated games, in the order they finished
# (`projections/ratings.py`). `identity` is `player:<id>` or `bot:<level>`; `family` is `2p` or
# `3-6p`; `ordinal` (mu − 3 sigma) orders the leaderboard.
ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("identity", sa.String(96), primary_key=True),
    sa.Column("family", sa.String(8), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("ordinal", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Index("ix_ratings_board", "family", "ordinal"),
)

# Each rated game's effect on its seats' ratings, for its summary.
rating_changes = sa.Table(
    "rating_changes",
    metadata,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("identity", sa.String(96), nullable=False),
    sa.Column("family", sa.String(8), nullable=False),
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("mu_before", sa.Float, nullable=False),
    sa.Column("sigma_before", sa.Float, nullable=False),
    sa.Column("mu_after", sa.Float, nullable=False),
    sa.Column("sigma_after", sa.Float, nullable=False),
)

# At most one pending decision per game, so at most one row of due work.
due_work = sa.Table(
    "due_work",
    metadata,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),  # bot_turn | deadline
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("due_at", Timestamp, nullable=False),
    sa.Index("ix_due_work_due_at", "due_at"),
)

# Tournaments: each an append-only log of its own (`service/tournaments`), hash-chained as a
# game's is (`chain.event_hash`, the tournament id in the game id's place, no command id).
tournament_events = sa.Table(
    "tournament_events",
    metadata,
    sa.Column("tournament_id", sa.String(64), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),  # the concurrency check, as a game's
    sa.Column("type", sa.String(64), nullable=False),
    sa.Column("schema_version", sa.Integer, nullable=False),
    sa.Column("data", JsonText, nullable=False),
    sa.Column("visibility", sa.String(16), nullable=False),  # public | server
    sa.Column("actor", sa.String(128), nullable=True),
    sa.Column("recorded_at", Timestamp, nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
)

# The read model of each tournament, written in the same transaction as its events: its
# public state and its standings, as the API serves them.
tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("tournament_id", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(128), nullable=False),
    sa.Column("creator", sa.String(128), nullable=False),
    sa.Column("format", sa.String(16), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # running | finished
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("summary", sa.Text, nullable=False),
    sa.Column("standings", sa.Text, nullable=False),
    sa.Column("created_at", Timestamp, nullable=False),
    sa.Column("updated_at", Timestamp, nullable=False),
    sa.Index("ix_tournaments_created", "created_at", "tournament_id"),
    sa.Index("ix_tournaments_status", "status", "updated_at"),
)

# Which tournament table a game is: a game's end wakes its tournament's runner.
tournament_games = sa.Table(
    "tournament_games",
    metadata,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("tournament_id", sa.String(64), nullable=False),
    sa.Column("table_no", sa.Integer, nullable=False),
    sa.Index("ix_tournament_games_tournament", "tournament_id"),
)

# Webhooks (`service/webhooks/`). A player's bot endpoint: while it is registered, every seat
# the player holds is played by POSTing the decision to `url`. The signing secret is kept as
# it is (a Standard Webhooks secret is symmetric: the service must sign with it); the API shows
# it once, when made.
bot_endpoints = sa.Table(
    "bot_endpoints",
    metadata,
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("url", sa.String(2048), nullable=False),
    sa.Column("secret", sa.String(128), nullable=False),
    sa.Column("created_at", Timestamp, nullable=False),
    sa.Column("secret_rotated_at", Timestamp, nullable=False),
    # The secret before the last rotation, still signing beside `secret` until then.
    sa.Column("previous_secret", sa.String(128), nullable=True),
    sa.Column("previous_secret_until", Timestamp, nullable=True),
)

# Every POST of a decision to a bot endpoint, with what came of it.
bot_attempts = sa.Table(
    "bot_attempts",
    metadata,
    sa.Column("attempt_id", BigId, sa.Identity(), primary_key=True),
    sa.Column("player_id", sa.String(64), nullable=False),
    sa.Column("game_id", sa.String(64), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("message_id", sa.String(128), nullable=False),
    # accepted | illegal | late | http_error | network_error | refused
    sa.Column("outcome", sa.String(16), nullable=False),
    sa.Column("status_code", sa.Integer, nullable=True),
    sa.Column("latency_ms", sa.Float, nullable=False),
    sa.Column("error", sa.Text, nullable=True),
    sa.Column("at", Timestamp, nullable=False),
    sa.Index("ix_bot_attempts_player", "player_id", "attempt_id"),
)

# A player's event webhook: `url` hears the chosen `event_types` of the player's games.
webhook_subscriptions = sa.Table(
    "webhook_subscriptions",
    metadata,
    sa.Column("subscription_id", sa.String(64), primary_key=True),
    sa.Column("player_id", sa.String(64), nullable=False),
    sa.Column("url", sa.String(2048), nullable=False),
    sa.Column("secret", sa.String(128), nullable=False),
    sa.Column("event_types", JsonText, nullable=False),
    sa.Column("enabled", sa.Boolean, nullable=False),
    sa.Column("failures", sa.Integer, nullable=False),  # consecutive failed attempts
    sa.Column("disabled_reason", sa.Text, nullable=True),
    sa.Column("created_at", Timestamp, nullable=False),
    sa.Column("previous_secret", sa.String(128), nullable=True),  # as for bot endpoints
    sa.Column("previous_secret_until", Timestamp, nullable=True),
    sa.Index("ix_webhook_subscriptions_player", "player_id"),
)

# The outbox: one row per message owed to a subscription, delivered in (game, version, seq)
# order; a message is only sent once every earlier one of its game is delivered.
webhook_messages = sa.Table(
    "webhook_messages",
    metadata,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("message_id", sa.String(128), primary_key=True),
    sa.Column("subscription_id", sa.String(64), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("type", sa.String(32), nullable=False),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("created_at", Timestamp, nullable=False),
    sa.Column("delivered_at", Timestamp, nullable=True),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("next_attempt_at", Timestamp, nullable=False),
    # A delivering job's claim on the head of its game's queue (two jobs never send at once).
    sa.Column("lease_until", Timestamp, nullable=True),
    sa.Index("ix_webhook_messages_queue", "subscription_id", "game_id", "delivered_at",
             "version", "seq"),
    sa.Index("ix_webhook_messages_due", "delivered_at", "next_attempt_at"),
)

# Every POST of an event message, with what came of it: the delivery log.
webhook_attempts = sa.Table(
    "webhook_attempts",
    metadata,
    sa.Column("attempt_id", BigId, sa.Identity(), primary_key=True),
    sa.Column("message_id", sa.String(128), nullable=False),
    sa.Column("subscription_id", sa.String(64), nullable=False),
    sa.Column("ok", sa.Boolean, nullable=False),
    sa.Column("status_code", sa.Integer, nullable=True),
    sa.Column("latency_ms", sa.Float, nullable=False),
    sa.Column("error", sa.Text, nullable=True),
    sa.Column("at", Timestamp, nullable=False),
    sa.Index("ix_webhook_attempts_message", "message_id"),
)

# Matchmaking's own state (`service/matchmaking/runner/`): challenges and quick-play seeks. Not
# a projection: each row is the thing itself, changed by a conditional UPDATE (from `open` or
# `waiting` only), so two accepts or a match and a cancel never both win.
challenges = sa.Table(
    "challenges",
    metadata,
    sa.Column("challenge_id", sa.String(64), primary_key=True),
    sa.Column("challenger", sa.String(64), nullable=False),
    sa.Column("challenged", sa.String(64), nullable=True),  # null: open to anyone
    sa.Column("ruleset", JsonText, nullable=False),
    sa.Column("turn_clock", sa.Integer, nullable=True),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("bots", JsonText, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("accepted_by", sa.String(64), nullable=True),
    sa.Column("game_id", sa.String(64), nullable=True),
    sa.Column("reason", sa.String(200), nullable=True),
    sa.Column("request_sha256", sa.String(64), nullable=False),  # an Idempotency-Key's body
    sa.Column("created_at", Timestamp, nullable=False),
    sa.Column("updated_at", Timestamp, nullable=False),
)
sa.Index("ix_challenges_challenged", challenges.c.challenged, challenges.c.updated_at)
sa.Index("ix_challenges_challenger", challenges.c.challenger, challenges.c.updated_at)
sa.Index("ix_challenges_accepted_by", challenges.c.accepted_by, challenges.c.updated_at)
sa.Index("ix_challenges_status", challenges.c.status, challenges.c.created_at)

seeks = sa.Table(
    "seeks",
    metadata,
    sa.Column("seek_id", sa.String(64), primary_key=True),
    sa.Column("player_id", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("edition", sa.String(32), nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("end_mode", sa.String(32), nullable=False, server_default="to_million"),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("rating_range", sa.Float, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("match_id", sa.String(64), nullable=True),
    sa.Column("game_id", sa.String(64), nullable=True),
    sa.Column("request_sha256", sa.String(64), nullable=False),
    sa.Column("created_at", Timestamp, nullable=False),
    sa.Column("updated_at", Timestamp, nullable=False),
)
sa.Index("ix_seeks_waiting", seeks.c.status, seeks.c.players, seeks.c.edition, seeks.c.rated,
         seeks.c.end_mode, seeks.c.created_at)
sa.Index("ix_seeks_player", seeks.c.player_id, seeks.c.updated_at)
