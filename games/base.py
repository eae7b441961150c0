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
* A state's prompts are built once (games implement ``_awaiting`` and
  ``_prompt_of``; the public ``awaiting``, ``prompts``, ``prompt_for``, the
  legality check of ``apply`` and ``view`` share a memo kept on the state, see
  ``GameState``). Engines build prompts and views with ``trusted`` (not
  validated: made from their own valid state), and make the choices they offer
  again and again once (choices are frozen, so shared).
"""

from __future__ import annotations

import copy
import types
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, MutableSequence, Sequence
from enum import Enum, StrEnum
from functools import cache
from typing import (
    Annotated,
    Any,
    ClassVar,
    Generic,
    Literal,
    NamedTuple,
    TypeVar,
    Union,
    get_args,
    get_origin,
)

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


# --- models built and copied without validation ------------------------------------------
# Pydantic validates in Rust, but for the small models engines make by the dozen per
# step (prompts, views) validation costs up to 6x setting the fields (and
# ``model_construct``, in Python, more still). What an engine builds from its own
# valid state is valid by construction: ``trusted`` only sets the fields. The
# conformance suite validates a share of the views so built.
#
# ``apply`` copies the state it is given, then changes the copy. ``copy_state``
# follows the models' field types: immutable values (numbers, strings, enums,
# frozen models of immutable values, tuples of them) are shared, lists and dicts
# rebuilt, mutable models copied field by field, anything else deep-copied. Nothing
# is validated again: 1.1x (Complots) to 1.6x faster than the dump/validate round
# trip it replaces (itself ~4x faster than ``copy.deepcopy``).

_M = TypeVar("_M", bound=BaseModel)
_Copy = Callable[[Any], Any]
_new = object.__new__
_set = object.__setattr__
_MISSING: Any = object()
assert set(BaseModel.__slots__) == {
    "__dict__",
    "__pydantic_fields_set__",
    "__pydantic_extra__",
    "__pydantic_private__",
}, "pydantic changed what a model instance holds: review trusted and _model_plan"


def trusted(cls: type[_M], **values: Any) -> _M:
    """A ``cls`` built from values its engine made, valid by construction (not
    validated). Fields not given take their default, which must be immutable; a
    missing field or an unknown one is a TypeError."""
    template, required = _template(cls)
    fields = template.copy()
    fields.update(values)
    size = len(template)
    if len(fields) != size or (len(values) != size and not values.keys() >= required):
        unknown = set(values) - set(template)
        missing = required - set(values)
        raise TypeError(f"{cls.__name__}: unknown {unknown or ''} missing {missing or ''}")
    model: _M = _new(cls)  # as pydantic makes one
    _set(model, "__dict__", fields)
    _set(model, "__pydantic_fields_set__", set(values))
    _set(model, "__pydantic_extra__", None)
    _set(model, "__pydantic_private__", None)
    return model


@cache
def _template(cls: type[BaseModel]) -> tuple[dict[str, Any], frozenset[str]]:
    """Each field of ``cls`` with its default when that is immutable (shared by every
    instance), and the fields that must be given (required, or a mutable default)."""
    if cls.model_config.get("extra") == "allow" or cls.__private_attributes__:
        raise TypeError(f"{cls.__name__} holds more than fields: validate it")
    template: dict[str, Any] = {}
    for name, field in cls.model_fields.items():
        annotation: Any = field.annotation
        default = field.default
        kind: Any = type(default)
        shared = _plan(kind) is None or _plan(annotation) is None
        given = field.is_required() or field.default_factory is not None or not shared
        template[name] = _MISSING if given else default
    return template, frozenset(name for name, value in template.items() if value is _MISSING)


@cache
def _plan(tp: Any) -> _Copy | None:
    """How to copy a value of type ``tp``: None when it is immutable (shared)."""
    origin = get_origin(tp)
    if origin is Annotated:
        return _plan(get_args(tp)[0])
    if origin is Literal:
        return None
    args = get_args(tp)
    if origin is Union or origin is types.UnionType:
        options = [arg for arg in args if arg is not type(None)]
        plans = [_plan(arg) for arg in options]
        if all(plan is None for plan in plans):
            return None
        if len(plans) == 1 and (inner := plans[0]) is not None:
            return lambda value: None if value is None else inner(value)
        return copy.deepcopy
    if origin is tuple:
        return None if all(_plan(arg) is None for arg in args if arg is not ...) else copy.deepcopy
    if origin is list:
        item = _plan(args[0])
        return list if item is None else lambda value: [item(x) for x in value]
    if origin is dict:
        value_plan = _plan(args[1])
        if _plan(args[0]) is not None:
            return copy.deepcopy
        if value_plan is None:
            return dict
        return lambda value: {key: value_plan(x) for key, x in value.items()}
    if isinstance(tp, type) and origin is None:
        if issubclass(tp, int | str | float | bytes | Enum) or tp is type(None):
            return None
        if issubclass(tp, BaseModel):
            return _model_plan(tp)
    return copy.deepcopy


def _model_plan(cls: type[BaseModel]) -> _Copy | None:
    """A model: its ``__dict__`` copied with each mutable field copied by its plan.
    Shared when frozen with immutable fields; deep-copied when pydantic keeps more
    than fields on it (extra fields, private attributes)."""
    annotations: dict[str, Any] = {name: f.annotation for name, f in cls.model_fields.items()}
    fields = [(name, _plan(annotation)) for name, annotation in annotations.items()]
    if cls.model_config.get("frozen") and all(plan is None for _, plan in fields):
        return None
    if cls.model_config.get("extra") == "allow" or cls.__private_attributes__:
        return copy.deepcopy
    mutable = [(name, plan) for name, plan in fields if plan is not None]

    def copy_model(model: Any) -> Any:  # the hot loop of apply: see trusted
        if type(model) is not cls:  # a subclass: fields unknown here
            return copy.deepcopy(model)
        values = model.__dict__.copy()
        for name, plan in mutable:
            values[name] = plan(values[name])
        new = _new(cls)
        _set(new, "__dict__", values)
        _set(new, "__pydantic_fields_set__", model.__pydantic_fields_set__.copy())
        _set(new, "__pydantic_extra__", None)
        _set(new, "__pydantic_private__", None)
        return new

    return copy_model


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
    """Base of a game's choices. Each game defines a union discriminated by ``type``.

    Equal when of the same class with the same fields: what pydantic's equality
    says for these plain frozen models, about 5x faster (``apply`` looks a clicked
    choice up among the offered ones)."""

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self.__dict__ == other.__dict__
        return False if isinstance(other, BaseModel) else NotImplemented

    __hash__ = FrozenModel.__hash__  # pydantic's (a class defining __eq__ loses its hash)


ChoiceT = TypeVar("ChoiceT", bound=Choice)


class Prompt(FrozenModel, Generic[ChoiceT]):
    """One player asked to decide, with every legal answer and the timeout default."""

    player: Seat
    kind: PromptKind
    window: str
    choices: tuple[ChoiceT, ...]
    default: ChoiceT

    @classmethod
    def trusted(
        cls,
        player: Seat,
        kind: PromptKind,
        window: str,
        choices: tuple[ChoiceT, ...],
        default: ChoiceT,
    ) -> Prompt[ChoiceT]:
        """A prompt built by its engine, whose fields are valid by construction: not
        validated again (validating the choices of a turn costs ~10x this)."""
        return trusted(
            cls, player=player, kind=kind, window=window, choices=choices, default=default
        )


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
    """Fields every game state has.

    Besides its fields a state holds, in a slot, the memo of who is awaited and of
    the prompts asked (``Game`` fills it on first use): computed once per state
    rather than for every ``awaiting``, ``prompts``, ``prompt_for``, ``apply`` and
    ``view``. The memo is not a field: never dumped, compared or copied (a copy,
    ``model_copy`` included, starts without one); it belongs to one ``step`` and is
    dropped whenever a field of the state is assigned. A state is a value: the
    engine changes only its own fresh copy; code that edits a state in place deeper
    than its fields (``state.players[0].coins = 3``, in tests) does it before asking
    the state anything, or calls ``forget_prompts``.
    """

    __slots__ = ("_memo",)

    seats: int
    rng: Rng
    step: int = 0
    """Number of choices applied so far (the engine's own version number)."""

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        _MEMO.__set__(self, None)


_MEMO = GameState.__dict__["_memo"]
"""The memo slot's descriptor (its ``__get__`` raises AttributeError while unset)."""


def forget_prompts(state: GameState) -> None:
    """Drop the memo of ``state`` (after changing it in place, below its fields)."""
    _MEMO.__set__(state, None)


class _Memo:
    """What one state asks (see GameState): who, and each awaited seat's prompt."""

    __slots__ = ("awaiting", "every", "prompts", "step")

    def __init__(self, step: int, awaiting: tuple[Seat, ...]) -> None:
        self.step = step
        self.awaiting = awaiting
        self.prompts: dict[Seat, Prompt[Any]] = {}
        self.every: tuple[Prompt[Any], ...] | None = None


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


class Phrase(NamedTuple):
    """A text for people, named by its translation key (as ``IllegalChoice`` codes
    are) and filled with ``params``: the rules name what to say, the bot words it
    in the reader's language. A param may itself be a Phrase, or a list of them
    (read joined by commas)."""

    key: str
    params: Mapping[str, object] = {}


class InvalidOptions(ValueError):
    """Table options that do not make a playable game (bad player count, bad set):
    the English ``message`` for logs, and the ``phrase`` people read."""

    def __init__(self, message: str, key: str, /, **params: object) -> None:
        super().__init__(message)
        self.phrase = Phrase(key, params)


StateT = TypeVar("StateT", bound=GameState)


def copy_state(state: StateT) -> StateT:
    """An independent copy, equal to the state, sharing nothing mutable with it (and
    without its memo of prompts)."""
    copier = _plan(type(state))
    assert copier is not None, "a state is mutable"
    copied: StateT = copier(state)
    return copied


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
                f" not {players}.",
                "options.player_count",
                game=Phrase(f"{self.name}.title"),
                minimum=self.min_players,
                maximum=self.max_players,
                players=players,
            )
        first: Seat | None = getattr(options, "first_player", None)
        if first is not None and not 0 <= first < players:
            raise InvalidOptions(
                f"There is no seat {first} to start.", "options.first_player", seat=first + 1
            )
        rng = Rng.from_seed(seed)
        return rng, first if first is not None else rng.below(players)

    def player_counts(self) -> range:
        return range(self.min_players, self.max_players + 1)

    # --- who is asked what: computed once per state (the memo, see GameState) ---------

    def _memo(self, state: StateT) -> _Memo:
        # Threads may ask one state at once (the bot draws pictures in a worker
        # thread): each write is atomic, and whoever writes last wrote the same.
        try:
            memo: _Memo | None = _MEMO.__get__(state)
        except AttributeError:  # a state fresh from validation
            memo = None
        if memo is None or memo.step != state.step:
            memo = _Memo(state.step, tuple(self._awaiting(state)))
            _MEMO.__set__(state, memo)
        return memo

    def _memo_prompt(self, memo: _Memo, state: StateT, seat: Seat) -> Prompt[ChoiceT] | None:
        prompt = memo.prompts.get(seat)
        if prompt is None and seat in memo.awaiting:
            prompt = memo.prompts[seat] = self._prompt_of(state, seat)
        return prompt

    def awaiting(self, state: StateT) -> list[Seat]:
        """Who is being asked something now, in seat order (no choice built)."""
        return list(self._memo(state).awaiting)

    def prompts(self, state: StateT) -> list[Prompt[ChoiceT]]:
        """Everyone asked something right now; empty when the game is over."""
        memo = self._memo(state)
        if memo.every is None:
            every = [self._memo_prompt(memo, state, seat) for seat in memo.awaiting]
            memo.every = tuple(prompt for prompt in every if prompt is not None)
        return list(memo.every)

    def prompt_for(self, state: StateT, seat: Seat) -> Prompt[ChoiceT] | None:
        """What ``seat`` is asked now (None: nothing)."""
        return self._memo_prompt(self._memo(state), state, seat)

    @abstractmethod
    def _awaiting(self, state: StateT) -> list[Seat]:
        """Who is being asked something now, in seat order, computed from the state.
        Transitions call it on the state they are changing (never the memoised
        ``awaiting``: the memo belongs to the state before the change)."""

    @abstractmethod
    def _prompt_of(self, state: StateT, seat: Seat) -> Prompt[ChoiceT]:
        """The prompt of a seat known to be in ``awaiting``, built anew."""

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
        self._check(state, seat, choice)
        new = copy_state(state)
        events = self._transition(new, seat, choice)
        new.step += 1
        return new, events

    def apply_in_place(self, state: StateT, seat: Seat, choice: ChoiceT) -> list[Event]:
        """``apply`` without the copy, for a caller that owns ``state`` outright (a
        search stepping through its own sampled states): the choice is checked the
        same way, then ``state`` itself becomes the next state. An illegal choice
        raises before anything changed. Never hand it a state anyone else holds
        (a stored one, a view's source, an ``apply`` input)."""
        choice = self.canonical(choice)
        self._check(state, seat, choice)
        events = self._transition(state, seat, choice)
        state.step += 1
        return events

    def check(self, state: StateT, seat: Seat, choice: ChoiceT) -> Prompt[ChoiceT]:
        """The prompt that makes this choice legal, or a typed IllegalChoice."""
        return self._check(state, seat, self.canonical(choice))

    def _check(self, state: StateT, seat: Seat, choice: ChoiceT) -> Prompt[ChoiceT]:
        """``check`` of a choice in canonical form: a lookup among the choices the
        state's (memoised) prompt offers, equal by value (a button's choice is a new
        object), nothing built again."""
        if self.result(state) is not None:
            raise GameIsOver(seat)
        prompt = self.prompt_for(state, seat)
        if prompt is None:
            raise NotPrompted(seat)
        if choice not in prompt.choices:
            raise NotAllowed(seat, repr(choice))
        return prompt

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
