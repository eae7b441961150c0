"""Storage: the repository interface, its records and the SQLite backend."""

from .models import (
    ActionKind,
    ActionRecord,
    Deadline,
    EventRecord,
    GuildSettings,
    OutboxEntry,
    OutboxKind,
    SeatRecord,
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

__all__ = [
    "ActionKind",
    "ActionRecord",
    "AlreadySeated",
    "ChannelBusy",
    "Deadline",
    "EventRecord",
    "GuildSettings",
    "NotSeated",
    "OutboxEntry",
    "OutboxKind",
    "Repository",
    "SeatRecord",
    "SqliteRepository",
    "StateRecord",
    "StorageError",
    "TableFull",
    "TableRecord",
    "TableStatus",
    "Timeouts",
    "UnknownTable",
    "WrongStatus",
]
