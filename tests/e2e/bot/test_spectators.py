"""Spectators: anyone can Watch a running table privately (the spectator view, no
secret) and Refresh it; a table can be hidden from non-players until it ends."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from bot.app import GameMasterBot
from bot.storage.models import TableStatus
from bot.ui.codec import encode
from bot.ui.locales.en.core import STRINGS as CORE
from bot.ui.locales.en.spectators import STRINGS
from games.complots import ActionKind, ComplotsState
from games.complots.models import Act
from tests.e2e.fake_discord.components import components_of
from tests.e2e.fake_discord.models import FakeUser, InteractionRecord, StoredMessage
from tests.games.complots.conformance import scramble_unknown
from tests.games.complots.helpers import AM, CA, CO, A, D

from .harness import Table, World, buttons_on, private_answer, refusal, rig
from .test_computers import click, open_lobby

UPDATE_MESSAGE = 7
REFRESH = "ui.watch.refresh"
HIDDEN_REFUSED = str(STRINGS["watch.hidden_refused"])


async def watch(table: Table, user: FakeUser) -> StoredMessage:
    """``user`` clicks Watch on the table message: its private watch panel."""
    record = await table.click_code(user, "ui.watch")
    panel = await private_answer(record)
    assert panel.ephemeral_to == user.id
    return panel


async def refresh(table: Table, user: FakeUser, panel: StoredMessage) -> InteractionRecord:
    """``user`` clicks Refresh on its watch panel: that same panel is updated (7)."""
    record = await table.fake.click(user, panel, buttons_on(panel)[REFRESH])
    await record.wait_settled()
    assert record.response_type == UPDATE_MESSAGE, record.callbacks
    return record


async def assert_panel_hides_secrets(table: Table, panel: StoredMessage, user: FakeUser) -> None:
    """Leak check of a watch panel: its embed on the wire is the one drawn from the
    true state AND from a state whose face-down cards were shuffled."""
    bot = table.bot
    snapshot = await bot.tables.snapshot(table.id)
    true = await bot.clicks.watch_panel(snapshot, user.id, "en-US")
    assert true.embed is not None
    assert isinstance(snapshot.state, ComplotsState)
    scrambled = replace(
        snapshot, state=scramble_unknown(snapshot.state, None, random.Random(snapshot.version))
    )
    fake = await bot.clicks.watch_panel(scrambled, user.id, "en-US")
    assert fake.embed is not None
    assert true.embed.to_dict() == fake.embed.to_dict(), "the watch panel shows a secret"
    assert panel.embed["description"] == true.embed.description
    assert panel.embed["fields"] == true.embed.to_dict()["fields"]


def table_embed_fields(message: StoredMessage) -> Any:
    return message.embed["description"], message.embed["fields"]


async def finish(bot: GameMasterBot, table_id: int, rng: random.Random) -> None:
    """Random legal choices through the table service until the game is over."""
    for _ in range(600):
        snapshot = await bot.tables.snapshot(table_id)
        if snapshot.table.status is not TableStatus.RUNNING:
            return
        prompt = rng.choice(snapshot.game.prompts(snapshot.state))
        user = snapshot.seats[prompt.player].user_id
        await bot.tables.act(table_id, snapshot.version or 0, user, rng.choice(prompt.choices))
    raise AssertionError("the game did not end")


async def test_an_outsider_watches_the_spectator_view_and_refresh_follows_a_move(
    world: World,
) -> None:
    fake, outsider = world.fake, world.outsider
    async with fake.running(world.bot()) as bot:
        table = await Table.open(world, bot)
        await rig(table, [[D, CA], [CO, AM], [A, D], [CA, CO]], turn=0)
        public = await table.message()
        assert "ui.watch" in buttons_on(public), "running tables have a Watch button"

        panel = await watch(table, outsider)
        assert table_embed_fields(panel) == table_embed_fields(public), (
            "the watch panel shows what the table message shows"
        )
        assert list(buttons_on(panel)) == [REFRESH], "a spectator can only refresh"
        await assert_panel_hides_secrets(table, panel, outsider)

        await table.play(0, Act(action=ActionKind.INCOME))
        before = panel.embed["description"]
        await refresh(table, outsider, panel)
        panel = fake.message(panel.id)
        assert panel.embed["description"] != before, "Refresh shows the table as it is now"
        assert table_embed_fields(panel) == table_embed_fields(await table.message())
        await assert_panel_hides_secrets(table, panel, outsider)
        assert panel.ephemeral_to == outsider.id

        # A player watching too gets the table's buttons, and can play from the panel.
        bob = world.players[1]
        mine = await watch(table, bob)
        income = encode(Act(action=ActionKind.INCOME))
        assert income in buttons_on(mine) and REFRESH in buttons_on(mine)
        played = await fake.click(bob, mine, buttons_on(mine)[income])
        await played.wait_settled()
        await table.settle()
        assert played.response_type == UPDATE_MESSAGE, "the panel follows the move"
        state = await table.state()
        assert state.turn == 2, "bob's income was played from his watch panel"
        mine = fake.message(mine.id)
        assert table_embed_fields(mine) == table_embed_fields(await table.message())


async def test_watch_panels_work_after_a_restart_and_show_the_final_table(world: World) -> None:
    fake, outsider = world.fake, world.outsider
    async with fake.running(world.bot()) as bot:
        table = await Table.open(world, bot)
        panel = await watch(table, outsider)

    async with fake.running(world.bot()) as bot:
        table = Table(world, bot, table.id)
        await table.settle()
        await table.play((await table.state()).turn, Act(action=ActionKind.INCOME))
        await refresh(table, outsider, panel)
        panel = fake.message(panel.id)
        assert table_embed_fields(panel) == table_embed_fields(await table.message()), (
            "a panel from before the restart refreshes"
        )

        await finish(bot, table.id, random.Random(5))
        await table.settle()
        await refresh(table, outsider, panel)
        panel = fake.message(panel.id)
        final = await table.message()
        assert "is over" in panel.content
        assert table_embed_fields(panel) == table_embed_fields(final), "the final table shows"
        assert list(buttons_on(panel)) == [REFRESH]


async def test_a_hidden_table_shows_only_players_and_turn_until_it_ends(world: World) -> None:
    fake, outsider = world.fake, world.outsider
    alice, bob = world.players[0], world.players[1]
    async with fake.running(world.bot()) as bot:
        table = await open_lobby(world, bot)
        for user in world.players[1:]:
            await (await table.click_label(user, "Join")).wait_response()
        options = (await table.message()).embeds[0]["fields"][1]["value"]
        assert str(STRINGS["lobby.hidden.off"]) in options, "tables are public by default"

        refused = await click(table, bob, str(STRINGS["lobby.set_hidden.on"]))
        assert refused.ephemeral and "Only the table's creator" in refused.content
        assert not (await bot.tables.snapshot(table.id)).table.hidden
        await click(table, alice, str(STRINGS["lobby.set_hidden.on"]))
        options = (await table.message()).embeds[0]["fields"][1]["value"]
        assert str(STRINGS["lobby.hidden.on"]) in options
        channel_before = len(fake.channel_messages(world.channel))

        await click(table, alice, "Start")
        await table.settle()
        public = await table.message()
        assert list(buttons_on(public)) == ["ui.hand", "ui.watch"], "no game button in public"
        assert [f["name"] for f in public.embed["fields"]] == ["Players", "Asked now"]
        assert "image" not in public.embed and not public.attachments
        await table.assert_public_message_hides_secrets()

        refused_watch = await table.click_code(outsider, "ui.watch")
        assert refusal(await refused_watch.wait_settled()) == HIDDEN_REFUSED
        log = await fake.slash(outsider, world.channel, "table", "log")
        assert (await private_answer(log)).content == STRINGS["watch.log_hidden"]
        mine = await private_answer(await fake.slash(bob, world.channel, "table", "log"))
        assert mine.content != STRINGS["watch.log_hidden"] and mine.embeds, "a player reads it"
        assert f"#{table.id}" in mine.embeds[0]["title"]

        # The players play from their watch panels.
        state = await table.state()
        turn = world.user((await table.seat_users())[state.turn])
        panel = await watch(table, turn)
        income = encode(Act(action=ActionKind.INCOME))
        assert panel.embed["fields"] != public.embed["fields"], "players see the whole table"
        played = await fake.click(turn, panel, buttons_on(panel)[income])
        await played.wait_settled()
        await table.settle()
        assert (await table.state()).step == state.step + 1
        await table.assert_public_message_hides_secrets()

        await finish(bot, table.id, random.Random(3))
        await table.settle()
        running = [
            version
            for version in (await table.message()).history
            if version["embeds"] and "Hidden table" in version["embeds"][0]["title"]
        ]
        assert running, "the table message was hidden while the game ran"
        for version in running:
            fields = [f["name"] for f in version["embeds"][0]["fields"]]
            assert fields == ["Players", "Asked now"], fields
            assert not version["attachments"]
        posted = fake.channel_messages(world.channel)[channel_before:]
        table_message = await table.message()
        lines = [m for m in posted if m.id != table_message.id]
        assert len(lines) == 1, "the channel gets the end only: " + repr([m.content for m in lines])

        final = await table.message()
        assert "Hidden table" not in final.embed["title"]
        assert CORE["table.recent"] in [f["name"] for f in final.embed["fields"]]
        shown = await table.click_label(outsider, "Log")
        told = await private_answer(shown)
        assert told.embed["description"] and told.embed["description"] != CORE["table.log_empty"], (
            "then anyone reads the whole log"
        )

        rematch = await table.click_label(bob, "Rematch")
        await rematch.wait_response()
        await table.settle()
        new = await bot.tables.table_in_channel(world.channel.id)
        assert new is not None and new.id != table.id
        assert new.hidden, "a rematch keeps the table hidden"
        components = components_of(fake.message(new.message_id or 0))
        assert any("ui.hidden.off" in str(c.get("custom_id")) for c in components)


async def test_the_watch_panel_of_a_game_with_a_board_shows_its_drawing(world: World) -> None:
    from .conspiracy_harness import ConspiracyTable

    fake, outsider = world.fake, world.outsider
    async with fake.running(world.bot()) as bot:
        table = await ConspiracyTable.open(world, bot)
        public = await table.message()
        panel = await watch(table, outsider)
        [picture] = panel.attachments
        assert panel.embed["image"]["url"].endswith(picture.filename)
        assert picture.data == public.attachments[0].data, "the board everyone sees"
        await refresh(table, outsider, panel)
        assert len(fake.message(panel.id).attachments) == 1, "Refresh draws it again"
