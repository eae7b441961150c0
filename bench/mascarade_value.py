"""Train Mascarade's learned value (games/mascarade/value.py) and write its weights.

    .venv/bin/python -m bench.mascarade_value [--players 6] [--games 6000] [--jobs 2]
        [--hidden 16] [--epochs 30] [--write]

Plays remembering NORMALs against each other (the bot's NORMAL, as the benches'
opponents; seeds from ``FIRST_SEED``, seat order as tests.games.playouts), keeps
each choice point with probability ``KEEP`` (the moments a simulation may be cut at),
and labels it with who won in the end (a win shared by k counts 1/k each). Trains the
network (one hidden layer of tanh units, a softmax over the players in play; Adam on
the cross-entropy, seeded) on 85 % of the games and prints the held-out log-loss
against the fitted logit (games.mascarade.odds) and a coin. ``--write`` rewrites
games/mascarade/value_weights.py with the nets of the counts trained in this run
(the others are kept).

Trained 2026-11-30 (6,000 games at 6 players; 3,000 at 10, ``--players 10 --games
3000``, some 17 minutes on 2 cores): games/mascarade/value_weights.py records each
net's held-out figures.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from games.ai import Level
from games.base import GameState
from games.mascarade import GAME
from games.mascarade.ai import POLICIES
from games.mascarade.cards import character_set
from games.mascarade.models import MascaradeState
from games.mascarade.odds import coefficients_for, win_chances
from games.mascarade.value import Layout, Net, features, layout_for
from tests.games.playouts import play_out

FIRST_SEED = 2_000_000
"""Far from the benches' games (seeds 1 to some thousands)."""
KEEP = 0.3
"""Share of the choice points kept (neighbours say nearly the same)."""
HELD_OUT = 0.15
MIN_PLAYERS = 4
"""Below, a seat holds two or three cards (games.mascarade.cards.hand_size)."""
WEIGHTS = Path(__file__).resolve().parents[1] / "games" / "mascarade" / "value_weights.py"


@dataclass
class Game:
    """One self-play game's kept moments: every player's inputs, who was in play,
    the fitted logit's chances, and the outcome."""

    seed: int
    inputs: list[list[list[float]]]
    in_play: list[list[bool]]
    logit: list[list[float]]
    won: list[float]


def official_layout(players: int) -> Layout:
    """The inputs' layout of the official set at this size (the self-play games')."""
    return layout_for(character_set(players, None), players)


def play(players: int, seed: int) -> Game:
    """One self-play game, its choice points kept with probability KEEP."""
    keep = random.Random(seed * 7 + 1)
    layout = official_layout(players)
    coefficients = coefficients_for(players)
    assert coefficients is not None
    game = Game(seed, [], [], [], [])

    def watch(
        before: GameState, seat: int, choice: object, events: object, after: GameState
    ) -> None:
        assert isinstance(after, MascaradeState)
        if GAME.result(after) is None and keep.random() < KEEP:
            game.inputs.append([features(after, s, layout) for s in range(players)])
            game.in_play.append(list(after.in_play))
            game.logit.append(win_chances(after, coefficients))

    winners = play_out(GAME, [POLICIES[Level.NORMAL]] * players, seed, watch=watch).result.winners
    game.won = [1 / len(winners) if p in winners else 0.0 for p in range(players)]
    return game


def play_many(players: int, seeds: Sequence[int]) -> list[Game]:
    return [play(players, seed) for seed in seeds]


def dataset(players: int, games: int, jobs: int) -> list[Game]:
    seeds = list(range(FIRST_SEED, FIRST_SEED + games))
    chunks = [seeds[i::jobs] for i in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(play_many, [players] * jobs, chunks))
    return sorted((g for part in parts for g in part), key=lambda g: g.seed)


@dataclass
class Arrays:
    inputs: np.ndarray  # moments x players x inputs
    in_play: np.ndarray  # moments x players (bool)
    won: np.ndarray  # moments x players
    logit: np.ndarray  # moments x players (the fitted logit's chances)


def arrays(games: Sequence[Game]) -> Arrays:
    moments = [(g, i) for g in games for i in range(len(g.inputs))]
    return Arrays(
        np.array([g.inputs[i] for g, i in moments], dtype=np.float64),
        np.array([g.in_play[i] for g, i in moments], dtype=bool),
        np.array([g.won for g, _ in moments], dtype=np.float64),
        np.array([g.logit[i] for g, i in moments], dtype=np.float64),
    )


def log_loss(chances: np.ndarray, won: np.ndarray) -> float:
    return float(-(won * np.log(np.clip(chances, 1e-12, 1.0))).sum(axis=1).mean())


@dataclass
class Weights:
    w1: np.ndarray  # inputs x hidden
    b1: np.ndarray  # hidden
    w2: np.ndarray  # hidden

    def chances(self, data: Arrays) -> np.ndarray:
        hidden = np.tanh(data.inputs @ self.w1 + self.b1)
        scores = np.where(data.in_play, hidden @ self.w2, -1e9)
        scores -= scores.max(axis=1, keepdims=True)
        weights: np.ndarray = np.exp(scores)
        chances: np.ndarray = weights / weights.sum(axis=1, keepdims=True)
        return chances


def gradients(weights: Weights, data: Arrays) -> list[np.ndarray]:
    """The mean cross-entropy's gradients (w1, b1, w2)."""
    hidden = np.tanh(data.inputs @ weights.w1 + weights.b1)
    scores = np.where(data.in_play, hidden @ weights.w2, -1e9)
    scores -= scores.max(axis=1, keepdims=True)
    chances = np.exp(scores)
    chances /= chances.sum(axis=1, keepdims=True)
    moments = len(data.won)
    d_scores = (chances - data.won) * data.in_play / moments
    d_w2 = np.einsum("mp,mph->h", d_scores, hidden)
    d_hidden = d_scores[:, :, None] * weights.w2 * (1 - hidden**2)
    d_w1 = np.einsum("mpi,mph->ih", data.inputs, d_hidden)
    d_b1 = d_hidden.sum(axis=(0, 1))
    return [d_w1, d_b1, d_w2]


def take(data: Arrays, rows: np.ndarray) -> Arrays:
    return Arrays(data.inputs[rows], data.in_play[rows], data.won[rows], data.logit[rows])


def train(
    data: Arrays, hidden: int, epochs: int, seed: int = 0, rate: float = 3e-3, decay: float = 1e-4
) -> Weights:
    """Adam on minibatches of 512 moments, L2 ``decay`` on the weights."""
    rng = np.random.default_rng(seed)
    size = data.inputs.shape[2]
    weights = Weights(
        rng.uniform(-1, 1, (size, hidden)) / np.sqrt(size),
        rng.uniform(-1, 1, hidden) / np.sqrt(size),
        rng.uniform(-1, 1, hidden) / np.sqrt(hidden),
    )
    params = [weights.w1, weights.b1, weights.w2]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    step = 0
    for _ in range(epochs):
        order = rng.permutation(len(data.won))
        for start in range(0, len(order), 512):
            batch = take(data, order[start : start + 512])
            step += 1
            for param, grad, m, v in zip(
                params, gradients(weights, batch), first, second, strict=True
            ):
                grad = grad + decay * param
                m *= 0.9
                m += 0.1 * grad
                v *= 0.999
                v += 0.001 * grad**2
                param -= rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return weights


def as_net(weights: Weights, layout: Layout) -> Net:
    def rounded(values: np.ndarray) -> tuple[float, ...]:
        return tuple(float(f"{v:.5g}") for v in values)

    return Net(
        layout=layout,
        hidden_bias=rounded(weights.b1),
        input_weights=tuple(rounded(row) for row in weights.w1),
        output_weights=rounded(weights.w2),
    )


def fit(players: int, games: int, jobs: int, hidden: int, epochs: int) -> tuple[Net, str]:
    played = dataset(players, games, jobs)
    random.Random(0).shuffle(played)
    cut = int(len(played) * (1 - HELD_OUT))
    learn, test = arrays(played[:cut]), arrays(played[cut:])
    weights = train(learn, hidden, epochs)
    layout = official_layout(players)
    net = as_net(weights, layout)
    coin = float(np.log(players))
    figures = (
        f"{players} players, {games} games ({len(learn.won)} moments to learn,"
        f" {len(test.won)} held out), held-out log-loss: net"
        f" {log_loss(weights.chances(test), test.won):.4f} (learned on:"
        f" {log_loss(weights.chances(learn), learn.won):.4f}), fitted logit"
        f" {log_loss(test.logit, test.won):.4f}, coin {coin:.4f}"
    )
    return net, figures


def module_text(nets: dict[int, tuple[Net, str]]) -> str:
    """games/mascarade/value_weights.py with these nets."""
    lines = [
        '"""The learned value\'s weights (games.mascarade.value), one net per player count.',
        "",
        "Written by bench/mascarade_value.py --write; do not edit by hand.",
        '"""',
        "",
        "from .cards import Character",
        "from .models import Stage",
        "from .value import Layout, Net",
        "",
        "FIGURES = (",
    ]
    lines += [f"    {figures!r}," for _, (_, figures) in sorted(nets.items())]
    lines += [")", '"""Each net\'s held-out figures, as printed when it was trained."""', ""]
    lines += ["NETS: dict[int, Net] = {"]
    for players, (net, _) in sorted(nets.items()):
        layout = net.layout
        characters = "".join(f"Character.{c.name}, " for c in layout.characters)
        stages = "".join(f"Stage.{s.name}, " for s in layout.stages)
        lines += [
            f"    {players}: Net.from_numbers(",
            "        Layout(",
            f"            characters=({characters.strip()}),",
            f"            stages=({stages.strip()}),",
            f"            players={layout.players},",
            "        ),",
            f"        {len(net.hidden_bias)},",
            '        """',
            *wrapped(net.numbers()),
            '""",',
            "    ),",
        ]
    lines.append("}")
    return "\n".join(lines) + "\n"


def wrapped(numbers: Sequence[float], width: int = 96) -> list[str]:
    """The numbers in lines of at most ``width`` characters."""
    lines, line = [], ""
    for word in (f"{value:.5g}" for value in numbers):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[6])
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    if min(args.players) < MIN_PLAYERS:
        parser.error(f"the value reads one card a seat: {MIN_PLAYERS} players or more")
    nets: dict[int, tuple[Net, str]] = {}
    for players in args.players:
        nets[players] = fit(players, args.games, args.jobs, args.hidden, args.epochs)
        print(nets[players][1], flush=True)
    if args.write:
        from games.mascarade import value_weights

        kept = {
            n: (net, next(f for f in value_weights.FIGURES if f.startswith(f"{n} players")))
            for n, net in value_weights.NETS.items()
            if n not in nets
        }
        WEIGHTS.write_text(module_text({**kept, **nets}))
        subprocess.run([sys.executable, "-m", "ruff", "format", str(WEIGHTS)], check=True)
        print(f"wrote {WEIGHTS}")


if __name__ == "__main__":
    main()
