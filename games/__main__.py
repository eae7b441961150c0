"""Play a game in the terminal against computer players, without Discord.

    python -m games play complots --players 4            # you are seat 1
    python -m games play mascarade --players 6 --watch   # computers only
    python -m games play bloody_inn --players 2 --level easy --seed 7

For trying the rules and for debugging: you see exactly your seat's view
(the same one the bot renders and computer players decide from), every
event your seat may see, and your legal choices, numbered, as raw data.
The same game in the bot's sentences (English, Italian or French) is
``python -m bot.play`` (games/ cannot import the bot's words).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from games.base import Choice, Event, FrozenModel, Prompt, Result, Seat
from games.terminal import Terminal, add_game_arguments, setup_from


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


class RawTerminal(Terminal):
    """The developer's view: the seat's view as an outline, events and choices as
    ``type key=value``."""

    def name(self, seat: Seat) -> str:
        return "you" if seat == self.me else f"seat {seat + 1} ({self.policy.level.value})"

    def opening(self) -> None:
        self.say(f"{self.game.title}, {self.state.seats} players, seed {self.seed}.")

    def moved(self, seat: Seat, choice: Choice, events: list[Event]) -> None:
        self.say(f"> {self.name(seat)}: {describe(choice)}")
        for event in events:
            if self.me is None or event.visible_to(self.me):
                self.say(f"  · {describe(event)}")

    def game_over(self, result: Result) -> None:
        winners = ", ".join(self.name(seat) for seat in result.winners) or "nobody"
        scores = f" (scores {list(result.scores)})" if result.scores else ""
        self.say(f"Game over: {winners} won{scores}.")

    def goodbye(self) -> None:
        self.say("Bye.")

    def ask(self) -> Choice | None:
        """The person's choice, by number (``v`` shows the view again)."""
        assert self.me is not None
        view = self.game.view(self.state, self.me)
        prompt: Prompt[Any] = view.prompt
        self.show_view(view)
        while True:
            self.say(f"Your {prompt.kind.value} ({prompt.window}):")
            for number, choice in enumerate(prompt.choices, start=1):
                self.say(f"  {number}. {describe(choice)}")
            answer = self.read_answer("Choice number (v: view, q: quit)?")
            if answer is None:
                return None
            if answer == "v":
                self.show_view(view)
            elif answer.isdigit() and 1 <= int(answer) <= len(prompt.choices):
                chosen: Choice = prompt.choices[int(answer) - 1]
                return chosen
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
    add_game_arguments(play)
    setup = setup_from(play, parser.parse_args(argv))
    terminal = RawTerminal(
        setup.game,
        setup.players,
        me=setup.me,
        level=setup.level,
        seed=setup.seed,
        out=out,
        into=into,
    )
    return terminal.play()


if __name__ == "__main__":
    sys.exit(main())
