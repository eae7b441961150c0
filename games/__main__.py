"""Play a game in the terminal against computer players, without Discord.

    python -m games play complots --players 4            # you are seat 1
    python -m games play mascarade --players 6 --watch   # computers only
    python -m games play bloody_inn --players 2 --level easy --seed 7

For trying the rules and for debugging: you see exactly your seat's view
(the same one the bot renders and computer players decide from), every
event your seat may see, and your legal choices, numbered.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from games.ai import Level, Policy, decision_rng
from games.base import Event, FrozenModel, Game, Prompt, Seat
from games.registry import GAMES, policy_for

AnyGame = Game[Any, Any, Any, Any]


def describe(model: FrozenModel) -> str:
    """``type key=value ...`` for a choice or an event (no audience)."""
    data = model.model_dump(mode="json", exclude_none=True)
    kind = data.pop("type", type(model).__name__)
    data.pop("audience", None)
    return " ".join([str(kind), *(f"{key}={value}" for key, value in data.items())])


def outline(data: Any, indent: str = "") -> Iterator[str]:
    """A compact, indented outline of a view (no empty fields)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if value in (None, [], {}):
                continue
            if isinstance(value, dict | list) and not _flat(value):
                yield f"{indent}{key}:"
                yield from outline(value, indent + "  ")
            else:
                yield f"{indent}{key}: {_inline(value)}"
    elif isinstance(data, list):
        for index, item in enumerate(data):
            if isinstance(item, dict | list) and not _flat(item):
                yield f"{indent}[{index}]"
                yield from outline(item, indent + "  ")
            else:
                yield f"{indent}[{index}] {_inline(item)}"


def _flat(value: Any) -> bool:
    items = value.values() if isinstance(value, dict) else value
    return all(not isinstance(item, dict | list) for item in items)


def _inline(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items() if v not in (None, [], {}))
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


class Terminal:
    """One game between the person at ``me`` (or nobody: ``watch``) and computers."""

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

    def name(self, seat: Seat) -> str:
        return "you" if seat == self.me else f"seat {seat + 1} ({self.policy.level.value})"

    def play(self) -> int:
        """Plays to the end; 0 when the game ended, 1 when the person quit."""
        self.say(f"{self.game.title}, {self.state.seats} players, seed {self.seed}.")
        while (result := self.game.result(self.state)) is None:
            awaiting = self.game.awaiting(self.state)
            computers = [seat for seat in awaiting if seat != self.me]
            if computers:
                seat = self.order.choice(computers)
                choice = self.policy.choose(
                    self.game.view(self.state, seat), decision_rng(self.seed, self.state.step, seat)
                )
            else:
                assert self.me is not None
                seat = self.me
                asked = self.ask()
                if asked is None:
                    self.say("Bye.")
                    return 1
                choice = asked
            self.state, events = self.game.apply(self.state, seat, choice)
            self.say(f"> {self.name(seat)}: {describe(choice)}")
            self.show(events)
        winners = ", ".join(self.name(seat) for seat in result.winners) or "nobody"
        scores = f" (scores {list(result.scores)})" if result.scores else ""
        self.say(f"Game over: {winners} won{scores}.")
        return 0

    def show(self, events: list[Event]) -> None:
        for event in events:
            if self.me is None or event.visible_to(self.me):
                self.say(f"  · {describe(event)}")

    def ask(self) -> Any | None:
        """The person's choice, by number; None at end of input or on ``q``."""
        assert self.me is not None
        view = self.game.view(self.state, self.me)
        prompt: Prompt[Any] = view.prompt
        self.show_view(view)
        while True:
            self.say(f"Your {prompt.kind.value} ({prompt.window}):")
            for number, choice in enumerate(prompt.choices, start=1):
                self.say(f"  {number}. {describe(choice)}")
            self.out.write("Choice number (v: view, q: quit)? ")
            self.out.flush()
            line = self.into.readline()
            if not line or line.strip().lower() == "q":
                return None
            answer = line.strip().lower()
            if answer == "v":
                self.show_view(view)
            elif answer.isdigit() and 1 <= int(answer) <= len(prompt.choices):
                return prompt.choices[int(answer) - 1]
            else:
                self.say(f"Please type a number from 1 to {len(prompt.choices)}.")

    def show_view(self, view: Any) -> None:
        self.say("--- what you see ---")
        for line in outline(view.model_dump(mode="json", exclude={"prompt"})):
            self.say(line)


def main(
    argv: list[str] | None = None, *, out: TextIO = sys.stdout, into: TextIO = sys.stdin
) -> int:
    parser = argparse.ArgumentParser(prog="python -m games", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("play", help="play a game against computer players")
    play.add_argument("game", choices=sorted(GAMES))
    play.add_argument("--players", type=int, help="number of seats (default: the minimum)")
    play.add_argument(
        "--level", choices=[level.value for level in Level], default=Level.NORMAL.value
    )
    play.add_argument("--seed", type=int, help="the deal (default: random)")
    play.add_argument("--seat", type=int, default=1, help="your seat, from 1 (default 1)")
    play.add_argument("--watch", action="store_true", help="computers only; you watch")
    args = parser.parse_args(argv)
    game = GAMES[args.game]
    players = args.players or max(game.min_players, 2 if game.max_players > 1 else 1)
    if not game.min_players <= players <= game.max_players:
        parser.error(f"{game.title} takes {game.min_players} to {game.max_players} players")
    if not args.watch and not 1 <= args.seat <= players:
        parser.error(f"--seat must be from 1 to {players}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    terminal = Terminal(
        game,
        players,
        me=None if args.watch else args.seat - 1,
        level=Level(args.level),
        seed=seed,
        out=out,
        into=into,
    )
    return terminal.play()


if __name__ == "__main__":
    sys.exit(main())
