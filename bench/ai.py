"""Computer players' strength and speed: win rates and time per decision.

    .venv/bin/python -m bench.ai [--games 2000] [--game complots]

For each case, one NORMAL seat plays against RANDOM seats, then against EASY
seats; the NORMAL seat rotates over every seat (game i: seat i mod n), and a
shared win counts as 1/k to each of its k winners. The fair share of a seat
is 1/n. Then the time each level takes per decision, over every decision of
those games. Nothing is asserted: it is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from games.ai import Level, Policy
from games.base import Prompt
from games.registry import GAMES, policy_for
from tests.games.playouts import hero_share


@dataclass
class Timed(Policy[Any, Any]):
    """Wraps a policy and records the seconds of each of its decisions."""

    inner: Policy[Any, Any]
    seconds: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.level = self.inner.level

    def choose(self, view: Any, rng: random.Random) -> Any:
        started = time.perf_counter()
        choice = self.inner.choose(view, rng)
        self.seconds.append(time.perf_counter() - started)
        return choice

    def decide(self, view: Any, prompt: Prompt[Any], rng: random.Random) -> Any:
        return self.inner.decide(view, prompt, rng)


@dataclass
class Match:
    games: int = 0
    wins: float = 0.0
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def margin(self) -> float:
        """Half-width of a 95% confidence interval of the rate."""
        return 1.96 * math.sqrt(self.rate * (1 - self.rate) / self.games)


def play_match(name: str, players: int, hero: Timed, others: Timed, games: int, seed: int) -> Match:
    started = time.perf_counter()
    share = hero_share(GAMES[name], hero, others, players, games, seed)
    return Match(games=games, wins=share * games, seconds=time.perf_counter() - started)


def timing_line(level: Level, seconds: list[float]) -> str:
    if not seconds:
        return f"{level.value:<8} no decisions"
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    mean = statistics.fmean(seconds)
    return (
        f"{level.value:<8}{len(seconds):>10} decisions   mean {mean * 1e3:7.3f} ms"
        f"   p99 {p99 * 1e3:7.3f} ms   max {ordered[-1] * 1e3:7.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in args.game or list(GAMES):
        players = GAMES[name].typical_players
        timers = {level: Timed(policy_for(name, level)) for level in Level}
        fair = f"fair share {1 / players:.1%}"
        print(f"\n{name}, {players} players, {args.games} games per match ({fair})")
        for opponent in (Level.RANDOM, Level.EASY):
            match = play_match(
                name, players, timers[Level.NORMAL], timers[opponent], args.games, args.seed
            )
            print(
                f"  normal vs {players - 1} {opponent.value:<6}: normal wins {match.rate:6.1%}"
                f" ± {match.margin:.1%}   ({match.seconds:.0f} s)"
            )
        for level in Level:
            print("  " + timing_line(level, timers[level].seconds))


if __name__ == "__main__":
    main()
