"""The channel's log of a game: lines go in few posts, never more of them waiting
than the table message shows, all of them in order once the game is over."""

from __future__ import annotations

import json
import random
from typing import Any

from bot.ui.i18n import t
from bot.ui.presenter import RECENT_LINES
from tests.e2e.fake_discord.models import StoredMessage
from tests.e2e.fake_discord.rest import GlobalLimit

from .harness import Table, World


def rows(world: World, sql: str, *params: object) -> list[tuple[Any, ...]]:
    """A query on the bot's database, read as the bot left it."""
    return world.read(sql, *params)


def owed_posts(world: World, table_id: int) -> list[tuple[int, str]]:
    """(version, content) of every channel post the table's steps wrote to the
    outbox, in order."""
    sql = "SELECT version, content FROM outbox WHERE table_id = ? AND kind = 'post' ORDER BY id"
    return [(int(version), str(content)) for version, content in rows(world, sql, table_id)]


def owed_lines(world: World, table_id: int) -> list[str]:
    """Every channel line the table's steps wrote to the outbox, in order."""
    return [line for _, content in owed_posts(world, table_id) for line in content.split("\n")]


def line_posts(world: World, table_message_id: int) -> list[StoredMessage]:
    """The bot's posts in the channel besides the table message, oldest first."""
    return sorted(
        (
            m
            for m in world.fake.store.messages.values()
            if m.channel_id == world.channel.id
            and m.author.id == world.fake.store.bot.id
            and m.id != table_message_id
            and not m.ephemeral
            and not m.deleted
        ),
        key=lambda m: m.id,
    )


def posted_lines(world: World, table_message_id: int) -> list[str]:
    """The lines of the bot's posts in the channel, in order."""
    return [line for m in line_posts(world, table_message_id) for line in m.content.split("\n")]


async def random_step(table: Table, rng: random.Random) -> None:
    """A random legal choice of a random prompted seat, then the bot settles."""
    state = await table.state()
    prompt = rng.choice(table.bot.tables.game("complots").prompts(state))
    await table.play(prompt.player, rng.choice(prompt.choices))
    await table.settle()


def recent_field(message: StoredMessage) -> str:
    for embed in message.embeds:
        for field in embed.get("fields", []):
            if field["name"] == t("table.recent"):
                return str(field["value"])
    return ""


async def test_lines_wait_while_the_table_message_shows_them(world: World) -> None:
    async with world.fake.running(world.bot(log_interval=60.0)) as bot:
        table = await Table.open(world, bot, players=2)
        message = await table.message()
        game = bot.tables.game("complots")
        rng = random.Random(3)
        waited = 0
        while game.result(await table.state()) is None:
            await random_step(table, rng)
            posted = posted_lines(world, message.id)
            owed = owed_lines(world, table.id)
            assert posted == owed[: len(posted)], "posted out of order"
            waiting = owed[len(posted) :]
            assert len(waiting) <= RECENT_LINES, "more lines wait than the table shows"
            shown = recent_field(await table.message())
            assert all(line in shown for line in waiting), "a waiting line is nowhere"
            waited += bool(waiting)
        await table.settle()
        posts = line_posts(world, message.id)
        owed = owed_lines(world, table.id)
        assert posted_lines(world, message.id) == owed
        assert waited, "no line ever waited for the interval"
        assert len(posts) < len(owed) / 2, "lines were not grouped"


async def test_stopping_posts_the_lines_that_wait(world: World) -> None:
    async with world.fake.running(world.bot(log_interval=60.0)) as bot:
        table = await Table.open(world, bot, players=2)
        message = await table.message()
        game = bot.tables.game("complots")
        rng = random.Random(4)
        while not _waiting(world, table.id, message.id):
            state = await table.state()
            assert game.result(state) is None, "the game ended before a line waited"
            await random_step(table, rng)
        await bot.renderer.stop()
        posted = posted_lines(world, message.id)
        assert posted == owed_lines(world, table.id)


def _waiting(world: World, table_id: int, table_message_id: int) -> bool:
    return len(owed_lines(world, table_id)) > len(posted_lines(world, table_message_id))


def event_types_at(world: World, table_id: int, version: int) -> set[str]:
    found = rows(
        world,
        "SELECT event_json FROM events WHERE table_id = ? AND version = ?"
        " AND audience_json IS NULL",
        table_id,
        version,
    )
    return {json.loads(text)["type"] for (text,) in found}


async def test_by_default_the_channel_gets_only_what_people_need_to_be_told(
    world: World,
) -> None:
    async with world.fake.running(world.bot(channel_log="notable", log_interval=60.0)) as bot:
        table = await Table.open(world, bot, players=3)
        first = (await bot.tables.snapshot(table.id)).version  # the deal
        message = await table.message()
        await table.play_randomly(random.Random(6))
        await table.settle()
        last = (await bot.tables.snapshot(table.id)).version
        versions = [version for version, _ in owed_posts(world, table.id)]
        notable = bot.presenters["complots"].notable_events
        for version in versions:
            told = event_types_at(world, table.id, version) & notable
            assert version in (first, last) or told, f"v{version} posted for no reason"
        assert last in versions, "the end is told"
        between = [v for v in versions if v not in (first, last)]
        assert any("player_eliminated" in event_types_at(world, table.id, v) for v in between), (
            "a player out is told"
        )
        assert len(set(versions)) * 5 < last, "the channel got far fewer posts than steps"
        posted = posted_lines(world, message.id)
        assert posted == owed_lines(world, table.id), "told at once, in order"
        assert "wins the game" in "\n".join(posted)


async def test_the_bot_keeps_under_discords_global_rate_limit(world: World) -> None:
    """Discord answers 429 beyond a bot's global limit; the renderer counts its own
    writes (REST_PER_SECOND) so it never gets there, and nothing owed is lost."""
    world.fake.rest.global_limit = GlobalLimit(8)  # the boot's own 3 calls fit beside
    async with world.fake.running(world.bot(rest_per_second=4.0)) as bot:
        table = await Table.open(world, bot, players=2)
        message = await table.message()
        await table.play_randomly(random.Random(9))
        await bot.renderer.drain(30.0)
        posted = posted_lines(world, message.id)
        assert posted == owed_lines(world, table.id)
        assert "wins the game" in "\n".join(posted)
        assert "wins the game" in str((await table.message()).embeds)
    assert not [r for r in world.fake.requests if r.status == 429], "over Discord's limit"
