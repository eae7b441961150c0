"""What the storage tests share: where a test's data lives (``Backend``), and
builders of tables, steps and records through the repository's own methods only
(so they run on every backend)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot.config import Settings
from bot.storage import (
    ActionKind,
    ActionRecord,
    Deadline,
    EventRecord,
    GameOutcome,
    GameRecord,
    RecordSeat,
    Repository,
    Shards,
    StateRecord,
    TableRecord,
    TableStatus,
    Timeouts,
)
from bot.storage.postgres import PostgresRepository
from bot.storage.sqlite import RunOn, SqliteRepository

GUILD = 100
TIMEOUTS = Timeouts(turn=60, reaction=20, choice=45)
CREATOR = 1
MODERATOR = 900
T0 = 1_700_000_000.0


@dataclass(frozen=True)
class Backend:
    """Where a test's data lives: a SQLite file or a PostgreSQL database."""

    name: str
    path: Path
    dsn: str | None = None
    """The PostgreSQL database (None: the SQLite file at ``path``)."""

    @property
    def run_on(self) -> RunOn:
        return "loop" if self.name == "sqlite-loop" else "thread"

    def repository(
        self, clock: Callable[[], float] = time.time, shards: Shards | None = None
    ) -> Repository:
        """A new repository on the test's store (not opened yet), for the guilds of
        ``shards`` (None: all)."""
        if self.dsn is not None:
            return PostgresRepository(self.dsn, clock=clock, shards=shards)
        return SqliteRepository(self.path, clock=clock, run_on=self.run_on, shards=shards)

    def settings(self) -> Settings:
        """Settings naming the test's store (``repository_for`` builds its repository)."""
        return Settings(database_path=self.path, database_url=self.dsn)


class FakeClock:
    """A second later at each call, from T0."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


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


def moderator_action(
    table_id: int, version: int, kind: ActionKind = ActionKind.END, seat: int | None = None
) -> ActionRecord:
    """A moderator's action (END unless ``kind`` says otherwise)."""
    return action(table_id, version, kind).model_copy(update={"seat": seat, "user_id": MODERATOR})


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


async def written(repo: Repository, table_id: int) -> tuple[object, ...]:
    """What the steps of a table wrote: its state, actions, events, and every deadline."""
    return (
        await repo.load_state(table_id),
        await repo.actions(table_id),
        await repo.events(table_id, public_only=False),
        await repo.deadlines(),
    )


async def status_of(repo: Repository, table_id: int) -> TableStatus:
    stored = await repo.get_table(table_id)
    assert stored is not None
    return stored.status


async def assert_untouched_after_v0(repo: Repository, table: TableRecord) -> None:
    """The table is as ``running`` left it: version 0, START only, its first deadline."""
    assert await repo.load_state(table.id) == StateRecord(
        table_id=table.id, version=0, state_json='{"v": 0}'
    )
    assert [a.version for a in await repo.actions(table.id)] == [0]
    assert await repo.events(table.id, public_only=False) == []
    assert await repo.deadlines() == [deadline(table.id, 0, T0 + 60)]


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
