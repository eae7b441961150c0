"""Computer players' strength and speed: win rates and time per decision.

    .venv/bin/python -m bench.ai [--games 2000] [--game complots]
    .venv/bin/python -m bench.ai --hard [--games 100] [--budget 0.2] [--against normal easy]
        [--players 2 3] [--simulations 300] [--seed 1] [--clock cpu]

For each case, one NORMAL seat plays against RANDOM seats, then against EASY
seats; the NORMAL seat rotates over every seat (game i: seat i mod n), and a
shared win counts as 1/k to each of its k winners. The fair share of a seat
is 1/n. Then the time each level takes per decision, over every decision of
those games.

``--hard``: one HARD seat (the search, ``--budget`` seconds per decision) against
NORMAL seats, then EASY ones (``--against``; ``forgetful``: NORMAL deciding from its
view alone, as every NORMAL did when HARD's goals were set), at 2, 3 and 4 players
of every game (Mascarade also 6 and 10), ``--games`` games per cell; then HARD's time per
decision (median, p99, max) against its budget. Every seat is given its visible
history. Run it alone on the machine: the search is cut by the clock. Or give
``--clock cpu``: the budget is then the process's CPU time, so the search gets the
simulations one core of its own would give it whatever else runs (the bot gives each
thinker a core: ``THINK_WORKERS``), and the decision times printed are CPU times.
``--jobs N`` (with ``--ledger`` and ``--clock cpu``) shares each cell's missing games
among N processes (game ``i`` to process ``i mod N``), all appending to the ledger.

A HARD hero's games also count its simulations (``counting``): a cell's line says how
many a decision that searched ran on average, over the games that counted them.

Nothing is asserted: it is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bench.ledger import Cell, Ledger, Played, Tally, bucketed, fingerprint, wilson
from games.ai import QUICK_LEVELS, Level, Policy
from games.base import Event, Prompt, Seat
from games.registry import GAMES, policy_for
from games.search import SearchPolicy
from tests.games.playouts import hero_game, hero_share


@dataclass
class SimulationCount:
    """The simulations a search ran (``counting``), and its decisions that ran any."""

    simulations: int = 0
    searched: int = 0


def counting(player: Policy[Any, Any]) -> tuple[Policy[Any, Any], SimulationCount | None]:
    """The player, counting its simulations when it searches (None when it does not).
    A copy of another class: the player's own, whose ``simulate`` counts. A search
    that copies itself for a decision (Mascarade's ``recall``) keeps counting, each
    simulation still its copy's (an instance's counting ``simulate`` would stay
    bound to the instance it was made for, and run its simulations)."""
    if not isinstance(player, SearchPolicy):
        return player, None
    count = SimulationCount()
    searching = type(player)

    class Counted(searching):  # type: ignore[valid-type,misc]
        def simulate(
            self,
            state: Any,
            seat: Seat,
            choice: Any,
            rng: random.Random,
            stop_at: float | None = None,
        ) -> float:
            count.simulations += 1
            return searching.simulate(self, state, seat, choice, rng, stop_at)

    counted = copy.copy(player)
    counted.__class__ = Counted
    return counted, count


@dataclass
class Timed(Policy[Any, Any]):
    """Wraps a policy and records the seconds of each of its decisions (and, given
    its ``counting`` count, which of them ran simulations)."""

    inner: Policy[Any, Any]
    clock: Callable[[], float] = time.perf_counter
    seconds: list[float] = field(default_factory=list)
    count: SimulationCount | None = None

    def __post_init__(self) -> None:
        self.level = self.inner.level

    def choose(self, view: Any, rng: random.Random, history: Sequence[Event] = ()) -> Any:
        simulations = self.count.simulations if self.count else 0
        started = self.clock()
        choice = self.inner.choose(view, rng, history)
        self.seconds.append(self.clock() - started)
        if self.count and self.count.simulations > simulations:
            self.count.searched += 1
        return choice

    def decide(self, view: Any, prompt: Prompt[Any], rng: random.Random) -> Any:
        return self.inner.decide(view, prompt, rng)


@dataclass
class Forgetful(Policy[Any, Any]):
    """A policy without its history: it decides from the view alone. ``--against
    forgetful`` is NORMAL so, the NORMAL every game had when issue 18 set HARD's goals
    (Complots' and Mascarade's NORMAL remember since)."""

    inner: Policy[Any, Any]

    def __post_init__(self) -> None:
        self.level = self.inner.level

    def decide(self, view: Any, prompt: Prompt[Any], rng: random.Random) -> Any:
        return self.inner.decide(view, prompt, rng)


OPPONENTS = ("normal", "easy", "forgetful")
"""The ``--against`` seats of the HARD cells: levels, and NORMAL without its memory."""


def opponent(name: str, against: str) -> Policy[Any, Any]:
    """The policy of the other seats of a HARD cell."""
    if against == "forgetful":
        return Forgetful(policy_for(name, Level.NORMAL))
    return policy_for(name, Level(against))


@dataclass
class Match:
    games: int = 0
    wins: float = 0.0
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        return self.wins / self.games

    def interval(self) -> tuple[float, float]:
        return wilson(self.rate, self.games)


def play_match(name: str, players: int, hero: Timed, others: Timed, games: int, seed: int) -> Match:
    started = time.perf_counter()
    share = hero_share(GAMES[name], hero, others, players, games, seed)
    return Match(games=games, wins=share * games, seconds=time.perf_counter() - started)


HARD_PLAYERS = {"mascarade": (2, 3, 4, 6, 10)}
"""Table sizes of the HARD cells beyond 2, 3 and 4 players."""


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
"""What a HARD decision's budget (and its printed time) counts: seconds, or CPU seconds."""


def hard_policy(
    name: str, budget: float, simulations: int | None = None, clock: str = "wall"
) -> Policy[Any, Any]:
    policy = policy_for(name, Level.HARD)
    assert isinstance(policy, SearchPolicy)
    settings = replace(policy.settings, budget_seconds=budget)
    if simulations is not None:
        settings = replace(settings, simulations=simulations)
    player = policy.with_settings(settings)
    player.clock = CLOCKS[clock]
    return player


@dataclass(frozen=True)
class Part:
    """The games of a cell one of several processes plays: index mod ``of`` is
    ``number``."""

    number: int = 0
    of: int = 1

    def takes(self, index: int) -> bool:
        return index % self.of == self.number


@dataclass(frozen=True)
class Planned:
    """A HARD cell to play, and who sits at its table."""

    cell: Cell
    others: str


def planned_cells(args: argparse.Namespace) -> list[Planned]:
    hero_level = Level(args.hero)
    planned = []
    for name in args.game or list(GAMES):
        game = GAMES[name]
        counts = tuple(args.players or HARD_PLAYERS.get(name, (2, 3, 4)))
        for players in (n for n in counts if game.min_players <= n <= game.max_players):
            for against in args.against:
                cell = Cell(
                    game=name,
                    players=players,
                    hero=hero_level.value,
                    against=against,
                    budget=args.budget,
                    clock=args.clock,
                    simulations=args.simulations,
                    seed=args.seed,
                    code=fingerprint(name),
                )
                planned.append(Planned(cell, against))
    return planned


def hard_cells(args: argparse.Namespace) -> None:
    if args.jobs > 1:
        shared_cells(args)
        return
    plans = planned_cells(args)
    ledger = Ledger(args.ledger, only=[plan.cell for plan in plans]) if args.ledger else None
    shown = None
    for plan in plans:
        cell = plan.cell
        if cell.game != shown:
            shown = cell.game
            print(
                f"\n{cell.game}: one {cell.hero.upper()} seat ({args.budget} s of {args.clock}"
                f" time per decision), {args.games} games per cell"
            )
        started = time.perf_counter()
        tally = play_planned(plan, args, ledger)
        print(cell_line(tally, time.perf_counter() - started), flush=True)


def play_planned(
    plan: Planned, args: argparse.Namespace, ledger: Ledger | None, part: Part = Part()
) -> Tally:
    cell = plan.cell
    others = opponent(cell.game, plan.others)
    seated = at_table(hero_policy(cell.game, Level(cell.hero), args), cell.players, others)
    player, count = counting(seated)
    hero = Timed(player, CLOCKS[args.clock], count=count)
    return play_cell(cell, hero, Timed(others), args.games, ledger, part)


def play_part(args: argparse.Namespace, part: Part, plans: Sequence[Planned]) -> None:
    """One process of ``--jobs``: its part of every planned cell's games, to the
    ledger."""
    ledger = Ledger(args.ledger, only=[plan.cell for plan in plans])
    for plan in plans:
        play_planned(plan, args, ledger, part)


def shared_cells(args: argparse.Namespace) -> None:
    """The cells' missing games shared among ``--jobs`` processes; then each cell's
    line, from the ledger they filled."""
    if args.ledger is None or args.clock != "cpu":
        raise SystemExit("--jobs needs --ledger (the processes' games meet there) and --clock cpu")
    # Planned once: a game's code edited during the run must not turn the closing
    # lines to the new code's empty cells (the games were played under the old).
    plans = planned_cells(args)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        parts = [Part(number, args.jobs) for number in range(args.jobs)]
        for _ in pool.map(play_part, [args] * args.jobs, parts, [plans] * args.jobs):
            pass
    seconds = time.perf_counter() - started
    ledger = Ledger(args.ledger)
    print(f"\n{args.jobs} processes, {args.games} games per cell ({seconds:.0f} s in all)")
    for plan in plans:
        print(f"{plan.cell.game:<12}" + cell_line(ledger.tally(plan.cell)), flush=True)


def at_table(player: Policy[Any, Any], players: int, others: Policy[Any, Any]) -> Policy[Any, Any]:
    """The hero at a table of ``others``: a search knows the level of the computers
    it faces, as it does in the bot (the lobby shows it)."""
    if isinstance(player, SearchPolicy):
        return player.facing(dict.fromkeys(range(players), others))
    return player


def hero_policy(name: str, level: Level, args: argparse.Namespace) -> Policy[Any, Any]:
    if level is Level.HARD:
        return hard_policy(name, args.budget, args.simulations, args.clock)
    return policy_for(name, level)


def play_cell(
    cell: Cell,
    hero: Timed,
    others: Timed,
    games: int,
    ledger: Ledger | None,
    part: Part = Part(),
) -> Tally:
    """Plays the cell's games ``0`` to ``games - 1`` that the ledger lacks (this
    process's ``part`` of them), recording each as it ends; returns the cell's tally
    (of the ledger's games too)."""
    tally = ledger.tally(cell).model_copy(deep=True) if ledger else Tally(cell=cell)
    count = hero.count
    for index in filter(part.takes, tally.missing(games)):
        before = len(hero.seconds)
        counted = (count.simulations, count.searched) if count else (0, 0)
        share = hero_game(GAMES[cell.game], hero, others, cell.players, index, cell.seed)
        seconds = hero.seconds[before:]
        played = Played(
            cell=cell,
            index=index,
            share=share,
            times=bucketed(seconds),
            longest_ms=max(seconds, default=0.0) * 1000,
            simulations=count.simulations - counted[0] if count else None,
            searched=count.searched - counted[1] if count else 0,
        )
        if ledger:
            ledger.record(played)
        tally.add(played)
    return tally


def cell_line(tally: Tally, seconds: float | None = None) -> str:
    """The cell's win rate and decision times (and the seconds this run took)."""
    cell = tally.cell
    budget_ms = cell.budget * 1000
    low, high = tally.interval()
    return (
        f"  {cell.players} players, {cell.hero} vs {cell.players - 1} {cell.against:<6}:"
        f" {cell.hero} wins {tally.rate:6.1%} ({low:.1%}-{high:.1%}) of {tally.games} games"
        f" (fair {1 / cell.players:.1%});"
        f" {tally.decisions} decisions: median ≤ {tally.quantile_ms(0.5):.0f} ms,"
        f" p99 ≤ {tally.quantile_ms(0.99):.0f} ms, max {tally.longest_ms:.0f} ms,"
        f" {tally.over_ms(2 * budget_ms)} maybe over {2 * budget_ms:.0f} ms"
        + simulations_note(tally)
        + ("" if seconds is None else f"   ({seconds:.0f} s)")
    )


def simulations_note(tally: Tally) -> str:
    """The simulations of a searched decision, where the cell's games counted them."""
    if not tally.counted:
        return ""
    mean = tally.simulations_per_search
    if mean is None:
        return f"; no simulations in {tally.counted} counted games"
    return f"; {mean:.0f} simulations a searched decision ({tally.counted} games counted)"


def codes() -> dict[str, str]:
    return {name: fingerprint(name) for name in GAMES}


def report(path: Path) -> None:
    """The ledger's cells played with today's code of their game."""
    ledger = Ledger(path)
    current = sorted(
        ledger.current(codes()),
        key=lambda t: (t.cell.game, t.cell.hero, t.cell.budget, t.cell.against, t.cell.players),
    )
    stale = len(ledger.tallies) - len(current)
    print(f"{path}: {len(current)} cells of today's code, {stale} of older code")
    game = None
    for tally in current:
        if tally.cell.game != game:
            game = tally.cell.game
            print(f"\n{game}")
        print(f"  [{tally.cell.budget} s {tally.cell.clock}]" + cell_line(tally))


def carry(args: argparse.Namespace) -> None:
    """``--carry-from``: the chosen cells of an older code, under today's code."""
    ledger = Ledger(args.report)
    today = codes()
    for name in args.game or list(GAMES):

        def chosen(cell: Cell, game: str = name) -> bool:
            sized = not args.players or cell.players in args.players
            return (
                cell.game == game
                and cell.hero == args.hero
                and cell.against in args.against
                and sized
            )

        copied = ledger.carry(args.carry_from, today[name], chosen)
        print(f"{name}: {copied} games carried from {args.carry_from} to {today[name]}")


def timing_line(level: Level, seconds: list[float]) -> str:
    if not seconds:
        return f"{level.value:<8} no decisions"
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    mean = statistics.fmean(seconds)
    return (
        f"{level.value:<8}{len(seconds):>10} decisions   mean {mean * 1e3:7.3f} ms"
        f"   median {statistics.median(ordered) * 1e3:7.3f} ms"
        f"   p99 {p99 * 1e3:7.3f} ms   max {ordered[-1] * 1e3:7.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hard", action="store_true", help="the HARD cells instead")
    parser.add_argument("--budget", type=float, default=0.2, help="HARD: seconds per decision")
    parser.add_argument(
        "--players", type=int, nargs="+", help="HARD: these table sizes only (default: all)"
    )
    parser.add_argument(
        "--against",
        nargs="+",
        choices=OPPONENTS,
        default=["normal", "easy"],
        help="HARD cells: the other seats (forgetful: NORMAL deciding from its view alone)",
    )
    parser.add_argument(
        "--simulations",
        type=int,
        help="HARD: simulations per decision (with a large --budget: independent of load)",
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="HARD: the budget in seconds (wall) or in the process's CPU seconds (cpu)",
    )
    parser.add_argument(
        "--hero",
        choices=["hard", "normal"],
        default="hard",
        help="HARD cells: the one seat's level (normal against normal: the control)",
    )
    parser.add_argument(
        "--ledger",
        type=Path,
        help="HARD cells: bring each cell up to --games games in this file (bench.ledger)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="HARD cells with --ledger and --clock cpu: processes sharing each cell's games",
    )
    parser.add_argument("--report", type=Path, help="print this ledger's cells and stop")
    parser.add_argument(
        "--prune", action="store_true", help="with --report: drop games of older code"
    )
    parser.add_argument(
        "--carry-from",
        metavar="CODE",
        help="with --report: count the --game's cells of this older code (--hero against"
        " --against, at --players) under today's code, after showing their decisions did"
        " not change",
    )
    parser.add_argument(
        "--compact",
        action="store_true",
        help="with --report: turn the games older carries copied into references",
    )
    args = parser.parse_args()
    if args.report:
        if args.carry_from:
            carry(args)
        if args.compact:
            print(f"compacted: {Ledger(args.report).compact()} lines fewer")
        if args.prune:
            print(f"dropped {Ledger(args.report).prune(codes())} games of older code")
        report(args.report)
        return
    if args.hard:
        hard_cells(args)
        return
    for name in args.game or list(GAMES):
        players = GAMES[name].typical_players
        timers = {level: Timed(policy_for(name, level)) for level in QUICK_LEVELS}
        fair = f"fair share {1 / players:.1%}"
        print(f"\n{name}, {players} players, {args.games} games per match ({fair})")
        for opponent in (Level.RANDOM, Level.EASY):
            match = play_match(
                name, players, timers[Level.NORMAL], timers[opponent], args.games, args.seed
            )
            low, high = match.interval()
            print(
                f"  normal vs {players - 1} {opponent.value:<6}: normal wins {match.rate:6.1%}"
                f" ({low:.1%}-{high:.1%})   ({match.seconds:.0f} s)"
            )
        for level in QUICK_LEVELS:
            print("  " + timing_line(level, timers[level].seconds))


if __name__ == "__main__":
    main()
