"""Whole games of The Bloody Inn played by clicks of fake users on the fake
Discord, with a restart of the bot in the middle of a Night."""

from __future__ import annotations

import random
import time

from bot.storage.models import TableStatus
from bot.ui.codec import encode
from games.bloody_inn import GAME, ActionKind, BloodyInnState
from games.bloody_inn.models import Stage
from tests.e2e.fake_discord.components import components_of, labels

from .bloody_inn_harness import InnTable
from .harness import World, shown_version, table_update


def _public_target(state: BloodyInnState) -> bool:
    """A Night moment whose choices are buttons on the table message."""
    pending = state.pending
    return (
        state.stage is Stage.TARGET
        and pending is not None
        and pending.action is not ActionKind.BUILD
    )


def _paying(state: BloodyInnState) -> bool:
    return state.stage is Stage.PAY


async def test_two_players_play_a_short_game_to_the_end_with_restarts(world: World) -> None:
    fake = world.fake
    alice, bob = world.players[:2]
    rng = random.Random(7)
    started = time.perf_counter()

    async with fake.running(world.bot()) as bot:
        table = await InnTable.open(world, bot, players=2, length="short")
        message = await table.message()
        assert "My hand" in labels(message) and "Your turn…" in labels(message)
        width, height = await table.assert_picture_attached()
        assert width == 1000 and 600 < height < 2000
        hello = [m.content for m in fake.dms(alice)] + [str(m.embeds) for m in fake.dms(alice)]
        assert any("Peasant" in text for text in hello), "the dealt hand comes by DM"
        await table.play_randomly(rng, until=_public_target)
        old_message = await table.message()
        old_buttons = [
            str(c["custom_id"])
            for c in components_of(old_message)
            if str(c.get("custom_id", ""))
            .split(":")[-1]
            .startswith(("room.", "peasants.", "card."))
        ]
        assert old_buttons, "Bribe, Kill and Bury targets are buttons on the table message"
        state = await table.state()
    # Stopped in the middle of a Night, a target to choose.

    async with fake.running(world.bot()) as bot:
        table = table.restarted(bot)
        assert (await table.state()).model_dump() == state.model_dump()
        user = await table.user_of(state.queue[0])
        record = await fake.click(user, old_message, old_buttons[0])
        update = await table_update(record)  # a button sent by the old bot works
        await table.took(user, record)
        await table.settle()
        assert shown_version(update) == (await bot.tables.snapshot(table.id)).version, (
            "its answer shows the table as the new bot has it"
        )
        await table.assert_public_message_hides_secrets(picture=True)
        assert (await table.state()).moment == state.moment + 1
        await table.play_randomly(rng, until=_paying)
        # Bob or alice pays an action: their panel is open when the bot stops.
        state = await table.state()
        payer = await table.user_of(state.queue[0])
        panel = await table.panel(payer)
    # Stopped while a player pays, the private panel open.

    async with fake.running(world.bot()) as bot:
        table = table.restarted(bot)
        prompt = GAME.prompts(state)[0]
        choice = prompt.choices[0]
        record = await table.choose_in_panel(payer, encode(choice))
        await record.wait_response()
        assert record.response_type == 7, "the old panel works and turns into what follows"
        await table.settle()
        assert (await table.state()).moment == state.moment + 1
        assert panel.ephemeral and panel.content, "the panel still says something"
        await table.play_randomly(rng)
        assert await table.status() is TableStatus.FINISHED
        final = await table.message()
        await table.assert_picture_attached()
    elapsed = time.perf_counter() - started

    embed = final.embeds[0]
    assert "🏆" in embed["description"] + str(embed.get("fields"))
    assert "Rematch" in labels(final)
    lines = "\n".join(m.content for m in fake.channel_messages(world.channel))
    assert "wins" in lines or "shares the win" in lines
    assert "**Morning**" in lines, "the Morning is summed up in the channel"
    dms = "\n".join(m.content for m in fake.dms(alice) + fake.dms(bob))
    assert "your accomplices now" in dms, "hand changes come by DM"
    assert table.steps > 60, f"a whole game by clicks ({table.steps} choices)"
    assert table.picture_checks >= table.steps // 10 - 1, "the picture was checked too"
    print(f"{table.steps} choices through the UI in {elapsed:.1f} s")


async def test_a_solo_game_with_both_variants_by_clicks(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()) as bot:
        command = fake.command("bloody_inn")
        options = {o["name"]: o for o in command["options"]}
        assert [c["value"] for c in options["length"]["choices"]] == ["short", "long"]
        assert {"first_come_first_served", "unlimited_wealth", "turn_timeout"} <= set(options)
        assert "reaction_timeout" not in options, "The Bloody Inn has no reaction window"
        table = await InnTable.open(
            world, bot, players=1, first_come_first_served=True, unlimited_wealth=True
        )
        state = await table.state()
        assert state.options.first_come_first_served and state.options.unlimited_wealth
        assert state.stage is Stage.ACTION, "first come, first served: no welcome to choose"
        lobby = fake.message_history(await table.message())[0]
        assert "first come, first served · unlimited wealth" in str(lobby["embeds"])
        await table.play_randomly(random.Random(2))
        assert await table.status() is TableStatus.FINISHED
        final = (await table.message()).embeds[0]
        state = await table.state()
    text = final["description"]
    if state.solo_lost:
        assert "solo game is lost" in text
    elif state.winners:
        assert "ends the solo game with" in text
    else:
        raise AssertionError("a solo game ends with a score or a loss")
    assert final.get("image", {}).get("url"), "the final table keeps its picture"
