"""Random legal games for 2 to 8 players, with invariants checked after every step.

Hypothesis draws each game's seed and variant; a seeded ``random.Random``
drives the choices inside a game (fast, and a failing example replays from
its seed). Every step checks: cards conserved, coins never negative, at most
2 cards per player, face-up cards never change, eliminated players never
prompted, and no view shows a card its viewer may not know — checked both
structurally and by scrambling all the cards the viewer cannot know and
requiring its view to stay the same.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Seat, copy_state
from games.complots import GAME, Character, ComplotsOptions, ComplotsState, Variant
from games.complots.models import Stage

from .helpers import card_total

GAMES_PER_PLAYER_COUNT = 1000
MAX_STEPS = 5000


def check_invariants(state: ComplotsState, before: ComplotsState | None) -> None:
    assert card_total(state) == state.deck_size
    assert all(p.coins >= 0 for p in state.players)
    assert all(len(p.cards) <= 2 for p in state.players)
    if before is not None and before.stage is not Stage.PICK:
        for old, new in zip(before.players, state.players, strict=True):
            old_up = [(i, c.character) for i, c in enumerate(old.cards) if c.revealed]
            new_up = [(i, c.character) for i, c in enumerate(new.cards) if c.revealed]
            assert set(old_up) <= set(new_up), "a face-up card changed or went face down"
    prompts = GAME.prompts(state)
    for prompt in prompts:
        assert prompt.default in prompt.choices
        if state.stage is not Stage.PICK:
            assert state.players[prompt.player].alive, "an eliminated player was prompted"
    assert len({p.window for p in prompts}) <= 1, "all open prompts share one window"
    if state.stage is Stage.ACTION:
        assert state.players[state.turn].alive
    if state.stage is Stage.OVER:
        assert prompts == []
        assert [i for i, p in enumerate(state.players) if p.alive] == [state.winner]


def check_views(state: ComplotsState, rng: random.Random) -> None:
    """The spectator and one random seat per step (thousands of games cover every seat)."""
    for viewer in (None, rng.randrange(state.seats)):
        view = GAME.view(state, viewer)
        for player in view.players:
            if player.seat != viewer:
                assert player.hidden is None, "a view shows another player's face-down cards"
        scrambled = scramble_unknown(state, viewer, rng)
        assert GAME.view(scrambled, viewer) == view, (
            f"seat {viewer}'s view depends on cards it cannot know"
        )


def scramble_unknown(
    state: ComplotsState, viewer: Seat | None, rng: random.Random
) -> ComplotsState:
    """A copy where every card ``viewer`` cannot know is shuffled among those places."""
    copy = copy_state(state)
    pending = copy.pending
    known_slot = None
    if (
        viewer is not None
        and pending is not None
        and pending.actor == viewer
        and pending.target is not None
        and pending.shown_slot is not None
        and copy.stage is Stage.EXAMINE_DECIDE
    ):
        known_slot = (pending.target, pending.shown_slot)
    places: list[tuple[list[Character], int]] = []
    hand_slots = []
    for seat, player in enumerate(copy.players):
        if seat == viewer:
            continue
        for slot, card in enumerate(player.cards):
            if not card.revealed and (seat, slot) != known_slot:
                hand_slots.append(card)
        places.extend((player.packet, i) for i in range(len(player.packet)))
        places.extend((player.set_aside, i) for i in range(len(player.set_aside)))
    places.extend((copy.court, i) for i in range(len(copy.court)))
    places.extend((copy.third_packet, i) for i in range(len(copy.third_packet)))
    if pending is not None and pending.actor != viewer:
        places.extend((pending.drawn, i) for i in range(len(pending.drawn)))
    pool = [card.character for card in hand_slots] + [seq[i] for seq, i in places]
    rng.shuffle(pool)
    for card in hand_slots:
        card.character = pool.pop()
    for seq, i in places:
        seq[i] = pool.pop()
    return copy


def play_random_game(players: int, seed: int, variant: Variant) -> ComplotsState:
    rng = random.Random(seed)
    state = GAME.setup(players, ComplotsOptions(variant=variant), seed)
    check_invariants(state, None)
    before: ComplotsState | None = None
    for _ in range(MAX_STEPS):
        if GAME.result(state) is not None:
            return state
        before = state
        state = random_step(state, rng)
        check_invariants(state, before)
        check_views(state, rng)
    raise AssertionError(f"no winner after {MAX_STEPS} steps (seed {seed})")


def random_step(state: ComplotsState, rng: random.Random) -> ComplotsState:
    roll = rng.random()
    if roll < 0.05:
        return GAME.timeout(state)[0]
    if roll < 0.055:
        in_play = GAME.living(state) if state.stage is not Stage.PICK else range(state.seats)
        return GAME.forfeit(state, rng.choice(list(in_play)))[0]
    prompt = rng.choice(GAME.prompts(state))
    new, _ = GAME.apply(state, prompt.player, rng.choice(prompt.choices))
    return new


@pytest.mark.parametrize("players", range(2, 9))
@settings(max_examples=GAMES_PER_PLAYER_COUNT)
@given(seed=st.integers(0, 2**63), variant=st.sampled_from(Variant))
def test_random_games_end_with_invariants_kept(players: int, seed: int, variant: Variant) -> None:
    final = play_random_game(players, seed, variant)
    result = GAME.result(final)
    assert result is not None and len(result.winners) == 1


@settings(max_examples=50)
@given(seed=st.integers(0, 2**63), players=st.integers(2, 8))
def test_replay_gives_the_identical_final_state(seed: int, players: int) -> None:
    """The same seed, options and choices give the same state, choice by choice."""
    rng = random.Random(seed)
    options = ComplotsOptions(variant=rng.choice(list(Variant)))
    state = GAME.setup(players, options, seed)
    log = []
    while GAME.result(state) is None:
        prompt = rng.choice(GAME.prompts(state))
        choice = rng.choice(prompt.choices)
        log.append((prompt.player, GAME.choice_adapter.dump_json(choice)))
        state, _ = GAME.apply(state, prompt.player, choice)
    replayed = GAME.setup(players, options, seed)
    for seat, raw in log:
        replayed, _ = GAME.apply(replayed, seat, GAME.parse_choice(raw))
    assert replayed == state
    assert replayed.model_dump_json() == state.model_dump_json()
