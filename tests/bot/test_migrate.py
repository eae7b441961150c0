"""Moving up from SQLite to PostgreSQL (``python -m bot migrate``): a database with
lobby, running, finished and ended tables is copied to a real PostgreSQL server,
everything reads back the same, and the running games continue identically on
both (same states, same next prompts)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from bot.__main__ import main as bot_main
from bot.migrate import TABLES, MigrationRefused, migrate_database
from bot.records import RecordKeeper
from bot.storage.models import GuildSettings, TableStatus
from bot.storage.postgres import PostgresRepository
from bot.storage.repository import Repository
from bot.storage.sqlite import SqliteRepository
from bot.tables import TableService
from games.ai import Level
from games.registry import GAMES
from tests.bot.schedulers import NoScheduler
from tests.bot.test_replays import MODERATOR, PEOPLE, TIMEOUTS, play, started

GUILD = 1


@pytest.fixture
def target(empty_postgres_dsn: str) -> str:
    return empty_postgres_dsn


@pytest.fixture
def source(tmp_path: Path) -> Path:
    return tmp_path / "old.sqlite3"


def seeds() -> Iterator[int]:
    yield from range(1000, 10_000)


async def fill(path: Path) -> dict[str, int]:
    """Every kind of table and row: a lobby, two running games (one with a
    computer), a finished game (record, ratings, statistics), a moderator's end,
    guild settings. Returns the tables by what they are."""
    repo = SqliteRepository(path)
    await repo.open()
    try:
        service = TableService(repo, NoScheduler(), seeds=iter(seeds()).__next__)
        finished = await started(service, "complots", channel=10, computer=True)
        await play(service, finished, random.Random(1), remove_at=None)
        await RecordKeeper(repo).compute_pending()
        ended = await started(service, "complots", channel=11, computer=False)
        await service.end(ended, MODERATOR)
        running = await started(service, "complots", channel=12, computer=True)
        await steps(service, running, random.Random(2), 5)
        masks = await started(service, "mascarade", channel=13, computer=False)
        await steps(service, masks, random.Random(3), 4)
        lobby = await service.create_table(
            guild_id=GUILD,
            channel_id=14,
            game="bloody_inn",
            creator_id=PEOPLE[0],
            creator_name="p0",
            options=GAMES["bloody_inn"].options_model(),
            timeouts=TIMEOUTS,
            language="fr",
        )
        await repo.save_guild_settings(
            GuildSettings(guild_id=GUILD, moderator_role_id=77, turn_timeout=90, language="it")
        )
    finally:
        await repo.close()
    return {
        "finished": finished,
        "ended": ended,
        "running": running,
        "masks": masks,
        "lobby": lobby.table.id,
    }


async def steps(service: TableService, table: int, rng: random.Random, count: int) -> None:
    """``count`` choices of random people (or the computer) at a running table."""
    for _ in range(count):
        snap = await service.snapshot(table)
        assert snap.state is not None and snap.version is not None
        if service.computers_awaited(snap):
            assert await service.play_computer(table)
            continue
        prompt = rng.choice(snap.game.prompts(snap.state))
        user = snap.seats[prompt.player].user_id
        assert await service.act(table, snap.version, user, rng.choice(prompt.choices))


async def everything(repo: Repository, tables: dict[str, int]) -> list[object]:
    """All the repository says about the tables, as plain data."""
    seen: list[object] = []
    for table in sorted(tables.values()):
        seen += [
            await repo.get_table(table),
            await repo.seats(table),
            await repo.load_state(table),
            await repo.actions(table),
            await repo.events(table, public_only=False),
            await repo.deadline(table),
            await repo.undelivered(table),
            await repo.game_record(table),
        ]
    seen += [
        await repo.deadlines(),
        await repo.skills(GUILD, "complots"),
        await repo.guild_settings(GUILD),
        await repo.stat_totals(GUILD, PEOPLE[0], "complots"),
        await repo.tables_to_refresh(),
        await repo.tables_with_undelivered(),
        sorted(await repo.tables_with_computers(3)),
        [t.id for t in await repo.running_tables()],
    ]
    return [item.model_dump() if hasattr(item, "model_dump") else dump(item) for item in seen]


def dump(item: object) -> object:
    if isinstance(item, list):
        return [dump(i) for i in item]
    if isinstance(item, dict):
        return {k: dump(v) for k, v in item.items()}
    return item.model_dump() if hasattr(item, "model_dump") else item


async def test_everything_is_copied_and_the_running_games_go_on_the_same(
    source: Path, target: str
) -> None:
    tables = await fill(source)
    copied = await migrate_database(source, target)
    assert set(copied) == set(TABLES)
    assert copied["tables"] == 5 and copied["record_stats"] > 0 and copied["ratings"] >= 2

    old, new = SqliteRepository(source), PostgresRepository(target)
    await old.open()
    await new.open()
    try:
        assert await everything(new, tables) == await everything(old, tables)
        # The running games go on: the same choices give the same states and prompts.
        services = [TableService(repo, NoScheduler()) for repo in (old, new)]
        for table in (tables["running"], tables["masks"]):
            for seed in range(6):
                states = []
                for service in services:
                    await steps(service, table, random.Random(seed), 1)
                    snap = await service.snapshot(table)
                    assert snap.state is not None
                    prompts = snap.game.prompts(snap.state)
                    states.append((snap.version, snap.state.model_dump_json(), prompts))
                assert states[0] == states[1]
        # New tables get new ids after the copied ones.
        fresh = await new.create_table(
            guild_id=GUILD,
            channel_id=99,
            game="complots",
            creator_id=PEOPLE[1],
            creator_name="p1",
            options_json="{}",
            timeouts=TIMEOUTS,
        )
        assert fresh.id > max(tables.values())
        lobby = await new.get_table(tables["lobby"])
        assert lobby is not None and lobby.status is TableStatus.LOBBY
    finally:
        await old.close()
        await new.close()


async def test_a_database_that_is_not_empty_is_refused_and_left_as_it_was(
    source: Path, target: str
) -> None:
    await fill(source)
    await migrate_database(source, target)
    db = await asyncpg.connect(target)
    try:
        before = await db.fetchval("SELECT COUNT(*) FROM actions")
        with pytest.raises(MigrationRefused, match="already has"):
            await migrate_database(source, target)
        assert await db.fetchval("SELECT COUNT(*) FROM actions") == before
    finally:
        await db.close()


async def test_the_command_copies_and_reports(
    source: Path, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    await fill(source)
    exit_code = await run_command(["migrate", "--from", str(source), "--to", target])
    out = capsys.readouterr().out
    assert exit_code == 0
    assert "tables: 5 rows" in out and "Copied and verified" in out
    assert await run_command(["migrate", "--from", str(source), "--to", target]) == 1
    assert "Nothing was copied" in capsys.readouterr().err
    missing = source.with_name("missing.sqlite3")
    assert await run_command(["migrate", "--from", str(missing), "--to", target]) == 1
    assert "no SQLite database" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        await run_command(["migrate", "--from", str(source), "--to", "sqlite:///x"])


async def run_command(argv: list[str]) -> int:
    """``python -m bot`` with ``argv``, off the test's event loop (it runs its own)."""
    return await asyncio.to_thread(bot_main, argv)


async def test_computers_are_still_awaited_after_the_move(source: Path, target: str) -> None:
    tables = await fill(source)
    await migrate_database(source, target)
    new = PostgresRepository(target)
    await new.open()
    try:
        service = TableService(new, NoScheduler())
        snap = await service.snapshot(tables["running"])
        assert any(seat.computer == Level.NORMAL.value for seat in snap.seats)
    finally:
        await new.close()
