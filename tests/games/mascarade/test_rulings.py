"""The rulings of rules/mascarade.md on points the rulebook leaves open, those not
pinned elsewhere: the 2- and 3-player games keep their fixed sets, the Thief with
one opponent left takes one coin, and the swap forced after a reveal may use a
centre card.

Pinned elsewhere: several players reaching 13 coins together all win
(test_scenarios: test_two_peasants_reaching_thirteen_together_share_the_win); the
2-player Fool (test_small_games: test_two_players_fool_swaps_the_opponents_left_and_right_cards).
"""

import pytest

from games.base import InvalidOptions
from games.mascarade import GAME, MascaradeOptions
from games.mascarade.models import Announce, CoinsTaken, Decide, Look, Swap

from .helpers import BISHOP, CHEAT, FOOL, JUDGE, KING, QUEEN, THIEF, WITCH, Table, rigged

SMALL_SET = (BISHOP, FOOL, JUDGE, QUEEN, KING, WITCH)


@pytest.mark.parametrize("players", [2, 3])
def test_two_and_three_players_play_their_fixed_set_only(players: int) -> None:
    """RULING: custom sets are for 4-13 players; 2 and 3 players use the fixed set
    of their rules (a custom one is refused, even the fixed set reordered)."""
    state = GAME.setup(players, MascaradeOptions(), seed=1)
    assert sorted(state.characters) == sorted(SMALL_SET)
    for cards in ((JUDGE, KING, QUEEN, THIEF, WITCH, CHEAT), SMALL_SET):
        with pytest.raises(InvalidOptions, match="2- and 3-player games"):
            GAME.setup(players, MascaradeOptions(characters=cards), seed=1)


def test_the_thief_with_one_opponent_left_takes_one_coin_once() -> None:
    """RULING: with two players left, the left and the right neighbour are the same
    player, who pays once."""
    table = Table(rigged([THIEF, JUDGE, KING, QUEEN], centre=[BISHOP, CHEAT], turn=0))
    table.remove(2)
    table.remove(3)
    table.do(0, Announce(slot=0, character=THIEF))
    table.pass_all()
    taken = [(e.actor, e.victim, e.amount) for e in table.of_type(CoinsTaken)]
    assert taken == [(0, 1, 1)]
    assert table.coins()[:2] == [7, 5]


def test_the_swap_forced_after_a_reveal_may_use_a_centre_card() -> None:
    """RULING: a player revealed in the turn just before its own must swap, and may
    do it with a centre card, as an ordinary swap may."""
    table = Table(rigged([KING, JUDGE, QUEEN, THIEF], centre=[BISHOP, CHEAT], turn=0))
    table.do(0, Announce(slot=0, character=KING))
    table.contest_round([1])
    assert table.state.turn == 1 and table.state.must_swap
    choices = table.choices(1)
    centre = [Swap(slot=0, target=None, target_slot=c) for c in (0, 1)]
    assert all(swap in choices for swap in centre)
    assert Look(slot=0) not in choices and not any(isinstance(c, Announce) for c in choices)
    table.do(1, centre[1])
    table.do(1, Decide(swap=True))
    assert table.card(1) is CHEAT and table.card(None, 1) is JUDGE
