"""NORMAL's memory: what the seat's visible history says of the others' hands
(games/complots/beliefs.py), and the challenges it makes by those odds."""

from __future__ import annotations

import random

from games.ai import Level
from games.base import Seat
from games.complots import GAME, ActionKind
from games.complots.ai import POLICIES, Situation, read_situation
from games.complots.models import Act, Block, Challenge, Pass

from ..ai_imports import assert_view_only
from .helpers import AM, CA, CO, EXCHANGE, TAX, A, D, Table, history, rigged, steal

NORMAL = POLICIES[Level.NORMAL]


def situation(table: Table, seat: Seat, remember: bool = True) -> Situation:
    view = GAME.view(table.current(), seat)
    return read_situation(view, history(table, seat) if remember else ())


def challenges(table: Table, seat: Seat, remember: bool, tries: int = 400) -> int:
    view = GAME.view(table.current(), seat)
    seen = history(table, seat) if remember else []
    return sum(NORMAL.choose(view, random.Random(i), seen) == Challenge() for i in range(tries))


def unblocked_theft() -> Table:
    """Seat 1 (a Captain face up) steals from seat 2, who lets it go (no Captain, no
    Ambassador to show)."""
    table = Table(rigged([[D, CO], [A], [D, CO]], revealed=[[], [CA], []], turn=1))
    table.do(1, steal(2))
    table.do(0, Pass())
    table.do(2, Pass())
    assert table.coins() == [2, 4, 0] and table.state.turn == 2
    return table


def test_the_beliefs_read_only_the_view_and_the_history() -> None:
    assert_view_only(
        "complots", {"GAME", "Complots", "ComplotsState", "PlayerState"}, module="beliefs"
    )


def test_an_unchallenged_claim_makes_its_character_likelier() -> None:
    table = Table(rigged([[CO, AM], [D, A], [CA, CO]], turn=1))
    table.do(1, TAX)
    table.do(2, Pass())
    table.do(0, Pass())
    plain, remembered = situation(table, 0, remember=False), situation(table, 0)
    assert remembered.hold_chance(D, 1) > plain.hold_chance(D, 1) + 0.2
    assert remembered.hold_chance(D, 2) == plain.hold_chance(D, 2), "only the claimant's"


def test_a_block_not_made_makes_its_characters_unlikelier() -> None:
    table = unblocked_theft()
    plain, remembered = situation(table, 0, remember=False), situation(table, 0)
    assert remembered.hold_chance(CA, 2) < plain.hold_chance(CA, 2) - 0.1
    assert remembered.hold_any_chance((CA, AM), 2) < plain.hold_any_chance((CA, AM), 2) - 0.1


def test_an_exchange_resets_what_is_known_of_a_hand() -> None:
    table = unblocked_theft()
    table.do(2, EXCHANGE)
    table.do(0, Pass())
    table.do(1, Pass())
    table.do(2, table.choices(2)[0])
    plain, remembered = situation(table, 0, remember=False), situation(table, 0)
    assert remembered.hold_chance(CA, 2) == plain.hold_chance(CA, 2)
    assert remembered.hold_chance(AM, 2) == plain.hold_chance(AM, 2)


def test_a_failed_claim_is_remembered_until_a_new_hand() -> None:
    table = Table(rigged([[CO, AM], [CA, A], [D, CO]], turn=1))
    table.do(1, TAX)
    table.do(0, Challenge())
    table.do(1, table.choices(1)[0])
    assert situation(table, 0).hold_chance(D, 1) < 0.05


def test_it_challenges_a_captain_from_one_who_could_not_block_a_theft() -> None:
    """Seat 2 let a theft go without a Captain; when it then claims the Captain to rob
    seat 0, NORMAL remembers."""
    table = unblocked_theft()
    table.do(2, steal(0))
    forgetful, remembering = challenges(table, 0, False), challenges(table, 0, True)
    assert remembering > forgetful + 40, (forgetful, remembering)


def test_it_challenges_less_a_character_claimed_before() -> None:
    """Seat 1 taxed unchallenged; when it blocks seat 2's foreign aid with a Duchess,
    of which one copy is unseen by seat 2, NORMAL believes it more."""
    table = Table(rigged([[CO], [D, A], [CA, D]], revealed=[[D], [], []], turn=1))
    table.do(1, TAX)
    table.do(2, Pass())
    table.do(0, Pass())
    table.do(2, Act(action=ActionKind.FOREIGN_AID))
    table.do(0, Pass())
    table.do(1, Block(character=D))
    forgetful, remembering = challenges(table, 2, False), challenges(table, 2, True)
    assert remembering < forgetful / 3 and forgetful > 15, (forgetful, remembering)
