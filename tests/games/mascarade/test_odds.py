"""Mascarade's fitted estimate of who wins an unfinished game (games/mascarade/odds.py),
HARD's score of a simulation cut off by its horizon."""

from __future__ import annotations

import pytest

from games.mascarade.models import Knowledge
from games.mascarade.odds import (
    COEFFICIENTS,
    FEATURES,
    coefficients_for,
    features,
    power_gain,
    win_chances,
)
from games.mascarade.sampler import SAMPLER
from tests.games.mascarade.helpers import (
    BISHOP,
    CHEAT,
    FOOL,
    JUDGE,
    KING,
    QUEEN,
    WITCH,
    rigged,
)

SIX = [JUDGE, BISHOP, KING, QUEEN, WITCH, CHEAT]


def test_the_features_read_the_seats_card_coins_and_turn() -> None:
    state = rigged(SIX, coins=[6, 6, 6, 6, 3, 10], turn=1, courthouse=4)
    state.knowledge[5] = Knowledge(seen=list(SIX), stale=[False] * 6)
    row = dict(zip(FEATURES, features(state, 5), strict=True))
    assert row == {
        "coins": 10.0,
        "gain": 0.0,
        "cheat_ready": 1.0,
        "win_now": 1.0,
        "knows": 1.0,
        "knows_gain": 0.0,
        "wait": 4 / 6,
        "richest": 1.0,
    }
    assert power_gain(state, 0, JUDGE) == 4.0, "the courthouse"
    assert power_gain(state, 4, WITCH) == 7.0, "the richest other's fortune less her own"
    assert features(state, 1)[FEATURES.index("wait")] == 0.0, "the player to move"


def test_the_chances_share_the_win_and_favour_who_wins_now() -> None:
    state = rigged(SIX, coins=[6, 6, 11, 6, 6, 6])
    chances = win_chances(state, COEFFICIENTS[6])
    assert sum(chances) == pytest.approx(1.0)
    assert max(range(6), key=chances.__getitem__) == 2, "the King at 11 coins reaches 13"
    state.in_play[2] = False
    assert win_chances(state, COEFFICIENTS[6])[2] < 1e-9, "a removed player has no chance"


def test_the_nearest_fitted_player_count_is_used_and_small_hands_keep_the_coins() -> None:
    assert coefficients_for(3) is None
    assert coefficients_for(5) == COEFFICIENTS[4], "a tie goes to the smaller table"
    assert coefficients_for(13) == COEFFICIENTS[10]
    three = rigged([[JUDGE, KING], [QUEEN, WITCH], [BISHOP, FOOL]], coins=[8, 6, 6])
    shares = [SAMPLER.estimate(three, seat) for seat in range(3)]
    assert shares[0] > shares[1] == pytest.approx(shares[2]), "the coins' softmax"
    five = rigged([JUDGE, BISHOP, KING, QUEEN, WITCH], centre=[CHEAT], coins=[6, 6, 11, 6, 6])
    assert SAMPLER.estimate(five, 2) == win_chances(five, COEFFICIENTS[4])[2]
