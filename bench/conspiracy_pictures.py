"""How long drawing the Conspiracy table picture takes, and how big the PNG is.

    .venv/bin/python -m bench.conspiracy_pictures [--states 200] [--players 2 --players 4]
        [--save /tmp/conspiracy_table.png]

States are sampled evenly from random legal games (a random prompted player, a
random legal choice) and drawn one after another in this process, as the
renderer's worker thread does: the spectator view, then the PNG. Prints the
mean, median, p95 and max drawing time and the PNG sizes. Nothing here is
asserted: it is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from cogs.conspiracy.picture import draw
from games.conspiracy import GAME, ConspiracyOptions, ConspiracyState

NAMES = ["alice", "Bérénice", "carol", "dave"]


def one_game(players: int, seed: int) -> list[ConspiracyState]:
    """Every state of one random legal game."""
    rng = random.Random(seed)
    state = GAME.setup(players, ConspiracyOptions(), seed)
    game = [state]
    while GAME.result(state) is None:
        prompt = rng.choice(GAME.prompts(state))
        state, _ = GAME.apply(state, prompt.player, rng.choice(prompt.choices))
        game.append(state)
    return game


def sample_states(players: int, count: int, seed: int = 0) -> list[ConspiracyState]:
    """``count`` states, about 25 from each random game, spread over the games."""
    states: list[ConspiracyState] = []
    while len(states) < count:
        game = one_game(players, seed)
        states.extend(game[:: max(1, len(game) // 25)])
        seed += 1
    return states[:count]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--states", type=int, default=200)
    parser.add_argument("--players", type=int, action="append", choices=(2, 3, 4))
    parser.add_argument("--save", type=Path, help="also save one late picture (4 players)")
    args = parser.parse_args()
    draw(GAME.view(GAME.setup(2, ConspiracyOptions(), 0), None), NAMES[:2])  # load the fonts
    print(
        f"{'players':>7}{'states':>8}{'mean ms':>9}{'median':>8}{'p95 ms':>8}{'max ms':>8}"
        f"{'PNG mean':>10}{'PNG max':>9}"
    )
    for players in args.players or [2, 4]:
        times: list[float] = []
        sizes: list[int] = []
        for state in sample_states(players, args.states):
            start = time.perf_counter()
            png = draw(GAME.view(state, None), NAMES[:players])
            times.append((time.perf_counter() - start) * 1000)
            sizes.append(len(png))
        print(
            f"{players:>7}{len(times):>8}{statistics.mean(times):>9.1f}"
            f"{statistics.median(times):>8.1f}{percentile(times, 0.95):>8.1f}{max(times):>8.1f}"
            f"{statistics.mean(sizes) / 1024:>8.0f}kB{max(sizes) / 1024:>7.0f}kB"
        )
    if args.save:
        game = one_game(4, seed=5)
        state = game[len(game) * 3 // 4]
        args.save.write_bytes(draw(GAME.view(state, None), NAMES))
        print(f"saved {args.save}")


if __name__ == "__main__":
    main()
