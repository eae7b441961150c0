"""The SQLite schema as an ordered list of migration steps.

``PRAGMA user_version`` holds how many steps a database file has applied. Each
step is a list of SQL statements run in one transaction together with the
version bump, so a crash mid-migration leaves the file at the previous version.
Never edit a released step: append a new one.
"""

from __future__ import annotations

import sqlite3

Migration = tuple[str, ...]

MIGRATIONS: tuple[Migration, ...] = (
    # 1: initial schema
    (
        """
        CREATE TABLE guild_settings (
            guild_id          INTEGER PRIMARY KEY,
            moderator_role_id INTEGER,
            turn_timeout      INTEGER,
            reaction_timeout  INTEGER,
            choice_timeout    INTEGER
        )
        """,
        """
        CREATE TABLE tables (
            id               INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id         INTEGER NOT NULL,
            channel_id       INTEGER NOT NULL,
            game             TEXT    NOT NULL,
            status           TEXT    NOT NULL
                CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
            creator_id       INTEGER NOT NULL,
            options_json     TEXT    NOT NULL,
            turn_timeout     INTEGER NOT NULL,
            reaction_timeout INTEGER NOT NULL,
            choice_timeout   INTEGER NOT NULL,
            message_id       INTEGER,
            seed             INTEGER,
            rematch_of       INTEGER REFERENCES tables (id) ON DELETE SET NULL,
            created_at       REAL    NOT NULL,
            updated_at       REAL    NOT NULL
        )
        """,
        # At most one open table per channel; the IntegrityError becomes ChannelBusy.
        """
        CREATE UNIQUE INDEX tables_one_open_per_channel
            ON tables (channel_id) WHERE status IN ('lobby', 'running')
        """,
        "CREATE INDEX tables_by_guild_status ON tables (guild_id, status)",
        "CREATE INDEX tables_by_status ON tables (status)",
        """
        CREATE TABLE seats (
            table_id     INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            seat         INTEGER NOT NULL,
            user_id      INTEGER NOT NULL,
            name         TEXT    NOT NULL,
            away_strikes INTEGER NOT NULL DEFAULT 0,
            removed      INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (table_id, seat),
            UNIQUE (table_id, user_id)
        )
        """,
        """
        CREATE TABLE states (
            table_id   INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
            version    INTEGER NOT NULL,
            state_json TEXT    NOT NULL,
            updated_at REAL    NOT NULL
        )
        """,
        """
        CREATE TABLE actions (
            table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            version     INTEGER NOT NULL,
            kind        TEXT    NOT NULL,
            seat        INTEGER,
            user_id     INTEGER,
            choice_json TEXT,
            created_at  REAL    NOT NULL,
            PRIMARY KEY (table_id, version)
        )
        """,
        """
        CREATE TABLE events (
            table_id      INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            version       INTEGER NOT NULL,
            idx           INTEGER NOT NULL,
            audience_json TEXT,
            event_json    TEXT    NOT NULL,
            PRIMARY KEY (table_id, version, idx)
        )
        """,
        """
        CREATE TABLE deadlines (
            table_id INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
            "window" TEXT    NOT NULL,
            version  INTEGER NOT NULL,
            due_at   REAL    NOT NULL
        )
        """,
        "CREATE INDEX deadlines_by_due_at ON deadlines (due_at)",
    ),
    # 2: which state version each table message shows (boot refreshes only stale ones)
    ("ALTER TABLE tables ADD COLUMN rendered_version INTEGER",),
    # 3: computer players (a seat's level) and the take-over of away players
    (
        "ALTER TABLE seats ADD COLUMN computer TEXT",
        "ALTER TABLE tables ADD COLUMN takeover INTEGER NOT NULL DEFAULT 1",
    ),
    # 4: the outbox (what a step owes people, written with the step) and the status
    # each table message shows
    (
        """
        CREATE TABLE outbox (
            id           INTEGER PRIMARY KEY AUTOINCREMENT,
            table_id     INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            version      INTEGER,
            kind         TEXT    NOT NULL CHECK (kind IN ('post', 'dm')),
            target       INTEGER NOT NULL,
            content      TEXT    NOT NULL,
            embed_json   TEXT,
            created_at   REAL    NOT NULL,
            delivered_at REAL
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
               OR updated_at < CAST(strftime('%s', 'now') AS REAL) - 86400)
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
            table_id     INTEGER PRIMARY KEY,
            guild_id     INTEGER NOT NULL,
            channel_id   INTEGER NOT NULL,
            game         TEXT    NOT NULL,
            options_json TEXT    NOT NULL,
            outcome      TEXT    NOT NULL CHECK (outcome IN ('finished', 'ended')),
            started_at   REAL,
            ended_at     REAL    NOT NULL,
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
            table_id INTEGER NOT NULL REFERENCES game_records (table_id),
            seat     INTEGER NOT NULL,
            user_id  INTEGER NOT NULL,
            name     TEXT    NOT NULL,
            computer TEXT,
            removed  INTEGER NOT NULL,
            winner   INTEGER NOT NULL,
            score    INTEGER,
            PRIMARY KEY (table_id, seat)
        )
        """,
        "CREATE INDEX record_seats_by_user ON record_seats (user_id, table_id)",
        """
        CREATE TABLE ratings (
            guild_id INTEGER NOT NULL,
            game     TEXT    NOT NULL,
            user_id  INTEGER NOT NULL,
            mu       REAL    NOT NULL,
            sigma    REAL    NOT NULL,
            ordinal  REAL    NOT NULL,
            games    INTEGER NOT NULL,
            wins     INTEGER NOT NULL,
            PRIMARY KEY (guild_id, game, user_id)
        )
        """,
        "CREATE INDEX ratings_by_rank ON ratings (guild_id, game, ordinal DESC)",
    ),
    # 7: a table hidden from non-players while its game runs (spectators)
    ("ALTER TABLE tables ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0",),
    # 8: each record seat's game statistics (Complots bluffs), computed after the
    # game is over from its replay (bot.records), off the step that ended it
    (
        """
        CREATE TABLE record_stats (
            table_id INTEGER NOT NULL REFERENCES game_records (table_id),
            seat     INTEGER NOT NULL,
            stat     TEXT    NOT NULL,
            value    INTEGER NOT NULL,
            PRIMARY KEY (table_id, seat, stat)
        )
        """,
        "ALTER TABLE game_records ADD COLUMN stats_done INTEGER NOT NULL DEFAULT 0",
        """
        CREATE INDEX game_records_awaiting_stats
        ON game_records (ended_at, table_id) WHERE stats_done = 0
        """,
    ),
    # 9: claims, so one process alone fires a deadline or delivers a table's outbox
    # (several processes on one database); a claim runs out if its process dies
    (
        "ALTER TABLE deadlines ADD COLUMN claimed_by TEXT",
        "ALTER TABLE deadlines ADD COLUMN claimed_until REAL",
        "ALTER TABLE outbox ADD COLUMN claimed_by TEXT",
        "ALTER TABLE outbox ADD COLUMN claimed_until REAL",
    ),
    # 10: the level of the table's computer players (added ones, and take-over)
    ("ALTER TABLE tables ADD COLUMN computer_level TEXT NOT NULL DEFAULT 'normal'",),
    # 11: each player's DM channel with the bot, so a restarted bot does not open
    # them again (a REST call each, against the bot's rate limit)
    (
        """
        CREATE TABLE dm_channels (
            user_id    INTEGER PRIMARY KEY,
            channel_id INTEGER NOT NULL
        )
        """,
    ),
)

SCHEMA_VERSION = len(MIGRATIONS)


class SchemaTooNew(RuntimeError):
    """The database was written by a newer version of the bot."""


def user_version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection) -> int:
    """Applies the missing steps, one transaction each; returns the final version.

    ``db`` must be in autocommit mode (``isolation_level=None``); this runs where
    the connection lives (the repository's database thread). The version is
    re-read inside each write transaction, so two processes opening the same file
    at once do not apply a step twice."""
    current = user_version(db)
    if current > SCHEMA_VERSION:
        raise SchemaTooNew(
            f"database schema v{current} is newer than this code (v{SCHEMA_VERSION})"
        )
    for target in range(current + 1, SCHEMA_VERSION + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            if user_version(db) < target:
                for statement in MIGRATIONS[target - 1]:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {target:d}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    return user_version(db)
