"""The computer players of every registered game (games/ai.py): all-computer games at
every level and every player count end without an illegal decision and keep the
game's rules, ``play_out`` plays them the same way, and a policy's choice depends
on its view alone (scrambling what its seat cannot know changes nothing)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.ai import QUICK_LEVELS, Level

from .support import (
    BASE_SEED,
    SCALE,
    SOAK,
    check_matches_play_out,
    computer_game,
    every_player_count,
    hooks_of,
)

QUICK_VIEW_CHECKS = 0.3
"""Share of decisions asked again from a scrambled state in the quick run."""
SOAK_DECISIONS = 5_000
"""Decisions per game and player count in the soak run (marked slow;
``CONFORMANCE_SCALE`` scales it)."""


def lineups(players: int, rng: random.Random) -> list[list[Level]]:
    """Every seat at the same level, for each quick level; then a mixed table. HARD
    (a search of up to a second per decision) has its own tests: tests/games/test_search.py."""
    same = [[level] * players for level in QUICK_LEVELS]
    return [*same, [rng.choice(QUICK_LEVELS) for _ in range(players)]]


@pytest.mark.parametrize(("name", "players"), every_player_count())
def test_computer_games_end_and_decide_from_views(name: str, players: int) -> None:
    """A game per lineup (every seat at one level, for each level, then mixed levels),
    random options; the last one played again by ``play_out``."""
    hooks = hooks_of(name)
    rng = random.Random(BASE_SEED + players)
    checked = 0
    for number, levels in enumerate(lineups(players, rng)):
        seed = BASE_SEED + 10_000 * players + number
        options = hooks.random_options(players, rng)
        played = computer_game(hooks, levels, seed, options, QUICK_VIEW_CHECKS)
        checked += played.views_checked
    check_matches_play_out(hooks, levels, seed, options, played)
    assert checked >= 5, "the view check ran"


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), every_player_count())
@SOAK
@given(seed=st.integers(0, 2**40))
def test_computer_games_soak(name: str, players: int, seed: int) -> None:
    """Many mixed-level games with random options from a drawn seed, the rules checked
    at every decision."""
    hooks = hooks_of(name)
    rng = random.Random(seed)
    decisions = game = 0
    while decisions < SOAK_DECISIONS * SCALE / SOAK.max_examples:
        levels = [rng.choice(QUICK_LEVELS) for _ in range(players)]
        options = hooks.random_options(players, rng)
        played = computer_game(hooks, levels, seed + game, options, 0.02)
        decisions += played.decisions
        game += 1
