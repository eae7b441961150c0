"""Setup by player count, custom sets, what each view shows, timeouts and removals."""

import random
from collections import Counter

import pytest

from games.base import InvalidOptions, NotPrompted
from games.mascarade import GAME, Character, MascaradeOptions
from games.mascarade.cards import OFFICIAL_SETS, check_custom_set
from games.mascarade.models import (
    Announce,
    AnnouncementCancelled,
    ChooseCard,
    ChoosePlayer,
    Contest,
    Decide,
    GameWon,
    Guessed,
    Look,
    Looked,
    Memory,
    Pass,
    PlayerRemoved,
    Stage,
    Swap,
    SwapPrepared,
    WinReason,
)

from .conformance import random_custom_set
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

# --- setup -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 14))
def test_official_set_for_each_player_count(players: int) -> None:
    state = GAME.setup(players, MascaradeOptions(), seed=players)
    assert Counter(state.cards) == Counter(OFFICIAL_SETS[players])
    assert Counter(state.characters) == Counter(state.cards)
    centre = {4: 2, 5: 1}.get(players, 0)
    assert state.centre_size == centre
    assert len(state.cards) == players * state.hand_size + centre
    assert state.coins == [6] * players and state.courthouse == 0
    assert JUDGE in state.cards
    assert state.turn_number == 1 and state.must_swap


def test_official_sets_match_the_2013_rulebook() -> None:
    assert OFFICIAL_SETS[4] == (JUDGE, BISHOP, KING, QUEEN, THIEF, CHEAT)
    assert OFFICIAL_SETS[8] == (JUDGE, BISHOP, KING, QUEEN, FOOL, WITCH, PEASANT, PEASANT)
    assert Counter(OFFICIAL_SETS[13]) == Counter({**dict.fromkeys(Character, 1), PEASANT: 2})
    for players in range(9, 14):
        assert Counter(OFFICIAL_SETS[players - 1]) < Counter(OFFICIAL_SETS[players])


def test_first_player_option_and_random_start() -> None:
    assert GAME.setup(5, MascaradeOptions(first_player=3), seed=1).turn == 3
    starts = {GAME.setup(5, MascaradeOptions(), seed=s).turn for s in range(40)}
    assert len(starts) == 5, "RULING: a new table starts with a random player"
    with pytest.raises(InvalidOptions):
        GAME.setup(5, MascaradeOptions(first_player=5), seed=1)


def test_custom_set_with_centre_cards() -> None:
    cards = (JUDGE, KING, QUEEN, FOOL, SPY, WITCH, CHEAT, THIEF)
    state = GAME.setup(6, MascaradeOptions(characters=cards), seed=3)
    assert Counter(state.cards) == Counter(cards)
    assert state.centre_size == 2


@pytest.mark.parametrize(
    ("players", "cards", "message"),
    [
        (6, (BISHOP, KING, QUEEN, FOOL, WITCH, CHEAT), "Judge must always"),
        (6, (JUDGE, KING, KING, QUEEN, WITCH, CHEAT), "only once: king"),
        (9, (JUDGE, KING, QUEEN, PEASANT, WITCH, CHEAT, BISHOP, SPY, FOOL), "pair"),
        (6, (JUDGE, KING, QUEEN, PEASANT, PEASANT, CHEAT), "at least 8 players"),
        (7, (JUDGE, KING, QUEEN, INQUISITOR, WITCH, CHEAT, BISHOP), "Inquisitor need"),
        (6, (JUDGE, KING, BISHOP, THIEF, WITCH, CHEAT), "third of the cards"),
        (5, (JUDGE, KING, QUEEN, BISHOP, WITCH), "uses 6 cards"),
        (6, (JUDGE, KING, QUEEN, BISHOP, WITCH), "6 to 8 cards"),
        (8, OFFICIAL_SETS[11], "8 to 10 cards"),
        (3, (BISHOP, FOOL, JUDGE, QUEEN, KING, WIDOW), "2- and 3-player games"),
    ],
)
def test_custom_sets_are_validated_with_clear_errors(
    players: int, cards: tuple[Character, ...], message: str
) -> None:
    with pytest.raises(InvalidOptions, match=message):
        GAME.setup(players, MascaradeOptions(characters=cards), seed=1)


def test_random_custom_sets_are_valid_and_varied() -> None:
    """The conformance suite's custom-set generator really produces custom sets."""
    rng = random.Random(1)
    for players in range(4, 14):
        sets = {random_custom_set(players, rng) for _ in range(20)}
        assert None not in sets and len(sets) > 1
        for cards in sets:
            assert cards is not None
            check_custom_set(players, cards)


# --- views and knowledge ------------------------------------------------------------


def test_the_opening_deal_is_seen_by_everyone_then_memories_go_stale() -> None:
    state = GAME.setup(5, MascaradeOptions(first_player=0), seed=9)
    table = Table(state)
    for viewer in (None, 0, 3):
        view = GAME.view(state, viewer)
        shown = [m for p in view.players for m in p.cards] + view.centre
        assert shown == [Memory(character=c) for c in state.cards], "dealt face up"
    table.do(0, Swap(slot=0, target=None, target_slot=0))
    table.do(0, Decide(swap=True))
    assert table.memory(0, 0) == Memory(character=state.cards[5]), "the swapper knows"
    assert table.memory(0, None, 0) == Memory(character=state.cards[0])
    for viewer in (None, 1, 4):
        assert table.memory(viewer, 0) == Memory(character=state.cards[0], stale=True)
        assert table.memory(viewer, None, 0) == Memory(character=state.cards[5], stale=True)
        assert table.memory(viewer, 2) == Memory(character=state.cards[2]), "untouched"


def test_a_pretended_swap_also_leaves_the_others_unsure() -> None:
    state = GAME.setup(6, MascaradeOptions(first_player=0), seed=9)
    table = Table(state)
    table.do(0, Swap(slot=0, target=1, target_slot=0))
    table.do(0, Decide(swap=False))
    assert table.memory(0, 1) == Memory(character=state.cards[1])
    assert table.memory(2, 1) == Memory(character=state.cards[1], stale=True)
    assert table.memory(1, 1) == Memory(character=state.cards[1], stale=True)


def test_a_view_shows_only_the_viewers_own_memories() -> None:
    table = Table(rigged(SIX, turn=0))
    table.do(0, Look(slot=0))
    assert table.memory(0, 0) == Memory(character=JUDGE)
    for viewer in (None, 1, 2, 3, 4, 5):
        assert table.memory(viewer, 0) is None
    view = GAME.view(table.state, 2)
    assert view.prompt is None and view.awaiting == [1]
    own = GAME.view(table.state, 1)
    assert own.prompt is not None and own.prompt.player == 1


def test_a_spectator_sees_reveals_but_no_private_look() -> None:
    table = Table(rigged(SIX, turn=0))
    table.do(0, Announce(slot=0, character=KING))
    table.contest_round([2])
    view = GAME.view(table.state, None)
    assert view.prompt is None and view.viewer is None
    assert view.players[0].cards[0] == Memory(character=JUDGE)
    assert view.players[2].cards[0] == Memory(character=KING)
    assert view.players[1].cards[0] is None


def test_twin_peasants_stay_known_through_a_swap_between_them() -> None:
    cards = [PEASANT, QUEEN, KING, PEASANT, JUDGE, SPY, BISHOP, WITCH]
    table = Table(rigged(cards, turn=0))
    table.do(0, Announce(slot=0, character=PEASANT))
    table.contest_round([3])
    table.do(1, Swap(slot=0, target=2, target_slot=0))
    table.do(1, Decide(swap=False))
    table.do(2, Look(slot=0))
    table.do(3, Swap(slot=0, target=0, target_slot=0))
    table.do(3, Decide(swap=True))
    assert table.memory(5, 0) == Memory(character=PEASANT), "either way a Peasant is there"
    assert table.memory(5, 3) == Memory(character=PEASANT)


# --- timeouts --------------------------------------------------------------------------


def test_timeout_defaults() -> None:
    """Turn: look; contest: silent; swap decision: no swap; Witch: keeps her fortune."""
    table = Table(rigged(SIX, turn=0))
    table.timeout()
    assert [e.seat for e in table.of_type(Looked)] == [0] and table.state.turn == 1
    assert table.memory(0, 0) == Memory(character=JUDGE), "the turn default is a look"
    table.do(1, Swap(slot=0, target=2, target_slot=0))
    table.timeout()
    assert table.card(1) is BISHOP, "no swap"
    table.do(2, Announce(slot=0, character=WITCH))
    for _ in range(5):
        table.timeout()
    assert table.stage() is Stage.WITCH
    table.timeout()
    assert table.coins() == [6] * 6 and table.state.turn == 3


def test_timeout_defaults_for_powers() -> None:
    cards = [SPY, FOOL, INQUISITOR, PEASANT, PEASANT, JUDGE, KING, QUEEN]
    table = Table(rigged(cards, turn=0))
    table.do(0, Announce(slot=0, character=SPY))
    table.pass_all()
    table.timeout()
    assert table.memory(0, 1) == Memory(character=FOOL), "Spy: the left neighbour's card"
    table.timeout()
    assert table.card(0) is SPY
    table.do(1, Announce(slot=0, character=FOOL))
    table.pass_all()
    table.timeout()
    table.timeout()
    swap = table.state.swap
    assert swap is not None and (swap.first, swap.second) == (2, 3), "Fool: the next two"
    prompt = GAME.prompt_for(table.state, 1)
    assert prompt is not None and prompt.default == Decide(swap=False)
    table.timeout()
    table.do(2, Announce(slot=0, character=INQUISITOR))
    table.pass_all()
    table.timeout()
    assert table.stage() is Stage.GUESS and table.prompted() == [3]
    table.timeout()
    assert table.of_type(Guessed)[0].character is FOOL, "first of the set alphabetically"
    assert table.coins()[2:4] == [10, 2], "the Peasant guessed wrong"


# --- removal of a player ---------------------------------------------------------------


def test_removing_the_turn_player_passes_the_turn_and_returns_its_coins() -> None:
    table = Table(rigged(SIX, turn=2))
    window = GAME.prompts(table.state)[0].window
    events = table.remove(2)
    removed = next(e for e in events if isinstance(e, PlayerRemoved))
    assert removed.coins_returned == 6
    assert table.state.turn == 3 and table.prompted() == [3]
    assert GAME.prompts(table.state)[0].window != window
    assert table.state.bank_out == -6
    assert Swap(slot=0, target=2, target_slot=0) not in table.choices(3), "its card is gone"


def test_removing_a_bystander_keeps_the_window() -> None:
    table = Table(rigged(SIX, turn=0))
    table.do(0, Announce(slot=0, character=KING))
    window = GAME.prompts(table.state)[0].window
    table.remove(4)
    assert GAME.prompts(table.state)[0].window == window


def test_removing_the_announcer_cancels_the_announcement() -> None:
    table = Table(rigged(SIX, turn=0))
    table.do(0, Announce(slot=0, character=KING))
    table.do(1, Contest(slot=0))
    table.remove(0)
    assert table.of_type(AnnouncementCancelled)[0].claimant == 0
    assert table.state.turn == 1 and table.stage() is Stage.TURN
    assert table.coins()[1:] == [6] * 5


def test_removing_the_last_asked_player_resolves_the_announcement() -> None:
    table = Table(rigged(SIX, turn=0))
    table.do(0, Announce(slot=0, character=KING))
    for seat in (1, 2, 3, 4):
        table.do(seat, Pass())
    table.remove(5)
    assert table.coins()[0] == 9 and table.state.turn == 1


def test_removing_a_contester_before_the_reveal_withdraws_its_claim() -> None:
    table = Table(rigged(SIX, turn=0))
    table.do(0, Announce(slot=0, character=KING))
    table.do(1, Contest(slot=0))
    table.remove(1)
    table.pass_all()
    assert table.coins()[0] == 9, "nobody contests any more: the claim stands"


def test_removing_the_power_user_skips_the_power_but_not_the_fines() -> None:
    table = Table(rigged(SIX, turn=0))
    table.do(0, Announce(slot=0, character=WITCH))
    table.contest_round([4])
    assert table.prompted() == [4]
    table.remove(4)
    assert table.coins()[0] == 5 and table.state.courthouse == 1
    assert table.state.turn == 1


def test_removing_a_swap_target_lets_the_turn_player_choose_again() -> None:
    table = Table(rigged(SIX, turn=0))
    table.do(0, Swap(slot=0, target=3, target_slot=0))
    table.remove(3)
    assert table.stage() is Stage.TURN and table.prompted() == [0]
    assert table.state.swap is None


def test_removing_the_questioned_player() -> None:
    cards = [KING, INQUISITOR, PEASANT, QUEEN, JUDGE, SPY, PEASANT, WITCH]
    table = Table(rigged(cards, turn=0))
    table.do(0, Announce(slot=0, character=INQUISITOR))
    table.pass_all()
    table.do(0, ChoosePlayer(target=3))
    table.remove(3)
    assert table.state.turn == 1 and table.of_type(Guessed) == []


def test_removing_the_fools_chosen_card_owner_makes_him_choose_again() -> None:
    cards = [FOOL, JUDGE, KING, QUEEN, THIEF, WITCH, BISHOP]
    table = Table(rigged(cards, turn=0))
    table.do(0, Announce(slot=0, character=FOOL))
    table.pass_all()
    table.do(0, ChooseCard(target=2, slot=0))
    table.remove(2)
    assert table.stage() is Stage.FOOL_FIRST
    assert ChooseCard(target=2, slot=0) not in table.choices(0)


def test_the_last_player_standing_wins() -> None:
    table = Table(rigged([[KING, QUEEN], [JUDGE, BISHOP], [FOOL, WITCH]], turn=0))
    table.remove(1)
    assert table.state.turn == 0 and GAME.result(table.state) is None
    table.do(0, Announce(slot=0, character=KING))
    assert table.prompted() == [2]
    table.remove(2)
    won = table.of_type(GameWon)[0]
    assert (won.winners, won.reason) == ((0,), WinReason.LAST_PLAYER)
    assert table.prompted() == []


def test_a_removed_player_cannot_be_removed_twice() -> None:
    table = Table(rigged(SIX, turn=0))
    table.remove(3)
    before = table.state
    with pytest.raises(NotPrompted):
        table.remove(3)
    assert table.state == before


def test_fool_with_a_single_one_card_opponent_only_takes_the_coin() -> None:
    cards = [FOOL, JUDGE, KING, QUEEN, THIEF, WITCH, BISHOP]
    table = Table(rigged(cards, turn=0))
    for seat in range(2, 7):
        table.remove(seat)
    table.do(0, Announce(slot=0, character=FOOL))
    table.do(1, Pass())
    assert table.coins()[:2] == [7, 6] and table.state.turn == 1
    assert table.stage() is Stage.TURN
    assert table.of_type(SwapPrepared) == []
