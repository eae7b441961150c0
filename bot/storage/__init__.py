"""Storage: the repository interface, its records and its backends (SQLite, the
embedded default; PostgreSQL, for processes sharing one database)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .models import (
    ActionKind,
    ActionRecord,
    Claim,
    Deadline,
    EventRecord,
    GameOutcome,
    GameRecord,
    GuildSettings,
    OutboxClaim,
    OutboxEntry,
    OutboxKind,
    PlayerResult,
    RecordSeat,
    SeatRecord,
    Shards,
    Skill,
    Standing,
    StateRecord,
    TableRecord,
    TableStatus,
    Timeouts,
)
from .repository import (
    AlreadySeated,
    ChannelBusy,
    NotSeated,
    Repository,
    StorageError,
    TableFull,
    UnknownTable,
    WrongStatus,
)
from .sqlite import SqliteRepository

if TYPE_CHECKING:
    from bot.config import Settings

__all__ = [
    "ActionKind",
    "ActionRecord",
    "AlreadySeated",
    "ChannelBusy",
    "Claim",
    "Deadline",
    "EventRecord",
    "GameOutcome",
    "GameRecord",
    "GuildSettings",
    "NotSeated",
    "OutboxClaim",
    "OutboxEntry",
    "OutboxKind",
    "PlayerResult",
    "RecordSeat",
    "Repository",
    "SeatRecord",
    "Shards",
    "Skill",
    "SqliteRepository",
    "Standing",
    "StateRecord",
    "StorageError",
    "TableFull",
    "TableRecord",
    "TableStatus",
    "Timeouts",
    "UnknownTable",
    "WrongStatus",
    "repository_for",
]


def repository_for(settings: Settings) -> Repository:
    """The repository the settings name, not opened yet: PostgreSQL at
    ``database_url`` when it is set, else SQLite at ``database_path``; about the
    guilds of the process's shards."""
    if settings.database_url is not None:
        from .postgres import PostgresRepository  # asyncpg only where it is used

        dsn = settings.database_url.get_secret_value()
        return PostgresRepository(dsn, shards=settings.shards)
    return SqliteRepository(settings.database_path, shards=settings.shards)
