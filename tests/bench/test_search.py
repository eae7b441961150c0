"""The search's speed bench: the decisions it times, with or without their histories."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bench.search import moments, searcher, think
from games.base import Event
from games.mascarade import GAME


def test_each_moment_keeps_what_seat_0_had_been_shown_before_it() -> None:
    search = searcher(GAME.name, 4)
    found = moments(GAME, 4, 3, search)
    assert len(found) == 3
    first, second, third = found
    assert first.history, "a search decision comes after some events"
    # One game, so each history goes on from the one before, and shows seat 0
    # nothing private to another seat.
    assert second.history[: len(first.history)] == first.history
    assert third.history[: len(second.history)] == second.history
    assert len(third.history) > len(first.history)
    assert all(event.visible_to(0) for event in third.history)
    assert any(event.audience == (0,) for event in third.history), "seat 0's own secrets"


def test_the_same_moments_are_thought_over_with_or_without_their_histories(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    search = searcher(GAME.name, 4)
    found = moments(GAME, 4, 2, search)
    given: list[tuple[object, int]] = []

    def choose(view: object, rng: random.Random, history: Sequence[Event] = ()) -> None:
        given.append((view, len(history)))

    monkeypatch.setattr(search, "choose", choose)
    think(search, found, history=True)
    think(search, found, history=False)
    views = [moment.view for moment in found]
    lengths = [len(moment.history) for moment in found]
    assert given == [*zip(views, lengths, strict=True), *((view, 0) for view in views)]
