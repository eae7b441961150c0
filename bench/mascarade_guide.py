"""Tunes HARD's guide at Mascarade: one ``RememberingPolicy`` with other knobs
against remembering NORMALs, no search (fast: no clock, so a rerun is the same).

    .venv/bin/python -m bench.mascarade_guide --players 10 --games 300 --seed 1 \
        --variant "" --variant "variety=0" --variant "variety=0,particles=400"

Each ``--variant`` is comma-separated ``knob=value`` pairs (``Knobs`` fields, and
``particles``: the deals tracked); the empty one is HARD's guide as it is (NORMAL's
knobs, 200 deals). Every variant plays the same games (``hero_game``: seeds
``seed`` to ``seed + games - 1``, the hero's seat rotating), so the comparison with
the first variant is paired: games won by one alone against the other alone.
``--cache`` keeps every variant's shares in a file, so a variant is played once.

Nothing is asserted: it is a measurement, not a test.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from bench.paired import compare_variants, pairs
from games.ai import Level
from games.mascarade import GAME
from games.mascarade.ai import POLICIES, Knobs, RememberingPolicy
from games.mascarade.sampler import PARTICLES
from tests.games.playouts import hero_game


@dataclass(frozen=True)
class Variant:
    """A guide to measure: its knobs and the deals it tracks."""

    label: str
    knobs: Knobs
    particles: int = PARTICLES

    def policy(self) -> RememberingPolicy:
        return RememberingPolicy(particles=self.particles, knobs=self.knobs)


def parse_variant(text: str, base: Knobs) -> Variant:
    """``knob=value,...`` over ``base`` (``particles=N`` sets the deals tracked)."""
    changes: dict[str, Any] = {}
    particles = PARTICLES
    kinds = {f.name: f.type for f in fields(Knobs)}
    for name, value in pairs(text):
        if name == "particles":
            particles = int(value)
        elif name in kinds:
            changes[name] = int(value) if kinds[name] in (int, "int") else float(value)
        else:
            raise SystemExit(f"unknown knob {name!r}: {sorted(kinds)} or particles")
    return Variant(label=text or "base", knobs=replace(base, **changes), particles=particles)


def play(variant: Variant, players: int, games: int, seed: int) -> list[float]:
    """The variant's share of each game against NORMALs."""
    hero, normal = variant.policy(), POLICIES[Level.NORMAL]
    return [hero_game(GAME, hero, normal, players, index, seed) for index in range(games)]


def main() -> None:
    compare_variants(
        __doc__.splitlines()[0],
        lambda text: parse_variant(text, Knobs()),
        play,
        players=10,
        games=300,
        seed=1,
    )


if __name__ == "__main__":
    main()
