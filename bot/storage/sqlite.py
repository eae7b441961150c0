"""The SQLite implementation of :class:`~bot.storage.repository.Repository`.

One stdlib ``sqlite3`` connection in autocommit mode. Every method is one
synchronous *unit of work* over that connection: a write is a whole
``BEGIN IMMEDIATE`` ... ``COMMIT`` transaction (any exception rolls it back and
leaves the connection out of any transaction), a read is one statement. Units
never interleave, so there is no repository-wide lock: the order of one table's
steps is the ``TableService``'s job (a lock per table), and two repositories (or
processes) on one file meet in SQLite's own locking (WAL, ``busy_timeout``).

Where the units run, ``run_on``:

- ``"thread"``, the default: on a database thread of the repository's own (a
  one-worker executor; the connection is made, used and closed there, units run
  one at a time in the order they were submitted). A unit is one hop from the
  loop and one back, however many statements it has. Once submitted it runs to
  its end even if the awaiting coroutine is cancelled; its result (or exception)
  is then discarded. ``close()`` lets what was submitted finish first.
- ``"loop"``: directly on the event loop, then one ``sleep(0)`` so that a caller
  making call after call does not hold the loop. A unit has no ``await`` inside,
  so it cannot be cut short either.

Why the thread is the default (``bench/storage.py``, 2 cores, a few tables to a
hundred clicking as fast as they can): both do 1,000-1,700 commits/s against
500-800 for the former aiosqlite code (a hop per statement, a lock around the
repository), the loop variant ahead for a lone table (no hop: 0.33 instead of
0.43 ms a click), the thread at ten tables and more. But the thread takes the
least from the event loop (0.25-0.48 ms of the loop thread's CPU per commit
against 0.37-0.60 on the loop), which is what the bot's Discord side runs on,
and it keeps SQLite's waits off the loop: a WAL checkpoint's fsyncs (tens of ms,
every few hundred commits) or another process's write lock (up to
``busy_timeout``) would freeze every table, the gateway's heartbeat included
(the loop wakes a 5 ms timer late by 5-8 ms at p99 with the thread, 20-70 ms on
the loop, at one table).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from pathlib import Path
from typing import Any, Literal, TypeVar

from .common import (
    OPEN_STATUSES,
    CasFailed,
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
from .schema import migrate

Params = Sequence[Any]
T = TypeVar("T")
Work = Callable[[sqlite3.Connection], T]
"""A unit of work: everything one call does on the connection, synchronously."""
RunOn = Literal["thread", "loop"]

log = logging.getLogger("bot.storage")

_PRAGMAS = (
    "journal_mode = WAL",
    "synchronous = NORMAL",
    "busy_timeout = 5000",
    "foreign_keys = ON",
)
_CHANNEL_INDEX_ERROR = "tables.channel_id"
"""What SQLite names in the IntegrityError of the one-open-table-per-channel index."""

_TABLE_COLUMNS = (
    "id, guild_id, channel_id, game, status, creator_id, options_json, turn_timeout,"
    " reaction_timeout, choice_timeout, message_id, seed, rematch_of, created_at, updated_at,"
    " rendered_version, takeover, rendered_status, language, hidden, computer_level"
)
_SEAT_COLUMNS = "table_id, seat, user_id, name, away_strikes, removed, computer, locale"
_ACTION_COLUMNS = "table_id, version, kind, seat, user_id, choice_json, created_at"
_DEADLINE_COLUMNS = 'd.table_id, d."window", d.version, d.due_at'
_RECORD_COLUMNS = (
    "table_id, guild_id, channel_id, game, options_json, outcome, started_at, ended_at, steps"
)
_RECORD_SEAT_COLUMNS = "table_id, seat, user_id, name, computer, removed, winner, score"
_RATING_COLUMNS = "guild_id, game, user_id, mu, sigma, ordinal, games, wins"
_OUTBOX_COLUMNS = (
    "id, table_id, version, kind, target, content, embed_json, created_at, delivered_at"
)


def _first(row: sqlite3.Row) -> int:
    return int(row[0])


def _is_channel_conflict(error: sqlite3.IntegrityError) -> bool:
    return _CHANNEL_INDEX_ERROR in str(error)


# --- running units of work ---------------------------------------------------


def _in_transaction(work: Work[T]) -> Work[T]:
    """``work`` as one write transaction: committed if it returns, rolled back
    (the connection left out of any transaction) if anything raises."""

    def unit(db: sqlite3.Connection) -> T:
        db.execute("BEGIN IMMEDIATE")
        try:
            result = work(db)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:  # SQLite may already have rolled back (e.g. disk full)
                db.execute("ROLLBACK")
            raise
        return result

    return unit


def _submit(executor: ThreadPoolExecutor, call: Callable[[], T]) -> asyncio.Future[T]:
    """Runs ``call`` on the executor's thread; the future gets its outcome.

    Cancelling the future does not stop ``call``: once submitted it runs to its
    end (a transaction is never cut short), and its outcome is discarded."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def run() -> None:
        try:
            result = call()
        except BaseException as error:
            # The frames' locals (a cursor, say) die here, not on the loop's thread.
            traceback.clear_frames(error.__traceback__)
            _hand_back(loop, _set_exception, future, error)
        else:
            _hand_back(loop, _set_result, future, result)

    executor.submit(run)
    return future


def _hand_back(
    loop: asyncio.AbstractEventLoop,
    settle: Callable[[asyncio.Future[T], Any], None],
    future: asyncio.Future[T],
    outcome: object,
) -> None:
    with suppress(RuntimeError):  # the loop is closed: nobody waits for this any more
        loop.call_soon_threadsafe(settle, future, outcome)


def _set_result(future: asyncio.Future[T], result: T) -> None:
    if not future.done():  # done: the caller was cancelled, the result is discarded
        future.set_result(result)


def _set_exception(future: asyncio.Future[T], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)


# --- checkpoints ---------------------------------------------------------------

CHECKPOINT_EVERY = 1.0
"""Seconds between two checkpoints of the write-ahead log."""


class Checkpointer:
    """Copies the write-ahead log back into the database file from a thread and a
    connection of its own, so that no commit waits for it.

    SQLite checkpoints by itself in the commit that takes the log past 1,000
    pages: every few hundred commits on a busy bot, that commit (and every unit
    of work queued behind it on the database thread) waited for the copy and its
    fsyncs. Here the writer's automatic checkpoints are off and a PASSIVE
    checkpoint runs every ``every`` seconds beside the writer: it copies what no
    reader still needs and never blocks a commit, and the writer starts the log
    over once a checkpoint has copied all of it."""

    def __init__(self, path: str | Path, every: float = CHECKPOINT_EVERY) -> None:
        self.path = path
        self.every = every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Ends the thread after one last checkpoint (blocks: call it off the loop)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            while not self._stop.wait(self.every):
                self._checkpoint(db)
            self._checkpoint(db)
        finally:
            db.close()

    @staticmethod
    def _checkpoint(db: sqlite3.Connection) -> None:
        try:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            log.exception("checkpoint of the write-ahead log failed")


def _is_file(path: str | Path) -> bool:
    text = str(path)
    return text != ":memory:" and not text.startswith("file:")


# --- the repository ----------------------------------------------------------


class SqliteRepository:
    """SQLite storage; ``path`` may be ``":memory:"`` for throwaway tests.

    ``run_on`` says where the units of work run: ``"thread"`` (a database thread
    of its own, the default) or ``"loop"`` (the event loop); see the module."""

    def __init__(
        self,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        run_on: RunOn = "thread",
        checkpoint_every: float = CHECKPOINT_EVERY,
        shards: Shards | None = None,
    ) -> None:
        if run_on not in ("thread", "loop"):
            raise ValueError(f"run_on must be 'thread' or 'loop', not {run_on!r}")
        self.path = path
        self.shards = shards
        self._mine = in_shards(shards, "t.guild_id")
        """The boot queries' condition: a table of this process's guilds."""
        self.run_on: RunOn = run_on
        self._clock = clock
        self._local = threading.local()
        """``db``: the connection, in the thread that made it (the database thread,
        or the loop's); a database thread left by a cancelled open() has its own."""
        self._executor: ThreadPoolExecutor | None = None
        """The database thread while open (run_on "thread")."""
        self._opening = asyncio.Lock()
        """Serializes open() and close() only; units of work need no lock."""
        self._checkpointer: Checkpointer | None = None
        self.checkpoint_every = checkpoint_every

    # --- connection ---

    async def open(self) -> None:
        """Connects, sets the pragmas and applies missing migrations. Idempotent."""
        async with self._opening:
            if self.run_on == "loop":
                if getattr(self._local, "db", None) is None:
                    self._connect()
                    self._start_checkpoints()
                return
            if self._executor is not None:
                return
            executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
            # Set at once: units submitted meanwhile queue behind the connection.
            self._executor = executor
            try:
                await _submit(executor, self._connect)
            except BaseException:
                self._executor = None
                executor.submit(self._disconnect)  # connected after all, if cancelled
                executor.shutdown(wait=False)
                raise
            self._start_checkpoints()

    def _start_checkpoints(self) -> None:
        if _is_file(self.path):
            self._checkpointer = Checkpointer(self.path, self.checkpoint_every)
            self._checkpointer.start()

    async def _stop_checkpoints(self) -> None:
        checkpointer, self._checkpointer = self._checkpointer, None
        if checkpointer is not None:
            await asyncio.to_thread(checkpointer.stop)

    def _connect(self) -> None:
        """Where the units run: connects, sets the pragmas, migrates."""
        self._make_parent_folder()
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            for pragma in _PRAGMAS:
                db.execute(f"PRAGMA {pragma}")
            if _is_file(self.path):
                db.execute("PRAGMA wal_autocheckpoint = 0")  # the Checkpointer's job
            migrate(db)
        except BaseException:
            db.close()
            raise
        self._local.db = db

    async def close(self) -> None:
        """Lets the work already submitted finish, then closes the connection
        where it was made. Calls made afterwards raise RuntimeError."""
        async with self._opening:
            await self._stop_checkpoints()
            if self.run_on == "loop":
                self._disconnect()
                return
            executor, self._executor = self._executor, None
            if executor is None:
                return
            closed = _submit(executor, self._disconnect)
            executor.shutdown(wait=False)  # the thread ends once its queue is done
            await closed

    def _disconnect(self) -> None:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        self._local.db = None
        if db is not None:
            db.close()

    def _make_parent_folder(self) -> None:
        if _is_file(self.path):
            Path(str(self.path)).parent.mkdir(parents=True, exist_ok=True)

    def _conn(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            raise RuntimeError("repository is not open")
        return db

    async def _run(self, work: Work[T]) -> T:
        """One unit of work, in one hop (no hop at all on the loop)."""
        if self.run_on == "loop":
            result = work(self._conn())
            # Other tasks get their turn, as after a hop: a caller making call after
            # call must not hold the loop. Cancelled here, the unit has still run.
            await asyncio.sleep(0)
            return result
        executor = self._executor
        if executor is None:
            raise RuntimeError("repository is not open")
        return await _submit(executor, lambda: work(self._conn()))

    async def _write(self, work: Work[T]) -> T:
        """``work`` as one write transaction (BEGIN IMMEDIATE ... COMMIT)."""
        return await self._run(_in_transaction(work))

    async def _write_statement(self, sql: str, params: Params) -> None:
        """One statement as a write transaction."""

        def work(db: sqlite3.Connection) -> None:
            db.execute(sql, params)

        await self._write(work)

    async def _all(
        self, record: Callable[[sqlite3.Row], T], sql: str, params: Params = ()
    ) -> list[T]:
        return await self._run(lambda db: [record(row) for row in db.execute(sql, params)])

    async def _one(
        self, record: Callable[[sqlite3.Row], T], sql: str, params: Params = ()
    ) -> T | None:
        def work(db: sqlite3.Connection) -> T | None:
            row = db.execute(sql, params).fetchone()
            return None if row is None else record(row)

        return await self._run(work)

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

        def work(db: sqlite3.Connection) -> int:
            try:
                cursor = db.execute(
                    "INSERT INTO tables (guild_id, channel_id, game, status, creator_id,"
                    " options_json, turn_timeout, reaction_timeout, choice_timeout, rematch_of,"
                    " created_at, updated_at, takeover, language, hidden, computer_level)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                        language,
                        int(hidden),
                        computer_level,
                    ),
                )
            except sqlite3.IntegrityError as error:
                self._raise_if_channel_busy(db, error, channel_id)
                raise
            table_id = cursor.lastrowid
            assert table_id is not None
            db.execute(
                "INSERT INTO seats (table_id, seat, user_id, name, locale) VALUES (?, 0, ?, ?, ?)",
                (table_id, creator_id, creator_name, creator_locale),
            )
            return table_id

        table_id = await self._write(work)
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
            language=language,
            hidden=hidden,
            computer_level=computer_level,
        )

    async def get_table(self, table_id: int) -> TableRecord | None:
        return await self._one(
            table_from, f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
        )

    async def open_table_in_channel(self, channel_id: int) -> TableRecord | None:
        return await self._one(
            table_from,
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE channel_id = ? AND status IN (?, ?)",
            (channel_id, *OPEN_STATUSES),
        )

    async def list_tables(
        self, guild_id: int, statuses: tuple[TableStatus, ...]
    ) -> list[TableRecord]:
        if not statuses:
            return []
        marks = ", ".join("?" for _ in statuses)
        return await self._all(
            table_from,
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE guild_id = ? AND status IN ({marks})"
            " ORDER BY id",
            (guild_id, *(status.value for status in statuses)),
        )

    async def running_tables(self) -> list[TableRecord]:
        return await self._all(
            table_from,
            f"SELECT {_TABLE_COLUMNS} FROM tables AS t WHERE status = ? AND {self._mine}"
            " ORDER BY id",
            (TableStatus.RUNNING.value,),
        )

    async def set_message(self, table_id: int, message_id: int) -> None:
        await self._update_table(table_id, "message_id", message_id)

    async def set_takeover(self, table_id: int, takeover: bool) -> None:
        await self._update_table(table_id, "takeover", int(takeover))

    async def set_language(self, table_id: int, language: str) -> None:
        await self._update_table(table_id, "language", language)

    async def set_hidden(self, table_id: int, hidden: bool) -> None:
        await self._update_table(table_id, "hidden", int(hidden))

    async def set_computer_level(self, table_id: int, level: str) -> None:
        await self._update_table(table_id, "computer_level", level)

    async def _update_table(self, table_id: int, column: str, value: int | str) -> None:
        """Sets one column (and updated_at) of an existing table."""
        now = self._clock()

        def work(db: sqlite3.Connection) -> None:
            cursor = db.execute(
                f"UPDATE tables SET {column} = ?, updated_at = ? WHERE id = ?",
                (value, now, table_id),
            )
            if cursor.rowcount == 0:
                raise UnknownTable(table_id)

        await self._write(work)

    async def mark_rendered(self, table_id: int, version: int | None, status: TableStatus) -> None:
        await self._write_statement(
            "UPDATE tables SET rendered_version = ?, rendered_status = ? WHERE id = ?",
            (version, status.value, table_id),
        )

    async def tables_to_refresh(self) -> list[int]:
        return await self._all(
            _first,
            f"""
            SELECT t.id FROM tables t LEFT JOIN states s ON s.table_id = t.id
            WHERE {self._mine}
              AND (t.status = 'lobby'
                   OR (t.status = 'running' AND t.message_id IS NULL)
                   OR (t.message_id IS NOT NULL
                       AND (t.rendered_status IS NOT t.status
                            OR (s.version IS NOT NULL
                                AND (t.rendered_version IS NULL
                                     OR t.rendered_version < s.version)))))
            ORDER BY t.id
            """,
        )

    async def tables_with_computers(self, away_after: int) -> list[int]:
        return await self._all(
            _first,
            f"""
            SELECT DISTINCT t.id FROM tables t JOIN seats s ON s.table_id = t.id
            WHERE t.status = 'running' AND NOT s.removed AND {self._mine}
              AND (s.computer IS NOT NULL OR (t.takeover AND s.away_strikes >= ?))
            ORDER BY t.id
            """,
            (away_after,),
        )

    async def set_status(self, table_id: int, status: TableStatus) -> None:
        """Also clears the deadline unless the new status is RUNNING. Raises
        ChannelBusy when reopening a table whose channel has another open one."""
        now = self._clock()

        def work(db: sqlite3.Connection) -> None:
            self._write_status(db, table_id, status, now)
            if status is not TableStatus.RUNNING:
                self._write_deadline(db, table_id, None)

        await self._write(work)

    @classmethod
    def _write_status(
        cls, db: sqlite3.Connection, table_id: int, status: TableStatus, now: float
    ) -> None:
        try:
            cursor = db.execute(
                "UPDATE tables SET status = ?, updated_at = ? WHERE id = ?",
                (status.value, now, table_id),
            )
        except sqlite3.IntegrityError as error:
            channel = cls._channel_of(db, table_id)
            cls._raise_if_channel_busy(db, error, channel)
            raise
        if cursor.rowcount == 0:
            raise UnknownTable(table_id)

    @staticmethod
    def _channel_of(db: sqlite3.Connection, table_id: int) -> int:
        row = db.execute("SELECT channel_id FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise UnknownTable(table_id)
        return int(row[0])

    @staticmethod
    def _raise_if_channel_busy(
        db: sqlite3.Connection, error: sqlite3.IntegrityError, channel_id: int
    ) -> None:
        if not _is_channel_conflict(error):
            return
        row = db.execute(
            "SELECT id FROM tables WHERE channel_id = ? AND status IN (?, ?)",
            (channel_id, *OPEN_STATUSES),
        ).fetchone()
        raise ChannelBusy(int(row[0]) if row is not None else -1) from error

    @staticmethod
    def _status_of(db: sqlite3.Connection, table_id: int) -> TableStatus:
        row = db.execute("SELECT status FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise UnknownTable(table_id)
        return TableStatus(row[0])

    @classmethod
    def _require_lobby(cls, db: sqlite3.Connection, table_id: int) -> None:
        status = cls._status_of(db, table_id)
        if status is not TableStatus.LOBBY:
            raise WrongStatus(f"table {table_id} is {status.value}, not a lobby")

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
        def work(db: sqlite3.Connection) -> int:
            self._require_lobby(db, table_id)
            count, next_seat, already = db.execute(
                "SELECT COUNT(*), COALESCE(MAX(seat) + 1, 0), SUM(user_id = ?)"
                " FROM seats WHERE table_id = ?",
                (user_id, table_id),
            ).fetchone()
            if already:
                raise AlreadySeated(f"user {user_id} is already seated at table {table_id}")
            if count >= max_seats:
                raise TableFull(f"table {table_id} has {count} of {max_seats} seats taken")
            db.execute(
                "INSERT INTO seats (table_id, seat, user_id, name, computer, locale)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, next_seat, user_id, name, computer, locale),
            )
            return int(next_seat)

        seat = await self._write(work)
        return SeatRecord(
            table_id=table_id,
            seat=seat,
            user_id=user_id,
            name=name,
            computer=computer,
            locale=locale,
        )

    async def remove_seat(self, table_id: int, user_id: int) -> None:
        def work(db: sqlite3.Connection) -> None:
            self._require_lobby(db, table_id)
            row = db.execute(
                "SELECT seat FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user_id)
            ).fetchone()
            if row is None:
                raise NotSeated(f"user {user_id} is not seated at table {table_id}")
            seat = int(row[0])
            db.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat))
            # Two steps so no row ever collides with the (table_id, seat) key:
            # later seats go to -seat, then to -(-seat) - 1 = seat - 1.
            db.execute(
                "UPDATE seats SET seat = -seat WHERE table_id = ? AND seat > ?", (table_id, seat)
            )
            db.execute(
                "UPDATE seats SET seat = -seat - 1 WHERE table_id = ? AND seat < 0", (table_id,)
            )

        await self._write(work)

    async def seats(self, table_id: int) -> list[SeatRecord]:
        return await self._all(
            seat_from,
            f"SELECT {_SEAT_COLUMNS} FROM seats WHERE table_id = ? ORDER BY seat",
            (table_id,),
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
        changes: dict[str, int | str] = {}
        if away_strikes is not None:
            changes["away_strikes"] = away_strikes
        if removed is not None:
            changes["removed"] = int(removed)
        if locale is not None:
            changes["locale"] = locale

        def work(db: sqlite3.Connection) -> None:
            if not changes:
                found = (
                    db.execute(
                        "SELECT 1 FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat)
                    ).fetchone()
                    is not None
                )
            else:
                assignments = ", ".join(f"{column} = ?" for column in changes)
                cursor = db.execute(
                    f"UPDATE seats SET {assignments} WHERE table_id = ? AND seat = ?",
                    (*changes.values(), table_id, seat),
                )
                found = cursor.rowcount > 0
            if not found:
                raise NotSeated(f"table {table_id} has no seat {seat}")

        await self._write(work)

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

        def work(db: sqlite3.Connection) -> None:
            self._require_lobby(db, table_id)
            self._reorder_seats(db, table_id, seat_order)
            db.execute(
                "INSERT INTO states (table_id, version, state_json, updated_at)"
                " VALUES (?, 0, ?, ?)",
                (table_id, state_json, now),
            )
            self._insert_action(db, action)
            self._write_deadline(db, table_id, deadline)
            db.execute(
                "UPDATE tables SET status = ?, seed = ?, updated_at = ? WHERE id = ?",
                (TableStatus.RUNNING.value, seed, now, table_id),
            )
            self._insert_outbox(db, outbox, now)

        await self._write(work)
        return StateRecord(table_id=table_id, version=0, state_json=state_json)

    @staticmethod
    def _reorder_seats(db: sqlite3.Connection, table_id: int, seat_order: list[int]) -> None:
        rows = db.execute("SELECT user_id FROM seats WHERE table_id = ?", (table_id,))
        check_seat_order(seat_order, (int(row[0]) for row in rows))
        # Out of the way first (negative seats), then each user to its new seat.
        db.execute("UPDATE seats SET seat = -1 - seat WHERE table_id = ?", (table_id,))
        db.executemany(
            "UPDATE seats SET seat = ? WHERE table_id = ? AND user_id = ?",
            [(seat, table_id, user_id) for seat, user_id in enumerate(seat_order)],
        )

    async def load_state(self, table_id: int) -> StateRecord | None:
        return await self._one(
            state_from,
            "SELECT table_id, version, state_json FROM states WHERE table_id = ?",
            (table_id,),
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
        when the table is not running, so a click that races a moderator's "end
        table" cannot write after it. A status other than RUNNING clears the
        deadline, as set_status does. Raises ValueError when the action or an event
        is not for ``(table_id, expected_version + 1)`` or the deadline is for
        another table."""
        version = expected_version + 1
        check_action(action, table_id, version)
        check_events(events, table_id, version)
        check_deadline(deadline, table_id)
        check_outbox(outbox, table_id)
        check_record(record, table_id)
        if status is not None and status is not TableStatus.RUNNING:
            deadline = None
        now = self._clock()

        def work(db: sqlite3.Connection) -> None:
            self._bump_state(db, table_id, expected_version, state_json, now)
            self._insert_action(db, action)
            self._insert_events(db, events)
            self._write_deadline(db, table_id, deadline)
            if removed_seat is not None:
                self._mark_removed(db, table_id, removed_seat)
            self._write_strikes(db, table_id, strikes or {})
            if status is not None:
                self._write_status(db, table_id, status, now)
            else:
                self._touch_table(db, table_id, now)
            self._insert_outbox(db, outbox, now)
            if record is not None:
                self._insert_record(db, record)

        return await self._write_unless_cas_fails(work)

    async def _write_unless_cas_fails(self, work: Work[None]) -> bool:
        """True when the transaction committed, False when its compare-and-set
        lost (nothing written)."""
        try:
            await self._write(work)
        except CasFailed:
            return False
        return True

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

        def work(db: sqlite3.Connection) -> None:
            if expected_version is None:
                self._require_lobby_or_cas_fail(db, table_id)
            else:
                self._bump_state(db, table_id, expected_version, None, now)
            self._insert_action(db, action)
            self._write_deadline(db, table_id, None)
            self._write_status(db, table_id, TableStatus.CANCELLED, now)
            self._insert_outbox(db, outbox, now)
            if record is not None:
                self._insert_record(db, record)

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

        def work(db: sqlite3.Connection) -> None:
            self._write_strikes(db, table_id, strikes or {})
            self._insert_outbox(db, outbox, now)

        await self._write(work)

    @staticmethod
    def _write_strikes(db: sqlite3.Connection, table_id: int, strikes: Mapping[int, int]) -> None:
        for seat, count in strikes.items():
            cursor = db.execute(
                "UPDATE seats SET away_strikes = ? WHERE table_id = ? AND seat = ?",
                (count, table_id, seat),
            )
            if cursor.rowcount == 0:
                raise NotSeated(f"table {table_id} has no seat {seat}")

    @staticmethod
    def _insert_outbox(db: sqlite3.Connection, outbox: Sequence[OutboxEntry], now: float) -> None:
        if not outbox:
            return
        db.executemany(
            "INSERT INTO outbox (table_id, version, kind, target, content, embed_json,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (e.table_id, e.version, e.kind.value, e.target, e.content, e.embed_json, now)
                for e in outbox
            ],
        )

    @classmethod
    def _insert_record(cls, db: sqlite3.Connection, record: GameRecord) -> None:
        """The game's record, and the ratings it moves."""
        cls._insert_record_rows(db, record)
        cls._rate(db, record)

    @staticmethod
    def _insert_record_rows(db: sqlite3.Connection, record: GameRecord) -> None:
        """The game's record (its start time is its START action's)."""
        db.execute(
            "INSERT INTO game_records (table_id, guild_id, channel_id, game, options_json,"
            " outcome, started_at, ended_at, steps) VALUES (?, ?, ?, ?, ?, ?,"
            " (SELECT created_at FROM actions WHERE table_id = ? AND kind = ?), ?, ?)",
            (
                record.table_id,
                record.guild_id,
                record.channel_id,
                record.game,
                record.options_json,
                record.outcome.value,
                record.table_id,
                ActionKind.START.value,
                record.ended_at,
                record.steps,
            ),
        )
        db.executemany(
            f"INSERT INTO record_seats ({_RECORD_SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    record.table_id,
                    s.seat,
                    s.user_id,
                    s.name,
                    s.computer,
                    int(s.removed),
                    int(s.winner),
                    s.score,
                )
                for s in record.seats
            ],
        )

    @classmethod
    def _rate(cls, db: sqlite3.Connection, record: GameRecord) -> None:
        users = [seat.user_id for seat in rated_seats(record)]
        if not users:
            return
        marks = ", ".join("?" for _ in users)
        before = {
            row["user_id"]: skill_from(row)
            for row in db.execute(
                f"SELECT {_RATING_COLUMNS} FROM ratings"
                f" WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
                (record.guild_id, record.game, *users),
            )
        }
        cls._write_skills(db, record.guild_id, record.game, rate(record, before))

    @staticmethod
    def _write_skills(
        db: sqlite3.Connection, guild_id: int, game: str, skills: Mapping[int, Skill]
    ) -> None:
        db.executemany(
            f"INSERT OR REPLACE INTO ratings ({_RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    guild_id,
                    game,
                    user_id,
                    skill.mu,
                    skill.sigma,
                    skill.ordinal,
                    skill.games,
                    skill.wins,
                )
                for user_id, skill in skills.items()
            ],
        )

    @classmethod
    def _rerate(cls, db: sqlite3.Connection, guild_id: int, game: str) -> None:
        """The guild's ratings of ``game`` recomputed from all its records."""
        records = cls._read_records(
            db,
            "WHERE guild_id = ? AND game = ? ORDER BY ended_at, table_id",
            (guild_id, game),
        )
        db.execute("DELETE FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game))
        cls._write_skills(db, guild_id, game, replay_ratings(records))

    # --- ratings ---

    async def skills(self, guild_id: int, game: str) -> dict[int, Skill]:
        def work(db: sqlite3.Connection) -> dict[int, Skill]:
            rows = db.execute(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ?",
                (guild_id, game),
            )
            return {row["user_id"]: skill_from(row) for row in rows}

        return await self._run(work)

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[Standing]:
        return await self._all(
            standing_from,
            f"SELECT {_RATING_COLUMNS}, (SELECT COUNT(*) FROM ratings AS better"
            " WHERE better.guild_id = r.guild_id AND better.game = r.game"
            " AND better.ordinal > r.ordinal) + 1 AS rank"
            " FROM ratings AS r WHERE guild_id = ? AND game = ?"
            " ORDER BY ordinal DESC, user_id LIMIT ?",
            (guild_id, game, limit),
        )

    async def standing(self, guild_id: int, game: str, user_id: int) -> Standing | None:
        return await self._one(
            standing_from,
            f"SELECT {_RATING_COLUMNS}, (SELECT COUNT(*) FROM ratings AS better"
            " WHERE better.guild_id = r.guild_id AND better.game = r.game"
            " AND better.ordinal > r.ordinal) + 1 AS rank"
            " FROM ratings AS r WHERE guild_id = ? AND game = ? AND user_id = ?",
            (guild_id, game, user_id),
        )

    # --- records of games that are over ---

    async def game_record(self, table_id: int) -> GameRecord | None:
        records = await self._records("WHERE table_id = ?", (table_id,))
        return records[0] if records else None

    async def recent_records(
        self, guild_id: int, *, game: str | None = None, limit: int = 10
    ) -> list[GameRecord]:
        where = "WHERE guild_id = ?"
        params: list[object] = [guild_id]
        if game is not None:
            where += " AND game = ?"
            params.append(game)
        return await self._records(
            f"{where} ORDER BY ended_at DESC, table_id DESC LIMIT ?", (*params, limit)
        )

    async def results_of(self, guild_id: int, user_id: int) -> list[PlayerResult]:
        return await self._all(
            result_from,
            "SELECT r.table_id, r.game, r.ended_at, s.winner"
            " FROM record_seats AS s JOIN game_records AS r USING (table_id)"
            " WHERE s.user_id = ? AND r.guild_id = ? AND r.outcome = ?"
            " ORDER BY r.ended_at, r.table_id",
            (user_id, guild_id, GameOutcome.FINISHED.value),
        )

    async def _records(self, where: str, params: Params) -> list[GameRecord]:
        return await self._run(lambda db: self._read_records(db, where, params))

    @staticmethod
    def _read_records(db: sqlite3.Connection, where: str, params: Params) -> list[GameRecord]:
        rows = db.execute(f"SELECT {_RECORD_COLUMNS} FROM game_records {where}", params)
        records = [game_record_from(row) for row in rows.fetchall()]
        for record in records:
            record.seats = [
                record_seat_from(row)
                for row in db.execute(
                    f"SELECT {_RECORD_SEAT_COLUMNS} FROM record_seats"
                    " WHERE table_id = ? ORDER BY seat",
                    (record.table_id,),
                )
            ]
        return records

    async def unrecorded_games(self) -> list[int]:
        return await self._all(
            _first,
            "SELECT t.id FROM tables AS t JOIN states AS s ON s.table_id = t.id"
            f" WHERE t.status IN (?, ?) AND {self._mine}"
            " AND NOT EXISTS (SELECT 1 FROM game_records AS r WHERE r.table_id = t.id)"
            " ORDER BY t.updated_at, t.id",
            (TableStatus.FINISHED.value, TableStatus.CANCELLED.value),
        )

    async def add_past_records(self, records: Sequence[GameRecord]) -> None:
        def work(db: sqlite3.Connection) -> None:
            touched: set[tuple[int, str]] = set()
            for record in records:
                known = "SELECT 1 FROM game_records WHERE table_id = ?"
                if db.execute(known, (record.table_id,)).fetchone() is None:
                    self._insert_record_rows(db, record)
                    touched.add((record.guild_id, record.game))
            for guild_id, game in sorted(touched):
                self._rerate(db, guild_id, game)

        await self._write(work)

    # --- statistics of records ---

    async def records_awaiting_stats(self, limit: int) -> list[int]:
        return await self._all(
            _first,
            "SELECT table_id FROM game_records AS t"
            f" WHERE stats_done = 0 AND {self._mine} ORDER BY ended_at, table_id LIMIT ?",
            (limit,),
        )

    async def save_stats(self, table_id: int, stats: Mapping[int, Mapping[str, int]]) -> None:
        def work(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM record_stats WHERE table_id = ?", (table_id,))
            db.executemany(
                "INSERT INTO record_stats (table_id, seat, stat, value) VALUES (?, ?, ?, ?)",
                [
                    (table_id, seat, name, value)
                    for seat, counters in stats.items()
                    for name, value in counters.items()
                ],
            )
            db.execute("UPDATE game_records SET stats_done = 1 WHERE table_id = ?", (table_id,))

        await self._write(work)

    async def stat_totals(self, guild_id: int, user_id: int, game: str) -> dict[str, int]:
        def work(db: sqlite3.Connection) -> dict[str, int]:
            rows = db.execute(
                "SELECT st.stat, SUM(st.value)"
                " FROM record_seats AS s JOIN game_records AS r USING (table_id)"
                " JOIN record_stats AS st ON st.table_id = s.table_id AND st.seat = s.seat"
                " WHERE s.user_id = ? AND r.guild_id = ? AND r.game = ? AND r.outcome = ?"
                " GROUP BY st.stat",
                (user_id, guild_id, game, GameOutcome.FINISHED.value),
            )
            return {name: int(total) for name, total in rows}

        return await self._run(work)

    # --- the outbox ---

    async def undelivered(self, table_id: int) -> list[OutboxEntry]:
        return await self._all(
            outbox_from,
            f"SELECT {_OUTBOX_COLUMNS} FROM outbox"
            " WHERE table_id = ? AND delivered_at IS NULL ORDER BY id",
            (table_id,),
        )

    async def tables_with_undelivered(self) -> list[int]:
        return await self._all(
            _first,
            "SELECT DISTINCT o.table_id FROM outbox AS o JOIN tables AS t ON t.id = o.table_id"
            f" WHERE o.delivered_at IS NULL AND {self._mine} ORDER BY o.table_id",
        )

    async def claim_outbox(self, table_id: int, owner: str, lease: float) -> OutboxClaim:
        def work(db: sqlite3.Connection) -> OutboxClaim:
            now = self._clock()
            held = db.execute(
                "SELECT MAX(claimed_until) FROM outbox WHERE table_id = ?"
                " AND delivered_at IS NULL AND claimed_by != ? AND claimed_until > ?",
                (table_id, owner, now),
            ).fetchone()[0]
            if held is not None:
                return OutboxClaim(entries=[], retry_at=held)
            db.execute(
                "UPDATE outbox SET claimed_by = ?, claimed_until = ?"
                " WHERE table_id = ? AND delivered_at IS NULL",
                (owner, now + lease, table_id),
            )
            rows = db.execute(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox"
                " WHERE table_id = ? AND delivered_at IS NULL ORDER BY id",
                (table_id,),
            )
            return OutboxClaim(entries=[outbox_from(row) for row in rows])

        return await self._write(work)

    async def mark_delivered(self, entry_id: int) -> None:
        now = self._clock()
        await self._write_statement(
            "UPDATE outbox SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL",
            (now, entry_id),
        )

    # --- DM channels ---

    async def dm_channel(self, user_id: int) -> int | None:
        return await self._one(
            _first, "SELECT channel_id FROM dm_channels WHERE user_id = ?", (user_id,)
        )

    async def remember_dm_channel(self, user_id: int, channel_id: int | None) -> None:
        if channel_id is None:
            await self._write_statement("DELETE FROM dm_channels WHERE user_id = ?", (user_id,))
            return
        await self._write_statement(
            "INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
            (user_id, channel_id),
        )

    @staticmethod
    def _require_lobby_or_cas_fail(db: sqlite3.Connection, table_id: int) -> None:
        row = db.execute(
            "SELECT 1 FROM tables WHERE id = ? AND status = ?",
            (table_id, TableStatus.LOBBY.value),
        ).fetchone()
        if row is None:
            raise CasFailed

    @staticmethod
    def _mark_removed(db: sqlite3.Connection, table_id: int, seat: int) -> None:
        cursor = db.execute(
            "UPDATE seats SET removed = 1 WHERE table_id = ? AND seat = ?", (table_id, seat)
        )
        if cursor.rowcount == 0:
            raise NotSeated(f"table {table_id} has no seat {seat}")

    @staticmethod
    def _bump_state(
        db: sqlite3.Connection,
        table_id: int,
        expected_version: int,
        state_json: str | None,
        now: float,
    ) -> None:
        """The compare-and-set: the running table's state goes from
        ``expected_version`` to the next; ``state_json`` None keeps the state."""
        cursor = db.execute(
            "UPDATE states SET version = ? + 1, state_json = COALESCE(?, state_json),"
            " updated_at = ?"
            " WHERE table_id = ? AND version = ?"
            " AND EXISTS (SELECT 1 FROM tables WHERE id = ? AND status = ?)",
            (
                expected_version,
                state_json,
                now,
                table_id,
                expected_version,
                table_id,
                TableStatus.RUNNING.value,
            ),
        )
        if cursor.rowcount == 0:
            raise CasFailed

    @staticmethod
    def _touch_table(db: sqlite3.Connection, table_id: int, now: float) -> None:
        db.execute("UPDATE tables SET updated_at = ? WHERE id = ?", (now, table_id))

    @staticmethod
    def _insert_action(db: sqlite3.Connection, action: ActionRecord) -> None:
        db.execute(
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
    def _insert_events(db: sqlite3.Connection, events: list[EventRecord]) -> None:
        if not events:
            return
        db.executemany(
            "INSERT INTO events (table_id, version, idx, audience_json, event_json)"
            " VALUES (?, ?, ?, ?, ?)",
            [
                (
                    event.table_id,
                    event.version,
                    event.index,
                    audience_json(event),
                    event.event_json,
                )
                for event in events
            ],
        )

    @staticmethod
    def _write_deadline(db: sqlite3.Connection, table_id: int, deadline: Deadline | None) -> None:
        if deadline is None:
            db.execute("DELETE FROM deadlines WHERE table_id = ?", (table_id,))
            return
        db.execute(
            'INSERT OR REPLACE INTO deadlines (table_id, "window", version, due_at)'
            " VALUES (?, ?, ?, ?)",
            (table_id, deadline.window, deadline.version, deadline.due_at),
        )

    async def actions(self, table_id: int) -> list[ActionRecord]:
        return await self._all(
            action_from,
            f"SELECT {_ACTION_COLUMNS} FROM actions WHERE table_id = ? ORDER BY version",
            (table_id,),
        )

    async def events(
        self, table_id: int, *, public_only: bool, last: int | None = None
    ) -> list[EventRecord]:
        audience_filter = " AND audience_json IS NULL" if public_only else ""
        newest_first = (
            "SELECT table_id, version, idx, audience_json, event_json FROM events"
            f" WHERE table_id = ?{audience_filter} ORDER BY version DESC, idx DESC LIMIT ?"
        )
        return await self._all(
            event_from,
            f"SELECT * FROM ({newest_first}) ORDER BY version, idx",
            (table_id, -1 if last is None else last),
        )

    # --- deadlines ---

    async def deadlines(self) -> list[Deadline]:
        return await self._all(
            deadline_from,
            f"SELECT {_DEADLINE_COLUMNS} FROM deadlines AS d JOIN tables AS t ON t.id = d.table_id"
            f" WHERE t.status = ? AND {self._mine} ORDER BY d.due_at, d.table_id",
            (TableStatus.RUNNING.value,),
        )

    async def claim_deadline(self, deadline: Deadline, owner: str, lease: float) -> Claim:
        def work(db: sqlite3.Connection) -> Claim:
            now = self._clock()
            row = db.execute(
                'SELECT "window", version, claimed_by, claimed_until FROM deadlines'
                " WHERE table_id = ?",
                (deadline.table_id,),
            ).fetchone()
            if row is None or (row[0], row[1]) != (deadline.window, deadline.version):
                return Claim(won=False)
            if row[2] not in (None, owner) and row[3] > now:
                return Claim(won=False, retry_at=row[3])
            db.execute(
                "UPDATE deadlines SET claimed_by = ?, claimed_until = ? WHERE table_id = ?",
                (owner, now + lease, deadline.table_id),
            )
            return Claim(won=True)

        return await self._write(work)

    async def deadline(self, table_id: int) -> Deadline | None:
        return await self._one(
            deadline_from,
            f"SELECT {_DEADLINE_COLUMNS} FROM deadlines AS d WHERE d.table_id = ?",
            (table_id,),
        )

    # --- guild settings ---

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        settings = await self._one(
            settings_from,
            "SELECT guild_id, moderator_role_id, turn_timeout, reaction_timeout, choice_timeout,"
            " language FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        return GuildSettings(guild_id=guild_id) if settings is None else settings

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        await self._write_statement(
            "INSERT INTO guild_settings (guild_id, moderator_role_id, turn_timeout,"
            " reaction_timeout, choice_timeout, language) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET"
            " moderator_role_id = excluded.moderator_role_id,"
            " turn_timeout = excluded.turn_timeout,"
            " reaction_timeout = excluded.reaction_timeout,"
            " choice_timeout = excluded.choice_timeout,"
            " language = excluded.language",
            (
                settings.guild_id,
                settings.moderator_role_id,
                settings.turn_timeout,
                settings.reaction_timeout,
                settings.choice_timeout,
                settings.language,
            ),
        )


def _implements_repository(repo: SqliteRepository) -> Repository:
    """Never called: makes mypy check that the class matches the protocol."""
    return repo
