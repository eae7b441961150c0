"""Random-playout speed of each rules engine: games/s and choices/s.

    .venv/bin/python -m bench.engine [--seconds 3] [--game complots]

Each measurement plays uniformly random legal games (a random prompted
player, a random legal choice) for about ``--seconds`` and prints figures.
Nothing here is asserted: it is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from games.base import Game
from games.registry import GAMES


def player_counts(game: Game[Any, Any, Any, Any]) -> list[int]:
    """The smallest, the typical and the largest table."""
    return sorted({game.min_players, game.typical_players, game.max_players})


def play_one(game: Game[Any, Any, Any, Any], players: int, seed: int) -> int:
    """Plays one random game to its end; returns the number of choices applied."""
    rng = random.Random(seed)
    state = game.setup(players, game.options_model(), seed)
    choices = 0
    while game.result(state) is None:
        prompt = rng.choice(game.prompts(state))
        state, _ = game.apply(state, prompt.player, rng.choice(prompt.choices))
        choices += 1
    return choices


def measure(game: Game[Any, Any, Any, Any], players: int, seconds: float) -> tuple[int, int, float]:
    games = choices = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        choices += play_one(game, players, seed=games)
        games += 1
    return games, choices, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    args = parser.parse_args()
    print(
        f"{'game':<12}{'players':>8}{'games':>8}{'games/s':>10}{'choices/s':>11}{'choices/game':>14}"
    )
    for name in args.game or sorted(GAMES):
        for players in player_counts(GAMES[name]):
            games, choices, elapsed = measure(GAMES[name], players, args.seconds)
            print(
                f"{name:<12}{players:>8}{games:>8}{games / elapsed:>10.1f}"
                f"{choices / elapsed:>11.0f}{choices / games:>14.1f}"
            )


if __name__ == "__main__":
    main()
