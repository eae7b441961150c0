"""Bloody Inn states and table contexts for the presenter and picture tests
(random games with timeouts and removals, built like the engine's property
tests), and a check of the helpers themselves."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ui.presenter import TableContext
from games.base import Seat
from games.bloody_inn import GAME, ActionKind, BloodyInnOptions, BloodyInnState, Length
from games.bloody_inn.models import Act
from tests.cogs.contexts import table_context
from tests.games.bloody_inn.conformance import boost_hands, random_step
from tests.games.bloody_inn.helpers import C, annex, rigged

TABLE_ID = 123456789
VERSION = 98765
SHORT_NAMES = ["alice", "bob", "carol", "dave"]
LONG_NAMES = [f"{chr(97 + i)}" * 29 + f"'{i:02d}" for i in range(4)]
"""32 characters (Discord's longest display name), all different."""


def context(
    state: BloodyInnState,
    *,
    names: Sequence[str] = SHORT_NAMES,
    version: int = VERSION,
    away: frozenset[Seat] = frozenset(),
) -> TableContext:
    return table_context(
        "bloody_inn", state, names=names, table_id=TABLE_ID, version=version, away=away
    )


def random_game(
    players: int,
    seed: int,
    *,
    options: BloodyInnOptions | None = None,
    boost: bool = False,
    max_steps: int = 5000,
) -> list[BloodyInnState]:
    """Every state of one random game (timeouts and removals sprinkled in)."""
    rng = random.Random(seed)
    state = GAME.setup(players, options or BloodyInnOptions(), seed)
    if boost:
        boost_hands(state)
    states = [state]
    for _ in range(max_steps):
        if GAME.result(state) is not None:
            break
        state, _ = random_step(state, GAME.prompts(state), rng)
        states.append(state)
    return states


def many_states(count: int, seed: int = 0) -> list[BloodyInnState]:
    """About ``count`` states from random games of 1 to 4 players, every option."""
    rng = random.Random(seed)
    states: list[BloodyInnState] = []
    game = 0
    while len(states) < count:
        options = BloodyInnOptions(
            length=rng.choice(list(Length)),
            first_come_first_served=rng.random() < 0.3,
            unlimited_wealth=rng.random() < 0.3,
        )
        states += random_game(
            1 + game % 4, seed * 1000 + game, options=options, boost=game % 2 == 1
        )
        game += 1
    return states


def mid_game() -> BloodyInnState:
    """Four innkeepers in the middle of a Night: annexes with buried corpses,
    unburied corpses, cheques, room-service tokens, a Monk's key, and alice
    preparing a Bribe."""
    state = rigged(
        4,
        hands=[
            [C.PEASANT, C.BARON, C.MONK],
            [C.PEASANT, C.PEASANT],
            [C.MAJOR, C.COUNT, C.NOVICE, C.PEASANT],
            [],
        ],
        rooms={1: C.DUKE, 2: C.BRIGADIER, 3: C.CONCIERGE, 5: C.PEASANT, 6: C.ABBOT, 8: C.NEWSBOY},
        annexes={
            0: [annex(C.COUNT, C.PEACEKEEPER, C.CULTIVATOR), annex(C.REPRESENTATIVE)],
            1: [annex(None, C.BARON), annex(C.BISHOP, C.NOVICE), annex(C.CONCIERGE)],
            2: [annex(C.VISCOUNT), annex(C.NOVICE)],
            3: [annex(C.MARQUIS, C.MECHANIC, C.BRIGADIER, C.VISCOUNT)],
        },
        corpses={0: [C.GROCER], 2: [C.COUNT, C.PEASANT], 3: [C.MONK]},
        money=[23, 7, 40, 0],
        cheques=[2, 0, 9, 1],
        bistro=2,
        keys={1: 0, 2: 1, 3: 2, 4: 3, 5: None, 6: 0, 7: None, 8: None},
        service={1: 1, 6: 1},
        exit_stack=[C.CULTIVATOR, C.SHOPKEEPER, C.PRINCE, C.BRIGADIER_CHIEF],
        turn=0,
        season=2,
    )
    state, _ = GAME.apply(state, 0, Act(action=ActionKind.BRIBE))
    return state


def test_random_games_end() -> None:
    for players in (1, 2, 4):
        states = random_game(players, players)
        assert GAME.result(states[-1]) is not None
