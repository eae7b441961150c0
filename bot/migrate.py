"""Moving up from SQLite to PostgreSQL:

    python -m bot migrate --from data/gamemaster.sqlite3 --to postgresql://user@host/db

Brings the SQLite file to the current schema, creates the same schema in the
PostgreSQL database (which must hold no table yet), copies every row of every
table (tables, seats, states, the action and event logs, deadlines, the outbox,
records, ratings, statistics, guild settings) in one transaction, moves the
id sequences past the copied ids, and checks that every table holds as many rows
as in the file, else nothing is kept. Stop the bot first; then set
``DATABASE_URL`` and start it: running games continue where they were, their
deadlines armed again at boot.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from .storage import postgres_schema
from .storage.sqlite import SqliteRepository

TABLES = (
    "guild_settings",
    "tables",
    "seats",
    "states",
    "actions",
    "events",
    "deadlines",
    "outbox",
    "game_records",
    "record_seats",
    "ratings",
    "record_stats",
)
"""Every table of the schema, each after the tables its rows refer to."""
SEQUENCES = (("tables", "id"), ("outbox", "id"))
"""The ids PostgreSQL assigns: their sequences continue after the copied ids."""


class MigrationRefused(Exception):
    """The move cannot be made (nothing was changed)."""


@dataclass(frozen=True)
class Column:
    name: str
    boolean: bool
    """PostgreSQL stores a flag as BOOLEAN where SQLite stores 0 or 1."""


async def migrate_database(source: Path, target: str) -> dict[str, int]:
    """Copies the SQLite database at ``source`` into the PostgreSQL database at
    ``target``; returns the rows copied per table. Raises MigrationRefused."""
    if not source.is_file():
        raise MigrationRefused(f"no SQLite database at {source}")
    repo = SqliteRepository(source)
    await repo.open()  # the file's own migrations first: both at the same version
    await repo.close()
    connection = await asyncpg.connect(target)
    try:
        await postgres_schema.migrate(connection)
        with closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as db:
            async with connection.transaction():
                await _refuse_unless_empty(connection)
                copied = {name: await _copy(db, connection, name) for name in TABLES}
                for table, column in SEQUENCES:
                    await _continue_sequence(connection, table, column)
                await _verify(connection, copied)
    finally:
        await connection.close()
    return copied


async def _refuse_unless_empty(connection: asyncpg.Connection) -> None:
    for name in TABLES:
        if await connection.fetchval(f"SELECT EXISTS (SELECT 1 FROM {name})"):
            raise MigrationRefused(f"the PostgreSQL database already has {name}: use an empty one")


async def _columns(connection: asyncpg.Connection, table: str) -> list[Column]:
    rows = await connection.fetch(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        table,
    )
    return [Column(row["column_name"], row["data_type"] == "boolean") for row in rows]


async def _copy(db: sqlite3.Connection, connection: asyncpg.Connection, table: str) -> int:
    columns = await _columns(connection, table)
    names = [column.name for column in columns]
    quoted = ", ".join(f'"{name}"' for name in names)
    rows = db.execute(f"SELECT {quoted} FROM {table}").fetchall()
    records = [_converted(row, columns) for row in rows]
    if records:
        await connection.copy_records_to_table(table, records=records, columns=names)
    return len(records)


def _converted(row: Sequence[Any], columns: Sequence[Column]) -> tuple[Any, ...]:
    return tuple(
        bool(value) if column.boolean and value is not None else value
        for value, column in zip(row, columns, strict=True)
    )


async def _continue_sequence(connection: asyncpg.Connection, table: str, column: str) -> None:
    await connection.execute(
        f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
        f" COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)"
    )


async def _verify(connection: asyncpg.Connection, copied: dict[str, int]) -> None:
    for name, count in copied.items():
        found = await connection.fetchval(f"SELECT COUNT(*) FROM {name}")
        if found != count:
            raise MigrationRefused(f"{name}: {found} rows in PostgreSQL, {count} in SQLite")


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot migrate", description="Copy a SQLite database into PostgreSQL."
    )
    parser.add_argument("--from", dest="source", type=Path, required=True, help="the SQLite file")
    parser.add_argument("--to", dest="target", required=True, help="postgresql://… (empty)")
    args = parser.parse_args(argv)
    if not str(args.target).startswith(("postgresql://", "postgres://")):
        parser.error("--to must be a postgresql:// URL")
    try:
        copied = asyncio.run(migrate_database(args.source, args.target))
    except (MigrationRefused, OSError, asyncpg.PostgresError) as error:
        print(f"Nothing was copied: {error}", file=sys.stderr)
        return 1
    for name, count in copied.items():
        print(f"{name:>14}: {count} rows")
    print("Copied and verified. Set DATABASE_URL to the PostgreSQL URL and start the bot.")
    return 0
