"""The replay message of full tables with long names stays within Discord's limits
at every step, in every language, and says which step it shows."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from importlib import import_module
from pathlib import Path

import discord
import pytest

from bot.languages import LANGUAGES
from bot.replays import load_replay
from bot.storage.models import Timeouts
from bot.storage.sqlite import SqliteRepository
from bot.tables import TableService
from bot.ui.i18n import t
from bot.ui.limits import EMBED_DESCRIPTION, EMBED_FIELDS, EMBED_TOTAL, FIELD_VALUE
from bot.ui.presenter import AnyPresenter
from bot.ui.replay_view import Replays, target
from games.registry import GAMES
from tests.bot.schedulers import NoScheduler

LONG_NAME = "*Very_long~name|with**marks*"


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    repo = SqliteRepository(tmp_path / "view.sqlite3")
    await repo.open()
    yield TableService(repo, NoScheduler(), seeds=lambda: 99)
    await repo.close()


def presenters() -> dict[str, AnyPresenter]:
    return {name: import_module(f"cogs.{name}").PRESENTER for name in GAMES}


async def full_finished_table(service: TableService, game: str) -> int:
    """A game of ``game`` with every seat taken by a long name, played at random."""
    snap = await service.create_table(
        guild_id=1,
        channel_id=3,
        game=game,
        creator_id=1,
        creator_name=f"{LONG_NAME}0",
        options=GAMES[game].options_model(),
        timeouts=Timeouts(turn=60, reaction=20, choice=30),
    )
    table = snap.table.id
    for user in range(2, GAMES[game].max_players + 1):
        await service.join(table, user, f"{LONG_NAME}{user}")
    await service.start(table, 1, moderator=False)
    rng = random.Random(game)
    while (snap := await service.snapshot(table)).table.status.value == "running":
        assert snap.state is not None and snap.version is not None
        prompt = rng.choice(snap.game.prompts(snap.state))
        user = snap.seats[prompt.player].user_id
        await service.act(table, snap.version, user, rng.choice(prompt.choices))
    return table


@pytest.mark.parametrize("game", list(GAMES))
async def test_every_step_fits_discord_in_every_language(service: TableService, game: str) -> None:
    table = await full_finished_table(service, game)
    replay = await load_replay(service.repo, table)
    replays = Replays(service.repo, presenters(), away_after=3)
    count = len(replay.steps)
    shown = sorted({*range(0, count, max(count // 6, 1)), count - 1})
    for locale in LANGUAGES:
        for index in shown:
            message = await replays.message(replay, index, locale)
            story, board = message.embeds
            assert sum(len(embed) for embed in message.embeds) <= EMBED_TOTAL
            for embed in message.embeds:
                assert len(embed.description or "") <= EMBED_DESCRIPTION
                assert len(embed.fields) <= EMBED_FIELDS
                assert all(len(f.value or "") <= FIELD_VALUE for f in embed.fields)
            heading = t("replay.step", locale, step=index + 1, steps=count)
            assert (story.description or "").startswith(f"**{heading}**")
            assert len(story.fields) == len(replay.seats), "every hand is shown"
            assert f"#{table}" in f"{board.title} {board.footer.text}", "the table as it stood"
            lines = "\n".join(
                [board.description or "", *(f.value or "" for f in board.fields)]
            ).splitlines()
            assert not [line for line in lines if line.rstrip().endswith("·")], (
                "no countdown runs in a replay: no separator is left for it"
            )
            assert (message.picture is not None) == presenters()[game].draws_picture
            assert [b.disabled for b in message.items if isinstance(b, discord.ui.Button)] == [
                index == 0,
                index == 0,
                index == count - 1,
                index == count - 1,
            ]


async def test_steps_out_of_range_clamp(service: TableService) -> None:
    table = await full_finished_table(service, "complots")
    replay = await load_replay(service.repo, table)
    last = len(replay.steps) - 1
    assert replay.step(target("prev", 0))[0] == 0
    assert replay.step(target("next", last))[0] == last
    assert replay.step(target("last", 0))[0] == last
    assert replay.step(target("next", 10**18))[0] == last
    assert replay.step(target("first", last))[0] == 0
