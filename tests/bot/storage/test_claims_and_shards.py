"""Several processes on one database (every backend): claims make one process alone
fire a deadline or deliver a table's outbox, until its claim runs out; and a process
of some shards is told at boot about the tables of its own guilds only."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.storage import (
    ActionKind,
    ActionRecord,
    Claim,
    GameOutcome,
    OutboxEntry,
    OutboxKind,
    Repository,
    Shards,
    TableStatus,
)
from tests.bot.storage.support import (
    T0,
    Backend,
    action,
    deadline,
    lobby,
    play,
    record_of,
    running,
)

LEASE = 30.0


class Clock:
    """Stands still until a test moves it."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def two(backend: Backend, clock: Clock) -> AsyncIterator[tuple[Repository, Repository]]:
    """Two processes' repositories on one store, sharing one clock."""
    first, second = backend.repository(clock=clock), backend.repository(clock=clock)
    await first.open()
    await second.open()
    yield first, second
    await second.close()
    await first.close()


def owed(table_id: int, text: str) -> OutboxEntry:
    return OutboxEntry(table_id=table_id, kind=OutboxKind.POST, target=5, content=text)


async def test_one_process_at_a_time_holds_a_deadline_until_its_claim_runs_out(
    two: tuple[Repository, Repository], clock: Clock
) -> None:
    a, b = two
    table = await running(a)
    armed = deadline(table.id, 0, T0 + 60)
    assert await a.claim_deadline(armed, "a", LEASE) == Claim(won=True)
    assert await b.claim_deadline(armed, "b", LEASE) == Claim(won=False, retry_at=T0 + LEASE)
    assert await a.claim_deadline(armed, "a", LEASE) == Claim(won=True), "its own claim"
    clock.now += LEASE + 1  # a died while firing: its claim ran out
    assert await b.claim_deadline(armed, "b", LEASE) == Claim(won=True)
    assert await a.claim_deadline(armed, "a", LEASE) == Claim(won=False, retry_at=clock.now + LEASE)


async def test_a_step_that_replaces_the_deadline_ends_its_claim(
    two: tuple[Repository, Repository],
) -> None:
    a, b = two
    table = await running(a)
    first = deadline(table.id, 0, T0 + 60)
    assert (await a.claim_deadline(first, "a", LEASE)).won
    following = deadline(table.id, 1, T0 + 120)
    assert await play(a, table.id, 0, next_deadline=following)
    assert await b.claim_deadline(first, "b", LEASE) == Claim(won=False), "fired: gone"
    assert await b.claim_deadline(following, "b", LEASE) == Claim(won=True), "a new one, free"
    assert await play(b, table.id, 1, next_deadline=None)
    assert await a.claim_deadline(following, "a", LEASE) == Claim(won=False)


async def test_a_deadline_of_another_window_or_version_is_not_claimed(
    two: tuple[Repository, Repository],
) -> None:
    a, _ = two
    table = await running(a)
    for other in (deadline(table.id, 1, T0 + 60), deadline(table.id, 0, T0 + 60, "reaction")):
        assert await a.claim_deadline(other, "a", LEASE) == Claim(won=False)
    assert await a.claim_deadline(deadline(999, 0, T0), "a", LEASE) == Claim(won=False)


async def test_a_tables_outbox_is_delivered_by_one_process_at_a_time_in_order(
    two: tuple[Repository, Repository], clock: Clock
) -> None:
    a, b = two
    table = await running(a)
    await a.announce(table.id, [owed(table.id, "one"), owed(table.id, "two")])
    claimed = await a.claim_outbox(table.id, "a", LEASE)
    assert [e.content for e in claimed.entries] == ["one", "two"] and claimed.retry_at is None
    held = await b.claim_outbox(table.id, "b", LEASE)
    assert held.entries == [] and held.retry_at == T0 + LEASE
    first = claimed.entries[0].id
    assert first is not None
    await a.mark_delivered(first)
    await b.announce(table.id, [owed(table.id, "three")])  # a later step, on b
    assert (await b.claim_outbox(table.id, "b", LEASE)).entries == [], "two is still a's"
    again = await a.claim_outbox(table.id, "a", LEASE)
    assert [e.content for e in again.entries] == ["two", "three"]
    clock.now += LEASE + 1  # a died before delivering them
    taken = await b.claim_outbox(table.id, "b", LEASE)
    assert [e.content for e in taken.entries] == ["two", "three"]
    for entry in taken.entries:
        assert entry.id is not None
        await b.mark_delivered(entry.id)
    assert await a.claim_outbox(table.id, "a", LEASE) == await b.claim_outbox(table.id, "b", 1)
    assert (await a.claim_outbox(table.id, "a", LEASE)).entries == []


async def test_a_process_is_told_at_boot_of_its_own_guilds_tables_only(
    backend: Backend, clock: Clock
) -> None:
    guilds = {shard: ((1000 * 2 + shard) << 22) + 7 for shard in (0, 1)}
    assert all(Shards(count=2, ids=(s,)).owns(g) for s, g in guilds.items())
    everyone = backend.repository(clock=clock)
    await everyone.open()
    tables: dict[int, dict[str, int]] = {}
    try:
        for shard, guild in guilds.items():
            channel = 100 * (shard + 1)
            open_lobby = await lobby(everyone, channel_id=channel, guild_id=guild)
            game = await lobby(everyone, channel_id=channel + 1, players=2, guild_id=guild)
            await everyone.add_seat(game.id, -1, "🤖 Ada", max_seats=8, computer="normal")
            await everyone.start_game(
                game.id,
                seed=1,
                state_json="{}",
                seat_order=[1, 2, -1],
                action=_start(game.id),
                deadline=deadline(game.id, 0, T0 + 60),
                outbox=[owed(game.id, "dealt")],
            )
            over = await lobby(everyone, channel_id=channel + 2, players=2, guild_id=guild)
            await everyone.start_game(
                over.id, seed=2, state_json="{}", seat_order=[1, 2], action=_start(over.id),
                deadline=None,
            )  # fmt: skip
            await everyone.set_status(over.id, TableStatus.FINISHED)  # before records
            recorded = await lobby(everyone, channel_id=channel + 3, players=2, guild_id=guild)
            await everyone.start_game(
                recorded.id, seed=3, state_json="{}", seat_order=[1, 2],
                action=_start(recorded.id), deadline=None,
            )  # fmt: skip
            ended = record_of(recorded, GameOutcome.FINISHED, T0 + 5)
            assert await play(everyone, recorded.id, 0, status=TableStatus.FINISHED, record=ended)
            tables[shard] = {
                "lobby": open_lobby.id,
                "game": game.id,
                "over": over.id,
                "recorded": recorded.id,
            }
        every = await boot_answers(everyone)
    finally:
        await everyone.close()

    for shard in (0, 1):
        mine = backend.repository(clock=clock, shards=Shards(count=2, ids=(shard,)))
        await mine.open()
        try:
            answers = await boot_answers(mine)
        finally:
            await mine.close()
        own = set(tables[shard].values())
        for name, found in answers.items():
            assert set(found) <= own, f"{name}: another shard's tables"
            assert set(found) == set(every[name]) & own, f"{name}: one of its own is missing"
        assert answers["running"] == [tables[shard]["game"]]
        assert answers["deadlines"] == [tables[shard]["game"]]
        assert answers["unrecorded"] == [tables[shard]["over"]]
        assert answers["stats"] == [tables[shard]["recorded"]]
    both = backend.repository(clock=clock, shards=Shards(count=2, ids=(0, 1)))
    await both.open()
    try:
        assert await boot_answers(both) == every
    finally:
        await both.close()


def _start(table_id: int) -> ActionRecord:
    return action(table_id, 0, ActionKind.START)


async def boot_answers(repo: Repository) -> dict[str, list[int]]:
    """What a process asks at boot, as table ids."""
    return {
        "running": [t.id for t in await repo.running_tables()],
        "refresh": await repo.tables_to_refresh(),
        "computers": await repo.tables_with_computers(3),
        "undelivered": await repo.tables_with_undelivered(),
        "deadlines": [d.table_id for d in await repo.deadlines()],
        "stats": await repo.records_awaiting_stats(100),
        "unrecorded": await repo.unrecorded_games(),
    }
