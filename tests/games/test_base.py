"""The engine protocol's machinery (games/base.py): prompts asked once per state, the
legality check against them, states copied without validation, trusted models."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator
from typing import Any

import pytest

from games.base import (
    FrozenModel,
    GameState,
    Model,
    NotAllowed,
    Prompt,
    Rng,
    Seat,
    copy_state,
    forget_prompts,
    trusted,
)
from games.complots import GAME, ComplotsOptions, ComplotsState
from games.complots.cards import ActionKind
from games.complots.models import Act, ComplotsChoice, Pass, PlayerView, Stage


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Seat]]:
    """The seats whose prompt Complots builds, in order."""
    seats: list[Seat] = []
    build = GAME._prompt_of

    def counting(state: ComplotsState, seat: Seat) -> Prompt[ComplotsChoice]:
        seats.append(seat)
        return build(state, seat)

    monkeypatch.setattr(GAME, "_prompt_of", counting)
    yield seats


def new_game(seed: int = 3) -> ComplotsState:
    return GAME.setup(4, ComplotsOptions(first_player=0), seed)


def test_a_state_builds_each_prompt_once(built: list[Seat]) -> None:
    state = new_game()
    prompts = GAME.prompts(state)
    assert GAME.prompt_for(state, 0) is prompts[0]
    assert GAME.view(state, 0).prompt is prompts[0]
    assert GAME.view(state, None).prompt is None
    assert GAME.prompts(state) == prompts and GAME.awaiting(state) == [0]
    GAME.apply(state, 0, Act(action=ActionKind.INCOME))
    assert built == [0], "prompts, prompt_for, view and apply share one prompt"


def test_the_state_after_a_step_asks_anew(built: list[Seat]) -> None:
    state, _ = GAME.apply(new_game(), 0, Act(action=ActionKind.INCOME))
    assert GAME.awaiting(state) == [1]
    assert GAME.prompts(state)[0].player == 1
    assert built == [0, 1]


def test_the_memo_is_no_part_of_the_state(built: list[Seat]) -> None:
    """Not dumped, not compared, not copied by any kind of copy."""
    asked = new_game()
    GAME.prompts(asked)
    fresh = new_game()
    assert asked == fresh and asked.model_dump_json() == fresh.model_dump_json()
    copies: list[Any] = [
        copy_state(asked),
        asked.model_copy(),
        asked.model_copy(deep=True),
        asked.model_copy(update={"turn": 0}),
        copy.copy(asked),
        copy.deepcopy(asked),
        pickle.loads(pickle.dumps(asked)),
        ComplotsState.model_validate_json(asked.model_dump_json()),
    ]
    for twin in copies:
        assert twin == asked
        GAME.prompts(twin)
    assert built == [0] * (1 + len(copies)), "every copy built its own prompt"


def test_assigning_a_field_drops_the_memo() -> None:
    state = new_game()
    assert GAME.awaiting(state) == [0]
    state.turn = 2
    assert GAME.awaiting(state) == [2]
    assert GAME.prompts(state)[0].player == 2


def test_a_change_below_the_fields_needs_forget_prompts() -> None:
    state = new_game()
    assert Act(action=ActionKind.COUP, target=1) not in GAME.prompts(state)[0].choices
    state.players[0].coins = 7
    forget_prompts(state)
    assert Act(action=ActionKind.COUP, target=1) in GAME.prompts(state)[0].choices


def test_apply_accepts_a_choice_equal_to_an_offered_one_only() -> None:
    """A button's choice is a new object, equal by value to the offered one."""
    state = new_game()
    offered = GAME.prompts(state)[0].choices
    clicked = GAME.parse_choice(b'{"type": "act", "action": "steal", "target": 2}')
    assert clicked in offered and all(clicked is not choice for choice in offered)
    before = state.model_dump()
    new, _ = GAME.apply(state, 0, clicked)
    assert new.stage is Stage.REACT
    with pytest.raises(NotAllowed):
        GAME.apply(state, 0, Act(action=ActionKind.STEAL, target=0))
    with pytest.raises(NotAllowed):
        GAME.apply(state, 0, Pass())
    assert state.model_dump() == before


def test_choices_are_equal_by_class_and_fields() -> None:
    steal = Act(action=ActionKind.STEAL, target=2)
    same = Act.model_validate({"type": "act", "action": "steal", "target": 2})
    assert steal == same and hash(steal) == hash(same)
    assert steal != Act(action=ActionKind.STEAL, target=1)
    assert Act(action=ActionKind.INCOME) != Pass()
    assert steal != PlayerView(seat=0, coins=0, alive=True, revealed=[], hidden_count=0)
    assert steal != "act" and steal is not None
    assert len({steal, same, Pass(), Pass()}) == 2


# --- trusted models and copies ---------------------------------------------------------


class Inner(Model):
    values: list[int]


class Point(FrozenModel):
    x: int
    y: int


class Tagged(FrozenModel):
    tags: list[str]


class Odd(GameState):
    """A state with field types the engines do not use (yet)."""

    items: list[Inner] = []
    table: dict[str, list[int]] = {}
    keyed: dict[tuple[int, int], int] = {}
    points: tuple[Point, ...] = ()
    tagged: Tagged | None = None
    either: int | list[int] = 0
    anything: Any = None
    label: str = "x"


def test_copy_state_copies_what_is_mutable_and_shares_the_rest() -> None:
    state = Odd(
        seats=2,
        rng=Rng(state=5),
        items=[Inner(values=[1, 2])],
        table={"a": [1]},
        keyed={(1, 2): 3},
        points=(Point(x=0, y=0),),
        tagged=Tagged(tags=["t"]),
        either=[4],
        anything={"deep": [1]},
    )
    twin = copy_state(state)
    assert twin == state and twin.model_dump() == state.model_dump()
    assert twin.rng is not state.rng and twin.items[0].values is not state.items[0].values
    assert twin.table["a"] is not state.table["a"] and twin.keyed is not state.keyed
    assert twin.tagged is not None and state.tagged is not None
    assert twin.tagged.tags is not state.tagged.tags, "a frozen model's list is copied"
    assert twin.either is not state.either and twin.anything["deep"] is not state.anything["deep"]
    assert twin.points is state.points, "immutable values are shared"
    twin.items[0].values.append(3)
    assert state.items[0].values == [1, 2]


def test_trusted_builds_what_validation_builds() -> None:
    fields: dict[str, Any] = {
        "seat": 1,
        "coins": 2,
        "alive": True,
        "revealed": [],
        "hidden_count": 2,
    }
    built = trusted(PlayerView, **fields)
    assert built == PlayerView(**fields)
    assert built.model_dump_json() == PlayerView(**fields).model_dump_json()
    assert built.hidden is None, "immutable defaults are filled in"
    built.coins = 3
    assert built.coins == 3


def test_trusted_refuses_a_missing_or_unknown_field() -> None:
    with pytest.raises(TypeError, match="missing"):
        trusted(PlayerView, seat=1)
    with pytest.raises(TypeError, match="unknown"):
        trusted(Inner, values=[], other=1)
    with pytest.raises(TypeError, match="missing"):  # a mutable default must be given
        trusted(Odd, seats=2, rng=Rng(state=1))
