"""bench.ai's opponents: the forgetful NORMAL (the NORMAL of HARD's first goals)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bench.ai import Forgetful, opponent
from games.ai import Level, Policy
from games.base import Event, Prompt
from games.mascarade import GAME
from games.registry import policy_for
from games.search import SearchPolicy
from tests.games.playouts import play_out


def twin(rng: random.Random) -> random.Random:
    copy = random.Random()
    copy.setstate(rng.getstate())
    return copy


class Compared(Policy[Any, Any]):
    """Plays the forgetful NORMAL, and counts where it differs from NORMAL given
    the seat's history, and from NORMAL given none."""

    level = Level.NORMAL

    def __init__(self) -> None:
        self.normal = policy_for("mascarade", Level.NORMAL)
        self.forgetful = opponent("mascarade", "forgetful")
        self.unlike_remembering = self.unlike_viewonly = 0

    def choose(self, view: Any, rng: random.Random, history: Sequence[Event] = ()) -> Any:
        remembering = self.normal.choose(view, twin(rng), history)
        viewonly = self.normal.choose(view, twin(rng), ())
        forgot = self.forgetful.choose(view, rng, history)
        self.unlike_remembering += forgot != remembering
        self.unlike_viewonly += forgot != viewonly
        return forgot

    def decide(self, view: Any, prompt: Prompt[Any], rng: random.Random) -> Any:
        raise AssertionError("choose plays")


def test_the_forgetful_normal_decides_from_the_view_alone() -> None:
    seats = Compared()
    play_out(GAME, [seats] * 6, seed=3)
    assert seats.unlike_viewonly == 0
    assert seats.unlike_remembering > 0, "given its history, NORMAL decides otherwise"


def test_a_search_plays_forgetful_seats_as_themselves_in_its_simulations() -> None:
    hard = policy_for("mascarade", Level.HARD)
    assert isinstance(hard, SearchPolicy)
    forgetful = opponent("mascarade", "forgetful")
    assert isinstance(forgetful, Forgetful) and not forgetful.remembers
    assert hard.facing({1: forgetful}).seated == {1: forgetful}
    assert hard.facing({1: policy_for("mascarade", Level.NORMAL)}).seated == {}
