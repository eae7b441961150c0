"""bench.mascarade_oracle: the cheating measurement gives its simulated players what
each mode says, and nothing leaks out of it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import games.mascarade.sampler as mascarade_sampler
from bench.mascarade_oracle import (
    Mode,
    OracleSearch,
    Table,
    TrueState,
    salted_tracking,
    spread,
)
from games.ai import Level
from games.base import Event
from games.mascarade import GAME
from games.mascarade.ai import POLICIES
from games.mascarade.cards import Character
from games.mascarade.models import CardSeen, Looked, MascaradeView
from games.mascarade.sampler import track


def test_an_event_reaches_only_the_seats_shown_it() -> None:
    histories: list[list[Event]] = [[], [], []]
    public = Looked(seat=1, slot=0)
    private = CardSeen(audience=(1,), seat=1, target=1, slot=0, character=Character.KING)
    spread(histories, [public, private])
    assert histories == [[public], [public, private], [public]]


def played(players: int, seed: int, steps: int) -> Table:
    """The table after ``steps`` decisions of NORMALs: its state and every seat's
    history."""
    normal = POLICIES[Level.NORMAL]
    state = GAME.setup(players, GAME.options_model(), seed)
    table = Table(truth=state, histories=[[] for _ in range(players)])
    order = random.Random(seed)
    for step in range(steps):
        seat = order.choice(GAME.awaiting(state))
        choice = normal.choose(GAME.view(state, seat), random.Random(step), table.histories[seat])
        state, events = GAME.apply(state, seat, choice)
        spread(table.histories, events)
    table.truth = state
    return table


def test_salted_tracking_draws_other_deals_and_puts_the_module_back() -> None:
    table = played(6, 7, 40)
    assert table.truth is not None
    view, history = GAME.view(table.truth, 0), table.histories[0]
    usual = track(view, history, 50)
    assert usual is not None
    with salted_tracking(12345):
        salted = track(view, history, 50)
        again = track(view, history, 50)
    with salted_tracking(12345):
        same_salt = track(view, history, 50)
    assert salted != usual
    assert again == salted == same_salt
    assert track(view, history, 50) == usual
    assert vars(mascarade_sampler)["random"] is random


def test_the_true_state_is_dealt_as_a_copy() -> None:
    state = GAME.setup(6, GAME.options_model(), 5)
    draw = TrueState(state).prepare(GAME.view(state, 0), [])
    dealt = draw(random.Random(1))
    assert dealt == state
    assert dealt is not state and dealt.cards is not state.cards


class Recording(OracleSearch):
    """Records the history each simulated player decides with."""

    given: list[tuple[int, list[Event]]]

    def remembered_move(
        self, view: MascaradeView, rng: random.Random, history: Sequence[Event]
    ) -> Any:
        assert view.viewer is not None
        self.given.append((view.viewer, list(history)))
        return super().remembered_move(view, rng, history)


def test_remembering_simulated_players_decide_from_their_true_history_carried_on() -> None:
    table = played(6, 11, 30)
    state = table.truth
    assert state is not None
    hero_seat = GAME.awaiting(state)[0]
    for mode in (Mode.MEM, Mode.SALTED):
        hero = Recording(mode, 4, table)
        hero.given = []
        view = GAME.view(state, hero_seat)
        hero.choose(view, random.Random(9), table.histories[hero_seat])
        assert hero.given, "no other seat decided in the simulations"
        for seat, history in hero.given:
            assert seat != hero_seat
            true = table.histories[seat]
            assert history[: len(true)] == true
            later = history[len(true) :]
            assert all(e.audience is None or seat in e.audience for e in later)
        assert any(len(h) > len(table.histories[s]) for s, h in hero.given)
    view_only = Recording(Mode.VIEW, 4, table)
    view_only.given = []
    view_only.choose(GAME.view(state, hero_seat), random.Random(9), table.histories[hero_seat])
    assert view_only.given == []


class Flagging(OracleSearch):
    """Records whether each simulation plays the other seats sure of their own cards."""

    flags: list[bool]

    def simulate(self, state: Any, seat: int, choice: Any, rng: Any, stop_at: Any = None) -> float:
        self.flags.append(self.others_sure_of_own)
        return super().simulate(state, seat, choice, rng, stop_at)


def test_the_oracle_plays_the_other_seats_as_hard_does_at_every_size() -> None:
    """Beyond 6 players HARD's simulated others are sure of their own cards
    (``SureOfOwn``): the oracle's view mode too, so that only the state differs."""
    for players, sure in ((6, False), (10, True)):
        table = played(players, 3, 25)
        state = table.truth
        assert state is not None
        seat = GAME.awaiting(state)[0]
        hero = Flagging(Mode.VIEW, 3, table)
        hero.flags = []
        hero.choose(GAME.view(state, seat), random.Random(2), table.histories[seat])
        assert hero.flags and set(hero.flags) == {sure}, players
