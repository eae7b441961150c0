"""The engine protocol, checked the same way on every registered game: setup, random
games to the end with every invariant after every step, inputs never modified,
illegal input refused with typed errors, replay from the action log, and views
that do not depend on what their viewer cannot know."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.base import InvalidOptions
from games.registry import GAMES

from .support import (
    BASE_SEED,
    SCALE,
    SOAK,
    Checks,
    check_setup,
    every_game,
    every_player_count,
    hooks_of,
    random_game,
)

QUICK_STEPS = 800
"""Steps of random games per game and player count in the quick run, every check at
every step (views: the spectator's and one seat's)."""
SOAK_STEPS = 4_000
"""Steps per game and player count in the soak run (marked slow; ``CONFORMANCE_SCALE``
scales it)."""
SOAK_CHECKS = Checks(views=0.5, untouched=0.2, refusals=0.05)


def play_until(name: str, players: int, steps: int, seed: int, checks: Checks) -> int:
    """Random games from consecutive seeds until ``steps`` steps were checked (at least
    two games); the number of games. Scrambling must change the state now and then
    (a scrambler that changes nothing would make the leak check pointless)."""
    hooks = hooks_of(name)
    played = total = scrambles = changed = 0
    while total < steps or played < 2:
        record = random_game(hooks, players, seed + played, checks=checks)
        played += 1
        total += record.final.step
        scrambles += record.scrambles
        changed += record.scrambles_changed
    assert changed >= scrambles // 10, f"only {changed} of {scrambles} scrambles changed anything"
    return played


@pytest.mark.parametrize("name", every_game())
def test_every_registered_game_has_its_conformance_hooks(name: str) -> None:
    hooks = hooks_of(name)
    assert hooks.game.name == name
    counts = hooks.game.player_counts()
    assert counts and counts[0] >= 1 and hooks.game.typical_players in counts


def test_a_game_without_conformance_hooks_fails_clearly() -> None:
    assert GAMES, "the registry lists the games"
    with pytest.raises(pytest.fail.Exception, match=r"has no tests/games/nowhere/conformance\.py"):
        hooks_of.__wrapped__("nowhere")


@pytest.mark.parametrize(("name", "players"), every_player_count())
def test_setup_gives_a_valid_game(name: str, players: int) -> None:
    hooks = hooks_of(name)
    rng = random.Random(players)
    default = hooks.game.options_model()
    deals = [check_setup(hooks, players, default, seed) for seed in range(3)]
    assert len({deal.model_dump_json(exclude={"rng"}) for deal in deals}) > 1, "seeds deal"
    for seed in range(5):
        check_setup(hooks, players, hooks.random_options(players, rng), seed)


@pytest.mark.parametrize("name", every_game())
def test_setup_outside_the_player_counts_is_refused(name: str) -> None:
    game = hooks_of(name).game
    counts = game.player_counts()
    for players in (0, counts[0] - 1, counts[-1] + 1):
        if players not in counts:
            with pytest.raises(InvalidOptions, match=f"{counts[0]}.*{counts[-1]}"):
                game.setup(players, game.options_model(), seed=1)
    if "first_player" in game.options_model.model_fields:
        with pytest.raises(InvalidOptions):
            options = game.options_model.model_validate({"first_player": counts[0]})
            game.setup(counts[0], options, seed=1)


@pytest.mark.parametrize(("name", "players"), every_player_count())
def test_random_games(name: str, players: int) -> None:
    """Random games to the end with timeouts and removals, every check at every step."""
    play_until(name, players, QUICK_STEPS, BASE_SEED + 1000 * players, Checks())


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), every_player_count())
@SOAK
@given(seed=st.integers(0, 2**40))
def test_random_games_soak(name: str, players: int, seed: int) -> None:
    """Many more random games from a drawn seed (the costlier checks on a share of
    the steps)."""
    steps = round(SOAK_STEPS * SCALE / SOAK.max_examples)
    play_until(name, players, steps, seed, SOAK_CHECKS)
