"""Mascarade moments on the fake Discord: what each player sees, click by click.

Seats follow the join order: alice 0, bob 1, carol 2, dave 3, erin 4. Tests rig
the dealt cards (a test setup step: nobody knows any card then), then play
only through the UI; the leak check runs after every step (``MascaradeTable``).
"""

from __future__ import annotations

from pathlib import Path

from bot.storage.models import TableStatus
from games.mascarade import GAME
from games.mascarade.models import (
    Announce,
    ChooseCard,
    ChoosePlayer,
    Contest,
    Guess,
    Look,
    Pass,
    Swap,
)
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord.components import components_of, labels
from tests.e2e.fake_discord.models import StoredMessage
from tests.games.mascarade.helpers import (
    BISHOP,
    CHEAT,
    FOOL,
    INQUISITOR,
    JUDGE,
    KING,
    QUEEN,
    SPY,
    WITCH,
    rigged,
)

from .harness import accepted, answer_text, build_world, private_answer, shown_version, table_update
from .mascarade_harness import MascaradeTable, refusal, rig


async def test_a_five_player_game_with_a_contest_the_judge_and_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path, database_url: str | None
) -> None:
    fake = fake_discord
    world = build_world(fake, tmp_path, players=5, database_url=database_url)
    alice, bob, carol, _dave, erin = world.players

    async with fake.running(world.bot()) as bot:
        table = await MascaradeTable.open(world, bot)
        state = await table.mascarade()
        first = await table.message()
        description = first.embeds[0]["description"]
        for character in state.cards:
            assert f"**{character.value.capitalize()}**" in description, "the deal, face up"
        for user in world.players:
            dealt = str([m.embeds for m in fake.dms(user)])
            assert "What you know" in dealt, "everyone gets what it knows by DM at the start"

        # The first turn is a forced swap: target, then the secret decision, in one panel.
        opener = state.turn
        target = (opener + 1) % 5
        decided = await table.swap(opener, Swap(slot=0, target=target, target_slot=0), True)
        assert "you really swapped" in decided.content
        assert "🂠" in (await table.message()).embeds[0]["description"], "hidden afterwards"
        assert f"**{world.players[target].name}**'s card under the table" in table.channel_text()

        await rig(
            table,
            rigged([KING, QUEEN, JUDGE, BISHOP, WITCH], centre=[CHEAT], turn=0, turn_number=10),
        )
        await table.play(0, Announce(slot=0, character=KING))
        embed = await table.embed_text()
        assert "“I am the **King**!”" in embed and "Does **bob** contest?" in embed
        assert "<t:" in embed, "a live countdown"
        assert labels(await table.message()) == [
            "I am the King!",
            "Stay silent",
            "My hand",
            "Watch",
        ]
        await table.play(1, Contest(slot=0))
        await table.play(2, Pass())
        embed = await table.embed_text()
        assert "Contesting: bob" in embed and "Silent: carol" in embed
        assert "Does **dave** contest?" in embed and "Then: erin" in embed
        contest_message = await table.message()
    # Stopped in the middle of the contest round; dave's deadline passes meanwhile.

    world.write("UPDATE deadlines SET due_at = 0 WHERE table_id = ?", table.id)

    async with fake.running(world.bot()) as bot:
        table = MascaradeTable(world, bot, table.id)
        await fake.wait_for(
            lambda: "**dave** stays silent" in table.channel_text(),
            timeout=5,
            what="dave's past-due contest deadline to fire at boot",
        )
        await table.settle()
        await table.assert_public_message_hides_secrets()
        assert GAME.awaiting(await table.mascarade()) == [4], "erin is asked next"
        silent = await fake.click(erin, contest_message, label="Stay silent")
        await table.accepted(silent)
        assert accepted(silent), "a button sent by the old bot works"
        assert (
            shown_version(await table_update(silent))
            == (await bot.tables.snapshot(table.id)).version
        ), "its answer shows the table as the new bot has it"

        text = table.channel_text()
        assert "**alice** reveals: **King**" in text and "**bob** reveals: **Queen**" in text
        assert "**alice** takes 3 from the bank (King)" in text
        assert "**bob** pays a fine of 1 🪙 to the courthouse" in text
        state = await table.mascarade()
        assert state.coins == [9, 5, 6, 6, 6] and state.courthouse == 1
        assert "bob** plays and must swap" in await table.embed_text()

        # bob must swap: with carol, really. carol's card is unknown to him.
        panel = await table.click_code(bob, "ui.panel.swap")
        await panel.wait_response()
        assert panel.ephemeral and "you must swap" in panel.content
        chosen = await table.select_in_panel(bob, panel, "swap.0.2.0")
        await table.accepted(chosen)
        assert "your card: **Queen**" in chosen.content
        assert "**carol**'s card: unknown" in chosen.content
        embed = await table.embed_text()
        assert "**bob** took their own card and **carol**'s card under the table" in embed
        done = await table.click_in_panel(bob, chosen, "decide.1")
        await table.accepted(done)

        # carol looks: only she sees her card, at once and in My hand.
        looked = await table.play(2, Look(slot=0))
        assert accepted(looked), "a button of the table message"
        assert await answer_text(looked) == "👁️ you look at your card: **Queen**."
        assert "**carol** looks at their card." in table.channel_text()
        dms = [m.content for m in fake.dms(carol)]
        assert f"#{table.id} · 👁️ you look at your card: **Queen**." in dms, "and by DM"
        hand = await table.click_label(carol, "My hand")
        await hand.wait_response()
        assert hand.ephemeral and "Your card: **Queen**" in str(hand.embeds)
        assert "alice's card: **King**" in str(hand.embeds), "the reveal is remembered"

        # dave bluffs the Judge; bob (now the Judge) contests and takes the courthouse.
        await table.announce_round(3, JUDGE, contesters={1: 0})
        text = table.channel_text()
        assert "**dave** reveals: **Bishop**" in text and "**bob** reveals: **Judge**" in text
        assert "⚖️ **bob** (Judge) takes the courthouse: 1 🪙." in text
        state = await table.mascarade()
        assert state.coins == [9, 6, 6, 5, 6] and state.courthouse == 1, "dave's fine after"

        # erin's Witch: public buttons for her; nobody else's click counts.
        await table.announce_round(4, WITCH)
        assert "(Witch) may swap fortunes" in await table.embed_text()
        assert "Swap fortunes with alice (9)" in labels(await table.message())
        intruder = await table.click_code(alice, "choose_player.0")
        await intruder.wait_response()
        assert intruder.ephemeral and intruder.content == refusal("not_prompted")
        await table.play(4, ChoosePlayer(target=0))
        assert (await table.mascarade()).coins == [6, 6, 6, 5, 9]

        await table.announce_round(0, KING)  # alice 9
        await table.announce_round(1, JUDGE)  # bob takes dave's fine: 7
        await table.announce_round(2, QUEEN)  # carol 8
        await table.announce_round(3, BISHOP)  # a tie between alice and erin
        assert "(Bishop) chooses whom to take 2 🪙 from" in await table.embed_text()
        assert {"Take 2 from alice (9)", "Take 2 from erin (9)"} <= set(
            labels(await table.message())
        )
        await table.play(3, ChoosePlayer(target=4))
        assert (await table.mascarade()).coins == [9, 7, 8, 7, 7]
        await table.announce_round(4, QUEEN, contesters={2: 0})  # erin bluffs, carol is
        assert "**carol** is the Queen and uses the power" in table.channel_text()
        assert (await table.mascarade()).coins == [9, 7, 10, 7, 6]
        await table.announce_round(0, KING)  # alice 12
        await table.play(1, Look(slot=0))
        await table.announce_round(2, QUEEN)  # carol 12
        await table.play(3, Look(slot=0))
        await table.play(4, Look(slot=0))
        await table.announce_round(0, KING)  # alice 15
        assert await table.status() is TableStatus.FINISHED
        final = await table.message()

    final_embed = final.embeds[0]
    assert "🏆 **alice** wins!" in str(final_embed)
    for name in ("King", "Judge", "Queen", "Bishop", "Witch", "Cheat"):
        assert f"**{name}**" in final_embed["description"], "every card is turned over"
    assert labels(final) == ["Rematch", "Log"]
    assert "🏆 **alice** wins the game (13 coins or more)!" in table.channel_text()


async def test_the_spy_the_fool_and_the_inquisitor(
    fake_discord: FakeDiscord, tmp_path: Path, database_url: str | None
) -> None:
    fake = fake_discord
    world = build_world(fake, tmp_path, players=5, database_url=database_url)
    alice, bob = world.players[:2]
    async with fake.running(world.bot()) as bot:
        table = await MascaradeTable.open(world, bot)
        await rig(table, rigged([SPY, FOOL, INQUISITOR, KING, JUDGE], centre=[QUEEN], turn=0))

        # The Spy: which card she looks at is public; what she sees and does is not.
        await table.announce_round(0, SPY)
        message = await table.message()
        assert "Look at the centre card" in labels(message)
        spy_stage = len(message.history) - 1
        intruder = await table.click_code(bob, "choose_card.-.0")
        await intruder.wait_response()
        assert intruder.ephemeral and intruder.content == refusal("not_prompted")
        seen = await table.play(0, ChooseCard(target=None, slot=0))
        assert accepted(seen), "a button of the table message"
        answer = await private_answer(seen)
        assert "you look at your card: **Spy**" in answer.content
        assert "you see the centre card: **Queen**" in answer.content
        assert "Spy: swap your card and the centre card, or not?" in answer.content
        decided = await table.click_in_panel(alice, seen, "decide.1")
        await table.accepted(decided)
        assert "you really swapped" in decided.content
        text = table.channel_text()
        assert "**alice** (Spy) looks at their own card and the centre card" in text
        state = await table.mascarade()
        assert state.cards[0] is QUEEN and state.cards[-1] is SPY

        # A click on a button of an older version of the table message: politely stale.
        old_id = f"gm:{table.id}:{_version_of(message, spy_stage)}:choose_card.-.0"
        stale = await fake.click(alice, message, old_id, seen_version=spy_stage)
        await stale.wait_response()
        assert stale.ephemeral and stale.content == refusal("stale")

        # The Fool: two other players' cards, then swap or not, here from My hand.
        await table.announce_round(1, FOOL)
        assert "(Fool) chooses two other players' cards" in await table.embed_text()
        await table.play(1, ChooseCard(target=2, slot=0))
        assert "First card: **carol**'s card" in await table.embed_text()
        follow_up = await table.play(1, ChooseCard(target=3, slot=0))
        assert "Fool: swap **carol**'s card and **dave**'s card" in await answer_text(follow_up)
        hand = await table.click_label(bob, "My hand")
        await hand.wait_response()
        kept = await table.click_in_panel(bob, hand, "decide.0")
        await table.accepted(kept)
        assert "you only pretended" in kept.content
        state = await table.mascarade()
        assert state.coins[1] == 7 and state.cards[2:4] == [INQUISITOR, KING]

        # The Inquisitor questions dave, whose wrong guess costs him 4.
        await table.announce_round(2, INQUISITOR)
        await table.play(2, ChoosePlayer(target=3))
        embed = await table.embed_text()
        assert "**dave**, questioned by **carol**, names their character" in embed
        assert "I am the Judge" in labels(await table.message())
        await table.play(3, Guess(character=JUDGE))
        text = table.channel_text()
        assert "**dave** reveals: **King**" in text and "**dave** said Judge: wrong!" in text
        assert "**carol** takes 4 from **dave** (Inquisitor)" in text
        assert (await table.mascarade()).coins[2:4] == [10, 2]


def _version_of(message: StoredMessage, index: int) -> int:
    """The state version in the custom_ids of one version of a table message."""
    ids = [c["custom_id"] for c in components_of(message.history[index])]
    return int(ids[0].split(":")[2])


async def test_three_players_point_at_their_cards(
    fake_discord: FakeDiscord, tmp_path: Path, database_url: str | None
) -> None:
    fake = fake_discord
    world = build_world(fake, tmp_path, players=3, database_url=database_url)
    carol = world.players[2]
    async with fake.running(world.bot()) as bot:
        table = await MascaradeTable.open(world, bot, players=3)
        assert "left **" in (await table.message()).embeds[0]["description"]
        await rig(table, rigged([[KING, QUEEN], [JUDGE, BISHOP], [FOOL, WITCH]], turn=0))

        looked = await table.play(0, Look(slot=1))
        assert looked.response_type == 7, "the Look panel turns into the card"
        assert looked.content == "👁️ you look at your right card: **Queen**."
        assert "**alice** looks at their right card." in table.channel_text()

        await table.play(1, Announce(slot=0, character=JUDGE))
        assert "**bob** (left card): “I am the **Judge**!”" in await table.embed_text()
        assert labels(await table.message())[:3] == [
            "Contest with my left card",
            "Contest with my right card",
            "Stay silent",
        ]
        await table.contest_round({2: 1})
        text = table.channel_text()
        assert "**carol** points at their right card: “No, *I* am the Judge!”" in text
        assert "**bob** reveals their left card: **Judge**" in text
        assert "**carol** reveals their right card: **Witch**" in text
        assert (await table.mascarade()).coins == [6, 6, 5]

        panel = await table.click_code(carol, "ui.panel.swap")
        await panel.wait_response()
        select = next(c for c in components_of(panel.message) if c["type"] == 3)
        options = {o["label"]: o["value"] for o in select["options"]}
        assert options["your left card ⇄ your right card"] == "swap.0.2.1"
        assert "your left card ⇄ alice's right card" in options
        assert all("protected" not in label for label in options)
        await table.swap(2, Swap(slot=0, target=2, target_slot=1), True)
        assert (await table.mascarade()).cards[4:6] == [WITCH, FOOL]


async def test_the_character_set_option(
    fake_discord: FakeDiscord, tmp_path: Path, database_url: str | None
) -> None:
    fake = fake_discord
    world = build_world(fake, tmp_path, players=5, database_url=database_url)
    alice = world.players[0]
    async with fake.running(world.bot()) as bot:
        unknown = await fake.slash(alice, world.channel, "mascarade", characters="Judge, Jester")
        await unknown.wait_response()
        assert unknown.ephemeral and "unknown character: Jester" in unknown.content
        bad = await fake.slash(
            alice, world.channel, "mascarade", characters="King, Queen, Fool, Witch, Cheat, Spy"
        )
        await bad.wait_response()
        assert bad.ephemeral and "The Judge must always be in the game." in bad.content
        assert await bot.tables.table_in_channel(world.channel.id) is None

        seven = "judge, king, queen, widow, fool, witch, cheat"
        opened = await fake.slash(
            alice, world.channel, "mascarade", characters=seven, turn_timeout=60
        )
        await opened.wait_response()
        found = await bot.tables.table_in_channel(world.channel.id)
        assert found is not None and found.timeouts.turn == 60
        table = MascaradeTable(world, bot, found.id)
        await table.settle()
        lobby = str((await table.message()).embeds[0])
        assert "Judge, King, Queen, Fool, Witch, Cheat, Widow (custom set, for 6-7 players)" in (
            lobby
        )
        for user in world.players[1:]:
            await (await table.click_label(user, "Join")).wait_response()
        start = await table.click_label(alice, "Start")
        await start.wait_response()
        assert start.ephemeral and "With 5 players the game uses 6 cards" in start.content
        assert await table.status() is TableStatus.LOBBY
        alice.locale = "fr"
        french = await table.click_label(alice, "Start")
        await french.wait_response()
        assert french.content == (
            "Ces options ne donnent pas une partie jouable\u202f: À 5 joueurs, la partie utilise"
            " 6 cartes (une chacun, les autres au centre), pas 7."
        ), "the engine's reason, in the clicker's language"
