"""Replays rebuilt from the stored log match, step by step, the states and events the
live game went through: random finished games of every game, played through the
table service on a real SQLite file, with timeouts, computer seats, a moderator's
removal and a moderator's end among them."""

from __future__ import annotations

import logging
import random
import sqlite3
from collections.abc import AsyncIterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.replays import ReplayUnavailable, load_replay
from bot.storage.models import ActionKind, Timeouts
from bot.storage.sqlite import SqliteRepository
from bot.tables import Snapshot, TableService
from games.ai import Level
from games.registry import GAMES
from tests.bot.schedulers import NoScheduler

TIMEOUTS = Timeouts(turn=60, reaction=20, choice=30)
PEOPLE = [301, 302, 303]
MODERATOR = 999
MAX_VERSIONS = 3000
SEEDS = range(3)


@dataclass
class Recorder:
    """What the live game went through: per stored version, the state and events."""

    states: dict[int, str] = field(default_factory=dict)
    events: dict[int, list[str]] = field(default_factory=dict)

    async def table_changed(self, snapshot: Snapshot) -> None:
        if snapshot.state is None or snapshot.version is None:
            return
        self.states[snapshot.version] = snapshot.state.model_dump_json()
        self.events[snapshot.version] = [e.model_dump_json() for e in snapshot.events]


@pytest.fixture
async def repo(tmp_path: Path) -> AsyncIterator[SqliteRepository]:
    repository = SqliteRepository(tmp_path / "replays.sqlite3")
    await repository.open()
    yield repository
    await repository.close()


def service_for(repo: SqliteRepository, recorder: Recorder, seed: int) -> TableService:
    service = TableService(repo, NoScheduler(), seeds=lambda: seed)
    service.listeners = [recorder]
    return service


async def started(service: TableService, game: str, channel: int, computer: bool) -> int:
    """Three people (and a computer when ``computer``) at a started table."""
    snap = await service.create_table(
        guild_id=1,
        channel_id=channel,
        game=game,
        creator_id=PEOPLE[0],
        creator_name="p0",
        options=GAMES[game].options_model(),
        timeouts=TIMEOUTS,
    )
    table = snap.table.id
    for i, user in enumerate(PEOPLE[1:], start=1):
        await service.join(table, user, f"p{i}")
    if computer:
        await service.add_computer(table, PEOPLE[0], Level.NORMAL, moderator=False)
    await service.start(table, PEOPLE[0], moderator=False)
    return table


async def play(
    service: TableService, table: int, rng: random.Random, *, remove_at: int | None
) -> None:
    """Random play to the end: people choose at random, a computer plays its seat,
    a window times out now and then, and a moderator removes seat 1 at version
    ``remove_at``."""
    for _ in range(MAX_VERSIONS):
        snap = await service.snapshot(table)
        if snap.table.status.value != "running":
            return
        assert snap.state is not None and snap.version is not None
        if snap.version == remove_at:
            await service.remove_player(table, 1, MODERATOR)
        elif service.computers_awaited(snap):
            assert await service.play_computer(table)
        elif rng.random() < 0.08 and snap.deadline is not None:
            await service.fire(snap.deadline)
        else:
            people = [p for p in snap.game.prompts(snap.state) if not snap.seats[p.player].computer]
            prompt = rng.choice(people)
            user = snap.seats[prompt.player].user_id
            await service.act(table, snap.version, user, rng.choice(prompt.choices))
    raise AssertionError(f"table {table} did not end")


async def assert_replay_matches(
    repo: SqliteRepository, table: int, recorder: Recorder
) -> list[ActionKind]:
    replay = await load_replay(repo, table)
    assert [s.version for s in replay.steps] == sorted(recorder.states)
    for step in replay.steps:
        assert step.state.model_dump_json() == recorder.states[step.version], (
            f"table {table}: version {step.version} ({step.kind.value}) differs"
        )
        assert [e.model_dump_json() for e in step.events] == recorder.events[step.version]
    stored = await repo.load_state(table)
    assert stored is not None and stored.state_json == replay.steps[-1].state.model_dump_json()
    return [step.kind for step in replay.steps]


@pytest.mark.parametrize("game", list(GAMES))
async def test_random_finished_games_replay_to_the_states_played(
    repo: SqliteRepository, game: str
) -> None:
    kinds: set[ActionKind] = set()
    for seed in SEEDS:
        recorder = Recorder()
        service = service_for(repo, recorder, seed=1000 + seed)
        rng = random.Random(f"{game}-{seed}")
        table = await started(service, game, channel=100 + seed, computer=seed != 1)
        await play(service, table, rng, remove_at=6 if seed == 2 else None)
        kinds.update(await assert_replay_matches(repo, table, recorder))
    assert {ActionKind.CHOICE, ActionKind.COMPUTER, ActionKind.TIMEOUT} <= kinds
    assert ActionKind.FORFEIT in kinds, "a moderator's removal was replayed"


async def test_a_game_a_moderator_ended_replays_to_its_end(repo: SqliteRepository) -> None:
    recorder = Recorder()
    service = service_for(repo, recorder, seed=77)
    table = await started(service, "complots", channel=5, computer=True)
    rng = random.Random(5)
    for _ in range(7):
        snap = await service.snapshot(table)
        assert snap.state is not None and snap.version is not None
        if service.computers_awaited(snap):
            await service.play_computer(table)
            continue
        prompt = next(p for p in snap.game.prompts(snap.state) if p.player < len(PEOPLE))
        user = snap.seats[prompt.player].user_id
        await service.act(table, snap.version, user, rng.choice(prompt.choices))
    await service.end(table, MODERATOR)
    kinds = await assert_replay_matches(repo, table, recorder)
    assert kinds[0] is ActionKind.START and kinds[-1] is ActionKind.END


async def test_tables_without_a_record_have_no_replay(repo: SqliteRepository) -> None:
    service = service_for(repo, Recorder(), seed=3)
    running = await started(service, "mascarade", channel=7, computer=False)
    lobby = await service.create_table(
        guild_id=1,
        channel_id=8,
        game="complots",
        creator_id=PEOPLE[0],
        creator_name="p0",
        options=GAMES["complots"].options_model(),
        timeouts=TIMEOUTS,
    )
    for table in (running, lobby.table.id, 12345):
        with pytest.raises(ReplayUnavailable) as refused:
            await load_replay(repo, table)
        assert refused.value.key == "unavailable"


async def test_a_log_that_does_not_rebuild_the_stored_game_is_refused_and_logged(
    repo: SqliteRepository, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    recorder = Recorder()
    service = service_for(repo, recorder, seed=11)
    table = await started(service, "complots", channel=9, computer=True)
    await play(service, table, random.Random(11), remove_at=None)
    assert (await load_replay(repo, table)).steps
    with closing(sqlite3.connect(tmp_path / "replays.sqlite3")) as db, db:
        db.execute("UPDATE tables SET seed = seed + 1 WHERE id = ?", (table,))
    with (
        caplog.at_level(logging.ERROR, logger="bot.replays"),
        pytest.raises(ReplayUnavailable) as refused,
    ):
        await load_replay(repo, table)
    assert refused.value.key == "mismatch"
    assert any(f"table {table} cannot be replayed" in r.getMessage() for r in caplog.records)
