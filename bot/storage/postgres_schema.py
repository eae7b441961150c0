"""The PostgreSQL schema as an ordered list of migration steps.

The same steps as the SQLite schema (``schema.py``), version for version, in
PostgreSQL's types: BIGINT for Discord ids, DOUBLE PRECISION for Unix times,
BIGSERIAL for the ids the database assigns, BOOLEAN for flags. The one-row table
``schema_version`` holds how many steps the database has applied. Each step runs
in one transaction together with the version bump, under a transaction-level
advisory lock, so two processes starting together apply each step once (the
second waits, then finds the step applied). Never edit a released step: append
a new one, here and in ``schema.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from .schema import Migration, SchemaTooNew

if TYPE_CHECKING:
    import asyncpg
    from asyncpg.pool import PoolConnectionProxy

    Db: TypeAlias = asyncpg.Connection | PoolConnectionProxy
    """A connection, of a pool or not."""

MIGRATIONS: tuple[Migration, ...] = (
    # 1: initial schema
    (
        """
        CREATE TABLE guild_settings (
            guild_id          BIGINT PRIMARY KEY,
            moderator_role_id BIGINT,
            turn_timeout      INTEGER,
            reaction_timeout  INTEGER,
            choice_timeout    INTEGER
        )
        """,
        """
        CREATE TABLE tables (
            id               BIGSERIAL PRIMARY KEY,
            guild_id         BIGINT  NOT NULL,
            channel_id       BIGINT  NOT NULL,
            game             TEXT    NOT NULL,
            status           TEXT    NOT NULL
                CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
            creator_id       BIGINT  NOT NULL,
            options_json     TEXT    NOT NULL,
            turn_timeout     INTEGER NOT NULL,
            reaction_timeout INTEGER NOT NULL,
            choice_timeout   INTEGER NOT NULL,
            message_id       BIGINT,
            seed             BIGINT,
            rematch_of       BIGINT REFERENCES tables (id) ON DELETE SET NULL,
            created_at       DOUBLE PRECISION NOT NULL,
            updated_at       DOUBLE PRECISION NOT NULL
        )
        """,
        # At most one open table per channel; its unique violation becomes ChannelBusy.
        """
        CREATE UNIQUE INDEX tables_one_open_per_channel
            ON tables (channel_id) WHERE status IN ('lobby', 'running')
        """,
        "CREATE INDEX tables_by_guild_status ON tables (guild_id, status)",
        "CREATE INDEX tables_by_status ON tables (status)",
        """
        CREATE TABLE seats (
            table_id     BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            seat         INTEGER NOT NULL,
            user_id      BIGINT  NOT NULL,
            name         TEXT    NOT NULL,
            away_strikes INTEGER NOT NULL DEFAULT 0,
            removed      BOOLEAN NOT NULL DEFAULT FALSE,
            PRIMARY KEY (table_id, seat),
            UNIQUE (table_id, user_id)
        )
        """,
        """
        CREATE TABLE states (
            table_id   BIGINT  PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
            version    INTEGER NOT NULL,
            state_json TEXT    NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL
        )
        """,
        """
        CREATE TABLE actions (
            table_id    BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            version     INTEGER NOT NULL,
            kind        TEXT    NOT NULL,
            seat        INTEGER,
            user_id     BIGINT,
            choice_json TEXT,
            created_at  DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, version)
        )
        """,
        """
        CREATE TABLE events (
            table_id      BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            version       INTEGER NOT NULL,
            idx           INTEGER NOT NULL,
            audience_json TEXT,
            event_json    TEXT    NOT NULL,
            PRIMARY KEY (table_id, version, idx)
        )
        """,
        """
        CREATE TABLE deadlines (
            table_id BIGINT  PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
            "window" TEXT    NOT NULL,
            version  INTEGER NOT NULL,
            due_at   DOUBLE PRECISION NOT NULL
        )
        """,
        "CREATE INDEX deadlines_by_due_at ON deadlines (due_at)",
    ),
    # 2: which state version each table message shows (boot refreshes only stale ones)
    ("ALTER TABLE tables ADD COLUMN rendered_version INTEGER",),
    # 3: computer players (a seat's level) and the take-over of away players
    (
        "ALTER TABLE seats ADD COLUMN computer TEXT",
        "ALTER TABLE tables ADD COLUMN takeover BOOLEAN NOT NULL DEFAULT TRUE",
    ),
    # 4: the outbox (what a step owes people, written with the step) and the status
    # each table message shows
    (
        """
        CREATE TABLE outbox (
            id           BIGSERIAL PRIMARY KEY,
            table_id     BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            version      INTEGER,
            kind         TEXT    NOT NULL CHECK (kind IN ('post', 'dm')),
            target       BIGINT  NOT NULL,
            content      TEXT    NOT NULL,
            embed_json   TEXT,
            created_at   DOUBLE PRECISION NOT NULL,
            delivered_at DOUBLE PRECISION
        )
        """,
        "CREATE INDEX outbox_undelivered ON outbox (table_id, id) WHERE delivered_at IS NULL",
        "ALTER TABLE tables ADD COLUMN rendered_status TEXT",
        # Open tables show their status; a table that ended in the last day may still
        # show live buttons (boot refreshes it once), older ones are left alone.
        """
        UPDATE tables SET rendered_status = status
        WHERE message_id IS NOT NULL
          AND (status IN ('lobby', 'running')
               OR updated_at < EXTRACT(EPOCH FROM now()) - 86400)
        """,
    ),
    # 5: languages: each table's (its public messages), each seat's (its DMs) and
    # each guild's default for new tables
    (
        "ALTER TABLE tables ADD COLUMN language TEXT NOT NULL DEFAULT 'en'",
        "ALTER TABLE seats ADD COLUMN locale TEXT",
        "ALTER TABLE guild_settings ADD COLUMN language TEXT",
    ),
    # 6: records of games that are over (standings, history, replays), kept for good,
    # and each player's rating per guild and game: written by the commit that ends
    # the game
    (
        """
        CREATE TABLE game_records (
            table_id     BIGINT  PRIMARY KEY,
            guild_id     BIGINT  NOT NULL,
            channel_id   BIGINT  NOT NULL,
            game         TEXT    NOT NULL,
            options_json TEXT    NOT NULL,
            outcome      TEXT    NOT NULL CHECK (outcome IN ('finished', 'ended')),
            started_at   DOUBLE PRECISION,
            ended_at     DOUBLE PRECISION NOT NULL,
            steps        INTEGER NOT NULL
        )
        """,
        "CREATE INDEX game_records_by_guild ON game_records (guild_id, ended_at, table_id)",
        """
        CREATE INDEX game_records_by_game
        ON game_records (guild_id, game, ended_at, table_id)
        """,
        """
        CREATE TABLE record_seats (
            table_id BIGINT  NOT NULL REFERENCES game_records (table_id),
            seat     INTEGER NOT NULL,
            user_id  BIGINT  NOT NULL,
            name     TEXT    NOT NULL,
            computer TEXT,
            removed  BOOLEAN NOT NULL,
            winner   BOOLEAN NOT NULL,
            score    INTEGER,
            PRIMARY KEY (table_id, seat)
        )
        """,
        "CREATE INDEX record_seats_by_user ON record_seats (user_id, table_id)",
        """
        CREATE TABLE ratings (
            guild_id BIGINT  NOT NULL,
            game     TEXT    NOT NULL,
            user_id  BIGINT  NOT NULL,
            mu       DOUBLE PRECISION NOT NULL,
            sigma    DOUBLE PRECISION NOT NULL,
            ordinal  DOUBLE PRECISION NOT NULL,
            games    INTEGER NOT NULL,
            wins     INTEGER NOT NULL,
            PRIMARY KEY (guild_id, game, user_id)
        )
        """,
        "CREATE INDEX ratings_by_rank ON ratings (guild_id, game, ordinal DESC)",
    ),
    # 7: a table hidden from non-players while its game runs (spectators)
    ("ALTER TABLE tables ADD COLUMN hidden BOOLEAN NOT NULL DEFAULT FALSE",),
    # 8: each record seat's game statistics (Complots bluffs), computed after the
    # game is over from its replay (bot.records), off the step that ended it
    (
        """
        CREATE TABLE record_stats (
            table_id BIGINT  NOT NULL REFERENCES game_records (table_id),
            seat     INTEGER NOT NULL,
            stat     TEXT    NOT NULL,
            value    INTEGER NOT NULL,
            PRIMARY KEY (table_id, seat, stat)
        )
        """,
        "ALTER TABLE game_records ADD COLUMN stats_done BOOLEAN NOT NULL DEFAULT FALSE",
        """
        CREATE INDEX game_records_awaiting_stats
        ON game_records (ended_at, table_id) WHERE NOT stats_done
        """,
    ),
    # 9: claims, so one process alone fires a deadline or delivers a table's outbox
    # (several processes on one database); a claim runs out if its process dies
    (
        "ALTER TABLE deadlines ADD COLUMN claimed_by TEXT",
        "ALTER TABLE deadlines ADD COLUMN claimed_until DOUBLE PRECISION",
        "ALTER TABLE outbox ADD COLUMN claimed_by TEXT",
        "ALTER TABLE outbox ADD COLUMN claimed_until DOUBLE PRECISION",
    ),
    # 10: the level of the table's computer players (added ones, and take-over)
    ("ALTER TABLE tables ADD COLUMN computer_level TEXT NOT NULL DEFAULT 'normal'",),
    # 11: each player's DM channel with the bot, so a restarted bot does not open
    # them again (a REST call each, against the bot's rate limit)
    (
        """
        CREATE TABLE dm_channels (
            user_id    BIGINT PRIMARY KEY,
            channel_id BIGINT NOT NULL
        )
        """,
    ),
)

SCHEMA_VERSION = len(MIGRATIONS)

MIGRATION_LOCK = 0x67616D656D617374  # "gamemast"
"""The advisory lock key every migrating transaction holds (one process at a time)."""

_VERSION_TABLE = """
    CREATE TABLE IF NOT EXISTS schema_version (
        single  BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (single),
        version INTEGER NOT NULL
    )
"""


async def migrate(db: Db) -> int:
    """Applies the missing steps, one transaction each; returns the final version.

    Every transaction first takes the migration lock and reads the version again,
    so a process that waited for another one's step does not apply it twice."""
    async with db.transaction():
        await _lock(db)
        await db.execute(_VERSION_TABLE)
        await db.execute("INSERT INTO schema_version (version) VALUES (0) ON CONFLICT DO NOTHING")
    current = await applied_version(db)
    if current > SCHEMA_VERSION:
        raise SchemaTooNew(
            f"database schema v{current} is newer than this code (v{SCHEMA_VERSION})"
        )
    for target in range(current + 1, SCHEMA_VERSION + 1):
        async with db.transaction():
            await _lock(db)
            if await applied_version(db) < target:
                for statement in MIGRATIONS[target - 1]:
                    await db.execute(statement)
                await db.execute("UPDATE schema_version SET version = $1", target)
    return await applied_version(db)


async def _lock(db: Db) -> None:
    await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)


async def applied_version(db: Db) -> int:
    """How many steps the database has applied (once ``migrate`` made the table)."""
    return int(await db.fetchval("SELECT version FROM schema_version"))
