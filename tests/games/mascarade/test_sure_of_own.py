"""The other seats in HARD's simulations beyond six players: NORMALs from their views,
sure of their own cards (games/mascarade ``SureOfOwn``)."""

from __future__ import annotations

import random

import pytest

from games.base import Event, Seat
from games.mascarade import GAME, HARD, MascaradeSearch, MascaradeState, MascaradeView, SureOfOwn
from games.mascarade.ai import NormalPolicy
from games.mascarade.models import Memory
from games.search import SearchSettings
from tests.games.mascarade.helpers import played

VIEW_ONLY = NormalPolicy()


def moments(players: int, seed: int) -> list[tuple[MascaradeState, list[list[Event]]]]:
    """Every state of the seeded game (``played``), with each seat's history."""
    return [(state, histories) for state, histories, _ in played(players, seed).moments]


def sure_of_own(view: MascaradeView) -> MascaradeView:
    """The view with the viewer's stale memories of its own cards made fresh."""
    assert view.viewer is not None
    players = list(view.players)
    me = players[view.viewer]
    cards = [None if m is None else Memory(character=m.character) for m in me.cards]
    players[view.viewer] = me.model_copy(update={"cards": cards})
    return view.model_copy(update={"players": players})


def test_it_decides_as_normal_would_if_its_stale_memory_of_its_card_were_fresh() -> None:
    """With a fresh memory of its card, it is NORMAL from the view; with a stale one,
    NORMAL from the same view where that memory is fresh, which is not always what
    NORMAL does with the stale memory."""
    stale = fresh = differ = 0
    for state, _ in moments(10, seed=3)[::2]:
        for seat in GAME.awaiting(state):
            view = GAME.view(state, seat)
            assert view.prompt is not None
            mine = view.players[seat].cards[0]
            sure = SureOfOwn().decide(view, view.prompt, random.Random(5))
            if mine is None or not mine.stale:
                fresh += 1
                assert sure == VIEW_ONLY.decide(view, view.prompt, random.Random(5))
                continue
            stale += 1
            assert sure == VIEW_ONLY.decide(sure_of_own(view), view.prompt, random.Random(5))
            differ += sure != VIEW_ONLY.decide(view, view.prompt, random.Random(5))
    assert fresh > 20 and stale > 20
    assert differ > 0


class Spying(SureOfOwn):
    """Notes the seat of every simulated decision it makes."""

    seats: list[Seat] = []

    def decide(self, view: MascaradeView, prompt: object, rng: random.Random) -> object:  # type: ignore[override]
        assert view.viewer is not None
        Spying.seats.append(view.viewer)
        return super().decide(view, prompt, rng)


@pytest.mark.parametrize("players", [6, 10])
def test_beyond_six_players_the_simulations_play_the_others_sure_of_their_cards(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At ten players every other seat's simulated decision is ``SureOfOwn``'s, never
    the searching seat's; at six (where it changed nothing measurable:
    bench/results/mascarade-hard.md) the others are NORMALs from their views."""
    import games.mascarade as package

    monkeypatch.setattr(package, "SURE_OF_OWN", Spying())
    Spying.seats = []
    searcher = HARD.with_settings(SearchSettings(budget_seconds=60.0, simulations=6))
    assert isinstance(searcher, MascaradeSearch)
    searched: list[Seat] = []
    for state, histories in moments(players, seed=4)[8::15][:8]:
        for seat in GAME.awaiting(state):
            view = GAME.view(state, seat)
            if view.prompt is None or len(view.prompt.choices) < 2:
                continue
            before = len(Spying.seats)
            choice = searcher.choose(view, random.Random(1), histories[seat])
            assert choice in view.prompt.choices
            assert seat not in Spying.seats[before:]
            searched.append(seat)
    assert len(searched) > 3
    if players > 6:
        assert len(Spying.seats) > 20
    else:
        assert not Spying.seats
