"""Complots moments on the fake Discord: what each player sees, click by click.

Seats follow the join order: alice 0, bob 1, carol 2, dave 3. Each test rigs
the dealt hands (a test setup step), then plays only through the UI.
"""

from __future__ import annotations

import time

from bot.storage.models import TableStatus
from games.complots import ActionKind
from games.complots.models import Act, Block, Challenge, Keep, Pass, Reveal, Stage
from tests.e2e.fake_discord.components import labels
from tests.games.complots.helpers import AM, CA, CO, A, D

from .harness import Table, World, accepted, answer_text, rig

TAX = Act(action=ActionKind.TAX)


def channel_text(world: World) -> str:
    return "\n".join(m.content for m in world.fake.channel_messages(world.channel))


def dm_text(world: World, seat: int) -> str:
    dms = world.fake.dms(world.players[seat])
    return "\n".join(m.content + str(m.embeds) for m in dms)


async def test_a_challenge_both_ways(world: World) -> None:
    async with world.fake.running(world.bot()) as bot:
        table = await Table.open(world, bot)
        await rig(table, [[D, CA], [CO, AM], [A, D], [CA, CO]], turn=0)

        await table.play(0, TAX)
        await table.play(1, Challenge())
        assert "**alice** shows Duchess" in channel_text(world)
        assert "you drew" in dm_text(world, 0), "the proved card's replacement is DMed"
        await table.play(1, Reveal(slot=0))
        assert "**bob** loses Countess" in channel_text(world)
        fields = {f["name"]: f["value"] for f in (await table.message()).embeds[0]["fields"]}
        recent = fields["What just happened"].splitlines()
        assert "**bob** loses Countess." in recent, "the table message tells what just happened"
        assert recent == channel_text(world).splitlines()[-len(recent) :], "the latest lines"

        await table.play(1, TAX)
        await table.play(2, Challenge())
        assert "**bob** has no Duchess" in channel_text(world)
        assert "**bob** is out" in channel_text(world), "bob's last card went with the bluff"
        state = await table.state()
        assert [p.coins for p in state.players] == [5, 0, 2, 2]
        embed = (await table.message()).embeds[0]
        assert "❌" in embed["description"].splitlines()[1]


async def test_a_block_and_a_challenged_block(world: World) -> None:
    async with world.fake.running(world.bot()) as bot:
        table = await Table.open(world, bot)
        await rig(table, [[D, CA], [CO, AM], [A, D], [CA, CO]], turn=0)

        await table.play(0, Act(action=ActionKind.STEAL, target=1))
        await table.play(1, Block(character=AM))
        assert "Challenge the block?" in str((await table.message()).embeds)
        await table.play(0, Challenge())
        assert "**bob** shows Ambassador" in channel_text(world)
        await table.play(0, Reveal(slot=1))
        assert "**bob** blocks **alice** with the Ambassador" in channel_text(world)

        await table.play(1, Act(action=ActionKind.FOREIGN_AID))
        await table.play(2, Block(character=D))
        for seat in (0, 1, 3):
            await table.play(seat, Pass())
        assert "**carol** blocks **bob** with the Duchess" in channel_text(world)
        state = await table.state()
        assert [p.coins for p in state.players] == [2, 2, 2, 2]


async def test_a_double_loss(world: World) -> None:
    async with world.fake.running(world.bot()) as bot:
        table = await Table.open(world, bot)
        await rig(table, [[A, CA], [CO, AM], [A, D], [CA, D]], coins=[3, 2, 2, 2], turn=0)

        await table.play(0, Act(action=ActionKind.ASSASSINATE, target=3))
        await table.play(3, Challenge())
        await table.play(3, Reveal(slot=1))
        await table.play(3, Pass())
        text = channel_text(world)
        assert "**dave** loses Duchess" in text and "**dave** loses Captain" in text
        assert "**dave** is out" in text


async def test_an_exchange_in_an_ephemeral_panel(world: World) -> None:
    async with world.fake.running(world.bot()) as bot:
        table = await Table.open(world, bot)
        await rig(table, [[AM, D], [CO, CO], [A, D], [CA, CO]], turn=0)

        await table.play(0, Act(action=ActionKind.EXCHANGE))
        for seat in (1, 2, 3):
            await table.play(seat, Pass())
        assert "you drew" in dm_text(world, 0) and "to exchange" in dm_text(world, 0)
        state = await table.state()
        assert state.stage is Stage.EXCHANGE
        drawn = state.pending.drawn
        keep = Keep(cards=tuple(sorted(drawn)))
        record = await table.play(0, keep)
        assert record.ephemeral, "the exchange happens in alice's ephemeral panel"
        assert "your cards are now" in dm_text(world, 0)
        assert "**alice** exchanged cards with the Court" in channel_text(world)
        assert sorted((await table.state()).players[0].hidden()) == sorted(drawn)


async def test_a_reaction_window_closed_by_its_timeout(world: World) -> None:
    async with world.fake.running(world.bot()) as bot:
        table = await Table.open(world, bot)
        await rig(table, [[D, CA], [CO, AM], [A, D], [CA, CO]], turn=0)
        await table.play(0, TAX)
        await table.play(1, Pass())
        embed = str((await table.message()).embeds)
        assert "Passed: bob" in embed and "<t:" in embed, "a live countdown is shown"

        deadline = bot.tables._deadlines[table.id]
        bot.scheduler.arm(deadline.model_copy(update={"due_at": time.time()}))
        await world.fake.wait_for(
            lambda: (bot.tables._deadlines.get(table.id) or deadline).window != deadline.window,
            timeout=5,
            what="the reaction window to time out",
        )
        await table.settle()
        state = await table.state()
        assert state.turn == 1 and state.players[0].coins == 5
        assert "**alice** takes 3 🪙" in channel_text(world)


async def test_wrong_user_stale_and_double_clicks(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()) as bot:
        table = await Table.open(world, bot)
        await rig(table, [[D, CA], [CO, AM], [A, D], [CA, CO]], turn=0)
        turn_message = await table.message()
        turn_version = len(turn_message.history)

        outsider = await table.click_code(world.outsider, "act.income.-")
        await outsider.wait_response()
        assert outsider.ephemeral and "not playing at this table" in outsider.content
        not_yours = await table.click_code(world.players[2], "act.income.-")
        await not_yours.wait_response()
        assert not_yours.ephemeral and "not being asked" in not_yours.content

        await table.play(0, TAX)
        window_message = await table.message()
        window_version = len(window_message.history) - 1
        first = await table.play(1, Pass())
        assert accepted(first) and not first.followups, "taken, nothing private to say"
        double = await fake.click(
            world.players[1], window_message, label="Pass", seen_version=window_version
        )
        await double.wait_response()
        assert double.ephemeral and "moment has passed" in double.content

        for seat in (2, 3):
            await table.play(seat, Pass())
        stale = await fake.click(
            world.players[1], turn_message, label="Income", seen_version=turn_version - 1
        )
        await stale.wait_response()
        assert stale.ephemeral and "moment has passed" in stale.content
        state = await table.state()
        assert state.turn == 1 and state.players[0].coins == 5, "nothing changed"


async def test_a_player_with_closed_dms_plays_through_my_hand(world: World) -> None:
    fake = world.fake
    bob = world.players[1]
    bob.dms_open = False
    async with fake.running(world.bot()) as bot:
        record = await fake.slash(world.players[0], world.channel, "complots")
        await record.wait_response()
        found = await bot.tables.table_in_channel(world.channel.id)
        assert found is not None
        table = Table(world, bot, found.id)
        await table.settle()
        joined = await table.click_label(bob, "Join")
        assert "cannot send you DMs" in await answer_text(joined)
        for user in world.players[2:]:
            await (await table.click_label(user, "Join")).wait_response()
        await (await table.click_label(world.players[0], "Start")).wait_response()
        await table.settle()
        assert "I cannot DM you" in channel_text(world)
        await rig(table, [[D, CA], [CO, AM], [A, D], [CA, CO]], turn=0, coins=[7, 2, 2, 2])

        hand = await table.click_label(bob, "My hand")
        await hand.wait_response()
        assert hand.ephemeral and "Countess, Ambassador" in str(hand.embeds)
        await table.play(0, Act(action=ActionKind.COUP, target=1))
        my_hand = await table.click_label(bob, "My hand")
        await my_hand.wait_response()
        select = [c for row in my_hand.components for c in row["components"]]
        assert select and select[0]["type"] == 3, "My hand offers the pending choice"
        choice = await fake.select(bob, my_hand.message, select[0]["custom_id"], ["reveal.1"])
        await choice.wait_response()
        await table.settle()
        assert "**bob** loses Ambassador" in channel_text(world)
    assert fake.rejected_dms(bob), "DMs to bob were tried and refused, and the game went on"


async def test_moderator_ends_a_table_and_others_are_refused(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()) as bot:
        table = await Table.open(world, bot)
        # /mod needs Manage Server by default; as if a server admin opened it to
        # everyone in Server Settings > Integrations: the bot still checks.
        fake.enforce_command_permissions = False
        refused = await fake.slash(world.players[1], world.channel, "mod", "end", table=table.id)
        await refused.wait_response()
        assert refused.ephemeral and "Only moderators" in refused.content
        assert await table.status() is TableStatus.RUNNING

        listing = await fake.slash(world.moderator, world.channel, "mod", "tables")
        await listing.wait_response()
        assert f"#{table.id}" in str(listing.embeds)
        ended = await fake.slash(world.moderator, world.channel, "mod", "end", table=table.id)
        await ended.wait_response()
        assert ended.ephemeral and "is ended" in ended.content
        assert await table.status() is TableStatus.CANCELLED
        await table.settle()
        assert "A moderator ended table" in channel_text(world)
        final = await table.message()
        assert "Rematch" not in labels(final) and labels(final) == []
        late = await fake.click(
            world.players[0], final, label="Income", seen_version=len(final.history) - 2
        )
        await late.wait_response()
        assert late.ephemeral and "not running" in late.content


async def test_a_player_timing_out_turns_is_marked_away(world: World) -> None:
    # The computer that then takes alice's seat over waits longer than this test
    # (test_computers.py covers the take-over).
    async with world.fake.running(world.bot(away_after=2, computer_delay=30)) as bot:
        table = await Table.open(world, bot, players=2)
        await rig(table, [[D, CA], [CO, AM]], turn=0)
        for strikes in ((1, 0), (1, 1), (2, 1)):  # alice, bob, alice time out in turn
            deadline = bot.tables._deadlines[table.id]
            bot.scheduler.arm(deadline.model_copy(update={"due_at": time.time()}))
            window = deadline.window
            await world.fake.wait_for(
                lambda: bot.tables._deadlines[table.id].window != window,  # noqa: B023
                timeout=5,
                what="the turn to time out",
            )
            await table.settle()
            seats = await bot.repo.seats(table.id)
            assert (seats[0].away_strikes, seats[1].away_strikes) == strikes
        lines = (await table.message()).embeds[0]["description"].splitlines()
        assert "away" in lines[0] and "away" not in lines[1]
        await table.play(1, Act(action=ActionKind.INCOME))
        await table.play(0, Act(action=ActionKind.INCOME))
        seats = await bot.repo.seats(table.id)
        assert (seats[0].away_strikes, seats[1].away_strikes) == (0, 0), "answers clear them"
        lines = (await table.message()).embeds[0]["description"].splitlines()
        assert "away" not in lines[0]
