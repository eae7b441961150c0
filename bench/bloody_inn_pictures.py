"""Time to draw the picture of The Bloody Inn, and its PNG size.

    .venv/bin/python -m bench.bloody_inn_pictures [--games 4] [--every 3]

For 1, 2 and 4 players, random games (uniformly random legal choices; every
other game with rich players, so that annexes and corpses pile up) are played
and every ``--every``-th state is drawn the way the renderer does it (spectator
view, then the PNG). Prints the mean and 95th percentile drawing time, and the
PNG size. Nothing here is asserted: it is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from cogs.bloody_inn.picture import draw, palette
from games.bloody_inn import GAME, BloodyInnOptions, BloodyInnState

NAMES = ["alice", "bob", "carol", "dave"]


def states_of_game(players: int, seed: int, rich: bool) -> list[BloodyInnState]:
    rng = random.Random(seed)
    state = GAME.setup(players, BloodyInnOptions(), seed)
    if rich:  # more travellers in hand and more money: more annexes and corpses
        for player in state.players:
            player.hand += [state.entrance.pop(0) for _ in range(6)]
            player.money = 30
    states = [state]
    while GAME.result(state) is None:
        prompt = GAME.prompts(state)[0]
        state, _ = GAME.apply(state, prompt.player, rng.choice(prompt.choices))
        states.append(state)
    return states


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per player count")
    parser.add_argument("--every", type=int, default=3, help="draw every n-th state")
    args = parser.parse_args()
    palette()  # built once per process; not part of a drawing
    draw(GAME.view(GAME.setup(2, BloodyInnOptions(), 0), None), NAMES[:2])  # fonts loaded
    print(
        f"{'players':>7}{'pictures':>10}{'mean ms':>9}{'p95 ms':>8}{'max ms':>8}"
        f"{'mean KB':>9}{'max KB':>8}{'height px':>11}"
    )
    for players in (1, 2, 4):
        times: list[float] = []
        sizes: list[int] = []
        heights: set[int] = set()
        for game in range(args.games):
            states = states_of_game(players, seed=game, rich=game % 2 == 1)
            for state in states[:: args.every]:
                view = GAME.view(state, None)
                start = time.perf_counter()
                png = draw(view, NAMES[:players])
                times.append((time.perf_counter() - start) * 1000)
                sizes.append(len(png))
                heights.add(int.from_bytes(png[20:24], "big"))  # the IHDR height
        print(
            f"{players:>7}{len(times):>10}{statistics.mean(times):>9.1f}"
            f"{percentile(times, 0.95):>8.1f}{max(times):>8.1f}"
            f"{statistics.mean(sizes) / 1024:>9.1f}{max(sizes) / 1024:>8.1f}"
            f"{min(heights):>6}-{max(heights)}"
        )


if __name__ == "__main__":
    main()
