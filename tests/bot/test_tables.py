"""The table service on its own: real SQLite, a recording scheduler, no Discord."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage.models import Deadline, TableStatus, Timeouts
from bot.storage.sqlite import SqliteRepository
from bot.tables import Refusal, TableService
from games.complots import ActionKind, ComplotsOptions, ComplotsState
from games.complots.models import Act, Pass

TIMEOUTS = Timeouts(turn=60, reaction=20, choice=30)
USERS = [101, 102, 103, 104]


class RecordingScheduler:
    def __init__(self) -> None:
        self.armed: dict[int, Deadline] = {}

    def arm(self, deadline: Deadline) -> None:
        self.armed[deadline.table_id] = deadline

    def disarm(self, table_id: int) -> None:
        self.armed.pop(table_id, None)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    repo = SqliteRepository(tmp_path / "t.sqlite3")
    await repo.open()
    yield TableService(repo, RecordingScheduler(), seeds=lambda: 1234)
    await repo.close()


async def started(service: TableService, first_player: int = 0) -> int:
    snap = await service.create_table(
        guild_id=1,
        channel_id=2,
        game="complots",
        creator_id=USERS[0],
        creator_name="u0",
        options=ComplotsOptions(first_player=first_player),
        timeouts=TIMEOUTS,
    )
    for i, user in enumerate(USERS[1:], start=1):
        await service.join(snap.table.id, user, f"u{i}")
    await service.start(snap.table.id, USERS[0], moderator=False)
    return snap.table.id


async def test_passes_keep_the_window_and_its_deadline(service: TableService) -> None:
    table = await started(service)
    await service.act(table, 0, USERS[0], Act(action=ActionKind.TAX))
    deadline = service._deadlines[table]
    assert deadline.version == 1
    await service.act(table, 1, USERS[1], Pass())
    assert service._deadlines[table] == deadline, "a pass does not restart the window's timer"
    # USERS[2] clicks a button rendered at version 1 (before USERS[1]'s pass): still good.
    await service.act(table, 1, USERS[2], Pass())
    snap = await service.snapshot(table)
    assert snap.version == 3


async def test_versions_from_another_window_or_the_future_are_stale(
    service: TableService,
) -> None:
    table = await started(service)
    await service.act(table, 0, USERS[0], Act(action=ActionKind.INCOME))
    with pytest.raises(Refusal) as old:
        await service.act(table, 0, USERS[1], Act(action=ActionKind.INCOME))
    assert old.value.key == "stale"
    with pytest.raises(Refusal) as future:
        await service.act(table, 5, USERS[1], Act(action=ActionKind.INCOME))
    assert future.value.key == "stale"
    with pytest.raises(Refusal) as wrong_turn:
        await service.act(table, 1, USERS[2], Act(action=ActionKind.INCOME))
    assert wrong_turn.value.key == "not_prompted"
    assert (await service.snapshot(table)).version == 1, "nothing changed"


async def test_a_stale_deadline_does_nothing(service: TableService) -> None:
    table = await started(service)
    old = service._deadlines[table]
    await service.act(table, 0, USERS[0], Act(action=ActionKind.INCOME))
    await service.fire(old)
    assert (await service.snapshot(table)).version == 1


async def play_to_the_end(service: TableService, table: int, rng: random.Random) -> int:
    """Random legal choices until the game is over; returns the winner's user id."""
    game = service.game("complots")
    while True:
        snap = await service.snapshot(table)
        result = game.result(snap.state)
        if result is not None:
            return snap.seats[result.winners[0]].user_id
        prompt = rng.choice(game.prompts(snap.state))
        user = snap.seats[prompt.player].user_id
        assert snap.version is not None
        await service.act(table, snap.version, user, rng.choice(prompt.choices))


async def test_rematch_keeps_the_clockwise_order_and_the_winner_starts(
    service: TableService,
) -> None:
    table = await started(service)
    await service.remove_player(table, 3, USERS[0])
    winner = await play_to_the_end(service, table, random.Random(2))
    assert (await service.snapshot(table)).table.status is TableStatus.FINISHED
    with pytest.raises(Refusal) as removed:
        await service.rematch(table, USERS[3], "u3")
    assert removed.value.key == "not_seated"

    rematch = await service.rematch(table, USERS[1], "u1")
    assert [s.user_id for s in rematch.seats] == [USERS[1], USERS[2], USERS[0]], "rotated"
    options = ComplotsOptions.model_validate_json(rematch.table.options_json)
    assert options.first_player is not None
    assert rematch.seats[options.first_player].user_id == winner, "the last winner starts"


async def test_lobby_limits(service: TableService) -> None:
    snap = await service.create_table(
        guild_id=1,
        channel_id=3,
        game="complots",
        creator_id=1,
        creator_name="u1",
        options=ComplotsOptions(),
        timeouts=TIMEOUTS,
    )
    table = snap.table.id
    with pytest.raises(Refusal) as alone:
        await service.start(table, 1, moderator=False)
    assert alone.value.key == "too_few_players"
    for user in range(2, 9):
        await service.join(table, user, f"u{user}")
    with pytest.raises(Refusal) as full:
        await service.join(table, 9, "u9")
    assert full.value.key == "table_full"
    assert len((await service.snapshot(table)).seats) == 8


async def test_two_services_on_one_database_never_lose_or_double_a_step(
    service: TableService, tmp_path: Path
) -> None:
    """Two processes (as with sharding): each acts on its cached copy; the
    compare-and-set makes the one behind reload and judge the click again."""
    table = await started(service)
    other_repo = SqliteRepository(tmp_path / "t.sqlite3")
    await other_repo.open()
    try:
        other = TableService(other_repo, RecordingScheduler())
        await other.snapshot(table)  # cached at version 0
        await service.act(table, 0, USERS[0], Act(action=ActionKind.INCOME))
        # A click rendered at version 1 reaches the process whose copy is at 0.
        await other.act(table, 1, USERS[1], Act(action=ActionKind.INCOME))
        with pytest.raises(Refusal) as again:
            await service.act(table, 1, USERS[1], Act(action=ActionKind.INCOME))
        assert again.value.key == "stale", "the same click through the other process: once"
        snap = await other.snapshot(table)
        assert snap.version == 2 and isinstance(snap.state, ComplotsState)
        assert [p.coins for p in snap.state.players] == [3, 3, 2, 2]
    finally:
        await other_repo.close()
