"""The 3-player game (two cards each) and the 2-player game (three cards each, the
middle one protected); each player has its own purse of 6 for all its cards."""

import pytest

from games.base import NotAllowed
from games.mascarade import GAME, MascaradeOptions
from games.mascarade.models import (
    Announce,
    CardRevealed,
    ChooseCard,
    Contest,
    Decide,
    Look,
    Memory,
    Pass,
    Stage,
    Swap,
    SwapPrepared,
)

from .helpers import BISHOP, FOOL, JUDGE, KING, QUEEN, WITCH, Table, rigged


def two_players() -> Table:
    """Seat 0: King, Queen, Judge (protected); seat 1: Bishop, Fool, Witch (protected)."""
    return Table(rigged([[KING, QUEEN, JUDGE], [BISHOP, FOOL, WITCH]], turn=0))


def three_players() -> Table:
    return Table(rigged([[KING, QUEEN], [JUDGE, BISHOP], [FOOL, WITCH]], turn=0))


@pytest.mark.parametrize(("players", "hand"), [(2, 3), (3, 2)])
def test_small_game_setup(players: int, hand: int) -> None:
    state = GAME.setup(players, MascaradeOptions(first_player=0), seed=4)
    assert state.hand_size == hand and state.centre_size == 0
    assert sorted(state.cards) == sorted([BISHOP, FOOL, JUDGE, QUEEN, KING, WITCH])
    assert state.coins == [6] * players, "one purse of 6 per player, for all its cards"
    view = GAME.view(state, 1)
    assert [len(p.cards) for p in view.players] == [hand] * players
    assert all(memory is not None for p in view.players for memory in p.cards)
    assert view.protected_slot == (2 if players == 2 else None)


def test_two_players_turn_choices_respect_the_protected_card() -> None:
    table = two_players()
    choices = table.choices(0)
    swaps = {c for c in choices if isinstance(c, Swap)}
    assert swaps == {
        *(Swap(slot=a, target=1, target_slot=b) for a in range(3) for b in range(2)),
        Swap(slot=0, target=0, target_slot=1),
        Swap(slot=0, target=0, target_slot=2),
        Swap(slot=1, target=0, target_slot=2),
    }, "never the opponent's protected card; one's own protected card is fine"
    assert {c for c in choices if isinstance(c, Look)} == {Look(slot=s) for s in range(3)}
    announce_slots = {c.slot for c in choices if isinstance(c, Announce)}
    assert announce_slots == {0, 1}, "no announcing with one's protected card on one's turn"
    with pytest.raises(NotAllowed):
        GAME.apply(table.state, 0, Announce(slot=2, character=JUDGE))


def test_two_players_contest_with_the_protected_card() -> None:
    table = two_players()
    table.do(0, Announce(slot=0, character=WITCH))
    assert table.choices(1) == (Contest(slot=0), Contest(slot=1), Contest(slot=2), Pass())
    table.do(1, Contest(slot=2))
    revealed = [(e.seat, e.slot, e.character) for e in table.of_type(CardRevealed)]
    assert revealed == [(0, 0, KING), (1, 2, WITCH)]
    assert table.stage() is Stage.WITCH and table.prompted() == [1]


def test_two_players_swap_own_card_with_own_protected_card() -> None:
    table = two_players()
    table.do(0, Swap(slot=1, target=0, target_slot=2))
    table.do(0, Decide(swap=True))
    assert table.card(0, 1) is JUDGE and table.card(0, 2) is QUEEN


def test_two_players_fool_swaps_the_opponents_left_and_right_cards() -> None:
    """RULING: with a single opponent the Fool swaps two of its cards, never the
    protected one; the second card is then the only one left, chosen automatically."""
    table = Table(rigged([[FOOL, QUEEN, JUDGE], [BISHOP, KING, WITCH]], turn=0))
    table.do(0, Announce(slot=0, character=FOOL))
    table.do(1, Pass())
    assert table.choices(0) == (ChooseCard(target=1, slot=0), ChooseCard(target=1, slot=1))
    table.do(0, ChooseCard(target=1, slot=1))
    assert table.stage() is Stage.DECIDE
    prepared = table.of_type(SwapPrepared)[0]
    assert (prepared.seat, prepared.slot, prepared.target, prepared.target_slot) == (1, 1, 1, 0)
    table.do(0, Decide(swap=True))
    assert table.card(1, 0) is KING and table.card(1, 1) is BISHOP
    assert table.coins() == [7, 6]


def test_two_players_bishop_takes_from_the_opponent_without_asking() -> None:
    table = Table(rigged([[BISHOP, QUEEN, JUDGE], [FOOL, KING, WITCH]], turn=0))
    table.do(0, Announce(slot=0, character=BISHOP))
    table.do(1, Pass())
    assert table.coins() == [8, 4]
    assert table.state.turn == 1


def test_three_players_turn_choices() -> None:
    table = three_players()
    choices = table.choices(0)
    swaps = [c for c in choices if isinstance(c, Swap)]
    assert len(swaps) == 2 * 4 + 1
    assert Swap(slot=0, target=0, target_slot=1) in swaps, "even with one's other card"
    assert len([c for c in choices if isinstance(c, Announce)]) == 2 * 6
    assert len(choices) <= 25, "fits one Discord select"


def test_three_players_point_at_a_card_to_announce_and_to_contest() -> None:
    table = three_players()
    table.do(0, Announce(slot=1, character=JUDGE))
    assert table.choices(1) == (Contest(slot=0), Contest(slot=1), Pass())
    table.do(1, Contest(slot=0))
    table.do(2, Pass())
    revealed = [(e.seat, e.slot, e.character) for e in table.of_type(CardRevealed)]
    assert revealed == [(0, 1, QUEEN), (1, 0, JUDGE)]
    assert table.coins() == [5, 6, 6]
    assert table.state.courthouse == 1
    assert table.memory(2, 0, 1) == Memory(character=QUEEN)
    assert table.memory(2, 0, 0) is None, "the other card stayed hidden"
    assert table.state.turn == 1 and table.state.must_swap, "one of its cards was revealed"


def test_three_players_fool_takes_cards_of_two_different_opponents() -> None:
    table = Table(rigged([[FOOL, QUEEN], [JUDGE, BISHOP], [KING, WITCH]], turn=0))
    table.do(0, Announce(slot=0, character=FOOL))
    table.pass_all()
    assert len(table.choices(0)) == 4
    table.do(0, ChooseCard(target=1, slot=1))
    assert table.choices(0) == (ChooseCard(target=2, slot=0), ChooseCard(target=2, slot=1))
    table.do(0, ChooseCard(target=2, slot=0))
    table.do(0, Decide(swap=True))
    assert table.card(1, 1) is KING and table.card(2, 0) is BISHOP


def test_three_players_look_at_one_of_ones_cards() -> None:
    table = three_players()
    table.do(0, Look(slot=1))
    assert table.memory(0, 0, 1) == Memory(character=QUEEN)
    assert table.memory(0, 0, 0) is None
