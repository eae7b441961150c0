"""bench.bloody_inn_guide: a variant's weights over NORMAL's, played as the hero."""

from __future__ import annotations

import pytest

from bench.bloody_inn_guide import parse_weights, play
from games.ai import Level
from games.bloody_inn import GAME
from games.bloody_inn.ai import NORMAL_WEIGHTS, POLICIES
from tests.games.playouts import hero_game


def test_a_variant_changes_only_the_weights_it_names() -> None:
    weights = parse_weights("wage_rounds=1.25, tempo=3")
    assert (weights.wage_rounds, weights.tempo) == (1.25, 3.0)
    assert weights.slot == NORMAL_WEIGHTS.slot and weights.payer == NORMAL_WEIGHTS.payer
    assert parse_weights("") == NORMAL_WEIGHTS


@pytest.mark.parametrize("text", ["payer=1", "wages=1"])
def test_a_name_that_is_not_a_numeric_weight_is_refused(text: str) -> None:
    with pytest.raises(SystemExit, match="unknown weight"):
        parse_weights(text)


def test_normal_s_own_weights_play_normal_s_games() -> None:
    normal = POLICIES[Level.NORMAL]
    shares = play(NORMAL_WEIGHTS, 3, 4, 7)
    assert shares == [hero_game(GAME, normal, normal, 3, index, 7) for index in range(4)]
