"""A game played in a terminal between one person (or nobody) and computer players:
the loop and the command-line arguments, without the words.

Two front ends read it: ``python -m games play`` (``games.__main__``, the raw
developer view: views and events as data) and ``python -m bot.play`` (``bot.play``,
the sentences the bot says, in its languages). Both play the same game from the
same seed: the loop, the computers' decisions and the order they are asked in
live here only.
"""

from __future__ import annotations

import argparse
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, TextIO

from games.ai import Level, Policy, decision_rng
from games.base import Choice, Event, Result, Seat
from games.entry import AnyGame
from games.registry import GAMES, policy_for

QUIT = "q"


class Terminal(ABC):
    """One game between the person at ``me`` (or nobody: ``me`` None) and computers.
    A front end says how the game reads: the opening, each move, the person's
    question, the end."""

    def __init__(
        self,
        game: AnyGame,
        players: int,
        *,
        me: Seat | None,
        level: Level,
        seed: int,
        out: TextIO,
        into: TextIO,
    ) -> None:
        self.game = game
        self.me = me
        self.seed = seed
        self.out = out
        self.into = into
        self.policy: Policy[Any, Any] = policy_for(game.name, level)
        self.order = random.Random(seed)
        self.state = game.setup(players, game.options_model(), seed)

    def say(self, line: str = "") -> None:
        print(line, file=self.out)

    def play(self) -> int:
        """Plays to the end; 0 when the game ended, 1 when the person quit."""
        self.opening()
        while (result := self.game.result(self.state)) is None:
            move = self.next_move()
            if move is None:
                self.goodbye()
                return 1
            seat, choice = move
            self.state, events = self.game.apply(self.state, seat, choice)
            self.moved(seat, choice, events)
        self.game_over(result)
        return 0

    def next_move(self) -> tuple[Seat, Choice] | None:
        """A computer's move while one is awaited (a random one of them), else the
        person's; None when the person quits."""
        awaiting = self.game.awaiting(self.state)
        computers = [seat for seat in awaiting if seat != self.me]
        if computers:
            seat = self.order.choice(computers)
            view = self.game.view(self.state, seat)
            return seat, self.policy.choose(view, decision_rng(self.seed, self.state.step, seat))
        assert self.me is not None
        choice = self.ask()
        return None if choice is None else (self.me, choice)

    def read_answer(self, question: str) -> str | None:
        """The person's next line, trimmed and lower-cased; None at the end of the
        input or on ``q``."""
        self.out.write(f"{question} ")
        self.out.flush()
        line = self.into.readline()
        if not self.into.isatty():  # typed answers echo themselves; piped ones do not
            self.say(line.rstrip("\n"))
        answer = line.strip().lower()
        return None if not line or answer == QUIT else answer

    @abstractmethod
    def opening(self) -> None:
        """What is said before the first move."""

    @abstractmethod
    def moved(self, seat: Seat, choice: Choice, events: list[Event]) -> None:
        """What is said after ``seat``'s ``choice`` was applied."""

    @abstractmethod
    def ask(self) -> Choice | None:
        """The person's choice (``me`` is asked something); None when it quits."""

    @abstractmethod
    def game_over(self, result: Result) -> None:
        """What is said once the game is over."""

    @abstractmethod
    def goodbye(self) -> None:
        """What is said when the person quits."""


@dataclass(frozen=True)
class Setup:
    """A terminal game's settings, from the command line."""

    game: AnyGame
    players: int
    me: Seat | None
    level: Level
    seed: int


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments every terminal front end takes (``setup_from`` reads them)."""
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, help="number of seats (default: the minimum)")
    parser.add_argument(
        "--level", choices=[level.value for level in Level], default=Level.NORMAL.value
    )
    parser.add_argument("--seed", type=int, help="the deal (default: random)")
    parser.add_argument("--seat", type=int, default=1, help="your seat, from 1 (default 1)")
    parser.add_argument("--watch", action="store_true", help="computers only; you watch")


def setup_from(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Setup:
    """The settings of ``add_game_arguments``, checked (an error exits, explained)."""
    game = GAMES[args.game]
    players = args.players or max(game.min_players, 2 if game.max_players > 1 else 1)
    if not game.min_players <= players <= game.max_players:
        parser.error(f"{game.title} takes {game.min_players} to {game.max_players} players")
    if not args.watch and not 1 <= args.seat <= players:
        parser.error(f"--seat must be from 1 to {players}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    me = None if args.watch else args.seat - 1
    return Setup(game, players, me, Level(args.level), seed)
