"""One turn ahead: on its last influence, against an opponent who can coup it next
turn, NORMAL (and HARD, which starts from NORMAL's choice) takes the act that can
stop the coup: a theft that leaves the threat below seven coins, or a murder of the
threat's last influence, bluffed if need be at two players."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from games.ai import Level
from games.base import Seat
from games.complots import GAME, Character
from games.complots.ai import POLICIES
from games.complots.models import Act, ComplotsChoice, Pass
from games.registry import policy_for
from games.search import SearchPolicy, SearchSettings

from .helpers import AM, CA, CO, INCOME, TAX, A, D, Table, assassinate, history, rigged, steal

NORMAL = POLICIES[Level.NORMAL]


def normal_answers(table: Table, seat: Seat, tries: int = 200) -> Counter[ComplotsChoice]:
    view = GAME.view(table.current(), seat)
    seen = history(table, seat)
    return Counter(NORMAL.choose(view, random.Random(i), seen) for i in range(tries))


def rich_duchess(card: Character) -> Table:
    """Two players: seat 1 (Duchess, Assassin) taxes from 5 to 8 coins unchallenged;
    seat 0, on its last card (``card``), is to play with 3 coins."""
    table = Table(rigged([[card], [D, A]], revealed=[[AM], []], coins=[3, 5], turn=1))
    table.do(1, TAX)
    table.do(0, Pass())
    assert table.coins() == [3, 8] and table.state.turn == 0
    return table


def last_card_duchess() -> Table:
    """Two players: seat 1 (Duchess left, Captain lost) reaches 9 coins by income;
    seat 0, on its last card, has 3 coins: a theft would leave 7."""
    table = Table(rigged([[CO], [D]], revealed=[[AM], [CA]], coins=[3, 8], turn=1))
    table.do(1, INCOME)
    assert table.coins() == [3, 9] and table.state.turn == 0
    return table


def test_without_a_captain_it_bluffs_the_theft_that_stops_the_coup() -> None:
    table = rich_duchess(CO)
    assert normal_answers(table, 0) == {steal(1): 200}


def test_with_a_captain_it_steals_from_the_threat() -> None:
    table = rich_duchess(CA)
    assert normal_answers(table, 0) == {steal(1): 200}


def test_with_two_cards_left_it_needs_no_escape() -> None:
    table = Table(rigged([[CO, D], [D, A]], coins=[3, 5], turn=1))
    table.do(1, TAX)
    table.do(0, Pass())
    replies = normal_answers(table, 0)
    assert replies[steal(1)] < 100, "a plain turn: mostly its own Duchess's tax"


def test_when_a_theft_is_not_enough_it_murders_the_threats_last_card() -> None:
    assert normal_answers(last_card_duchess(), 0) == {assassinate(1): 200}


def test_at_three_players_it_escapes_with_the_card_it_holds_only() -> None:
    def table(card: Character) -> Table:
        state = rigged([[card], [D, A], [CO, AM]], revealed=[[AM], [], []], coins=[3, 8, 2])
        return Table(state)

    assert normal_answers(table(CA), 0) == {steal(1): 200}
    assert normal_answers(table(CO), 0)[steal(1)] < 40, "no bluff: the threat may aim elsewhere"


def frozen_clock() -> float:
    return 0.0


@pytest.fixture
def hard(monkeypatch: pytest.MonkeyPatch) -> SearchPolicy[Any, Any]:
    """HARD on a budget of simulations; its clock never moves, so the result depends on
    the seed alone."""
    policy = policy_for("complots", Level.HARD)
    assert isinstance(policy, SearchPolicy)
    tuned = policy.with_settings(
        SearchSettings(budget_seconds=1.0, simulations=120, horizon=24, guide_remembers=True)
    )
    monkeypatch.setattr(tuned, "clock", frozen_clock)
    return tuned


@pytest.mark.parametrize(
    ("build", "escape"),
    [(lambda: rich_duchess(CO), steal(1)), (last_card_duchess, assassinate(1))],
)
def test_hard_sees_the_threat_too(
    hard: SearchPolicy[Any, Any], build: Callable[[], Table], escape: Act
) -> None:
    table = build()
    view = GAME.view(table.current(), 0)
    seen = history(table, 0)
    assert [hard.choose(view, random.Random(seed), seen) for seed in range(3)] == [escape] * 3
