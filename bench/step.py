"""The cost of one engine step for search: ``apply`` (copies the state) against
``apply_in_place`` (steps a private copy), in random playouts of each game.

    .venv/bin/python -m bench.step [--seconds 2] [--game complots]

Both walk the same random games (same seeds, same choices); the figures are
microseconds per applied choice, prompts included. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from games.base import Game, copy_state
from games.registry import GAMES

AnyGame = Game[Any, Any, Any, Any]


def walk(game: AnyGame, players: int, seed: int, in_place: bool) -> int:
    """One random game to its end; the number of choices applied."""
    rng = random.Random(seed)
    state = game.setup(players, game.options_model(), seed)
    if in_place:
        state = copy_state(state)
    steps = 0
    while game.result(state) is None:
        prompt = rng.choice(game.prompts(state))
        choice = rng.choice(prompt.choices)
        if in_place:
            game.apply_in_place(state, prompt.player, choice)
        else:
            state, _ = game.apply(state, prompt.player, choice)
        steps += 1
    return steps


def per_step(game: AnyGame, players: int, seconds: float, in_place: bool) -> float:
    started = time.perf_counter()
    steps = seed = 0
    while time.perf_counter() - started < seconds:
        steps += walk(game, players, seed, in_place)
        seed += 1
    return (time.perf_counter() - started) / steps * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    args = parser.parse_args()
    for name in args.game or list(GAMES):
        game = GAMES[name]
        players = max(2, game.typical_players)
        copied = per_step(game, players, args.seconds, in_place=False)
        owned = per_step(game, players, args.seconds, in_place=True)
        print(
            f"{name:<11} {players} players: apply {copied:6.1f} us/step"
            f"   apply_in_place {owned:6.1f} us/step   ({copied / owned:.2f}x)"
        )


if __name__ == "__main__":
    main()
