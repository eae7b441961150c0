"""What only the PostgreSQL backend does: its schema and migrations (the same
versions as SQLite's), and several repositories (pools, processes) writing one
database at once. The storage contract, on every backend, is test_repository.py."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import asyncpg
import pytest

from bot.storage import (
    ActionKind,
    ChannelBusy,
    EventRecord,
    GameOutcome,
    GameRecord,
    RecordSeat,
    StateRecord,
    TableStatus,
    Timeouts,
    postgres,
    postgres_schema,
    schema,
)
from bot.storage.postgres import PostgresRepository
from tests.bot.storage.support import (
    GUILD,
    T0,
    FakeClock,
    action,
    assert_untouched_after_v0,
    deadline,
    event,
    play,
    running,
)

if TYPE_CHECKING:
    from bot.storage.postgres_schema import Db

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
async def repo(postgres_dsn: str) -> AsyncIterator[PostgresRepository]:
    repository = PostgresRepository(postgres_dsn, clock=FakeClock())
    await repository.open()
    yield repository
    await repository.close()


async def opened(dsn: str, count: int) -> list[PostgresRepository]:
    """``count`` repositories (a pool each, as processes have) on one database."""
    repositories = [PostgresRepository(dsn) for _ in range(count)]
    await asyncio.gather(*(repository.open() for repository in repositories))
    return repositories


async def close_all(repositories: list[PostgresRepository]) -> None:
    await asyncio.gather(*(repository.close() for repository in repositories))


async def query(dsn: str, sql: str, *args: object) -> list[tuple[object, ...]]:
    """Reads the database directly, bypassing the repository."""
    db = await asyncpg.connect(dsn)
    try:
        return [tuple(row) for row in await db.fetch(sql, *args)]
    finally:
        await db.close()


# --- schema and migrations ------------------------------------------------------


def sqlite_shape() -> dict[str, set[tuple[str, bool]]]:
    """Each table of the SQLite schema: its columns, and whether each may be NULL
    (primary keys left out: SQLite reports its integer keys nullable)."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    try:
        schema.migrate(db)
        names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {
            name: {
                (column, not notnull and not pk)
                for _, column, _, notnull, _, pk in db.execute(f"PRAGMA table_info({name})")
            }
            for name in names
            if not name.startswith("sqlite_")
        }
    finally:
        db.close()


async def postgres_shape(dsn: str) -> dict[str, set[tuple[str, bool]]]:
    rows = await query(
        dsn,
        "SELECT c.table_name, c.column_name, c.is_nullable = 'YES'"
        "   AND NOT EXISTS (SELECT 1 FROM information_schema.key_column_usage AS k"
        "     JOIN information_schema.table_constraints AS t USING (constraint_name)"
        "     WHERE t.constraint_type = 'PRIMARY KEY' AND k.table_name = c.table_name"
        "       AND k.column_name = c.column_name)"
        " FROM information_schema.columns AS c"
        " WHERE c.table_schema = 'public' AND c.table_name <> 'schema_version'",
    )
    shape: dict[str, set[tuple[str, bool]]] = {}
    for table, column, nullable in rows:
        assert isinstance(table, str) and isinstance(column, str)
        shape.setdefault(table, set()).add((column, bool(nullable)))
    return shape


async def test_the_schema_has_sqlites_versions_tables_columns_and_indexes(
    postgres_dsn: str,
) -> None:
    assert postgres_schema.SCHEMA_VERSION == schema.SCHEMA_VERSION, "the same steps"
    assert await query(postgres_dsn, "SELECT version FROM schema_version") == [
        (schema.SCHEMA_VERSION,)
    ]
    assert await postgres_shape(postgres_dsn) == sqlite_shape()

    db = sqlite3.connect(":memory:", isolation_level=None)
    schema.migrate(db)
    sqlite_indexes = {
        row[0]
        for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
        if not row[0].startswith("sqlite_autoindex")
    }
    db.close()
    postgres_indexes = {
        row[0]
        for row in await query(
            postgres_dsn, "SELECT indexname FROM pg_indexes WHERE schemaname = 'public'"
        )
        if isinstance(row[0], str) and not row[0].endswith(("_pkey", "_key"))
    }
    assert postgres_indexes == sqlite_indexes


def appended_step(monkeypatch: pytest.MonkeyPatch, *statements: str) -> int:
    """A new migration step after the real ones; its version."""
    steps = (*postgres_schema.MIGRATIONS, statements)
    monkeypatch.setattr(postgres_schema, "MIGRATIONS", steps)
    monkeypatch.setattr(postgres_schema, "SCHEMA_VERSION", len(steps))
    return len(steps)


async def test_migrations_are_applied_once_when_processes_open_together(
    empty_postgres_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four repositories open an empty database at the same moment: each step runs
    once (a second run of a CREATE TABLE would fail, the INSERT would count twice)."""
    version = appended_step(
        monkeypatch,
        "CREATE TABLE notes (id BIGSERIAL PRIMARY KEY, text TEXT NOT NULL)",
        "INSERT INTO notes (text) VALUES ('applied')",
    )
    repositories = await opened(empty_postgres_dsn, 4)
    try:
        assert await query(empty_postgres_dsn, "SELECT text FROM notes") == [("applied",)]
        assert await query(empty_postgres_dsn, "SELECT version FROM schema_version") == [(version,)]
        table = await running(repositories[0])
        assert await repositories[3].get_table(table.id) == await repositories[1].get_table(
            table.id
        )
    finally:
        await close_all(repositories)
    again = await opened(empty_postgres_dsn, 2)  # at the version already: nothing runs
    await close_all(again)
    assert await query(empty_postgres_dsn, "SELECT count(*) FROM notes") == [(1,)]


async def test_a_failed_migration_leaves_the_previous_version(
    empty_postgres_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    await close_all(await opened(empty_postgres_dsn, 1))
    appended_step(monkeypatch, "CREATE TABLE half_done (id INTEGER)", "THIS IS NOT SQL")
    with pytest.raises(asyncpg.PostgresSyntaxError):
        await PostgresRepository(empty_postgres_dsn).open()
    assert await query(empty_postgres_dsn, "SELECT version FROM schema_version") == [
        (schema.SCHEMA_VERSION,)
    ]
    assert await query(empty_postgres_dsn, "SELECT to_regclass('half_done')") == [(None,)]


async def test_a_newer_schema_is_refused(empty_postgres_dsn: str) -> None:
    await close_all(await opened(empty_postgres_dsn, 1))
    await query(empty_postgres_dsn, "UPDATE schema_version SET version = version + 1")
    repository = PostgresRepository(empty_postgres_dsn)
    with pytest.raises(schema.SchemaTooNew):
        await repository.open()
    with pytest.raises(RuntimeError, match="not open"):
        await repository.get_table(1)


async def test_a_version_3_database_is_upgraded_keeping_its_tables(
    empty_postgres_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Upgraded open tables show their status; a table that ended in the last day
    may still show live buttons (boot redraws it once); older ones are left alone.
    The later steps give the old rows their defaults."""
    with monkeypatch.context() as older:
        older.setattr(postgres_schema, "MIGRATIONS", postgres_schema.MIGRATIONS[:3])
        older.setattr(postgres_schema, "SCHEMA_VERSION", 3)
        await close_all(await opened(empty_postgres_dsn, 1))
    now = time.time()
    for table_id, status, updated in (
        (1, "running", now),
        (2, "finished", now - 60),
        (3, "finished", now - 3 * 86400),
    ):
        await query(
            empty_postgres_dsn,
            "INSERT INTO tables (id, guild_id, channel_id, game, status, creator_id,"
            " options_json, turn_timeout, reaction_timeout, choice_timeout, created_at,"
            " updated_at, message_id) VALUES ($1, 1, $1, 'complots', $2, 3, '{}', 60, 20, 30,"
            " 0, $3, 99)",
            table_id,
            status,
            updated,
        )
    await query(empty_postgres_dsn, "INSERT INTO seats VALUES (1, 0, 3, 'Ann', 0, FALSE, NULL)")

    [repository] = await opened(empty_postgres_dsn, 1)
    try:
        shown = [await repository.get_table(table_id) for table_id in (1, 2, 3)]
        assert [t.rendered_status if t else "gone" for t in shown] == [
            TableStatus.RUNNING,
            None,
            TableStatus.FINISHED,
        ]
        refresh = await repository.tables_to_refresh()
        assert 2 in refresh and 3 not in refresh
        table = shown[0]
        assert table is not None and table.takeover and not table.hidden
        assert table.language == "en"
        [seat] = await repository.seats(1)
        assert (seat.name, seat.computer, seat.locale) == ("Ann", None, None)
        assert await repository.recent_records(1) == []
    finally:
        await repository.close()


# --- several repositories on one database -------------------------------------------


async def test_compare_and_set_holds_across_pools(postgres_dsn: str) -> None:
    """Three repositories (as three processes) race twelve commits of the same step,
    round after round: exactly one wins each round, and the log has no gap."""
    repositories = await opened(postgres_dsn, 3)
    try:
        table = await running(repositories[0])
        winners: list[str] = []
        for version in range(8):
            racers = [(n, repositories[n % 3]) for n in range(12)]
            results = await asyncio.gather(
                *(
                    repository.commit(
                        table.id,
                        expected_version=version,
                        state_json=json.dumps({"by": n}),
                        action=action(table.id, version + 1, choice=json.dumps({"by": n})),
                        events=[event(table.id, version + 1, 0)],
                        deadline=deadline(table.id, version + 1, T0 + n),
                    )
                    for n, repository in racers
                )
            )
            assert results.count(True) == 1, f"round {version}: {results}"
            winners.append(json.dumps({"by": results.index(True)}))
        actions = await repositories[2].actions(table.id)
        assert [a.version for a in actions] == list(range(9))
        assert [a.choice_json for a in actions[1:]] == winners
        assert await repositories[1].load_state(table.id) == StateRecord(
            table_id=table.id, version=8, state_json=winners[-1]
        )
        assert len(await repositories[0].events(table.id, public_only=False)) == 8
    finally:
        await close_all(repositories)


async def test_one_open_table_per_channel_across_pools(postgres_dsn: str) -> None:
    repositories = await opened(postgres_dsn, 3)
    try:
        results = await asyncio.gather(
            *(
                repository.create_table(
                    guild_id=GUILD,
                    channel_id=10,
                    game="complots",
                    creator_id=n,
                    creator_name=f"user{n}",
                    options_json="{}",
                    timeouts=Timeouts(turn=60, reaction=20, choice=45),
                )
                for n, repository in enumerate(repositories * 3)
            ),
            return_exceptions=True,
        )
        [table] = [result for result in results if not isinstance(result, BaseException)]
        busy = [result for result in results if isinstance(result, ChannelBusy)]
        assert len(busy) == 8 and {error.table_id for error in busy} == {table.id}
        assert await repositories[2].open_table_in_channel(10) == table
    finally:
        await close_all(repositories)


def won_by(table_id: int, winner: int) -> GameRecord:
    return GameRecord(
        table_id=table_id,
        guild_id=GUILD,
        channel_id=table_id,
        game="complots",
        options_json="{}",
        outcome=GameOutcome.FINISHED,
        ended_at=T0 + table_id,
        steps=10,
        seats=[
            RecordSeat(seat=seat, user_id=user, name=f"user{user}", winner=user == winner)
            for seat, user in enumerate((1, 2, 3))
        ],
    )


async def test_games_ending_at_once_on_two_pools_all_count_in_the_ratings(
    postgres_dsn: str,
) -> None:
    repositories = await opened(postgres_dsn, 2)
    try:
        tables = [await running(repositories[0], channel_id=20 + n) for n in range(8)]
        results = await asyncio.gather(
            *(
                repositories[n % 2].commit(
                    table.id,
                    expected_version=0,
                    state_json="{}",
                    action=action(table.id, 1),
                    events=[],
                    deadline=None,
                    status=TableStatus.FINISHED,
                    record=won_by(table.id, winner=1 + n % 3),
                )
                for n, table in enumerate(tables)
            )
        )
        assert all(results)
        skills = await repositories[1].skills(GUILD, "complots")
        assert {user: (s.games, s.wins) for user, s in skills.items()} == {
            1: (8, 3),
            2: (8, 3),
            3: (8, 2),
        }, "no game's rating lost to another's"
    finally:
        await close_all(repositories)


# --- cancellations and crashes ----------------------------------------------------


class Gate:
    """Holds a write transaction in its middle until the test opens it."""

    def __init__(self) -> None:
        self.entered = asyncio.Event()
        self.opened = asyncio.Event()


def held_events(monkeypatch: pytest.MonkeyPatch, gate: Gate, *, then_fail: bool = False) -> None:
    """Commits stop after writing their events, inside their transaction (and then
    raise, with ``then_fail``)."""
    original = postgres._insert_events

    async def held(db: Db, events: list[EventRecord]) -> None:
        await original(db, events)
        gate.entered.set()
        await gate.opened.wait()
        if then_fail:
            raise RuntimeError("failed after its caller left")

    monkeypatch.setattr(postgres, "_insert_events", held)


async def cancelled_mid_commit(
    repo: PostgresRepository, table_id: int, gate: Gate, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit whose caller is cancelled while its transaction is under way; then
    the transaction is let go, and the repository closed and opened again."""
    task = asyncio.create_task(play(repo, table_id, 0, next_deadline=deadline(table_id, 1, T0)))
    await asyncio.wait_for(gate.entered.wait(), 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    gate.opened.set()
    monkeypatch.undo()
    await repo.close()  # waits for the transaction under way
    await repo.open()


async def test_a_cancelled_commit_runs_to_its_end_and_its_result_is_discarded(
    repo: PostgresRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As SQLite's units of work: cancelling the caller never cuts a transaction
    short (here it commits), and closing waits for it."""
    table = await running(repo)
    gate = Gate()
    held_events(monkeypatch, gate)
    await cancelled_mid_commit(repo, table.id, gate, monkeypatch)
    state = await repo.load_state(table.id)
    assert state is not None and state.version == 1, "the cancelled commit ran to its end"
    assert [a.version for a in await repo.actions(table.id)] == [0, 1]
    assert await repo.deadlines() == [deadline(table.id, 1, T0)]
    assert await play(repo, table.id, 1)


async def test_a_write_failing_after_its_caller_left_rolls_back_quietly(
    repo: PostgresRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await running(repo)
    errors: list[dict[str, object]] = []
    asyncio.get_running_loop().set_exception_handler(lambda loop, context: errors.append(context))
    gate = Gate()
    held_events(monkeypatch, gate, then_fail=True)
    await cancelled_mid_commit(repo, table.id, gate, monkeypatch)
    await assert_untouched_after_v0(repo, table)
    assert await play(repo, table.id, 0)
    assert errors == [], "the discarded exception is not reported as never retrieved"


HELD_CHILD = """
import asyncio
from bot.storage import ActionKind, ActionRecord, postgres
from bot.storage.postgres import PostgresRepository

original = postgres._insert_events

async def held(db, events):
    await original(db, events)
    print("inside the transaction", flush=True)
    await asyncio.sleep(60)

postgres._insert_events = held

async def main():
    repo = PostgresRepository({dsn!r})
    await repo.open()
    await repo.commit(
        {table_id}, expected_version=0, state_json='{{"child": 1}}',
        action=ActionRecord(table_id={table_id}, version=1, kind=ActionKind.TIMEOUT,
                            created_at=1.0),
        events=[], deadline=None, status=None,
    )

asyncio.run(main())
"""


async def test_a_process_killed_in_the_middle_of_a_step_leaves_nothing_of_it(
    repo: PostgresRepository, postgres_dsn: str
) -> None:
    """SIGKILL while the step's transaction holds the table: the server rolls it
    back and lets go of the table; the next step goes on from the last committed."""
    table = await running(repo)
    with subprocess.Popen(
        [sys.executable, "-c", HELD_CHILD.format(dsn=postgres_dsn, table_id=table.id)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    ) as child:
        try:
            assert child.stdout is not None and child.stderr is not None
            line = await asyncio.wait_for(asyncio.to_thread(child.stdout.readline), 30)
            assert line == "inside the transaction\n", child.stderr.read()
        finally:
            child.send_signal(signal.SIGKILL)
    await assert_untouched_after_v0(repo, table)
    assert await asyncio.wait_for(play(repo, table.id, 0), 10), "the table is free again"
    assert [a.kind for a in await repo.actions(table.id)] == [
        ActionKind.START,
        ActionKind.CHOICE,
    ]
