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

import argparse
import json
import time
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from bench.ledger import wilson
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
    for pair in filter(None, (p.strip() for p in text.split(","))):
        name, value = (part.strip() for part in pair.split("=", 1))
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


def report(label: str, shares: list[float], seconds: float, first: list[float] | None) -> str:
    games = len(shares)
    rate = sum(shares) / games
    low, high = wilson(rate, games)
    line = f"{label:40} {100 * rate:5.1f} % ({100 * low:.1f}-{100 * high:.1f}) of {games}"
    if first is not None:
        alone = sum(1 for a, b in zip(shares, first, strict=True) if a > b)
        lost = sum(1 for a, b in zip(shares, first, strict=True) if a < b)
        line += f"  won alone {alone} vs first alone {lost}"
    return line + f"  [{seconds / 60:.1f} min]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append", default=None)
    parser.add_argument(
        "--cache", type=Path, default=None, help="JSON of shares already played (reused, extended)"
    )
    args = parser.parse_args()
    cache: dict[str, list[float]] = (
        json.loads(args.cache.read_text()) if args.cache and args.cache.exists() else {}
    )
    first: list[float] | None = None
    for text in args.variant or [""]:
        variant = parse_variant(text, Knobs())
        key = f"{args.players}:{args.seed}:{args.games}:{variant.label}"
        started = time.process_time()
        shares = cache.get(key) or play(variant, args.players, args.games, args.seed)
        print(report(variant.label, shares, time.process_time() - started, first), flush=True)
        first = shares if first is None else first
        if args.cache:
            cache[key] = shares
            args.cache.write_text(json.dumps(cache))


if __name__ == "__main__":
    main()
