"""What only the SQLite backend does: its file (WAL, checkpoints, versions of old
files), its database thread and the cancellations around it. The storage
contract, on every backend, is test_repository.py."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import EventRecord, SqliteRepository, TableStatus, schema
from bot.storage.sqlite import RunOn
from tests.bot.storage.support import (
    T0,
    FakeClock,
    assert_untouched_after_v0,
    deadline,
    lobby,
    play,
    running,
    status_of,
)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.sqlite3"


@pytest.fixture(params=["thread", "loop"])
def run_on(request: pytest.FixtureRequest) -> RunOn:
    """Both places the repository can run its units of work."""
    value: RunOn = request.param
    return value


@pytest.fixture
async def sqlite_repo(db_path: Path, run_on: RunOn) -> AsyncIterator[SqliteRepository]:
    """On both places the units of work can run."""
    repository = SqliteRepository(db_path, clock=FakeClock(), run_on=run_on)
    await repository.open()
    yield repository
    await repository.close()


def raw(path: Path, sql: str) -> list[tuple[object, ...]]:
    """Reads the file with the stdlib driver, bypassing the repository."""
    with sqlite3.connect(path) as connection:
        return connection.execute(sql).fetchall()


# --- schema and migrations ---------------------------------------------------


async def test_open_creates_folder_and_schema(db_path: Path) -> None:
    repository = SqliteRepository(db_path)
    await repository.open()
    await repository.close()

    assert db_path.is_file()
    assert raw(db_path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    assert raw(db_path, "PRAGMA journal_mode") == [("wal",)]
    names = {row[0] for row in raw(db_path, "SELECT name FROM sqlite_master WHERE type='table'")}
    assert {
        "guild_settings",
        "tables",
        "seats",
        "states",
        "actions",
        "events",
        "deadlines",
    } <= names


async def test_appended_migration_is_applied_on_reopen(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = SqliteRepository(db_path)
    await first.open()
    table = await lobby(first)
    await first.close()

    step = (
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)",
        "INSERT INTO notes VALUES (1, 'x')",
    )
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, step))
    monkeypatch.setattr(schema, "SCHEMA_VERSION", len(schema.MIGRATIONS))
    second = SqliteRepository(db_path)
    await second.open()
    await second.close()
    third = SqliteRepository(db_path)
    await third.open()  # already at the new version: applies nothing twice
    try:
        assert raw(db_path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
        assert raw(db_path, "SELECT * FROM notes") == [(1, "x")]
        assert await third.get_table(table.id) == table
    finally:
        await third.close()


async def test_failed_migration_leaves_previous_version(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = SqliteRepository(db_path)
    await first.open()
    await first.close()
    version = schema.SCHEMA_VERSION

    step = ("CREATE TABLE half_done (id INTEGER)", "THIS IS NOT SQL")
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, step))
    monkeypatch.setattr(schema, "SCHEMA_VERSION", version + 1)
    with pytest.raises(sqlite3.OperationalError):
        await SqliteRepository(db_path).open()

    assert raw(db_path, "PRAGMA user_version") == [(version,)]
    assert raw(db_path, "SELECT name FROM sqlite_master WHERE name = 'half_done'") == []


async def test_newer_schema_is_refused(db_path: Path) -> None:
    first = SqliteRepository(db_path)
    await first.open()
    await first.close()
    with sqlite3.connect(db_path) as connection:
        connection.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION + 1}")
    with pytest.raises(schema.SchemaTooNew):
        await SqliteRepository(db_path).open()


def main_file_tables(path: Path, copy: Path) -> int:
    """The tables a copy of the database file alone holds (its write-ahead log left
    behind): what checkpoints have copied into it."""
    copy.write_bytes(path.read_bytes())
    try:
        (count,) = raw(copy, "SELECT count(*) FROM tables")[0]
    except sqlite3.DatabaseError:  # not even the schema yet, or copied mid-checkpoint
        return 0
    assert isinstance(count, int)
    return count


async def test_commits_reach_the_database_file_by_checkpoints_of_their_own(
    db_path: Path, run_on: RunOn, tmp_path: Path
) -> None:
    repo = SqliteRepository(db_path, run_on=run_on, checkpoint_every=0.02)
    await repo.open()
    try:
        assert raw(db_path, "PRAGMA journal_mode") == [("wal",)]
        autocheckpoint = await repo._run(
            lambda db: db.execute("PRAGMA wal_autocheckpoint").fetchone()[0]
        )
        assert autocheckpoint == 0, "no commit checkpoints by itself"
        for channel in range(5):
            await lobby(repo, channel_id=100 + channel)
        deadline = time.monotonic() + 5
        while main_file_tables(db_path, tmp_path / "copy.sqlite3") < 5:
            assert time.monotonic() < deadline, "the commits never reached the file"
            await asyncio.sleep(0.02)
    finally:
        await repo.close()


async def test_memory_database() -> None:
    repository = SqliteRepository(":memory:")
    await repository.open()
    try:
        table = await lobby(repository)
        assert await repository.get_table(table.id) == table
    finally:
        await repository.close()


# --- the database thread, cancellations ------------------------------------------


class Gate:
    """Holds a unit of work in the database thread until the test opens it."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.opened = threading.Event()

    def hold(self) -> None:
        self.entered.set()
        assert self.opened.wait(10), "the gate was never opened"

    async def wait_entered(self) -> None:
        assert await asyncio.to_thread(self.entered.wait, 10)


@pytest.fixture
async def threaded(db_path: Path) -> AsyncIterator[SqliteRepository]:
    repository = SqliteRepository(db_path, clock=FakeClock(), run_on="thread")
    await repository.open()
    yield repository
    await repository.close()


def held_events(monkeypatch: pytest.MonkeyPatch, gate: Gate, *, then_fail: bool = False) -> None:
    """Commits stop in the database thread after writing their events (and then
    raise, with ``then_fail``)."""
    original = SqliteRepository._insert_events

    def held(db: sqlite3.Connection, events: list[EventRecord]) -> None:
        original(db, events)
        gate.hold()
        if then_fail:
            raise RuntimeError("failed after its caller left")

    monkeypatch.setattr(SqliteRepository, "_insert_events", staticmethod(held))


async def test_a_cancelled_commit_runs_to_its_end_and_its_result_is_discarded(
    threaded: SqliteRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cancelling the caller never cuts a transaction short: the unit of work
    finishes in the database thread (here: commits), nobody gets its result, and
    the connection is left out of any transaction."""
    repo = threaded
    table = await running(repo)
    gate = Gate()
    held_events(monkeypatch, gate)
    task = asyncio.create_task(play(repo, table.id, 0, next_deadline=deadline(table.id, 1, T0)))
    await gate.wait_entered()
    await asyncio.sleep(0.01)  # the loop is free while the unit runs
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    gate.opened.set()
    monkeypatch.undo()
    state = await repo.load_state(table.id)  # queued behind the held unit
    assert state is not None and state.version == 1, "the cancelled commit ran to its end"
    assert [a.version for a in await repo.actions(table.id)] == [0, 1]
    assert await repo.deadlines() == [deadline(table.id, 1, T0)]
    assert await play(repo, table.id, 1), "not left inside a transaction"


async def test_a_unit_failing_after_its_caller_left_rolls_back_quietly(
    threaded: SqliteRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = threaded
    table = await running(repo)
    gate = Gate()
    held_events(monkeypatch, gate, then_fail=True)
    errors: list[dict[str, object]] = []
    asyncio.get_running_loop().set_exception_handler(lambda loop, context: errors.append(context))
    task = asyncio.create_task(play(repo, table.id, 0, next_deadline=deadline(table.id, 1, T0)))
    await gate.wait_entered()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    gate.opened.set()
    monkeypatch.undo()
    await assert_untouched_after_v0(repo, table)
    assert await play(repo, table.id, 0)
    assert errors == [], "the discarded exception is not reported as never retrieved"


async def test_a_caller_cancelled_while_its_unit_waits_still_gets_it_run(
    threaded: SqliteRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A unit submitted behind another one is not dropped when its caller gives
    up: whatever was submitted happens, in the order it was submitted."""
    repo = threaded
    first, second = await running(repo), await running(repo, channel_id=11)
    gate = Gate()
    held_events(monkeypatch, gate)
    held = asyncio.create_task(play(repo, first.id, 0))
    await gate.wait_entered()
    waiting = asyncio.create_task(repo.set_status(second.id, TableStatus.CANCELLED))
    await asyncio.sleep(0.01)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    gate.opened.set()
    assert await held
    assert await status_of(repo, second.id) is TableStatus.CANCELLED


async def test_close_finishes_the_submitted_work_then_refuses_more(
    threaded: SqliteRepository, db_path: Path
) -> None:
    repo = threaded
    tables = [await running(repo, channel_id=channel) for channel in range(20, 30)]
    plays = [asyncio.create_task(play(repo, table.id, 0)) for table in tables]
    await asyncio.sleep(0)  # every play has submitted its unit
    await repo.close()
    assert all(task.done() and task.result() for task in plays)
    assert raw(db_path, "SELECT COUNT(*) FROM states WHERE version = 1") == [(len(tables),)]
    with pytest.raises(RuntimeError, match="not open"):
        await repo.get_table(tables[0].id)
    await repo.close()  # idempotent


async def test_units_run_on_the_database_thread_or_the_loop(
    sqlite_repo: SqliteRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = sqlite_repo
    table = await running(repo)
    threads: list[threading.Thread] = []
    original = SqliteRepository._touch_table

    def touch(db: sqlite3.Connection, table_id: int, now: float) -> None:
        threads.append(threading.current_thread())
        original(db, table_id, now)

    monkeypatch.setattr(SqliteRepository, "_touch_table", staticmethod(touch))
    assert await play(repo, table.id, 0)
    on_loop = threads == [threading.current_thread()]
    assert on_loop is (repo.run_on == "loop")


async def test_a_cancelled_open_leaves_the_repository_closed(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cancelled open's thread finishes connecting after a new open() and
    closes its own connection, not the new one."""
    gate = Gate()
    original = SqliteRepository._connect
    calls = 0

    def connect(self: SqliteRepository) -> None:
        nonlocal calls
        calls += 1
        if calls == 1:
            gate.hold()
        original(self)

    monkeypatch.setattr(SqliteRepository, "_connect", connect)
    repository = SqliteRepository(db_path, run_on="thread")
    opening = asyncio.create_task(repository.open())
    await gate.wait_entered()
    opening.cancel()
    with pytest.raises(asyncio.CancelledError):
        await opening
    with pytest.raises(RuntimeError, match="not open"):
        await repository.get_table(1)
    await repository.open()
    try:
        gate.opened.set()
        await asyncio.sleep(0.05)  # the first thread connects, then disconnects
        assert await repository.get_table(1) is None
        assert calls == 2
    finally:
        await repository.close()


def test_run_on_is_checked() -> None:
    with pytest.raises(ValueError, match="run_on"):
        SqliteRepository(":memory:", run_on="elsewhere")  # type: ignore[arg-type]


# --- files written by older versions ----------------------------------------------


async def test_a_version_1_file_is_upgraded_keeping_its_tables(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(db_path) as connection:
        for statement in schema.MIGRATIONS[0]:
            connection.execute(statement)
        connection.execute(
            "INSERT INTO tables (guild_id, channel_id, game, status, creator_id, options_json,"
            " turn_timeout, reaction_timeout, choice_timeout, created_at, updated_at)"
            " VALUES (1, 2, 'complots', 'lobby', 3, '{}', 60, 20, 30, 0, 0)"
        )
        connection.execute(
            "INSERT INTO seats (table_id, seat, user_id, name) VALUES (1, 0, 3, 'Ann')"
        )
        connection.execute("PRAGMA user_version = 1")
    repository = SqliteRepository(db_path)
    await repository.open()
    try:
        table = await repository.open_table_in_channel(2)
        assert table is not None and table.rendered_version is None
        assert table.takeover, "v3: existing tables let computers take over away players"
        [seat] = await repository.seats(table.id)
        assert seat.name == "Ann" and seat.computer is None, "v3: existing seats are people"
        assert raw(db_path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
        assert schema.SCHEMA_VERSION == 11
        assert await repository.dm_channel(3) is None, "v11: no DM channel kept yet"
        assert table.computer_level == "normal", "v10: computers play as before"
        assert not table.hidden, "v7: existing tables are public, as before"
        assert await repository.undelivered(table.id) == [], "v4: an empty outbox"
        assert table.language == "en", "v5: existing tables speak English, as before"
        assert seat.locale is None, "v5: existing seats' DMs follow their table"
        settings = await repository.guild_settings(1)
        assert settings.language is None, "v5: guilds follow their preferred locale"
        assert await repository.recent_records(1) == [], "v6: no records yet"
        assert await repository.records_awaiting_stats(10) == [], "v8: no statistics owed"
        claim = await repository.claim_outbox(table.id, "me", 30.0)
        assert claim.entries == [] and claim.retry_at is None, "v9: nothing claimed"
    finally:
        await repository.close()


async def test_version_4_marks_what_table_messages_show(db_path: Path) -> None:
    """Upgraded open tables show their status; a table that ended in the last day
    may still show live buttons (boot redraws it once); older ones are left alone."""
    db_path.parent.mkdir(parents=True, exist_ok=True)
    now = time.time()
    with sqlite3.connect(db_path) as connection:
        for step in schema.MIGRATIONS[:3]:
            for statement in step:
                connection.execute(statement)
        for table_id, status, updated in (
            (1, "running", now),
            (2, "finished", now - 60),
            (3, "finished", now - 3 * 86400),
        ):
            connection.execute(
                "INSERT INTO tables (id, guild_id, channel_id, game, status, creator_id,"
                " options_json, turn_timeout, reaction_timeout, choice_timeout, created_at,"
                " updated_at, message_id) VALUES (?, 1, ?, 'complots', ?, 3, '{}', 60, 20, 30,"
                " 0, ?, 99)",
                (table_id, table_id, status, updated),
            )
        connection.execute("PRAGMA user_version = 3")
    repository = SqliteRepository(db_path)
    await repository.open()
    try:
        shown = [await repository.get_table(table_id) for table_id in (1, 2, 3)]
        assert [t.rendered_status if t else "gone" for t in shown] == [
            TableStatus.RUNNING,
            None,
            TableStatus.FINISHED,
        ]
        assert 2 in await repository.tables_to_refresh()
        assert 3 not in await repository.tables_to_refresh()
    finally:
        await repository.close()
