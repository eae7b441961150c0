"""Mascarade computer players: what they import, the NORMAL behaviours (beliefs, looks,
steals, announcements, contests, bluffs, power choices, the ends of the game) and EASY's,
and NORMAL's strength. (All-computer games and view-only decisions: the conformance
suite, tests/games/conformance.)"""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from games.ai import Level, Policy
from games.base import Seat
from games.mascarade import (
    BIG_TABLE_KNOBS,
    GAME,
    HARD,
    SEARCHED_PLAYERS,
    Character,
    MascaradeState,
    ai,
)
from games.mascarade.ai import NORMAL_KNOBS, POLICIES, Knobs, RememberingPolicy, beliefs_of
from games.mascarade.cards import OFFICIAL_SETS
from games.mascarade.models import (
    Announce,
    ChooseCard,
    ChoosePlayer,
    Contest,
    Decide,
    Guess,
    Knowledge,
    Look,
    MascaradeChoice,
    MascaradeView,
    Pass,
    Stage,
    Swap,
)
from games.registry import policy_for
from tests.games.playouts import hero_share

from ..ai_imports import assert_view_only
from .helpers import (
    BISHOP,
    CHEAT,
    FOOL,
    INQUISITOR,
    JUDGE,
    KING,
    PEASANT,
    QUEEN,
    SPY,
    THIEF,
    WIDOW,
    WITCH,
    Table,
    rigged,
)

NORMAL = POLICIES[Level.NORMAL]
EASY = POLICIES[Level.EASY]
SIX = [JUDGE, BISHOP, KING, QUEEN, WITCH, CHEAT]


# --- the policies see only their view ------------------------------------------------


def test_the_policies_import_neither_the_engine_nor_the_state() -> None:
    assert_view_only("mascarade", {"GAME", "Mascarade", "MascaradeState", "Knowledge", "apply"})


# --- scenario helpers ---------------------------------------------------------------


def knows(
    state: MascaradeState, viewer: Seat, seat: Seat | None, slot: int = 0, stale: bool = False
) -> None:
    """``viewer`` remembers the card at this place (fresh unless ``stale``)."""
    place = GAME.place(state, seat, slot)
    state.knowledge[viewer].seen[place] = state.cards[place]
    state.knowledge[viewer].stale[place] = stale


def everybody_saw_the_deal(state: MascaradeState) -> None:
    state.knowledge = [Knowledge.of_deal(state.cards) for _ in range(state.seats)]
    state.public = Knowledge.of_deal(state.cards)


def decide(policy: Policy[MascaradeView, MascaradeChoice], table: Table, seed: int = 1) -> object:
    (seat,) = table.prompted()
    return policy.choose(GAME.view(table.state, seat), random.Random(seed))


def normal(table: Table, seed: int = 1) -> object:
    return decide(NORMAL, table, seed)


def easy(table: Table, seed: int = 1) -> object:
    return decide(EASY, table, seed)


def six(coins: list[int] | None = None, courthouse: int = 0) -> Table:
    """Six players, seat 0 to play: Judge, Bishop, King, Queen, Witch, Cheat."""
    return Table(rigged(SIX, coins=coins, courthouse=courthouse))


# --- beliefs ------------------------------------------------------------------------


def test_a_fresh_memory_is_certain_and_unknown_cards_share_the_rest() -> None:
    table = six()
    knows(table.state, 0, 0)
    knows(table.state, 0, 2)
    beliefs = beliefs_of(GAME.view(table.state, 0))
    assert beliefs[0] == {JUDGE: 1.0} and beliefs[2] == {KING: 1.0}
    for seat in (1, 3, 4, 5):
        assert set(beliefs[seat]) == {BISHOP, QUEEN, WITCH, CHEAT}
        assert beliefs[seat][QUEEN] == pytest.approx(0.25)
    for character in (BISHOP, QUEEN, WITCH, CHEAT):
        assert sum(b.get(character, 0.0) for b in beliefs) == pytest.approx(1.0)


def test_a_possible_swap_splits_a_memory_between_the_two_cards() -> None:
    """Seat 5 saw the deal, then seat 1 swapped (or not) with seat 2 under the table."""
    table = six()
    everybody_saw_the_deal(table.state)
    table.state.turn = 1
    table.do(1, Swap(slot=0, target=2, target_slot=0))
    table.do(1, Decide(swap=True))
    beliefs = beliefs_of(GAME.view(table.state, 5))
    assert set(beliefs[1]) == set(beliefs[2]) == {BISHOP, KING}
    assert 0.5 < beliefs[1][BISHOP] < 0.9, "the card last seen there stays likelier"
    assert beliefs[3] == {QUEEN: 1.0}
    mover = beliefs_of(GAME.view(table.state, 1))
    assert mover[1] == {KING: 1.0}, "the swapper's memory follows the cards"


def test_beliefs_of_the_same_memories_are_worked_out_once_and_the_list_is_the_callers() -> None:
    """The search asks for the same beliefs again and again: they are shared, so a
    caller that reorders its list (as a swap's worth does) changes nobody else's."""
    table = six()
    knows(table.state, 0, 0)
    first = beliefs_of(GAME.view(table.state, 0))
    expected = [dict(b) for b in first]
    first.reverse()
    again = beliefs_of(GAME.view(table.state, 0))
    assert again == expected
    assert again[3] is first[2], "the same belief, not worked out again"
    knows(table.state, 0, 3)
    assert beliefs_of(GAME.view(table.state, 0))[3] == {QUEEN: 1.0}, "new memories, new beliefs"


def test_the_same_fortunes_are_shared_and_others_are_not() -> None:
    table = six(coins=[6, 6, 6, 6, 6, 6])
    view = GAME.view(table.state, 0)
    fortunes = ai.Fortunes.of(view, 0)
    assert ai.Fortunes.of(GAME.view(table.state, 0), 0) is fortunes
    assert ai.Fortunes.of(view, 1) is not fortunes, "another viewer weighs them otherwise"
    assert ai.Fortunes.of(view, 0, BIG_TABLE_KNOBS) is not fortunes
    table.state.coins[3] = 11
    richer = ai.Fortunes.of(GAME.view(table.state, 0), 0)
    assert richer is not fortunes and richer.coins[3] == 11.0 and fortunes.coins[3] == 6.0
    assert richer.harm(3, KING) < -10 < fortunes.harm(3, KING) < 0, "now the King would win"


# --- the turn -----------------------------------------------------------------------


def test_normal_looks_at_its_card_when_unsure_and_not_when_it_knows() -> None:
    """Thirteen players, none of whose cards it knows: any claim would be a long shot."""
    table = Table(rigged(list(OFFICIAL_SETS[13])))
    assert all(normal(table, seed) == Look(slot=0) for seed in range(10))
    knows(table.state, 0, 0)
    assert not any(isinstance(normal(table, seed), Look) for seed in range(10))


@pytest.mark.parametrize(
    ("card", "coins", "courthouse"),
    [(KING, 6, 0), (QUEEN, 6, 0), (JUDGE, 6, 5), (BISHOP, 6, 0), (CHEAT, 10, 0), (WITCH, 2, 0)],
)
def test_normal_announces_a_card_it_knows_when_its_power_pays(
    card: Character, coins: int, courthouse: int
) -> None:
    cards = [card, *(c for c in SIX if c is not card)]
    others = [9, 7, 6, 6, 6] if card is WITCH else [6] * 5
    table = Table(rigged(cards, coins=[coins, *others], courthouse=courthouse))
    knows(table.state, 0, 0)
    assert normal(table) == Announce(slot=0, character=card)


@pytest.mark.parametrize(("card", "coins"), [(CHEAT, 6), (WITCH, 9), (JUDGE, 6)])
def test_normal_does_not_announce_a_useless_power(card: Character, coins: int) -> None:
    """The Cheat below 10 coins, the Witch when richest, the Judge with an empty court."""
    cards = [card, *(c for c in SIX if c is not card)]
    table = Table(rigged(cards, coins=[coins, 6, 6, 6, 6, 6]))
    knows(table.state, 0, 0)
    assert normal(table) != Announce(slot=0, character=card)


def test_normal_announces_the_best_paying_of_its_known_cards() -> None:
    """Three players: it knows a Queen and a King in its hand."""
    hands = [[QUEEN, KING], [JUDGE, BISHOP], [FOOL, WITCH]]
    table = Table(rigged(hands))
    knows(table.state, 0, 0, 0)
    knows(table.state, 0, 0, 1)
    assert normal(table) == Announce(slot=1, character=KING)


def test_normal_announces_the_widow_when_poor_and_not_when_rich() -> None:
    cards = [WIDOW, JUDGE, BISHOP, KING, QUEEN, FOOL, THIEF, WITCH, PEASANT, PEASANT, CHEAT, SPY]
    poor = Table(rigged(cards, coins=[3, *[6] * 11]))
    knows(poor.state, 0, 0)
    assert normal(poor) == Announce(slot=0, character=WIDOW)
    rich = Table(rigged(cards, coins=[11, *[6] * 11]))
    knows(rich.state, 0, 0)
    assert normal(rich) != Announce(slot=0, character=WIDOW)


def test_normal_steals_a_good_card_it_knows_and_keeps_it() -> None:
    table = Table(rigged([CHEAT, JUDGE, BISHOP, KING, QUEEN, WITCH]))
    knows(table.state, 0, 0)
    knows(table.state, 0, 3)
    assert normal(table) == Swap(slot=0, target=3, target_slot=0)
    table.do(0, Swap(slot=0, target=3, target_slot=0))
    assert normal(table) == Decide(swap=True)


def test_normal_keeps_its_good_card_in_a_forced_swap() -> None:
    table = six()
    table.state.cards = [KING, BISHOP, JUDGE, QUEEN, WITCH, CHEAT]
    knows(table.state, 0, 0)
    table.state.must_swap = True
    choice = normal(table)
    assert isinstance(choice, Swap)
    table.do(0, choice)
    assert normal(table) == Decide(swap=False)


def test_normal_bluffs_when_nobody_else_can_hold_the_card() -> None:
    """Four players: it knows the other players' cards, so the King is its own card or
    in the centre (a good bet); it does not claim a King it knows to be elsewhere."""
    table = Table(rigged([JUDGE, BISHOP, QUEEN, THIEF], centre=[KING, CHEAT]))
    for seat in (1, 2, 3):
        knows(table.state, 0, seat)
    assert normal(table) == Announce(slot=0, character=KING)
    table.state.cards = [JUDGE, KING, QUEEN, THIEF, BISHOP, CHEAT]
    knows(table.state, 0, 1)
    assert normal(table) != Announce(slot=0, character=KING)


def test_normal_bluffs_the_cheat_at_ten_coins() -> None:
    table = Table(rigged(SIX, coins=[10, 6, 6, 6, 6, 6]))
    table.state.cards = [QUEEN, JUDGE, BISHOP, KING, WITCH, CHEAT]
    knows(table.state, 0, 0, stale=True)
    assert normal(table) == Announce(slot=0, character=CHEAT)


def test_normal_does_not_end_the_game_by_bankruptcy_unless_it_is_the_richest() -> None:
    """Its known Thief would take the last coin of a neighbour."""
    cards = [THIEF, JUDGE, BISHOP, KING, QUEEN, FOOL, WITCH]
    losing = Table(rigged(cards, coins=[6, 1, 6, 11, 6, 6, 6]))
    knows(losing.state, 0, 0)
    assert normal(losing) != Announce(slot=0, character=THIEF)
    winning = Table(rigged(cards, coins=[10, 1, 6, 9, 6, 6, 6]))
    knows(winning.state, 0, 0)
    assert normal(winning) == Announce(slot=0, character=THIEF)


# --- contests -----------------------------------------------------------------------


def announced(table: Table, character: Character, claimant: Seat = 0) -> Table:
    table.state.turn = claimant
    table.do(claimant, Announce(slot=0, character=character))
    return table


def test_normal_contests_with_the_card_it_knows_it_holds() -> None:
    table = announced(six(), QUEEN)
    knows(table.state, 1, 3, stale=True)
    table.do(1, Pass())
    table.do(2, Pass())
    assert table.prompted() == [3]
    knows(table.state, 3, 3)
    assert normal(table) == Contest(slot=0)


def test_normal_stays_silent_when_it_does_not_hold_the_card() -> None:
    table = announced(six(), QUEEN)
    assert normal(table) == Pass(), "its card is a mystery: most likely not the Queen"
    knows(table.state, 1, 1)
    assert normal(table) == Pass()


def test_normal_contests_an_announcement_that_would_make_the_leader_win() -> None:
    table = announced(six(coins=[11, 6, 6, 6, 6, 6]), KING)
    assert normal(table) == Contest(slot=0), "a bluff would end the game: make it show"


def test_normal_does_not_pay_a_fine_to_unmask_a_claim_already_contested() -> None:
    table = announced(six(coins=[11, 6, 6, 6, 6, 6]), KING)
    table.do(1, Contest(slot=0))
    knows(table.state, 2, 2)
    table.state.cards[2], table.state.cards[3] = QUEEN, KING
    knows(table.state, 2, 2)
    assert normal(table) == Pass()


# --- powers -------------------------------------------------------------------------


def power_of(table: Table, character: Character, claimant: Seat = 0) -> Table:
    announced(table, character, claimant)
    table.pass_all()
    return table


def test_normal_witch_swaps_with_the_richest() -> None:
    table = power_of(six(coins=[3, 6, 11, 8, 6, 6]), WITCH)
    assert normal(table) == ChoosePlayer(target=2)


def test_normal_witch_keeps_her_fortune_when_richest() -> None:
    table = power_of(six(coins=[9, 6, 8, 8, 6, 6]), WITCH)
    assert normal(table) == ChoosePlayer(target=None)


def test_normal_bishop_robs_the_richest_player_likelier_to_hold_a_good_card() -> None:
    table = power_of(six(coins=[6, 6, 9, 6, 6, 9]), BISHOP)
    assert table.stage() is Stage.BISHOP, "seats 2 and 5 are equally rich"
    knows(table.state, 0, 2)
    knows(table.state, 0, 5)
    assert normal(table) == ChoosePlayer(target=2), "the King, not the Cheat below 10 coins"


def test_normal_spy_looks_at_the_card_it_wants_and_takes_it() -> None:
    cards = [SPY, JUDGE, BISHOP, KING, QUEEN, FOOL, WITCH, PEASANT, PEASANT, CHEAT]
    table = Table(rigged(cards))
    knows(table.state, 0, 3, stale=True)
    power_of(table, SPY)
    assert normal(table) == ChooseCard(target=3, slot=0)
    table.do(0, ChooseCard(target=3, slot=0))
    assert normal(table) == Decide(swap=True)


def test_normal_fool_moves_the_good_card_away_from_the_richest() -> None:
    cards = [FOOL, JUDGE, BISHOP, KING, QUEEN, THIEF, WITCH]
    table = Table(rigged(cards, coins=[6, 6, 6, 11, 4, 6, 6]))
    knows(table.state, 0, 3)
    knows(table.state, 0, 4)
    power_of(table, FOOL)
    assert normal(table) == ChooseCard(target=3, slot=0)
    table.do(0, ChooseCard(target=3, slot=0))
    assert normal(table) == ChooseCard(target=4, slot=0)
    table.do(0, ChooseCard(target=4, slot=0))
    assert normal(table) == Decide(swap=True)


def inquisition(coins: list[int]) -> Table:
    cards = [INQUISITOR, JUDGE, BISHOP, KING, QUEEN, FOOL, WITCH, PEASANT, PEASANT, CHEAT, SPY]
    return power_of(Table(rigged(cards, coins=coins)), INQUISITOR)


def test_normal_inquisitor_questions_the_player_who_would_pay_most() -> None:
    table = inquisition([6, 6, 6, 10, 6, 6, 2, 6, 6, 6, 6])
    assert normal(table) == ChoosePlayer(target=3)


def test_normal_guesses_its_likeliest_character() -> None:
    """Its stale memory of its card outweighs each other possible character."""
    cards = [INQUISITOR, JUDGE, BISHOP, KING, QUEEN, WITCH]
    table = power_of(Table(rigged(cards)), INQUISITOR)
    table.do(0, ChoosePlayer(target=4))
    assert table.stage() is Stage.GUESS
    knows(table.state, 4, 4, stale=True)
    assert normal(table) == Guess(character=QUEEN)
    table.state.knowledge[4].seen[GAME.place(table.state, 4, 0)] = WITCH
    assert normal(table) == Guess(character=WITCH)


# --- EASY ---------------------------------------------------------------------------


def test_easy_announces_only_a_card_it_knows() -> None:
    table = six()
    table.state.cards[0], table.state.cards[2] = KING, JUDGE
    knows(table.state, 0, 0, stale=True)
    assert all(isinstance(easy(table, seed), Look | Swap) for seed in range(20))
    knows(table.state, 0, 0)
    announces = [easy(table, seed) == Announce(slot=0, character=KING) for seed in range(20)]
    assert sum(announces) >= 14, "mostly (not always, or two EASY players could loop)"


def test_easy_contests_only_with_a_card_it_knows() -> None:
    table = announced(six(coins=[11, 6, 6, 6, 6, 6]), KING)
    assert easy(table) == Pass()
    table.do(1, Pass())
    knows(table.state, 2, 2)
    assert easy(table) == Contest(slot=0)


def test_easy_witch_swaps_with_the_richest_only_when_poorer() -> None:
    assert easy(power_of(six(coins=[3, 6, 11, 8, 6, 6]), WITCH)) == ChoosePlayer(target=2)
    assert easy(power_of(six(coins=[12, 6, 11, 8, 6, 6]), WITCH)) == ChoosePlayer(target=None)


# --- strength -----------------------------------------------------------------------


def win_share(hero: Level, field: Level, players: int, games: int, seed: int) -> float:
    """The hero's share of wins (ties split), rotating its seat among ``field`` seats."""
    return hero_share(
        GAME, policy_for("mascarade", hero), policy_for("mascarade", field), players, games, seed
    )


@pytest.mark.slow
def test_both_levels_beat_random_seats_and_normal_beats_easy() -> None:
    """Four players, 100 games per line, fixed seeds. Measured on exactly these games:
    NORMAL wins 0.905 (sd 0.03) and EASY 0.78 (sd 0.04) of the games against three
    RANDOM seats; NORMAL 0.75 against three EASY seats, where an EASY seat gets 0.28
    (sd of the difference 0.06). Every bound is 4 sd or more below."""
    players, games = 4, 100
    fair = 1 / players
    assert win_share(Level.NORMAL, Level.RANDOM, players, games, seed=500) > 0.75
    assert win_share(Level.EASY, Level.RANDOM, players, games, seed=500) > 2 * fair
    normal_share = win_share(Level.NORMAL, Level.EASY, players, games, seed=900)
    easy_share = win_share(Level.EASY, Level.EASY, players, games, seed=900)
    assert normal_share > max(easy_share, fair) + 0.2


# --- HARD's own knobs ---------------------------------------------------------------


def test_normal_decides_by_the_module_constants() -> None:
    """NORMAL's knobs are the constants (a HARD guide's may differ, NORMAL's must not)."""
    assert isinstance(NORMAL, RememberingPolicy)
    assert NORMAL.knobs == NORMAL_KNOBS == Knobs()
    for knob in fields(Knobs):
        assert getattr(NORMAL_KNOBS, knob.name) == getattr(ai, knob.name.upper()), knob.name


def test_a_guide_with_other_knobs_decides_by_them() -> None:
    """The same contest (a bluff would make the leader win): NORMAL contests; a guide
    asking a far larger margin stays silent."""
    table = announced(six(coins=[11, 6, 6, 6, 6, 6]), KING)
    assert normal(table) == Contest(slot=0)
    cautious = RememberingPolicy(knobs=Knobs(contest_margin=100.0))
    assert decide(cautious, table) == Pass()


def test_hard_plays_its_own_knobs_beyond_the_searched_size() -> None:
    big = GAME.view(GAME.setup(SEARCHED_PLAYERS + 1, GAME.options_model(), 1), 0)
    small = GAME.view(GAME.setup(SEARCHED_PLAYERS, GAME.options_model(), 1), 0)
    assert HARD.guide_knobs(big) == BIG_TABLE_KNOBS != NORMAL_KNOBS
    ten = GAME.view(GAME.setup(10, GAME.options_model(), 1), 0)
    assert HARD.guide_knobs(ten) == BIG_TABLE_KNOBS, "also where it searches beyond 6"
    assert HARD.guide_knobs(small) == NORMAL_KNOBS
