"""How fast each game's HARD search thinks: simulations per CPU second.

    .venv/bin/python -m bench.search [--game bloody_inn] [--players 4] [--moments 12]
        [--simulations 24] [--repeat 3] [--history]

The work is fixed, so two versions of the code compare on the same footing: the
same ``--moments`` decisions (the HARD seat's first ones in seeded games against
NORMAL, the same for every run), each thought over with exactly ``--simulations``
simulations (no clock cap), ``--repeat`` times; the best repeat is printed (the
least disturbed by other work on the machine), in CPU time per simulation (the
decision's own work, its sampler and its guide's choice, shared among them), with
the load average. A change that keeps every decision (the same simulations) and
lowers the time made the search that much faster; under a budget the search then
gets that many more simulations. Nothing is asserted.

By default each decision is thought over from its view alone. ``--history`` gives
it the seat's visible history, as in a real game: a search that remembers then
works as it does at a table (Mascarade's tracked deals, and from 2 to 6 players the
other seats' remembered deals, ``games.mascarade.Minds``), which costs more.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass, replace
from typing import Any

from games.ai import Level, decision_rng
from games.base import Event, Game, View
from games.registry import GAMES, policy_for
from games.search import SearchPolicy

AnyGame = Game[Any, Any, Any, Any]

SEED = 1
"""The games' seeds start here (game ``i``: seed ``SEED + i``, the HARD seat ``0``)."""


@dataclass(frozen=True)
class Moment:
    """A decision of seat 0: its view, the state's step, the game's seed and the
    events the seat had been shown before it."""

    view: View
    step: int
    seed: int
    history: tuple[Event, ...]


def moments(
    game: AnyGame, players: int, count: int, search: SearchPolicy[Any, Any]
) -> list[Moment]:
    """``count`` decisions of seat 0 where its HARD search thinks (it weighs more
    than one choice), from seeded games played by NORMAL from the views alone (the
    same decisions with or without ``--history``), with seat 0's history at each."""
    normal = policy_for(game.name, Level.NORMAL)
    found: list[Moment] = []
    seed = SEED
    while len(found) < count:
        state = game.setup(players, game.options_model(), seed)
        history: list[Event] = []
        while game.result(state) is None and len(found) < count:
            seat = game.awaiting(state)[0]
            view = game.view(state, seat)
            prompt = game.prompt_for(state, seat)
            assert prompt is not None
            rng = decision_rng(seed, state.step, seat)
            if seat == 0 and len(search.candidates(view, prompt, rng)) > 1:
                found.append(Moment(view, state.step, seed, tuple(history)))
            choice = normal.choose(view, decision_rng(seed, state.step, seat))
            state, events = game.apply(state, seat, choice)
            for event in events:
                if event.visible_to(0):
                    history.append(event)
        seed += 1
    return found


def searcher(name: str, simulations: int) -> SearchPolicy[Any, Any]:
    policy = policy_for(name, Level.HARD)
    assert isinstance(policy, SearchPolicy)
    settings = replace(policy.settings, simulations=simulations, budget_seconds=1e9)
    return policy.with_settings(settings)


def think(policy: SearchPolicy[Any, Any], found: list[Moment], history: bool) -> float:
    """CPU seconds to decide every moment (from its view alone unless ``history``)."""
    started = time.process_time()
    for moment in found:
        rng = decision_rng(moment.seed, moment.step, 0)
        policy.choose(moment.view, rng, moment.history if history else ())
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--players", type=int, nargs="+")
    parser.add_argument("--moments", type=int, default=12)
    parser.add_argument("--simulations", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--history", action="store_true", help="decide with the seat's visible history"
    )
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for name in args.game or list(GAMES):
        game = GAMES[name]
        for players in args.players or (2, 4):
            if not game.min_players <= players <= game.max_players:
                continue
            policy = searcher(name, args.simulations)
            found = moments(game, players, args.moments, policy)
            best = min(think(policy, found, args.history) for _ in range(args.repeat))
            done = args.moments * args.simulations
            print(
                f"{name:<11} {players} players: {best / done * 1000:6.2f} ms of CPU a simulation"
                f" ({done / best:6.0f} a second; {args.moments} decisions x"
                f" {args.simulations} simulations, best of {args.repeat}"
                f"{', with their histories' if args.history else ''})"
            )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
