"""Paired measurements: several players on the same games, each compared with the
first (games won by one alone against the other alone), their shares cached in a
file so a rerun plays only what is new. Used by ``bench.mascarade_guide``,
``bench.bloody_inn_guide`` and ``bench.mascarade_oracle``."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TypeVar

from bench.ledger import wilson

Variant = TypeVar("Variant")


@dataclass(frozen=True)
class Run:
    """One player to measure: its printed label, its cache key, and its games."""

    label: str
    key: str
    play: Callable[[], list[float]]
    """The player's share of each game."""


def report(
    label: str, shares: list[float], seconds: float, first: list[float] | None, width: int = 40
) -> str:
    games = len(shares)
    rate = sum(shares) / games
    low, high = wilson(rate, games)
    line = f"{label:{width}} {100 * rate:5.1f} % ({100 * low:.1f}-{100 * high:.1f}) of {games}"
    if first is not None:
        alone = sum(1 for a, b in zip(shares, first, strict=True) if a > b)
        lost = sum(1 for a, b in zip(shares, first, strict=True) if a < b)
        line += f"  won alone {alone} vs first alone {lost}"
    return line + f"  [{seconds / 60:.1f} min]"


def measure(runs: Sequence[Run], cache_path: Path | None, width: int = 40) -> None:
    """Plays (or reads from the cache) each run's games and prints its line."""
    cache: dict[str, list[float]] = (
        json.loads(cache_path.read_text()) if cache_path and cache_path.exists() else {}
    )
    first: list[float] | None = None
    for run in runs:
        started = time.process_time()
        shares = cache.get(run.key) or run.play()
        print(report(run.label, shares, time.process_time() - started, first, width), flush=True)
        first = shares if first is None else first
        if cache_path:
            cache[run.key] = shares
            cache_path.write_text(json.dumps(cache))


def pairs(text: str) -> list[tuple[str, str]]:
    """The ``name=value`` pairs of a ``--variant`` text (comma-separated, spaces ignored)."""
    found = []
    for pair in filter(None, (p.strip() for p in text.split(","))):
        name, value = (part.strip() for part in pair.split("=", 1))
        found.append((name, value))
    return found


def compare_variants(
    description: str,
    parse: Callable[[str], Variant],
    play: Callable[[Variant, int, int, int], list[float]],
    players: int,
    games: int,
    seed: int,
) -> None:
    """The command line of a bench tuning a player: each ``--variant`` text is parsed
    (all of them before any game) and played by ``play(variant, players, games,
    seed)`` on the same games, its cache key ``players:seed:games:label``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--players", type=int, default=players)
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--variant", action="append", default=None)
    parser.add_argument(
        "--cache", type=Path, default=None, help="JSON of shares already played (reused, extended)"
    )
    args = parser.parse_args()
    texts = args.variant or [""]
    variants = [(text or "base", parse(text)) for text in texts]
    measure(
        [
            Run(
                label,
                f"{args.players}:{args.seed}:{args.games}:{label}",
                partial(play, variant, args.players, args.games, args.seed),
            )
            for label, variant in variants
        ],
        args.cache,
    )
