"""What the other seats remember in HARD's simulations at 2 to 4 players: the deals HARD
follows keep their story (games/mascarade/sampler.py ``Follower``), a story replays
the game behind it for every seat (``replay``), and the simulations play the others
as remembering NORMALs from those histories (games/mascarade ``Minds``); below 4
players a simulation still running at the decision's deadline stops there."""

from __future__ import annotations

import gc
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from games.base import Event, Seat
from games.mascarade import (
    GAME,
    HARD,
    MARGIN,
    REMEMBERED_SIZES,
    MascaradeSearch,
    MascaradeState,
    MascaradeView,
    Minds,
    Recalling,
)
from games.mascarade.ai import NormalPolicy, flat_memories, shared_beliefs, shared_fortunes
from games.mascarade.engine import Mascarade
from games.mascarade.models import SwapDecided, SwapDone
from games.mascarade.sampler import Follower, MascaradeSampler, Particle, replay, track
from games.search import SearchSettings
from tests.games.mascarade.helpers import played


@pytest.mark.parametrize("players", [2, 3, 4, 6, 10])
def test_the_true_story_replays_every_seats_history_and_memories(players: int) -> None:
    """From one seat's view and history, the real opening deal and swaps' outcomes
    give back, for every seat, the very history it was shown (its private swaps'
    outcomes and sights in their places) and its memories, and the public's."""
    checked = 0
    for seed in (1, 2):
        game = played(players, seed)
        for state, histories, outcomes in game.moments[::3]:
            for seat in range(players):
                story = Particle(list(state.cards), game.opening, list(outcomes))  # type: ignore[arg-type]
                replayed = replay(GAME.view(state, seat), histories[seat], story)
                assert replayed.histories == histories
                assert replayed.knowledge == state.knowledge
                assert replayed.public == state.public
                checked += 1
    assert checked > 30


def followed(
    seed: int, moments: slice, count: int
) -> Iterator[tuple[MascaradeView, list[Event], Follower]]:
    """Each seat's view, history and follower (keeping stories) at some moments of a
    4-player game."""
    game = played(4, seed)
    for state, histories, _ in game.moments[moments]:
        for seat in range(4):
            view, history = GAME.view(state, seat), histories[seat]
            follower = Follower.of_view(view, history, count=count, keeps_story=True)
            assert follower is not None
            yield view, history, follower


def test_a_story_keeps_one_outcome_per_swap_and_the_seats_own_as_decided() -> None:
    """Each followed deal keeps the opening deal it started from (a whole deck) and
    one outcome per swap; the seat's own swaps' outcomes are the ones it decided."""
    for view, history, follower in followed(3, slice(10, None, 15), count=20):
        swaps = sum(isinstance(e, SwapDone) for e in history)
        mine = [i for i, e in enumerate(done_by(history)) if e == view.viewer]
        decided = [e.swapped for e in history if isinstance(e, SwapDecided)]
        for particle in follower.stories(flat_memories(view)):
            assert Counter(particle.opening) == Counter(view.characters)
            assert len(particle.swaps) == swaps
            assert [particle.swaps[i] for i in mine] == decided


def done_by(history: list[Event]) -> list[Seat]:
    return [e.actor for e in history if isinstance(e, SwapDone)]


def test_keeping_the_story_changes_no_deal() -> None:
    """NORMAL's deals (``track``) are the same with or without stories kept: the
    stories draw nothing from the random stream."""
    for view, history, follower in followed(4, slice(5, None, 10), count=50):
        assert follower.deals(flat_memories(view)) == track(view, history, count=50)


def test_a_follower_stepped_through_later_events_keeps_agreeing_with_its_seat() -> None:
    """A seat's follower started mid-game and stepped through the events that seat
    is shown after: every deal keeps the seat's fresh memories and the whole deck."""
    game = played(4, seed=5)
    start, histories, _ = game.moments[20]
    for seat in range(4):
        view = GAME.view(start, seat)
        follower = Follower.of_view(view, histories[seat], count=30)
        assert follower is not None
        seen = len(histories[seat])
        for state, later, _ in game.moments[21:60]:
            for event in later[seat][seen:]:
                follower.step(event)
            seen = len(later[seat])
            memories = flat_memories(GAME.view(state, seat))
            for cards in follower.deals(memories):
                assert Counter(cards) == Counter(view.characters)
                for place, memory in enumerate(memories):
                    assert memory is None or memory.stale or cards[place] is memory.character


def stories_sampler(
    searcher: MascaradeSearch, view: MascaradeView, history: list[Event]
) -> MascaradeSampler:
    sampler = searcher.moment_sampler(view, history)
    assert sampler.stories is not None
    return sampler


def test_states_drawn_from_stories_show_the_seat_its_view_and_carry_their_game() -> None:
    """At four players (as at 2 and 3) each sampled state is its story's game: the seat sees its
    own view there, every other seat has memories and a history, and those
    histories hold the public events the seat saw, in order."""
    assert 4 in REMEMBERED_SIZES
    searcher = HARD.with_settings(SearchSettings(budget_seconds=60.0, simulations=4))
    assert isinstance(searcher, MascaradeSearch)
    game = played(4, seed=6)
    drawn = 0
    for state, histories, _ in game.moments[8::12]:
        for seat in range(4):
            view, history = GAME.view(state, seat), histories[seat]
            sampler = stories_sampler(searcher, view, history)
            draw = sampler.prepare(view, history)
            sampled = draw(random.Random(drawn))
            mine = GAME.view(sampled, seat)
            assert mine.model_copy(update={"prompt": None}) == view.model_copy(
                update={"prompt": None}
            )
            replayed = sampler.replayed
            assert replayed is not None
            public = [e for e in history if e.audience is None]
            for other in range(4):
                assert [e for e in replayed.histories[other] if e.audience is None] == public
                assert sampled.knowledge[other] == replayed.knowledge[other] or other == seat
            drawn += 1
    assert drawn > 20


class Spying(Recalling):
    """Notes whether each simulated decision had deals to decide from."""

    log: list[bool] = []

    def decide(self, view: MascaradeView, prompt: object, rng: random.Random) -> object:  # type: ignore[override]
        Spying.log.append(self.minds.deals(self.seat, view) is not None)
        return super().decide(view, prompt, rng)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_up_to_four_players_the_simulations_play_the_others_from_their_memories(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 2 to 4 players (where it won: bench/results/mascarade-hard.md) the others'
    simulated decisions are remembering NORMALs' with deals followed from their
    sampled histories; at six players, NORMALs' from the views alone."""
    import games.mascarade as package

    monkeypatch.setattr(package, "Recalling", Spying)
    Spying.log = []
    rollouts: list[int] = []
    searcher = HARD.with_settings(SearchSettings(budget_seconds=60.0, simulations=6))
    assert isinstance(searcher, MascaradeSearch)
    original = NormalPolicy.decide

    def counted(
        self: NormalPolicy, view: MascaradeView, prompt: object, rng: random.Random
    ) -> object:
        if type(self) is NormalPolicy:
            rollouts.append(1)
        return original(self, view, prompt, rng)  # type: ignore[arg-type]

    monkeypatch.setattr(NormalPolicy, "decide", counted)
    game = played(players, seed=7)
    searched = 0
    for state, histories, _ in game.moments[6::9][:8]:
        for seat in GAME.awaiting(state):
            view = GAME.view(state, seat)
            if view.prompt is None or len(view.prompt.choices) < 2:
                continue
            choice = searcher.choose(view, random.Random(1), histories[seat])
            assert choice in view.prompt.choices
            searched += 1
    assert searched > 3
    if players in REMEMBERED_SIZES:
        assert len(Spying.log) > 20 and all(Spying.log)
    else:
        assert not Spying.log and rollouts


def test_minds_follow_the_other_seats_and_not_the_searching_one() -> None:
    """The searching seat's own later decisions are its rollout's: no deals are
    followed for it. The others' are started when first asked for, once per state
    drawn, and copied for each simulation."""
    game = played(4, seed=8)
    state, histories, _ = game.moments[30]
    seat = 2
    view = GAME.view(state, seat)
    searcher = HARD.with_settings(SearchSettings(budget_seconds=60.0, simulations=4))
    assert isinstance(searcher, MascaradeSearch)
    sampler = stories_sampler(searcher, view, histories[seat])
    sampled = sampler.prepare(view, histories[seat])(random.Random(1))
    minds = Minds(sampler, seat)
    minds.begin(sampled)
    assert minds.current == {}, "nothing started before a seat decides"
    followers = [minds.follower(s) for s in range(4)]
    assert [f is None for f in followers] == [s == seat for s in range(4)]
    assert minds.follower(0) is followers[0], "one follower a seat in a simulation"
    first = followers[0]
    assert first is not None
    minds.begin(sampled)
    again = minds.follower(0)
    assert again is not None and again is not first, "a copy for the next simulation"
    assert again is not minds.started[0] and minds.started[0] is not first
    assert again.particles == first.particles


STEP = 0.001
"""Seconds of the fake clock one step of the rules takes (nothing else takes any)."""


@pytest.mark.parametrize(
    ("players", "cut"), [(2, True), (3, True), (4, False), (6, True), (10, False)]
)
def test_a_simulation_stops_at_the_decisions_deadline_at_2_3_and_6_players(
    players: int, cut: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search starts one more simulation while the average one fits in the
    budget left (the first one always); at 2 and 3 players a simulation plays up to
    40 choices, and a long last one overran the budget; at 6 players one that asks
    the others to contest starts each one's remembered deals. There it now stops at
    the deadline: with a budget of three steps, every decision ends within one step
    of it. At 4 and 10 players nothing changed: a simulation ends where it ends, past
    the deadline."""
    clock = [0.0]
    original = Mascarade.apply_in_place

    def timed(self: Mascarade, state: MascaradeState, seat: Seat, choice: object) -> list[Event]:
        clock[0] += STEP
        return original(self, state, seat, choice)  # type: ignore[arg-type]

    game = played(players, seed=11)
    monkeypatch.setattr(Mascarade, "apply_in_place", timed)
    budget = 3 * STEP
    searcher = HARD.with_settings(SearchSettings(budget_seconds=budget, simulations=10_000))
    searcher.clock = lambda: clock[0]
    overruns: list[float] = []
    for state, histories, _ in game.moments[::3]:
        for seat in GAME.awaiting(state)[: 12 - len(overruns)]:
            view = GAME.view(state, seat)
            if view.prompt is None or len(view.prompt.choices) < 2:
                continue
            started = clock[0]
            choice = searcher.choose(view, random.Random(3), histories[seat])
            assert choice in view.prompt.choices
            overruns.append(clock[0] - started - budget * MARGIN)
    assert len(overruns) >= 8
    if cut:
        assert max(overruns) <= STEP + 1e-9
    else:
        assert max(overruns) > 2 * STEP


@pytest.mark.parametrize("players", [4, 6, 10])
def test_no_automatic_garbage_collection_during_a_decision(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 6 players, with the others' remembered deals, full collections of 25-45 ms
    came some one every three decisions and put them over the budget: the search
    pauses the collector while it thinks, gives it back as it found it, and freezes
    what lives after it."""
    game = played(players, seed=5)
    searcher = HARD.with_settings(SearchSettings(budget_seconds=60.0, simulations=6))
    seen: list[bool] = []
    simulate = searcher.simulate

    def watched(*args: object) -> float:
        seen.append(gc.isenabled())
        return simulate(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(MascaradeSearch, "simulate", lambda self, *args: watched(*args))
    state, histories, _ = game.moments[40]
    seat = GAME.awaiting(state)[0]
    view = GAME.view(state, seat)
    assert view.prompt is not None and len(view.prompt.choices) > 1
    for enabled in (True, False):
        gc.unfreeze()
        (gc.enable if enabled else gc.disable)()
        try:
            assert searcher.choose(view, random.Random(1), histories[seat]) in view.prompt.choices
            assert gc.isenabled() is enabled
            assert gc.get_freeze_count() > 0
        finally:
            gc.enable()
    assert seen and not any(seen)


def test_a_game_of_hard_decisions_leaves_no_reference_cycles() -> None:
    """What the collector would have freed is nothing: the search's objects (shared
    beliefs and fortunes, the others' deals) go by their reference counts, so
    freezing them leaks nothing."""
    searcher = HARD.with_settings(SearchSettings(budget_seconds=60.0, simulations=6))
    game = played(6, seed=5)
    gc.unfreeze()
    gc.collect()
    gc.disable()
    try:
        for state, histories, _ in game.moments[10:40:3]:
            seat = GAME.awaiting(state)[0]
            view = GAME.view(state, seat)
            if view.prompt is not None:
                searcher.choose(view, random.Random(2), histories[seat])
        shared_beliefs.cache_clear()
        shared_fortunes.cache_clear()
        gc.unfreeze()
        assert gc.collect() == 0
    finally:
        gc.enable()
