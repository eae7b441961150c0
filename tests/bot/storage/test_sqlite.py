"""SqliteRepository against real SQLite files in a temp dir."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import (
    ActionKind,
    ActionRecord,
    AlreadySeated,
    ChannelBusy,
    Deadline,
    EventRecord,
    GameOutcome,
    GameRecord,
    GuildSettings,
    NotSeated,
    RecordSeat,
    Repository,
    SqliteRepository,
    StateRecord,
    TableFull,
    TableRecord,
    TableStatus,
    Timeouts,
    UnknownTable,
    WrongStatus,
    schema,
)
from bot.storage.sqlite import RunOn

GUILD = 100
TIMEOUTS = Timeouts(turn=60, reaction=20, choice=45)
CREATOR = 1
T0 = 1_700_000_000.0


class FakeClock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.sqlite3"


@pytest.fixture(params=["thread", "loop"])
def run_on(request: pytest.FixtureRequest) -> RunOn:
    """Both places the repository can run its units of work."""
    value: RunOn = request.param
    return value


@pytest.fixture
async def repo(db_path: Path, run_on: RunOn) -> AsyncIterator[SqliteRepository]:
    repository = SqliteRepository(db_path, clock=FakeClock(), run_on=run_on)
    await repository.open()
    yield repository
    await repository.close()


def raw(path: Path, sql: str) -> list[tuple[object, ...]]:
    """Reads the file with the stdlib driver, bypassing the repository."""
    with sqlite3.connect(path) as connection:
        return connection.execute(sql).fetchall()


async def lobby(
    repo: Repository, channel_id: int = 10, players: int = 1, guild_id: int = GUILD
) -> TableRecord:
    table = await repo.create_table(
        guild_id=guild_id,
        channel_id=channel_id,
        game="complots",
        creator_id=CREATOR,
        creator_name="creator",
        options_json='{"variant": "base"}',
        timeouts=TIMEOUTS,
    )
    for user in range(2, players + 1):
        await repo.add_seat(table.id, user, f"user{user}", max_seats=8)
    return table


def action(
    table_id: int, version: int, kind: ActionKind = ActionKind.CHOICE, choice: str = "{}"
) -> ActionRecord:
    return ActionRecord(
        table_id=table_id,
        version=version,
        kind=kind,
        seat=0 if kind is ActionKind.CHOICE else None,
        user_id=CREATOR if kind is ActionKind.CHOICE else None,
        choice_json=choice if kind is ActionKind.CHOICE else None,
        created_at=T0 + version,
    )


def event(
    table_id: int, version: int, index: int, audience: list[int] | None = None
) -> EventRecord:
    return EventRecord(
        table_id=table_id,
        version=version,
        index=index,
        audience=audience,
        event_json=json.dumps({"v": version, "i": index}),
    )


def deadline(table_id: int, version: int, due_at: float, window: str = "turn") -> Deadline:
    return Deadline(table_id=table_id, window=window, version=version, due_at=due_at)


async def running(
    repo: Repository, channel_id: int = 10, players: int = 3, due_at: float = T0 + 60
) -> TableRecord:
    table = await lobby(repo, channel_id, players)
    await repo.start_game(
        table.id,
        seed=42,
        state_json='{"v": 0}',
        seat_order=list(range(1, players + 1)),
        action=action(table.id, 0, ActionKind.START),
        deadline=deadline(table.id, 0, due_at),
    )
    return table


async def play(
    repo: Repository,
    table_id: int,
    expected_version: int,
    *,
    events: list[EventRecord] | None = None,
    next_deadline: Deadline | None = None,
    status: TableStatus | None = None,
    record: GameRecord | None = None,
) -> bool:
    version = expected_version + 1
    return await repo.commit(
        table_id,
        expected_version=expected_version,
        state_json=json.dumps({"v": version}),
        action=action(table_id, version, choice=json.dumps({"move": version})),
        events=[event(table_id, version, 0)] if events is None else events,
        deadline=next_deadline,
        status=status,
        record=record,
    )


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


async def test_reopen_is_idempotent_and_keeps_data(db_path: Path) -> None:
    first = SqliteRepository(db_path)
    await first.open()
    await first.open()  # twice on one instance: no-op
    table = await lobby(first)
    await first.close()

    second = SqliteRepository(db_path)
    await second.open()
    try:
        assert await second.get_table(table.id) == table
        assert raw(db_path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    finally:
        await second.close()


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


async def test_closed_repository_refuses_work(db_path: Path) -> None:
    repository = SqliteRepository(db_path)
    with pytest.raises(RuntimeError, match="not open"):
        await repository.get_table(1)


# --- tables ------------------------------------------------------------------


async def test_create_get_and_list_tables(repo: SqliteRepository) -> None:
    table = await lobby(repo, channel_id=10)
    assert table.status is TableStatus.LOBBY
    assert table.timeouts == TIMEOUTS
    assert table.created_at == table.updated_at > T0
    assert await repo.get_table(table.id) == table
    assert await repo.get_table(table.id + 99) is None
    assert await repo.open_table_in_channel(10) == table
    assert await repo.open_table_in_channel(11) is None
    [creator] = await repo.seats(table.id)
    assert (creator.seat, creator.user_id, creator.name) == (0, CREATOR, "creator")

    other = await running(repo, channel_id=11)
    elsewhere = await lobby(repo, channel_id=12, guild_id=GUILD + 1)
    assert await repo.list_tables(GUILD, (TableStatus.LOBBY,)) == [table]
    assert [
        t.id for t in await repo.list_tables(GUILD, (TableStatus.LOBBY, TableStatus.RUNNING))
    ] == [
        table.id,
        other.id,
    ]
    assert await repo.list_tables(GUILD + 1, (TableStatus.LOBBY,)) == [elsewhere]
    assert await repo.list_tables(GUILD, ()) == []
    assert [t.id for t in await repo.running_tables()] == [other.id]


async def test_rematch_and_message(repo: SqliteRepository) -> None:
    first = await running(repo)
    await repo.set_status(first.id, TableStatus.FINISHED)
    second = await repo.create_table(
        guild_id=GUILD,
        channel_id=10,
        game="complots",
        creator_id=CREATOR,
        creator_name="creator",
        options_json="{}",
        timeouts=TIMEOUTS,
        rematch_of=first.id,
    )
    await repo.set_message(second.id, 555)
    stored = await repo.get_table(second.id)
    assert stored is not None
    assert (stored.rematch_of, stored.message_id) == (first.id, 555)
    assert stored.updated_at > second.updated_at
    with pytest.raises(UnknownTable):
        await repo.set_message(999, 1)


async def test_channel_busy_until_table_closes(repo: SqliteRepository) -> None:
    first = await lobby(repo, channel_id=10)
    with pytest.raises(ChannelBusy) as busy:
        await lobby(repo, channel_id=10)
    assert busy.value.table_id == first.id
    await lobby(repo, channel_id=11)  # another channel is free

    await repo.set_status(first.id, TableStatus.RUNNING)
    with pytest.raises(ChannelBusy):
        await lobby(repo, channel_id=10)

    await repo.set_status(first.id, TableStatus.FINISHED)
    second = await lobby(repo, channel_id=10)
    await repo.set_status(second.id, TableStatus.CANCELLED)
    third = await lobby(repo, channel_id=10)
    assert await repo.open_table_in_channel(10) == third

    # Reopening an old table while another is open is refused too.
    with pytest.raises(ChannelBusy) as busy:
        await repo.set_status(first.id, TableStatus.LOBBY)
    assert busy.value.table_id == third.id
    stored = await repo.get_table(first.id)
    assert stored is not None and stored.status is TableStatus.FINISHED


async def test_set_status_of_unknown_table(repo: SqliteRepository) -> None:
    with pytest.raises(UnknownTable):
        await repo.set_status(12345, TableStatus.CANCELLED)


# --- seats -------------------------------------------------------------------


async def test_seats_add_and_errors(repo: SqliteRepository) -> None:
    table = await lobby(repo)
    second = await repo.add_seat(table.id, 2, "two", max_seats=3)
    third = await repo.add_seat(table.id, 3, "three", max_seats=3)
    assert (second.seat, third.seat) == (1, 2)
    with pytest.raises(AlreadySeated):
        await repo.add_seat(table.id, 2, "two again", max_seats=8)
    with pytest.raises(TableFull):
        await repo.add_seat(table.id, 4, "four", max_seats=3)
    assert [(s.seat, s.user_id, s.name) for s in await repo.seats(table.id)] == [
        (0, CREATOR, "creator"),
        (1, 2, "two"),
        (2, 3, "three"),
    ]
    with pytest.raises(UnknownTable):
        await repo.add_seat(999, 4, "four", max_seats=3)


async def test_remove_seat_renumbers_later_seats(repo: SqliteRepository) -> None:
    table = await lobby(repo, players=5)
    await repo.remove_seat(table.id, 2)
    assert [(s.seat, s.user_id) for s in await repo.seats(table.id)] == [
        (0, 1),
        (1, 3),
        (2, 4),
        (3, 5),
    ]
    await repo.remove_seat(table.id, 1)
    await repo.remove_seat(table.id, 5)
    assert [(s.seat, s.user_id, s.name) for s in await repo.seats(table.id)] == [
        (0, 3, "user3"),
        (1, 4, "user4"),
    ]
    with pytest.raises(NotSeated):
        await repo.remove_seat(table.id, 2)
    added = await repo.add_seat(table.id, 9, "nine", max_seats=8)
    assert added.seat == 2


async def test_seats_only_change_in_a_lobby(repo: SqliteRepository) -> None:
    table = await running(repo, players=2)
    with pytest.raises(WrongStatus):
        await repo.add_seat(table.id, 7, "seven", max_seats=8)
    with pytest.raises(WrongStatus):
        await repo.remove_seat(table.id, 2)
    assert [s.user_id for s in await repo.seats(table.id)] == [1, 2]


async def test_update_seat(repo: SqliteRepository) -> None:
    table = await running(repo, players=3)
    await repo.update_seat(table.id, 1, away_strikes=2)
    await repo.update_seat(table.id, 2, removed=True)
    await repo.update_seat(table.id, 1)  # nothing to change
    seats = await repo.seats(table.id)
    assert [(s.away_strikes, s.removed) for s in seats] == [(0, False), (2, False), (0, True)]
    await repo.update_seat(table.id, 1, away_strikes=0, removed=True)
    assert (await repo.seats(table.id))[1].model_dump(include={"away_strikes", "removed"}) == {
        "away_strikes": 0,
        "removed": True,
    }
    with pytest.raises(NotSeated):
        await repo.update_seat(table.id, 7, away_strikes=1)
    with pytest.raises(NotSeated):
        await repo.update_seat(table.id, 7)


# --- start_game --------------------------------------------------------------


async def test_start_game(repo: SqliteRepository) -> None:
    table = await lobby(repo, players=3)
    first = deadline(table.id, 0, T0 + 30)
    state = await repo.start_game(
        table.id,
        seed=7,
        state_json='{"start": true}',
        seat_order=[3, 1, 2],
        action=action(table.id, 0, ActionKind.START),
        deadline=first,
    )
    assert state == StateRecord(table_id=table.id, version=0, state_json='{"start": true}')
    assert await repo.load_state(table.id) == state
    assert [(s.seat, s.user_id, s.name) for s in await repo.seats(table.id)] == [
        (0, 3, "user3"),
        (1, 1, "creator"),
        (2, 2, "user2"),
    ]
    assert await repo.actions(table.id) == [action(table.id, 0, ActionKind.START)]
    assert await repo.deadlines() == [first]
    stored = await repo.get_table(table.id)
    assert stored is not None
    assert (stored.status, stored.seed) == (TableStatus.RUNNING, 7)

    with pytest.raises(WrongStatus):
        await repo.start_game(
            table.id,
            seed=8,
            state_json="{}",
            seat_order=[1, 2, 3],
            action=action(table.id, 0, ActionKind.START),
            deadline=None,
        )
    assert await repo.load_state(table.id) == state


@pytest.mark.parametrize("order", [[1, 2], [1, 2, 3, 4], [1, 2, 2], [1, 2, 9]])
async def test_start_game_rejects_a_bad_seat_order(
    repo: SqliteRepository, order: list[int]
) -> None:
    table = await lobby(repo, players=3)
    with pytest.raises(ValueError, match="permutation"):
        await repo.start_game(
            table.id,
            seed=1,
            state_json="{}",
            seat_order=order,
            action=action(table.id, 0, ActionKind.START),
            deadline=deadline(table.id, 0, T0),
        )
    stored = await repo.get_table(table.id)
    assert stored is not None and stored.status is TableStatus.LOBBY
    assert [s.user_id for s in await repo.seats(table.id)] == [1, 2, 3]
    assert await repo.load_state(table.id) is None
    assert await repo.actions(table.id) == []
    assert await repo.deadlines() == []


async def test_start_game_rejects_a_bad_action(repo: SqliteRepository) -> None:
    table = await lobby(repo, players=2)
    for bad in (action(table.id, 1, ActionKind.START), action(table.id, 0, ActionKind.CHOICE)):
        with pytest.raises(ValueError):
            await repo.start_game(
                table.id, seed=1, state_json="{}", seat_order=[1, 2], action=bad, deadline=None
            )
    assert await repo.load_state(table.id) is None


# --- commit ------------------------------------------------------------------


async def test_commit_writes_everything(repo: SqliteRepository) -> None:
    table = await running(repo)
    later = deadline(table.id, 1, T0 + 120, window="reaction")
    events = [event(table.id, 1, 0), event(table.id, 1, 1, audience=[2])]
    assert await play(repo, table.id, 0, events=events, next_deadline=later)

    state = await repo.load_state(table.id)
    assert state == StateRecord(table_id=table.id, version=1, state_json='{"v": 1}')
    assert [a.version for a in await repo.actions(table.id)] == [0, 1]
    assert (await repo.actions(table.id))[1] == action(table.id, 1, choice='{"move": 1}')
    assert await repo.events(table.id, public_only=False) == events
    assert await repo.deadlines() == [later]
    stored = await repo.get_table(table.id)
    assert stored is not None and stored.updated_at > table.updated_at


async def written(repo: SqliteRepository, table_id: int) -> tuple[object, ...]:
    """What the steps of a table wrote: its state, actions, events, and every deadline."""
    return (
        await repo.load_state(table_id),
        await repo.actions(table_id),
        await repo.events(table_id, public_only=False),
        await repo.deadlines(),
    )


async def test_stale_commit_changes_nothing(repo: SqliteRepository) -> None:
    table = await running(repo)
    assert await play(repo, table.id, 0, next_deadline=deadline(table.id, 1, T0 + 500))
    before = await written(repo, table.id)
    stale = await repo.commit(
        table.id,
        expected_version=0,
        state_json='{"stale": true}',
        action=action(table.id, 1, choice='{"stale": true}'),
        events=[event(table.id, 1, 5)],
        deadline=None,
        status=TableStatus.FINISHED,
    )
    assert stale is False
    assert await written(repo, table.id) == before
    stored = await repo.get_table(table.id)
    assert stored is not None and stored.status is TableStatus.RUNNING
    assert not await play(repo, table.id, 5)  # a future version is stale too
    assert not await play(repo, 999, 0)  # no such table


async def test_commit_validates_versions(repo: SqliteRepository) -> None:
    table = await running(repo)
    with pytest.raises(ValueError, match="action"):
        await repo.commit(
            table.id,
            expected_version=0,
            state_json="{}",
            action=action(table.id, 2),
            events=[],
            deadline=None,
        )
    with pytest.raises(ValueError, match="event"):
        await repo.commit(
            table.id,
            expected_version=0,
            state_json="{}",
            action=action(table.id, 1),
            events=[event(table.id, 0, 0)],
            deadline=None,
        )
    with pytest.raises(ValueError, match="deadline"):
        await play(repo, table.id, 0, next_deadline=deadline(table.id + 1, 1, T0))
    assert (await repo.load_state(table.id)) == StateRecord(
        table_id=table.id, version=0, state_json='{"v": 0}'
    )
    assert len(await repo.actions(table.id)) == 1


async def test_concurrent_commits_apply_once(repo: SqliteRepository) -> None:
    table = await running(repo)
    results = await asyncio.gather(
        *(
            repo.commit(
                table.id,
                expected_version=0,
                state_json=json.dumps({"by": n}),
                action=action(table.id, 1, choice=json.dumps({"by": n})),
                events=[event(table.id, 1, 0)],
                deadline=deadline(table.id, 1, T0 + n),
            )
            for n in range(25)
        )
    )
    assert results.count(True) == 1
    winner = results.index(True)
    state = await repo.load_state(table.id)
    assert state == StateRecord(table_id=table.id, version=1, state_json=json.dumps({"by": winner}))
    actions = await repo.actions(table.id)
    assert [a.version for a in actions] == [0, 1]
    assert actions[1].choice_json == json.dumps({"by": winner})
    assert len(await repo.events(table.id, public_only=False)) == 1
    assert await repo.deadlines() == [deadline(table.id, 1, T0 + winner)]


async def test_concurrent_commits_on_two_repositories(db_path: Path, run_on: RunOn) -> None:
    """Two connections on one file (e.g. two processes): still exactly one winner."""
    first = SqliteRepository(db_path, run_on=run_on)
    second = SqliteRepository(db_path, run_on=run_on)
    await first.open()
    await second.open()
    try:
        table = await running(first)
        results = await asyncio.gather(
            *(play(repository, table.id, 0) for repository in (first, second) * 5)
        )
        assert results.count(True) == 1
        assert [a.version for a in await second.actions(table.id)] == [0, 1]
    finally:
        await first.close()
        await second.close()


async def test_commit_with_final_status_clears_the_deadline(repo: SqliteRepository) -> None:
    table = await running(repo)
    other = await running(repo, channel_id=11, due_at=T0 + 5)
    assert await play(
        repo,
        table.id,
        0,
        next_deadline=deadline(table.id, 1, T0 + 9),
        status=TableStatus.FINISHED,
    )
    stored = await repo.get_table(table.id)
    assert stored is not None and stored.status is TableStatus.FINISHED
    assert await repo.deadlines() == [deadline(other.id, 0, T0 + 5)]
    assert raw(repo_path(repo), f"SELECT * FROM deadlines WHERE table_id = {table.id}") == []
    assert [t.id for t in await repo.running_tables()] == [other.id]
    assert await repo.open_table_in_channel(10) is None


async def test_commit_after_the_table_ended_is_refused(repo: SqliteRepository) -> None:
    table = await running(repo)
    await repo.set_status(table.id, TableStatus.CANCELLED)
    assert not await play(repo, table.id, 0, next_deadline=deadline(table.id, 1, T0))
    assert [a.version for a in await repo.actions(table.id)] == [0]
    state = await repo.load_state(table.id)
    assert state is not None and state.version == 0


def repo_path(repo: SqliteRepository) -> Path:
    return Path(repo.path)


def record_of(table: TableRecord, outcome: GameOutcome, ended_at: float) -> GameRecord:
    return GameRecord(
        table_id=table.id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        game=table.game,
        options_json=table.options_json,
        outcome=outcome,
        ended_at=ended_at,
        steps=7,
        seats=[
            RecordSeat(seat=0, user_id=CREATOR, name="creator", winner=True, score=12),
            RecordSeat(seat=1, user_id=-1, name="🤖 Ada", computer="easy", score=3),
            RecordSeat(seat=2, user_id=3, name="user3", removed=True),
        ],
    )


async def test_the_step_that_ends_a_game_writes_its_record(repo: SqliteRepository) -> None:
    table = await running(repo)
    record = record_of(table, GameOutcome.FINISHED, T0 + 99)
    lost = await repo.commit(
        table.id,
        expected_version=5,
        state_json="{}",
        action=action(table.id, 6),
        events=[],
        deadline=None,
        status=TableStatus.FINISHED,
        record=record,
    )
    assert not lost and await repo.game_record(table.id) is None, "a lost compare-and-set"
    assert await repo.commit(
        table.id,
        expected_version=0,
        state_json="{}",
        action=action(table.id, 1),
        events=[],
        deadline=None,
        status=TableStatus.FINISHED,
        record=record,
    )
    stored = await repo.game_record(table.id)
    assert stored == record.model_copy(update={"started_at": T0}), "started: its START action"
    with pytest.raises(ValueError):
        await repo.commit(
            table.id,
            expected_version=1,
            state_json="{}",
            action=action(table.id, 2),
            events=[],
            deadline=None,
            record=record.model_copy(update={"table_id": 999}),
        )


async def test_records_are_listed_newest_first_per_guild_and_game(
    repo: SqliteRepository,
) -> None:
    tables = [await running(repo, channel_id=20 + i) for i in range(3)]
    elsewhere = await lobby(repo, channel_id=30, guild_id=GUILD + 1)
    for i, table in enumerate(tables):
        game = "mascarade" if i == 1 else table.game
        record = record_of(table.model_copy(update={"game": game}), GameOutcome.FINISHED, T0 + i)
        assert await play(repo, table.id, 0, status=TableStatus.FINISHED, record=record)
    assert [r.table_id for r in await repo.recent_records(GUILD)] == [
        tables[2].id,
        tables[1].id,
        tables[0].id,
    ]
    assert [r.table_id for r in await repo.recent_records(GUILD, game="complots", limit=1)] == [
        tables[2].id
    ]
    assert await repo.recent_records(elsewhere.guild_id) == []


# --- a moderator's end and removal --------------------------------------------

MODERATOR = 900


def moderator_action(
    table_id: int, version: int, kind: ActionKind = ActionKind.END, seat: int | None = None
) -> ActionRecord:
    """A moderator's action (END unless ``kind`` says otherwise)."""
    return action(table_id, version, kind).model_copy(update={"seat": seat, "user_id": MODERATOR})


async def status_of(repo: SqliteRepository, table_id: int) -> TableStatus:
    stored = await repo.get_table(table_id)
    assert stored is not None
    return stored.status


async def test_end_table_appends_end_at_the_next_version_with_the_state_unchanged(
    repo: SqliteRepository,
) -> None:
    table = await running(repo)
    other = await running(repo, channel_id=11, due_at=T0 + 5)
    assert await play(repo, table.id, 0, next_deadline=deadline(table.id, 1, T0 + 9))
    assert await repo.end_table(table.id, expected_version=1, action=moderator_action(table.id, 2))

    actions = await repo.actions(table.id)
    assert [(a.version, a.kind) for a in actions] == [
        (0, ActionKind.START),
        (1, ActionKind.CHOICE),
        (2, ActionKind.END),
    ], "no gap in the log"
    assert actions[-1] == moderator_action(table.id, 2)
    assert await repo.load_state(table.id) == StateRecord(
        table_id=table.id, version=2, state_json='{"v": 1}'
    ), "the version follows the log; the state is the last step's"
    assert await status_of(repo, table.id) is TableStatus.CANCELLED
    assert await repo.deadlines() == [deadline(other.id, 0, T0 + 5)]
    assert await repo.open_table_in_channel(10) is None
    assert not await play(repo, table.id, 2), "nothing is written after the end"
    assert len(await repo.actions(table.id)) == 3


async def test_ending_a_running_game_writes_its_record_with_the_end(
    repo: SqliteRepository,
) -> None:
    table = await running(repo)
    record = record_of(table, GameOutcome.ENDED, T0 + 50)
    stale = moderator_action(table.id, 2)
    assert not await repo.end_table(table.id, expected_version=1, action=stale, record=record)
    assert await repo.game_record(table.id) is None, "a lost compare-and-set writes nothing"
    ended = moderator_action(table.id, 1)
    assert await repo.end_table(table.id, expected_version=0, action=ended, record=record)
    assert await repo.game_record(table.id) == record.model_copy(update={"started_at": T0})


async def test_end_table_at_a_stale_version_changes_nothing(repo: SqliteRepository) -> None:
    table = await running(repo)
    assert await play(repo, table.id, 0, next_deadline=deadline(table.id, 1, T0 + 9))
    before = await written(repo, table.id)
    assert not await repo.end_table(
        table.id, expected_version=0, action=moderator_action(table.id, 1)
    )
    assert not await repo.end_table(
        table.id, expected_version=5, action=moderator_action(table.id, 6)
    )
    assert not await repo.end_table(
        table.id, expected_version=None, action=moderator_action(table.id, 0)
    )
    assert await written(repo, table.id) == before
    assert await status_of(repo, table.id) is TableStatus.RUNNING
    assert not await repo.end_table(999, expected_version=None, action=moderator_action(999, 0))
    assert not await repo.end_table(999, expected_version=0, action=moderator_action(999, 1))


async def test_end_table_of_a_lobby_logs_end_as_version_0(repo: SqliteRepository) -> None:
    table = await lobby(repo, players=2)
    assert not await repo.end_table(
        table.id, expected_version=0, action=moderator_action(table.id, 1)
    )
    assert await status_of(repo, table.id) is TableStatus.LOBBY, "a lobby has no state version"
    assert await repo.end_table(
        table.id, expected_version=None, action=moderator_action(table.id, 0)
    )
    assert await repo.actions(table.id) == [moderator_action(table.id, 0)]
    assert await repo.load_state(table.id) is None
    assert await status_of(repo, table.id) is TableStatus.CANCELLED
    assert not await repo.end_table(
        table.id, expected_version=None, action=moderator_action(table.id, 0)
    )
    assert len(await repo.actions(table.id)) == 1


async def test_end_table_validates_its_action(repo: SqliteRepository) -> None:
    table = await running(repo)
    for expected, bad in (
        (0, moderator_action(table.id, 2)),
        (0, moderator_action(table.id + 1, 1)),
        (None, moderator_action(table.id, 1)),
        (0, moderator_action(table.id, 1, ActionKind.CHOICE)),
    ):
        with pytest.raises(ValueError):
            await repo.end_table(table.id, expected_version=expected, action=bad)
    await assert_untouched_after_v0(repo, table)


async def test_end_table_is_one_transaction(
    repo: SqliteRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash after the state and the action were written, before the status
    change: none of it lands."""
    table = await running(repo)
    original = SqliteRepository._write_status

    def crash(*args: object) -> None:
        raise RuntimeError("crash before the status change")

    monkeypatch.setattr(SqliteRepository, "_write_status", crash)
    with pytest.raises(RuntimeError, match="crash"):
        await repo.end_table(table.id, expected_version=0, action=moderator_action(table.id, 1))
    await assert_untouched_after_v0(repo, table)
    assert await status_of(repo, table.id) is TableStatus.RUNNING
    monkeypatch.setattr(SqliteRepository, "_write_status", original)
    assert await repo.end_table(table.id, expected_version=0, action=moderator_action(table.id, 1))


async def removed(repo: SqliteRepository, table_id: int) -> list[bool]:
    return [s.removed for s in await repo.seats(table_id)]


async def forfeit(repo: SqliteRepository, table_id: int, expected_version: int, seat: int) -> bool:
    version = expected_version + 1
    return await repo.commit(
        table_id,
        expected_version=expected_version,
        state_json=json.dumps({"v": version}),
        action=moderator_action(table_id, version, ActionKind.FORFEIT, seat),
        events=[],
        deadline=deadline(table_id, version, T0 + 60),
        removed_seat=seat,
    )


async def test_commit_marks_the_removed_seat_in_the_same_transaction(
    repo: SqliteRepository,
) -> None:
    table = await running(repo)
    assert await play(repo, table.id, 0)
    assert not await forfeit(repo, table.id, 0, seat=1), "a stale forfeit..."
    assert await removed(repo, table.id) == [False, False, False], "...marks nothing"
    with pytest.raises(NotSeated):
        await forfeit(repo, table.id, 1, seat=7)
    assert await removed(repo, table.id) == [False, False, False]
    assert [a.version for a in await repo.actions(table.id)] == [0, 1], "nor writes the step"
    assert await forfeit(repo, table.id, 1, seat=1)
    assert await removed(repo, table.id) == [False, True, False]
    assert (await repo.actions(table.id))[-1].kind is ActionKind.FORFEIT


# --- events and deadlines ----------------------------------------------------


async def test_events_public_only(repo: SqliteRepository) -> None:
    table = await running(repo)
    public = event(table.id, 1, 0)
    secret = event(table.id, 1, 1, audience=[1])
    nobody = event(table.id, 1, 2, audience=[])
    assert await play(repo, table.id, 0, events=[public, secret, nobody])
    later = event(table.id, 2, 0)
    assert await play(repo, table.id, 1, events=[later])
    assert await repo.events(table.id, public_only=True) == [public, later]
    assert await repo.events(table.id, public_only=False) == [public, secret, nobody, later]
    assert await repo.events(table.id + 1, public_only=False) == []


async def test_events_the_last_ones_in_order(repo: SqliteRepository) -> None:
    table = await running(repo)
    first = [event(table.id, 1, 0), event(table.id, 1, 1, audience=[1]), event(table.id, 1, 2)]
    assert await play(repo, table.id, 0, events=first)
    later = event(table.id, 2, 0)
    assert await play(repo, table.id, 1, events=[later])
    assert await repo.events(table.id, public_only=True, last=2) == [first[2], later]
    assert await repo.events(table.id, public_only=False, last=3) == [*first[1:], later]
    assert await repo.events(table.id, public_only=False, last=10) == [*first, later]
    assert await repo.events(table.id, public_only=True, last=0) == []


async def test_deadlines_set_replace_clear(repo: SqliteRepository) -> None:
    a = await running(repo, channel_id=10, due_at=T0 + 50)
    b = await running(repo, channel_id=11, due_at=T0 + 20)
    c = await running(repo, channel_id=12, due_at=T0 + 90)
    lob = await lobby(repo, channel_id=13)
    assert [d.table_id for d in await repo.deadlines()] == [b.id, a.id, c.id]

    assert await play(repo, a.id, 0, next_deadline=deadline(a.id, 1, T0 + 10, "reaction"))
    assert await repo.deadlines() == [
        deadline(a.id, 1, T0 + 10, "reaction"),
        deadline(b.id, 0, T0 + 20),
        deadline(c.id, 0, T0 + 90),
    ]
    assert await play(repo, b.id, 0, next_deadline=None)
    assert [d.table_id for d in await repo.deadlines()] == [a.id, c.id]
    await repo.set_status(c.id, TableStatus.FINISHED)
    assert [d.table_id for d in await repo.deadlines()] == [a.id]
    await repo.set_status(a.id, TableStatus.RUNNING)  # still running: deadline kept
    assert [d.table_id for d in await repo.deadlines()] == [a.id]
    await repo.set_status(lob.id, TableStatus.CANCELLED)
    assert raw(repo_path(repo), "SELECT table_id FROM deadlines") == [(a.id,)]


# --- guild settings ----------------------------------------------------------


async def test_guild_settings(repo: SqliteRepository) -> None:
    assert await repo.guild_settings(5) == GuildSettings(guild_id=5)
    settings = GuildSettings(guild_id=5, moderator_role_id=77, turn_timeout=90)
    await repo.save_guild_settings(settings)
    assert await repo.guild_settings(5) == settings
    changed = settings.model_copy(update={"turn_timeout": None, "choice_timeout": 30})
    await repo.save_guild_settings(changed)
    assert await repo.guild_settings(5) == changed
    assert await repo.guild_settings(6) == GuildSettings(guild_id=6)
    speaking = changed.model_copy(update={"language": "it"})
    await repo.save_guild_settings(speaking)
    assert await repo.guild_settings(5) == speaking


# --- restart and crashes -----------------------------------------------------


async def test_restart_keeps_everything(db_path: Path) -> None:
    first = SqliteRepository(db_path)
    await first.open()
    table = await running(first, players=3, due_at=T0 + 60)
    events = [event(table.id, 1, 0), event(table.id, 1, 1, audience=[0])]
    next_deadline = deadline(table.id, 1, T0 + 75, "reaction")
    assert await play(first, table.id, 0, events=events, next_deadline=next_deadline)
    await first.update_seat(table.id, 2, away_strikes=1)
    await first.save_guild_settings(GuildSettings(guild_id=GUILD, reaction_timeout=15))
    snapshot = (
        await first.get_table(table.id),
        await first.seats(table.id),
        await first.load_state(table.id),
        await first.actions(table.id),
        await first.events(table.id, public_only=False),
        await first.deadlines(),
        await first.guild_settings(GUILD),
    )
    await first.close()

    second = SqliteRepository(db_path)
    await second.open()
    try:
        assert [t.id for t in await second.running_tables()] == [table.id]
        restored = (
            await second.get_table(table.id),
            await second.seats(table.id),
            await second.load_state(table.id),
            await second.actions(table.id),
            await second.events(table.id, public_only=False),
            await second.deadlines(),
            await second.guild_settings(GUILD),
        )
        assert restored == snapshot
        assert restored[2] == StateRecord(table_id=table.id, version=1, state_json='{"v": 1}')
        assert restored[5] == [next_deadline]
        # ...and the game goes on from there.
        assert await play(second, table.id, 1)
        assert not await play(second, table.id, 1)
    finally:
        await second.close()


async def test_killed_process_loses_no_committed_action(db_path: Path) -> None:
    """A child process commits then dies without closing (no checkpoint, WAL left behind)."""
    first = SqliteRepository(db_path)
    await first.open()
    table = await running(first)
    await first.close()
    child = textwrap.dedent(
        f"""
        import asyncio, os, sys
        from bot.storage import ActionKind, ActionRecord, Deadline, SqliteRepository

        async def main():
            repo = SqliteRepository({str(db_path)!r})
            await repo.open()
            ok = await repo.commit(
                {table.id}, expected_version=0, state_json='{{"child": 1}}',
                action=ActionRecord(table_id={table.id}, version=1, kind=ActionKind.TIMEOUT,
                                    created_at=1.0),
                events=[],
                deadline=Deadline(table_id={table.id}, window="turn", version=1, due_at=9.0),
            )
            sys.stdout.write(str(ok)); sys.stdout.flush()
            os._exit(0)

        asyncio.run(main())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", child],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=Path(__file__).resolve().parents[3],
        check=False,
    )
    assert done.stdout == "True", done.stderr

    second = SqliteRepository(db_path)
    await second.open()
    try:
        assert await second.load_state(table.id) == StateRecord(
            table_id=table.id, version=1, state_json='{"child": 1}'
        )
        assert [a.kind for a in await second.actions(table.id)] == [
            ActionKind.START,
            ActionKind.TIMEOUT,
        ]
        assert await second.deadlines() == [deadline(table.id, 1, 9.0)]
    finally:
        await second.close()


async def assert_untouched_after_v0(repo: SqliteRepository, table: TableRecord) -> None:
    assert await repo.load_state(table.id) == StateRecord(
        table_id=table.id, version=0, state_json='{"v": 0}'
    )
    assert [a.version for a in await repo.actions(table.id)] == [0]
    assert await repo.events(table.id, public_only=False) == []
    assert await repo.deadlines() == [deadline(table.id, 0, T0 + 60)]


async def test_failure_mid_transaction_leaves_no_partial_write(repo: SqliteRepository) -> None:
    table = await running(repo)
    # The state update and the action insert succeed, then the events clash.
    duplicate = [event(table.id, 1, 0), event(table.id, 1, 0)]
    with pytest.raises(sqlite3.IntegrityError):
        await play(repo, table.id, 0, events=duplicate, next_deadline=deadline(table.id, 1, T0))
    await assert_untouched_after_v0(repo, table)
    # The connection is not left inside a transaction: the next commit works.
    assert await play(repo, table.id, 0)


async def test_exception_after_the_last_write_rolls_back(
    repo: SqliteRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await running(repo)

    def crash(*args: object) -> None:
        raise RuntimeError("crash before commit")

    monkeypatch.setattr(SqliteRepository, "_touch_table", crash)
    with pytest.raises(RuntimeError, match="crash"):
        await play(repo, table.id, 0, next_deadline=deadline(table.id, 1, T0 + 1))
    await assert_untouched_after_v0(repo, table)
    monkeypatch.undo()
    assert await play(repo, table.id, 0)


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
    repo: SqliteRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
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


async def test_every_call_lets_other_tasks_run(repo: SqliteRepository) -> None:
    """On the loop too: a caller making call after call does not hold the loop."""
    ran = asyncio.Event()
    asyncio.get_running_loop().call_soon(ran.set)
    await repo.get_table(1)
    assert ran.is_set()


def test_run_on_is_checked() -> None:
    with pytest.raises(ValueError, match="run_on"):
        SqliteRepository(":memory:", run_on="elsewhere")  # type: ignore[arg-type]


# --- rendering marks ------------------------------------------------------------


async def test_tables_to_refresh_lists_lobbies_and_stale_messages(
    repo: SqliteRepository,
) -> None:
    waiting = await lobby(repo, channel_id=1)
    table = await running(repo, channel_id=2)
    finished = await running(repo, channel_id=3)
    await repo.set_status(finished.id, TableStatus.FINISHED)
    assert await repo.tables_to_refresh() == [waiting.id, table.id], "never rendered yet"

    await repo.set_message(table.id, 76)
    await repo.mark_rendered(table.id, 0, TableStatus.RUNNING)
    assert await repo.tables_to_refresh() == [waiting.id]
    stored = await repo.get_table(table.id)
    assert stored is not None and stored.rendered_version == 0
    assert stored.rendered_status is TableStatus.RUNNING

    assert await play(repo, table.id, 0)
    assert await repo.tables_to_refresh() == [waiting.id, table.id], "a step not yet shown"


async def test_a_finished_or_ended_table_showing_an_open_game_is_refreshed(
    repo: SqliteRepository,
) -> None:
    """The winning step, or a moderator's end, committed but not yet shown: the
    message still shows live buttons, so boot redraws it (same state version)."""
    finished = await running(repo, channel_id=3)
    await repo.set_message(finished.id, 77)
    await repo.mark_rendered(finished.id, 0, TableStatus.RUNNING)
    assert await repo.tables_to_refresh() == []
    await repo.set_status(finished.id, TableStatus.FINISHED)
    assert await repo.tables_to_refresh() == [finished.id]
    await repo.mark_rendered(finished.id, 0, TableStatus.FINISHED)
    assert await repo.tables_to_refresh() == []
    never_shown = await running(repo, channel_id=4)
    await repo.set_status(never_shown.id, TableStatus.CANCELLED)
    assert await repo.tables_to_refresh() == [], "no message to fix: nothing to post"


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
        assert schema.SCHEMA_VERSION == 7
        assert not table.hidden, "v7: existing tables are public, as before"
        assert await repository.undelivered(table.id) == [], "v4: an empty outbox"
        assert table.language == "en", "v5: existing tables speak English, as before"
        assert seat.locale is None, "v5: existing seats' DMs follow their table"
        settings = await repository.guild_settings(1)
        assert settings.language is None, "v5: guilds follow their preferred locale"
        assert await repository.recent_records(1) == [], "v6: no records yet"
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


async def test_tables_with_computers_lists_computer_seats_and_taken_over_players(
    repo: SqliteRepository,
) -> None:
    with_computer = await lobby(repo, channel_id=1)
    await repo.add_seat(with_computer.id, -1, "🤖 Ada", max_seats=6, computer="normal")
    await repo.start_game(
        with_computer.id,
        seed=1,
        state_json="{}",
        seat_order=[s.user_id for s in await repo.seats(with_computer.id)],
        action=action(with_computer.id, 0, ActionKind.START),
        deadline=None,
    )
    people_only = await running(repo, channel_id=2)
    away = await running(repo, channel_id=3)
    await repo.update_seat(away.id, 0, away_strikes=3)
    no_takeover = await running(repo, channel_id=4)
    await repo.update_seat(no_takeover.id, 0, away_strikes=3)
    await repo.set_takeover(no_takeover.id, False)
    still_lobby = await lobby(repo, channel_id=5)
    await repo.add_seat(still_lobby.id, -1, "🤖 Ada", max_seats=6, computer="easy")

    assert await repo.tables_with_computers(away_after=3) == [with_computer.id, away.id]
    assert await repo.tables_with_computers(away_after=4) == [with_computer.id]
    assert people_only.id not in await repo.tables_with_computers(away_after=1)


async def test_computer_seats_and_the_takeover_flag_are_stored(repo: SqliteRepository) -> None:
    table = await lobby(repo, channel_id=1)
    await repo.add_seat(table.id, -1, "🤖 Ada", max_seats=6, computer="easy")
    await repo.set_takeover(table.id, False)
    seats = await repo.seats(table.id)
    assert [(s.user_id, s.computer, s.is_computer) for s in seats] == [
        (seats[0].user_id, None, False),
        (-1, "easy", True),
    ]
    stored = await repo.get_table(table.id)
    assert stored is not None and not stored.takeover
    with pytest.raises(UnknownTable):
        await repo.set_takeover(999, True)


async def test_the_hidden_flag_is_stored_and_changed(repo: SqliteRepository) -> None:
    table = await lobby(repo, channel_id=1)
    assert not table.hidden, "a table is public unless its creator hides it"
    await repo.set_hidden(table.id, True)
    stored = await repo.get_table(table.id)
    assert stored is not None and stored.hidden
    await repo.set_hidden(table.id, False)
    stored = await repo.get_table(table.id)
    assert stored is not None and not stored.hidden
    with pytest.raises(UnknownTable):
        await repo.set_hidden(999, True)


async def test_a_table_created_hidden_is_read_back_hidden(repo: SqliteRepository) -> None:
    table = await repo.create_table(
        guild_id=1,
        channel_id=2,
        game="complots",
        creator_id=3,
        creator_name="Ann",
        options_json="{}",
        timeouts=Timeouts(turn=60, reaction=20, choice=30),
        hidden=True,
    )
    assert table.hidden
    stored = await repo.open_table_in_channel(2)
    assert stored is not None and stored.hidden
    [listed] = await repo.list_tables(1, (TableStatus.LOBBY,))
    assert listed.hidden


async def test_languages_of_tables_and_seats_are_stored(repo: SqliteRepository) -> None:
    table = await repo.create_table(
        guild_id=1,
        channel_id=9,
        game="complots",
        creator_id=3,
        creator_name="Ann",
        options_json="{}",
        timeouts=TIMEOUTS,
        language="it",
        creator_locale="fr",
    )
    assert table.language == "it"
    await repo.add_seat(table.id, 4, "Bo", max_seats=6, locale="en")
    await repo.add_seat(table.id, 5, "Cy", max_seats=6)
    assert [s.locale for s in await repo.seats(table.id)] == ["fr", "en", None]
    await repo.set_language(table.id, "fr")
    stored = await repo.get_table(table.id)
    assert stored is not None and stored.language == "fr"
    with pytest.raises(UnknownTable):
        await repo.set_language(999, "it")
