"""A bot process killed (SIGKILL) at many points of a game, restarted each time:
afterwards every committed step's channel lines and DMs are on Discord exactly
once, in order, and every table message shows its table as stored (a finished
game its winner, without live buttons).

The kill points cycle through: the table message's edit held by the fake
(Discord has not done it: the move is one button, whose answer is that edit, the
step already stored), a channel line or a DM done by the fake but its answer not
yet sent (the bot dies before marking it delivered: its nonce must stop a second
post), a line held before the fake does it, and a plain kill right after a click
was answered (before anything was delivered). A restart must then draw the table
message as stored: the next move is clicked on it."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from itertools import cycle
from typing import Any

import pytest

from bot.storage.models import OutboxKind, TableStatus
from bot.ui.i18n import t
from bot.ui.presenter import TableContext
from cogs.complots import PRESENTER
from tests.e2e.fake_discord.components import components_of
from tests.e2e.fake_discord.models import StoredMessage
from tests.e2e.fake_discord.rest import Gate

from .harness import World, buttons_on, clicks_for, panel_select, private_answer
from .test_process import ProcessTable, Reader, bot_process, open_process_table

pytestmark = pytest.mark.slow

WELCOME = t("lobby.joined_dm")
"""The DM a join answers with at once (no step owes it)."""
KILLS = 32
PLAYERS = 3
ANSWER = 5.0


@dataclass(frozen=True)
class KillPoint:
    method: str | None
    path: str
    before: bool
    button: bool = False
    """The move is one button where the table offers one (its answer edits the table
    message; a move by a panel is answered on the panel)."""


def kill_points(world: World) -> Iterator[KillPoint]:
    channel = f"/channels/{world.channel.id}/messages"
    return cycle(
        (
            KillPoint("POST", "/interactions/", before=True, button=True),
            KillPoint("POST", channel, before=False),
            KillPoint("POST", "/channels/", before=False),  # the first DM or line due
            KillPoint("POST", channel, before=True),
            KillPoint(None, "", before=True),
        )
    )


@asynccontextmanager
async def running(world: World) -> AsyncIterator[Any]:
    async with bot_process(world) as process, Reader(world) as reader:
        yield process, reader


async def owed_everything(reader: Reader, timeout: float = 20.0) -> None:
    """Wait until the bot delivered every outbox entry and drew every table (a
    lobby is always listed to refresh at boot: it does not count)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        pending = await reader.repo.tables_with_undelivered()
        stale = []
        for table_id in await reader.repo.tables_to_refresh():
            table = await reader.repo.get_table(table_id)
            if table is not None and table.status is not TableStatus.LOBBY:
                stale.append(table_id)
        if not pending and not stale:
            return
        assert loop.time() < end, f"still owed: outbox of {pending}, messages of {stale}"
        await asyncio.sleep(0.05)


async def one_move(
    world: World, table: ProcessTable, rng: random.Random, button: bool = False
) -> None:
    """A random legal move of a prompted seat, by clicks (one button if ``button``
    and the table offers one); answers are not awaited beyond ``ANSWER`` seconds (the
    bot may be about to die)."""
    state = await table.state()
    game = table.bot.tables.game("complots")
    message = await table.message()
    buttons = buttons_on(message)
    moves = []
    for prompt in game.prompts(state):
        for choice in prompt.choices:
            clicks = clicks_for(buttons, choice)
            assert clicks is not None, f"{choice} is not on the table message"
            moves.append((prompt.player, clicks))
    one_button = [move for move in moves if move[1].value is None]
    player, clicks = rng.choice(one_button if button and one_button else moves)
    user = world.user((await table.seat_users())[player])
    record = await world.fake.click(user, message, clicks.custom_id)
    if clicks.value is None:
        await asyncio.wait_for(record.wait_response(), ANSWER)
        return
    panel = await asyncio.wait_for(private_answer(record), ANSWER)
    custom_id, values = panel_select(panel)
    assert clicks.value in values
    chosen = await world.fake.select(user, panel, custom_id, [clicks.value])
    await asyncio.wait_for(chosen.wait_response(), ANSWER)


async def open_table(world: World, reader: Reader) -> ProcessTable:
    return await open_process_table(world, reader, world.players[:PLAYERS])


async def rematch(world: World, table: ProcessTable, reader: Reader) -> ProcessTable:
    creator = world.user((await table.seat_users())[0])
    await (await table.click_label(creator, "Rematch")).wait_response()
    found = await reader.tables.table_in_channel(world.channel.id)
    assert found is not None and found.id != table.id
    fresh = ProcessTable(world, found.id, reader)
    await fresh.wait_for_table_message()
    await (await fresh.click_label(creator, "Start")).wait_response()
    await fresh.settle()
    return fresh


async def test_a_killed_bot_delivers_every_step_once_in_order(world: World) -> None:
    await play_with_kills(world, KILLS, random.Random(20261123))
    async with running(world) as (_, reader):
        await owed_everything(reader)
        await check_everything_delivered_once(world, reader)


async def play_with_kills(world: World, kills: int, rng: random.Random) -> list[float]:
    """Complots games by clicks, the bot killed ``kills`` times at the kill points
    (rematches when a game ends); the seconds each restart took until everything
    owed was delivered and drawn."""
    points = kill_points(world)
    recoveries: list[float] = []
    table_id: int | None = None
    loop = asyncio.get_running_loop()
    killed = 0
    while killed < kills:
        started = loop.time()
        async with running(world) as (process, reader):
            await owed_everything(reader)
            if killed > len(recoveries):
                recoveries.append(loop.time() - started)
            if table_id is None:
                table = await open_table(world, reader)
            else:
                table = ProcessTable(world, table_id, reader)
                if await table.status() is TableStatus.FINISHED:
                    table = await rematch(world, table, reader)
            table_id = table.id
            await table.settle()
            for _ in range(rng.randint(0, 2)):  # a few steps live, then a kill
                if await table.status() is not TableStatus.RUNNING:
                    break
                await one_move(world, table, rng)
                await owed_everything(reader)
            if await table.status() is not TableStatus.RUNNING:
                continue
            await kill_during_a_move(world, table, rng, next(points), process)
            killed += 1
    return recoveries


async def kill_during_a_move(
    world: World, table: ProcessTable, rng: random.Random, point: KillPoint, process: Any
) -> None:
    gate: Gate | None = None
    if point.method is not None:
        gate = world.fake.rest.gate(point.method, point.path, before=point.before)
    move = asyncio.ensure_future(one_move(world, table, rng, point.button))
    if gate is None:
        await asyncio.wait({move})
    else:
        # The bot dies once the gate holds its request (which may block the move's
        # answer); a step may owe nothing of that kind: then a while after the move.
        reached = asyncio.ensure_future(gate.reached.wait())
        await asyncio.wait({move, reached}, return_when=asyncio.FIRST_COMPLETED)
        if not reached.done():
            await asyncio.wait({reached}, timeout=3.0)
        reached.cancel()
    process.kill()
    await process.wait()
    move.cancel()
    with suppress(TimeoutError, asyncio.CancelledError):  # the answer a dead bot never sent
        await move
    if gate is not None:
        if gate.before:
            gate.drop()
        else:
            gate.release.set()
        if gate in world.fake.rest.gates:
            world.fake.rest.gates.remove(gate)


async def check_everything_delivered_once(world: World, reader: Reader) -> None:
    fake = world.fake
    tables = await reader.repo.list_tables(world.guild.id, tuple(TableStatus))
    table_messages = {t.message_id for t in tables}
    owed = {t.id: outbox_of(world, t.id) for t in tables}
    lines = [e.content for table in tables for e in owed[table.id] if e.kind is OutboxKind.POST]
    posted = [
        m.content
        for m in fake.channel_messages(world.channel)
        if m.author is fake.bot and m.id not in table_messages and not m.ephemeral
    ]
    # Lines owed one after the other may share a message: compare the lines.
    assert "\n".join(posted) == "\n".join(lines), "every owed line is in the channel once, in order"
    for user in world.players[:PLAYERS]:
        dms = [
            e.content
            for table in tables
            for e in owed[table.id]
            if e.kind is OutboxKind.DM and e.target == user.id
        ]
        received = [m.content for m in fake.dms(user) if m.content != WELCOME]
        assert "\n".join(received) == "\n".join(dms), f"{user.name}'s DMs: once, in order"
    for table in tables:
        await check_step_lines_were_owed(world, reader, table.id)
        if table.status is TableStatus.FINISHED:
            check_shows_winner(fake.message(table.message_id or 0))


@dataclass(frozen=True)
class Owed:
    version: int | None
    kind: OutboxKind
    target: int
    content: str


def outbox_of(world: World, table_id: int) -> list[Owed]:
    """Every outbox entry of the table, delivered ones included (read from the database)."""
    rows = world.read(
        "SELECT version, kind, target, content, delivered_at FROM outbox"
        " WHERE table_id = ? ORDER BY id",
        table_id,
    )
    assert all(row[4] is not None for row in rows), "everything owed was delivered"
    return [Owed(row[0], OutboxKind(row[1]), row[2], row[3]) for row in rows]


async def check_step_lines_were_owed(world: World, reader: Reader, table_id: int) -> None:
    """Every committed version whose public events read as lines owed those lines."""
    snapshot = await reader.tables.snapshot(table_id)
    ctx = TableContext(snapshot)
    game = snapshot.game
    by_version: dict[int, list[Any]] = {}
    for record in await reader.repo.events(table_id, public_only=True):
        by_version.setdefault(record.version, []).append(game.parse_event(record.event_json))
    owed: dict[int | None, list[str]] = {}
    for entry in outbox_of(world, table_id):
        if entry.kind is OutboxKind.POST:
            owed.setdefault(entry.version, []).extend(entry.content.split("\n"))
    for version, events in by_version.items():
        lines = PRESENTER.event_lines(ctx, events)
        assert set(lines) <= set(owed.get(version, [])), f"step {version} owed {lines}"


def check_shows_winner(message: StoredMessage) -> None:
    description = "\n".join(
        f"{e.get('description', '')}\n"
        + "\n".join(f"{f['name']} {f['value']}" for f in e.get("fields", []))
        for e in message.embeds
    )
    assert "🏆" in description, "a finished table shows its winner"
    codes = [str(c.get("custom_id", "")).split(":")[-1] for c in components_of(message)]
    assert set(codes) <= {"ui.rematch", "ui.log"}, f"live buttons left: {codes}"
