"""The SQLite implementation of :class:`~bot.storage.repository.Repository`.

One aiosqlite connection in autocommit mode; every write is an explicit
``BEGIN IMMEDIATE`` transaction. All statements of this object go through one
``asyncio.Lock``: reads too, because on a shared connection a read issued while
another coroutine's write transaction is half done would see its uncommitted
rows (aiosqlite runs every statement on the same thread, so the lock costs no
parallelism).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

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
    TableFull,
    UnknownTable,
    WrongStatus,
)
from .schema import migrate

Params = Sequence[Any]

_PRAGMAS = (
    "journal_mode = WAL",
    "synchronous = NORMAL",
    "busy_timeout = 5000",
    "foreign_keys = ON",
)
_OPEN_STATUSES = (TableStatus.LOBBY.value, TableStatus.RUNNING.value)
_CHANNEL_INDEX_ERROR = "tables.channel_id"
"""What SQLite names in the IntegrityError of the one-open-table-per-channel index."""

_TABLE_COLUMNS = (
    "id, guild_id, channel_id, game, status, creator_id, options_json, turn_timeout,"
    " reaction_timeout, choice_timeout, message_id, seed, rematch_of, created_at, updated_at,"
    " rendered_version, takeover, rendered_status"
)
_SEAT_COLUMNS = "table_id, seat, user_id, name, away_strikes, removed, computer"
_ACTION_COLUMNS = "table_id, version, kind, seat, user_id, choice_json, created_at"
_DEADLINE_COLUMNS = 'd.table_id, d."window", d.version, d.due_at'
_OUTBOX_COLUMNS = (
    "id, table_id, version, kind, target, content, embed_json, created_at, delivered_at"
)


class _CasFailed(Exception):
    """Internal: the compare-and-set lost; roll the transaction back."""


# --- rows -> records ---------------------------------------------------------


def _table(row: sqlite3.Row) -> TableRecord:
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
    )


def _seat(row: sqlite3.Row) -> SeatRecord:
    return SeatRecord(
        table_id=row["table_id"],
        seat=row["seat"],
        user_id=row["user_id"],
        name=row["name"],
        away_strikes=row["away_strikes"],
        removed=bool(row["removed"]),
        computer=row["computer"],
    )


def _action(row: sqlite3.Row) -> ActionRecord:
    return ActionRecord(
        table_id=row["table_id"],
        version=row["version"],
        kind=ActionKind(row["kind"]),
        seat=row["seat"],
        user_id=row["user_id"],
        choice_json=row["choice_json"],
        created_at=row["created_at"],
    )


def _event(row: sqlite3.Row) -> EventRecord:
    audience = row["audience_json"]
    return EventRecord(
        table_id=row["table_id"],
        version=row["version"],
        index=row["idx"],
        audience=None if audience is None else json.loads(audience),
        event_json=row["event_json"],
    )


def _deadline(row: sqlite3.Row) -> Deadline:
    return Deadline(
        table_id=row["table_id"], window=row["window"], version=row["version"], due_at=row["due_at"]
    )


def _outbox(row: sqlite3.Row) -> OutboxEntry:
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


def _guild_settings(row: sqlite3.Row) -> GuildSettings:
    return GuildSettings(
        guild_id=row["guild_id"],
        moderator_role_id=row["moderator_role_id"],
        turn_timeout=row["turn_timeout"],
        reaction_timeout=row["reaction_timeout"],
        choice_timeout=row["choice_timeout"],
    )


# --- validation --------------------------------------------------------------


def _check_action(action: ActionRecord, table_id: int, version: int) -> None:
    if action.table_id != table_id or action.version != version:
        raise ValueError(
            f"action is for table {action.table_id} v{action.version},"
            f" expected table {table_id} v{version}"
        )


def _check_events(events: Iterable[EventRecord], table_id: int, version: int) -> None:
    for event in events:
        if event.table_id != table_id or event.version != version:
            raise ValueError(
                f"event is for table {event.table_id} v{event.version},"
                f" expected table {table_id} v{version}"
            )


def _check_deadline(deadline: Deadline | None, table_id: int) -> None:
    if deadline is not None and deadline.table_id != table_id:
        raise ValueError(f"deadline is for table {deadline.table_id}, expected {table_id}")


def _check_outbox(entries: Iterable[OutboxEntry], table_id: int) -> None:
    for entry in entries:
        if entry.table_id != table_id:
            raise ValueError(f"outbox entry is for table {entry.table_id}, expected {table_id}")


def _is_channel_conflict(error: sqlite3.IntegrityError) -> bool:
    return _CHANNEL_INDEX_ERROR in str(error)


# --- the repository ----------------------------------------------------------


class SqliteRepository:
    """SQLite storage; ``path`` may be ``":memory:"`` for throwaway tests."""

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self._clock = clock
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    # --- connection ---

    async def open(self) -> None:
        """Connects, sets the pragmas and applies missing migrations. Idempotent."""
        async with self._lock:
            if self._db is None:
                self._db = await self._connect()

    async def _connect(self) -> aiosqlite.Connection:
        self._make_parent_folder()
        db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            for pragma in _PRAGMAS:
                await db.execute(f"PRAGMA {pragma}")
            await migrate(db)
        except BaseException:
            await db.close()
            raise
        return db

    async def close(self) -> None:
        async with self._lock:
            if self._db is not None:
                db, self._db = self._db, None
                await db.close()

    def _make_parent_folder(self) -> None:
        text = str(self.path)
        if text == ":memory:" or text.startswith("file:"):
            return
        Path(text).parent.mkdir(parents=True, exist_ok=True)

    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("repository is not open")
        return self._db

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction; any exception (or cancellation) rolls it back."""
        async with self._lock:
            db = self._conn()
            try:
                await db.execute("BEGIN IMMEDIATE")
                yield db
                await db.commit()
            except BaseException:
                # Always queued (a no-op outside a transaction), shielded: a cancelled
                # caller still gets its transaction rolled back before the next one,
                # queued behind it on the connection's thread, begins.
                await asyncio.shield(db.rollback())
                raise

    async def _fetch(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        async with self._lock:
            return list(await self._conn().execute_fetchall(sql, params))

    async def _fetch_one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        rows = await self._fetch(sql, params)
        return rows[0] if rows else None

    # --- tables ---

    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        creator_id: int,
        creator_name: str,
        options_json: str,
        timeouts: Timeouts,
        rematch_of: int | None = None,
        takeover: bool = True,
    ) -> TableRecord:
        now = self._clock()
        async with self._transaction() as db:
            try:
                cursor = await db.execute(
                    "INSERT INTO tables (guild_id, channel_id, game, status, creator_id,"
                    " options_json, turn_timeout, reaction_timeout, choice_timeout, rematch_of,"
                    " created_at, updated_at, takeover)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        game,
                        TableStatus.LOBBY.value,
                        creator_id,
                        options_json,
                        timeouts.turn,
                        timeouts.reaction,
                        timeouts.choice,
                        rematch_of,
                        now,
                        now,
                        int(takeover),
                    ),
                )
            except sqlite3.IntegrityError as error:
                await self._raise_if_channel_busy(db, error, channel_id)
                raise
            table_id = cursor.lastrowid
            assert table_id is not None
            await db.execute(
                "INSERT INTO seats (table_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                (table_id, creator_id, creator_name),
            )
        return TableRecord(
            id=table_id,
            guild_id=guild_id,
            channel_id=channel_id,
            game=game,
            status=TableStatus.LOBBY,
            creator_id=creator_id,
            options_json=options_json,
            timeouts=timeouts,
            rematch_of=rematch_of,
            created_at=now,
            updated_at=now,
            takeover=takeover,
        )

    async def get_table(self, table_id: int) -> TableRecord | None:
        row = await self._fetch_one(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
        )
        return None if row is None else _table(row)

    async def open_table_in_channel(self, channel_id: int) -> TableRecord | None:
        row = await self._fetch_one(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE channel_id = ? AND status IN (?, ?)",
            (channel_id, *_OPEN_STATUSES),
        )
        return None if row is None else _table(row)

    async def list_tables(
        self, guild_id: int, statuses: tuple[TableStatus, ...]
    ) -> list[TableRecord]:
        if not statuses:
            return []
        marks = ", ".join("?" for _ in statuses)
        rows = await self._fetch(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE guild_id = ? AND status IN ({marks})"
            " ORDER BY id",
            (guild_id, *(status.value for status in statuses)),
        )
        return [_table(row) for row in rows]

    async def running_tables(self) -> list[TableRecord]:
        rows = await self._fetch(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status = ? ORDER BY id",
            (TableStatus.RUNNING.value,),
        )
        return [_table(row) for row in rows]

    async def set_message(self, table_id: int, message_id: int) -> None:
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE tables SET message_id = ?, updated_at = ? WHERE id = ?",
                (message_id, self._clock(), table_id),
            )
            if cursor.rowcount == 0:
                raise UnknownTable(table_id)

    async def set_takeover(self, table_id: int, takeover: bool) -> None:
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE tables SET takeover = ?, updated_at = ? WHERE id = ?",
                (int(takeover), self._clock(), table_id),
            )
            if cursor.rowcount == 0:
                raise UnknownTable(table_id)

    async def mark_rendered(self, table_id: int, version: int | None, status: TableStatus) -> None:
        async with self._transaction() as db:
            await db.execute(
                "UPDATE tables SET rendered_version = ?, rendered_status = ? WHERE id = ?",
                (version, status.value, table_id),
            )

    async def tables_to_refresh(self) -> list[int]:
        rows = await self._fetch(
            """
            SELECT t.id FROM tables t LEFT JOIN states s ON s.table_id = t.id
            WHERE t.status = 'lobby'
               OR (t.status = 'running' AND t.message_id IS NULL)
               OR (t.message_id IS NOT NULL
                   AND (t.rendered_status IS NOT t.status
                        OR (s.version IS NOT NULL
                            AND (t.rendered_version IS NULL
                                 OR t.rendered_version < s.version))))
            ORDER BY t.id
            """
        )
        return [row["id"] for row in rows]

    async def tables_with_computers(self, away_after: int) -> list[int]:
        rows = await self._fetch(
            """
            SELECT DISTINCT t.id FROM tables t JOIN seats s ON s.table_id = t.id
            WHERE t.status = 'running' AND NOT s.removed
              AND (s.computer IS NOT NULL OR (t.takeover AND s.away_strikes >= ?))
            ORDER BY t.id
            """,
            (away_after,),
        )
        return [row["id"] for row in rows]

    async def set_status(self, table_id: int, status: TableStatus) -> None:
        """Also clears the deadline unless the new status is RUNNING. Raises
        ChannelBusy when reopening a table whose channel has another open one."""
        async with self._transaction() as db:
            await self._write_status(db, table_id, status)
            if status is not TableStatus.RUNNING:
                await self._write_deadline(db, table_id, None)

    async def _write_status(
        self, db: aiosqlite.Connection, table_id: int, status: TableStatus
    ) -> None:
        try:
            cursor = await db.execute(
                "UPDATE tables SET status = ?, updated_at = ? WHERE id = ?",
                (status.value, self._clock(), table_id),
            )
        except sqlite3.IntegrityError as error:
            channel = await self._channel_of(db, table_id)
            await self._raise_if_channel_busy(db, error, channel)
            raise
        if cursor.rowcount == 0:
            raise UnknownTable(table_id)

    async def _channel_of(self, db: aiosqlite.Connection, table_id: int) -> int:
        rows = list(
            await db.execute_fetchall("SELECT channel_id FROM tables WHERE id = ?", (table_id,))
        )
        if not rows:
            raise UnknownTable(table_id)
        return int(rows[0][0])

    @staticmethod
    async def _raise_if_channel_busy(
        db: aiosqlite.Connection, error: sqlite3.IntegrityError, channel_id: int
    ) -> None:
        if not _is_channel_conflict(error):
            return
        rows = list(
            await db.execute_fetchall(
                "SELECT id FROM tables WHERE channel_id = ? AND status IN (?, ?)",
                (channel_id, *_OPEN_STATUSES),
            )
        )
        raise ChannelBusy(int(rows[0][0]) if rows else -1) from error

    @staticmethod
    async def _status_of(db: aiosqlite.Connection, table_id: int) -> TableStatus:
        rows = list(
            await db.execute_fetchall("SELECT status FROM tables WHERE id = ?", (table_id,))
        )
        if not rows:
            raise UnknownTable(table_id)
        return TableStatus(rows[0][0])

    async def _require_lobby(self, db: aiosqlite.Connection, table_id: int) -> None:
        status = await self._status_of(db, table_id)
        if status is not TableStatus.LOBBY:
            raise WrongStatus(f"table {table_id} is {status.value}, not a lobby")

    # --- seats ---

    async def add_seat(
        self, table_id: int, user_id: int, name: str, max_seats: int, computer: str | None = None
    ) -> SeatRecord:
        async with self._transaction() as db:
            await self._require_lobby(db, table_id)
            rows = list(
                await db.execute_fetchall(
                    "SELECT COUNT(*), COALESCE(MAX(seat) + 1, 0), SUM(user_id = ?)"
                    " FROM seats WHERE table_id = ?",
                    (user_id, table_id),
                )
            )
            count, next_seat, already = rows[0]
            if already:
                raise AlreadySeated(f"user {user_id} is already seated at table {table_id}")
            if count >= max_seats:
                raise TableFull(f"table {table_id} has {count} of {max_seats} seats taken")
            await db.execute(
                "INSERT INTO seats (table_id, seat, user_id, name, computer)"
                " VALUES (?, ?, ?, ?, ?)",
                (table_id, next_seat, user_id, name, computer),
            )
        return SeatRecord(
            table_id=table_id, seat=next_seat, user_id=user_id, name=name, computer=computer
        )

    async def remove_seat(self, table_id: int, user_id: int) -> None:
        async with self._transaction() as db:
            await self._require_lobby(db, table_id)
            rows = list(
                await db.execute_fetchall(
                    "SELECT seat FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user_id)
                )
            )
            if not rows:
                raise NotSeated(f"user {user_id} is not seated at table {table_id}")
            seat = int(rows[0][0])
            await db.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat))
            # Two steps so no row ever collides with the (table_id, seat) key:
            # later seats go to -seat, then to -(-seat) - 1 = seat - 1.
            await db.execute(
                "UPDATE seats SET seat = -seat WHERE table_id = ? AND seat > ?", (table_id, seat)
            )
            await db.execute(
                "UPDATE seats SET seat = -seat - 1 WHERE table_id = ? AND seat < 0", (table_id,)
            )

    async def seats(self, table_id: int) -> list[SeatRecord]:
        rows = await self._fetch(
            f"SELECT {_SEAT_COLUMNS} FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
        )
        return [_seat(row) for row in rows]

    async def update_seat(
        self,
        table_id: int,
        seat: int,
        *,
        away_strikes: int | None = None,
        removed: bool | None = None,
    ) -> None:
        """Raises NotSeated when the seat does not exist."""
        changes: dict[str, int] = {}
        if away_strikes is not None:
            changes["away_strikes"] = away_strikes
        if removed is not None:
            changes["removed"] = int(removed)
        async with self._transaction() as db:
            if not changes:
                cursor = await db.execute(
                    "SELECT 1 FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat)
                )
                found = await cursor.fetchone() is not None
            else:
                assignments = ", ".join(f"{column} = ?" for column in changes)
                cursor = await db.execute(
                    f"UPDATE seats SET {assignments} WHERE table_id = ? AND seat = ?",
                    (*changes.values(), table_id, seat),
                )
                found = cursor.rowcount > 0
            if not found:
                raise NotSeated(f"table {table_id} has no seat {seat}")

    # --- game state ---

    async def start_game(
        self,
        table_id: int,
        *,
        seed: int,
        state_json: str,
        seat_order: list[int],
        action: ActionRecord,
        deadline: Deadline | None,
        outbox: Sequence[OutboxEntry] = (),
    ) -> StateRecord:
        _check_action(action, table_id, 0)
        _check_outbox(outbox, table_id)
        if action.kind is not ActionKind.START:
            raise ValueError(f"the first action must be START, not {action.kind.value}")
        _check_deadline(deadline, table_id)
        now = self._clock()
        async with self._transaction() as db:
            await self._require_lobby(db, table_id)
            await self._reorder_seats(db, table_id, seat_order)
            await db.execute(
                "INSERT INTO states (table_id, version, state_json, updated_at)"
                " VALUES (?, 0, ?, ?)",
                (table_id, state_json, now),
            )
            await self._insert_action(db, action)
            await self._write_deadline(db, table_id, deadline)
            await db.execute(
                "UPDATE tables SET status = ?, seed = ?, updated_at = ? WHERE id = ?",
                (TableStatus.RUNNING.value, seed, now, table_id),
            )
            await self._insert_outbox(db, outbox)
        return StateRecord(table_id=table_id, version=0, state_json=state_json)

    @staticmethod
    async def _reorder_seats(
        db: aiosqlite.Connection, table_id: int, seat_order: list[int]
    ) -> None:
        rows = await db.execute_fetchall(
            "SELECT user_id FROM seats WHERE table_id = ?", (table_id,)
        )
        seated = sorted(int(row[0]) for row in rows)
        if sorted(seat_order) != seated:
            raise ValueError(
                f"seat_order {seat_order} is not a permutation of the seated users {seated}"
            )
        # Out of the way first (negative seats), then each user to its new seat.
        await db.execute("UPDATE seats SET seat = -1 - seat WHERE table_id = ?", (table_id,))
        await db.executemany(
            "UPDATE seats SET seat = ? WHERE table_id = ? AND user_id = ?",
            [(seat, table_id, user_id) for seat, user_id in enumerate(seat_order)],
        )

    async def load_state(self, table_id: int) -> StateRecord | None:
        row = await self._fetch_one(
            "SELECT table_id, version, state_json FROM states WHERE table_id = ?", (table_id,)
        )
        if row is None:
            return None
        return StateRecord(
            table_id=row["table_id"], version=row["version"], state_json=row["state_json"]
        )

    async def commit(
        self,
        table_id: int,
        *,
        expected_version: int,
        state_json: str,
        action: ActionRecord,
        events: list[EventRecord],
        deadline: Deadline | None,
        status: TableStatus | None = None,
        removed_seat: int | None = None,
        strikes: Mapping[int, int] | None = None,
        outbox: Sequence[OutboxEntry] = (),
    ) -> bool:
        """Compare-and-set, see the protocol. Also returns False (changing nothing)
        when the table is not running, so a click that races a moderator's "end
        table" cannot write after it. A status other than RUNNING clears the
        deadline, as set_status does. Raises ValueError when the action or an event
        is not for ``(table_id, expected_version + 1)`` or the deadline is for
        another table."""
        version = expected_version + 1
        _check_action(action, table_id, version)
        _check_events(events, table_id, version)
        _check_deadline(deadline, table_id)
        _check_outbox(outbox, table_id)
        if status is not None and status is not TableStatus.RUNNING:
            deadline = None
        try:
            async with self._transaction() as db:
                await self._bump_state(db, table_id, expected_version, state_json)
                await self._insert_action(db, action)
                await self._insert_events(db, events)
                await self._write_deadline(db, table_id, deadline)
                if removed_seat is not None:
                    await self._mark_removed(db, table_id, removed_seat)
                await self._write_strikes(db, table_id, strikes or {})
                if status is not None:
                    await self._write_status(db, table_id, status)
                else:
                    await self._touch_table(db, table_id)
                await self._insert_outbox(db, outbox)
        except _CasFailed:
            return False
        return True

    async def end_table(
        self,
        table_id: int,
        *,
        expected_version: int | None,
        action: ActionRecord,
        outbox: Sequence[OutboxEntry] = (),
    ) -> bool:
        """See the protocol. Raises ValueError when the action is not an END for
        ``(table_id, 0 if expected_version is None else expected_version + 1)``."""
        _check_action(action, table_id, 0 if expected_version is None else expected_version + 1)
        if action.kind is not ActionKind.END:
            raise ValueError(f"ending a table writes an END action, not {action.kind.value}")
        try:
            async with self._transaction() as db:
                if expected_version is None:
                    await self._require_lobby_or_cas_fail(db, table_id)
                else:
                    await self._bump_state(db, table_id, expected_version, None)
                await self._insert_action(db, action)
                await self._write_deadline(db, table_id, None)
                await self._write_status(db, table_id, TableStatus.CANCELLED)
                await self._insert_outbox(db, outbox)
        except _CasFailed:
            return False
        return True

    async def announce(
        self,
        table_id: int,
        outbox: Sequence[OutboxEntry],
        *,
        strikes: Mapping[int, int] | None = None,
    ) -> None:
        _check_outbox(outbox, table_id)
        async with self._transaction() as db:
            await self._write_strikes(db, table_id, strikes or {})
            await self._insert_outbox(db, outbox)

    @staticmethod
    async def _write_strikes(
        db: aiosqlite.Connection, table_id: int, strikes: Mapping[int, int]
    ) -> None:
        for seat, count in strikes.items():
            cursor = await db.execute(
                "UPDATE seats SET away_strikes = ? WHERE table_id = ? AND seat = ?",
                (count, table_id, seat),
            )
            if cursor.rowcount == 0:
                raise NotSeated(f"table {table_id} has no seat {seat}")

    async def _insert_outbox(self, db: aiosqlite.Connection, outbox: Sequence[OutboxEntry]) -> None:
        if not outbox:
            return
        now = self._clock()
        await db.executemany(
            "INSERT INTO outbox (table_id, version, kind, target, content, embed_json,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (e.table_id, e.version, e.kind.value, e.target, e.content, e.embed_json, now)
                for e in outbox
            ],
        )

    # --- the outbox ---

    async def undelivered(self, table_id: int) -> list[OutboxEntry]:
        rows = await self._fetch(
            f"SELECT {_OUTBOX_COLUMNS} FROM outbox"
            " WHERE table_id = ? AND delivered_at IS NULL ORDER BY id",
            (table_id,),
        )
        return [_outbox(row) for row in rows]

    async def tables_with_undelivered(self) -> list[int]:
        rows = await self._fetch(
            "SELECT DISTINCT table_id FROM outbox WHERE delivered_at IS NULL ORDER BY table_id"
        )
        return [row["table_id"] for row in rows]

    async def mark_delivered(self, entry_id: int) -> None:
        async with self._transaction() as db:
            await db.execute(
                "UPDATE outbox SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL",
                (self._clock(), entry_id),
            )

    @staticmethod
    async def _require_lobby_or_cas_fail(db: aiosqlite.Connection, table_id: int) -> None:
        rows = list(
            await db.execute_fetchall(
                "SELECT 1 FROM tables WHERE id = ? AND status = ?",
                (table_id, TableStatus.LOBBY.value),
            )
        )
        if not rows:
            raise _CasFailed

    @staticmethod
    async def _mark_removed(db: aiosqlite.Connection, table_id: int, seat: int) -> None:
        cursor = await db.execute(
            "UPDATE seats SET removed = 1 WHERE table_id = ? AND seat = ?", (table_id, seat)
        )
        if cursor.rowcount == 0:
            raise NotSeated(f"table {table_id} has no seat {seat}")

    async def _bump_state(
        self,
        db: aiosqlite.Connection,
        table_id: int,
        expected_version: int,
        state_json: str | None,
    ) -> None:
        """The compare-and-set: the running table's state goes from
        ``expected_version`` to the next; ``state_json`` None keeps the state."""
        cursor = await db.execute(
            "UPDATE states SET version = ? + 1, state_json = COALESCE(?, state_json),"
            " updated_at = ?"
            " WHERE table_id = ? AND version = ?"
            " AND EXISTS (SELECT 1 FROM tables WHERE id = ? AND status = ?)",
            (
                expected_version,
                state_json,
                self._clock(),
                table_id,
                expected_version,
                table_id,
                TableStatus.RUNNING.value,
            ),
        )
        if cursor.rowcount == 0:
            raise _CasFailed

    async def _touch_table(self, db: aiosqlite.Connection, table_id: int) -> None:
        await db.execute("UPDATE tables SET updated_at = ? WHERE id = ?", (self._clock(), table_id))

    @staticmethod
    async def _insert_action(db: aiosqlite.Connection, action: ActionRecord) -> None:
        await db.execute(
            f"INSERT INTO actions ({_ACTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                action.table_id,
                action.version,
                action.kind.value,
                action.seat,
                action.user_id,
                action.choice_json,
                action.created_at,
            ),
        )

    @staticmethod
    async def _insert_events(db: aiosqlite.Connection, events: list[EventRecord]) -> None:
        if not events:
            return
        await db.executemany(
            "INSERT INTO events (table_id, version, idx, audience_json, event_json)"
            " VALUES (?, ?, ?, ?, ?)",
            [
                (
                    event.table_id,
                    event.version,
                    event.index,
                    None if event.audience is None else json.dumps(event.audience),
                    event.event_json,
                )
                for event in events
            ],
        )

    @staticmethod
    async def _write_deadline(
        db: aiosqlite.Connection, table_id: int, deadline: Deadline | None
    ) -> None:
        if deadline is None:
            await db.execute("DELETE FROM deadlines WHERE table_id = ?", (table_id,))
            return
        await db.execute(
            'INSERT OR REPLACE INTO deadlines (table_id, "window", version, due_at)'
            " VALUES (?, ?, ?, ?)",
            (table_id, deadline.window, deadline.version, deadline.due_at),
        )

    async def actions(self, table_id: int) -> list[ActionRecord]:
        rows = await self._fetch(
            f"SELECT {_ACTION_COLUMNS} FROM actions WHERE table_id = ? ORDER BY version",
            (table_id,),
        )
        return [_action(row) for row in rows]

    async def events(self, table_id: int, *, public_only: bool) -> list[EventRecord]:
        audience_filter = " AND audience_json IS NULL" if public_only else ""
        rows = await self._fetch(
            "SELECT table_id, version, idx, audience_json, event_json FROM events"
            f" WHERE table_id = ?{audience_filter} ORDER BY version, idx",
            (table_id,),
        )
        return [_event(row) for row in rows]

    # --- deadlines ---

    async def deadlines(self) -> list[Deadline]:
        rows = await self._fetch(
            f"SELECT {_DEADLINE_COLUMNS} FROM deadlines AS d JOIN tables AS t ON t.id = d.table_id"
            " WHERE t.status = ? ORDER BY d.due_at, d.table_id",
            (TableStatus.RUNNING.value,),
        )
        return [_deadline(row) for row in rows]

    async def deadline(self, table_id: int) -> Deadline | None:
        row = await self._fetch_one(
            f"SELECT {_DEADLINE_COLUMNS} FROM deadlines AS d WHERE d.table_id = ?", (table_id,)
        )
        return None if row is None else _deadline(row)

    # --- guild settings ---

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self._fetch_one(
            "SELECT guild_id, moderator_role_id, turn_timeout, reaction_timeout, choice_timeout"
            " FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        return GuildSettings(guild_id=guild_id) if row is None else _guild_settings(row)

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, moderator_role_id, turn_timeout,"
                " reaction_timeout, choice_timeout) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET"
                " moderator_role_id = excluded.moderator_role_id,"
                " turn_timeout = excluded.turn_timeout,"
                " reaction_timeout = excluded.reaction_timeout,"
                " choice_timeout = excluded.choice_timeout",
                (
                    settings.guild_id,
                    settings.moderator_role_id,
                    settings.turn_timeout,
                    settings.reaction_timeout,
                    settings.choice_timeout,
                ),
            )


def _implements_repository(repo: SqliteRepository) -> Repository:
    """Never called: makes mypy check that the class matches the protocol."""
    return repo
