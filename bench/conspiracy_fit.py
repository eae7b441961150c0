"""Fit Conspiracy's estimate of who wins an unfinished game (games/conspiracy/odds.py).

    .venv/bin/python -m bench.conspiracy_fit [--games 2000] [--test 600] [--players 2 3 4]

Plays NORMAL against NORMAL (seeds 1 to ``--games`` to fit, the ``--test`` seeds
from 1,000,001 on to check), records every player's ``odds.FEATURES`` at every turn
start with who won in the end (a win shared by k counts 1/k to each), fits a
conditional logit (softmax over the players) per player count by Newton's method
with a little ridge, and prints the held-out log-loss of the fit against NORMAL's
own ``ai.win_share`` (HARD's old cut-off) and a coin, overall and by the share of
the game left, then the coefficients to paste into ``odds.COEFFICIENTS``.

Plain Python (no numpy): a few minutes per player count (23 minutes for the three
with the defaults below, on a shared core).

Fitted with ``--games 2000 --test 600`` (seeds 1-2000, held out 1,000,001-1,000,600),
held-out log-loss per turn start, fitted / ``win_share`` / coin, over the whole game
and over its last third (fullest chamber 11+ Lords):
2 players 0.607 / 0.658 / 0.693, last third 0.512 / 0.615;
3 players 0.890 / 0.979 / 1.099, last third 0.656 / 0.784;
4 players 1.107 / 1.215 / 1.386, last third 0.790 / 0.948.
Early on (first third) both are near a coin (4 players: 1.346 / 1.386 / 1.386).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.ai import Level, decision_rng
from games.conspiracy import GAME, ConspiracyOptions
from games.conspiracy.ai import POLICIES, horizon_of, win_share
from games.conspiracy.models import Stage
from games.conspiracy.odds import FEATURES, features
from games.search import softmax

TEST_SEEDS_FROM = 1_000_001
RIDGE = 1.0
"""Ridge on the standardized coefficients (per the whole sample, not per snapshot)."""


@dataclass
class Snapshot:
    """One turn start: every player's features, the old estimate, the outcome."""

    rows: list[tuple[float, ...]]
    old: list[float]
    won: list[float]
    left: float


def play(players: int, seed: int) -> list[Snapshot]:
    """One NORMAL self-play game (as tests.games.playouts plays it), seen at every turn
    start."""
    normal = POLICIES[Level.NORMAL]
    state = GAME.setup(players, ConspiracyOptions(), seed)
    seen: list[Snapshot] = []
    last_turn = 0
    while (result := GAME.result(state)) is None:
        seat = GAME.awaiting(state)[0]
        view = GAME.view(state, seat)
        if state.stage is Stage.RECRUIT and state.turn_number != last_turn:
            last_turn = state.turn_number
            rows = [features(view, p) for p in range(players)]
            old = [win_share(view, p) for p in range(players)]
            seen.append(Snapshot(rows, old, [], horizon_of(view)))
        choice = normal.choose(view, decision_rng(seed, state.step, seat))
        GAME.apply_in_place(state, seat, choice)
    won = [1.0 / len(result.winners) if p in result.winners else 0.0 for p in range(players)]
    for snapshot in seen:
        snapshot.won = won
    return seen


def dataset(players: int, seeds: range) -> list[Snapshot]:
    return [snapshot for seed in seeds for snapshot in play(players, seed)]


def scales(data: Sequence[Snapshot]) -> list[float]:
    """Each feature's standard deviation over every player row (1 if constant)."""
    rows = [row for snapshot in data for row in snapshot.rows]
    count = len(rows[0])
    means = [sum(row[j] for row in rows) / len(rows) for j in range(count)]
    spreads = [
        math.sqrt(sum((row[j] - means[j]) ** 2 for row in rows) / len(rows)) for j in range(count)
    ]
    return [spread if spread > 1e-9 else 1.0 for spread in spreads]


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the Newton step)."""
    size = len(vector)
    a = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for row in range(col + 1, size):
            factor = a[row][col] / a[col][col]
            if factor:
                a[row] = [x - factor * y for x, y in zip(a[row], a[col], strict=True)]
    solution = [0.0] * size
    for row in reversed(range(size)):
        tail = sum(a[row][k] * solution[k] for k in range(row + 1, size))
        solution[row] = (a[row][size] - tail) / a[row][row]
    return solution


def fit(data: Sequence[Snapshot], iterations: int = 12) -> tuple[float, ...]:
    """Newton's method on the standardized features; coefficients in raw units."""
    spread = scales(data)
    count = len(spread)
    scaled = [[[x / s for x, s in zip(row, spread, strict=True)] for row in d.rows] for d in data]
    beta = [0.0] * count
    for _ in range(iterations):
        gradient = [-RIDGE * b for b in beta]
        hessian = [[RIDGE if i == j else 0.0 for j in range(count)] for i in range(count)]
        for rows, snapshot in zip(scaled, data, strict=True):
            chances = softmax([sum(b * x for b, x in zip(beta, row, strict=True)) for row in rows])
            mean = [
                sum(p * row[j] for p, row in zip(chances, rows, strict=True)) for j in range(count)
            ]
            for p, y, row in zip(chances, snapshot.won, rows, strict=True):
                centred = [x - m for x, m in zip(row, mean, strict=True)]
                for i in range(count):
                    gradient[i] += (y - p) * row[i]
                    weighted = p * centred[i]
                    line = hessian[i]
                    for j in range(i, count):
                        line[j] += weighted * centred[j]
        for i in range(count):
            for j in range(i):
                hessian[i][j] = hessian[j][i]
        step = solve(hessian, gradient)
        beta = [b + s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return tuple(b / s for b, s in zip(beta, spread, strict=True))


def log_loss(chances: Sequence[float], won: Sequence[float]) -> float:
    return -sum(y * math.log(max(p, 1e-12)) for p, y in zip(chances, won, strict=True))


def fitted_chances(snapshot: Snapshot, coefficients: Sequence[float]) -> list[float]:
    return softmax(
        [sum(c * x for c, x in zip(coefficients, row, strict=True)) for row in snapshot.rows]
    )


BUCKETS = ((0.66, 1.01, "start"), (0.33, 0.66, "middle"), (-0.01, 0.33, "end"))


def mean_losses(
    players: int, data: Sequence[Snapshot], coefficients: Sequence[float]
) -> tuple[float, float, float]:
    """The mean log-loss of the fit, of the old estimate and of a coin over ``data``."""
    coin = [1.0 / players] * players
    count = len(data)
    fitted = sum(log_loss(fitted_chances(s, coefficients), s.won) for s in data)
    old = sum(log_loss(s.old, s.won) for s in data)
    base = sum(log_loss(coin, s.won) for s in data)
    return fitted / count, old / count, base / count


def report(players: int, test: Sequence[Snapshot], coefficients: Sequence[float]) -> None:
    print(f"{players} players, held-out log-loss per turn start (lower is better):")
    for low, high, name in ((-0.01, 1.01, "all"), *BUCKETS):
        chosen = [s for s in test if low < s.left <= high]
        if not chosen:
            continue
        fitted, old, base = mean_losses(players, chosen, coefficients)
        print(
            f"  {name:7} {len(chosen):6} snapshots: fitted {fitted:.4f}, win_share {old:.4f},"
            f" coin {base:.4f}"
        )


def printed(coefficients: Sequence[float]) -> str:
    return ", ".join(f"{c:.5g}" for c in coefficients)


Report = Callable[[int, Sequence[Snapshot], Sequence[float]], None]
"""Prints a fit's held-out figures: player count, held-out data, coefficients."""


def fit_and_print(
    args: argparse.Namespace,
    dataset: Callable[[int, range], list[Snapshot]],
    names: Sequence[str],
    report: Report,
    width: int,
    test_from: int,
) -> None:
    """Fits each of ``args.players`` on seeds 1 to ``args.games``, reports on
    ``args.test`` seeds from ``test_from``, and prints the coefficients to paste."""
    fitted: dict[int, tuple[float, ...]] = {}
    for players in args.players:
        train = dataset(players, range(1, args.games + 1))
        test = dataset(players, range(test_from, test_from + args.test))
        fitted[players] = fit(train)
        report(players, test, fitted[players])
        for name, value in zip(names, fitted[players], strict=True):
            print(f"    {name:{width}} {value:+.4f}")
    print("COEFFICIENTS = {")
    for players, coefficients in fitted.items():
        print(f"    {players}: ({printed(coefficients)}),")
    print("}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--test", type=int, default=600)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    fit_and_print(parser.parse_args(), dataset, FEATURES, report, 18, TEST_SEEDS_FROM)


if __name__ == "__main__":
    main()
