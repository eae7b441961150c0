"""The record keeper: each game's own statistics worked out from its replay once the
game is over (and at boot for what a crash left), and records of games that ended
before records existed. Real games through the table service, on real SQLite files."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import closing
from itertools import pairwise
from pathlib import Path

import pytest

from bot.records import RecordKeeper
from bot.storage import ratings
from bot.storage.models import GameOutcome, GameRecord
from bot.storage.sqlite import SqliteRepository
from bot.tables import TableService
from games.base import Event
from games.complots.models import Challenged, ClaimFailed, ComplotsState
from games.complots.stats import STATS, bluff_stats
from games.entry import Step
from games.registry import GAMES
from tests.bot.schedulers import NoScheduler
from tests.bot.test_replays import MODERATOR, PEOPLE, TIMEOUTS, Recorder, play, started

GUILD = 1


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "records.sqlite3"


@pytest.fixture
async def repo(path: Path) -> AsyncIterator[SqliteRepository]:
    repository = SqliteRepository(path)
    await repository.open()
    yield repository
    await repository.close()


def raw(path: Path, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(path)) as db, db:
        return db.execute(sql, params).fetchall()


def live_steps(recorder: Recorder) -> tuple[list[Step], list[Event]]:
    """The live game's steps as the stats read them, and all its events."""
    game = GAMES["complots"]
    versions = sorted(recorder.states)
    states = {v: game.state_model.model_validate_json(recorder.states[v]) for v in versions}
    steps: list[Step] = []
    every: list[Event] = []
    for before, after in pairwise(versions):
        events = [game.event_adapter.validate_json(e) for e in recorder.events[after]]
        steps.append((states[before], events))
        every.extend(events)
    return steps, every


async def finished_complots(
    repo: SqliteRepository, seed: int, keeper: RecordKeeper | None = None
) -> tuple[int, Recorder]:
    recorder = Recorder()
    service = TableService(repo, NoScheduler(), seeds=lambda: 500 + seed)
    service.listeners = [recorder] if keeper is None else [recorder, keeper]
    table = await started(service, "complots", channel=200 + seed, computer=seed % 2 == 0)
    await play(service, table, random.Random(seed), remove_at=None)
    return table, recorder


async def settled(repo: SqliteRepository) -> None:
    """Waits (a bounded time) until no record awaits its statistics."""
    for _ in range(500):
        if not await repo.records_awaiting_stats(1):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("statistics were never computed")


def stored_stats(path: Path, table: int) -> dict[int, dict[str, int]]:
    stats: dict[int, dict[str, int]] = {}
    for seat, name, value in raw(
        path, "SELECT seat, stat, value FROM record_stats WHERE table_id = ?", (table,)
    ):
        assert isinstance(seat, int) and isinstance(name, str) and isinstance(value, int)
        stats.setdefault(seat, {})[name] = value
    return stats


async def test_a_finished_game_gets_the_bluff_counts_of_what_was_played(
    repo: SqliteRepository, path: Path
) -> None:
    keeper = RecordKeeper(repo)
    keeper.start()
    try:
        played = [await finished_complots(repo, seed, keeper) for seed in range(3)]
        await settled(repo)
    finally:
        await keeper.stop()
    totals: Counter[str] = Counter()
    for table, recorder in played:
        steps, events = live_steps(recorder)
        players = len(recorder_state(recorder).players)
        expected = bluff_stats(steps, players)
        assert stored_stats(path, table) == dict(enumerate(expected))
        per_stat = Counter[str]()
        for seat in expected:
            assert seat["bluffs"] <= seat["claims"]
            per_stat.update(seat)
        # Independent of the counting: every challenge is won or lost once, and a
        # caught bluff is a challenge won.
        challenges = sum(isinstance(e, Challenged) for e in events)
        assert per_stat["challenges_won"] + per_stat["challenges_lost"] == challenges
        assert per_stat["bluffs_caught"] == per_stat["challenges_won"]
        assert per_stat["bluffs_caught"] == sum(isinstance(e, ClaimFailed) for e in events)
        totals.update(expected[await seat_of(repo, table, PEOPLE[0])])
    assert sum(totals.values()) > 0, "three random games made claims"
    # /stats sums the player's games, whatever its seat in each.
    assert await repo.stat_totals(GUILD, PEOPLE[0], "complots") == dict(totals)


async def seat_of(repo: SqliteRepository, table: int, user: int) -> int:
    record = await repo.game_record(table)
    assert record is not None
    return next(s.seat for s in record.seats if s.user_id == user)


def recorder_state(recorder: Recorder) -> ComplotsState:
    last = recorder.states[max(recorder.states)]
    return ComplotsState.model_validate_json(last)


async def test_statistics_a_crash_left_uncomputed_are_computed_at_the_next_boot(
    repo: SqliteRepository, path: Path
) -> None:
    table, _ = await finished_complots(repo, 4)  # no keeper: as if the bot died then
    assert await repo.records_awaiting_stats(10) == [table]
    assert await repo.stat_totals(GUILD, PEOPLE[0], "complots") == {}
    keeper = RecordKeeper(repo)
    keeper.start()
    try:
        await settled(repo)
    finally:
        await keeper.stop()
    assert set(stored_stats(path, table)[0]) == set(STATS)


async def test_a_game_without_statistics_is_marked_done_with_none(
    repo: SqliteRepository, path: Path
) -> None:
    service = TableService(repo, NoScheduler(), seeds=lambda: 9)
    table = await started(service, "mascarade", channel=300, computer=False)
    await play(service, table, random.Random(9), remove_at=None)
    assert await RecordKeeper(repo).compute_pending() == 1
    assert await repo.records_awaiting_stats(10) == []
    assert stored_stats(path, table) == {}


async def test_a_log_that_does_not_replay_gets_no_statistics_and_is_logged(
    repo: SqliteRepository, path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    table, _ = await finished_complots(repo, 6)
    raw(path, "UPDATE tables SET seed = seed + 1 WHERE id = ?", (table,))
    with caplog.at_level(logging.ERROR, logger="bot.records"):
        assert await RecordKeeper(repo).compute_pending() == 1
    assert stored_stats(path, table) == {}
    assert await repo.records_awaiting_stats(10) == [], "not tried again at every boot"
    assert any(f"no statistics for table {table}" in r.getMessage() for r in caplog.records)


async def test_games_that_ended_before_records_existed_are_recorded_and_rated(
    repo: SqliteRepository, path: Path
) -> None:
    tables = [(await finished_complots(repo, seed))[0] for seed in range(3)]
    service = TableService(repo, NoScheduler(), seeds=lambda: 77)
    ended = await started(service, "complots", channel=400, computer=True)
    await service.end(ended, MODERATOR)
    lobby = await service.create_table(
        guild_id=GUILD,
        channel_id=401,
        game="complots",
        creator_id=PEOPLE[0],
        creator_name="p0",
        options=GAMES["complots"].options_model(),
        timeouts=TIMEOUTS,
    )
    await service.end(lobby.table.id, MODERATOR)
    originals = {t: await repo.game_record(t) for t in [*tables, ended]}
    skills = await repo.skills(GUILD, "complots")
    assert skills, "the finished games moved ratings"
    # As a database from before records: no record, no rating.
    for table_name in ("record_seats", "game_records", "ratings"):
        raw(path, f"DELETE FROM {table_name}")
    assert sorted(await repo.unrecorded_games()) == sorted(originals)

    assert await RecordKeeper(repo).backfill() == len(originals)
    for table, original in originals.items():
        assert original is not None
        rebuilt = await repo.game_record(table)
        assert rebuilt is not None
        assert same_game(rebuilt, original)
    ended_record = await repo.game_record(ended)
    assert ended_record is not None and ended_record.outcome is GameOutcome.ENDED
    assert await repo.game_record(lobby.table.id) is None, "a lobby played no game"
    assert await repo.skills(GUILD, "complots") == skills
    assert await repo.unrecorded_games() == []
    assert await RecordKeeper(repo).backfill() == 0, "a second boot adds nothing"


def same_game(rebuilt: GameRecord, original: GameRecord) -> bool:
    """Equal but for the end time (the backfill reads the table's last change)."""
    return rebuilt.model_dump(exclude={"ended_at"}) == original.model_dump(exclude={"ended_at"})


async def test_past_records_rate_in_the_order_games_ended(
    repo: SqliteRepository, path: Path
) -> None:
    """A backfilled game that ended before recorded ones is rated before them."""
    tables = [(await finished_complots(repo, seed))[0] for seed in range(3)]
    first = tables[0]
    record = await repo.game_record(first)
    assert record is not None
    for name in ("record_seats", "game_records"):
        raw(path, f"DELETE FROM {name} WHERE table_id = ?", (first,))
    raw(path, "UPDATE ratings SET mu = 0, games = 99")  # rebuilt from the records
    await repo.add_past_records([record])
    records = [await repo.game_record(t) for t in tables]
    expected = ratings.replay([r for r in records if r is not None])
    assert await repo.skills(GUILD, "complots") == expected
