"""Every worked example of the seed (Katiuscia, Christian, Mario, ...), played out.

Seats, clockwise: Katiuscia 0, Christian 1 (on Katiuscia's left), Mario 2 (on
Christian's left), Marco 3, Massimo 4, Luca 5.
"""

import pytest

from games.base import NotAllowed
from games.mascarade import GAME
from games.mascarade.models import (
    Announce,
    CardRevealed,
    CardSeen,
    ChooseCard,
    ChoosePlayer,
    CoinsFromBank,
    CoinsTaken,
    CourthouseTaken,
    Decide,
    FinePaid,
    GameWon,
    Guess,
    Guessed,
    Memory,
    PowerUsed,
    Stage,
    Swap,
    SwapDecided,
    SwapPrepared,
    WinReason,
)

from .helpers import (
    BISHOP,
    CHEAT,
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

KATIUSCIA, CHRISTIAN, MARIO, MARCO, MASSIMO, LUCA = range(6)


def test_swap_example_katiuscia_swaps_with_christian_under_the_table() -> None:
    """Katiuscia no longer knows her card but is nearly sure of Christian's; she takes
    both under the table, swaps them, gives one back and keeps the other."""
    state = rigged([WITCH, KING, QUEEN, JUDGE], turn=KATIUSCIA)
    king = GAME.place(state, CHRISTIAN, 0)
    state.knowledge[KATIUSCIA].seen[king] = KING
    state.knowledge[KATIUSCIA].stale[king] = True  # "quasi sicura"
    state.knowledge[CHRISTIAN].seen[king] = KING  # Christian looked at his card
    table = Table(state)

    public = table.do(KATIUSCIA, Swap(slot=0, target=CHRISTIAN, target_slot=0))
    assert [type(e) for e in public] == [SwapPrepared]
    assert public[0].public, "everyone sees with whom she (maybe) swaps"
    events = table.do(KATIUSCIA, Decide(swap=True))

    assert table.card(KATIUSCIA) is KING and table.card(CHRISTIAN) is WITCH
    decided = table.of_type(SwapDecided)
    assert [e.audience for e in decided] == [(KATIUSCIA,)], "only she knows she swapped"
    assert not any(isinstance(e, CardSeen) for e in events), "nobody looks at the cards"
    assert table.memory(KATIUSCIA, KATIUSCIA) == Memory(character=KING, stale=True)
    assert table.memory(KATIUSCIA, CHRISTIAN) is None
    assert table.memory(CHRISTIAN, CHRISTIAN) == Memory(character=KING, stale=True), (
        "not even Christian may look at the card he is given back"
    )
    assert table.state.turn == CHRISTIAN


def test_king_example_uncontested_christian_takes_three_without_revealing() -> None:
    """Christian: "I am the King." Nobody else claims it: he takes 3 coins."""
    table = Table(rigged([QUEEN, THIEF, JUDGE, KING, BISHOP], turn=CHRISTIAN))
    table.do(CHRISTIAN, Announce(slot=0, character=KING))
    table.pass_all()
    assert table.coins() == [6, 9, 6, 6, 6], "a bluff works: his card is the Thief"
    assert table.of_type(CardRevealed) == []
    assert table.of_type(PowerUsed)[0].revealed is False
    assert table.memory(MARIO, CHRISTIAN) is None, "nobody saw his card"
    assert table.state.turn == MARIO


def test_king_example_three_false_kings_each_pay_a_fine() -> None:
    """Had Katiuscia and Mario also claimed the King, all three reveal and, none of
    them being the King, each pays 1 coin to the courthouse."""
    table = Table(rigged([QUEEN, THIEF, JUDGE, KING], turn=CHRISTIAN))
    table.do(CHRISTIAN, Announce(slot=0, character=KING))
    table.contest_round([KATIUSCIA, MARIO])
    revealed = [(e.seat, e.character) for e in table.of_type(CardRevealed)]
    assert revealed == [(CHRISTIAN, THIEF), (MARIO, JUDGE), (KATIUSCIA, QUEEN)]
    assert table.coins() == [5, 5, 5, 6]
    assert table.state.courthouse == 3
    assert table.of_type(PowerUsed) == [], "nobody uses the King's power"


def test_king_example_mario_contests_wins_and_must_swap_next() -> None:
    """Christian claims the King, Mario (on his left) contests. Christian is the
    Thief, Mario the King: Mario takes 3, Christian pays 1. Play goes on with Mario,
    who just revealed the King: he must swap (or pretend to)."""
    table = Table(rigged([QUEEN, THIEF, KING, JUDGE], turn=CHRISTIAN))
    table.do(CHRISTIAN, Announce(slot=0, character=KING))
    assert table.prompted() == [MARIO], "Mario, on the announcer's left, is asked first"
    table.contest_round([MARIO])
    assert table.coins() == [6, 5, 9, 6]
    assert table.state.courthouse == 1
    assert table.of_type(CoinsFromBank)[0].seat == MARIO
    assert table.memory(MARCO, MARIO) == Memory(character=KING), "everyone saw it"

    assert table.state.turn == MARIO and table.state.must_swap
    assert all(isinstance(c, Swap) for c in table.choices(MARIO))
    before = table.state
    with pytest.raises(NotAllowed):
        GAME.apply(before, MARIO, Announce(slot=0, character=KING))
    assert table.state == before


def test_spy_example_katiuscia_looks_at_two_cards_then_swaps_or_not() -> None:
    """Katiuscia: "I am the Spy." Nobody contests: she looks at her card and another
    player's, then swaps them or not; play goes on with the next player."""
    table = Table(rigged([SPY, KING, QUEEN, JUDGE, BISHOP, WITCH], turn=KATIUSCIA))
    table.do(KATIUSCIA, Announce(slot=0, character=SPY))
    table.pass_all()
    assert table.stage() is Stage.SPY and table.prompted() == [KATIUSCIA]
    table.do(KATIUSCIA, ChooseCard(target=MARIO, slot=0))
    seen = table.of_type(CardSeen)
    assert [(e.target, e.character, e.audience) for e in seen] == [
        (KATIUSCIA, SPY, (KATIUSCIA,)),
        (MARIO, QUEEN, (KATIUSCIA,)),
    ]
    assert table.memory(KATIUSCIA, MARIO) == Memory(character=QUEEN)
    assert table.memory(MARIO, MARIO) is None, "Mario does not see his own card"
    table.do(KATIUSCIA, Decide(swap=True))
    assert table.card(KATIUSCIA) is QUEEN and table.card(MARIO) is SPY
    assert table.memory(KATIUSCIA, KATIUSCIA) == Memory(character=QUEEN)
    assert table.state.turn == CHRISTIAN


def inquisitor_example() -> Table:
    """Christian claims the Inquisitor, Marco contests; Christian is the Inquisitor,
    Marco the Queen. Christian questions Mario (a Peasant)."""
    cards = [KING, INQUISITOR, PEASANT, QUEEN, JUDGE, SPY, PEASANT, WITCH]
    table = Table(rigged(cards, turn=CHRISTIAN))
    table.do(CHRISTIAN, Announce(slot=0, character=INQUISITOR))
    table.contest_round([MARCO])
    assert [e.character for e in table.of_type(CardRevealed)] == [INQUISITOR, QUEEN]
    assert table.prompted() == [CHRISTIAN] and table.stage() is Stage.INQUISITOR
    table.do(CHRISTIAN, ChoosePlayer(target=MARIO))
    assert table.prompted() == [MARIO] and table.stage() is Stage.GUESS
    return table


def test_inquisitor_example_mario_guesses_judge_but_is_a_peasant() -> None:
    """Mario answers "I am the Judge" and reveals a Peasant: he pays 4 coins to
    Christian. Marco pays his 1-coin fine."""
    table = inquisitor_example()
    table.do(MARIO, Guess(character=JUDGE))
    assert table.of_type(CardRevealed)[-1].character is PEASANT
    assert table.of_type(Guessed)[0].right is False
    taken = table.of_type(CoinsTaken)[0]
    assert (taken.actor, taken.victim, taken.amount) == (CHRISTIAN, MARIO, 4)
    assert table.coins()[:4] == [6, 10, 2, 5]
    assert table.state.courthouse == 1
    assert table.state.turn == MARIO and table.state.must_swap, "Mario's card was revealed"


def test_inquisitor_example_note_a_right_guess_costs_nothing() -> None:
    """Had Mario answered "I am a Peasant", he would have paid nothing."""
    table = inquisitor_example()
    table.do(MARIO, Guess(character=PEASANT))
    assert table.of_type(Guessed)[0].right is True
    assert table.of_type(CoinsTaken) == []
    assert table.coins()[:4] == [6, 6, 6, 5]


def test_judge_example_fines_of_false_judges_are_paid_after_the_judge() -> None:
    """Katiuscia claims the Judge; Mario and Massimo contest. Katiuscia is the Witch,
    Mario the Judge, Massimo the Spy. Mario takes the courthouse, then Katiuscia and
    Massimo pay their fines (which stay there). Play goes on with Christian."""
    cards = [WITCH, KING, JUDGE, QUEEN, SPY, BISHOP]
    table = Table(rigged(cards, turn=KATIUSCIA, courthouse=3))
    table.do(KATIUSCIA, Announce(slot=0, character=JUDGE))
    table.contest_round([MARIO, MASSIMO])
    assert [e.character for e in table.of_type(CardRevealed)] == [WITCH, JUDGE, SPY]
    assert table.of_type(CourthouseTaken)[0].amount == 3
    assert table.coins() == [5, 6, 9, 6, 5, 6]
    assert table.state.courthouse == 2, "the new fines wait for the next Judge"
    kinds = [type(e) for e in table.events]
    assert kinds.index(CourthouseTaken) < kinds.index(FinePaid)
    assert table.state.turn == CHRISTIAN


def test_peasant_example_uncontested_takes_one() -> None:
    """Katiuscia: "I am a Peasant." Nobody contests: she takes 1 coin, unrevealed."""
    cards = [KING, QUEEN, PEASANT, PEASANT, JUDGE, SPY, BISHOP, WITCH]
    table = Table(rigged(cards, turn=KATIUSCIA))
    table.do(KATIUSCIA, Announce(slot=0, character=PEASANT))
    table.pass_all()
    assert table.coins()[0] == 7
    assert table.of_type(CardRevealed) == []


def test_peasant_example_two_real_peasants_take_two_each() -> None:
    """Katiuscia: "I am a Peasant." Marco: "Me too." Both are: 2 coins each."""
    cards = [PEASANT, QUEEN, KING, PEASANT, JUDGE, SPY, BISHOP, WITCH]
    table = Table(rigged(cards, turn=KATIUSCIA))
    table.do(KATIUSCIA, Announce(slot=0, character=PEASANT))
    table.contest_round([MARCO])
    assert table.coins()[:4] == [8, 6, 6, 8]
    assert [e.amount for e in table.of_type(CoinsFromBank)] == [2, 2]
    assert table.state.courthouse == 0


def test_peasant_example_two_peasants_and_a_spy() -> None:
    """Katiuscia, Mario and Marco claim the Peasant; Katiuscia and Mario are, Marco is
    the Spy: the Peasants take 2 each, Marco pays a fine."""
    cards = [PEASANT, QUEEN, PEASANT, SPY, JUDGE, KING, BISHOP, WITCH]
    table = Table(rigged(cards, turn=KATIUSCIA))
    table.do(KATIUSCIA, Announce(slot=0, character=PEASANT))
    table.contest_round([MARIO, MARCO])
    assert table.coins()[:4] == [8, 6, 8, 5]
    assert table.state.courthouse == 1


def cheat_example(mario_coins: int) -> Table:
    """Katiuscia (11 coins) claims the Cheat; Mario contests. She is the Queen, he
    is the Cheat."""
    cards = [QUEEN, KING, CHEAT, JUDGE, BISHOP, WITCH]
    table = Table(rigged(cards, turn=KATIUSCIA, coins=[11, 6, mario_coins, 6, 6, 6]))
    table.do(KATIUSCIA, Announce(slot=0, character=CHEAT))
    table.contest_round([MARIO])
    return table


def test_cheat_example_mario_with_ten_coins_wins() -> None:
    table = cheat_example(10)
    won = table.of_type(GameWon)
    assert [(e.winners, e.reason) for e in won] == [((MARIO,), WinReason.CHEAT)]
    result = GAME.result(table.state)
    assert result is not None and result.winners == (MARIO,)
    assert table.prompted() == []


def test_cheat_example_mario_below_ten_katiuscia_pays_and_play_goes_on() -> None:
    table = cheat_example(9)
    assert GAME.result(table.state) is None
    assert table.coins()[:3] == [10, 6, 9]
    assert table.state.courthouse == 1
    assert table.state.turn == CHRISTIAN


def test_widow_example_luca_reaches_ten_katiuscia_goes_bankrupt() -> None:
    """Katiuscia (1 coin) claims the Widow; Luca contests. She is the Queen, Luca the
    Widow: he takes what he needs to reach 10; her fine leaves her bankrupt, so the
    game ends and the richest player wins."""
    cards = [QUEEN, KING, JUDGE, BISHOP, WITCH, WIDOW]
    table = Table(rigged(cards, turn=KATIUSCIA, coins=[1, 6, 7, 6, 6, 4]))
    table.do(KATIUSCIA, Announce(slot=0, character=WIDOW))
    table.contest_round([LUCA])
    assert table.of_type(CoinsFromBank)[0].amount == 6
    assert table.coins() == [0, 6, 7, 6, 6, 10]
    won = table.of_type(GameWon)
    assert [(e.winners, e.reason) for e in won] == [((LUCA,), WinReason.BANKRUPTCY)]


def test_witch_note_false_witches_pay_after_the_swap() -> None:
    """The Witch's note: false Witch claimants pay their fine after the fortunes were
    swapped (here Katiuscia, the false Witch, pays from the fortune she is given)."""
    cards = [QUEEN, WITCH, JUDGE, BISHOP]
    table = Table(rigged(cards, turn=KATIUSCIA, coins=[3, 8, 6, 6]))
    table.do(KATIUSCIA, Announce(slot=0, character=WITCH))
    table.contest_round([CHRISTIAN])
    table.do(CHRISTIAN, ChoosePlayer(target=KATIUSCIA))
    assert table.coins() == [7, 3, 6, 6], "she got his 8, then paid 1"
    assert table.state.courthouse == 1
