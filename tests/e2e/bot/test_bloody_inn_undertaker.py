"""The police's undertaker on the fake Discord: the player who can pay in cash or
by cheque is asked in its private panel (and in My hand), the table message says
who is asked, and the answer is paid. Seats follow the join order: alice 0, bob 1.
"""

from __future__ import annotations

from games.bloody_inn.models import Pass, Stage
from tests.e2e.fake_discord.components import components_of, labels
from tests.games.bloody_inn.helpers import C, rigged

from .bloody_inn_harness import PANEL_BUTTON, InnTable
from .harness import World


async def test_the_undertaker_asks_alice_how_to_pay_in_her_panel(world: World) -> None:
    fake = world.fake
    alice, bob = world.players[:2]
    async with fake.running(world.bot()) as bot:
        table = await InnTable.open(world, bot, players=2)
        # alice: 40 F and a cheque, a corpse, her room 1 occupied; the police in room 4.
        await table.rig(
            rigged(
                2,
                hands=[[], [C.PEASANT]],
                rooms={1: C.MONK, 4: C.PEACEKEEPER},
                corpses={0: [C.BARON]},
                money=[40, 5],
                cheques=[1, 0],
                queue=[1],
            )
        )
        await table.play(1, Pass())
        state = await table.state()
        assert state.stage is Stage.UNDERTAKER

        message = await table.message()
        description = message.embeds[0]["description"]
        assert "Police investigation: **alice** owes the undertaker 10 F" in description
        assert labels(message) == ["Your turn…", "My hand", "Watch"], "a private choice"
        channel = "\n".join(m.content for m in fake.channel_messages(world.channel))
        assert "🚨 **Police in the inn**" in channel

        refused = await fake.click(bob, message, (await table.table_codes())[PANEL_BUTTON])
        await refused.wait_response()
        assert refused.ephemeral and not components_of(refused.message), "bob is not asked"

        hand = await fake.click(alice, message, label="My hand")
        await hand.wait_response()
        assert hand.ephemeral and "the undertaker wants **10 F**" in hand.content
        panel = await table.panel(alice)
        assert panel.ephemeral and "Police investigation" in panel.content
        (select,) = [c for c in components_of(panel) if c.get("type") == 3]
        options = {o["value"]: (o["label"], o.get("description")) for o in select["options"]}
        assert options == {
            "undertaker.0": (
                "Pay 10 F from the track",
                "Leaves you 30 F on the track + 1 cheque",
            ),
            "undertaker.1": (
                "Pay with 1 cheque",
                "Leaves you 40 F + 0 cheques; 1 F of this morning's income lost over 40 F",
            ),
        }
        chosen = await fake.select(alice, panel, str(select["custom_id"]), ["undertaker.0"])
        await chosen.wait_response()
        assert chosen.response_type == 7 and chosen.message.content.startswith("✅ Done.")
        await table.settle()
        await table.assert_public_message_hides_secrets()

        state = await table.state()
        assert state.stage is Stage.WELCOME
        assert (state.players[0].money, state.players[0].cheques) == (31, 1), "41 F in all"
        channel = "\n".join(m.content for m in fake.channel_messages(world.channel))
        assert "⚰️ **alice** pays the undertaker for Baron (Noble, rank 0): 10 F" in channel
