"""Mascarade's learned value (games/mascarade/value.py): the inputs it reads, the net's
arithmetic, and where HARD's estimate uses it."""

from __future__ import annotations

import math

import pytest

from games.mascarade.models import Announcement, Knowledge, Stage
from games.mascarade.odds import COEFFICIENTS, win_chances
from games.mascarade.sampler import SAMPLER
from games.mascarade.value import DENSE, Layout, Net, features, layout_for
from games.mascarade.value_weights import NETS
from tests.games.mascarade.helpers import (
    BISHOP,
    CHEAT,
    FOOL,
    JUDGE,
    KING,
    PEASANT,
    QUEEN,
    SPY,
    WITCH,
    rigged,
)

SIX = [JUDGE, BISHOP, KING, QUEEN, WITCH, CHEAT]
TEN = [JUDGE, BISHOP, KING, QUEEN, FOOL, WITCH, PEASANT, PEASANT, CHEAT, SPY]


def named(layout: Layout, inputs: list[float]) -> dict[str, float]:
    """The inputs by name (the one-hot groups by their member)."""
    names = [f"card:{c.value}" for c in layout.characters]
    names += list(DENSE)
    names += [f"wait:{w}" for w in range(layout.players)]
    names += [f"stage:{s.value}" for s in layout.stages]
    names += [f"announced:{c.value}" for c in layout.characters]
    names += ["announcer", "holds_announced", "must_swap"]
    assert len(names) == layout.size == len(inputs)
    return dict(zip(names, inputs, strict=True))


def test_a_players_inputs_read_its_card_coins_knowledge_turn_and_the_announcement() -> None:
    state = rigged(SIX, coins=[6, 6, 6, 6, 3, 10], turn=1, courthouse=4)
    state.knowledge[5] = Knowledge(seen=list(SIX), stale=[False] * 6)
    state.knowledge[0] = Knowledge(seen=list(SIX), stale=[False] * 5 + [True])
    state.knowledge[2] = Knowledge(seen=list(SIX), stale=[False] * 6)
    state.stage = Stage.CONTEST
    state.announcement = Announcement(claimant=1, character=CHEAT, slot=0, to_ask=[2, 3])
    layout = layout_for(state.characters, 6)
    row = named(layout, features(state, 5, layout))
    on = {name for name, value in row.items() if value == 1.0}
    assert on == {
        "card:cheat",
        "cheat_ready",
        "wins_now",
        "knows_own",
        "wait:4",
        "stage:contest",
        "announced:cheat",
        "holds_announced",
    }
    assert row["coins"] == pytest.approx(10 / 13)
    assert row["lead"] == pytest.approx(4 / 13), "on the richest other (6)"
    assert row["richest_other"] == pytest.approx(6 / 13)
    assert row["poorest"] == pytest.approx(3 / 13)
    assert row["courthouse"] == pytest.approx(4 / 13)
    assert row["known_by"] == pytest.approx(1 / 5), "seat 2 knows it; seat 0's memory is stale"
    announcer = named(layout, features(state, 1, layout))
    assert announcer["announcer"] == 1.0 and announcer["wait:0"] == 1.0
    assert announcer["holds_announced"] == 0.0, "the Bishop announced the Cheat"


def test_a_net_is_its_numbers_and_scores_by_one_hidden_layer() -> None:
    layout = Layout(characters=(KING, QUEEN), stages=(Stage.TURN,), players=2)
    hidden = 2
    rows = layout.size + 2
    numbers = [round(0.1 * (i % 7) - 0.3, 2) for i in range(rows * hidden)]
    net = Net.from_numbers(layout, hidden, " ".join(map(str, numbers)))
    assert net.numbers() == numbers
    inputs = [0.0] * layout.size
    inputs[1], inputs[3] = 1.0, 0.5
    expected = sum(
        net.output_weights[h]
        * math.tanh(
            net.hidden_bias[h] + sum(x * net.input_weights[i][h] for i, x in enumerate(inputs))
        )
        for h in range(hidden)
    )
    assert net.score(inputs) == pytest.approx(expected)
    with pytest.raises(ValueError, match="do not make a net"):
        Net.from_numbers(layout, hidden, " ".join(map(str, numbers[:-2])))


def test_hards_estimate_uses_the_net_of_its_table_and_else_the_fitted_logit() -> None:
    six = rigged(SIX, coins=[6, 6, 11, 6, 6, 6], turn=2)
    six.knowledge[2] = Knowledge(seen=list(SIX), stale=[False] * 6)
    net = NETS[6]
    assert net.fits(six.seats, six.characters)
    chances = net.win_chances(six)
    assert sum(chances) == pytest.approx(1.0)
    assert [SAMPLER.estimate(six, seat) for seat in range(6)] == chances
    assert chances[2] > 0.5, "the King at 11 coins, sure of its card, to move: 13 coins"
    six.knowledge[2] = Knowledge(seen=list(SIX), stale=[True] * 6)
    assert net.win_chances(six)[2] < chances[2] - 0.1, "unsure of its card, less"
    six.in_play[2] = False
    assert net.win_chances(six)[2] < 1e-9, "a removed player has no chance"
    custom = rigged([JUDGE, BISHOP, KING, QUEEN, WITCH, FOOL], coins=[6, 6, 11, 6, 6, 6])
    assert not net.fits(custom.seats, custom.characters), "a set it was not trained on"
    assert SAMPLER.estimate(custom, 2) == win_chances(custom, COEFFICIENTS[6])[2]


def test_ten_players_have_their_own_net() -> None:
    """The official 10-player set: the Cheat at 11 coins, to move, sure of its card."""
    ten = rigged(TEN, coins=[6] * 8 + [11, 6], turn=8)
    net = NETS[10]
    assert net.fits(ten.seats, ten.characters) and not NETS[6].fits(ten.seats, ten.characters)
    unsure = net.win_chances(ten)
    ten.knowledge[8] = Knowledge(seen=list(TEN), stale=[False] * 10)
    sure = net.win_chances(ten)
    assert [SAMPLER.estimate(ten, seat) for seat in range(10)] == sure
    assert sure[8] > 0.5 and sure[8] > unsure[8] + 0.05, (sure[8], unsure[8])
