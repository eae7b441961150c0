"""Two service instances (two processes, as with sharding) on one SQLite file,
clicking the same tables at once: every accepted click was made on the window it
was applied in, none is applied twice, and the stored log replays to the stored
state. Each instance sees the other's steps only through the database."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.storage.models import ActionKind, Timeouts
from bot.storage.sqlite import SqliteRepository
from bot.tables import Refusal, TableService
from games.base import GameState
from games.entry import AnyGame
from games.registry import GAMES
from tests.bot.schedulers import NoScheduler

USERS = [201, 202, 203, 204]
TIMEOUTS = Timeouts(turn=60, reaction=20, choice=30)
ROUNDS = 120
SEED = 4242


@dataclass
class Click:
    user: int
    version: int
    choice: Any
    applied_at: int | None = None
    """The version the click produced, if it was accepted."""


@pytest.fixture
async def services(tmp_path: Path) -> AsyncIterator[tuple[TableService, TableService]]:
    repos = [SqliteRepository(tmp_path / "shared.sqlite3") for _ in range(2)]
    for repo in repos:
        await repo.open()
    yield TableService(repos[0], NoScheduler()), TableService(repos[1], NoScheduler())
    for repo in repos:
        await repo.close()


async def started_table(service: TableService, game: str, channel: int, seed: int) -> int:
    options = GAMES[game].options_model()
    snap = await service.create_table(
        guild_id=1,
        channel_id=channel,
        game=game,
        creator_id=USERS[0],
        creator_name="u0",
        options=options,
        timeouts=TIMEOUTS,
    )
    table = snap.table.id
    for i, user in enumerate(USERS[1:], start=1):
        await service.join(table, user, f"u{i}")
    service.seeds = lambda: seed
    await service.start(table, USERS[0], moderator=False)
    return table


async def one_click(service: TableService, table: int, rng: random.Random) -> list[Click]:
    """What a player of ``service``'s process would click now: a choice of some
    prompted seat, on the version its (possibly stale) copy shows; sometimes an
    older version, sometimes the same click twice."""
    snap = await service.snapshot(table)
    if snap.state is None or snap.table.status.value != "running":
        return []
    game = snap.game
    prompts = game.prompts(snap.state)
    if not prompts:
        return []
    prompt = rng.choice(prompts)
    version = snap.version or 0
    if rng.random() < 0.2 and version:
        version -= rng.randint(1, min(version, 3))
    click = Click(snap.seats[prompt.player].user_id, version, rng.choice(prompt.choices))
    return (
        [click, Click(click.user, click.version, click.choice)] if rng.random() < 0.2 else [click]
    )


async def send(service: TableService, table: int, click: Click) -> None:
    try:
        snap = await service.act(table, click.version, click.user, click.choice)
    except Refusal:
        return
    click.applied_at = snap.version


def replay(game: AnyGame, seed: int, players: int, actions: list[Any]) -> list[GameState]:
    """The state after every stored version, from the seed and the action log."""
    state = game.setup(players, game.options_model(), seed)
    states = [state]
    for action in actions[1:]:
        if action.kind in (ActionKind.CHOICE, ActionKind.COMPUTER):
            state, _ = game.apply(state, action.seat, game.parse_choice(action.choice_json))
        elif action.kind is ActionKind.TIMEOUT:
            state, _ = game.timeout(state)
        else:
            raise AssertionError(f"unexpected action {action.kind}")
        states.append(state)
    return states


def window(game: AnyGame, state: GameState) -> str | None:
    prompts = game.prompts(state)
    return prompts[0].window if prompts else None


@pytest.mark.parametrize("game_name", ["complots", "bloody_inn"])
async def test_two_writers_apply_each_click_once_and_never_a_stale_one(
    services: tuple[TableService, TableService], game_name: str
) -> None:
    rng = random.Random(game_name)
    first, second = services
    channels = iter(range(10, 1000))
    tables = [await started_table(first, game_name, next(channels), SEED) for _ in range(2)]
    played: dict[int, list[Click]] = {table: [] for table in tables}
    for _ in range(ROUNDS):
        batch = []
        for table in list(tables):
            clicks = [c for s in (first, second) for c in await one_click(s, table, rng)]
            if not clicks:  # the game is over: another table takes its place
                tables.remove(table)
                tables.append(await started_table(first, game_name, next(channels), SEED))
                played[tables[-1]] = []
                continue
            for click in clicks:
                played[table].append(click)
                batch.append(send(rng.choice((first, second)), table, click))
        rng.shuffle(batch)
        await asyncio.gather(*batch)
    accepted = sum(c.applied_at is not None for cs in played.values() for c in cs)
    refused = sum(c.applied_at is None for cs in played.values() for c in cs)
    assert accepted >= ROUNDS and refused >= ROUNDS // 4, "both kinds of clicks are exercised"
    for table, clicks in played.items():
        await check_table(first, GAMES[game_name], table, clicks)


async def check_table(
    service: TableService, game: AnyGame, table: int, clicks: list[Click]
) -> None:
    """The log is gap-free and replays to the stored state; every accepted click is
    one stored choice, made on the window it was applied in."""
    actions = await service.repo.actions(table)
    assert [a.version for a in actions] == list(range(len(actions))), "a gap-free log"
    states = replay(game, SEED, len(USERS), actions)
    stored = await service.repo.load_state(table)
    assert stored is not None and stored.version == len(actions) - 1
    assert states[-1].model_dump_json() == stored.state_json, "the log replays to the state"
    produced: set[int] = set()
    for click in clicks:
        if click.applied_at is None:
            continue
        assert click.applied_at not in produced, "two accepted clicks produced one version"
        produced.add(click.applied_at)
        action = actions[click.applied_at]
        assert action.kind is ActionKind.CHOICE and action.user_id == click.user
        assert game.parse_choice(action.choice_json or "") == click.choice
        made_on = window(game, states[click.version])
        applied_on = window(game, states[click.applied_at - 1])
        assert made_on == applied_on, (
            f"table {table}: a click made at v{click.version} ({made_on}) was applied"
            f" at v{click.applied_at} ({applied_on})"
        )
