"""Random-playout speed of each rules engine, and the engine work of one bot step.

    .venv/bin/python -m bench.engine [--seconds 3] [--game complots]

Two measurements per game and table size, about ``--seconds`` each:

* **playouts**: uniformly random legal games (a random prompted player, a random
  legal choice) played to their end: games/s and choices/s.
* **bot step**: the engine work the bot does for one click, in random games: who
  is awaited, the clicker's prompt, the click's choice decoded anew (as from a
  button), ``apply``, ``result``, the new prompts (the deadline), the spectator's
  view (the table message) and one awaited seat's view (its panel). Steps/s and
  microseconds per step.

The machine's load average is printed before and after (figures from a loaded
machine are not comparable). Nothing here is asserted: it is a measurement, not
a test.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from typing import Any

from games.base import Game
from games.registry import GAMES

AnyGame = Game[Any, Any, Any, Any]


def player_counts(game: AnyGame) -> list[int]:
    """The smallest, the typical and the largest table."""
    return sorted({game.min_players, game.typical_players, game.max_players})


def play_one(game: AnyGame, players: int, seed: int) -> int:
    """Plays one random game to its end; returns the number of choices applied."""
    rng = random.Random(seed)
    state = game.setup(players, game.options_model(), seed)
    choices = 0
    while game.result(state) is None:
        prompt = rng.choice(game.prompts(state))
        state, _ = game.apply(state, prompt.player, rng.choice(prompt.choices))
        choices += 1
    return choices


def bot_steps(game: AnyGame, players: int, seed: int) -> int:
    """Plays one random game to its end as the bot would click through it; returns
    the number of steps."""
    rng = random.Random(seed)
    state = game.setup(players, game.options_model(), seed)
    steps = 0
    while game.result(state) is None:
        seat = rng.choice(game.awaiting(state))
        prompt = game.prompt_for(state, seat)
        assert prompt is not None
        clicked = rng.choice(prompt.choices)
        choice = game.choice_adapter.validate_python(clicked.model_dump())
        state, _ = game.apply(state, seat, choice)
        game.result(state)
        prompts = game.prompts(state)
        game.view(state, None)
        if prompts:
            game.view(state, rng.choice(prompts).player)
        steps += 1
    return steps


def measure(
    run: Callable[[AnyGame, int, int], int], game: AnyGame, players: int, seconds: float
) -> tuple[int, int, float]:
    """(games, choices or steps, elapsed seconds) of ``run`` repeated for ``seconds``."""
    games = choices = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        choices += run(game, players, games)
        games += 1
    return games, choices, elapsed


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} ({os.cpu_count()} CPUs)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    args = parser.parse_args()
    print(load())
    print(
        f"{'game':<12}{'players':>8}{'games':>8}{'games/s':>10}{'choices/s':>11}"
        f"{'choices/game':>14}{'bot steps/s':>13}{'µs/step':>9}"
    )
    for name in args.game or sorted(GAMES):
        for players in player_counts(GAMES[name]):
            games, choices, elapsed = measure(play_one, GAMES[name], players, args.seconds)
            _, steps, bot_elapsed = measure(bot_steps, GAMES[name], players, args.seconds)
            print(
                f"{name:<12}{players:>8}{games:>8}{games / elapsed:>10.1f}"
                f"{choices / elapsed:>11.0f}{choices / games:>14.1f}"
                f"{steps / bot_elapsed:>13.0f}{1e6 * bot_elapsed / steps:>9.0f}"
            )
    print(load())


if __name__ == "__main__":
    main()
