"""Paying the undertaker (rules: Morning, police investigation; End of game).

RULING of rules/bloody-inn.md, from the seed ("Si può pagare il becchino con un
assegno da 10F"): at a police investigation the player chooses how to pay, each
10 F from the track or with a cheque, and is asked only when it really has a
choice; the timeout pays from the track first, then with cheques. At the end of
the game the seed allows cheques only "se necessario": the track pays first and
nobody is asked.

Seats 0-2; rooms 1-3 carry the players' keys, rooms 4-6 white keys. A Police
card in room 4 makes the Morning an investigation; seat 2 plays the Night's
last action (a Pass) unless said otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.base import NotAllowed, NotPrompted, PromptKind
from games.bloody_inn import GAME, BloodyInnOptions
from games.bloody_inn.models import (
    BloodyInnState,
    EndBonus,
    Pass,
    PayUndertaker,
    PoliceInvestigation,
    RoomIncome,
    Stage,
    TravellersLeft,
    UndertakerPaid,
    UndertakerVisit,
    WagesPaid,
)

from .helpers import C, Table, annex, rigged

CASH, ONE_CHEQUE, TWO_CHEQUES = (PayUndertaker(cheques=k) for k in range(3))


def morning(*, last: int = 2, final: bool = False, **rig: Any) -> Table:
    """A rigged table (empty hands unless given) where seat ``last`` passes the
    Night's last action, of the final round with ``final``."""
    state = rigged(queue=[last], **{"hands": [[], [], []], **rig})
    state.final_round = final
    table = Table(state)
    table.do(last, Pass())
    return table


def investigation(*, rooms: dict[int, C] | None = None, **rig: Any) -> Table:
    """The Morning with the police in room 4."""
    return morning(rooms={4: C.PEACEKEEPER, **(rooms or {})}, **rig)


def score(table: Table, seat: int) -> int:
    player = table.state.players[seat]
    return player.money + 10 * player.cheques


# --- the examples ----------------------------------------------------------------


def test_at_forty_francs_paying_cash_leaves_41_where_the_cheque_leaves_40() -> None:
    """40 F and a cheque, a corpse, an occupied room of one's own: the cheque keeps
    40 F on the track and the room's franc is lost over the cap (40 F in all);
    cash leaves 30 F, the room brings it to 31 F, and the cheque stays (41 F)."""
    ways = {}
    for choice in (CASH, ONE_CHEQUE):
        table = investigation(
            money=[40, 5, 5], cheques=[1, 0, 0], corpses={0: [C.BARON]}, rooms={1: C.MONK}
        )
        assert table.prompted() == [0] and table.stage() is Stage.UNDERTAKER
        assert table.choices(0) == (CASH, ONE_CHEQUE)
        table.do(0, choice)
        assert table.stage() is Stage.WELCOME
        ways[choice.cheques] = (table.money()[0], table.cheques()[0], score(table, 0))
    assert ways == {0: (31, 1, 41), 1: (40, 0, 40)}


def test_a_greenhouse_owner_keeps_its_cheques_for_the_end() -> None:
    """The Greenhouse pays 3 F per cheque held at the end: paying the police's
    undertaker in cash keeps that cheque and its 3 F."""
    final: dict[int, int] = {}
    for choice in (CASH, ONE_CHEQUE):
        table = investigation(
            annexes={0: [annex(C.PRINCE)]},
            money=[25, 5, 5],
            cheques=[2, 0, 0],
            corpses={0: [C.BARON]},
            final=True,
        )
        table.do(0, choice)
        assert GAME.result(table.state) is not None
        greenhouse = [e.amount for e in table.of_type(EndBonus) if e.seat == 0]
        assert greenhouse == [3 * (2 - choice.cheques)]
        final[choice.cheques] = table.state.standings[0].score
    assert final == {0: 15 + 6 + 20, 1: 25 + 3 + 10}


# --- when the player is asked ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("money", "cheques", "corpses", "asked", "paid"),
    [
        (40, 1, 1, (0, 1), None),
        (30, 3, 2, (0, 1, 2), None),
        (25, 3, 3, (1, 2, 3), None),
        (15, 0, 1, None, (10, 0, 0)),
        (5, 2, 1, None, (0, 1, 0)),
        (15, 1, 2, None, (10, 1, 0)),
        (12, 1, 3, None, (12, 1, 8)),
        (0, 0, 1, None, (0, 0, 10)),
    ],
)
def test_asked_only_when_both_ways_are_possible(
    money: int,
    cheques: int,
    corpses: int,
    asked: tuple[int, ...] | None,
    paid: tuple[int, int, int] | None,
) -> None:
    """Asked with every way to pay in full (how many cheques, from the fewest);
    else it pays the one way there is: from the track, with cheques, or all it has."""
    table = investigation(
        money=[money, 5, 5], cheques=[cheques, 0, 0], corpses={0: [C.PEASANT] * corpses}
    )
    if asked is not None:
        prompt = table.prompt(0)
        assert prompt.kind is PromptKind.CHOICE
        assert prompt.choices == tuple(PayUndertaker(cheques=k) for k in asked)
        assert table.of_type(UndertakerPaid) == []
        return
    assert table.stage() is Stage.WELCOME, "nobody was asked"
    (event,) = table.of_type(UndertakerPaid)
    assert (event.money, event.cheques, event.unpaid) == paid


def test_the_timeout_pays_from_the_track_first_then_with_cheques() -> None:
    table = investigation(money=[25, 5, 5], cheques=[3, 0, 0], corpses={0: [C.PEASANT] * 3})
    assert table.default(0) == ONE_CHEQUE, "20 F from the track, the last 10 F by cheque"
    table.timeout()
    (event,) = table.of_type(UndertakerPaid)
    assert (event.money, event.cheques, event.unpaid) == (20, 1, 0)
    assert (table.money()[0], table.cheques()[0]) == (5, 2)


def test_the_chosen_way_is_paid_and_the_corpses_go_to_the_box() -> None:
    table = investigation(money=[30, 5, 5], cheques=[3, 0, 0], corpses={0: [C.BARON, C.VISCOUNT]})
    table.do(0, TWO_CHEQUES)
    (event,) = table.of_type(UndertakerPaid)
    assert (event.seat, event.money, event.cheques, event.corpses) == (
        0,
        0,
        2,
        (C.BARON, C.VISCOUNT),
    )
    assert (table.money()[0], table.cheques()[0]) == (30, 1)
    assert table.state.box == [C.BARON, C.VISCOUNT] and table.state.players[0].corpses == []
    assert table.conserved()


def test_a_choice_not_offered_is_refused() -> None:
    table = investigation(money=[25, 5, 5], cheques=[3, 0, 0], corpses={0: [C.PEASANT] * 3})
    for wrong in (CASH, PayUndertaker(cheques=4)):
        with pytest.raises(NotAllowed):
            GAME.apply(table.state, 0, wrong)


# --- several players owe -----------------------------------------------------------------------


def test_several_players_owing_pay_in_play_order_one_asked_at_a_time() -> None:
    """First player 1: the round goes 1, 2, 0. Seat 1 is asked; seat 2, with one way
    to pay, waits for it and then pays at once; seat 0 is asked last; then the
    Morning goes on (rooms, travellers leave, wages)."""
    table = investigation(
        money=[20, 30, 15],
        cheques=[1, 1, 0],
        corpses={0: [C.BARON], 1: [C.MONK], 2: [C.NOVICE]},
        rooms={2: C.COUNT},
        first=1,
        last=0,
    )
    assert table.of_type(PoliceInvestigation) and table.of_type(UndertakerPaid) == []
    assert table.prompted() == [1]
    assert table.state.undertaker == UndertakerVisit(end=False, owing=[1, 2, 0])
    with pytest.raises(NotPrompted):
        GAME.apply(table.state, 0, CASH)
    window = table.prompt(1).window
    table.do(1, CASH)
    assert table.prompted() == [0] and table.prompt(0).window != window
    assert [e.seat for e in table.of_type(UndertakerPaid)] == [1, 2]
    assert table.of_type(RoomIncome) == [], "the Morning waits for the undertaker"
    table.do(0, ONE_CHEQUE)
    assert [e.seat for e in table.of_type(UndertakerPaid)] == [1, 2, 0]
    kinds = [type(e) for e in table.events]
    last_paid = max(i for i, k in enumerate(kinds) if k is UndertakerPaid)
    assert kinds.index(RoomIncome) > last_paid and kinds.index(TravellersLeft) > last_paid
    assert table.state.undertaker is None and table.stage() is Stage.WELCOME
    assert (table.money(), table.cheques()) == ([20, 20 + 1, 5], [0, 1, 0])


def test_a_removed_player_leaves_the_undertakers_round() -> None:
    """Removing the player asked lets the next one be asked; removing one still
    waiting drops it from the round."""

    def owing_three() -> Table:
        return investigation(
            money=[20, 30, 40],
            cheques=[1, 1, 1],
            corpses={0: [C.BARON], 1: [C.MONK], 2: [C.NOVICE]},
        )

    table = owing_three()
    assert table.prompted() == [0]
    table.forfeit(2)
    assert table.state.undertaker == UndertakerVisit(end=False, owing=[0, 1])
    assert table.prompted() == [0]
    table.forfeit(0)
    assert table.state.stage is Stage.OVER, "one player left: the game is over"
    assert table.state.undertaker is None
    table = owing_three()
    table.forfeit(0)
    assert table.prompted() == [1]
    assert table.state.undertaker == UndertakerVisit(end=False, owing=[1, 2])
    assert table.conserved()


# --- the end of the game ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("money", "cheques", "paid"),
    [(40, 2, (10, 0, 0)), (15, 3, (10, 1, 0)), (5, 1, (0, 1, 0)), (5, 0, (5, 0, 5))],
)
def test_at_the_end_the_track_pays_first_and_cheques_only_if_necessary(
    money: int, cheques: int, paid: tuple[int, int, int]
) -> None:
    """The seed's end of game: cheques "se necessario". Nobody is asked."""
    corpses = 2 if cheques == 3 else 1
    table = morning(
        annexes={0: [annex(C.PRINCE)]},
        money=[money, 5, 5],
        cheques=[cheques, 0, 0],
        corpses={0: [C.PEASANT] * corpses},
        final=True,
    )
    assert GAME.result(table.state) is not None, "the game ended without asking"
    (event,) = table.of_type(UndertakerPaid)
    assert (event.money, event.cheques, event.unpaid) == paid
    kinds = [type(e) for e in table.events]
    assert kinds.index(UndertakerPaid) < kinds.index(EndBonus), "then the end bonuses"


def test_the_final_rounds_police_asks_then_the_end_has_nothing_left_to_pay() -> None:
    table = investigation(
        hands=[[C.PEASANT], [], []],
        money=[30, 5, 5],
        cheques=[1, 0, 0],
        corpses={0: [C.BARON]},
        final=True,
    )
    assert table.prompted() == [0]
    table.do(0, CASH)
    assert GAME.result(table.state) is not None
    assert len(table.of_type(UndertakerPaid)) == 1
    assert [e.paid for e in table.of_type(WagesPaid)] == [1]
    assert table.state.standings[0].score == 30 - 10 - 1 + 10


# --- stored games ------------------------------------------------------------------------------


def test_a_game_stored_before_the_undertakers_round_still_loads() -> None:
    """States saved by the engine before this field existed have no ``undertaker``."""
    state = rigged(options=BloodyInnOptions(), turn=1)
    data = state.model_dump()
    del data["undertaker"]
    loaded = BloodyInnState.model_validate(data)
    assert loaded == state and loaded.undertaker is None
