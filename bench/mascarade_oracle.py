"""What HARD's simulations lack at Mascarade, measured by cheating: the search is
given the true state (every simulation starts from it, so its sampler is out of
the question) and a fixed number of simulations (no clock, so a rerun is the
same), and its simulations play the other seats in one of three ways:

- ``view``: as HARD does, NORMAL from each simulated view alone;
- ``mem``: as the remembering NORMALs they are, each with its true history,
  carried on through the simulation's own events (as each seat would be shown
  them) and tracked again at every decision;
- ``salted``: the same, but each tracking draws its own random deals. The real
  NORMAL follows its deals with a random stream seeded by its history's length
  and seat (``games.mascarade.sampler.track``), so ``mem`` reproduces the very
  deals, and so the very mistakes, of the player it predicts: ``salted`` keeps the
  model and drops that coincidence, which no honest search could have.

    .venv/bin/python -m bench.mascarade_oracle --players 6 --games 100 \
        --simulations 40 --mode view --mode mem --mode salted --cache /tmp/oracle.json

The hero is at seat ``index mod players`` of game ``index`` (seed ``seed + index``),
as in ``bench.ai``; every mode plays the same games, so the comparison with the
first mode is paired (games won by one alone against the other alone). Nothing is
asserted: it is a measurement, not a test, and it reads the true state, which no
player may (``games/`` never imports it).
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

import games.mascarade.sampler as mascarade_sampler
from bench.ledger import wilson
from games.ai import Level, decision_rng
from games.base import Event, Prompt, Seat, copy_state
from games.mascarade import GAME, HARD, MascaradeSearch
from games.mascarade.ai import POLICIES, RememberingPolicy
from games.mascarade.models import MascaradeState, MascaradeView
from games.mascarade.sampler import MascaradeSampler, track
from games.search import Draw, SearchPolicy, share_of


class Mode(StrEnum):
    VIEW = "view"
    MEM = "mem"
    SALTED = "salted"


Histories = list[list[Event]]


def spread(histories: Histories, events: Sequence[Event]) -> None:
    """Each event to the history of every seat shown it."""
    for event in events:
        audience = range(len(histories)) if event.audience is None else event.audience
        for seat in audience:
            histories[seat].append(event)


@contextmanager
def salted_tracking(salt: int) -> Iterator[None]:
    """``track`` seeds its random stream with ``salt`` mixed in."""

    class Salted:
        @staticmethod
        def Random(seed: int) -> random.Random:  # stands in for random.Random
            return random.Random(seed ^ salt)

    names = vars(mascarade_sampler)
    assert names["random"] is random
    names["random"] = Salted
    try:
        yield
    finally:
        names["random"] = random


class TrueState(MascaradeSampler):
    """Deals the true state, every time (it cheats)."""

    def __init__(self, truth: MascaradeState) -> None:
        super().__init__(None, tracking=False)
        self.truth = truth

    def prepare(self, view: MascaradeView, history: Sequence[Event]) -> Draw[MascaradeState]:
        return lambda rng: copy_state(self.truth)


@dataclass
class Table:
    """The real game at the hero's decision: what the oracle is given."""

    truth: MascaradeState | None = None
    histories: Histories = field(default_factory=list)


class OracleSearch(MascaradeSearch):
    """HARD from the true state, the others simulated as ``mode`` says."""

    def __init__(self, mode: Mode, simulations: int, table: Table) -> None:
        settings = replace(HARD.settings, simulations=simulations, budget_seconds=1e9)
        super().__init__(GAME, HARD.sampler, HARD.rollout, settings, HARD.guide)
        self.mode = mode
        self.table = table
        self.remembering = POLICIES[Level.NORMAL]

    def recall(
        self, view: Any, prompt: Prompt[Any], rng: random.Random, history: Sequence[Event]
    ) -> Any:
        assert self.table.truth is not None
        moment = copy.copy(self)
        deals = track(view, history, free_odds=self.free_swap_odds(view))
        moment.guide = RememberingPolicy(deals, knobs=self.guide_knobs(view))
        moment.sampler = TrueState(self.table.truth)
        return SearchPolicy.recall(moment, view, prompt, rng, history)

    def simulate(self, state: MascaradeState, seat: Seat, choice: Any, rng: random.Random) -> float:
        game = self.game
        histories = None if self.mode is Mode.VIEW else [list(h) for h in self.table.histories]
        events = game.apply_in_place(state, seat, choice)
        finishing = True
        for _ in range(self.horizon(state)):
            if histories is not None:
                spread(histories, events)
            result = game.result(state)
            if result is not None:
                return share_of(result, seat)
            awaiting = game.awaiting(state)
            actor = awaiting[0] if len(awaiting) == 1 else rng.choice(awaiting)
            finishing = finishing and actor == seat
            view = game.view(state, actor)
            if actor == seat:
                move = (self.guide if finishing else self.rollout).choose(view, rng)
            elif histories is None:
                move = self.rollout.choose(view, rng)
            else:
                move = self.remembered_move(view, rng, histories[actor])
            events = game.apply_in_place(state, actor, move)
        result = game.result(state)
        if result is not None:
            return share_of(result, seat)
        return self.sampler.estimate(state, seat)

    def remembered_move(
        self, view: MascaradeView, rng: random.Random, history: Sequence[Event]
    ) -> Any:
        if self.mode is Mode.MEM:
            return self.remembering.choose(view, rng, history)
        with salted_tracking(rng.getrandbits(20)):
            return self.remembering.choose(view, rng, history)


def oracle_game(mode: Mode, simulations: int, players: int, index: int, seed: int) -> float:
    """The oracle's share of game ``index`` against remembering NORMALs (the loop of
    ``tests.games.playouts.play_out``, the true state handed to the hero)."""
    game_seed = seed + index
    hero_seat = index % players
    table = Table(histories=[[] for _ in range(players)])
    hero = OracleSearch(mode, simulations, table)
    normal = POLICIES[Level.NORMAL]
    order = random.Random(game_seed ^ 0x5EED)
    state = GAME.setup(players, GAME.options_model(), game_seed)
    while (result := GAME.result(state)) is None:
        seat = order.choice(GAME.awaiting(state))
        view = GAME.view(state, seat)
        rng = decision_rng(game_seed, state.step, seat)
        table.truth = state
        player = hero if seat == hero_seat else normal
        choice = player.choose(view, rng, table.histories[seat])
        state, events = GAME.apply(state, seat, choice)
        spread(table.histories, events)
    return share_of(result, hero_seat)


def report(label: str, shares: list[float], seconds: float, first: list[float] | None) -> str:
    games = len(shares)
    rate = sum(shares) / games
    low, high = wilson(rate, games)
    line = f"{label:8} {100 * rate:5.1f} % ({100 * low:.1f}-{100 * high:.1f}) of {games}"
    if first is not None:
        alone = sum(1 for a, b in zip(shares, first, strict=True) if a > b)
        lost = sum(1 for a, b in zip(shares, first, strict=True) if a < b)
        line += f"  won alone {alone} vs first alone {lost}"
    return line + f"  [{seconds / 60:.1f} min]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--simulations", type=int, default=40)
    parser.add_argument("--mode", type=Mode, action="append", default=None)
    parser.add_argument(
        "--cache", type=Path, default=None, help="JSON of shares already played (reused, extended)"
    )
    args = parser.parse_args()
    cache: dict[str, list[float]] = (
        json.loads(args.cache.read_text()) if args.cache and args.cache.exists() else {}
    )
    first: list[float] | None = None
    for mode in args.mode or [Mode.VIEW, Mode.MEM]:
        key = f"{args.players}:{args.seed}:{args.games}:{args.simulations}:{mode}"
        started = time.process_time()
        shares = cache.get(key) or [
            oracle_game(mode, args.simulations, args.players, index, args.seed)
            for index in range(args.games)
        ]
        print(report(mode, shares, time.process_time() - started, first), flush=True)
        first = shares if first is None else first
        if args.cache:
            cache[key] = shares
            args.cache.write_text(json.dumps(cache))


if __name__ == "__main__":
    main()
