"""Whole Conspiracy games played by clicks of fake users on the fake Discord."""

from __future__ import annotations

import random

from bot.storage.models import TableStatus
from tests.e2e.fake_discord.components import components_of, labels

from .conspiracy_harness import PANEL, ConspiracyTable, codes_on, picture_of
from .harness import World, shown_version, table_update


def channel_text(world: World) -> str:
    return "\n".join(m.content for m in world.fake.channel_messages(world.channel))


async def test_two_players_play_to_the_end_across_a_restart(world: World) -> None:
    fake = world.fake
    rng = random.Random(2)
    async with fake.running(world.bot()) as bot:
        table = await ConspiracyTable.open(world, bot, players=2)
        message = await table.message()
        assert labels(message)[:3] == ["Reveal 1", "Reveal 2", "Reveal 3"]
        assert "My hand" in labels(message)
        embed = message.embeds[0]
        assert "**alice**" in embed["description"] and "**bob**" in embed["description"]
        assert "<t:" in str(embed["fields"]), "the live countdown"
        with picture_of(message) as picture:
            assert picture.size[0] == 1000 and 600 < picture.size[1] < 1400
        await table.play_randomly(rng, stop_after=22)
        assert await table.status() is TableStatus.RUNNING
        before = await table.message()
        shown = len(before.history)
        seat, choice = await table.random_choice(rng)

    async with fake.running(world.bot()) as bot:
        table = ConspiracyTable(world, bot, table.id)
        await table.settle()
        assert len(fake.message(before.id).history) == shown, "an up-to-date message is kept"
        record = await table.play(seat, choice)
        update = await table_update(record)  # a button sent by the old bot works
        assert shown_version(update) == (await bot.tables.snapshot(table.id)).version, (
            "its answer shows the table as the new bot has it"
        )
        await table.play_randomly(rng)
        assert await table.status() is TableStatus.FINISHED
        message = await table.message()
        assert table.picture_checks > 0
        final = await table.state()

    fields = {f["name"]: f["value"] for f in message.embeds[0]["fields"]}
    score = fields["Final score"]
    assert score.startswith("```") and "TOTAL" in score and "Coalition" in score
    assert "alice" in score and "bob" in score
    assert "🏆" in fields["Result"]
    winners = [world.players[w].name for w in final.winners]
    assert all(name in fields["Result"] for name in winners)
    with picture_of(message) as picture:
        assert picture.size[0] == 1000
    assert "Rematch" in labels(message)
    lines = channel_text(world)
    assert "wins the game" in lines or "shares the win" in lines
    assert "points (Lords" in lines, "every player's score is posted"


async def test_only_the_prompted_player_plays_and_my_hand_shows_the_chamber(
    world: World,
) -> None:
    fake = world.fake
    async with fake.running(world.bot()) as bot:
        table = await ConspiracyTable.open(world, bot, players=2)
        state = await table.state()
        active = await table.user_of(state.turn)
        other = await table.user_of(1 - state.turn)
        refused = await table.click_code(other, "reveal_lords.2")
        await refused.wait_response()
        assert refused.ephemeral and "not being asked" in refused.content
        assert (await table.state()).step == state.step, "nothing changed"

        outsider = await table.click_code(world.outsider, "reveal_lords.1")
        await outsider.wait_response()
        assert outsider.ephemeral and "not playing" in outsider.content

        hand = await table.click_label(active, "My hand")
        await hand.wait_response()
        assert hand.ephemeral
        assert "Your chamber is empty" in hand.embeds[0]["description"]
        assert "Your move" in hand.embeds[0]["description"]
        select = next(c for c in components_of(hand.message) if c["type"] == 3)
        values = [o["value"] for o in select["options"]]
        assert values[:3] == ["reveal_lords.1", "reveal_lords.2", "reveal_lords.3"]
        chosen = await fake.select(active, hand.message, select["custom_id"], ["reveal_lords.1"])
        await chosen.wait_response()
        assert chosen.response_type == 7, "the hand's select plays, then says done"
        await table.settle()
        after = await table.state()
        assert len(after.players[state.turn].lords) == 1

        assert after.turn != state.turn, "one Lord recruited: the turn passed"
        waiting = await table.click_label(active, "My hand")
        await waiting.wait_response()
        description = waiting.embeds[0]["description"]
        assert "Row 1: `1`" in description and "'s turn" in description
        assert not [c for c in components_of(waiting.message) if c["type"] == 3]
        assert PANEL not in codes_on(await table.message())
