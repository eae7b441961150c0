"""A click counts only from its table's place: the table's guild and channel, on
the table message or on a panel the bot sent the clicker for that table. The
custom_id is only a claim (a modified client sends any), so each forged click
below is refused politely and changes nothing; refusals are logged quietly."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

import pytest

from bot.app import GameMasterBot
from bot.storage.models import TableStatus
from bot.ui import controller
from bot.ui.codec import encode
from bot.ui.locales.en.core import STRINGS
from games.complots import ActionKind
from games.complots.models import Act
from tests.e2e.fake_discord import FakeChannel, FakeGuild, FakeUser, InteractionRecord
from tests.e2e.fake_discord.models import StoredMessage

from .harness import MANAGE_GUILD, Table, World, answer_text
from .test_computers import open_lobby

WRONG_PLACE = STRINGS["refusal.wrong_place"]
HUGE = 2**63
"""One more than the largest integer SQLite stores."""


@dataclass
class Elsewhere:
    """Another server where the table's players also are, with its own moderator, and
    another channel of the table's server."""

    guild: FakeGuild
    channel: FakeChannel
    moderator: FakeUser
    side_channel: FakeChannel


def elsewhere(world: World) -> Elsewhere:
    fake = world.fake
    guild = fake.add_guild("Other server")
    channel = fake.add_channel(guild, "games")
    for user in [*world.players, world.outsider]:
        fake.add_member(guild, user)
    moderator = fake.add_user("other-mod")
    fake.add_member(guild, moderator, permissions=MANAGE_GUILD)
    fake.add_member(world.guild, moderator)  # a plain member of the table's server
    side_channel = fake.add_channel(world.guild, "general")
    return Elsewhere(guild, channel, moderator, side_channel)


async def foreign_message(world: World, other: Elsewhere, bot: GameMasterBot) -> StoredMessage:
    """A message of the bot with components in the other server: a lobby there."""
    opened = await world.fake.slash(other.moderator, other.channel, "complots")
    await opened.wait_response()
    found = await bot.tables.table_in_channel(other.channel.id)
    assert found is not None
    await bot.renderer.drain()
    return await Table(world, bot, found.id).message()


async def fingerprint(bot: GameMasterBot, table_id: int) -> tuple[Any, ...]:
    """What a click could change: the table's record, its seats, its stored state."""
    table = await bot.repo.get_table(table_id)
    assert table is not None
    seats = [
        (s.user_id, s.removed, s.computer, s.away_strikes) for s in await bot.repo.seats(table_id)
    ]
    state = await bot.repo.load_state(table_id)
    stored = None if state is None else (state.version, state.state_json)
    return table.status, table.takeover, table.message_id, seats, stored


async def refused(record: InteractionRecord) -> str:
    """The ephemeral line a click was refused with."""
    await record.wait_response()
    assert record.ephemeral, record.callbacks
    return record.content


async def test_a_forged_join_from_another_server_seats_nobody(world: World) -> None:
    fake = world.fake
    other = elsewhere(world)
    async with fake.running(world.bot()) as bot:
        table = await open_lobby(world, bot)
        there = await foreign_message(world, other, bot)
        before = await fingerprint(bot, table.id)
        for user in (world.outsider, world.players[1]):
            forged = await fake.forge(user, there, f"gm:{table.id}:0:ui.join")
            assert await refused(forged) == WRONG_PLACE
        await table.settle()
        assert await fingerprint(bot, table.id) == before
        assert [s.user_id for s in await bot.repo.seats(table.id)] == [world.players[0].id]


@pytest.mark.parametrize("where", ["other server", "other channel"])
@pytest.mark.parametrize(
    "code", ["ui.start", "ui.cancel", "ui.computer.normal", "ui.takeover.off", "ui.log"]
)
async def test_the_creators_forged_lobby_buttons_elsewhere_are_refused(
    world: World, where: str, code: str
) -> None:
    """The creator herself may start, cancel, add computers and read the log, but
    only at the table: not by a forged button in another server or channel."""
    fake = world.fake
    other = elsewhere(world)
    alice, bob = world.players[:2]
    async with fake.running(world.bot()) as bot:
        table = await open_lobby(world, bot)
        await (await table.click_label(bob, "Join")).wait_response()
        await table.settle()
        if where == "other server":
            place = await foreign_message(world, other, bot)
        else:
            place = await fake.post_as_bot(other.side_channel, content="Welcome!")
        before = await fingerprint(bot, table.id)
        forged = await fake.forge(alice, place, f"gm:{table.id}:0:{code}")
        assert await refused(forged) == WRONG_PLACE
        assert not forged.embeds, "no log shown"
        await table.settle()
        assert await fingerprint(bot, table.id) == before
        assert await table.status() is TableStatus.LOBBY


async def test_a_moderator_of_another_server_cannot_start_or_cancel_the_table(
    world: World,
) -> None:
    fake = world.fake
    other = elsewhere(world)
    async with fake.running(world.bot()) as bot:
        table = await open_lobby(world, bot)
        await (await table.click_label(world.players[1], "Join")).wait_response()
        await table.settle()
        there = await foreign_message(world, other, bot)
        before = await fingerprint(bot, table.id)
        for code in ("ui.start", "ui.cancel", "ui.computer.normal"):
            forged = await fake.forge(other.moderator, there, f"gm:{table.id}:0:{code}")
            assert await refused(forged) == WRONG_PLACE
            # At the table itself, in the table's server, he is a plain member.
            at_table = await fake.forge(other.moderator, await table.message(), forged_id(forged))
            assert "Only the table's creator or a moderator" in await refused(at_table)
        await table.settle()
        assert await fingerprint(bot, table.id) == before


def forged_id(record: InteractionRecord) -> str:
    return str(record.payload["data"]["custom_id"])


async def test_a_copy_of_the_buttons_on_another_message_is_refused(world: World) -> None:
    fake = world.fake
    bob = world.players[1]
    async with fake.running(world.bot()) as bot:
        table = await open_lobby(world, bot)
        original = await table.message()
        copy = await fake.post_as_bot(
            world.channel, embeds=original.embeds, components=original.components
        )
        before = await fingerprint(bot, table.id)
        for user, label in ((bob, "Join"), (world.players[0], "Start"), (bob, "Add computer")):
            assert await refused(await fake.click(user, copy, label=label)) == WRONG_PLACE
        await table.settle()
        assert await fingerprint(bot, table.id) == before
        joined = await table.click_label(bob, "Join")
        assert "joined" in (await answer_text(joined)).lower(), "the table message still works"


async def test_another_players_panel_is_not_a_place_to_click(world: World) -> None:
    """Bob's "My hand" panel is his: Alice, whose turn it is, cannot make her choice
    (or open her hand) through a click forged on it."""
    fake = world.fake
    async with fake.running(world.bot()) as bot:
        table = await Table.open(world, bot, players=3)
        snap = await bot.tables.snapshot(table.id)
        game = bot.tables.game("complots")
        [prompt] = game.prompts(snap.state)
        chooser = table.player(prompt.player, await table.seat_users())
        income = Act(action=ActionKind.INCOME)
        assert income in prompt.choices
        owner = next(u for u in world.players[:3] if u is not chooser)
        panel = await table.click_label(owner, "My hand")
        await panel.wait_response()
        assert panel.ephemeral and panel.message.ephemeral_to == owner.id
        metadata = panel.message.payload["interaction_metadata"]
        assert metadata["user"]["id"] == str(owner.id), "Discord names whom it answered"
        before = await fingerprint(bot, table.id)
        for code in (encode(income), "ui.hand", "ui.panel.choose"):
            forged = await fake.forge(
                chooser, panel.message, f"gm:{table.id}:{snap.version}:{code}"
            )
            assert await refused(forged) == WRONG_PLACE
        assert await fingerprint(bot, table.id) == before
        # Her own click on the table message still counts.
        await table.play(prompt.player, income)
        after = await bot.repo.load_state(table.id)
        assert after is not None and after.version == (snap.version or 0) + 1


async def test_huge_ids_are_refused_without_a_traceback(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    fake = world.fake
    caplog.set_level(logging.DEBUG, "bot")
    alice = world.players[0]
    async with fake.running(world.bot()) as bot:
        table = await open_lobby(world, bot)
        message = await table.message()
        before = await fingerprint(bot, table.id)
        forged_ids = [
            f"gm:{HUGE}:0:ui.join",
            f"gm:{HUGE * 1000}:0:ui.join",
            f"gm:{table.id}:{HUGE}:ui.start",
            f"gm:{table.id}:{'9' * 40}:ui.start",
            f"gm:{2**64 + table.id}:0:ui.log",
            f"gm:{'0' * 30}{table.id}:0:ui.join",
            f"gm:\uff11{table.id}:0:ui.join",  # digits, but not ASCII ones
        ]
        for custom_id in forged_ids:
            assert await refused(await fake.forge(alice, message, custom_id)) == WRONG_PLACE
        selected = await fake.forge(alice, message, f"gs:{HUGE}:{HUGE}:x", values=["x"])
        assert await refused(selected) == WRONG_PLACE
        largest = await fake.forge(alice, message, f"gm:{HUGE - 1}:0:ui.join")
        assert await refused(largest) == STRINGS["refusal.no_table"]
        assert await fingerprint(bot, table.id) == before
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]


async def test_a_refusal_is_logged_once_at_debug(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A refused click (here: Start with too few players, an answered step) is one
    DEBUG line naming the refusal, the table and the user; nothing says it expired."""
    fake = world.fake
    alice = world.players[0]
    caplog.set_level(logging.DEBUG, "bot")
    async with fake.running(world.bot()) as bot:
        table = await open_lobby(world, bot)
        caplog.clear()
        start = await table.click_label(alice, "Start")
        assert "needed to start" in await refused(start)
    clicks = [r for r in caplog.records if r.name == "bot.clicks"]
    assert [r.levelno for r in clicks] == [logging.DEBUG], [r.getMessage() for r in clicks]
    line = clicks[0].getMessage()
    assert "too_few_players" in line and str(table.id) in line and str(alice.id) in line
    assert not [r for r in caplog.records if "expired" in r.getMessage()]


async def test_only_a_step_whose_interaction_expired_says_so(
    world: World, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer (a defer) comes after Discord's deadline: the step still runs, and
    the log tells that the interaction expired and what became of its step."""
    fake = world.fake
    caplog.set_level(logging.DEBUG, "bot")
    alice = world.players[0]
    async with fake.running(world.bot()) as bot:
        table = await open_lobby(world, bot)
        await (await table.click_label(world.players[1], "Join")).wait_response()
        await table.settle()
        start = bot.tables.start

        async def slow_start(*args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(0.3)
            return await start(*args, **kwargs)

        monkeypatch.setattr(bot.tables, "start", slow_start)
        monkeypatch.setattr(controller, "ANSWER_BUDGET", 0.15)
        fake.response_deadline = 0.05
        caplog.clear()
        late = await table.click_label(alice, "Start")
        await fake.wait_for(lambda: late.callbacks, 5, "the late answer")
        assert not late.callbacks[0].accepted, "Discord no longer took it"
        await fake.wait_for(
            lambda: any("its step was applied" in r.getMessage() for r in caplog.records),
            5,
            "the step's outcome in the log",
        )
        assert await table.status() is TableStatus.RUNNING
    expired = [r.getMessage() for r in caplog.records if "expired" in r.getMessage()]
    assert len(expired) == 2, expired  # the answer failed; the step's outcome
    assert all(str(late.id) in line for line in expired)
