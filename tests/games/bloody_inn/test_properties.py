"""Random games from boosted hands: rich players (6 more travellers, 30 F) reach the
rank-3 annexes and the multi-target actions that plain random games seldom reach.
The conformance suite's driver plays them with every check at every step (the
game's invariants: tests/games/bloody_inn/conformance.py)."""

from __future__ import annotations

import random

import pytest

from games.bloody_inn import GAME
from tests.games.conformance.support import hooks_of, random_game

from .conformance import boost_hands, random_options


@pytest.mark.parametrize("players", GAME.player_counts())
def test_random_games_from_boosted_hands(players: int) -> None:
    hooks = hooks_of(GAME.name)
    for seed in range(4):
        options = random_options(players, random.Random(seed))
        start = GAME.setup(players, options, seed)
        boost_hands(start)
        random_game(hooks, players, seed, options=options, start=start)
