"""The PostgreSQL implementation of :class:`~bot.storage.repository.Repository`,
for deployments where several bot processes (shards) share one database.

asyncpg and a small pool of connections. Every method is one statement or one
transaction, and a write transaction runs to its end even when its caller is
cancelled (as SQLite's units of work do): its outcome is then discarded.

Several processes, one database: PostgreSQL runs transactions side by side, so
what SQLite gets from its single writer is made explicit here.

- A write about one table first locks that table's row (``FOR UPDATE``), so the
  writes of one table happen one at a time, in every process: seat numbers, the
  action log and the outbox order stay as one writer would leave them, and a
  step racing a moderator's "end" sees the status the other one wrote.
- The compare-and-set is the version in ``states``: the update that moves it
  matches ``expected_version`` or changes nothing, and the whole transaction is
  rolled back.
- The ratings of one guild's game are read and written under an advisory lock of
  their own, so two games ending at once both count.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import asyncpg

from .common import (
    OPEN_STATUSES,
    CasFailed,
    Row,
    action_from,
    audience_json,
    check_action,
    check_deadline,
    check_end,
    check_events,
    check_outbox,
    check_record,
    check_seat_order,
    check_start,
    deadline_from,
    event_from,
    game_record_from,
    in_shards,
    outbox_from,
    record_seat_from,
    result_from,
    seat_from,
    settings_from,
    skill_from,
    standing_from,
    state_from,
    table_from,
)
from .models import (
    ActionRecord,
    Claim,
    Deadline,
    EventRecord,
    GameRecord,
    GuildSettings,
    OutboxClaim,
    OutboxEntry,
    PlayerResult,
    SeatRecord,
    Shards,
    Skill,
    Standing,
    StateRecord,
    TableRecord,
    TableStatus,
    Timeouts,
)
from .postgres_schema import migrate
from .ratings import rate, rated_seats
from .ratings import replay as replay_ratings
from .repository import (
    AlreadySeated,
    ChannelBusy,
    NotSeated,
    Repository,
    TableFull,
    UnknownTable,
    WrongStatus,
)

if TYPE_CHECKING:
    from .postgres_schema import Db

T = TypeVar("T")

POOL_SIZE = 4
"""Connections at most per repository (one process): the steps of different tables
run side by side, a few at a time."""

_CHANNEL_INDEX = "tables_one_open_per_channel"
"""The unique index whose violation means ChannelBusy."""

# --- the SQL -------------------------------------------------------------------

_TABLE_COLUMNS = (
    "id, guild_id, channel_id, game, status, creator_id, options_json, turn_timeout,"
    " reaction_timeout, choice_timeout, message_id, seed, rematch_of, created_at, updated_at,"
    " rendered_version, takeover, rendered_status, language, hidden, computer_level"
)
_SEAT_COLUMNS = "table_id, seat, user_id, name, away_strikes, removed, computer, locale"
_ACTION_COLUMNS = "table_id, version, kind, seat, user_id, choice_json, created_at"
_EVENT_COLUMNS = "table_id, version, idx, audience_json, event_json"
_DEADLINE_COLUMNS = 'd.table_id, d."window", d.version, d.due_at'
_RECORD_COLUMNS = (
    "table_id, guild_id, channel_id, game, options_json, outcome, started_at, ended_at, steps"
)
_RECORD_SEAT_COLUMNS = "table_id, seat, user_id, name, computer, removed, winner, score"
_RATING_COLUMNS = "guild_id, game, user_id, mu, sigma, ordinal, games, wins"
_OUTBOX_COLUMNS = (
    "id, table_id, version, kind, target, content, embed_json, created_at, delivered_at"
)
_SETTINGS_COLUMNS = (
    "guild_id, moderator_role_id, turn_timeout, reaction_timeout, choice_timeout, language"
)

_LOCK_TABLE = "SELECT status FROM tables WHERE id = $1 FOR UPDATE"
_INSERT_TABLE = f"""
    INSERT INTO tables (guild_id, channel_id, game, status, creator_id, options_json,
                        turn_timeout, reaction_timeout, choice_timeout, rematch_of,
                        created_at, updated_at, takeover, language, hidden, computer_level)
    VALUES ($1, $2, $3, 'lobby', $4, $5, $6, $7, $8, $9, $10, $10, $11, $12, $13, $14)
    RETURNING {_TABLE_COLUMNS}
"""
_OPEN_TABLE_IN_CHANNEL = (
    f"SELECT {_TABLE_COLUMNS} FROM tables WHERE channel_id = $1 AND status = ANY($2::text[])"
)
_OTHER_OPEN_TABLE = """
    SELECT other.id FROM tables AS t
    JOIN tables AS other ON other.channel_id = t.channel_id AND other.id <> t.id
    WHERE t.id = $1 AND other.status IN ('lobby', 'running')
"""
# The boot queries: {mine} is the condition of the process's guilds (in_shards).
_RUNNING_TABLES = f"""
    SELECT {_TABLE_COLUMNS} FROM tables AS t WHERE status = 'running' AND {{mine}} ORDER BY id
"""
_TABLES_TO_REFRESH = """
    SELECT t.id FROM tables t LEFT JOIN states s ON s.table_id = t.id
    WHERE {mine}
      AND (t.status = 'lobby'
           OR (t.status = 'running' AND t.message_id IS NULL)
           OR (t.message_id IS NOT NULL
               AND (t.rendered_status IS DISTINCT FROM t.status
                    OR (s.version IS NOT NULL
                        AND (t.rendered_version IS NULL OR t.rendered_version < s.version)))))
    ORDER BY t.id
"""
_TABLES_WITH_COMPUTERS = """
    SELECT DISTINCT t.id FROM tables t JOIN seats s ON s.table_id = t.id
    WHERE t.status = 'running' AND NOT s.removed AND {mine}
      AND (s.computer IS NOT NULL OR (t.takeover AND s.away_strikes >= $1))
    ORDER BY t.id
"""
_TABLES_WITH_UNDELIVERED = """
    SELECT DISTINCT o.table_id FROM outbox AS o JOIN tables AS t ON t.id = o.table_id
    WHERE o.delivered_at IS NULL AND {mine} ORDER BY o.table_id
"""
_DEADLINES = f"""
    SELECT {_DEADLINE_COLUMNS} FROM deadlines AS d JOIN tables AS t ON t.id = d.table_id
    WHERE t.status = 'running' AND {{mine}} ORDER BY d.due_at, d.table_id
"""
_RECORDS_AWAITING_STATS = """
    SELECT table_id FROM game_records AS t
    WHERE NOT stats_done AND {mine} ORDER BY ended_at, table_id LIMIT $1
"""
_SEAT_COUNTS = """
    SELECT COUNT(*) AS taken, COALESCE(MAX(seat) + 1, 0) AS next_seat,
           COALESCE(BOOL_OR(user_id = $2), FALSE) AS already
    FROM seats WHERE table_id = $1
"""
_INSERT_SEAT = f"""
    INSERT INTO seats (table_id, seat, user_id, name, computer, locale)
    VALUES ($1, $2, $3, $4, $5, $6)
    RETURNING {_SEAT_COLUMNS}
"""
_BUMP_STATE = """
    UPDATE states SET version = $2 + 1, state_json = COALESCE($3, state_json), updated_at = $4
    WHERE table_id = $1 AND version = $2
"""
_INSERT_ACTION = f"INSERT INTO actions ({_ACTION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)"
_INSERT_EVENT = f"INSERT INTO events ({_EVENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5)"
_WRITE_DEADLINE = """
    INSERT INTO deadlines (table_id, "window", version, due_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (table_id) DO UPDATE
    SET "window" = EXCLUDED."window", version = EXCLUDED.version, due_at = EXCLUDED.due_at,
        claimed_by = NULL, claimed_until = NULL
"""
_INSERT_OUTBOX = """
    INSERT INTO outbox (table_id, version, kind, target, content, embed_json, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7)
"""
_INSERT_RECORD = """
    INSERT INTO game_records (table_id, guild_id, channel_id, game, options_json, outcome,
                              started_at, ended_at, steps)
    VALUES ($1, $2, $3, $4, $5, $6,
            (SELECT created_at FROM actions WHERE table_id = $1 AND kind = 'start'), $7, $8)
    ON CONFLICT (table_id) DO NOTHING
    RETURNING table_id
"""
_INSERT_RECORD_SEAT = (
    f"INSERT INTO record_seats ({_RECORD_SEAT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
)
_RATINGS_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('ratings:' || $1 || ':' || $2, 0))"
_WRITE_RATING = f"""
    INSERT INTO ratings ({_RATING_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
    ON CONFLICT (guild_id, game, user_id) DO UPDATE
    SET mu = EXCLUDED.mu, sigma = EXCLUDED.sigma, ordinal = EXCLUDED.ordinal,
        games = EXCLUDED.games, wins = EXCLUDED.wins
"""
_RANKED_RATINGS = f"""
    SELECT {_RATING_COLUMNS},
           (SELECT COUNT(*) FROM ratings AS better
            WHERE better.guild_id = r.guild_id AND better.game = r.game
              AND better.ordinal > r.ordinal) + 1 AS rank
    FROM ratings AS r WHERE guild_id = $1 AND game = $2
"""
_RESULTS_OF = """
    SELECT r.table_id, r.game, r.ended_at, s.winner
    FROM record_seats AS s JOIN game_records AS r USING (table_id)
    WHERE s.user_id = $2 AND r.guild_id = $1 AND r.outcome = 'finished'
    ORDER BY r.ended_at, r.table_id
"""
_UNRECORDED_GAMES = """
    SELECT t.id FROM tables AS t JOIN states AS s ON s.table_id = t.id
    WHERE t.status IN ('finished', 'cancelled') AND {mine}
      AND NOT EXISTS (SELECT 1 FROM game_records AS r WHERE r.table_id = t.id)
    ORDER BY t.updated_at, t.id
"""
_STAT_TOTALS = """
    SELECT st.stat, SUM(st.value) AS total
    FROM record_seats AS s JOIN game_records AS r USING (table_id)
    JOIN record_stats AS st ON st.table_id = s.table_id AND st.seat = s.seat
    WHERE s.user_id = $2 AND r.guild_id = $1 AND r.game = $3 AND r.outcome = 'finished'
    GROUP BY st.stat
"""
_LAST_EVENTS = f"""
    SELECT * FROM (
        SELECT {_EVENT_COLUMNS} FROM events
        WHERE table_id = $1 AND (audience_json IS NULL OR NOT $2)
        ORDER BY version DESC, idx DESC LIMIT $3
    ) AS last_ones
    ORDER BY version, idx
"""
_SAVE_SETTINGS = f"""
    INSERT INTO guild_settings ({_SETTINGS_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (guild_id) DO UPDATE
    SET moderator_role_id = EXCLUDED.moderator_role_id,
        turn_timeout = EXCLUDED.turn_timeout,
        reaction_timeout = EXCLUDED.reaction_timeout,
        choice_timeout = EXCLUDED.choice_timeout,
        language = EXCLUDED.language
"""


class _ChannelTaken(Exception):
    """Internal: the one-open-table-per-channel index refused a write, opening a
    table in ``channel_id`` or reopening table ``table_id``. The repository looks up
    the open table once the transaction is rolled back."""

    def __init__(self, *, channel_id: int | None = None, table_id: int | None = None) -> None:
        super().__init__(channel_id, table_id)
        self.channel_id = channel_id
        self.table_id = table_id


def _entry_id(entry: OutboxEntry) -> int:
    assert entry.id is not None
    return entry.id


def _first(row: Row) -> int:
    return int(row["id"])


def _table_id(row: Row) -> int:
    return int(row["table_id"])


def _channel_id(row: Row) -> int:
    return int(row["channel_id"])


def _changed(status: str) -> int:
    """Rows an INSERT, UPDATE or DELETE changed, from its command tag."""
    return int(status.rsplit(" ", 1)[-1])


# --- the repository ----------------------------------------------------------


class PostgresRepository:
    """PostgreSQL storage at ``dsn`` (``postgresql://user:password@host:port/db``)."""

    def __init__(
        self,
        dsn: str,
        *,
        clock: Callable[[], float] = time.time,
        pool_size: int = POOL_SIZE,
        shards: Shards | None = None,
    ) -> None:
        self.dsn = dsn
        self.pool_size = pool_size
        self.shards = shards
        mine = in_shards(shards, "t.guild_id")
        self._boot_sql = {
            name: sql.replace("{mine}", mine)
            for name, sql in (
                ("running", _RUNNING_TABLES),
                ("refresh", _TABLES_TO_REFRESH),
                ("computers", _TABLES_WITH_COMPUTERS),
                ("undelivered", _TABLES_WITH_UNDELIVERED),
                ("deadlines", _DEADLINES),
                ("stats", _RECORDS_AWAITING_STATS),
                ("unrecorded", _UNRECORDED_GAMES),
            )
        }
        """The boot queries, about this process's guilds."""
        self._clock = clock
        self._pool: asyncpg.Pool | None = None
        self._opening = asyncio.Lock()
        self._writes: set[asyncio.Task[Any]] = set()
        """Write transactions under way (kept alive even when their callers left)."""

    # --- connection ---

    async def open(self) -> None:
        """Connects and applies missing migrations. Idempotent."""
        async with self._opening:
            if self._pool is not None:
                return
            pool = await asyncpg.create_pool(
                self.dsn,
                min_size=1,
                max_size=self.pool_size,
                server_settings={"application_name": "gamemaster"},
            )
            try:
                async with pool.acquire() as db:
                    await migrate(db)
            except BaseException:
                await pool.close()
                raise
            self._pool = pool

    async def close(self) -> None:
        """Lets the write transactions under way finish, then closes the pool. Calls
        made afterwards raise RuntimeError."""
        async with self._opening:
            pool, self._pool = self._pool, None
            if pool is None:
                return
            if self._writes:
                await asyncio.wait(self._writes)
            await pool.close()

    def _connections(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("repository is not open")
        return self._pool

    async def _all(self, record: Callable[[Row], T], sql: str, *args: object) -> list[T]:
        return [record(row) for row in await self._connections().fetch(sql, *args)]

    async def _one(self, record: Callable[[Row], T], sql: str, *args: object) -> T | None:
        row = await self._connections().fetchrow(sql, *args)
        return None if row is None else record(row)

    async def _write(self, work: Callable[[Db], Awaitable[T]]) -> T:
        """``work`` in one transaction, run to its end even if the caller is
        cancelled. Raises ChannelBusy (after the rollback) when it tried to open a
        second table in a channel."""
        pool = self._connections()

        async def transaction() -> T:
            async with pool.acquire() as db, db.transaction():
                return await work(db)

        task = asyncio.ensure_future(transaction())
        self._writes.add(task)
        task.add_done_callback(self._settled)
        try:
            return await asyncio.shield(task)
        except _ChannelTaken as taken:
            raise ChannelBusy(await self._open_table_id(taken)) from taken

    def _settled(self, task: asyncio.Task[Any]) -> None:
        """A write transaction ended: its outcome is its caller's, or nobody's (a
        caller that left) and then discarded, never reported as never retrieved."""
        self._writes.discard(task)
        if not task.cancelled():
            task.exception()

    async def _write_statement(self, sql: str, *args: object) -> int:
        """One statement as a write; returns how many rows it changed."""

        async def work(db: Db) -> int:
            return _changed(await db.execute(sql, *args))

        return await self._write(work)

    async def _write_unless_cas_fails(self, work: Callable[[Db], Awaitable[None]]) -> bool:
        """True when the transaction committed, False when its compare-and-set
        lost (nothing written)."""
        try:
            await self._write(work)
        except CasFailed:
            return False
        return True

    async def _open_table_id(self, taken: _ChannelTaken) -> int:
        """The table open in the channel (-1: closed by now)."""
        if taken.channel_id is not None:
            table = await self.open_table_in_channel(taken.channel_id)
            return -1 if table is None else table.id
        other = await self._connections().fetchval(_OTHER_OPEN_TABLE, taken.table_id)
        return -1 if other is None else int(other)

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
        language: str = "en",
        creator_locale: str | None = None,
        hidden: bool = False,
        computer_level: str = "normal",
    ) -> TableRecord:
        now = self._clock()

        async def work(db: Db) -> TableRecord:
            try:
                row = await db.fetchrow(
                    _INSERT_TABLE,
                    guild_id,
                    channel_id,
                    game,
                    creator_id,
                    options_json,
                    timeouts.turn,
                    timeouts.reaction,
                    timeouts.choice,
                    rematch_of,
                    now,
                    takeover,
                    language,
                    hidden,
                    computer_level,
                )
            except asyncpg.UniqueViolationError as error:
                _raise_if_channel_taken(error, _ChannelTaken(channel_id=channel_id))
                raise
            assert row is not None
            await db.execute(
                "INSERT INTO seats (table_id, seat, user_id, name, locale)"
                " VALUES ($1, 0, $2, $3, $4)",
                row["id"],
                creator_id,
                creator_name,
                creator_locale,
            )
            return table_from(row)

        return await self._write(work)

    async def get_table(self, table_id: int) -> TableRecord | None:
        return await self._one(
            table_from, f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = $1", table_id
        )

    async def open_table_in_channel(self, channel_id: int) -> TableRecord | None:
        return await self._one(table_from, _OPEN_TABLE_IN_CHANNEL, channel_id, list(OPEN_STATUSES))

    async def list_tables(
        self, guild_id: int, statuses: tuple[TableStatus, ...]
    ) -> list[TableRecord]:
        return await self._all(
            table_from,
            f"SELECT {_TABLE_COLUMNS} FROM tables"
            " WHERE guild_id = $1 AND status = ANY($2::text[]) ORDER BY id",
            guild_id,
            [status.value for status in statuses],
        )

    async def running_tables(self) -> list[TableRecord]:
        return await self._all(table_from, self._boot_sql["running"])

    async def set_message(self, table_id: int, message_id: int) -> None:
        await self._update_table(table_id, "message_id", message_id)

    async def set_takeover(self, table_id: int, takeover: bool) -> None:
        await self._update_table(table_id, "takeover", takeover)

    async def set_language(self, table_id: int, language: str) -> None:
        await self._update_table(table_id, "language", language)

    async def set_hidden(self, table_id: int, hidden: bool) -> None:
        await self._update_table(table_id, "hidden", hidden)

    async def set_computer_level(self, table_id: int, level: str) -> None:
        await self._update_table(table_id, "computer_level", level)

    async def _update_table(self, table_id: int, column: str, value: object) -> None:
        """Sets one column (and updated_at) of an existing table."""
        changed = await self._write_statement(
            f"UPDATE tables SET {column} = $2, updated_at = $3 WHERE id = $1",
            table_id,
            value,
            self._clock(),
        )
        if not changed:
            raise UnknownTable(table_id)

    async def mark_rendered(self, table_id: int, version: int | None, status: TableStatus) -> None:
        await self._write_statement(
            "UPDATE tables SET rendered_version = $2, rendered_status = $3 WHERE id = $1",
            table_id,
            version,
            status.value,
        )

    async def tables_to_refresh(self) -> list[int]:
        return await self._all(_first, self._boot_sql["refresh"])

    async def tables_with_computers(self, away_after: int) -> list[int]:
        return await self._all(_first, self._boot_sql["computers"], away_after)

    async def set_status(self, table_id: int, status: TableStatus) -> None:
        """Also clears the deadline unless the new status is RUNNING. Raises
        ChannelBusy when reopening a table whose channel has another open one."""
        now = self._clock()

        async def work(db: Db) -> None:
            await _lock_table(db, table_id)
            await _write_status(db, table_id, status, now)
            if status is not TableStatus.RUNNING:
                await _write_deadline(db, table_id, None)

        await self._write(work)

    # --- seats ---

    async def add_seat(
        self,
        table_id: int,
        user_id: int,
        name: str,
        max_seats: int,
        computer: str | None = None,
        locale: str | None = None,
    ) -> SeatRecord:
        async def work(db: Db) -> SeatRecord:
            await _require_lobby(db, table_id)
            counts = await db.fetchrow(_SEAT_COUNTS, table_id, user_id)
            assert counts is not None
            if counts["already"]:
                raise AlreadySeated(f"user {user_id} is already seated at table {table_id}")
            if counts["taken"] >= max_seats:
                raise TableFull(
                    f"table {table_id} has {counts['taken']} of {max_seats} seats taken"
                )
            row = await db.fetchrow(
                _INSERT_SEAT, table_id, counts["next_seat"], user_id, name, computer, locale
            )
            assert row is not None
            return seat_from(row)

        return await self._write(work)

    async def remove_seat(self, table_id: int, user_id: int) -> None:
        async def work(db: Db) -> None:
            await _require_lobby(db, table_id)
            seat = await db.fetchval(
                "DELETE FROM seats WHERE table_id = $1 AND user_id = $2 RETURNING seat",
                table_id,
                user_id,
            )
            if seat is None:
                raise NotSeated(f"user {user_id} is not seated at table {table_id}")
            # Two steps so no row ever collides with the (table_id, seat) key:
            # later seats go to -seat, then to -(-seat) - 1 = seat - 1.
            await db.execute(
                "UPDATE seats SET seat = -seat WHERE table_id = $1 AND seat > $2", table_id, seat
            )
            await db.execute(
                "UPDATE seats SET seat = -seat - 1 WHERE table_id = $1 AND seat < 0", table_id
            )

        await self._write(work)

    async def seats(self, table_id: int) -> list[SeatRecord]:
        return await self._all(
            seat_from,
            f"SELECT {_SEAT_COLUMNS} FROM seats WHERE table_id = $1 ORDER BY seat",
            table_id,
        )

    async def update_seat(
        self,
        table_id: int,
        seat: int,
        *,
        away_strikes: int | None = None,
        removed: bool | None = None,
        locale: str | None = None,
    ) -> None:
        """Raises NotSeated when the seat does not exist."""
        changes: dict[str, object] = {}
        if away_strikes is not None:
            changes["away_strikes"] = away_strikes
        if removed is not None:
            changes["removed"] = removed
        if locale is not None:
            changes["locale"] = locale
        if not changes:
            found = await self._connections().fetchval(
                "SELECT 1 FROM seats WHERE table_id = $1 AND seat = $2", table_id, seat
            )
        else:
            assignments = ", ".join(f"{column} = ${n}" for n, column in enumerate(changes, 3))
            found = await self._write_statement(
                f"UPDATE seats SET {assignments} WHERE table_id = $1 AND seat = $2",
                table_id,
                seat,
                *changes.values(),
            )
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
        check_start(table_id, action, deadline, outbox)
        now = self._clock()

        async def work(db: Db) -> None:
            await _require_lobby(db, table_id)
            await _reorder_seats(db, table_id, seat_order)
            await db.execute(
                "INSERT INTO states (table_id, version, state_json, updated_at)"
                " VALUES ($1, 0, $2, $3)",
                table_id,
                state_json,
                now,
            )
            await _insert_action(db, action)
            await _write_deadline(db, table_id, deadline)
            await db.execute(
                "UPDATE tables SET status = 'running', seed = $2, updated_at = $3 WHERE id = $1",
                table_id,
                seed,
                now,
            )
            await _insert_outbox(db, outbox, now)

        await self._write(work)
        return StateRecord(table_id=table_id, version=0, state_json=state_json)

    async def load_state(self, table_id: int) -> StateRecord | None:
        return await self._one(
            state_from,
            "SELECT table_id, version, state_json FROM states WHERE table_id = $1",
            table_id,
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
        record: GameRecord | None = None,
    ) -> bool:
        """Compare-and-set, see the protocol. Also returns False (changing nothing)
        when the table is not running. A status other than RUNNING clears the
        deadline. Raises ValueError when the action or an event is not for
        ``(table_id, expected_version + 1)`` or the deadline is for another table."""
        version = expected_version + 1
        check_action(action, table_id, version)
        check_events(events, table_id, version)
        check_deadline(deadline, table_id)
        check_outbox(outbox, table_id)
        check_record(record, table_id)
        if status is not None and status is not TableStatus.RUNNING:
            deadline = None
        now = self._clock()

        async def work(db: Db) -> None:
            await _bump_state(db, table_id, expected_version, state_json, now)
            await _insert_action(db, action)
            await _insert_events(db, events)
            await _write_deadline(db, table_id, deadline)
            if removed_seat is not None:
                await _mark_removed(db, table_id, removed_seat)
            await _write_strikes(db, table_id, strikes or {})
            if status is not None:
                await _write_status(db, table_id, status, now)
            else:
                await _touch_table(db, table_id, now)
            await _insert_outbox(db, outbox, now)
            if record is not None:
                await _insert_record(db, record)

        return await self._write_unless_cas_fails(work)

    async def end_table(
        self,
        table_id: int,
        *,
        expected_version: int | None,
        action: ActionRecord,
        outbox: Sequence[OutboxEntry] = (),
        record: GameRecord | None = None,
    ) -> bool:
        """See the protocol. Raises ValueError when the action is not an END for
        ``(table_id, 0 if expected_version is None else expected_version + 1)``."""
        check_end(table_id, expected_version, action, record)
        now = self._clock()

        async def work(db: Db) -> None:
            if expected_version is None:
                if await _lock_table(db, table_id, missing_ok=True) is not TableStatus.LOBBY:
                    raise CasFailed
            else:
                await _bump_state(db, table_id, expected_version, None, now)
            await _insert_action(db, action)
            await _write_deadline(db, table_id, None)
            await _write_status(db, table_id, TableStatus.CANCELLED, now)
            await _insert_outbox(db, outbox, now)
            if record is not None:
                await _insert_record(db, record)

        return await self._write_unless_cas_fails(work)

    async def announce(
        self,
        table_id: int,
        outbox: Sequence[OutboxEntry],
        *,
        strikes: Mapping[int, int] | None = None,
    ) -> None:
        check_outbox(outbox, table_id)
        now = self._clock()

        async def work(db: Db) -> None:
            await _lock_table(db, table_id, missing_ok=True)
            await _write_strikes(db, table_id, strikes or {})
            await _insert_outbox(db, outbox, now)

        await self._write(work)

    # --- ratings ---

    async def skills(self, guild_id: int, game: str) -> dict[int, Skill]:
        rows = await self._connections().fetch(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND game = $2",
            guild_id,
            game,
        )
        return {row["user_id"]: skill_from(row) for row in rows}

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[Standing]:
        return await self._all(
            standing_from,
            f"{_RANKED_RATINGS} ORDER BY ordinal DESC, user_id LIMIT $3",
            guild_id,
            game,
            limit,
        )

    async def standing(self, guild_id: int, game: str, user_id: int) -> Standing | None:
        return await self._one(
            standing_from, f"{_RANKED_RATINGS} AND user_id = $3", guild_id, game, user_id
        )

    # --- records of games that are over ---

    async def game_record(self, table_id: int) -> GameRecord | None:
        records = await self._records("WHERE table_id = $1", table_id)
        return records[0] if records else None

    async def recent_records(
        self, guild_id: int, *, game: str | None = None, limit: int = 10
    ) -> list[GameRecord]:
        return await self._records(
            "WHERE guild_id = $1 AND ($2::text IS NULL OR game = $2)"
            " ORDER BY ended_at DESC, table_id DESC LIMIT $3",
            guild_id,
            game,
            limit,
        )

    async def results_of(self, guild_id: int, user_id: int) -> list[PlayerResult]:
        return await self._all(result_from, _RESULTS_OF, guild_id, user_id)

    async def _records(self, where: str, *args: object) -> list[GameRecord]:
        async with self._connections().acquire() as db:
            return await _read_records(db, where, *args)

    async def unrecorded_games(self) -> list[int]:
        return await self._all(_first, self._boot_sql["unrecorded"])

    async def add_past_records(self, records: Sequence[GameRecord]) -> None:
        async def work(db: Db) -> None:
            touched: set[tuple[int, str]] = set()
            for record in records:
                if await _insert_record_rows(db, record):
                    touched.add((record.guild_id, record.game))
            for guild_id, game in sorted(touched):
                await _rerate(db, guild_id, game)

        await self._write(work)

    # --- statistics of records ---

    async def records_awaiting_stats(self, limit: int) -> list[int]:
        return await self._all(_table_id, self._boot_sql["stats"], limit)

    async def save_stats(self, table_id: int, stats: Mapping[int, Mapping[str, int]]) -> None:
        async def work(db: Db) -> None:
            await db.execute(
                "UPDATE game_records SET stats_done = TRUE WHERE table_id = $1", table_id
            )
            await db.execute("DELETE FROM record_stats WHERE table_id = $1", table_id)
            await db.executemany(
                "INSERT INTO record_stats (table_id, seat, stat, value) VALUES ($1, $2, $3, $4)",
                [
                    (table_id, seat, name, value)
                    for seat, counters in stats.items()
                    for name, value in counters.items()
                ],
            )

        await self._write(work)

    async def stat_totals(self, guild_id: int, user_id: int, game: str) -> dict[str, int]:
        rows = await self._connections().fetch(_STAT_TOTALS, guild_id, user_id, game)
        return {row["stat"]: int(row["total"]) for row in rows}

    # --- the outbox ---

    async def undelivered(self, table_id: int) -> list[OutboxEntry]:
        return await self._all(
            outbox_from,
            f"SELECT {_OUTBOX_COLUMNS} FROM outbox"
            " WHERE table_id = $1 AND delivered_at IS NULL ORDER BY id",
            table_id,
        )

    async def tables_with_undelivered(self) -> list[int]:
        return await self._all(_table_id, self._boot_sql["undelivered"])

    async def claim_outbox(self, table_id: int, owner: str, lease: float) -> OutboxClaim:
        async def work(db: Db) -> OutboxClaim:
            # The table's row lock orders this claim with every other write about it.
            if await _lock_table(db, table_id, missing_ok=True) is None:
                return OutboxClaim(entries=[])
            now = self._clock()
            held = await db.fetchval(
                "SELECT MAX(claimed_until) FROM outbox WHERE table_id = $1"
                " AND delivered_at IS NULL AND claimed_by <> $2 AND claimed_until > $3",
                table_id,
                owner,
                now,
            )
            if held is not None:
                return OutboxClaim(entries=[], retry_at=held)
            rows = await db.fetch(
                "UPDATE outbox SET claimed_by = $2, claimed_until = $3"
                f" WHERE table_id = $1 AND delivered_at IS NULL RETURNING {_OUTBOX_COLUMNS}",
                table_id,
                owner,
                now + lease,
            )
            return OutboxClaim(entries=sorted(map(outbox_from, rows), key=_entry_id))

        return await self._write(work)

    async def mark_delivered(self, entry_id: int) -> None:
        await self._write_statement(
            "UPDATE outbox SET delivered_at = $2 WHERE id = $1 AND delivered_at IS NULL",
            entry_id,
            self._clock(),
        )

    # --- DM channels ---

    async def dm_channel(self, user_id: int) -> int | None:
        return await self._one(
            _channel_id, "SELECT channel_id FROM dm_channels WHERE user_id = $1", user_id
        )

    async def remember_dm_channel(self, user_id: int, channel_id: int | None) -> None:
        if channel_id is None:
            await self._write_statement("DELETE FROM dm_channels WHERE user_id = $1", user_id)
            return
        await self._write_statement(
            "INSERT INTO dm_channels (user_id, channel_id) VALUES ($1, $2)"
            " ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
            user_id,
            channel_id,
        )

    # --- the action log ---

    async def actions(self, table_id: int) -> list[ActionRecord]:
        return await self._all(
            action_from,
            f"SELECT {_ACTION_COLUMNS} FROM actions WHERE table_id = $1 ORDER BY version",
            table_id,
        )

    async def events(
        self, table_id: int, *, public_only: bool, last: int | None = None
    ) -> list[EventRecord]:
        return await self._all(event_from, _LAST_EVENTS, table_id, public_only, last)

    # --- deadlines ---

    async def deadlines(self) -> list[Deadline]:
        return await self._all(deadline_from, self._boot_sql["deadlines"])

    async def claim_deadline(self, deadline: Deadline, owner: str, lease: float) -> Claim:
        async def work(db: Db) -> Claim:
            now = self._clock()
            row = await db.fetchrow(
                'SELECT "window", version, claimed_by, claimed_until FROM deadlines'
                " WHERE table_id = $1 FOR UPDATE",
                deadline.table_id,
            )
            if row is None or (row["window"], row["version"]) != (
                deadline.window,
                deadline.version,
            ):
                return Claim(won=False)
            if row["claimed_by"] not in (None, owner) and row["claimed_until"] > now:
                return Claim(won=False, retry_at=row["claimed_until"])
            await db.execute(
                "UPDATE deadlines SET claimed_by = $2, claimed_until = $3 WHERE table_id = $1",
                deadline.table_id,
                owner,
                now + lease,
            )
            return Claim(won=True)

        return await self._write(work)

    async def deadline(self, table_id: int) -> Deadline | None:
        return await self._one(
            deadline_from,
            f"SELECT {_DEADLINE_COLUMNS} FROM deadlines AS d WHERE d.table_id = $1",
            table_id,
        )

    # --- guild settings ---

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        settings = await self._one(
            settings_from,
            f"SELECT {_SETTINGS_COLUMNS} FROM guild_settings WHERE guild_id = $1",
            guild_id,
        )
        return GuildSettings(guild_id=guild_id) if settings is None else settings

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        await self._write_statement(
            _SAVE_SETTINGS,
            settings.guild_id,
            settings.moderator_role_id,
            settings.turn_timeout,
            settings.reaction_timeout,
            settings.choice_timeout,
            settings.language,
        )


# --- the steps of write transactions (``db`` is inside one) --------------------


async def _lock_table(db: Db, table_id: int, *, missing_ok: bool = False) -> TableStatus | None:
    """Locks the table's row until the transaction ends; its status (None: no such
    table, when ``missing_ok``; else UnknownTable)."""
    row = await db.fetchrow(_LOCK_TABLE, table_id)
    if row is None:
        if missing_ok:
            return None
        raise UnknownTable(table_id)
    return TableStatus(row["status"])


async def _require_lobby(db: Db, table_id: int) -> None:
    status = await _lock_table(db, table_id)
    if status is not TableStatus.LOBBY:
        assert status is not None
        raise WrongStatus(f"table {table_id} is {status.value}, not a lobby")


async def _write_status(db: Db, table_id: int, status: TableStatus, now: float) -> None:
    try:
        channel_id = await db.fetchval(
            "UPDATE tables SET status = $2, updated_at = $3 WHERE id = $1 RETURNING channel_id",
            table_id,
            status.value,
            now,
        )
    except asyncpg.UniqueViolationError as error:
        _raise_if_channel_taken(error, _ChannelTaken(table_id=table_id))
        raise
    if channel_id is None:
        raise UnknownTable(table_id)


def _raise_if_channel_taken(error: asyncpg.UniqueViolationError, taken: _ChannelTaken) -> None:
    if error.constraint_name == _CHANNEL_INDEX:
        raise taken from error


async def _reorder_seats(db: Db, table_id: int, seat_order: list[int]) -> None:
    rows = await db.fetch("SELECT user_id FROM seats WHERE table_id = $1", table_id)
    check_seat_order(seat_order, (int(row["user_id"]) for row in rows))
    # Out of the way first (negative seats), then each user to its new seat.
    await db.execute("UPDATE seats SET seat = -1 - seat WHERE table_id = $1", table_id)
    await db.executemany(
        "UPDATE seats SET seat = $1 WHERE table_id = $2 AND user_id = $3",
        [(seat, table_id, user_id) for seat, user_id in enumerate(seat_order)],
    )


async def _bump_state(
    db: Db, table_id: int, expected_version: int, state_json: str | None, now: float
) -> None:
    """The compare-and-set: the running table's state goes from ``expected_version``
    to the next (``state_json`` None keeps the state). Raises CasFailed."""
    if await _lock_table(db, table_id, missing_ok=True) is not TableStatus.RUNNING:
        raise CasFailed
    if not _changed(await db.execute(_BUMP_STATE, table_id, expected_version, state_json, now)):
        raise CasFailed


async def _touch_table(db: Db, table_id: int, now: float) -> None:
    await db.execute("UPDATE tables SET updated_at = $2 WHERE id = $1", table_id, now)


async def _mark_removed(db: Db, table_id: int, seat: int) -> None:
    changed = await db.execute(
        "UPDATE seats SET removed = TRUE WHERE table_id = $1 AND seat = $2", table_id, seat
    )
    if not _changed(changed):
        raise NotSeated(f"table {table_id} has no seat {seat}")


async def _write_strikes(db: Db, table_id: int, strikes: Mapping[int, int]) -> None:
    for seat, count in strikes.items():
        changed = await db.execute(
            "UPDATE seats SET away_strikes = $3 WHERE table_id = $1 AND seat = $2",
            table_id,
            seat,
            count,
        )
        if not _changed(changed):
            raise NotSeated(f"table {table_id} has no seat {seat}")


async def _insert_action(db: Db, action: ActionRecord) -> None:
    await db.execute(
        _INSERT_ACTION,
        action.table_id,
        action.version,
        action.kind.value,
        action.seat,
        action.user_id,
        action.choice_json,
        action.created_at,
    )


async def _insert_events(db: Db, events: list[EventRecord]) -> None:
    if events:
        await db.executemany(
            _INSERT_EVENT,
            [(e.table_id, e.version, e.index, audience_json(e), e.event_json) for e in events],
        )


async def _write_deadline(db: Db, table_id: int, deadline: Deadline | None) -> None:
    if deadline is None:
        await db.execute("DELETE FROM deadlines WHERE table_id = $1", table_id)
    else:
        await db.execute(
            _WRITE_DEADLINE, table_id, deadline.window, deadline.version, deadline.due_at
        )


async def _insert_outbox(db: Db, outbox: Sequence[OutboxEntry], now: float) -> None:
    if outbox:
        await db.executemany(
            _INSERT_OUTBOX,
            [
                (e.table_id, e.version, e.kind.value, e.target, e.content, e.embed_json, now)
                for e in outbox
            ],
        )


async def _insert_record(db: Db, record: GameRecord) -> None:
    """The game's record, and the ratings it moves."""
    await _insert_record_rows(db, record)
    await _rate(db, record)


async def _insert_record_rows(db: Db, record: GameRecord) -> bool:
    """The game's record (its start time is its START action's); False, writing
    nothing, when the table has one already."""
    inserted = await db.fetchval(
        _INSERT_RECORD,
        record.table_id,
        record.guild_id,
        record.channel_id,
        record.game,
        record.options_json,
        record.outcome.value,
        record.ended_at,
        record.steps,
    )
    if inserted is None:
        return False
    await db.executemany(
        _INSERT_RECORD_SEAT,
        [
            (
                record.table_id,
                s.seat,
                s.user_id,
                s.name,
                s.computer,
                s.removed,
                s.winner,
                s.score,
            )
            for s in record.seats
        ],
    )
    return True


async def _read_records(db: Db, where: str, *args: object) -> list[GameRecord]:
    rows = await db.fetch(f"SELECT {_RECORD_COLUMNS} FROM game_records {where}", *args)
    records = [game_record_from(row) for row in rows]
    seats = await db.fetch(
        f"SELECT {_RECORD_SEAT_COLUMNS} FROM record_seats"
        " WHERE table_id = ANY($1::bigint[]) ORDER BY table_id, seat",
        [record.table_id for record in records],
    )
    by_table = {record.table_id: record for record in records}
    for row in seats:
        by_table[row["table_id"]].seats.append(record_seat_from(row))
    return records


async def _rate(db: Db, record: GameRecord) -> None:
    users = [seat.user_id for seat in rated_seats(record)]
    if not users:
        return
    await _lock_ratings(db, record.guild_id, record.game)
    rows = await db.fetch(
        f"SELECT {_RATING_COLUMNS} FROM ratings"
        " WHERE guild_id = $1 AND game = $2 AND user_id = ANY($3::bigint[])",
        record.guild_id,
        record.game,
        users,
    )
    before = {row["user_id"]: skill_from(row) for row in rows}
    await _write_skills(db, record.guild_id, record.game, rate(record, before))


async def _rerate(db: Db, guild_id: int, game: str) -> None:
    """The guild's ratings of ``game`` recomputed from all its records."""
    await _lock_ratings(db, guild_id, game)
    records = await _read_records(
        db, "WHERE guild_id = $1 AND game = $2 ORDER BY ended_at, table_id", guild_id, game
    )
    await db.execute("DELETE FROM ratings WHERE guild_id = $1 AND game = $2", guild_id, game)
    await _write_skills(db, guild_id, game, replay_ratings(records))


async def _lock_ratings(db: Db, guild_id: int, game: str) -> None:
    """Until the transaction ends, no one else reads or writes these ratings."""
    await db.execute(_RATINGS_LOCK, str(guild_id), game)


async def _write_skills(db: Db, guild_id: int, game: str, skills: Mapping[int, Skill]) -> None:
    await db.executemany(
        _WRITE_RATING,
        [
            (guild_id, game, user_id, s.mu, s.sigma, s.ordinal, s.games, s.wins)
            for user_id, s in sorted(skills.items())
        ],
    )


def _implements_repository(repo: PostgresRepository) -> Repository:
    """Never called: makes mypy check that the class matches the protocol."""
    return repo
