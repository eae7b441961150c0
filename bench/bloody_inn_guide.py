"""Tunes HARD's guide at The Bloody Inn: NORMAL's rule of thumb with other weights
against NORMALs, no search (fast, no clock: a rerun is the same).

    .venv/bin/python -m bench.bloody_inn_guide --players 3 --games 2000 --seed 10001 \
        --variant "" --variant "wage_rounds=1.25" --variant "tempo=3.5,slot=6.5"

Each ``--variant`` is comma-separated ``weight=value`` pairs (``Weights`` fields
holding a number) over NORMAL's weights; the empty one is NORMAL's own. Every
variant plays the same games (``hero_game``: seeds ``seed`` to ``seed + games - 1``,
the hero's seat rotating), so the comparison with the first variant is paired:
games won by one alone against the other alone. ``--cache`` keeps every variant's
shares in a file, so a variant is played once.

Nothing is asserted: it is a measurement, not a test.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from bench.paired import compare_variants, pairs
from games.ai import Level
from games.bloody_inn import GAME
from games.bloody_inn.ai import NORMAL_WEIGHTS, POLICIES, NormalPolicy, Weights
from tests.games.playouts import hero_game


def parse_weights(text: str, base: Weights = NORMAL_WEIGHTS) -> Weights:
    """``weight=value,...`` over ``base``."""
    numbers = {f.name for f in fields(Weights) if f.type in (float, "float")}
    changes: dict[str, Any] = {}
    for name, value in pairs(text):
        if name not in numbers:
            raise SystemExit(f"unknown weight {name!r}: one of {sorted(numbers)}")
        changes[name] = float(value)
    return replace(base, **changes)


def play(weights: Weights, players: int, games: int, seed: int) -> list[float]:
    """A guide with these weights: its share of each game against NORMALs."""
    hero, normal = NormalPolicy(weights), POLICIES[Level.NORMAL]
    return [hero_game(GAME, hero, normal, players, index, seed) for index in range(games)]


def main() -> None:
    compare_variants(
        __doc__.splitlines()[0], parse_weights, play, players=3, games=2000, seed=10001
    )


if __name__ == "__main__":
    main()
