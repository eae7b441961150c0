"""Paced computer moves: the driver plays every computer prompt, and only those."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from bot.autoplay import Autoplay
from bot.storage.models import ActionKind, EventRecord, Timeouts
from bot.storage.repository import Repository
from bot.storage.sqlite import SqliteRepository
from bot.tables import TableService
from bot.thinking import Thinker, remembers
from games.ai import Level
from games.base import Choice, Event, Seat, View
from games.complots import ComplotsOptions

from .test_tables import RecordingScheduler

TIMEOUTS = Timeouts(turn=60, reaction=20, choice=30)
PERSON = 7


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    repo = SqliteRepository(tmp_path / "t.sqlite3")
    await repo.open()
    yield TableService(repo, RecordingScheduler(), seeds=lambda: 99)
    await repo.close()


async def table_with_computers(service: TableService, *levels: Level) -> int:
    snap = await service.create_table(
        guild_id=1,
        channel_id=2,
        game="complots",
        creator_id=PERSON,
        creator_name="Ann",
        options=ComplotsOptions(first_player=1),
        timeouts=TIMEOUTS,
    )
    for level in levels:
        await service.add_computer(snap.table.id, PERSON, level, moderator=False)
    return snap.table.id


async def wait_for_person_or_end(service: TableService, table: int, seconds: float = 10) -> None:
    game = service.game("complots")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        snap = await service.snapshot(table)
        if game.result(snap.state) is not None or (
            0 in game.awaiting(snap.state) and not service.computers_awaited(snap)
        ):
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the computers never handed over to the person")


async def person_plays(service: TableService, table: int, rng: random.Random, turns: int) -> bool:
    """The person (seat 0) makes up to ``turns`` random moves, each once the
    computers handed over; whether the game ended."""
    game = service.game("complots")
    for _ in range(turns):
        await wait_for_person_or_end(service, table)
        snap = await service.snapshot(table)
        if game.result(snap.state) is not None:
            return True
        prompt = game.prompt_for(snap.state, 0)
        assert prompt is not None
        await service.act(table, snap.version or 0, PERSON, rng.choice(prompt.choices))
    return False


async def test_computers_move_by_themselves_and_wait_for_the_person(
    service: TableService,
) -> None:
    autoplay = Autoplay(service, delay=0.0)
    service.listeners.append(autoplay)
    table = await table_with_computers(service, Level.NORMAL, Level.EASY, Level.NORMAL)
    await service.start(table, PERSON, moderator=False)
    try:
        assert await person_plays(service, table, random.Random(3), 500), "the game did not end"
    finally:
        await autoplay.stop()
    actions = await service.repo.actions(table)
    kinds = {(a.kind, a.seat == 0) for a in actions if a.seat is not None}
    assert (ActionKind.COMPUTER, False) in kinds and (ActionKind.COMPUTER, True) not in kinds


async def test_moves_are_paced_and_resume_after_a_restart(service: TableService) -> None:
    table = await table_with_computers(service, Level.EASY, Level.EASY)
    await service.start(table, PERSON, moderator=False)  # seat 1, a computer, starts
    paced = Autoplay(service, delay=0.3)
    service.listeners.append(paced)
    started = time.monotonic()
    await paced.resume()  # what a boot does: the computer's pending turn is found
    while (await service.snapshot(table)).version == 0:
        assert time.monotonic() - started < 5, "the computer never moved"
        await asyncio.sleep(0.01)
    assert time.monotonic() - started >= 0.29, "not before its delay"
    await paced.stop()
    version = (await service.snapshot(table)).version
    await asyncio.sleep(0.5)
    assert (await service.snapshot(table)).version == version, "a stopped driver plays nothing"


async def test_a_stopped_driver_starts_no_move_on_a_later_change(service: TableService) -> None:
    """A step committed while the bot closes (a click being answered) starts no
    computer move."""
    table = await table_with_computers(service, Level.EASY, Level.EASY)
    autoplay = Autoplay(service, delay=0.0)
    service.listeners.append(autoplay)
    await autoplay.stop()
    await service.start(table, PERSON, moderator=False)  # seat 1, a computer, is awaited
    await asyncio.sleep(0.3)
    snapshot = await service.snapshot(table)
    assert service.computers_awaited(snapshot) and snapshot.version == 0


class WarmedThinker(Thinker):
    """Keeps what it was asked to warm, and starts no process."""

    def __init__(self) -> None:
        super().__init__()
        self.warmed: list[tuple[str, Level]] = []

    def warm(self, game: str, level: Level) -> list[Future[int]]:
        self.warmed.append((game, level))
        return []


async def test_searching_computers_get_their_workers_ready_from_the_lobby(
    service: TableService,
) -> None:
    """A worker's start costs a second or two: it is paid while people gather, not
    by the first decision."""
    thinker = WarmedThinker()
    service.thinker = thinker
    table = await table_with_computers(service, Level.HARD, Level.EASY)
    assert thinker.warmed == [("complots", Level.HARD), ("complots", Level.EASY)]
    await service.set_computer_level(table, PERSON, Level.HARD.value, moderator=False)
    await service.set_takeover(table, PERSON, True, moderator=False)
    thinker.warmed.clear()
    await service.start(table, PERSON, moderator=False)
    assert sorted(thinker.warmed) == [("complots", Level.EASY), ("complots", Level.HARD)]


async def test_a_boot_gets_the_workers_ready_for_the_resumed_tables(
    service: TableService,
) -> None:
    """After a restart the workers are cold: the first Hard move of a resumed table
    would pay their start out of its budget."""
    table = await table_with_computers(service, Level.EASY)
    await service.set_computer_level(table, PERSON, Level.HARD.value, moderator=False)
    await service.set_takeover(table, PERSON, True, moderator=False)
    await service.start(table, PERSON, moderator=False)
    thinker = WarmedThinker()
    service.thinker = thinker  # the new process's
    booted = Autoplay(service, delay=5.0)
    try:
        await booted.resume()
    finally:
        await booted.stop()
    assert sorted(thinker.warmed) == [("complots", Level.EASY), ("complots", Level.HARD)]


class RecordingThinker(Thinker):
    """Decides as the bot's thinker does, and keeps what each decision was given."""

    def __init__(self) -> None:
        super().__init__(workers=1, budget=0.05)
        self.given: list[tuple[Level, Seat, list[Event]]] = []
        self.as_json: list[list[str]] = []
        self.computers: list[tuple[Level, Seat, dict[Seat, Level]]] = []

    async def choose(
        self,
        game: str,
        level: Level,
        view: View,
        rng: random.Random,
        history: Sequence[Event] = (),
        *,
        history_json: Sequence[str] | None = None,
        computers: Mapping[Seat, Level] | None = None,
    ) -> Choice:
        assert view.viewer is not None
        self.given.append((level, view.viewer, list(history)))
        self.computers.append((level, view.viewer, dict(computers or {})))
        if history_json is not None:
            self.as_json.append(list(history_json))
        return await super().choose(
            game, level, view, rng, history, history_json=history_json, computers=computers
        )


async def recorded_game(
    service: TableService, levels: Sequence[Level], seed: int, turns: int
) -> tuple[RecordingThinker, int]:
    """A table of the person and computers at ``levels``; the person plays up to
    ``turns`` random moves, the computers answer through a recording thinker."""
    thinker = RecordingThinker()
    service.thinker = thinker
    autoplay = Autoplay(service, delay=0.0)
    service.listeners.append(autoplay)
    table = await table_with_computers(service, *levels)
    await service.start(table, PERSON, moderator=False)
    try:
        await person_plays(service, table, random.Random(seed), turns)
    finally:
        await autoplay.stop()
        thinker.close()
    return thinker, table


async def test_a_search_is_told_which_seats_are_computers_and_at_what_level(
    service: TableService,
) -> None:
    """A computer's level shows in the lobby: HARD plays the other computer seats as
    they play in its simulations (an EASY seat as EASY), people as NORMAL."""
    thinker, _ = await recorded_game(service, (Level.HARD, Level.EASY), seed=3, turns=6)
    told = {(level, seat): computers for level, seat, computers in thinker.computers}
    assert told[(Level.HARD, 1)] == {2: Level.EASY}, "the other computer, not the person"
    assert told[(Level.EASY, 2)] == {1: Level.HARD}


async def test_a_computer_that_remembers_is_given_its_seats_visible_history(
    service: TableService,
) -> None:
    """Complots NORMAL reads the seat's history (claims, blocks, exchanges): the bot
    loads it from the stored events for each of its decisions; EASY is spared it."""
    levels = (Level.NORMAL, Level.EASY, Level.NORMAL)
    thinker, table = await recorded_game(service, levels, seed=5, turns=30)
    game = service.game("complots")
    assert remembers("complots", Level.NORMAL) and not remembers("complots", Level.EASY)
    normal = [(seat, history) for level, seat, history in thinker.given if level is Level.NORMAL]
    easy = [history for level, _, history in thinker.given if level is Level.EASY]
    assert easy and all(history == [] for history in easy), "EASY forgets: no read"
    assert any(history for _, history in normal), "NORMAL was given what it saw"
    logged = [
        game.parse_event(r.event_json) for r in await service.repo.events(table, public_only=False)
    ]
    for seat, history in normal:
        seen = [event for event in logged if event.visible_to(seat)]
        assert history == seen[: len(history)], "its own visible events, in order"
        assert any(not event.visible_to(seat) for event in logged), "others' secrets left out"


class CountedReads:
    """The real repository, counting its reads of a table's whole log."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self.log_reads = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.repo, name)

    async def events(
        self, table_id: int, *, public_only: bool, last: int | None = None
    ) -> list[EventRecord]:
        if not public_only:
            self.log_reads += 1
        return await self.repo.events(table_id, public_only=public_only, last=last)


async def test_the_log_is_read_once_and_then_follows_each_step(service: TableService) -> None:
    """A computer that remembers would otherwise read and parse the whole log at each
    of its decisions (a few milliseconds late in a long game, on the event loop)."""
    counted = CountedReads(service.repo)
    service.repo = counted
    thinker, table = await recorded_game(service, (Level.NORMAL, Level.NORMAL), seed=8, turns=30)
    game = service.game("complots")
    logged = [
        game.parse_event(r.event_json) for r in await counted.repo.events(table, public_only=False)
    ]
    decisions = [(seat, history) for level, seat, history in thinker.given]
    assert len(decisions) > 3
    assert counted.log_reads == 1, "read once, then kept up to date"
    for seat, history in decisions:
        seen = [event for event in logged if event.visible_to(seat)]
        assert history == seen[: len(history)], "the same history as the stored log's"
    assert len({len(history) for _, history in decisions}) > 1, "it grew with the game"
    for (_, history), as_json in zip(decisions, thinker.as_json, strict=True):
        assert [game.parse_event(text) for text in as_json] == history, "its JSON, as stored"

    service.forget(table)  # as after a restart, or another process's step
    snap = await service.snapshot(table)
    assert snap.log is None
    reloaded = [seen.event for seen in await service._history(snap, 1)]
    assert reloaded == [e for e in logged if e.visible_to(1)]
    assert counted.log_reads == 2
