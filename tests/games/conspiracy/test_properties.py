"""Random games and the final round: after the first player with 15 Lords, every
other player has exactly one more turn, in order. (Everything else random games
check, for every game: the conformance suite, tests/games/conformance; Conspiracy's
invariants: tests/games/conspiracy/conformance.py.)"""

from __future__ import annotations

import pytest

from games.base import Event
from games.conspiracy import GAME, ConspiracyOptions, ConspiracyState
from games.conspiracy.models import FinalRound, PlayerRemoved, TurnStarted
from tests.games.conformance.support import hooks_of, random_game

from .conformance import check_rules


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


@pytest.mark.parametrize("players", GAME.player_counts())
def test_the_final_round_gives_every_other_player_one_turn(players: int) -> None:
    hooks = hooks_of(GAME.name)
    finals = 0
    for seed in range(10):
        played = random_game(hooks, players, 50_000 + seed, forfeit_rate=0.01)
        assert isinstance(played.final, ConspiracyState)
        check_final_round(played.final, played.events)
        finals += any(isinstance(e, FinalRound) for e in played.events)
    assert finals >= 5


def test_a_game_of_default_choices_ends() -> None:
    """Every player timing out every time still ends the game (reveal 1, keep it)."""
    state = GAME.setup(4, ConspiracyOptions(first_player=0), seed=5)
    steps = 0
    while GAME.result(state) is None:
        before = state
        state, events = GAME.timeout(state)
        steps += 1
        check_rules(state, before, events)
    assert steps >= 15 * 4 - 3
