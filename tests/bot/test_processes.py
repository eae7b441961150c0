"""Several processes on one PostgreSQL database (real processes, real server):
the same click sent by three processes at once applies once, and a deadline
whose process is killed while firing it fires once, by the process that takes it
over when the claim runs out."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.storage.models import ActionKind, Timeouts
from bot.storage.postgres import PostgresRepository
from bot.tables import TableService
from games.registry import GAMES
from tests.bot.schedulers import NoScheduler

PEOPLE = [401, 402, 403]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def repo(postgres_dsn: str) -> AsyncIterator[PostgresRepository]:
    repository = PostgresRepository(postgres_dsn)
    await repository.open()
    yield repository
    await repository.close()


async def started(repo: PostgresRepository, turn: int = 60) -> int:
    """Three people at a started Complots table (``turn`` seconds for a turn)."""
    service = TableService(repo, NoScheduler(), seeds=lambda: 7)
    snap = await service.create_table(
        guild_id=1,
        channel_id=1,
        game="complots",
        creator_id=PEOPLE[0],
        creator_name="p0",
        options=GAMES["complots"].options_model(),
        timeouts=Timeouts(turn=turn, reaction=turn, choice=turn),
    )
    for i, user in enumerate(PEOPLE[1:], start=1):
        await service.join(snap.table.id, user, f"p{i}")
    await service.start(snap.table.id, PEOPLE[0], moderator=False)
    return snap.table.id


class Worker:
    """A ``tests.bot.process_worker`` process and the lines it printed."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[str] = []

    async def line(self, timeout: float = 30.0) -> str:
        assert self.process.stdout is not None
        raw = await asyncio.wait_for(self.process.stdout.readline(), timeout)
        assert raw, f"the worker ended: {await self.stderr()}"
        self.lines.append(raw.decode().strip())
        return self.lines[-1]

    async def stderr(self) -> str:
        assert self.process.stderr is not None
        return (await self.process.stderr.read()).decode()

    def kill(self) -> None:
        if self.process.returncode is None:
            self.process.kill()


@asynccontextmanager
async def workers(*commands: list[str]) -> AsyncIterator[list[Worker]]:
    started = [
        Worker(
            await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.bot.process_worker",
                *command,
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
        )
        for command in commands
    ]
    try:
        yield started
    finally:
        for worker in started:
            worker.kill()
            await worker.process.wait()


async def test_the_same_click_from_three_processes_applies_once(
    repo: PostgresRepository, postgres_dsn: str, tmp_path: Path
) -> None:
    table = await started(repo)
    service = TableService(repo, NoScheduler())
    snap = await service.snapshot(table)
    assert snap.state is not None and snap.version == 0
    [prompt] = snap.game.prompts(snap.state)
    user = snap.seats[prompt.player].user_id
    choice = snap.game.choice_adapter.dump_json(prompt.choices[0]).decode()
    go = tmp_path / "go"
    command = ["click", postgres_dsn, str(table), "0", str(user), choice, str(go)]
    async with workers(command, command, command) as clickers:
        assert [await w.line() for w in clickers] == ["ready"] * 3
        go.touch()
        results = sorted([await w.line() for w in clickers])
    assert results.count("applied") == 1, results
    assert all(r.startswith("refused") for r in results if r != "applied")
    actions = await repo.actions(table)
    assert [a.version for a in actions] == [0, 1], "one step, no gap, no double"
    stored = await repo.load_state(table)
    assert stored is not None and stored.version == 1


async def test_a_deadline_fires_once_when_the_process_firing_it_is_killed(
    repo: PostgresRepository, postgres_dsn: str
) -> None:
    table = await started(repo, turn=1)
    [armed] = await repo.deadlines()
    lease = "8"  # outlives the standby's start (a new interpreter: seconds on a busy machine)
    holder = ["serve", postgres_dsn, "holder", "--lease", lease, "--slow-timeout", "60"]
    async with workers(holder) as [first]:
        assert await first.line() == "ready"
        assert await first.line() == f"firing {table}", "it claimed the due deadline"
        async with workers(["serve", postgres_dsn, "standby", "--lease", lease]) as [second]:
            assert await second.line() == "ready"
            await asyncio.sleep(0.5)  # the standby finds the deadline claimed and waits
            assert [a.kind for a in await repo.actions(table)] == [ActionKind.START]
            first.kill()  # mid-fire: nothing of the timeout was committed
            await first.process.wait()
            assert await second.line(timeout=30) == f"firing {table}", "taken over"
            for _ in range(200):
                if len(await repo.actions(table)) > 1:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(1.0)  # time for a second fire, were there one
    kinds = [(a.version, a.kind) for a in await repo.actions(table)]
    assert kinds[:2] == [(0, ActionKind.START), (1, ActionKind.TIMEOUT)]
    assert [k for k in kinds if k[0] == 1] == [(1, ActionKind.TIMEOUT)], "fired once"
    assert armed.version == 0
