"""What every storage backend shares and no SQL is part of: the checks a call's
arguments must pass before anything is written, and the records built from a
row's values by column name (an ``sqlite3.Row`` and an ``asyncpg.Record`` both
read that way)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Protocol

from .models import (
    ActionKind,
    ActionRecord,
    Deadline,
    EventRecord,
    GameOutcome,
    GameRecord,
    GuildSettings,
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

OPEN_STATUSES = (TableStatus.LOBBY.value, TableStatus.RUNNING.value)


def in_shards(shards: Shards | None, guild_column: str) -> str:
    """The one SQL condition both backends share (SQLite and PostgreSQL read it
    alike): the row's guild is served by ``shards`` (always true unsharded).
    Built from validated integers, never from input."""
    if shards is None:
        return "1 = 1"
    ids = ", ".join(str(int(shard)) for shard in shards.ids)
    return f"(({guild_column} >> 22) % {int(shards.count)}) IN ({ids})"


"""A lobby or a running game: at most one per channel."""


class Row(Protocol):
    """A result row whose values are read by column name."""

    def __getitem__(self, key: str, /) -> Any: ...


class CasFailed(Exception):
    """A compare-and-set lost: the backend rolls its transaction back, the call
    returns False."""


# --- checks of the arguments -------------------------------------------------


def check_action(action: ActionRecord, table_id: int, version: int) -> None:
    if action.table_id != table_id or action.version != version:
        raise ValueError(
            f"action is for table {action.table_id} v{action.version},"
            f" expected table {table_id} v{version}"
        )


def check_events(events: Iterable[EventRecord], table_id: int, version: int) -> None:
    for event in events:
        if event.table_id != table_id or event.version != version:
            raise ValueError(
                f"event is for table {event.table_id} v{event.version},"
                f" expected table {table_id} v{version}"
            )


def check_deadline(deadline: Deadline | None, table_id: int) -> None:
    if deadline is not None and deadline.table_id != table_id:
        raise ValueError(f"deadline is for table {deadline.table_id}, expected {table_id}")


def check_record(record: GameRecord | None, table_id: int) -> None:
    if record is not None and record.table_id != table_id:
        raise ValueError(f"the record of table {record.table_id} is not for table {table_id}")


def check_outbox(entries: Iterable[OutboxEntry], table_id: int) -> None:
    for entry in entries:
        if entry.table_id != table_id:
            raise ValueError(f"outbox entry is for table {entry.table_id}, expected {table_id}")


def check_start(
    table_id: int, action: ActionRecord, deadline: Deadline | None, outbox: Iterable[OutboxEntry]
) -> None:
    """``start_game``'s arguments: a START action at version 0, all for the table."""
    check_action(action, table_id, 0)
    check_outbox(outbox, table_id)
    if action.kind is not ActionKind.START:
        raise ValueError(f"the first action must be START, not {action.kind.value}")
    check_deadline(deadline, table_id)


def check_end(
    table_id: int, expected_version: int | None, action: ActionRecord, record: GameRecord | None
) -> None:
    """``end_table``'s arguments: an END action at the version it writes."""
    check_action(action, table_id, 0 if expected_version is None else expected_version + 1)
    if action.kind is not ActionKind.END:
        raise ValueError(f"ending a table writes an END action, not {action.kind.value}")
    check_record(record, table_id)


def check_seat_order(seat_order: list[int], seated: Iterable[int]) -> None:
    users = sorted(seated)
    if sorted(seat_order) != users:
        raise ValueError(
            f"seat_order {seat_order} is not a permutation of the seated users {users}"
        )


# --- rows -> records -----------------------------------------------------------


def table_from(row: Row) -> TableRecord:
    return TableRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        status=TableStatus(row["status"]),
        creator_id=row["creator_id"],
        options_json=row["options_json"],
        timeouts=Timeouts(
            turn=row["turn_timeout"], reaction=row["reaction_timeout"], choice=row["choice_timeout"]
        ),
        message_id=row["message_id"],
        seed=row["seed"],
        rematch_of=row["rematch_of"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        rendered_version=row["rendered_version"],
        takeover=bool(row["takeover"]),
        rendered_status=None if row["rendered_status"] is None else row["rendered_status"],
        language=row["language"],
        hidden=bool(row["hidden"]),
        computer_level=row["computer_level"],
    )


def seat_from(row: Row) -> SeatRecord:
    return SeatRecord(
        table_id=row["table_id"],
        seat=row["seat"],
        user_id=row["user_id"],
        name=row["name"],
        away_strikes=row["away_strikes"],
        removed=bool(row["removed"]),
        computer=row["computer"],
        locale=row["locale"],
    )


def action_from(row: Row) -> ActionRecord:
    return ActionRecord(
        table_id=row["table_id"],
        version=row["version"],
        kind=ActionKind(row["kind"]),
        seat=row["seat"],
        user_id=row["user_id"],
        choice_json=row["choice_json"],
        created_at=row["created_at"],
    )


def event_from(row: Row) -> EventRecord:
    audience = row["audience_json"]
    return EventRecord(
        table_id=row["table_id"],
        version=row["version"],
        index=row["idx"],
        audience=None if audience is None else json.loads(audience),
        event_json=row["event_json"],
    )


def audience_json(event: EventRecord) -> str | None:
    """How an event's audience is stored (None: public)."""
    return None if event.audience is None else json.dumps(event.audience)


def deadline_from(row: Row) -> Deadline:
    return Deadline(
        table_id=row["table_id"], window=row["window"], version=row["version"], due_at=row["due_at"]
    )


def outbox_from(row: Row) -> OutboxEntry:
    return OutboxEntry(
        id=row["id"],
        table_id=row["table_id"],
        version=row["version"],
        kind=OutboxKind(row["kind"]),
        target=row["target"],
        content=row["content"],
        embed_json=row["embed_json"],
        created_at=row["created_at"],
        delivered_at=row["delivered_at"],
    )


def game_record_from(row: Row) -> GameRecord:
    """A record without its seats (read apart)."""
    return GameRecord(
        table_id=row["table_id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        options_json=row["options_json"],
        outcome=GameOutcome(row["outcome"]),
        started_at=row["started_at"],
        ended_at=row["ended_at"],
        steps=row["steps"],
        seats=[],
    )


def record_seat_from(row: Row) -> RecordSeat:
    return RecordSeat(
        seat=row["seat"],
        user_id=row["user_id"],
        name=row["name"],
        computer=row["computer"],
        removed=bool(row["removed"]),
        winner=bool(row["winner"]),
        score=row["score"],
    )


def result_from(row: Row) -> PlayerResult:
    return PlayerResult(
        table_id=row["table_id"],
        game=row["game"],
        ended_at=row["ended_at"],
        winner=bool(row["winner"]),
    )


def skill_from(row: Row) -> Skill:
    return Skill(mu=row["mu"], sigma=row["sigma"], games=row["games"], wins=row["wins"])


def standing_from(row: Row) -> Standing:
    return Standing(user_id=row["user_id"], rank=row["rank"], skill=skill_from(row))


def settings_from(row: Row) -> GuildSettings:
    return GuildSettings(
        guild_id=row["guild_id"],
        moderator_role_id=row["moderator_role_id"],
        turn_timeout=row["turn_timeout"],
        reaction_timeout=row["reaction_timeout"],
        choice_timeout=row["choice_timeout"],
        language=row["language"],
    )


def state_from(row: Row) -> StateRecord:
    return StateRecord(
        table_id=row["table_id"], version=row["version"], state_json=row["state_json"]
    )
