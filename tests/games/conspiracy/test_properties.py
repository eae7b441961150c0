"""Random legal games for 2 to 4 players, with invariants checked after every step.

Hypothesis draws each game's seed; a seeded ``random.Random`` drives the choices
inside a game (fast, and a failing example replays from its seed). Timeouts and
removals of players are sprinkled in. Every step checks: the 60 Lords and 24
Locations are all there exactly once, chambers hold at most 15 Lords and each
Location sits on a key Lord, no unused key pair is left over, the Pearl Master
has the most pearls, only the active (not removed) player is prompted, with a
small list of distinct choices holding its default; and no view shows what its
viewer may not know (the decks' order): the view must not change when both
decks are shuffled. At the end: the final round gave every other player exactly
one turn, and the result matches the scores.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Event, Seat
from games.conspiracy import GAME, ConspiracyOptions, ConspiracyState
from games.conspiracy.cards import CHAMBER_SIZE, LORDS
from games.conspiracy.models import (
    FinalRound,
    PlayerRemoved,
    Stage,
    TurnStarted,
)
from games.conspiracy.scoring import score_all

from .helpers import check_conservation

GAMES_PER_PLAYER_COUNT = {2: 1000, 3: 800, 4: 600}
"""About 45 s of CPU with CI=true (measured: 13 + 25 + 23 s wall on a busy 2-core box)."""
MAX_STEPS = 2000
MAX_CHOICES = 25
"""A Discord select holds 25 options."""
TIMEOUT_RATE = 0.05
FORFEIT_RATE = 0.003


def check_invariants(state: ConspiracyState) -> None:
    check_conservation(state)
    stage = state.stage
    for player in state.players:
        assert len(player.lords) <= CHAMBER_SIZE
        for placed in player.locations:
            assert 1 <= placed.place <= len(player.lords)
            assert LORDS[player.lords[placed.place - 1]].key is not None, "a Location moved"
        if stage is not Stage.LOCATION and stage is not Stage.LOCATION_KEEP:
            assert not GAME.has_key_pair(player), "an unused key pair was left"
    if state.pearl_master is not None:
        holder = state.players[state.pearl_master]
        assert not holder.removed and holder.pearls > 0
        assert all(p.pearls <= holder.pearls for p in state.players if not p.removed)
    else:
        assert all(p.pearls == 0 or p.removed for p in state.players)
    assert bool(state.revealed) == (stage is Stage.KEEP)
    assert bool(state.revealed_locations) == (stage is Stage.LOCATION_KEEP)
    assert (state.swap_first is not None) == (stage is Stage.SWAP_SECOND)
    prompts = GAME.prompts(state)
    if stage is Stage.OVER:
        result = GAME.result(state)
        assert prompts == [] and result is not None and result.winners
        assert not any(state.players[w].removed for w in result.winners)
        assert not state.pending and not state.revealed
        return
    assert GAME.result(state) is None
    assert [p.player for p in prompts] == [state.turn] == GAME.awaiting(state)
    assert not state.players[state.turn].removed
    prompt = prompts[0]
    assert 0 < len(prompt.choices) <= MAX_CHOICES
    assert len(set(prompt.choices)) == len(prompt.choices)
    assert prompt.default in prompt.choices
    for seat in range(state.seats):
        if seat != state.turn:
            assert GAME.prompt_for(state, seat) is None


def check_views(state: ConspiracyState, rng: random.Random) -> None:
    """One viewer per step, in turn the spectator, the active seat or any seat
    (thousands of games cover them all): its own prompt only, and a view that does
    not change when what nobody may know is scrambled."""
    roll = rng.random()
    viewer = None if roll < 0.34 else state.turn if roll < 0.67 else rng.randrange(state.seats)
    view = GAME.view(state, viewer)
    expected = GAME.prompt_for(state, viewer) if viewer is not None else None
    assert view.prompt == expected
    if viewer is None:
        assert view.prompt is None
    assert GAME.view(scramble_unknown(state, rng), viewer) == view, (
        f"seat {viewer}'s view depends on the order of a deck"
    )


def scramble_unknown(state: ConspiracyState, rng: random.Random) -> ConspiracyState:
    """A copy where what nobody may know, the order of both decks, is shuffled (a
    shallow copy: views never modify the state)."""
    deck = list(state.deck)
    locations = list(state.location_deck)
    rng.shuffle(deck)
    rng.shuffle(locations)
    return state.model_copy(update={"deck": deck, "location_deck": locations})


def random_step(state: ConspiracyState, rng: random.Random) -> tuple[ConspiracyState, list[Event]]:
    roll = rng.random()
    if roll < TIMEOUT_RATE:
        return GAME.timeout(state)
    if roll < TIMEOUT_RATE + FORFEIT_RATE:
        in_play = [s for s, p in enumerate(state.players) if not p.removed]
        return GAME.forfeit(state, rng.choice(in_play))
    prompt = GAME.prompts(state)[0]
    return GAME.apply(state, prompt.player, rng.choice(prompt.choices))


def check_final_round(state: ConspiracyState, events: list[Event]) -> None:
    """After the first player with 15 Lords, each other player had one turn, in order."""
    final = next((i for i, e in enumerate(events) if isinstance(e, FinalRound)), None)
    if final is None:
        return
    ender = events[final]
    assert isinstance(ender, FinalRound)
    after = events[final:]
    turns = [e.seat for e in after if isinstance(e, TurnStarted)]
    removed = {e.seat for e in after if isinstance(e, PlayerRemoved)}
    expected = [(ender.seat + k) % state.seats for k in range(1, state.seats)]
    assert turns == [s for s in expected if s in turns]
    if not removed and not any(isinstance(e, PlayerRemoved) for e in events[:final]):
        assert turns == expected
    assert all(e.last for e in after if isinstance(e, TurnStarted))


def play_random_game(players: int, seed: int, first: Seat | None = None) -> ConspiracyState:
    rng = random.Random(seed)
    state = GAME.setup(players, ConspiracyOptions(first_player=first), seed)
    events: list[Event] = []
    check_invariants(state)
    for _ in range(MAX_STEPS):
        if GAME.result(state) is not None:
            check_final_round(state, events)
            return state
        state, new_events = random_step(state, rng)
        events.extend(new_events)
        check_invariants(state)
        check_views(state, rng)
    raise AssertionError(f"no end after {MAX_STEPS} steps (seed {seed})")


def check_result(final: ConspiracyState) -> None:
    result = GAME.result(final)
    assert result is not None
    removed = [p.removed for p in final.players]
    scores = score_all(final)
    assert result.scores == tuple(s.total for s in scores)
    if sum(not r for r in removed) > 1:
        best = max((s.total, s.pearls) for s in scores if not removed[s.seat])
        assert all((scores[w].total, scores[w].pearls) == best for w in result.winners)
        assert {s.seat for s in scores if not removed[s.seat] and (s.total, s.pearls) == best} == (
            set(result.winners)
        )
    else:
        assert list(result.winners) == [seat for seat, r in enumerate(removed) if not r]


def random_games(players: int, games: int) -> Callable[[], None]:
    @settings(max_examples=games)
    @given(seed=st.integers(0, 2**63), first=st.none() | st.integers(0, players - 1))
    def test(seed: int, first: Seat | None) -> None:
        final = play_random_game(players, seed, first)
        if first is not None:
            assert final.options.first_player == first
        check_result(final)

    test.__doc__ = f"{games} random games of {players} players end, with invariants kept."
    return test


test_random_two_player_games = random_games(2, GAMES_PER_PLAYER_COUNT[2])
test_random_three_player_games = random_games(3, GAMES_PER_PLAYER_COUNT[3])
test_random_four_player_games = random_games(4, GAMES_PER_PLAYER_COUNT[4])


@settings(max_examples=50)
@given(seed=st.integers(0, 2**63), players=st.integers(2, 4))
def test_replay_gives_the_identical_final_state(seed: int, players: int) -> None:
    """The same seed, options and choices give the same state, choice by choice."""
    rng = random.Random(seed)
    options = ConspiracyOptions()
    state = GAME.setup(players, options, seed)
    log: list[tuple[Seat, bytes]] = []
    while GAME.result(state) is None:
        prompt = GAME.prompts(state)[0]
        choice = rng.choice(prompt.choices)
        log.append((prompt.player, GAME.choice_adapter.dump_json(choice)))
        state, _ = GAME.apply(state, prompt.player, choice)
    replayed = GAME.setup(players, options, seed)
    for seat, raw in log:
        replayed, _ = GAME.apply(replayed, seat, GAME.parse_choice(raw))
    assert replayed == state
    assert replayed.model_dump_json() == state.model_dump_json()


def test_a_game_of_default_choices_ends() -> None:
    """Every player timing out every time still ends the game (reveal 1, keep it)."""
    state = GAME.setup(4, ConspiracyOptions(first_player=0), seed=5)
    steps = 0
    while GAME.result(state) is None:
        state, _ = GAME.timeout(state)
        steps += 1
        check_invariants(state)
    assert steps >= 15 * 4 - 3
