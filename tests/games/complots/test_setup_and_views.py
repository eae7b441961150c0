"""Setup by player count, the two-player deal, views and removal of a player."""

from collections import Counter

import pytest

from games.base import InvalidOptions, NotAllowed
from games.complots import GAME, ActionKind, ComplotsOptions, Variant
from games.complots.cards import deck_characters
from games.complots.models import (
    Act,
    Block,
    CardsDealt,
    Challenge,
    Keep,
    Pass,
    Pick,
    PlayerRemoved,
    Show,
    Stage,
)

from .helpers import AM, CA, CO, IN, A, D, Table, card_total, rigged


@pytest.mark.parametrize(("players", "copies"), [(3, 3), (4, 3), (6, 3), (7, 4), (8, 4)])
def test_deal_for_three_to_eight(players: int, copies: int) -> None:
    state = GAME.setup(players, ComplotsOptions(variant=Variant.INQUISITOR), seed=players)
    assert state.deck_size == 5 * copies
    assert card_total(state) == 5 * copies
    assert all(len(p.cards) == 2 and p.coins == 2 for p in state.players)
    everything = Counter(state.court + [c.character for p in state.players for c in p.cards])
    assert everything == dict.fromkeys(deck_characters(Variant.INQUISITOR), copies)
    assert state.stage is Stage.ACTION


def test_first_player_option_and_random_start() -> None:
    assert GAME.setup(5, ComplotsOptions(first_player=3), seed=1).turn == 3
    starts = {GAME.setup(5, ComplotsOptions(), seed=s).turn for s in range(40)}
    assert len(starts) == 5, "RULING: a new table starts with a random player"
    with pytest.raises(InvalidOptions):
        GAME.setup(5, ComplotsOptions(first_player=5), seed=1)


def test_two_player_deal() -> None:
    state = GAME.setup(2, ComplotsOptions(first_player=1), seed=3)
    table = Table(state)
    assert table.coins() == [2, 1], "the first player starts with one coin"
    assert sorted(table.prompted()) == [0, 1], "both pick at once"
    characters = deck_characters(Variant.AMBASSADOR)
    assert table.choices(0) == tuple(Pick(character=c) for c in characters)
    view = GAME.view(state, 0)
    assert view.packet == list(characters)
    assert GAME.view(state, 1).packet == list(characters)
    assert GAME.view(state, None).packet is None

    table.do(0, Pick(character=A))
    assert table.prompted() == [1]
    events = table.do(1, Pick(character=D))
    dealt = [e for e in events if isinstance(e, CardsDealt)]
    assert [(e.seat, e.audience) for e in dealt] == [(0, (0,)), (1, (1,))]
    assert table.hidden(0)[0] is A and table.hidden(1)[0] is D
    assert len(table.state.court) == 3
    assert sorted(table.state.players[0].set_aside) == sorted(set(characters) - {A})
    assert card_total(table.state) == 15
    assert table.state.stage is Stage.ACTION and table.state.turn == 1
    assert GAME.view(table.state, 1).set_aside is not None
    assert GAME.view(table.state, 0).players[1].hidden is None


def test_two_player_pick_timeout_picks_at_random() -> None:
    table = Table(GAME.setup(2, ComplotsOptions(), seed=11))
    table.timeout()
    assert table.state.stage is Stage.ACTION
    assert all(len(p.hidden()) == 2 for p in table.state.players)


def test_view_shows_own_cards_only() -> None:
    table = Table(rigged([[D, CA], [CO, AM], [A, D]], revealed=None))
    table.do(0, Act(action=ActionKind.TAX))
    mine = GAME.view(table.state, 1)
    assert mine.players[1].hidden == [CO, AM]
    assert mine.players[0].hidden is None and mine.players[0].hidden_count == 2
    assert mine.prompt is not None and Challenge() in mine.prompt.choices
    spectator = GAME.view(table.state, None)
    assert all(p.hidden is None for p in spectator.players)
    assert spectator.prompt is None
    assert spectator.awaiting == [1, 2]
    assert spectator.court_size == len(table.state.court)
    assert set(spectator.model_dump()) >= {"court_size", "players", "pending"}
    assert "court" not in spectator.model_dump()


def test_exchange_pool_is_visible_to_the_exchanger_only() -> None:
    table = Table(rigged([[AM, D], [CO, CO], [A, D]]))
    table.do(0, Act(action=ActionKind.EXCHANGE))
    table.do(1, Pass())
    table.do(2, Pass())
    pool = GAME.view(table.state, 0).exchange_pool
    assert pool is not None and len(pool) == 4
    assert GAME.view(table.state, 1).exchange_pool is None
    assert GAME.view(table.state, None).exchange_pool is None
    prompt = GAME.view(table.state, 0).prompt
    assert prompt is not None and all(isinstance(c, Keep) for c in prompt.choices)


def test_removed_player_reveals_cards_and_returns_coins() -> None:
    table = Table(rigged([[D, CA], [CO, AM], [A, D]], coins=[2, 5, 2]))
    table.state, events = GAME.forfeit(table.state, 1)
    assert isinstance(events[0], PlayerRemoved)
    assert table.revealed(1) == [CO, AM] and table.coins()[1] == 0
    table.do(0, Act(action=ActionKind.INCOME))
    assert table.state.turn == 2, "the removed player's turn is skipped"


def test_removing_the_active_player_mid_window_ends_its_turn() -> None:
    table = Table(rigged([[D, CA], [CO, AM], [A, D], [CO, D]]))
    table.do(0, Act(action=ActionKind.TAX))
    table.do(1, Pass())
    table.state, _ = GAME.forfeit(table.state, 0)
    assert table.state.stage is Stage.ACTION and table.state.turn == 1
    assert table.coins()[0] == 0


def test_removing_the_last_opponent_wins_the_game() -> None:
    table = Table(GAME.setup(2, ComplotsOptions(), seed=5))
    table.state, _ = GAME.forfeit(table.state, 0)
    result = GAME.result(table.state)
    assert result is not None and result.winners == (1,)
    assert card_total(table.state) == 15


def test_removed_player_cannot_answer() -> None:
    table = Table(rigged([[D, CA], [CO, AM], [A, D]]))
    table.do(0, Act(action=ActionKind.TAX))
    table.state, _ = GAME.forfeit(table.state, 2)
    assert table.prompted() == [1]
    with pytest.raises(NotAllowed):
        table.do(1, Pick(character=D))


def test_removing_the_examined_target_ends_the_examine() -> None:
    table = Table(rigged([[IN, D], [CO, CA], [A, D]], variant=Variant.INQUISITOR))
    table.do(0, Act(action=ActionKind.EXAMINE, target=1))
    table.do(1, Pass())
    table.do(2, Pass())
    table.do(1, Show(slot=0))
    table.state, _ = GAME.forfeit(table.state, 1)
    assert table.revealed(1) == [CO, CA], "its face-up cards stay as they were"
    assert table.state.stage is Stage.ACTION and table.state.turn == 2


def test_removing_a_blocker_withdraws_its_block() -> None:
    table = Table(rigged([[CA, D], [CO, AM], [A, D]], coins=[2, 2, 2]))
    table.do(0, Act(action=ActionKind.STEAL, target=1))
    table.do(1, Block(character=AM))
    table.state, _ = GAME.forfeit(table.state, 1)
    assert table.coins() == [2, 0, 2], "the removed blocker's coins went to the treasury"
    assert table.state.turn == 2
