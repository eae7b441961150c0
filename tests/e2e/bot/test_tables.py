"""Lobbies, rematches, logs, hands and moderator settings on the fake Discord."""

from __future__ import annotations

import random

from bot.app import GameMasterBot
from bot.storage.models import TableStatus
from games.complots import ActionKind
from games.complots.models import Act
from tests.e2e.fake_discord.components import labels
from tests.games.complots.helpers import AM, CA, CO, A, D

from .harness import Table, World, answer_text, rig, table_update


async def test_lobby_rules(world: World) -> None:
    fake = world.fake
    alice, bob, carol = world.players[:3]
    async with fake.running(world.bot()) as bot:
        opened = await fake.slash(alice, world.channel, "complots", variant="inquisitor")
        assert "is open below" in await answer_text(opened)
        second = await fake.slash(bob, world.channel, "complots")
        assert "already has an open table" in await answer_text(second)

        found = await bot.tables.table_in_channel(world.channel.id)
        assert found is not None
        table = Table(world, bot, found.id)
        await table.settle()
        lobby = await table.message()
        assert "Inquisitor" in str(lobby.embeds)
        assert "needed to start" in await answer_text(await table.click_label(alice, "Start"))

        joined = await table.click_label(bob, "Join")
        assert f"<@{bob.id}>" in str((await table_update(joined))["embeds"]), "shown seated"
        assert "You joined the table" in await answer_text(joined)
        assert "already seated" in await answer_text(await table.click_label(bob, "Join"))
        assert "Only the table's creator" in await answer_text(
            await table.click_label(bob, "Start")
        )
        assert "cancel it instead" in await answer_text(await table.click_label(alice, "Leave"))
        left = await table.click_label(bob, "Leave")
        assert f"<@{bob.id}>" not in str((await table_update(left))["embeds"]), "shown gone"
        assert "left the table" in await answer_text(left)
        assert "not playing" in await answer_text(await table.click_label(carol, "Leave"))
        await table.settle()
        assert "bob" not in str((await table.message()).embeds)

        await (await table.click_label(carol, "Join")).wait_response()
        started = await table.click_label(world.moderator, "Start")
        await started.wait_response()
        await table.settle()
        assert await table.status() is TableStatus.RUNNING, "a moderator may start it"
        assert "My hand" in labels(await table.message())


async def test_rematch_lets_the_previous_winner_start(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()) as bot:
        table = await Table.open(world, bot, players=2)
        await table.play_randomly(random.Random(5))
        final = bot.tables.game("complots").result(await table.state())
        assert final is not None
        winner = final.winners[0]
        winner_user = world.user((await table.seat_users())[winner])
        loser_user = world.user((await table.seat_users())[1 - winner])

        log = await table.click_label(loser_user, "Log")
        await answer_text(log)
        assert "wins the game" in str(log.embeds)

        rematch = await table.click_label(loser_user, "Rematch")
        await rematch.wait_response()
        found = await bot.tables.table_in_channel(world.channel.id)
        assert found is not None and found.id != table.id and found.rematch_of == table.id
        new = Table(world, bot, found.id)
        await new.settle()
        await (await new.click_label(loser_user, "Start")).wait_response()
        await new.settle()
        state = await new.state()
        users = await new.seat_users()
        assert users[state.turn] == winner_user.id, "the previous winner starts"


async def test_hand_command_and_table_log(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()) as bot:
        nothing = await fake.slash(world.players[0], world.channel, "hand")
        assert "no open table" in await answer_text(nothing)
        table = await Table.open(world, bot)
        await rig(table, [[D, CA], [CO, AM], [A, D], [CA, CO]], turn=0)
        hand = await fake.slash(world.players[2], world.channel, "hand")
        await answer_text(hand)
        assert "Assassin, Duchess" in str(hand.embeds)
        outsider = await fake.slash(world.outsider, world.channel, "hand")
        assert "not playing" in await answer_text(outsider)

        await table.play(0, Act(action=ActionKind.INCOME))
        log = await fake.slash(world.players[3], world.channel, "table", "log")
        await answer_text(log)
        assert "**alice**: Income" in str(log.embeds)


async def test_forced_assassination_is_the_only_choice(world: World) -> None:
    async with world.fake.running(world.bot()) as bot:
        table = await Table.open(world, bot)
        await rig(table, [[D, CA], [CO, AM], [A, D], [CA, CO]], turn=0, coins=[10, 2, 2, 2])
        assert labels(await table.message()) == ["Assassination (7)", "My hand", "Watch"]
        panel = await table.click_code(world.players[0], "ui.panel.target.coup")
        await panel.wait_response()
        select = next(c for row in panel.components for c in row["components"])
        assert [o["label"] for o in select["options"]] == ["bob", "carol", "dave"]


async def test_moderator_removes_a_player_and_sets_guild_defaults(world: World) -> None:
    fake = world.fake
    mod, alice, bob = world.moderator, world.players[0], world.players[1]
    async with fake.running(world.bot()) as bot:
        table = await Table.open(world, bot)
        await rig(table, [[D, CA], [CO, AM], [A, D], [CA, CO]], turn=0)
        removed = await fake.slash(mod, world.channel, "mod", "remove", table=table.id, player=bob)
        assert "was removed" in await answer_text(removed)
        await table.settle()
        state = await table.state()
        assert state.players[1].revealed() == [CO, AM], "the removed player's cards are shown lost"
        assert "**bob** was removed" in "\n".join(
            m.content for m in fake.channel_messages(world.channel)
        )

        # /mod needs Manage Server by default; as if a server admin opened it to
        # everyone in Server Settings > Integrations: the bot still checks.
        fake.enforce_command_permissions = False
        refused = await fake.slash(
            alice, world.channel, "mod", "timeouts", turn=60, reaction=20, choice=30
        )
        assert "Only moderators" in await answer_text(refused)
        role = fake.add_role(world.guild, "game masters")
        set_role = await fake.slash(mod, world.channel, "mod", "role", role=role)
        assert "Moderator role" in await answer_text(set_role)
        fake.add_member(world.guild, alice, roles=[role])
        allowed = await fake.slash(
            alice, world.channel, "mod", "timeouts", turn=60, reaction=20, choice=30
        )
        assert "turn 60s, reactions 20s" in await answer_text(allowed)
        settings = await bot.repo.guild_settings(world.guild.id)
        assert (settings.turn_timeout, settings.reaction_timeout) == (60, 20)


async def test_a_players_dm_channel_is_opened_once_for_the_welcome_and_the_deal(
    world: World,
) -> None:
    async with world.fake.running(world.bot()) as bot:
        table = await Table.open(world, bot, players=3)
        await table.settle()
        opened = [
            int((r.body or {})["recipient_id"])
            for r in world.fake.requests
            if r.method == "POST" and r.path.endswith("/users/@me/channels")
        ]
        players = world.players[:3]
        assert sorted(opened) == sorted(u.id for u in players), "once per player"
        store = world.fake.store
        for user in players[1:]:
            (dm,) = [c for c in store.channels.values() if c.recipient_id == user.id]
            texts = [m.content for m in store.messages.values() if m.channel_id == dm.id]
            assert len(texts) >= 2, "welcomed, then dealt, in one DM channel"


def dms_opened(world: World) -> list[int]:
    return [
        int((r.body or {})["recipient_id"])
        for r in world.fake.requests
        if r.method == "POST" and r.path.endswith("/users/@me/channels")
    ]


async def lobby_of_two(world: World, bot: GameMasterBot) -> Table:
    alice, bob = world.players[:2]
    await (await world.fake.slash(alice, world.channel, "complots")).wait_response()
    found = await bot.tables.table_in_channel(world.channel.id)
    assert found is not None
    table = Table(world, bot, found.id)
    await table.settle()
    await (await table.click_label(bob, "Join")).wait_response()
    await table.settle()
    return table


async def test_a_restarted_bot_dms_players_without_opening_their_channels_again(
    world: World,
) -> None:
    fake = world.fake
    bob = world.players[1]
    async with fake.running(world.bot()) as bot:
        table = await lobby_of_two(world, bot)
        assert bob.id in dms_opened(world), "bob was welcomed in a DM"
    known = set(dms_opened(world))
    welcomed = len(fake.dms(bob))
    fake.requests.clear()
    async with fake.running(world.bot()) as bot:
        table = Table(world, bot, table.id)
        await (await table.click_label(world.players[0], "Start")).wait_response()
        await table.settle()
        assert not set(dms_opened(world)) & known, "channels the bot had opened are kept"
        assert len(fake.dms(bob)) > welcomed, "bob's cards came in his DM channel"


async def test_a_kept_dm_channel_discord_no_longer_knows_is_opened_anew(world: World) -> None:
    fake = world.fake
    bob = world.players[1]
    async with fake.running(world.bot()) as bot:
        table = await lobby_of_two(world, bot)
    gone = fake.store.dm_channels.pop(bob.id)
    del fake.store.channels[gone.id]
    fake.requests.clear()
    async with fake.running(world.bot()) as bot:
        table = Table(world, bot, table.id)
        await (await table.click_label(world.players[0], "Start")).wait_response()
        await table.settle()
        assert dms_opened(world).count(bob.id) == 1
        hands = [m.content for m in fake.dms(bob)]
        assert hands and fake.store.dm_channels[bob.id].id != gone.id, "dealt in a new channel"
        assert await bot.repo.dm_channel(bob.id) == fake.store.dm_channels[bob.id].id
