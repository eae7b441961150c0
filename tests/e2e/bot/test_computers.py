"""Computer players on Discord: seated from the lobby, playing whole games with
one person, and standing in for a person who stopped answering."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest

from bot.storage.models import TableStatus
from bot.ui.i18n import t
from games.ai import Level
from games.complots import ActionKind
from games.complots.models import Act, Pass
from tests.e2e.fake_discord.components import labels

from .harness import Table, World, answer_text

COMPUTERS = ("🤖 Ada", "🤖 Babbage", "🤖 Turing")


def channel_text(world: World) -> str:
    return "\n".join(m.content or "" for m in world.fake.channel_messages(world.channel))


async def open_lobby(world: World, bot: Any) -> Table:
    record = await world.fake.slash(world.players[0], world.channel, "complots")
    await record.wait_response()
    found = await bot.tables.table_in_channel(world.channel.id)
    assert found is not None
    table = Table(world, bot, found.id)
    await table.settle()
    return table


async def click(table: Table, user: Any, label: str) -> Any:
    record = await table.click_label(user, label)
    await record.wait_response()
    await table.settle()
    return record


async def choose_level(table: Table, user: Any, level: str) -> Any:
    """``user`` picks the computers' level in the lobby's level menu."""
    record = await table.fake.select(
        user, await table.message(), f"gs:{table.id}:0:ui.level", [level]
    )
    await record.wait_response()
    await table.settle()
    return record


async def wait_for_seat(table: Table, seat: int) -> bool:
    """Until ``seat`` is asked something no computer answers; False once the game is over."""
    service = table.bot.tables
    game = service.game("complots")

    async def ready() -> bool | None:
        snap = await service.snapshot(table.id)
        if game.result(snap.state) is not None:
            return False
        if seat in game.awaiting(snap.state) and not service.computers_awaited(snap):
            return True
        return None

    started = time.monotonic()
    while (outcome := await ready()) is None:
        assert time.monotonic() - started < 10, "the computers stopped playing"
        await asyncio.sleep(0.01)
    await table.settle()
    return outcome


async def test_one_person_and_three_computers_play_a_whole_game(world: World) -> None:
    fake = world.fake
    alice, bob = world.players[:2]
    async with fake.running(world.bot(computer_delay=0.0)) as bot:
        table = await open_lobby(world, bot)
        lobby = await table.message()
        assert {"Add computer", "Remove computer"} <= set(labels(lobby))
        assert "Computer level: **Normal**" in lobby.embeds[0]["fields"][1]["value"]

        refused = await click(table, bob, "Add computer")
        assert refused.ephemeral and "Only the table's creator" in refused.content
        refused = await click(table, alice, "Remove computer")
        assert refused.ephemeral and "no computer player" in refused.content

        refused = await choose_level(table, bob, "easy")
        assert refused.ephemeral and "Only the table's creator" in refused.content
        for forged_level in ("random", "godlike"):
            forged = await world.fake.forge(
                alice, await table.message(), f"gs:{table.id}:0:ui.level", values=[forged_level]
            )
            assert await answer_text(forged) == t("refusal.not_allowed", "en")
        assert (await bot.tables.snapshot(table.id)).table.computer_level == "normal"
        await click(table, alice, "Add computer")
        await click(table, alice, "Add computer")
        await choose_level(table, alice, "easy")
        options = (await table.message()).embeds[0]["fields"][1]["value"]
        assert "Computer level: **Easy**" in options
        await click(table, alice, "Add computer")
        await click(table, alice, "Add computer")
        await click(table, alice, "Remove computer")
        seats = (await table.message()).embeds[0]["fields"][0]["value"]
        assert seats.splitlines()[1:] == [
            "2. 🤖 Ada · computer, normal",
            "3. 🤖 Babbage · computer, normal",
            "4. 🤖 Turing · computer, easy",
        ]

        options = (await table.message()).embeds[0]["fields"][1]["value"]
        assert "A computer plays for players away" in options, "take-over is on by default"
        refused = await click(table, bob, "No take-over")
        assert refused.ephemeral and "Only the table's creator" in refused.content
        await click(table, alice, "No take-over")
        options = (await table.message()).embeds[0]["fields"][1]["value"]
        assert "Players away are not replaced" in options
        await click(table, alice, "Computer takes over away players")
        assert (await bot.tables.snapshot(table.id)).table.takeover

        start = await click(table, alice, "Start")
        assert start.response_type in (6, 7)
        rng = random.Random(11)
        game = bot.tables.game("complots")
        for _ in range(300):
            if not await wait_for_seat(table, 0):
                break
            prompt = game.prompt_for(await table.state(), 0)
            assert prompt is not None
            await table.play(0, rng.choice(prompt.choices))  # also checks for leaks
        assert await table.status() is TableStatus.FINISHED
        await table.settle()
        final = (await table.message()).embeds[0]

    assert "🤖 Ada" in str(final)
    text = channel_text(world)
    assert all(name in text for name in COMPUTERS), "the computers' moves are told publicly"
    assert "wins the game" in text
    assert fake.dms(alice), "the person got its cards by DM"
    assert not any(user_id < 0 for user_id, _ in fake.store.rejected_dms)


async def test_a_computer_takes_over_an_away_player_who_then_takes_the_seat_back(
    world: World,
) -> None:
    fake = world.fake
    alice, bob = world.players[:2]
    async with fake.running(world.bot(away_after=2, computer_delay=0.0)) as bot:
        table = await open_lobby(world, bot)
        await click(table, bob, "Join")
        await choose_level(table, alice, "easy")
        await click(table, alice, "Add computer")
        await click(table, alice, "Start")
        service = bot.tables
        game = service.game("complots")

        async def play_until(done: Any) -> None:
            """Alice answers simply, computers play, bob's prompts time out, until
            ``done(snapshot)``."""
            for _ in range(200):
                snap = await service.snapshot(table.id)
                if await done(snap):
                    return
                awaiting = game.awaiting(snap.state)
                if service.computers_awaited(snap):
                    await asyncio.sleep(0.01)
                elif 0 in awaiting:
                    await table.play(0, simple_choice(game.prompt_for(snap.state, 0)))
                else:
                    await expire(table, bot)
            raise AssertionError("that never happened")

        async def bobs_turn(snap: Any) -> bool:
            prompt = game.prompt_for(snap.state, 1)
            return prompt is not None and prompt.kind.value == "turn"

        async def strikes(count: int) -> Any:
            async def reached(snap: Any) -> bool:
                return bool(snap.seats[1].away_strikes == count)

            return reached

        await play_until(await strikes(2))
        await table.settle()
        assert "**bob** missed several turns: a computer plays for them" in channel_text(world)

        async def computer_played_bob(snap: Any) -> bool:
            actions = await bot.repo.actions(table.id)
            return any(a.kind.value == "computer" and a.seat == 1 for a in actions)

        snap = await service.snapshot(table.id)
        assert service.computer_level(snap, snap.seats[1]) is Level.EASY, "the table's level"
        await play_until(computer_played_bob)
        await table.settle()
        assert "bob 🤖" in channel_text(world), "the log tells who played for bob"
        assert "bob 🤖" in (await table.message()).embeds[0]["description"], (
            "the table shows who a computer plays for"
        )

        hand = await click(table, bob, "My hand")
        assert hand.ephemeral
        assert "**bob** is back" in channel_text(world)
        assert (await bot.repo.seats(table.id))[1].away_strikes == 0
        await table.settle()
        shown = (await table.message()).embeds[0]["description"]
        assert "bob 🤖" not in shown and "away" not in shown, "the table shows bob back"
        await play_until(bobs_turn)
        snap = await service.snapshot(table.id)
        assert not service.computers_awaited(snap), "bob's seat is his own: nobody plays it"
        await table.play(1, Act(action=ActionKind.INCOME))


def simple_choice(prompt: Any) -> Any:
    """Pass when asked to react, take income on a turn, else the first choice."""
    for choice in prompt.choices:
        if choice == Pass() or choice == Act(action=ActionKind.INCOME):
            return choice
    return prompt.choices[0]


async def expire(table: Table, bot: Any) -> None:
    """The open window's deadline passes now."""
    service = bot.tables
    deadline = service._deadlines[table.id]
    bot.scheduler.arm(deadline.model_copy(update={"due_at": time.time()}))
    version = (await service.snapshot(table.id)).version
    await table.world.fake.wait_for(
        lambda: service._cache.get(table.id) is None or service._cache[table.id].version != version,
        timeout=5,
        what="the window to time out",
    )
    await table.settle()


async def test_computers_pick_up_where_they_were_after_a_restart(world: World) -> None:
    fake = world.fake
    alice = world.players[0]
    async with fake.running(world.bot(computer_delay=30)) as bot:
        table = await open_lobby(world, bot)
        await click(table, alice, "Add computer")
        await click(table, alice, "Add computer")
        await click(table, alice, "Start")
        service = bot.tables
        game = service.game("complots")
        for _ in range(20):
            snap = await service.snapshot(table.id)
            if service.computers_awaited(snap):
                break
            await table.play(0, simple_choice(game.prompt_for(snap.state, 0)))
        assert service.computers_awaited(snap), "a computer is to move when the bot stops"
        stopped_at = snap.version

    async with fake.running(world.bot(computer_delay=0.0)) as bot:
        table = Table(world, bot, table.id)
        await wait_for_seat(table, 0)
        snap = await bot.tables.snapshot(table.id)
        assert snap.version is not None and stopped_at is not None
        assert snap.version > stopped_at, "the new process played the waiting computer's move"
        actions = await bot.repo.actions(table.id)
        assert actions[stopped_at + 1].kind.value == "computer"


@pytest.mark.parametrize(
    ("game", "players"), [("mascarade", 6), ("bloody_inn", 4), ("conspiracy", 4)]
)
async def test_computers_finish_every_game_on_discord(
    world: World, game: str, players: int
) -> None:
    """The other games' tables with computer seats: the person is removed by a
    moderator right after the start, and the computers play on to the end, every
    step rendered (pictures included) with no error logged."""
    fake = world.fake
    alice = world.players[0]
    async with fake.running(world.bot(computer_delay=0.0)) as bot:
        record = await fake.slash(alice, world.channel, game)
        await record.wait_response()
        found = await bot.tables.table_in_channel(world.channel.id)
        assert found is not None
        table = Table(world, bot, found.id)
        await table.settle()
        for _ in range(players - 1):
            await click(table, alice, "Add computer")
        await click(table, alice, "Start")
        removed = await fake.slash(
            world.moderator, world.channel, "mod", "remove", table=table.id, player=alice
        )
        await removed.wait_response()
        started = time.monotonic()
        while await table.status() is TableStatus.RUNNING:
            assert time.monotonic() - started < 120, "the computers did not finish"
            await asyncio.sleep(0.05)
        await table.settle()
        final = await table.message()
        actions = await bot.repo.actions(table.id)
    by_computers = [a for a in actions if a.kind.value == "computer"]
    assert len(by_computers) >= 20 and {a.seat for a in by_computers} == set(range(1, players))
    assert "Rematch" in labels(final), "the game finished (only finished games offer it)"
    text = channel_text(world)
    assert "🤖 Ada" in text and "🤖 Babbage" in text
    assert not any(user_id < 0 for user_id, _ in fake.store.rejected_dms)


async def test_hard_computers_think_in_a_worker_and_play_a_game_to_its_end(
    world: World,
) -> None:
    fake = world.fake
    alice = world.players[0]
    settings = {"computer_delay": 0.0, "computer_think": 0.05}
    async with fake.running(world.bot(**settings)) as bot:
        table = await open_lobby(world, bot)
        await choose_level(table, alice, "hard")
        await click(table, alice, "Add computer")
        await click(table, alice, "Add computer")
        seats = (await table.message()).embeds[0]["fields"][0]["value"]
        assert seats.count("computer, hard") == 2
        await click(table, alice, "Start")
        game = bot.tables.game("complots")
        for _ in range(300):
            if not await wait_for_seat(table, 0):
                break
            prompt = game.prompt_for(await table.state(), 0)
            assert prompt is not None
            await table.play(0, simple_choice(prompt))
        assert await table.status() is TableStatus.FINISHED
        moves = [a for a in await bot.repo.actions(table.id) if a.kind.value == "computer"]
        assert {a.seat for a in moves} == {1, 2}, "both computers played"
        assert bot.tables.thinker._pool is not None, "they thought in a worker process"
