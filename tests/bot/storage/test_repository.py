"""The storage contract: what every backend of the Repository protocol does, run
on each one (``repo`` and ``backend`` in conftest.py: SQLite on its database
thread, SQLite on the loop, PostgreSQL), through the repository's own methods."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import asyncpg
import pytest

from bot.storage import (
    ActionKind,
    AlreadySeated,
    ChannelBusy,
    GameOutcome,
    GameRecord,
    GuildSettings,
    NotSeated,
    OutboxEntry,
    OutboxKind,
    PlayerResult,
    RecordSeat,
    Repository,
    SqliteRepository,
    StateRecord,
    TableFull,
    TableStatus,
    Timeouts,
    UnknownTable,
    WrongStatus,
    postgres,
    repository_for,
)
from bot.storage.postgres import PostgresRepository
from bot.storage.ratings import replay
from tests.bot.storage.support import (
    CREATOR,
    GUILD,
    T0,
    TIMEOUTS,
    Backend,
    action,
    assert_untouched_after_v0,
    deadline,
    event,
    lobby,
    moderator_action,
    play,
    record_of,
    running,
    status_of,
    written,
)

INTEGRITY_ERRORS = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)
"""What each backend raises when a write breaks a key of the schema."""


def crash_at(monkeypatch: pytest.MonkeyPatch, repo: Repository, step: str) -> None:
    """The backend's write step ``step`` (named alike in both) raises: a crash in
    the middle of a transaction."""

    def crash(*args: object) -> None:
        raise RuntimeError(f"crash at {step}")

    owner: object = postgres if isinstance(repo, PostgresRepository) else SqliteRepository
    monkeypatch.setattr(owner, step, crash)


# --- opening and closing ---------------------------------------------------------


async def test_reopen_is_idempotent_and_keeps_data(backend: Backend) -> None:
    first = backend.repository()
    await first.open()
    await first.open()  # twice on one instance: no-op
    table = await lobby(first)
    await first.close()
    await first.close()  # twice: no-op

    second = backend.repository()
    await second.open()
    try:
        assert await second.get_table(table.id) == table
    finally:
        await second.close()


async def test_closed_repository_refuses_work(backend: Backend) -> None:
    repository = backend.repository()
    with pytest.raises(RuntimeError, match="not open"):
        await repository.get_table(1)
    await repository.open()
    await repository.close()
    with pytest.raises(RuntimeError, match="not open"):
        await repository.commit(
            1,
            expected_version=0,
            state_json="{}",
            action=action(1, 1),
            events=[],
            deadline=None,
        )


def test_settings_name_the_backend(backend: Backend) -> None:
    """DATABASE_URL set: PostgreSQL there; unset: the SQLite file at DATABASE_PATH."""
    repository = repository_for(backend.settings())
    if backend.dsn is None:
        assert isinstance(repository, SqliteRepository) and repository.path == backend.path
    else:
        assert isinstance(repository, PostgresRepository) and repository.dsn == backend.dsn


# --- tables ------------------------------------------------------------------


async def test_create_get_and_list_tables(repo: Repository) -> None:
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


async def test_rematch_and_message(repo: Repository) -> None:
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


async def test_channel_busy_until_table_closes(repo: Repository) -> None:
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


async def test_set_status_of_unknown_table(repo: Repository) -> None:
    with pytest.raises(UnknownTable):
        await repo.set_status(12345, TableStatus.CANCELLED)


# --- seats -------------------------------------------------------------------


async def test_seats_add_and_errors(repo: Repository) -> None:
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


async def test_remove_seat_renumbers_later_seats(repo: Repository) -> None:
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


async def test_seats_only_change_in_a_lobby(repo: Repository) -> None:
    table = await running(repo, players=2)
    with pytest.raises(WrongStatus):
        await repo.add_seat(table.id, 7, "seven", max_seats=8)
    with pytest.raises(WrongStatus):
        await repo.remove_seat(table.id, 2)
    assert [s.user_id for s in await repo.seats(table.id)] == [1, 2]


async def test_update_seat(repo: Repository) -> None:
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


async def test_start_game(repo: Repository) -> None:
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
async def test_start_game_rejects_a_bad_seat_order(repo: Repository, order: list[int]) -> None:
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


async def test_start_game_rejects_a_bad_action(repo: Repository) -> None:
    table = await lobby(repo, players=2)
    for bad in (action(table.id, 1, ActionKind.START), action(table.id, 0, ActionKind.CHOICE)):
        with pytest.raises(ValueError):
            await repo.start_game(
                table.id, seed=1, state_json="{}", seat_order=[1, 2], action=bad, deadline=None
            )
    assert await repo.load_state(table.id) is None


# --- commit ------------------------------------------------------------------


async def test_commit_writes_everything(repo: Repository) -> None:
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


async def test_stale_commit_changes_nothing(repo: Repository) -> None:
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


async def test_commit_validates_versions(repo: Repository) -> None:
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


async def test_concurrent_commits_apply_once(repo: Repository) -> None:
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


async def test_concurrent_commits_on_two_repositories(backend: Backend) -> None:
    """Two repositories on one store (e.g. two processes): still exactly one winner."""
    first = backend.repository()
    second = backend.repository()
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


async def test_commit_with_final_status_clears_the_deadline(repo: Repository) -> None:
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
    assert await repo.deadline(table.id) is None
    assert [t.id for t in await repo.running_tables()] == [other.id]
    assert await repo.open_table_in_channel(10) is None


async def test_commit_after_the_table_ended_is_refused(repo: Repository) -> None:
    table = await running(repo)
    await repo.set_status(table.id, TableStatus.CANCELLED)
    assert not await play(repo, table.id, 0, next_deadline=deadline(table.id, 1, T0))
    assert [a.version for a in await repo.actions(table.id)] == [0]
    state = await repo.load_state(table.id)
    assert state is not None and state.version == 0


async def test_the_step_that_ends_a_game_writes_its_record(repo: Repository) -> None:
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
    repo: Repository,
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


async def test_end_table_appends_end_at_the_next_version_with_the_state_unchanged(
    repo: Repository,
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
    repo: Repository,
) -> None:
    table = await running(repo)
    record = record_of(table, GameOutcome.ENDED, T0 + 50)
    stale = moderator_action(table.id, 2)
    assert not await repo.end_table(table.id, expected_version=1, action=stale, record=record)
    assert await repo.game_record(table.id) is None, "a lost compare-and-set writes nothing"
    ended = moderator_action(table.id, 1)
    assert await repo.end_table(table.id, expected_version=0, action=ended, record=record)
    assert await repo.game_record(table.id) == record.model_copy(update={"started_at": T0})


async def test_end_table_at_a_stale_version_changes_nothing(repo: Repository) -> None:
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


async def test_end_table_of_a_lobby_logs_end_as_version_0(repo: Repository) -> None:
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


async def test_end_table_validates_its_action(repo: Repository) -> None:
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
    repo: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash after the state and the action were written, before the status
    change: none of it lands."""
    table = await running(repo)
    crash_at(monkeypatch, repo, "_write_status")
    with pytest.raises(RuntimeError, match="crash"):
        await repo.end_table(table.id, expected_version=0, action=moderator_action(table.id, 1))
    await assert_untouched_after_v0(repo, table)
    assert await status_of(repo, table.id) is TableStatus.RUNNING
    monkeypatch.undo()
    assert await repo.end_table(table.id, expected_version=0, action=moderator_action(table.id, 1))


async def removed(repo: Repository, table_id: int) -> list[bool]:
    return [s.removed for s in await repo.seats(table_id)]


async def forfeit(repo: Repository, table_id: int, expected_version: int, seat: int) -> bool:
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
    repo: Repository,
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


async def test_events_public_only(repo: Repository) -> None:
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


async def test_events_the_last_ones_in_order(repo: Repository) -> None:
    table = await running(repo)
    first = [event(table.id, 1, 0), event(table.id, 1, 1, audience=[1]), event(table.id, 1, 2)]
    assert await play(repo, table.id, 0, events=first)
    later = event(table.id, 2, 0)
    assert await play(repo, table.id, 1, events=[later])
    assert await repo.events(table.id, public_only=True, last=2) == [first[2], later]
    assert await repo.events(table.id, public_only=False, last=3) == [*first[1:], later]
    assert await repo.events(table.id, public_only=False, last=10) == [*first, later]
    assert await repo.events(table.id, public_only=True, last=0) == []


async def test_deadlines_set_replace_clear(repo: Repository) -> None:
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
    assert [await repo.deadline(t.id) for t in (a, b, c, lob)] == [
        deadline(a.id, 1, T0 + 10, "reaction"),
        None,
        None,
        None,
    ]


# --- guild settings ----------------------------------------------------------


async def test_guild_settings(repo: Repository) -> None:
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


async def test_restart_keeps_everything(backend: Backend) -> None:
    first = backend.repository()
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

    second = backend.repository()
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


async def test_killed_process_loses_no_committed_action(backend: Backend) -> None:
    """A child process commits then dies without closing (SQLite: no checkpoint, the
    write-ahead log left behind; PostgreSQL: its connections dropped)."""
    first = backend.repository()
    await first.open()
    table = await running(first)
    await first.close()
    child = textwrap.dedent(
        f"""
        import asyncio, os, sys
        from bot.config import Settings
        from bot.storage import ActionKind, ActionRecord, Deadline, repository_for

        async def main():
            settings = Settings(database_path={str(backend.path)!r}, database_url={backend.dsn!r})
            repo = repository_for(settings)
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

    second = backend.repository()
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


async def test_failure_mid_transaction_leaves_no_partial_write(repo: Repository) -> None:
    table = await running(repo)
    # The state update and the action insert succeed, then the events clash.
    duplicate = [event(table.id, 1, 0), event(table.id, 1, 0)]
    with pytest.raises(INTEGRITY_ERRORS):
        await play(repo, table.id, 0, events=duplicate, next_deadline=deadline(table.id, 1, T0))
    await assert_untouched_after_v0(repo, table)
    # The connection is not left inside a transaction: the next commit works.
    assert await play(repo, table.id, 0)


async def test_exception_after_the_last_write_rolls_back(
    repo: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await running(repo)
    crash_at(monkeypatch, repo, "_touch_table")
    with pytest.raises(RuntimeError, match="crash"):
        await play(repo, table.id, 0, next_deadline=deadline(table.id, 1, T0 + 1))
    await assert_untouched_after_v0(repo, table)
    monkeypatch.undo()
    assert await play(repo, table.id, 0)


async def test_every_call_lets_other_tasks_run(repo: Repository) -> None:
    """On the loop too: a caller making call after call does not hold the loop."""
    ran = asyncio.Event()
    asyncio.get_running_loop().call_soon(ran.set)
    await repo.get_table(1)
    assert ran.is_set()


# --- rendering marks ------------------------------------------------------------


async def test_tables_to_refresh_lists_lobbies_and_stale_messages(
    repo: Repository,
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
    repo: Repository,
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


async def test_tables_with_computers_lists_computer_seats_and_taken_over_players(
    repo: Repository,
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


async def test_computer_seats_and_the_takeover_flag_are_stored(repo: Repository) -> None:
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


async def test_the_hidden_flag_is_stored_and_changed(repo: Repository) -> None:
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


async def test_a_table_created_hidden_is_read_back_hidden(repo: Repository) -> None:
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


async def test_languages_of_tables_and_seats_are_stored(repo: Repository) -> None:
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


# --- the outbox ------------------------------------------------------------------


def owed(
    table_id: int,
    version: int | None,
    content: str,
    kind: OutboxKind = OutboxKind.POST,
    target: int = 555,
    embed_json: str | None = None,
) -> OutboxEntry:
    return OutboxEntry(
        table_id=table_id,
        version=version,
        kind=kind,
        target=target,
        content=content,
        embed_json=embed_json,
    )


def what(entries: list[OutboxEntry]) -> list[tuple[object, ...]]:
    return [(e.version, e.kind, e.target, e.content, e.embed_json) for e in entries]


async def test_the_outbox_keeps_what_each_step_owes_in_the_order_written(
    repo: Repository,
) -> None:
    table = await lobby(repo, players=2)
    await repo.announce(table.id, [owed(table.id, None, "Bo joined")])
    await repo.start_game(
        table.id,
        seed=1,
        state_json='{"v": 0}',
        seat_order=[2, 1],
        action=action(table.id, 0, ActionKind.START),
        deadline=None,
        outbox=[
            owed(table.id, 0, "dealt", embed_json='{"title": "Deal"}'),
            owed(table.id, 0, "your hand", OutboxKind.DM, target=CREATOR),
        ],
    )

    async def step(expected_version: int) -> bool:
        return await repo.commit(
            table.id,
            expected_version=expected_version,
            state_json="{}",
            action=action(table.id, expected_version + 1),
            events=[],
            deadline=None,
            outbox=[owed(table.id, 1, "Ann moved")],
        )

    assert not await step(5), "a lost compare-and-set owes nothing"
    assert await step(0)

    entries = await repo.undelivered(table.id)
    assert what(entries) == [
        (None, OutboxKind.POST, 555, "Bo joined", None),
        (0, OutboxKind.POST, 555, "dealt", '{"title": "Deal"}'),
        (0, OutboxKind.DM, CREATOR, "your hand", None),
        (1, OutboxKind.POST, 555, "Ann moved", None),
    ]
    ids = [e.id or 0 for e in entries]
    assert 0 not in ids and ids == sorted(set(ids)), "each its own id, in the order written"
    assert all(e.created_at > T0 and e.delivered_at is None for e in entries)


async def test_delivered_entries_are_no_longer_owed(repo: Repository) -> None:
    first, second = await running(repo, channel_id=1), await running(repo, channel_id=2)
    await repo.announce(second.id, [owed(second.id, 0, "b")])
    await repo.announce(first.id, [owed(first.id, 0, "a1"), owed(first.id, 0, "a2")])
    assert await repo.tables_with_undelivered() == [first.id, second.id]

    a1, a2 = await repo.undelivered(first.id)
    assert a1.id is not None and a2.id is not None
    await repo.mark_delivered(a1.id)
    await repo.mark_delivered(a1.id)  # again: still delivered once
    assert await repo.undelivered(first.id) == [a2]
    await repo.mark_delivered(a2.id)
    assert await repo.undelivered(first.id) == []
    assert await repo.tables_with_undelivered() == [second.id]
    await repo.mark_delivered(99_999)  # unknown: nothing to mark


async def test_dm_channels_are_kept_changed_and_forgotten(repo: Repository) -> None:
    user = 2**62 + 5  # Discord ids are 64-bit
    assert await repo.dm_channel(user) is None
    await repo.remember_dm_channel(user, 2**61 + 1)
    await repo.remember_dm_channel(7, 70)
    assert await repo.dm_channel(user) == 2**61 + 1
    await repo.remember_dm_channel(user, 99)
    assert await repo.dm_channel(user) == 99
    await repo.remember_dm_channel(user, None)
    assert await repo.dm_channel(user) is None
    assert await repo.dm_channel(7) == 70, "another user's is untouched"


async def test_a_notice_sets_strikes_and_owes_in_one_transaction(repo: Repository) -> None:
    table = await running(repo)
    await repo.announce(table.id, [owed(table.id, None, "Bo is back")], strikes={1: 0, 2: 3})
    assert [s.away_strikes for s in await repo.seats(table.id)] == [0, 0, 3]
    with pytest.raises(NotSeated):
        await repo.announce(table.id, [owed(table.id, None, "ghost")], strikes={7: 1})
    assert [e.content for e in await repo.undelivered(table.id)] == ["Bo is back"]
    with pytest.raises(ValueError, match="outbox"):
        await repo.announce(table.id, [owed(table.id + 1, None, "elsewhere")])


async def test_ending_a_table_owes_its_end_and_a_step_refuses_foreign_entries(
    repo: Repository,
) -> None:
    table = await running(repo)
    with pytest.raises(ValueError, match="outbox"):
        await repo.commit(
            table.id,
            expected_version=0,
            state_json="{}",
            action=action(table.id, 1),
            events=[],
            deadline=None,
            outbox=[owed(table.id + 1, 1, "elsewhere")],
        )
    assert await repo.end_table(
        table.id,
        expected_version=0,
        action=moderator_action(table.id, 1),
        outbox=[owed(table.id, 1, "ended by a moderator")],
    )
    assert [e.content for e in await repo.undelivered(table.id)] == ["ended by a moderator"]


# --- records, ratings and statistics ----------------------------------------------


def finished(table_id: int, winner: int, ended_at: float, game: str = "complots") -> GameRecord:
    """A game users 1, 2 and 3 played to its end, won by ``winner``."""
    return GameRecord(
        table_id=table_id,
        guild_id=GUILD,
        channel_id=10,
        game=game,
        options_json="{}",
        outcome=GameOutcome.FINISHED,
        ended_at=ended_at,
        steps=12,
        seats=[
            RecordSeat(seat=seat, user_id=user, name=f"user{user}", winner=user == winner)
            for seat, user in enumerate((1, 2, 3))
        ],
    )


async def finish(repo: Repository, channel_id: int, winner: int, ended_at: float) -> int:
    """A running table whose game ends with its record (one step)."""
    table = await running(repo, channel_id=channel_id)
    record = finished(table.id, winner, ended_at)
    assert await play(repo, table.id, 0, status=TableStatus.FINISHED, record=record)
    return table.id


async def test_finished_games_move_their_players_ratings(repo: Repository) -> None:
    tables = [await finish(repo, 20 + n, winner, T0 + n) for n, winner in enumerate((1, 1, 2))]
    records = [await repo.game_record(table_id) for table_id in tables]
    assert None not in records
    skills = await repo.skills(GUILD, "complots")
    assert skills == replay([r for r in records if r is not None]), "as replaying them"
    assert (skills[1].games, skills[1].wins, skills[2].wins, skills[3].wins) == (3, 2, 1, 0)
    assert await repo.skills(GUILD, "mascarade") == {}
    assert await repo.skills(GUILD + 1, "complots") == {}

    board = await repo.leaderboard(GUILD, "complots")
    assert [(s.user_id, s.rank) for s in board] == [(1, 1), (2, 2), (3, 3)]
    assert [s.skill for s in board] == [skills[1], skills[2], skills[3]]
    assert [s.user_id for s in await repo.leaderboard(GUILD, "complots", limit=2)] == [1, 2]
    third = await repo.standing(GUILD, "complots", 3)
    assert third is not None and (third.rank, third.skill) == (3, skills[3])
    assert await repo.standing(GUILD, "complots", 99) is None

    ended = await running(repo, channel_id=30)
    moderated = finished(ended.id, 3, T0 + 9).model_copy(update={"outcome": GameOutcome.ENDED})
    assert await repo.end_table(
        ended.id, expected_version=0, action=moderator_action(ended.id, 1), record=moderated
    )
    assert await repo.skills(GUILD, "complots") == skills, "a moderator's end rates nobody"


async def test_results_of_a_player_are_its_finished_games_oldest_first(
    repo: Repository,
) -> None:
    won = await finish(repo, 20, winner=2, ended_at=T0 + 5)
    lost = await finish(repo, 21, winner=1, ended_at=T0 + 3)
    ended = await running(repo, channel_id=22)
    record = finished(ended.id, 2, T0 + 9).model_copy(update={"outcome": GameOutcome.ENDED})
    assert await repo.end_table(
        ended.id, expected_version=0, action=moderator_action(ended.id, 1), record=record
    )
    assert await repo.results_of(GUILD, 2) == [
        PlayerResult(table_id=lost, game="complots", ended_at=T0 + 3, winner=False),
        PlayerResult(table_id=won, game="complots", ended_at=T0 + 5, winner=True),
    ]
    assert await repo.results_of(GUILD + 1, 2) == []
    assert await repo.results_of(GUILD, 42) == []


async def test_past_games_get_their_records_and_the_ratings_are_recomputed(
    repo: Repository,
) -> None:
    recorded = await finish(repo, 20, winner=1, ended_at=T0 + 5)
    old = await running(repo, channel_id=21)
    await repo.set_status(old.id, TableStatus.FINISHED)  # ended before records existed
    never_started = await lobby(repo, channel_id=22)
    await repo.set_status(never_started.id, TableStatus.CANCELLED)
    assert await repo.unrecorded_games() == [old.id]

    past = finished(old.id, winner=3, ended_at=T0 + 1)
    again = finished(recorded, winner=3, ended_at=T0 + 2)  # has one already: skipped
    await repo.add_past_records([past, again])

    assert await repo.unrecorded_games() == []
    stored = await repo.game_record(old.id)
    assert stored == past.model_copy(update={"started_at": T0}), "started: its START action"
    kept = await repo.game_record(recorded)
    assert kept is not None and kept.ended_at == T0 + 5
    assert await repo.skills(GUILD, "complots") == replay([stored, kept]), "in the order ended"


async def test_statistics_are_saved_once_computed_and_summed_per_player(
    repo: Repository,
) -> None:
    first = await finish(repo, 20, winner=1, ended_at=T0 + 1)
    second = await finish(repo, 21, winner=2, ended_at=T0 + 2)
    ended = await running(repo, channel_id=22)
    record = finished(ended.id, 2, T0 + 3).model_copy(update={"outcome": GameOutcome.ENDED})
    assert await repo.end_table(
        ended.id, expected_version=0, action=moderator_action(ended.id, 1), record=record
    )
    assert await repo.records_awaiting_stats(10) == [first, second, ended.id]
    assert await repo.records_awaiting_stats(1) == [first]
    assert await repo.stat_totals(GUILD, 1, "complots") == {}

    await repo.save_stats(first, {0: {"bluffs": 2, "caught": 1}, 1: {"bluffs": 4}})
    await repo.save_stats(second, {})
    await repo.save_stats(ended.id, {0: {"bluffs": 10}})
    assert await repo.records_awaiting_stats(10) == []
    assert await repo.stat_totals(GUILD, 1, "complots") == {"bluffs": 2, "caught": 1}
    assert await repo.stat_totals(GUILD, 2, "complots") == {"bluffs": 4}

    await repo.save_stats(first, {0: {"bluffs": 1}})  # again: replaces
    assert await repo.stat_totals(GUILD, 1, "complots") == {"bluffs": 1}
    assert await repo.stat_totals(GUILD, 1, "mascarade") == {}
    assert await repo.stat_totals(GUILD + 1, 1, "complots") == {}
