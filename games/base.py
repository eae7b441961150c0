"""The engine protocol every game implements.

A game is a set of pure functions over a pydantic state (see design.md):
``setup`` builds the state, ``prompts`` says who is asked what, ``apply``
takes one player's choice, ``view`` is what one player (or a spectator) may
know, ``result`` is the outcome. Nothing here knows about Discord, storage or
asyncio.

Conventions shared by all games:

* Players are seats ``0..n-1`` in clockwise order; the bot maps seats to users.
* Every legal choice is enumerated by ``prompts``; ``apply`` accepts exactly
  the choices offered to that player and raises a typed ``IllegalChoice``
  otherwise, leaving the state untouched (it works on a copy). A choice that
  holds a set of things (the cards kept in an exchange) is the same choice in
  any order: ``canonical`` puts it in the order its prompt offers.
* Several players may be prompted at once (a reaction window). All prompts
  of one decision moment share a ``window`` key: the bot keeps one deadline
  per window, and a player passing does not restart it.
* Each prompt carries the choice applied when its window times out.
* Randomness comes from ``Rng``, whose state lives inside the game state, so
  ``(seed, options, choices)`` replays to the identical state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import MutableSequence, Sequence
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter

Seat = int
"""A player's seat index, 0-based, in clockwise order."""

_MASK64 = (1 << 64) - 1
_T = TypeVar("_T")


class Model(BaseModel):
    """Base of every engine model: unknown fields are errors."""

    model_config = ConfigDict(extra="forbid")


class FrozenModel(BaseModel):
    """Immutable, hashable value (choices, events, prompts)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Rng(Model):
    """A small seeded generator (SplitMix64) whose whole state is one integer.

    It lives inside the game state, so it is saved, copied and replayed with
    it. Only the engine that owns a state copy may draw from it.
    """

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(state=seed & _MASK64)

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in ``range(n)``; the bias of the multiply-shift is < n / 2**64."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return (self.next_u64() * n) >> 64

    def pick(self, items: Sequence[_T]) -> _T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class PromptKind(StrEnum):
    """What kind of decision a prompt is; the bot picks the timeout by kind."""

    TURN = "turn"
    """The active player's main decision."""
    REACTION = "reaction"
    """A window several players may answer (challenge, block, contest)."""
    CHOICE = "choice"
    """A private follow-up decision of one player (which card, which to keep)."""


class Choice(FrozenModel):
    """Base of a game's choices. Each game defines a union discriminated by ``type``."""


ChoiceT = TypeVar("ChoiceT", bound=Choice)


class Prompt(FrozenModel, Generic[ChoiceT]):
    """One player asked to decide, with every legal answer and the timeout default."""

    player: Seat
    kind: PromptKind
    window: str
    choices: tuple[ChoiceT, ...]
    default: ChoiceT


class Event(FrozenModel):
    """Something that happened. ``audience`` None means public, else only those seats."""

    audience: tuple[Seat, ...] | None = None

    @property
    def public(self) -> bool:
        return self.audience is None

    def visible_to(self, seat: Seat | None) -> bool:
        return self.audience is None or (seat is not None and seat in self.audience)


class View(Model):
    """Base of a game's views: whose view it is and what that seat is asked now."""

    viewer: Seat | None
    """The seat that sees this (None: a spectator, who sees no secret)."""
    prompt: Prompt[Any] | None = None
    """The viewer's own open prompt, with its legal choices (None: not asked)."""


class Result(FrozenModel):
    """The outcome of a finished game."""

    winners: tuple[Seat, ...]
    scores: tuple[int, ...] | None = None


class GameState(Model):
    """Fields every game state has."""

    seats: int
    rng: Rng
    step: int = 0
    """Number of choices applied so far (the engine's own version number)."""


class IllegalChoice(Exception):
    """A choice the rules do not allow now. ``code`` is a translation key."""

    code: ClassVar[str] = "illegal"

    def __init__(self, seat: Seat | None, detail: str = "") -> None:
        super().__init__(
            f"{self.code}: seat {seat}: {detail}" if detail else f"{self.code}: {seat}"
        )
        self.seat = seat
        self.detail = detail


class GameIsOver(IllegalChoice):
    code = "game_over"


class NotPrompted(IllegalChoice):
    """The player is not being asked anything right now (wrong player or wrong phase)."""

    code = "not_prompted"


class NotAllowed(IllegalChoice):
    """The player is prompted, but this choice is not one of its legal answers."""

    code = "not_allowed"


class InvalidOptions(ValueError):
    """Table options that do not make a playable game (bad player count, bad set)."""


StateT = TypeVar("StateT", bound=GameState)


def copy_state(state: StateT) -> StateT:
    """An independent copy; a dump/validate round trip is ~4x faster than deepcopy."""
    return type(state).model_validate(state.model_dump())


OptionsT = TypeVar("OptionsT", bound=Model)
ViewT = TypeVar("ViewT", bound=View)


class Game(ABC, Generic[StateT, OptionsT, ChoiceT, ViewT]):
    """A game's rules. Subclasses are stateless; all state is in ``StateT``."""

    name: ClassVar[str]
    title: ClassVar[str]
    """The game's name in players' words (errors)."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    typical_players: ClassVar[int]
    """The table size most often played (benches and quick checks use it)."""
    options_model: ClassVar[type[Model]]
    state_model: ClassVar[type[GameState]]
    choice_adapter: ClassVar[TypeAdapter[Any]]
    choice_types: ClassVar[tuple[type[Choice], ...]]
    event_adapter: ClassVar[TypeAdapter[Any]]

    @abstractmethod
    def setup(self, players: int, options: OptionsT, seed: int) -> StateT:
        """A new game for ``players`` seats. Raises InvalidOptions."""

    def _start(self, players: int, options: OptionsT, seed: int) -> tuple[Rng, Seat]:
        """Every setup's first step: check the player count and the ``first_player``
        option; the game's RNG and its first seat (the option's, else a random one)."""
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptions(
                f"{self.title} needs {self.min_players} to {self.max_players} players,"
                f" not {players}."
            )
        first: Seat | None = getattr(options, "first_player", None)
        if first is not None and not 0 <= first < players:
            raise InvalidOptions(f"There is no seat {first} to start.")
        rng = Rng.from_seed(seed)
        return rng, first if first is not None else rng.below(players)

    def player_counts(self) -> range:
        return range(self.min_players, self.max_players + 1)

    def prompts(self, state: StateT) -> list[Prompt[ChoiceT]]:
        """Everyone asked something right now; empty when the game is over."""
        return [self._prompt_of(state, seat) for seat in self.awaiting(state)]

    @abstractmethod
    def awaiting(self, state: StateT) -> list[Seat]:
        """Who is being asked something now, in seat order. Cheap (no choices built):
        rendering and stale-click checks ask it often."""

    @abstractmethod
    def _prompt_of(self, state: StateT, seat: Seat) -> Prompt[ChoiceT]:
        """The prompt of a seat known to be in ``awaiting``."""

    @abstractmethod
    def view(self, state: StateT, seat: Seat | None) -> ViewT:
        """What ``seat`` may know (``None``: a spectator, no secret at all)."""

    @abstractmethod
    def result(self, state: StateT) -> Result | None:
        """Winners once the game is over, else None."""

    @abstractmethod
    def _transition(self, state: StateT, seat: Seat, choice: ChoiceT) -> list[Event]:
        """Apply a choice already known to be legal, mutating ``state`` (a private copy)."""

    @abstractmethod
    def _forfeit(self, state: StateT, seat: Seat) -> list[Event]:
        """Remove a seat from play (a moderator's decision), mutating the copy."""

    def canonical(self, choice: ChoiceT) -> ChoiceT:
        """``choice`` in the form its prompt offers it. Games whose choices hold an
        unordered set of things (in a tuple) sort it here, so that any order of the
        same things is the same choice; by default a choice is its own form."""
        return choice

    def apply(self, state: StateT, seat: Seat, choice: ChoiceT) -> tuple[StateT, list[Event]]:
        """Apply one player's choice (in any form ``canonical`` accepts). The given
        state is never modified."""
        choice = self.canonical(choice)
        self.check(state, seat, choice)
        new = copy_state(state)
        events = self._transition(new, seat, choice)
        new.step += 1
        return new, events

    def check(self, state: StateT, seat: Seat, choice: ChoiceT) -> Prompt[ChoiceT]:
        """The prompt that makes this choice legal, or a typed IllegalChoice."""
        if self.result(state) is not None:
            raise GameIsOver(seat)
        prompt = self.prompt_for(state, seat)
        if prompt is None:
            raise NotPrompted(seat)
        if self.canonical(choice) not in prompt.choices:
            raise NotAllowed(seat, repr(choice))
        return prompt

    def prompt_for(self, state: StateT, seat: Seat) -> Prompt[ChoiceT] | None:
        if seat not in self.awaiting(state):
            return None
        return self._prompt_of(state, seat)

    def timeout(self, state: StateT) -> tuple[StateT, list[Event]]:
        """Apply every open prompt's default, as when its window's deadline passes.

        Defaults are applied one after another; a default that closes the window
        (or any prompt that vanished meanwhile) stops the others from applying.
        """
        prompts = self.prompts(state)
        events: list[Event] = []
        if not prompts:
            return state, events
        window = prompts[0].window
        for prompt in prompts:
            current = self.prompt_for(state, prompt.player)
            if current is None or current.window != window:
                continue
            state, new_events = self.apply(state, prompt.player, current.default)
            events.extend(new_events)
        return state, events

    def forfeit(self, state: StateT, seat: Seat) -> tuple[StateT, list[Event]]:
        """Take a seat out of the game (removed by a moderator). State untouched."""
        if self.result(state) is not None:
            raise GameIsOver(seat)
        if not 0 <= seat < state.seats:
            raise NotPrompted(seat, "no such seat")
        new = copy_state(state)
        events = self._forfeit(new, seat)
        new.step += 1
        return new, events

    def parse_event(self, data: str | bytes) -> Event:
        """An event from its JSON form (as stored with the action log)."""
        event: Event = self.event_adapter.validate_json(data)
        return event

    def parse_choice(self, data: str | bytes) -> ChoiceT:
        """A choice from its JSON form (as stored in the action log)."""
        choice: ChoiceT = self.choice_adapter.validate_json(data)
        return choice
