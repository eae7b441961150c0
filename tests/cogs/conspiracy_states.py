"""Conspiracy states for rendering tests: random legal games (with timeouts and the
odd removed player), rigged moments, and a TableContext around a state."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.ui.presenter import TableContext
from games.conspiracy import GAME, Colour, ConspiracyOptions, ConspiracyState, LocationId
from games.conspiracy.models import RevealLords, Stage, TakePile
from games.conspiracy.scoring import coalition
from tests.cogs.contexts import table_context
from tests.games.conspiracy.helpers import rigged

NAMES = ["alice", "Bérénice", "carol with a rather long name", "dave 🎲"]
TABLE_ID = 10**12
"""A large table id and version: the longest custom_ids the bot can send."""
VERSION = 10**6


def context(
    state: ConspiracyState,
    *,
    table_id: int = TABLE_ID,
    version: int = VERSION,
    names: list[str] | None = None,
) -> TableContext:
    return table_context(
        "conspiracy",
        state,
        names=names or NAMES,
        table_id=table_id,
        version=version,
        first_user=100,
    )


def random_game(
    seed: int, players: int, *, timeouts: float = 0.05, forfeits: float = 0.002
) -> Iterator[ConspiracyState]:
    """Every state of one random legal game, from setup to the end."""
    rng = random.Random(seed)
    state = GAME.setup(players, ConspiracyOptions(), seed)
    yield state
    while GAME.result(state) is None:
        roll = rng.random()
        if roll < forfeits:
            seat = rng.choice([s for s, p in enumerate(state.players) if not p.removed])
            state, _ = GAME.forfeit(state, seat)
        elif roll < timeouts:
            state, _ = GAME.timeout(state)
        else:
            prompt = rng.choice(GAME.prompts(state))
            state, _ = GAME.apply(state, prompt.player, rng.choice(prompt.choices))
        yield state


def shuffled_decks(state: ConspiracyState, seed: int) -> ConspiracyState:
    """The same table with both decks in another order (what nobody may know)."""
    other = state.model_copy(deep=True)
    rng = random.Random(seed)
    rng.shuffle(other.deck)
    rng.shuffle(other.location_deck)
    if other.deck == state.deck and len(other.deck) > 1:
        other.deck.reverse()
    return other


def before_many_face_up() -> ConspiracyState:
    """Seat 0 to recruit; taking the red pile (a silver key) pairs its keys, with 7
    Locations face up."""
    face_up = [
        LocationId.POINTS_7,
        LocationId.PEARLS_3,
        LocationId.GOLD_KEYS,
        LocationId.TOP_LORD,
        LocationId.BEST_RED,
        LocationId.COUNT_BLUE,
        LocationId.RECALL_LORDS,
    ]
    return rigged(
        (["b3", "g4"], ["y3"]),
        piles={Colour.RED: ["r1"]},
        face_up=face_up,
        keys=[(1, 0), (0, 0)],
    )


def many_face_up() -> ConspiracyState:
    """Seat 0 chooses among 7 face-up Locations (or reveals)."""
    state, _ = GAME.apply(before_many_face_up(), 0, TakePile(colour=Colour.RED))
    assert state.stage is Stage.LOCATION
    return state


def full_chambers() -> ConspiracyState:
    """Two full chambers: the game is over."""
    first = ["r1", "r2", "r3", "r4", "r6", "b0", "b1", "b2", "b3", "b4", "g1", "g2", "g3", "g4"]
    second = ["y1", "y2", "y3", "y4", "y6", "p0", "p1", "p2", "p3", "p4", "g6", "g0", "y1", "p1"]
    state = rigged((first, second), deck_top=["g1", "b6"], pearls=[3, 5], pearl_master=1)
    state, _ = GAME.apply(state, 0, RevealLords(count=1))
    assert GAME.result(state) is None  # seat 1's last turn
    state, _ = GAME.apply(state, 1, RevealLords(count=1))
    assert GAME.result(state) is not None
    assert coalition(state.players[0].lords)[0] >= 2
    return state


def before_full_swap() -> ConspiracyState:
    """Seat 0 to recruit: the red pile holds an influence-0 Lord for its 15th place."""
    chamber = ["r3", "b3", "g3", "y3", "p3", "r4", "b4", "g4", "y4", "p4", "r6", "b6", "g6", "y6"]
    return rigged((chamber, ["y1"]), piles={Colour.RED: ["r0"]})


def full_swap() -> ConspiracyState:
    """Seat 0 placed its 15th Lord, of influence 0: 15 keyless Lords to swap."""
    state, _ = GAME.apply(before_full_swap(), 0, TakePile(colour=Colour.RED))
    assert state.stage is Stage.SWAP_FIRST
    return state
