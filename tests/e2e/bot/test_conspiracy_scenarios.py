"""Conspiracy moments on the fake Discord, click by click: a long list of
Locations in the select panel, a limit on the opponent's recruiting, a swap with
the pyramid of buttons, the final round.

Seats follow the join order: alice 0, bob 1. Each test rigs the table (a test
setup step), then plays only through the UI.
"""

from __future__ import annotations

from games.conspiracy import Colour, LocationId
from games.conspiracy.models import (
    KeepLord,
    RevealLords,
    SwapPick,
    TakePile,
)
from tests.cogs.conspiracy_states import before_full_swap, before_many_face_up
from tests.e2e.fake_discord.components import components_of, labels
from tests.games.conspiracy.helpers import rigged

from .conspiracy_harness import PANEL, ConspiracyTable, codes_on, picture_of, rig
from .harness import World


def channel_text(world: World) -> str:
    return "\n".join(m.content for m in world.fake.channel_messages(world.channel))


async def test_a_location_from_a_long_list_then_a_limited_recruit(world: World) -> None:
    fake = world.fake
    alice, bob = world.players[:2]
    async with fake.running(world.bot()) as bot:
        table = await ConspiracyTable.open(world, bot, players=2)
        await rig(table, before_many_face_up())
        message = await table.message()
        assert "Take red pile (1: 1)" in labels(message)
        first_picture = message.attachments[0].id

        await table.play(0, TakePile(colour=Colour.RED))
        assert "🔑 **alice** pairs keys on place 3" in channel_text(world)
        message = await table.message()
        assert message.attachments[0].id != first_picture, "a new picture"
        assert labels(message)[0] == "Choose a Location (7)…"
        assert codes_on(message)[1:4] == [
            "reveal_locations.1",
            "reveal_locations.2",
            "reveal_locations.3",
        ]
        # bob may open the panel, but is not asked anything
        panel = await table.click_code(bob, PANEL)
        await panel.wait_response()
        assert panel.ephemeral and "not being asked" in panel.content

        panel = await table.click_code(alice, PANEL)
        await panel.wait_response()
        assert panel.ephemeral
        select = next(c for c in components_of(panel.message) if c["type"] == 3)
        options = {o["value"]: o for o in select["options"]}
        assert len(options) == 10
        top_lord = options["take_location.top_lord"]
        assert top_lord["label"] == "#9 3 pts, top Lord only"
        assert "top Lord" in top_lord["description"]
        chosen = await fake.select(
            alice, panel.message, select["custom_id"], ["take_location.top_lord"]
        )
        await chosen.wait_response()
        assert chosen.response_type == 7 and chosen.content == "Done."
        await table.settle()
        lines = channel_text(world)
        assert "📍 **alice** takes **#9 3 pts, top Lord only** (on place 3)." in lines
        assert "🚧 Until **alice**'s next turn" in lines

        message = await table.message()
        assert labels(message) == ["Reveal 1", "My hand", "Watch"], "bob may only take the top Lord"
        embed = message.embeds[0]
        assert "may only recruit the deck's top Lord" in str(embed["fields"])
        assert "Locations 1" in embed["description"].splitlines()[0]
        await table.play(1, RevealLords(count=1))
        state = await table.state()
        assert state.turn == 0 and len(state.players[1].lords) == 2
        assert "no longer limits recruiting" in channel_text(world)


async def test_a_swap_with_the_pyramid_of_buttons(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()) as bot:
        table = await ConspiracyTable.open(world, bot, players=2)
        await rig(table, before_full_swap())
        await table.play(0, TakePile(colour=Colour.RED))
        message = await table.message()
        rows = [
            [c["custom_id"].split(":")[-1] for c in row["components"]] for row in message.components
        ]
        assert rows[0] == ["skip_swap", "swap_pick.15", "swap_pick.13", "swap_pick.14"]
        assert rows[3] == [f"swap_pick.{place}" for place in range(1, 6)]
        assert rows[4][0] == "ui.hand"
        assert "15 · R0" in labels(message)
        await table.play(0, SwapPick(place=15))
        message = await table.message()
        assert "Unpick 15" in labels(message)
        assert "swaps place 15 with" in str(message.embeds[0]["fields"])
        await table.play(0, SwapPick(place=2))
        assert "**alice** swaps the Lords of places 2 and 15." in channel_text(world)
        state = await table.state()
        # alice has 15 Lords: bob takes one last turn
        assert state.ender == 0 and state.turn == 1
        message = await table.message()
        fields = {f["name"]: f["value"] for f in message.embeds[0]["fields"]}
        assert "**alice** has 15 Lords" in fields["⏳ Final round"]
        assert "⏳ **alice** has 15 Lords" in channel_text(world)
        assert "— Turn 2: **bob**'s last turn —" in channel_text(world)
        with picture_of(message) as picture:
            assert picture.size[0] == 1000


async def test_keep_one_of_three_then_the_game_ends(world: World) -> None:
    fake = world.fake
    fourteen = ["r3", "b3", "g3", "y3", "p3", "r4", "b4", "g4", "y4", "p4", "r6", "y6", "g6", "r3"]
    state = rigged(
        (fourteen, ["y1", "p1"]),
        deck_top=["b6", "y2", "g2", "p6", "g1"],
        face_up=[LocationId.POINTS_7],
    )
    async with fake.running(world.bot()) as bot:
        table = await ConspiracyTable.open(world, bot, players=2)
        await rig(table, state)
        await table.play(0, RevealLords(count=3))
        message = await table.message()
        assert labels(message)[:3] == [
            "Keep blue 6 · discard the deck's top Lord",
            "Keep yellow 2 · gold key",
            "Keep green 2 · gold key",
        ]
        assert "alice** reveals 🟦 blue 6, 🟨 yellow 2, 🟩 green 2." in channel_text(world)
        await table.play(0, KeepLord(colour=Colour.BLUE, influence=6))
        lines = channel_text(world)
        assert "The deck's top Lord, 🟪 purple 6, goes to the discard." in lines
        message = await table.message()
        assert "Take purple pile (1: 6)" in labels(message)
        await table.play(1, TakePile(colour=Colour.PURPLE))
        message = await table.message()
        assert message.components[0]["components"][0]["label"] == "Rematch"
        fields = {f["name"]: f["value"] for f in message.embeds[0]["fields"]}
        assert "TOTAL" in fields["Final score"]
        assert "🏆 **alice** wins" in fields["Result"]
        assert "🏆 **alice** wins the game!" in channel_text(world)
        with picture_of(message) as picture:
            assert picture.size[0] == 1000
