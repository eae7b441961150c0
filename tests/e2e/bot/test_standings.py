"""/stats, /leaderboard and /history on the fake Discord, after real games."""

from __future__ import annotations

import random

from bot.ui.i18n import decimal, t
from tests.e2e.fake_discord.models import InteractionRecord

from .harness import Table, World, private_answer


async def embed_of(record: InteractionRecord) -> str:
    """The private answer's embed, as text (title, description, fields)."""
    message = await private_answer(record)
    [embed] = message.embeds
    fields = [f"{f['name']}: {f['value']}" for f in embed.get("fields", [])]
    return "\n".join([embed.get("title", ""), embed.get("description", ""), *fields])


async def test_standings_follow_the_games_played(world: World) -> None:
    fake = world.fake
    alice, bob, carol = world.players[:3]
    async with fake.running(world.bot()) as bot:
        empty = await embed_of(await fake.slash(carol, world.channel, "history"))
        assert t("standings.history_empty", "en") in empty

        table = await Table.open(world, bot, players=2)
        running = await embed_of(await fake.slash(alice, world.channel, "stats"))
        assert t("standings.no_games", "en", user=alice.id) in running, "a running game: no record"
        await table.play_randomly(random.Random(3))
        [record] = await bot.repo.recent_records(world.guild.id)
        winner = next(s.user_id for s in record.seats if s.winner)
        loser = alice if winner == bob.id else bob

        history = await embed_of(await fake.slash(carol, world.channel, "history"))
        assert f"#{table.id}" in history and f"<@{alice.id}>, <@{bob.id}>" in history
        assert t("standings.won_by", "en", winners=f"<@{winner}>") in history

        board = await embed_of(
            await fake.slash(carol, world.channel, "leaderboard", game="complots")
        )
        lines = [line for line in board.splitlines() if line.startswith("**")]
        assert [line.split("<@")[1].split(">")[0] for line in lines] == [str(winner), str(loser.id)]
        assert t("standings.board_you_unrated", "en", game="Complots") in board

        stats = await embed_of(await fake.slash(carol, world.channel, "stats", member=loser))
        standing = await bot.repo.standing(world.guild.id, "complots", loser.id)
        assert standing is not None and standing.rank == 2
        rating = decimal(standing.skill.ordinal, "en")
        assert f"Complots: **{rating}**" in stats and "#2" in stats
        assert t("standings.wins_value", "en", wins=0, rate="0%") in stats

        carol.locale = "fr"
        french = await embed_of(
            await fake.slash(carol, world.channel, "stats", member=loser, game="complots")
        )
        assert t("standings.stats_title", "fr") in french
        assert decimal(standing.skill.ordinal, "fr") in french
