"""What HARD's simulations lack at Mascarade, measured by cheating: the search is
given the true state (every simulation starts from it, so its sampler is out of
the question) and a fixed number of simulations (no clock, so a rerun is the
same), and its simulations play the other seats in one of three ways:

- ``view``: as HARD does, NORMAL from each simulated view alone (beyond 6 players
  sure of its own card: ``games.mascarade.SureOfOwn``);
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
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import Any

import games.mascarade.sampler as mascarade_sampler
from bench.paired import Run, measure
from games.ai import Level, Policy, decision_rng
from games.base import Event, Prompt, Seat, copy_state
from games.mascarade import GAME, HARD, MascaradeSearch
from games.mascarade.ai import POLICIES
from games.mascarade.cards import Character
from games.mascarade.engine import Mascarade
from games.mascarade.models import MascaradeChoice, MascaradeState, MascaradeView
from games.mascarade.sampler import MascaradeSampler, track
from games.search import Draw, share_of


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
    """Deals the true state, every time (it cheats); ``deals`` are the seat's tracked
    deals, for its guide's beliefs alone."""

    def __init__(self, truth: MascaradeState, deals: list[list[Character]] | None = None) -> None:
        super().__init__(deals, tracking=False)
        self.truth = truth

    def prepare(self, view: MascaradeView, history: Sequence[Event]) -> Draw[MascaradeState]:
        return lambda rng: copy_state(self.truth)


@dataclass
class Table:
    """The real game at the hero's decision: what the oracle is given."""

    truth: MascaradeState | None = None
    histories: Histories = field(default_factory=list)


class Witnessing(Mascarade):
    """The rules, telling each step's events to the histories of a simulation (when
    it carries them) as each seat would be shown them."""

    histories: Histories | None = None

    def apply_in_place(
        self, state: MascaradeState, seat: Seat, choice: MascaradeChoice
    ) -> list[Event]:
        events = super().apply_in_place(state, seat, choice)
        if self.histories is not None:
            spread(self.histories, events)
        return events


class OracleSearch(MascaradeSearch):
    """HARD from the true state, the others simulated as ``mode`` says."""

    def __init__(self, mode: Mode, simulations: int, table: Table) -> None:
        settings = replace(HARD.settings, simulations=simulations, budget_seconds=1e9)
        self.witness = Witnessing()
        super().__init__(self.witness, HARD.sampler, HARD.rollout, settings, HARD.guide)
        self.mode = mode
        self.table = table
        self.remembering = POLICIES[Level.NORMAL]

    def moment_sampler(self, view: MascaradeView, history: Sequence[Event]) -> MascaradeSampler:
        """The true state, with the deals HARD tracks for its guide: the rest of the
        decision is HARD's own (``MascaradeSearch.recall``)."""
        assert self.table.truth is not None
        deals = track(view, history, free_odds=self.free_swap_odds(view))
        return TrueState(self.table.truth, deals)

    def simulate(
        self,
        state: MascaradeState,
        seat: Seat,
        choice: Any,
        rng: random.Random,
        stop_at: float | None = None,
    ) -> float:
        """``SearchPolicy.simulate``, the others' histories (``mem``, ``salted``) carried
        on from their true ones through the simulation's events."""
        if self.mode is not Mode.VIEW:
            self.witness.histories = [list(h) for h in self.table.histories]
        return super().simulate(state, seat, choice, rng, stop_at)

    def simulated(self, actor: Seat, seat: Seat) -> Policy[Any, Any]:
        if self.mode is Mode.VIEW or actor == seat:
            return super().simulated(actor, seat)
        return Remembered(self, actor)

    def remembered_move(
        self, view: MascaradeView, rng: random.Random, history: Sequence[Event]
    ) -> Any:
        if self.mode is Mode.MEM:
            return self.remembering.choose(view, rng, history)
        with salted_tracking(rng.getrandbits(20)):
            return self.remembering.choose(view, rng, history)


@dataclass
class Remembered(Policy[Any, Any]):
    """Another seat in an oracle's simulation: the remembering NORMAL, given the
    history the simulation carries for it."""

    oracle: OracleSearch
    seat: Seat

    def choose(self, view: Any, rng: random.Random, history: Sequence[Event] = ()) -> Any:
        histories = self.oracle.witness.histories
        assert histories is not None
        return self.oracle.remembered_move(view, rng, histories[self.seat])

    def decide(self, view: Any, prompt: Prompt[Any], rng: random.Random) -> Any:
        raise AssertionError("choose decides")


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


def play(mode: Mode, simulations: int, players: int, games: int, seed: int) -> list[float]:
    return [oracle_game(mode, simulations, players, index, seed) for index in range(games)]


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
    measure(
        [
            Run(
                mode,
                f"{args.players}:{args.seed}:{args.games}:{args.simulations}:{mode}",
                partial(play, mode, args.simulations, args.players, args.games, args.seed),
            )
            for mode in args.mode or [Mode.VIEW, Mode.MEM]
        ],
        args.cache,
        width=8,
    )


if __name__ == "__main__":
    main()
