"""Complots computer players: what they import, their behaviours, their strength.
(All-computer games and view-only decisions: the conformance suite, tests/games/conformance.)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from games.ai import RANDOM, Level, Policy
from games.base import Seat
from games.complots import GAME, ActionKind, ComplotsOptions, ComplotsState, Variant
from games.complots.ai import POLICIES, read_situation
from games.complots.cards import Character, action_rule
from games.complots.models import (
    Act,
    Block,
    Challenge,
    ComplotsChoice,
    Keep,
    Pass,
    Pick,
    Reveal,
    Show,
    Verdict,
)
from tests.games.playouts import hero_share

from ..ai_imports import assert_view_only
from .helpers import AM, CA, CO, IN, A, D, Table, rigged

EASY = POLICIES[Level.EASY]
NORMAL = POLICIES[Level.NORMAL]

TAX = Act(action=ActionKind.TAX)


# --- the policies see only their view ------------------------------------------------


def test_the_policies_import_neither_the_engine_nor_the_state() -> None:
    assert_view_only("complots", {"GAME", "Complots", "ComplotsState", "PlayerState"})


# --- behaviours -----------------------------------------------------------------------


def answers(
    state: ComplotsState, seat: Seat, level: Level = Level.NORMAL, tries: int = 300
) -> Counter[ComplotsChoice]:
    """How often the policy gives each answer over many random draws."""
    view = GAME.view(state, seat)
    return Counter(POLICIES[level].choose(view, random.Random(i)) for i in range(tries))


def stack_court(state: ComplotsState, cards: Sequence[Character]) -> None:
    """Put these cards on top of the Court: the next draws."""
    for card in cards:
        state.court.remove(card)
        state.court.append(card)


def claimed_tax(hand: Sequence[Character], viewer_revealed: Sequence[Character]) -> Table:
    """Seat 1 (one card left, a Captain) claims the Duchess; seat 0 reacts."""
    table = Table(
        rigged(
            [hand, [CA], [A, CO]],
            revealed=[viewer_revealed, [AM], []],
            turn=1,
        )
    )
    table.do(1, TAX)
    return table


def test_it_counts_the_copies_it_cannot_see() -> None:
    state = rigged([[D, CA], [CO], [A, D]], revealed=[[], [D], []])
    unseen = read_situation(GAME.view(state, 0)).unseen
    assert unseen == {D: 1, A: 3, CO: 3, CA: 2, AM: 3}, "one in hand, one face up"
    table = Table(rigged([[AM, CO], [CA, A], [A, D]]))
    stack_court(table.state, [D, D])
    table.do(0, Act(action=ActionKind.EXCHANGE))
    table.do(1, Pass())
    table.do(2, Pass())
    view = GAME.view(table.state, 0)
    assert view.exchange_pool is not None and view.exchange_pool.count(D) == 2
    assert read_situation(view).unseen[D] == 1, "the drawn cards are counted too"


def test_it_always_challenges_a_claim_whose_copies_are_all_visible() -> None:
    state = rigged([[D, D], [CA], [A]], revealed=[[], [AM], [D]], turn=1)
    table = Table(state)
    table.do(1, TAX)
    assert answers(table.state, 0) == {Challenge(): 300}
    assert answers(table.state, 0, Level.EASY)[Challenge()] < 30, "EASY counts nothing"


def test_it_challenges_more_as_fewer_copies_remain_unseen() -> None:
    none = answers(claimed_tax([CA, CO], []).state, 0)[Challenge()]
    one = answers(claimed_tax([D, CO], []).state, 0)[Challenge()]
    two = answers(claimed_tax([D, D], []).state, 0)[Challenge()]
    assert none <= one < two
    assert two > 60


def test_it_challenges_less_on_its_last_influence() -> None:
    two_lives = answers(claimed_tax([D, D], []).state, 0)[Challenge()]
    last_life = answers(claimed_tax([D], [D]).state, 0)[Challenge()]
    assert last_life < two_lives / 2


def test_it_claims_what_it_holds() -> None:
    state = rigged([[D, CO], [CA, AM], [A, CO]])
    assert answers(state, 0)[TAX] > 250
    assert answers(state, 0, Level.EASY)[TAX] == 300


def bluffed_claims(choices: Counter[ComplotsChoice], hand: Sequence[Character]) -> int:
    claims = [
        (choice, action_rule(choice.action, Variant.AMBASSADOR).claim)
        for choice in choices.elements()
        if isinstance(choice, Act)
    ]
    return sum(1 for _, claim in claims if claim is not None and claim not in hand)


def test_it_bluffs_sometimes_and_more_when_desperate() -> None:
    calm = rigged([[CO, AM], [CO, A], [CA, D]])
    desperate = rigged([[AM], [CO, A], [CA, D]], revealed=[[CO], [], []])
    calm_bluffs = bluffed_claims(answers(calm, 0, tries=1000), [CO, AM])
    desperate_bluffs = bluffed_claims(answers(desperate, 0, tries=1000), [AM])
    assert 0 < calm_bluffs < 250, "a small share of its turns"
    assert desperate_bluffs > calm_bluffs, (calm_bluffs, desperate_bluffs)


def test_it_never_claims_a_character_whose_copies_are_all_visible() -> None:
    hands = [[AM], [CA], [A], [CO]]
    all_seen = rigged(hands, revealed=[[CO], [D], [D], [D]], coins=[2, 2, 2, 7])
    one_unseen = rigged(hands, revealed=[[CO], [D], [D], [CA]], coins=[2, 2, 2, 7])
    assert answers(all_seen, 0, tries=1000)[TAX] == 0
    assert answers(one_unseen, 0, tries=1000)[TAX] > 0


def test_it_coups_the_most_dangerous_opponent_at_seven_coins() -> None:
    state = rigged([[D, CA], [CO, AM], [A, D]], revealed=[[], [], []], coins=[7, 2, 5])
    assert answers(state, 0) == {Act(action=ActionKind.COUP, target=2): 300}
    state = rigged([[D, CA], [CO, AM], [A]], revealed=[[], [], [D]], coins=[7, 2, 2])
    assert answers(state, 0) == {Act(action=ActionKind.COUP, target=1): 300}


def test_it_assassinates_the_most_dangerous_opponent() -> None:
    state = rigged([[A, CO], [CA, AM], [D, CO]], coins=[3, 1, 6])
    replies = answers(state, 0)
    murder = Act(action=ActionKind.ASSASSINATE, target=2)
    targets = {
        c.target for c in replies if isinstance(c, Act) and c.action is ActionKind.ASSASSINATE
    }
    assert targets == {2}
    assert replies[murder] > 240, "its best move; a bluffed tax now and then"


def coup_on_seat_0(hand: list[Character], other_coins: int) -> ComplotsState:
    table = Table(rigged([hand, [D, AM], [A, D]], coins=[2, 7, other_coins], turn=1))
    table.do(1, Act(action=ActionKind.COUP, target=0))
    return table.state


def test_it_loses_the_less_useful_influence() -> None:
    assert answers(coup_on_seat_0([D, AM], 0), 0) == {Reveal(slot=1): 300}
    # Alone with a Countess, it survives an Assassin; keep it when one is affordable.
    assert answers(coup_on_seat_0([CO, CA], 3), 0) == {Reveal(slot=1): 300}
    assert answers(coup_on_seat_0([CO, CA], 0), 0) == {Reveal(slot=0): 300}


def test_it_keeps_the_best_cards_in_an_exchange() -> None:
    table = Table(rigged([[AM, CO], [CA, A], [A, D]]))
    stack_court(table.state, [D, CA])
    table.do(0, Act(action=ActionKind.EXCHANGE))
    table.do(1, Pass())
    table.do(2, Pass())
    (keep,) = answers(table.state, 0)
    assert isinstance(keep, Keep) and set(keep.cards) == {D, CA}


def test_two_player_pick_keeps_the_duchess() -> None:
    state = GAME.setup(2, ComplotsOptions(), seed=4)
    assert answers(state, 0) == {Pick(character=D): 300}


def examine(shown: int, hand: list[Character]) -> Table:
    """Seat 0 (the Inquisitor) examines seat 1, who holds Duchess + Countess."""
    table = Table(rigged([hand, [D, CO], [A, CA]], variant=Variant.INQUISITOR))
    table.do(0, Act(action=ActionKind.EXAMINE, target=1))
    table.do(1, Pass())
    table.do(2, Pass())
    if shown >= 0:
        table.do(1, Show(slot=shown))
    return table


def test_examined_it_shows_its_weaker_card() -> None:
    assert answers(examine(-1, [IN, CA]).state, 1) == {Show(slot=1): 300}


def test_examining_it_sends_back_a_strong_card_only() -> None:
    assert answers(examine(0, [IN, CA]).state, 0) == {Verdict(redraw=True): 300}
    assert answers(examine(1, [IN, CA]).state, 0) == {Verdict(redraw=False): 300}
    assert answers(examine(1, [IN, A]).state, 0) == {Verdict(redraw=True): 300}, (
        "a Countess stops its Assassin"
    )


def targeted(action: ActionKind, hand: list[Character], revealed: list[Character]) -> Table:
    """Seat 1 (with the Captain and the Assassin) acts on seat 0."""
    table = Table(
        rigged([hand, [CA, A], [D, AM]], revealed=[revealed, [], []], coins=[2, 3, 2], turn=1)
    )
    table.do(1, Act(action=action, target=0))
    return table


def test_it_blocks_with_the_character_it_holds() -> None:
    steal = targeted(ActionKind.STEAL, [CA, D], [])
    assert answers(steal.state, 0) == {Block(character=CA): 300}
    murder = targeted(ActionKind.ASSASSINATE, [CO, D], [])
    assert answers(murder.state, 0) == {Block(character=CO): 300}
    aid = Table(rigged([[D, CO], [CA, A], [A, AM]], turn=1))
    aid.do(1, Act(action=ActionKind.FOREIGN_AID))
    assert answers(aid.state, 0) == {Block(character=D): 300}


def test_on_its_last_influence_it_never_lets_an_assassin_kill_it() -> None:
    murder = targeted(ActionKind.ASSASSINATE, [D], [CA])
    replies = answers(murder.state, 0)
    assert replies[Pass()] == 0
    assert replies[Block(character=CO)] > 250, "a plausible Countess is its best chance"
    with_two = answers(targeted(ActionKind.ASSASSINATE, [D, CA], []).state, 0)
    assert with_two[Pass()] > 150, "with two cards, a bluff caught would cost both"


def test_it_sometimes_bluffs_a_block_of_a_theft() -> None:
    replies = answers(targeted(ActionKind.STEAL, [D, CO], []).state, 0)
    blocks = sum(n for choice, n in replies.items() if isinstance(choice, Block))
    assert 0 < blocks < replies[Pass()]


def test_in_an_endless_game_it_takes_only_unblockable_gains() -> None:
    """Two players holding the blockers of each other's actions would trade blocked
    thefts forever; after 20 turns a seat both levels stop trying."""
    state = rigged([[CA, CO], [CA, A]], coins=[2, 4])
    assert any(isinstance(c, Act) and c.action is ActionKind.STEAL for c in answers(state, 0))
    state.turn_number = 41
    for level in (Level.EASY, Level.NORMAL):
        assert set(answers(state, 0, level)) <= {Act(action=ActionKind.INCOME), TAX}


# --- strength -------------------------------------------------------------------------


def win_rate(hero: Policy[Any, Any], villain: Policy[Any, Any], players: int, games: int) -> float:
    """The hero's share of wins, rotating its seat, alternating the variant."""

    def options(index: int) -> ComplotsOptions:
        return ComplotsOptions(variant=Variant.AMBASSADOR if index % 2 == 0 else Variant.INQUISITOR)

    return hero_share(GAME, hero, villain, players, games, 90_000, options)


@pytest.mark.slow
def test_normal_beats_random_and_easy() -> None:
    """Fixed seeds; each bound lies 3.4 or more binomial standard deviations below the
    share measured on exactly these games (fair share: 1/4 at 4 players, 1/2 at 2)."""
    assert win_rate(NORMAL, RANDOM, 4, 100) > 0.6  # measured 0.87 (sd 0.034)
    assert win_rate(EASY, RANDOM, 4, 100) > 0.6  # measured 0.79 (sd 0.041)
    assert win_rate(NORMAL, EASY, 4, 200) > 0.27  # measured 0.385 (sd 0.034); EASY: 0.235
    assert win_rate(NORMAL, EASY, 2, 200) > 0.52  # measured 0.635 (sd 0.034); EASY: 0.46
