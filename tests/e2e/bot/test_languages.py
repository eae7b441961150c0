"""Which language where: a table speaks its guild's language (or its creator's
choice) in public; each player reads its own answers and DMs in its own locale."""

from __future__ import annotations

from typing import Any

from bot.storage.models import TableStatus
from bot.ui.i18n import t
from bot.ui.presenter import TableContext
from games.complots import ActionKind
from games.complots.models import Act
from tests.e2e.fake_discord.components import labels

from .harness import Table, World, answer_text, private_answer, table_update


def embed_text(embeds: list[Any]) -> str:
    """Every text of the embeds, as a reader sees it."""
    return "\n".join(
        text
        for embed in embeds
        for text in (
            embed.get("title") or "",
            embed.get("description") or "",
            *(f"{f['name']}\n{f['value']}" for f in embed.get("fields") or []),
        )
    )


def italian_guild_with_a_french_player(world: World) -> None:
    """alice's client is English, bob's French, carol's Italian; the guild is Italian."""
    world.guild.locale = "it"
    world.players[1].locale = "fr"
    world.players[2].locale = "it"


async def test_an_italian_guild_plays_in_italian_and_a_french_player_reads_french(
    world: World,
) -> None:
    italian_guild_with_a_french_player(world)
    fake = world.fake
    alice, bob, carol = world.players[:3]
    async with fake.running(world.bot()) as bot:
        opened = await fake.slash(alice, world.channel, "complots")
        assert await answer_text(opened) == t("lobby.opened", "en", table=1), "alice reads English"
        found = await bot.tables.table_in_channel(world.channel.id)
        assert found is not None and found.language == "it"
        table = Table(world, bot, found.id)
        await table.settle()
        lobby = await table.message()
        assert t("lobby.join", "it") in labels(lobby)
        assert t("lobby.join", "en") not in labels(lobby)
        assert t("lobby.options", "it") in embed_text(lobby.embeds)

        joined = await table.click_label(bob, t("lobby.join", "it"))
        assert await answer_text(joined) == t("lobby.joined", "fr")
        assert [m.content for m in fake.dms(bob)] == [t("lobby.joined_dm", "fr")]
        await (await table.click_label(carol, t("lobby.join", "it"))).wait_response()
        await (await table.click_label(alice, t("lobby.start", "it"))).wait_response()
        await table.settle()
        assert await table.status() is TableStatus.RUNNING

        snapshot = await bot.tables.snapshot(table.id)
        presenter = bot.presenters["complots"]

        def read_by(locale: str) -> TableContext:
            return TableContext(snapshot, locale, bot.tables.away_after)

        for user, seat, locale in ((alice, 0, "en"), (bob, 1, "fr"), (carol, 2, "it")):
            hand = presenter.hand(read_by(locale), seat)
            assert hand.content in [m.content for m in fake.dms(user)], f"{user.name}'s DM"
            mine = await private_answer(await table.click_label(user, t("table.my_hand", "it")))
            assert mine.content == hand.content, f"{user.name}'s My hand in {locale}"

        state = await table.state()
        await (await table.play(state.turn, Act(action=ActionKind.INCOME))).wait_response()
        await table.settle()
        snapshot = await bot.tables.snapshot(table.id)
        posts = "\n".join(m.content for m in fake.channel_messages(world.channel))
        italian = presenter.event_lines(read_by("it"), snapshot.recent)
        english = presenter.event_lines(read_by("en"), snapshot.recent)
        assert italian and all(line in posts for line in italian), "the deal's lines, in Italian"
        assert not [line for line in english if line not in italian and line in posts]
        shown = await table.message()
        assert t("table.my_hand", "it") in labels(shown)
        assert t("table.recent", "it") in embed_text(shown.embeds)

        bob.locale = "it"  # bob's client now speaks Italian: his next DMs follow it
        mine = await private_answer(await table.click_label(bob, t("table.my_hand", "it")))
        assert mine.content == presenter.hand(read_by("it"), 1).content
        seats = (await bot.tables.snapshot(table.id)).seats
        assert [s.locale for s in seats] == ["en", "it", "it"]


async def test_the_creator_changes_the_table_language_in_the_lobby(world: World) -> None:
    fake = world.fake
    alice, bob = world.players[:2]
    bob.locale = "it"
    async with fake.running(world.bot()) as bot:
        await (await fake.slash(alice, world.channel, "complots")).wait_response()
        found = await bot.tables.table_in_channel(world.channel.id)
        assert found is not None and found.language == "en", "the guild's locale is en-US"
        table = Table(world, bot, found.id)
        await table.settle()
        select = f"gs:{table.id}:0:ui.language"

        refused = await fake.select(bob, await table.message(), select, ["fr"])
        assert await answer_text(refused) == t("refusal.creator_only", "it")
        assert (await bot.tables.snapshot(table.id)).table.language == "en", "nothing changed"

        chosen = await fake.select(alice, await table.message(), select, ["fr"])
        update = await table_update(chosen)
        assert t("lobby.join", "fr") in str(update["components"])
        assert t("lobby.language", "fr", language="Français") in embed_text(update["embeds"])
        await table.settle()
        assert t("lobby.start", "fr") in labels(await table.message())

        forged = await fake.forge(alice, await table.message(), select, values=["de"])
        assert await answer_text(forged) == t("refusal.not_allowed", "en")
        assert (await bot.tables.snapshot(table.id)).table.language == "fr"


async def test_moderators_set_the_language_of_new_tables(world: World) -> None:
    fake = world.fake
    alice = world.players[0]
    world.guild.locale = "fr"
    async with fake.running(world.bot()) as bot:
        said = await fake.slash(world.moderator, world.channel, "mod", "language", language="it")
        assert await answer_text(said) == t("admin.language_set", "en", language="Italiano")
        await (await fake.slash(alice, world.channel, "complots")).wait_response()
        found = await bot.tables.table_in_channel(world.channel.id)
        assert found is not None and found.language == "it"
        await bot.tables.cancel(found.id, alice.id, moderator=False)

        auto = await fake.slash(world.moderator, world.channel, "mod", "language", language="auto")
        assert await answer_text(auto) == t("admin.language_auto", "en", language="Français")
        await (await fake.slash(alice, world.channel, "complots")).wait_response()
        again = await bot.tables.table_in_channel(world.channel.id)
        assert again is not None and again.language == "fr", "the guild's preferred locale"

        fake.enforce_command_permissions = False  # a client forging the command
        refused = await fake.slash(alice, world.channel, "mod", "language", language="en")
        assert await answer_text(refused) == t("refusal.moderators_only", "en")
        settings = await bot.repo.guild_settings(world.guild.id)
        assert settings.language is None, "nothing changed"
