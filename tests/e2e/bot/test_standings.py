"""/stats, /leaderboard and /history on the fake Discord, after real games."""

from __future__ import annotations

import asyncio
import random

from bot.app import GameMasterBot
from bot.storage.models import TableStatus
from bot.ui.i18n import decimal, t
from games.complots.stats import STATS
from tests.e2e.fake_discord.components import components_of
from tests.e2e.fake_discord.models import InteractionRecord

from .harness import Table, World, private_answer
from .test_click_binding import refused


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


async def stats_settled(bot: GameMasterBot) -> None:
    """Waits (a bounded time) until the bot has worked out every record's statistics."""
    for _ in range(500):
        if not await bot.repo.records_awaiting_stats(1):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the game's statistics were never computed")


async def test_stats_show_complots_bluffs_once_the_game_is_over(world: World) -> None:
    fake = world.fake
    alice, bob, carol = world.players[:3]
    async with fake.running(world.bot()) as bot:
        table = await Table.open(world, bot, players=2)
        await table.play_randomly(random.Random(3))
        await stats_settled(bot)
        totals = await bot.repo.stat_totals(world.guild.id, alice.id, "complots")
        assert set(totals) == set(STATS)
        stats = await embed_of(await fake.slash(carol, world.channel, "stats", member=alice))
        bluffs = t("complots.stats.value", "en", **totals)
        assert f"{t('complots.stats.title', 'en')}: {bluffs}" in stats

        bob.locale = "it"
        italian = await embed_of(await fake.slash(bob, world.channel, "stats", member=alice))
        assert t("complots.stats.value", "it", **totals) in italian


async def test_standings_and_replays_show_nothing_of_a_running_game(world: World) -> None:
    """The leak scan of the standings: while a game runs, every answer of /stats,
    /history and /leaderboard (to each player, about each player) stays exactly what
    it was before the game began, step after step, and its replay is refused."""
    fake = world.fake
    alice, bob, carol = world.players[:3]
    async with fake.running(world.bot()) as bot:
        finished = await Table.open(world, bot, players=2)
        await finished.play_randomly(random.Random(8))
        await stats_settled(bot)

        async def answers() -> list[str]:
            seen = []
            for asker in (alice, bob, carol):
                for member in (alice, bob, carol):
                    for game in ({}, {"game": "complots"}):
                        record = await fake.slash(
                            asker, world.channel, "stats", member=member, **game
                        )
                        seen.append(await embed_of(record))
                history = await private_answer(await fake.slash(asker, world.channel, "history"))
                seen.append(repr((history.embeds, components_of(history))))
                board = await fake.slash(asker, world.channel, "leaderboard", game="complots")
                seen.append(await embed_of(board))
            return seen

        before = await answers()
        running = await Table.open(world, bot, players=3)
        game = bot.tables.game("complots")
        rng = random.Random(21)
        for _ in range(6):
            state = await running.state()
            if game.result(state) is not None:
                break
            prompt = rng.choice(game.prompts(state))
            await running.play(prompt.player, rng.choice(prompt.choices))
            assert await answers() == before, "an answer changed while the game runs"
        assert await running.status() is TableStatus.RUNNING
        here = await private_answer(await fake.slash(alice, world.channel, "history"))
        replay = await fake.forge(alice, here, f"rp:{running.id}:0:last")
        assert await refused(replay) == t("replay.unavailable", "en")
        assert not replay.message.embeds
