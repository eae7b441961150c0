"""The rulings of rules/complots.md on points the seeds leave open, and the form of
choices: a block closes the challenge of the action, a pass is final, the timeout
defaults of the examined card and of the 2-player pick are random (yet fixed for a
given moment), and an exchange's kept cards may come in any order."""

import pytest

from games.base import NotAllowed, NotPrompted
from games.complots import GAME, ActionKind, ComplotsOptions, Variant
from games.complots.models import (
    Act,
    Block,
    Challenge,
    Challenged,
    ClaimProved,
    ExchangeOffered,
    Keep,
    Pass,
    Pick,
    Show,
    Stage,
)

from .helpers import AM, CA, CO, IN, A, D, Table, rigged

STEAL_FROM_1 = Act(action=ActionKind.STEAL, target=1)


def test_a_block_closes_the_challenge_of_the_action() -> None:
    """RULING: once a block is declared, the action's claim can no longer be
    challenged by players who had not answered yet; only the block can be."""
    table = Table(rigged([[CA, D], [CO, AM], [A, D], [D, CO]]))
    table.do(0, STEAL_FROM_1)
    assert table.prompted() == [1, 2, 3], "seats 2 and 3 could challenge the Captain"
    table.do(1, Block(character=AM))
    assert table.state.stage is Stage.BLOCK_CHALLENGE
    assert table.prompted() == [0, 2, 3]
    assert table.choices(2) == (Challenge(), Pass())
    table.do(2, Challenge())
    (challenged,) = table.of_type(Challenged)
    assert (challenged.challenger, challenged.claimant, challenged.character) == (2, 1, AM)
    assert table.of_type(ClaimProved)[0].claimant == 1, "the block's claim was tested"
    table.do(2, table.prompt(2).choices[0])  # loses an influence for the failed challenge
    assert table.coins() == [2, 2, 2, 2], "the block stands: nothing stolen"


def test_a_pass_is_final_in_its_window() -> None:
    """RULING: a player who passed in a window cannot challenge or block later in
    that same window; its pass stands when the window closes."""
    table = Table(rigged([[CA, D], [CO, AM], [A, D]]))
    table.do(0, STEAL_FROM_1)
    assert table.choices(1) == (Challenge(), Block(character=CA), Block(character=AM), Pass())
    table.do(1, Pass())
    assert table.prompted() == [2]
    for late in (Challenge(), Block(character=AM), Pass()):
        with pytest.raises(NotPrompted):
            GAME.apply(table.state, 1, late)
    table.do(2, Pass())
    assert table.coins() == [4, 0, 2], "the target passed: the theft went through"


def test_the_examined_players_timeout_shows_a_random_card() -> None:
    """RULING (timeouts): the examined player's default is a random face-down card,
    fixed for the moment (asking again gives the same), and the timeout shows it."""
    shown = set()
    for seed in range(24):
        table = Table(rigged([[IN, D], [CO, CA], [A, D]], variant=Variant.INQUISITOR, seed=seed))
        table.do(0, Act(action=ActionKind.EXAMINE, target=1))
        table.do(1, Pass())
        table.do(2, Pass())
        default = table.prompt(1).default
        assert isinstance(default, Show) and table.prompt(1).default == default
        table.timeout()
        assert table.state.pending is not None and table.state.pending.shown_slot == default.slot
        shown.add(default.slot)
    assert shown == {0, 1}, "either card, not always the same one"


def test_the_two_player_picks_timeout_takes_a_random_card_of_the_packet() -> None:
    """RULING (timeouts): the 2-player opening pick's default is a random card of
    the packet, fixed for the moment; the timeout keeps it."""
    picked = set()
    for seed in range(30):
        table = Table(GAME.setup(2, ComplotsOptions(first_player=0), seed))
        defaults = [table.prompt(seat).default for seat in (0, 1)]
        assert all(isinstance(d, Pick) for d in defaults)
        table.timeout()
        for seat, default in enumerate(defaults):
            assert isinstance(default, Pick)
            assert table.hidden(seat)[0] is default.character
            picked.add(default.character)
    assert len(picked) >= 4, f"random picks, not always the same card: {picked}"


def test_an_exchange_keeps_the_same_cards_in_any_order() -> None:
    """The prompt offers each set of kept cards sorted; the same cards in another
    order are the same choice, with the same result."""
    results = []
    for order in ((AM, D), (D, AM)):
        table = Table(rigged([[AM, D], [CO, CO], [A, D]]))
        table.do(0, Act(action=ActionKind.EXCHANGE))
        table.do(1, Pass())
        table.do(2, Pass())
        assert Keep(cards=(AM, D)) in table.choices(0)
        assert Keep(cards=(D, AM)) not in table.choices(0)
        table.do(0, Keep(cards=order))
        results.append(table.state.model_dump())
    assert results[0] == results[1]


def test_an_exchange_refuses_cards_it_does_not_hold_in_any_order() -> None:
    table = Table(rigged([[AM, D], [CO, CO], [A, D]]))
    table.do(0, Act(action=ActionKind.EXCHANGE))
    table.do(1, Pass())
    table.do(2, Pass())
    drawn = table.of_type(ExchangeOffered)[0].drawn
    missing = next(c for c in (CA, IN, A) if c not in (AM, D, *drawn))
    for cards in ((missing, AM), (AM, missing), (AM,), (AM, D, D)):
        with pytest.raises(NotAllowed):
            GAME.apply(table.state, 0, Keep(cards=cards))
