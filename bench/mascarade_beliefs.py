"""How well a Mascarade seat's memory guesses the cards: HARD's tracked deals against a
first-order tracker (each place's chance of each character).

    .venv/bin/python -m bench.mascarade_beliefs --players 10 --games 60 --seed 6001

Plays remembering NORMALs against each other (seed ``seed + i``, seat order as
tests.games.playouts). At every turn and contest of the seat ``i mod n``, it asks
both trackers for that seat's beliefs from its view and history:
- ``track``'s 200 deals (games.mascarade.sampler; HARD's beyond 6 players, with
  ``FREE_SWAP_ODDS``);
- ``Marginals``, below.

For each place it counts the log-probability each gives the true card and whether its
top guess is right, the seat's own card apart from the others'.

``Marginals`` keeps a doubly-stochastic matrix, a place's row its chances over the
characters:
- a swap the seat did not make mixes the two rows with its odds (exact for these
  chances);
- the seat's own swap moves the rows as it decided;
- a sight fixes its row, and the other rows are scaled back to the characters' numbers
  (Sinkhorn);
- standing claims weigh their row by ``CLAIMED``.

It keeps no correlation between places, and it does not thin out as 200 deals do over
a long history.

On 2026-12-01 (60 games, seeds 6001-6060): at 10 players the others' cards -0.411 /
88.9 % with the deals, -0.301 / 90.7 % with the marginals; its own -0.281 / 93.0 % and
-0.209 / 94.5 %. At 6 players both are alike. HARD searching from states dealt from
the marginals (a scratch change) won 23.0 % of 200 games at 10 players, where it won
22.5 % with its deals (bench/results/mascarade-hard.md). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.mascarade_oracle import spread
from games.ai import Level, decision_rng
from games.base import Event
from games.mascarade import FREE_SWAP_ODDS, GAME
from games.mascarade.ai import POLICIES, remembered
from games.mascarade.cards import Character
from games.mascarade.models import MascaradeView, Memory, Stage
from games.mascarade.sampler import CLAIMED, Follower, Table, flat, opening_deal_of, track

ROUNDS = 20
"""Sinkhorn rounds after a sight or a claim."""
FLOOR = 1e-3
"""The least probability a log counts (a tracker sure of a wrong card is not -inf)."""


@dataclass
class Marginals(Follower):
    """A seat's first-order memory of the cards (see the module). It reads the events
    as ``Follower`` does (``step``), keeping each place's chances instead of deals."""

    characters: list[Character] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    rows: list[list[float]] = field(default_factory=list)

    @classmethod
    def of_history(
        cls, view: MascaradeView, history: Sequence[Event], free_odds: float
    ) -> Marginals:
        assert view.viewer is not None
        table = Table(len(view.players), view.hand_size, tuple(view.characters))
        number = Counter(table.characters)
        characters = [c for c in Character if c in number]
        tracker = cls(
            table.seats,
            table.hand_size,
            view.viewer,
            particles=[],
            rng=random.Random(0),
            free_odds=free_odds,
            characters=characters,
            counts=[number[c] for c in characters],
        )
        deal = opening_deal_of(table, view.viewer, flat(view), history)
        missing = number - Counter(c for c in deal if c is not None)
        holes = sum(1 for c in deal if c is None)
        for card in deal:
            if card is None:
                tracker.rows.append([missing[c] / holes for c in characters])
            else:
                tracker.rows.append([float(c is card) for c in characters])
        for event in history:
            tracker.step(event)
        return tracker

    def _swap(self, mine: bool, first: int, second: int) -> None:
        self.swap(first, second, float(bool(self.decided)) if mine else self.swap_odds)

    def _sight(self, place: int, character: Character) -> None:
        self.sight(place, character)

    def swap(self, first: int, second: int, odds: float) -> None:
        one, two = self.rows[first], self.rows[second]
        self.rows[first] = [(1 - odds) * a + odds * b for a, b in zip(one, two, strict=True)]
        self.rows[second] = [(1 - odds) * b + odds * a for a, b in zip(one, two, strict=True)]
        self.claimed.pop(first, None)
        self.claimed.pop(second, None)
        self.pair = None

    def sight(self, place: int, character: Character) -> None:
        self.rows[place] = [float(c is character) for c in self.characters]
        self.balance(fixed=place)

    def weigh(self, place: int, character: Character, factor: float) -> None:
        row = [
            v * (factor if c is character else 1.0)
            for c, v in zip(self.characters, self.rows[place], strict=True)
        ]
        total = sum(row)
        self.rows[place] = [v / total for v in row]
        self.balance()

    def balance(self, fixed: int | None = None) -> None:
        """Sinkhorn: each column back to its character's number, each row to 1; a
        fixed row (a sight) stays as it is."""
        rows = self.rows
        wanted = [float(count) for count in self.counts]
        if fixed is not None:
            wanted = [w - v for w, v in zip(wanted, rows[fixed], strict=True)]
        for _ in range(ROUNDS):
            held = [
                sum(row[j] for p, row in enumerate(rows) if p != fixed) for j in range(len(wanted))
            ]
            scale = [w / h if h > 1e-12 else 0.0 for w, h in zip(wanted, held, strict=True)]
            for p, row in enumerate(rows):
                if p == fixed:
                    continue
                scaled = [v * s for v, s in zip(row, scale, strict=True)]
                total = sum(scaled)
                if total > 1e-12:
                    rows[p] = [v / total for v in scaled]

    def beliefs(self, memories: Sequence[Memory | None]) -> list[dict[Character, float]]:
        """Each place's chances, the seat's fresh memories sure and standing claims
        weighed (as ``Follower.deals``). Unlike ``deals`` it moves the tracker itself
        (a claim is weighed again at each call): the bench asks a fresh one once."""
        for place, memory in enumerate(memories):
            if memory is not None and not memory.stale:
                self.sight(place, memory.character)
        for place, character in list(self.claimed.items()):
            self.weigh(place, character, CLAIMED)
        return [dict(zip(self.characters, row, strict=True)) for row in self.rows]


@dataclass
class Score:
    """Guesses of the true cards: summed log-probability, right top guesses, count."""

    log: float = 0.0
    right: int = 0
    count: int = 0

    def add(self, belief: dict[Character, float], truth: Character) -> None:
        self.log += math.log(max(belief.get(truth, 0.0), FLOOR))
        self.right += max(belief, key=belief.__getitem__) is truth
        self.count += 1

    def line(self) -> str:
        return f"{self.log / self.count:7.3f} / {self.right / self.count:6.1%} ({self.count})"


def measure(players: int, games: int, seed: int, odds: float) -> dict[str, dict[str, Score]]:
    scores = {name: {"own": Score(), "others": Score()} for name in ("deals", "marginals")}
    normal = POLICIES[Level.NORMAL]
    for index in range(games):
        game_seed, hero = seed + index, index % players
        histories: list[list[Event]] = [[] for _ in range(players)]
        order = random.Random(game_seed ^ 0x5EED)
        state = GAME.setup(players, GAME.options_model(), game_seed)
        while GAME.result(state) is None:
            seat = order.choice(GAME.awaiting(state))
            view = GAME.view(state, seat)
            if seat == hero and state.stage in (Stage.TURN, Stage.CONTEST):
                deals = track(view, histories[seat], free_odds=odds)
                marginals = Marginals.of_history(view, histories[seat], odds)
                guesses = {"marginals": marginals.beliefs(flat(view))}
                if (dealt := remembered(view, deals)) is not None:
                    guesses["deals"] = dealt
                for name, beliefs in guesses.items():
                    for place in range(players):
                        whose = "own" if place == hero else "others"
                        scores[name][whose].add(beliefs[place], state.cards[place])
            choice = normal.choose(view, decision_rng(game_seed, state.step, seat), histories[seat])
            state, events = GAME.apply(state, seat, choice)
            spread(histories, events)
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=6001)
    parser.add_argument("--odds", type=float, default=FREE_SWAP_ODDS)
    args = parser.parse_args()
    scores = measure(args.players, args.games, args.seed, args.odds)
    print(
        f"{args.players} players, {args.games} games from seed {args.seed}, swap odds {args.odds}:"
    )
    print("mean log-probability of the true card / top guess right (places)")
    for name, by in scores.items():
        print(f"  {name:<9}  its own: {by['own'].line()}   the others': {by['others'].line()}")


if __name__ == "__main__":
    main()
