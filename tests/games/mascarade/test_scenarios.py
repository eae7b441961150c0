"""Scenario tests: every character's power with and without a contest, the contest
round, the turn rules, knowledge of the cards, and the ends of the game."""

import pytest

from games.base import GameIsOver, IllegalChoice, NotAllowed, NotPrompted
from games.mascarade import GAME, Character
from games.mascarade.models import (
    Announce,
    CardRevealed,
    CardSeen,
    CheatFailed,
    ChooseCard,
    ChoosePlayer,
    CoinsFromBank,
    CoinsTaken,
    Contest,
    Decide,
    FinePaid,
    FortuneKept,
    FortunesSwapped,
    GameWon,
    Guess,
    Look,
    Looked,
    MascaradeChoice,
    Memory,
    Pass,
    PowerUsed,
    Stage,
    StayedSilent,
    Swap,
    SwapCause,
    SwapDecided,
    SwapPrepared,
    TurnStarted,
    WinReason,
)

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

SIX = [JUDGE, BISHOP, KING, QUEEN, WITCH, CHEAT]


def announce(character: Character, slot: int = 0) -> Announce:
    return Announce(slot=slot, character=character)


# --- the contest round ---------------------------------------------------------------


def test_contest_round_asks_one_player_after_another_from_the_left() -> None:
    table = Table(rigged(SIX, turn=3))
    table.do(3, announce(KING))
    asked = []
    windows = set()
    while table.stage() is Stage.CONTEST:
        prompts = GAME.prompts(table.state)
        assert len(prompts) == 1, "each contest prompt is for one player"
        asked.append(prompts[0].player)
        windows.add(prompts[0].window)
        assert prompts[0].choices == (Contest(slot=0), Pass())
        assert prompts[0].default == Pass()
        table.do(prompts[0].player, Pass())
    assert asked == [4, 5, 0, 1, 2]
    assert len(windows) == 5, "every player asked opens a new decision moment"
    assert [e.seat for e in table.of_type(StayedSilent)] == asked


def test_later_players_see_the_earlier_answers() -> None:
    table = Table(rigged(SIX, turn=0))
    table.do(0, announce(QUEEN))
    table.do(1, Contest(slot=0))
    table.do(2, Pass())
    view = GAME.view(table.state, 3)
    assert view.announcement is not None
    assert [c.seat for c in view.announcement.contesters] == [1]
    assert view.announcement.silent == [2]
    assert view.announcement.asked == 3
    assert view.prompt is not None and view.prompt.choices == (Contest(slot=0), Pass())
    assert GAME.view(table.state, 4).prompt is None, "seat 4 is asked later"
    assert table.of_type(CardRevealed) == [], "cards turn over only after the round"


def test_contest_round_skips_removed_players() -> None:
    table = Table(rigged(SIX, turn=0))
    table.remove(2)
    table.do(0, announce(QUEEN))
    asked = []
    while table.stage() is Stage.CONTEST:
        (seat,) = table.prompted()
        asked.append(seat)
        table.do(seat, Pass())
    assert asked == [1, 3, 4, 5]


# --- each character's power ---------------------------------------------------------


def test_judge_uncontested_takes_the_courthouse() -> None:
    table = Table(rigged(SIX, turn=2, courthouse=4))
    table.do(2, announce(JUDGE))
    table.pass_all()
    assert table.coins()[2] == 10 and table.state.courthouse == 0


def test_judge_contested_by_the_real_judge() -> None:
    table = Table(rigged(SIX, turn=2, courthouse=4))
    table.do(2, announce(JUDGE))
    table.contest_round([0])
    assert table.coins()[:3] == [10, 6, 5]
    assert table.state.courthouse == 1, "the false Judge's fine arrives after"


def test_bishop_takes_two_from_the_richest_other_player() -> None:
    table = Table(rigged(SIX, turn=0, coins=[9, 6, 8, 7, 6, 6]))
    table.do(0, announce(BISHOP))
    table.pass_all()
    assert table.coins() == [11, 6, 6, 7, 6, 6], "the Bishop himself does not count"
    assert table.of_type(CoinsTaken)[0].victim == 2


def test_bishop_chooses_between_equally_rich_players() -> None:
    table = Table(rigged(SIX, turn=1, coins=[8, 6, 5, 8, 6, 6]))
    table.do(1, announce(BISHOP))
    table.pass_all()
    assert table.stage() is Stage.BISHOP
    prompt = GAME.prompt_for(table.state, 1)
    assert prompt is not None
    assert prompt.choices == (ChoosePlayer(target=3), ChoosePlayer(target=0))
    assert prompt.default == ChoosePlayer(target=3), "RULING: the first one clockwise"
    table.do(1, ChoosePlayer(target=0))
    assert table.coins() == [6, 8, 5, 8, 6, 6]


def test_bishop_contested_takes_what_there_is_and_fines_follow() -> None:
    table = Table(rigged(SIX, turn=0, coins=[6, 6, 6, 6, 6, 6]))
    table.do(0, announce(BISHOP))
    table.contest_round([1])
    assert table.stage() is Stage.BISHOP and table.prompted() == [1]
    table.do(1, ChoosePlayer(target=2))
    assert table.coins() == [5, 8, 4, 6, 6, 6]
    assert table.of_type(PowerUsed)[0].seat == 1


def test_king_and_queen_take_from_the_bank() -> None:
    table = Table(rigged(SIX, turn=0))
    table.do(0, announce(QUEEN))
    table.contest_round([3])
    assert table.coins() == [5, 6, 6, 8, 6, 6]
    assert table.state.bank_out == 2
    table.do(1, announce(KING))
    table.pass_all()
    assert table.coins()[1] == 9 and table.state.bank_out == 5


def test_fool_takes_one_then_swaps_or_not_two_other_players_cards() -> None:
    cards = [FOOL, JUDGE, KING, QUEEN, THIEF, WITCH, BISHOP]
    table = Table(rigged(cards, turn=0))
    table.do(0, announce(FOOL))
    table.pass_all()
    assert table.coins()[0] == 7
    assert table.stage() is Stage.FOOL_FIRST
    first = table.choices(0)
    assert first == tuple(ChooseCard(target=s, slot=0) for s in range(1, 7)), "not his own"
    table.do(0, ChooseCard(target=2, slot=0))
    second = table.choices(0)
    assert ChooseCard(target=2, slot=0) not in second
    assert len(second) == 5, "a card of another player"
    table.do(0, ChooseCard(target=5, slot=0))
    prepared = table.of_type(SwapPrepared)[0]
    assert (prepared.seat, prepared.target, prepared.cause) == (2, 5, SwapCause.FOOL)
    table.do(0, Decide(swap=True))
    assert table.card(2) is WITCH and table.card(5) is KING
    assert table.of_type(CardSeen) == [], "the Fool does not look"
    assert table.state.turn == 1


def test_fool_knowledge_moves_with_the_cards_he_swapped() -> None:
    cards = [FOOL, JUDGE, KING, QUEEN, THIEF, WITCH, BISHOP]
    state = rigged(cards, turn=0)
    for seat in range(7):
        for place in range(7):
            state.knowledge[seat].see(place, state.cards[place])
    table = Table(state)
    table.do(0, announce(FOOL))
    table.pass_all()
    table.do(0, ChooseCard(target=2, slot=0))
    table.do(0, ChooseCard(target=5, slot=0))
    table.do(0, Decide(swap=True))
    assert table.memory(0, 2) == Memory(character=WITCH), "the Fool knows what he did"
    assert table.memory(0, 5) == Memory(character=KING)
    assert table.memory(2, 2) == Memory(character=KING, stale=True), "the others do not"
    assert table.memory(3, 5) == Memory(character=WITCH, stale=True)
    assert table.memory(3, 4) == Memory(character=THIEF), "other cards are untouched"


def test_fool_contested_the_real_fool_swaps_then_the_false_one_pays() -> None:
    cards = [KING, JUDGE, FOOL, QUEEN, THIEF, WITCH, BISHOP]
    table = Table(rigged(cards, turn=0))
    table.do(0, announce(FOOL))
    table.contest_round([2])
    assert table.prompted() == [2] and table.stage() is Stage.FOOL_FIRST
    assert ChooseCard(target=2, slot=0) not in table.choices(2)
    table.do(2, ChooseCard(target=0, slot=0))
    table.do(2, ChooseCard(target=1, slot=0))
    assert table.of_type(FinePaid) == [], "the fine waits for the Fool's swap"
    table.do(2, Decide(swap=True))
    assert table.card(0) is JUDGE and table.card(1) is KING
    assert table.coins()[:3] == [5, 6, 7]
    kinds = [type(e) for e in table.events]
    assert kinds.index(SwapDecided) < kinds.index(FinePaid)


def test_thief_takes_one_from_each_neighbour() -> None:
    cards = [THIEF, JUDGE, KING, QUEEN, WITCH, BISHOP, CHEAT]
    table = Table(rigged(cards, turn=0, coins=[6, 6, 6, 6, 6, 6, 1]))
    table.do(0, announce(THIEF))
    table.pass_all()
    assert table.coins() == [8, 5, 6, 6, 6, 6, 0]
    assert {e.victim for e in table.of_type(CoinsTaken)} == {1, 6}
    won = table.of_type(GameWon)[0]
    assert (won.winners, won.reason) == ((0,), WinReason.BANKRUPTCY)


def test_thief_contested_by_the_real_thief() -> None:
    cards = [KING, JUDGE, THIEF, QUEEN, WITCH, BISHOP, CHEAT]
    table = Table(rigged(cards, turn=0))
    table.do(0, announce(THIEF))
    table.contest_round([2])
    assert table.coins() == [5, 5, 8, 5, 6, 6, 6], "the fine comes after the theft"


def test_witch_may_keep_her_fortune() -> None:
    table = Table(rigged(SIX, turn=0, coins=[3, 9, 6, 6, 6, 6]))
    table.do(0, announce(WITCH))
    table.pass_all()
    prompt = GAME.prompt_for(table.state, 0)
    assert prompt is not None and prompt.default == ChoosePlayer(target=None)
    assert prompt.choices[1:] == tuple(ChoosePlayer(target=s) for s in range(1, 6))
    table.do(0, ChoosePlayer(target=None))
    assert table.of_type(FortuneKept)[0].actor == 0
    assert table.coins() == [3, 9, 6, 6, 6, 6]


def test_witch_swaps_fortunes_uncontested() -> None:
    table = Table(rigged(SIX, turn=0, coins=[3, 9, 6, 6, 6, 6]))
    table.do(0, announce(WITCH))
    table.pass_all()
    table.do(0, ChoosePlayer(target=1))
    swapped = table.of_type(FortunesSwapped)[0]
    assert (swapped.actor_coins, swapped.target_coins) == (9, 3)
    assert table.coins() == [9, 3, 6, 6, 6, 6]


def test_spy_may_look_at_a_centre_card_but_not_at_her_own() -> None:
    cards = [SPY, JUDGE, KING, QUEEN, WITCH, BISHOP, CHEAT]
    table = Table(rigged(cards[:5], centre=cards[5:], turn=0))
    table.do(0, announce(SPY))
    table.pass_all()
    choices = table.choices(0)
    assert ChooseCard(target=0, slot=0) not in choices
    assert choices[-2:] == (ChooseCard(target=None, slot=0), ChooseCard(target=None, slot=1))
    table.do(0, ChooseCard(target=None, slot=1))
    assert table.memory(0, None, 1) == Memory(character=CHEAT)
    assert table.memory(0, 0) == Memory(character=SPY)
    assert table.memory(1, None, 1) is None
    table.do(0, Decide(swap=False))
    assert table.card(None, 1) is CHEAT
    assert table.memory(1, 0) is None
    assert table.of_type(SwapDecided)[0].audience == (0,)


def test_spy_contested_false_claimant_pays_after_the_spy_swapped() -> None:
    cards = [KING, SPY, JUDGE, QUEEN, WITCH, BISHOP, CHEAT, THIEF, FOOL, PEASANT, PEASANT]
    table = Table(rigged(cards, turn=0))
    table.do(0, announce(SPY))
    table.contest_round([1])
    assert table.prompted() == [1] and table.stage() is Stage.SPY
    table.do(1, ChooseCard(target=0, slot=0))
    table.do(1, Decide(swap=True))
    assert table.card(0) is SPY and table.card(1) is KING
    fine = table.of_type(FinePaid)[0]
    assert (fine.seat, fine.amount) == (0, 1)
    kinds = [type(e) for e in table.events]
    assert kinds.index(SwapDecided) < kinds.index(FinePaid)


def test_peasant_alone_among_claimants_takes_one() -> None:
    cards = [PEASANT, QUEEN, KING, PEASANT, JUDGE, SPY, BISHOP, WITCH]
    table = Table(rigged(cards, turn=1))
    table.do(1, announce(PEASANT))
    table.contest_round([3])
    assert table.coins()[1] == 5 and table.coins()[3] == 7


def test_cheat_uncontested_wins_with_ten_coins_at_once() -> None:
    table = Table(rigged(SIX, turn=0, coins=[10, 6, 6, 6, 6, 6]))
    table.do(0, announce(CHEAT))
    table.pass_all()
    won = table.of_type(GameWon)[0]
    assert (won.winners, won.reason) == ((0,), WinReason.CHEAT), "a bluff is enough"


def test_cheat_below_ten_does_nothing() -> None:
    table = Table(rigged(SIX, turn=0, coins=[9, 6, 6, 6, 6, 6]))
    table.do(0, announce(CHEAT))
    table.pass_all()
    assert table.of_type(CheatFailed)[0].coins == 9
    assert table.coins()[0] == 9 and GAME.result(table.state) is None


def test_cheat_wins_before_the_fines_are_paid() -> None:
    table = Table(rigged(SIX, turn=0, coins=[12, 6, 6, 6, 6, 10]))
    table.do(0, announce(CHEAT))
    table.contest_round([1, 5])
    assert table.of_type(GameWon)[0].winners == (5,)
    assert table.of_type(FinePaid) == []


def test_inquisitor_uncontested_questions_a_player() -> None:
    cards = [KING, INQUISITOR, PEASANT, QUEEN, JUDGE, SPY, PEASANT, WITCH]
    table = Table(rigged(cards, turn=0))
    table.do(0, announce(INQUISITOR))
    table.pass_all()
    prompt = GAME.prompt_for(table.state, 0)
    assert prompt is not None
    assert prompt.choices == tuple(ChoosePlayer(target=s) for s in range(1, 8))
    table.do(0, ChoosePlayer(target=5))
    prompt = GAME.prompt_for(table.state, 5)
    assert prompt is not None
    assert {g.character for g in prompt.choices if isinstance(g, Guess)} == set(cards)
    table.do(5, Guess(character=QUEEN))
    assert table.coins()[0] == 10 and table.coins()[5] == 2
    assert table.memory(3, 5) == Memory(character=SPY), "the card was shown to everybody"


def test_inquisitor_guess_default_is_the_first_character_alphabetically() -> None:
    cards = [KING, INQUISITOR, PEASANT, QUEEN, JUDGE, SPY, PEASANT, WITCH]
    table = Table(rigged(cards, turn=0))
    table.do(0, announce(INQUISITOR))
    table.pass_all()
    table.do(0, ChoosePlayer(target=1))
    prompt = GAME.prompt_for(table.state, 1)
    assert prompt is not None and prompt.default == Guess(character=INQUISITOR)
    table.timeout()
    assert table.coins()[:2] == [6, 6], "the guess was right by chance"


def test_widow_fills_up_to_ten_and_never_loses() -> None:
    cards = [WIDOW, JUDGE, KING, QUEEN, WITCH, BISHOP]
    table = Table(rigged(cards, turn=0, coins=[4, 12, 6, 6, 6, 6]))
    table.do(0, announce(WIDOW))
    table.pass_all()
    assert table.coins()[0] == 10
    table.do(1, announce(WIDOW))
    table.pass_all()
    assert table.coins()[1] == 12
    assert [e.amount for e in table.of_type(CoinsFromBank)] == [6, 0]


# --- turns ------------------------------------------------------------------------------


def test_the_first_four_turns_must_be_swaps() -> None:
    from games.mascarade import MascaradeOptions

    state = GAME.setup(6, MascaradeOptions(first_player=2), seed=5)
    table = Table(state)
    for turn in range(4):
        seat = (2 + turn) % 6
        prompt = GAME.prompt_for(table.state, seat)
        assert prompt is not None and table.state.must_swap
        assert all(isinstance(c, Swap) for c in prompt.choices)
        assert prompt.default == Swap(slot=0, target=(seat + 1) % 6, target_slot=0)
        table.timeout()
        table.timeout()
    assert table.state.turn_number == 5 and not table.state.must_swap
    kinds = {type(c) for c in table.choices(0)}
    assert kinds == {Swap, Look, Announce}
    prompt = GAME.prompt_for(table.state, 0)
    assert prompt is not None and prompt.default == Look(slot=0)


def test_turn_choices_for_one_card_each() -> None:
    table = Table(rigged(SIX[:4], centre=SIX[4:], turn=1))
    choices = table.choices(1)
    swaps = [c for c in choices if isinstance(c, Swap)]
    assert swaps == [
        Swap(slot=0, target=2, target_slot=0),
        Swap(slot=0, target=3, target_slot=0),
        Swap(slot=0, target=0, target_slot=0),
        Swap(slot=0, target=None, target_slot=0),
        Swap(slot=0, target=None, target_slot=1),
    ]
    assert [c for c in choices if isinstance(c, Look)] == [Look(slot=0)]
    assert len([c for c in choices if isinstance(c, Announce)]) == 6


def test_look_shows_only_the_looker_its_card() -> None:
    table = Table(rigged(SIX, turn=0))
    events = table.do(0, Look(slot=0))
    looked = [e for e in events if isinstance(e, Looked)]
    seen = [e for e in events if isinstance(e, CardSeen)]
    assert looked[0].public and seen[0].audience == (0,)
    assert seen[0].character is JUDGE
    assert table.memory(0, 0) == Memory(character=JUDGE)
    assert table.memory(1, 0) is None and table.memory(None, 0) is None


def test_swap_or_not_the_public_only_learns_who_was_involved() -> None:
    table = Table(rigged(SIX, turn=0))
    table.do(0, Swap(slot=0, target=3, target_slot=0))
    assert table.stage() is Stage.DECIDE and table.prompted() == [0]
    view = GAME.view(table.state, 3)
    assert view.swap is not None and view.swap.second.seat == 3
    assert view.prompt is None
    table.do(0, Decide(swap=False))
    assert table.card(0) is JUDGE and table.card(3) is QUEEN
    public = [e for e in table.events if e.public]
    assert not any(isinstance(e, SwapDecided) for e in public)


def test_swap_with_a_centre_card() -> None:
    table = Table(rigged(SIX[:4], centre=SIX[4:], turn=2))
    table.do(2, Swap(slot=0, target=None, target_slot=1))
    table.do(2, Decide(swap=True))
    assert table.card(2) is CHEAT and table.card(None, 1) is KING


def test_only_a_player_revealed_in_the_previous_turn_must_swap() -> None:
    table = Table(rigged(SIX, turn=0))
    table.do(0, announce(KING))
    table.contest_round([2])  # reveals seats 0 and 2
    assert table.state.turn == 1 and not table.state.must_swap
    table.do(1, Look(slot=0))
    assert table.state.turn == 2 and not table.state.must_swap, "revealed two turns ago"
    table.do(2, announce(QUEEN))
    table.contest_round([3])
    assert table.state.turn == 3 and table.state.must_swap
    assert table.of_type(TurnStarted)[-1].must_swap


def test_the_inquisitors_target_must_swap_if_next() -> None:
    cards = [KING, INQUISITOR, PEASANT, QUEEN, JUDGE, SPY, PEASANT, WITCH]
    table = Table(rigged(cards, turn=0))
    table.do(0, announce(INQUISITOR))
    table.pass_all()
    table.do(0, ChoosePlayer(target=1))
    table.do(1, Guess(character=INQUISITOR))
    assert table.state.turn == 1 and table.state.must_swap


def test_announcing_a_character_not_in_the_game_is_refused() -> None:
    table = Table(rigged(SIX, turn=0))
    before = table.state
    with pytest.raises(NotAllowed):
        GAME.apply(before, 0, announce(PEASANT))
    assert table.state == before


@pytest.mark.parametrize(
    ("seat", "choice", "error"),
    [
        (1, Look(slot=0), NotPrompted),
        (0, Contest(slot=0), NotAllowed),
        (0, Swap(slot=0, target=0, target_slot=0), NotAllowed),
        (0, Swap(slot=0, target=9, target_slot=0), NotAllowed),
        (0, Look(slot=1), NotAllowed),
        (0, Decide(swap=True), NotAllowed),
    ],
)
def test_illegal_choices_leave_the_state_untouched(
    seat: int, choice: MascaradeChoice, error: type[IllegalChoice]
) -> None:
    state = rigged(SIX, turn=0)
    snapshot = state.model_dump()
    with pytest.raises(error):
        GAME.apply(state, seat, choice)
    assert state.model_dump() == snapshot


def test_no_choice_after_the_game_is_over() -> None:
    table = Table(rigged(SIX, turn=0, coins=[10, 6, 6, 6, 6, 6]))
    table.do(0, announce(CHEAT))
    table.pass_all()
    with pytest.raises(GameIsOver):
        GAME.apply(table.state, 1, Look(slot=0))
    with pytest.raises(GameIsOver):
        GAME.forfeit(table.state, 1)


# --- the end of the game ----------------------------------------------------------------


def test_thirteen_coins_win() -> None:
    table = Table(rigged(SIX, turn=0, coins=[10, 6, 6, 6, 6, 6]))
    table.do(0, announce(KING))
    table.pass_all()
    result = GAME.result(table.state)
    assert result is not None and result.winners == (0,)
    assert result.scores == (13, 6, 6, 6, 6, 6)
    assert table.of_type(GameWon)[0].reason is WinReason.THIRTEEN


def test_two_peasants_reaching_thirteen_together_share_the_win() -> None:
    cards = [PEASANT, QUEEN, KING, PEASANT, JUDGE, SPY, BISHOP, WITCH]
    table = Table(rigged(cards, turn=0, coins=[11, 6, 6, 12, 6, 6, 6, 6]))
    table.do(0, announce(PEASANT))
    table.contest_round([3])
    result = GAME.result(table.state)
    assert result is not None and result.winners == (0, 3)


def test_bankruptcy_richest_wins_ties_shared() -> None:
    table = Table(rigged(SIX, turn=0, coins=[1, 9, 9, 6, 6, 6]))
    table.do(0, announce(KING))
    table.contest_round([1])  # seat 0 is the Judge: pays its last coin
    result = GAME.result(table.state)
    assert table.coins()[:3] == [0, 8, 9]
    assert result is not None and result.winners == (2,)

    table = Table(rigged(SIX, turn=0, coins=[1, 9, 8, 6, 6, 6]))
    table.do(0, announce(BISHOP))
    table.contest_round([2])  # seat 2 is the King: both false, both fined
    result = GAME.result(table.state)
    assert table.coins()[:3] == [0, 9, 7]
    assert result is not None and result.winners == (1,)
    table = Table(rigged(SIX, turn=0, coins=[1, 9, 8, 9, 6, 6]))
    table.do(0, announce(QUEEN))
    table.contest_round([2])
    result = GAME.result(table.state)
    assert result is not None and result.winners == (1, 3), "a tie is a shared win"


def test_a_fine_takes_only_what_is_left() -> None:
    """The Thief (seat 1) robs seat 0 of its last coin; seat 0, a false Thief, then
    owes a fine it cannot pay (RULING: it pays what it has, 0) and is bankrupt."""
    cards = [KING, THIEF, JUDGE, QUEEN, WITCH, BISHOP, CHEAT]
    table = Table(rigged(cards, turn=1, coins=[1, 6, 6, 6, 6, 6, 6]))
    table.do(1, announce(THIEF))
    table.contest_round([0])
    assert [(e.seat, e.amount) for e in table.of_type(FinePaid)] == [(0, 0)]
    assert table.coins() == [0, 8, 5, 6, 6, 6, 6]
    assert table.state.courthouse == 0
    won = table.of_type(GameWon)[0]
    assert (won.winners, won.reason) == ((1,), WinReason.BANKRUPTCY)
