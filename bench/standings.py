"""How fast standings answer with many recorded games.

    .venv/bin/python -m bench.standings [--games 100000] [--players 400] [--queries 300]

Fills a temp SQLite file with ``--games`` finished games of one guild (2-6
seats drawn from ``--players`` people, a computer now and then, random winners
and scores, the four games), written the way the bot writes them: each record,
with the ratings it moves, in its own transaction (``SqliteRepository.commit``
of the winning step). Then times, through the real repository (its database
thread included), what /leaderboard, /stats and /history read: the board and
the asker's place, a player's results and places, the latest records. Figures
only, with the machine's load; nothing is asserted. The goal: p99 under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.storage import (
    ActionKind,
    ActionRecord,
    GameOutcome,
    GameRecord,
    RecordSeat,
    SqliteRepository,
    TableStatus,
    Timeouts,
)
from games.registry import GAMES

GUILD = 1
TIMEOUTS = Timeouts(turn=60, reaction=20, choice=30)


async def fill(repo: SqliteRepository, games: int, players: int, rng: random.Random) -> None:
    names = sorted(GAMES)
    for number in range(games):
        seats = rng.sample(range(1, players + 1), rng.randint(2, 6))
        game = rng.choice(names)
        table = await repo.create_table(
            guild_id=GUILD,
            channel_id=10_000 + number,
            game=game,
            creator_id=seats[0],
            creator_name=f"p{seats[0]}",
            options_json="{}",
            timeouts=TIMEOUTS,
        )
        start = ActionRecord(table_id=table.id, version=0, kind=ActionKind.START, created_at=number)
        await repo.start_game(
            table.id,
            seed=number,
            state_json="{}",
            seat_order=[seats[0]],
            action=start,
            deadline=None,
        )
        await repo.commit(
            table.id,
            expected_version=0,
            state_json="{}",
            action=start.model_copy(update={"version": 1, "kind": ActionKind.TIMEOUT}),
            events=[],
            deadline=None,
            status=TableStatus.FINISHED,
            record=record_of(table.id, game, seats, number, rng),
        )


def record_of(
    table_id: int, game: str, users: list[int], number: int, rng: random.Random
) -> GameRecord:
    winner = rng.randrange(len(users))
    computer = rng.random() < 0.1
    seats = [
        RecordSeat(
            seat=i,
            user_id=-1 if computer and i == len(users) - 1 else user,
            name=f"p{user}",
            computer="normal" if computer and i == len(users) - 1 else None,
            winner=i == winner,
            score=rng.randint(0, 60) if game in ("bloody_inn", "conspiracy") else None,
        )
        for i, user in enumerate(users)
    ]
    return GameRecord(
        table_id=table_id,
        guild_id=GUILD,
        channel_id=10_000 + number,
        game=game,
        options_json="{}",
        outcome=GameOutcome.FINISHED,
        ended_at=float(number),
        steps=40,
        seats=seats,
    )


async def timed(what: Callable[[], Awaitable[object]], times: int) -> list[float]:
    spent = []
    for _ in range(times):
        begin = time.perf_counter()
        await what()
        spent.append((time.perf_counter() - begin) * 1000)
    return spent


def report(name: str, spent: list[float]) -> None:
    spent.sort()
    p99 = spent[min(len(spent) - 1, int(len(spent) * 0.99))]
    print(f"  {name:<28} p50 {statistics.median(spent):6.2f} ms  p99 {p99:6.2f} ms")


async def main(games: int, players: int, queries: int) -> None:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        repo = SqliteRepository(Path(folder) / "standings.sqlite3")
        await repo.open()
        try:
            begin = time.perf_counter()
            await fill(repo, games, players, rng)
            took = time.perf_counter() - begin
            print(f"{games} games recorded in {took:.1f} s ({games / took:.0f}/s)")
            print(f"load average before the queries: {os.getloadavg()}")

            def player() -> int:
                return rng.randint(1, players)

            def game() -> str:
                return rng.choice(sorted(GAMES))

            async def leaderboard() -> None:
                await repo.leaderboard(GUILD, game(), 10)
                await repo.standing(GUILD, game(), player())

            async def stats() -> None:
                user = player()
                for name in {r.game for r in await repo.results_of(GUILD, user)}:
                    await repo.standing(GUILD, name, user)

            async def history() -> None:
                await repo.recent_records(GUILD, game=rng.choice([None, game()]), limit=10)

            for name, query in (("/leaderboard", leaderboard), ("/stats", stats)):
                report(name, await timed(query, queries))
            report("/history", await timed(history, queries))
            print(f"load average after: {os.getloadavg()}")
        finally:
            await repo.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.players, args.queries))
