"""HARD computers of several tables asked at once: how long each waits for its move.

    .venv/bin/python -m bench.thinking [--tables 6] [--workers 1] [--budget 1.0]
        [--game mascarade] [--rounds 3]

``--tables`` HARD questions (mid-game views of different games of ``--game``) go to
one ``bot.thinking.Thinker`` at the same moment, as when that many tables' computers
are asked together; each round prints the seconds from asking to the answer (min,
median, max) and how many questions waited over half their budget for a worker.
The bot waits ``COMPUTER_DELAY`` (1.5 s) before a computer's move, thinking
meanwhile: an answer later than that is a late move. Nothing is asserted.

First, the first question after the thinker starts, with cold workers (they start
when asked) and with workers warmed beforehand (``Thinker.warm``, as the bot does
when a searching computer is seated or its game starts): seconds to the answer,
and whether it waited for its worker over half its budget (then it thinks less).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time

from bot.thinking import Thinker
from games.ai import Level, decision_rng
from games.base import Event, View
from games.registry import GAMES, policy_for


def mid_game(game_name: str, seed: int) -> tuple[View, list[Event]]:
    """A view of a NORMAL game ``seed`` some turns in, whose seat is asked, with its
    visible history."""
    game = GAMES[game_name]
    normal = policy_for(game_name, Level.NORMAL)
    state = game.setup(min(4, game.max_players), game.options_model(), seed)
    history: list[Event] = []
    for _ in range(random.Random(seed).randint(8, 20)):
        seat = game.awaiting(state)[0]
        choice = normal.choose(game.view(state, seat), decision_rng(seed, state.step, seat))
        after, events = game.apply(state, seat, choice)
        if game.result(after) is not None:
            break
        state, history = after, history + list(events)
    seat = game.awaiting(state)[0]
    return game.view(state, seat), [e for e in history if e.visible_to(seat)]


async def round_of(thinker: Thinker, game: str, questions: list[tuple[View, list[Event]]]) -> None:
    async def ask(index: int, view: View, history: list[Event]) -> float:
        asked = time.perf_counter()
        await thinker.choose(game, Level.HARD, view, decision_rng(index, 1, 0), history)
        return time.perf_counter() - asked

    rushed = thinker.rushed
    asking = (ask(index, view, history) for index, (view, history) in enumerate(questions))
    waits = sorted(await asyncio.gather(*asking))
    print(
        f"  {len(waits)} questions: answered after min {waits[0]:.2f} s,"
        f" median {statistics.median(waits):.2f} s, max {waits[-1]:.2f} s;"
        f" {thinker.rushed - rushed} waited over half their budget"
    )


async def first_question(game: str, budget: float, view: View, history: list[Event]) -> None:
    for warmed in (False, True):
        thinker = Thinker(workers=1, budget=budget)
        try:
            if warmed:
                for future in thinker.warm(game, Level.HARD):
                    await asyncio.wrap_future(future)
            asked = time.perf_counter()
            await thinker.choose(game, Level.HARD, view, random.Random(0), history)
            seconds = time.perf_counter() - asked
        finally:
            thinker.close()
        print(
            f"  first question, {'warmed' if warmed else 'cold'} worker: answered after"
            f" {seconds:.2f} s{', short of its budget' if thinker.rushed else ''}"
        )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--game", choices=sorted(GAMES), default="mascarade")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    questions = [mid_game(args.game, seed) for seed in range(args.tables)]
    print(
        f"{args.tables} HARD questions of {args.game} at once, {args.workers} worker(s),"
        f" {args.budget} s budget; load {os.getloadavg()[0]:.1f}"
    )
    await first_question(args.game, args.budget, *questions[0])
    thinker = Thinker(workers=args.workers, budget=args.budget)
    try:
        view, history = questions[0]  # a first question starts the worker
        await thinker.choose(args.game, Level.HARD, view, random.Random(0), history)
        for _ in range(args.rounds):
            await round_of(thinker, args.game, questions)
    finally:
        thinker.close()


if __name__ == "__main__":
    asyncio.run(main())
