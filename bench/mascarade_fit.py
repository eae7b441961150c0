"""Fit Mascarade's estimate of who wins an unfinished game (games/mascarade/odds.py).

    .venv/bin/python -m bench.mascarade_fit [--games 800] [--test 300] [--players 4 6 10]

Plays the view-only NORMAL against itself (as HARD's simulations play; seeds 1 to
``--games`` to fit, ``--test`` seeds from 1,000,000 on to check), records every
player's ``odds.FEATURES`` at every turn start with who won in the end (a win
shared by k counts 1/k to each), fits a conditional logit per player count
(bench.conspiracy_fit's Newton's method) and prints the held-out log-loss of the
fit against the old estimate (the coins' softmax, scale 2) and a coin, then the
coefficients to paste into ``odds.COEFFICIENTS``.

Fitted with the defaults (seeds 1-800, held out 1,000,000-1,000,299), held-out
log-loss per turn start, fitted / coins' softmax / coin: 4 players 1.215 / 1.296 /
1.386 (5,355 turn starts); 6 players 1.662 / 1.883 / 1.792 (8,342); 10 players
1.979 / 2.433 / 2.303 (10,796). The coins' softmax, HARD's cut-off until then, was
worse than a coin from 6 players on.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from bench.conspiracy_fit import Snapshot, fit_and_print, mean_losses
from games.ai import decision_rng
from games.mascarade import GAME
from games.mascarade.ai import NormalPolicy
from games.mascarade.models import MascaradeOptions, MascaradeState, Stage
from games.mascarade.odds import FEATURES, features
from games.search import softmax_share

TEST_SEEDS_FROM = 1_000_000
OLD_SCALE = 2.0
"""The old estimate's coins of lead per factor e."""
LONGEST = 5000
"""Choices after which a self-play game is dropped (a cycle)."""


def coin_softmax(state: MascaradeState, seat: int) -> float:
    values = [float(c) if p else -1e3 for c, p in zip(state.coins, state.in_play, strict=True)]
    return softmax_share(values, seat, OLD_SCALE)


def play(players: int, seed: int) -> list[Snapshot]:
    """One self-play game (seat order as tests.games.playouts), seen at every turn start."""
    normal = NormalPolicy()
    state = GAME.setup(players, MascaradeOptions(), seed)
    order = random.Random(seed ^ 0x5EED)
    seen: list[Snapshot] = []
    last_turn = 0
    for _ in range(LONGEST):
        result = GAME.result(state)
        if result is not None:
            won = [
                1.0 / len(result.winners) if p in result.winners else 0.0 for p in range(players)
            ]
            for snapshot in seen:
                snapshot.won = won
            return seen
        if state.stage is Stage.TURN and state.turn_number != last_turn:
            last_turn = state.turn_number
            rows = [features(state, p) for p in range(players)]
            old = [coin_softmax(state, p) for p in range(players)]
            seen.append(Snapshot(rows, old, [], 1.0))
        seat = order.choice(GAME.awaiting(state))
        choice = normal.choose(GAME.view(state, seat), decision_rng(seed, state.step, seat))
        GAME.apply_in_place(state, seat, choice)
    return []


def dataset(players: int, seeds: range) -> list[Snapshot]:
    return [snapshot for seed in seeds for snapshot in play(players, seed)]


def report(players: int, data: Sequence[Snapshot], coefficients: Sequence[float]) -> None:
    fitted, old, base = mean_losses(players, data, coefficients)
    print(
        f"{players} players, held out ({len(data)} turn starts): log-loss fitted {fitted:.4f},"
        f" coins' softmax {old:.4f}, coin {base:.4f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=800)
    parser.add_argument("--test", type=int, default=300)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 6, 10])
    fit_and_print(parser.parse_args(), dataset, FEATURES, report, 12, TEST_SEEDS_FROM)


if __name__ == "__main__":
    main()
