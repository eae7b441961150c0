"""Replays on the fake Discord: /history → "Replay a game" → ⏮ ◀ ▶ ⏭, before and
after a restart; forged replay components are refused."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.app import GameMasterBot
from bot.replays import load_replay
from bot.ui.i18n import t
from bot.ui.presenter import TableContext
from bot.ui.replay_view import OPEN, PICTURE
from tests.e2e.fake_discord.components import components_of
from tests.e2e.fake_discord.models import JSON, StoredMessage

from .harness import UPDATE_MESSAGE, Table, World, private_answer, settle
from .test_click_binding import WRONG_PLACE, elsewhere, refused

BUTTONS = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}


def text_of(embeds: list[JSON]) -> str:
    """Every embed as text (titles, descriptions, fields), as the reader sees it."""
    parts: list[str] = []
    for embed in embeds:
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
    return "\n".join(parts)


def button(message: StoredMessage | JSON, op: str) -> JSON:
    [found] = [c for c in components_of(message) if c.get("emoji", {}).get("name") == BUTTONS[op]]
    return found


async def press(world: World, message: StoredMessage, op: str) -> str:
    """A click on the replay's ``op`` button: the replay as the update shows it."""
    user = world.user(message.ephemeral_to or 0)
    record = await world.fake.click(user, message, button(message, op)["custom_id"])
    await record.wait_response()
    assert record.response is not None and record.response.type == UPDATE_MESSAGE, (
        f"not an update of the replay: {record.callbacks}"
    )
    return text_of(record.response.data["embeds"])


async def expected(
    world: World, bot: GameMasterBot, table_id: int, step: int, locale: str = "en"
) -> list[str]:
    """What the replay must show at ``step`` (from 1) to a reader of ``locale``: its
    heading, the step's lines (which the players saw in the channel, in English),
    and each seat's hand as "My hand" showed it at that moment of the game."""
    replay = await load_replay(bot.repo, table_id)
    presenter = bot.presenters[replay.table.game]
    snapshot = await bot.tables.snapshot(table_id)
    snapshot.state = replay.steps[step - 1].state
    ctx = TableContext(snapshot, locale)
    lines = presenter.event_lines(ctx, replay.steps[step - 1].events)
    channel = "\n".join(m.content for m in world.fake.channel_messages(world.channel))
    assert locale != "en" or all(line in channel for line in lines), "the players saw these"
    hands = [presenter.hand(ctx, seat).embed for seat in range(len(replay.seats))]
    heading = t("replay.step", locale, step=step, steps=len(replay.steps))
    return [heading, *lines, *(hand.description or "" for hand in hands if hand is not None)]


async def open_replay(world: World, table_id: int) -> tuple[StoredMessage, str]:
    carol = world.players[2]
    history = await private_answer(await world.fake.slash(carol, world.channel, "history"))
    [select] = [c for c in components_of(history) if c.get("custom_id") == OPEN]
    assert str(table_id) in [o["value"] for o in select["options"]]
    assert select["placeholder"] == t("replay.choose", "en")
    chosen = await world.fake.select(carol, history, OPEN, [str(table_id)])
    message = await private_answer(chosen)
    assert message.ephemeral_to == carol.id, "the replay is the asker's alone"
    return message, text_of(message.embeds)


def assert_shows(shown: str, lines: list[str]) -> None:
    for line in lines:
        assert line in shown, f"{line!r} not in the replay:\n{shown}"


async def test_history_replay_steps_through_the_game_and_survives_a_restart(
    world: World,
) -> None:
    fake = world.fake
    async with fake.running(world.bot()) as bot:
        table = await Table.open(world, bot, players=2)
        await table.play_randomly(random.Random(3))
        steps = len(await bot.repo.actions(table.id))
        message, first = await open_replay(world, table.id)
        assert_shows(first, await expected(world, bot, table.id, 1))
        assert t("replay.dealt", "en") in first
        assert button(message, "first").get("disabled") and button(message, "prev").get("disabled")

        assert_shows(await press(world, message, "next"), await expected(world, bot, table.id, 2))
        assert_shows(await press(world, message, "next"), await expected(world, bot, table.id, 3))
        assert_shows(await press(world, message, "prev"), await expected(world, bot, table.id, 2))
        last = await press(world, message, "last")
        assert_shows(last, await expected(world, bot, table.id, steps))
        record = await bot.repo.game_record(table.id)
        assert record is not None
        winner = next(seat for seat in record.seats if seat.winner)
        assert f"**{winner.name}**" in last, "the last step says who won"
        assert button(fake.message(message.id), "next").get("disabled")
        assert_shows(await press(world, message, "first"), await expected(world, bot, table.id, 1))

    async with fake.running(world.bot()) as bot:
        after = await press(world, fake.message(message.id), "next")
        assert_shows(after, await expected(world, bot, table.id, 2))
        world.players[2].locale = "fr"
        french = await press(world, fake.message(message.id), "last")
        assert_shows(french, await expected(world, bot, table.id, steps, "fr"))
        assert t("complots.hand.title", "fr", table=table.id) not in french, "hands, untitled"


async def test_replays_are_refused_elsewhere_and_for_games_not_over(world: World) -> None:
    fake = world.fake
    alice = world.players[0]
    other = elsewhere(world)
    async with fake.running(world.bot()) as bot:
        finished = await Table.open(world, bot, players=2)
        await finished.play_randomly(random.Random(3))
        running = await Table.open(world, bot, players=2)
        there = await private_answer(await fake.slash(alice, other.channel, "history"))
        forged = [
            await fake.forge(alice, there, f"rp:{finished.id}:0:next"),
            await fake.forge(alice, there, OPEN, values=[str(finished.id)]),
            await fake.forge(alice, there, "rp:nonsense"),
            await fake.forge(alice, there, f"rp:{2**64}:0:next"),
        ]
        for record in forged:
            assert await refused(record) == WRONG_PLACE
            assert not record.message.embeds, "nothing of the game is shown"

        here = await private_answer(await fake.slash(alice, world.channel, "history"))
        for record in (
            await fake.forge(alice, here, f"rp:{running.id}:0:last"),
            await fake.forge(alice, here, OPEN, values=[str(running.id)]),
            await fake.forge(alice, here, OPEN, values=["987654"]),
        ):
            assert await refused(record) == t("replay.unavailable", "en")
            assert not record.message.embeds, "no hand of a running game is shown"


async def played_through_the_service(world: World, bot: GameMasterBot, game: str) -> int:
    """A finished game of ``game`` for alice and bob, its choices made through the
    bot's table service (quicker than clicks; the bot records it all the same)."""
    alice, bob = world.players[:2]
    await (await world.fake.slash(alice, world.channel, game)).wait_response()
    found = await bot.tables.table_in_channel(world.channel.id)
    assert found is not None
    await bot.tables.join(found.id, bob.id, bob.name)
    await bot.tables.start(found.id, alice.id, moderator=False)
    rng = random.Random(game)
    for _ in range(2000):
        snap = await bot.tables.snapshot(found.id)
        assert snap.state is not None and snap.version is not None
        if snap.game.result(snap.state) is not None:
            await settle(bot)
            return found.id
        prompt = rng.choice(snap.game.prompts(snap.state))
        user = snap.seats[prompt.player].user_id
        await bot.tables.act(found.id, snap.version, user, rng.choice(prompt.choices))
    raise AssertionError(f"the {game} game did not end")


def picture_url(message: StoredMessage | JSON) -> str:
    """The replay's board: the table embed shows its attached PNG."""
    embeds = message.embeds if isinstance(message, StoredMessage) else message["embeds"]
    return str(embeds[1]["image"]["url"])


async def test_the_replay_of_a_drawn_game_shows_its_board_at_each_step(world: World) -> None:
    async with world.fake.running(world.bot()) as bot:
        table_id = await played_through_the_service(world, bot, "bloody_inn")
        message, _ = await open_replay(world, table_id)
        [attachment] = message.attachments
        assert attachment.filename == PICTURE and picture_url(message) == attachment.url
        with Image.open(io.BytesIO(attachment.data)) as board:
            assert board.format == "PNG"
        first = attachment.data
        await press(world, message, "last")
        [last] = world.fake.message(message.id).attachments
        assert last.data != first, "the board of the last step is not the deal's"
        assert picture_url(world.fake.message(message.id)) == last.url
