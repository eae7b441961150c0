"""A game-agnostic driver for scenario tests: plays choices on a state the way
a table would, keeping every event. Each game's ``Table`` subclasses it.

Scenario tests rig positions by editing ``table.state`` in place between steps,
below its fields too: every question the driver asks goes through ``current``,
which drops the state's memo of prompts (see ``GameState``) first."""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

from games.base import Choice, Event, Game, GameState, Prompt, Seat, forget_prompts

StateT = TypeVar("StateT", bound=GameState)
ChoiceT = TypeVar("ChoiceT", bound=Choice)
EventT = TypeVar("EventT", bound=Event)


class EngineTable(Generic[StateT, ChoiceT]):
    """Plays choices on a state and keeps every event, like a table would."""

    game: ClassVar[Game[Any, Any, Any, Any]]

    def __init__(self, state: StateT) -> None:
        self.state = state
        self.events: list[Event] = []

    def _record(self, state: StateT, events: list[Event]) -> list[Event]:
        self.state = state
        self.events.extend(events)
        return events

    def current(self) -> StateT:
        """The state, as the test may have edited it since the last question."""
        forget_prompts(self.state)
        return self.state

    def do(self, seat: Seat, choice: ChoiceT) -> list[Event]:
        return self._record(*self.game.apply(self.current(), seat, choice))

    def timeout(self) -> list[Event]:
        return self._record(*self.game.timeout(self.current()))

    def forfeit(self, seat: Seat) -> list[Event]:
        return self._record(*self.game.forfeit(self.current(), seat))

    def prompted(self) -> list[Seat]:
        return self.game.awaiting(self.current())

    def prompt(self, seat: Seat) -> Prompt[ChoiceT]:
        prompt: Prompt[ChoiceT] | None = self.game.prompt_for(self.current(), seat)
        assert prompt is not None, f"seat {seat} is not prompted"
        return prompt

    def choices(self, seat: Seat) -> tuple[ChoiceT, ...]:
        return self.prompt(seat).choices

    def of_type(self, kind: type[EventT]) -> list[EventT]:
        return [e for e in self.events if isinstance(e, kind)]
