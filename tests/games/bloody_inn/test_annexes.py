"""One test (at least) per annex effect of the deck table."""

from collections.abc import Sequence

import pytest

from games.bloody_inn import GAME, ActionKind, BloodyInnOptions
from games.bloody_inn.cards import DECK_TABLE, Effect, spec
from games.bloody_inn.models import (
    Act,
    Built,
    Done,
    EffectWasted,
    EndBonus,
    KeyRoom,
    KeyTaken,
    Pass,
    Pay,
    Place,
    RoomIncome,
    RoomServicePaid,
    RoomServicePlaced,
    ServiceRoom,
    Stage,
    TargetCard,
    TargetPeasants,
    TargetRoom,
    WagesPaid,
    Welcome,
)

from .helpers import C, Table, annex, rigged

BRIBE = Act(action=ActionKind.BRIBE)
BUILD = Act(action=ActionKind.BUILD)
KILL = Act(action=ActionKind.KILL)
BURY = Act(action=ActionKind.BURY)


def build(
    hand: list[C],
    card: C,
    *,
    annexes: Sequence[C] = (),
    money: int = 5,
    exit_stack: Sequence[C] = (),
) -> Table:
    """Seat 0 builds ``card`` (the rest of ``hand`` pays, cheapest first)."""
    table = Table(
        rigged(
            hands=[hand, [], []],
            annexes={0: [annex(c) for c in annexes]},
            money=[money, 5, 5],
            exit_stack=exit_stack,
            turn=0,
        )
    )
    table.do(0, BUILD, TargetCard(card=card))
    while table.state.stage is Stage.PAY:
        table.do(0, table.default(0))
    return table


def end_game(table: Table) -> Table:
    """Make the current Night the last one and let everyone pass to the end."""
    table.state.final_round = True
    while GAME.result(table.state) is None:
        seat = table.prompted()[0]
        table.do(seat, Pass() if table.state.stage is Stage.ACTION else table.default(seat))
    return table


def test_every_buildable_card_has_an_annex_and_an_effect_row() -> None:
    effects = {row[8] for row in DECK_TABLE}
    assert effects == set(Effect)
    assert all(spec(c).annex is None for c in (C.PEACEKEEPER, C.MAJOR, C.PEASANT))


# --- +1 F per annex of the colour: Vegetable Garden, Kiosk, Altar ---------------------


@pytest.mark.parametrize(
    ("card", "same_colour"),
    [(C.CULTIVATOR, C.MECHANIC), (C.NEWSBOY, C.REPRESENTATIVE), (C.NOVICE, C.ABBOT)],
)
def test_colour_count_annexes_pay_one_franc_per_annex_of_their_colour(
    card: C, same_colour: C
) -> None:
    table = build([card], card, annexes=[same_colour, C.BARON])
    assert table.of_type(Built)[0].gained == 2, "this one and the other of its colour"
    assert table.money()[0] == 7


@pytest.mark.parametrize("card", [C.CULTIVATOR, C.NEWSBOY, C.NOVICE, C.BARON])
def test_rank_zero_annexes_hold_no_corpse(card: C) -> None:
    """Seat 1's Depot is full; seat 0 has its Depot and a rank-0 annex: one corpse
    goes to the Depot, then Bury is no longer offered."""
    table = Table(
        rigged(
            2,
            corpses={0: [C.PEASANT, C.PEASANT]},
            annexes={0: [annex(card)], 1: [annex(None, C.VISCOUNT)]},
            queue=[0, 0],
        )
    )
    table.do(0, BURY, TargetCard(card=C.PEASANT))
    annexes = table.state.players[0].annexes
    assert [a.corpses for a in annexes] == [[C.PEASANT], []]
    assert table.prompted() == [0]
    assert BURY not in table.choices(0)


# --- discounts: Workshop, Parlor, Cellar ---------------------------------------------


def test_two_workshops_take_two_accomplices_off_ruling() -> None:
    table = Table(
        rigged(
            hands=[[C.COUNT, C.BARON, C.VISCOUNT], [], []],
            annexes={0: [annex(C.MECHANIC), annex(C.MECHANIC)]},
            turn=0,
        )
    )
    table.do(0, BUILD, TargetCard(card=C.COUNT))
    assert Done() in table.choices(0), "rank 2 - two Workshops: nothing due"
    table.do(0, Done())
    assert table.hand(0) == [C.BARON, C.VISCOUNT]


def test_parlor_discount_applies_once_to_a_store_bribe() -> None:
    table = Table(
        rigged(
            hands=[[C.BARON, C.VISCOUNT, C.COUNT, C.PEASANT], [], []],
            rooms={4: C.MONK, 5: C.ABBOT},
            annexes={0: [annex(C.REPRESENTATIVE), annex(C.SHOPKEEPER)]},
            turn=0,
        )
    )
    table.do(0, BRIBE, TargetRoom(room=4), TargetRoom(room=5))
    pending = GAME.view(table.state, None).pending
    assert pending is not None and (pending.min_cards, pending.max_cards) == (2, 3)


def test_cellar_discount_is_optional() -> None:
    table = Table(
        rigged(
            hands=[[C.BARON, C.VISCOUNT], [], []],
            corpses={0: [C.MONK]},
            annexes={0: [annex(C.ABBOT)]},
            turn=0,
        )
    )
    table.do(0, BURY, TargetCard(card=C.MONK), Place(owner=0))
    assert Done() in table.choices(0) and Pay(card=C.VISCOUNT) in table.choices(0)
    table.do(0, Pay(card=C.VISCOUNT))
    assert table.hand(0) == [C.BARON]


# --- Distillery, Gardens ----------------------------------------------------------------


def test_each_distillery_keeps_one_accomplice_unpaid() -> None:
    table = Table(
        rigged(
            1,
            hands=[[C.PEASANT, C.PEASANT, C.BARON]],
            annexes={0: [annex(C.DISTILLER), annex(C.DISTILLER)]},
            money=[5],
            queue=[0],
        )
    )
    table.do(0, Pass())
    wages = table.of_type(WagesPaid)[0]
    assert (wages.accomplices, wages.free, wages.paid) == (3, 2, 1)


def test_gardens_pay_two_francs_at_each_end_of_round() -> None:
    table = Table(rigged(hands=[[], [], []], annexes={0: [annex(C.GARDENER)]}, queue=[0]))
    table.do(0, Pass())
    income = table.of_type(RoomIncome)
    assert [(e.seat, e.rooms, e.gardens) for e in income] == [(0, 0, 2)]
    assert table.money()[0] == 7


# --- one-off gains: nobles -----------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "gain"),
    [(C.BARON, 4), (C.VISCOUNT, 6), (C.COUNT, 9), (C.MARQUIS, 18)],
)
def test_noble_annexes_pay_at_once(card: C, gain: int) -> None:
    payers = [C.PEASANT, C.PEASANT, C.PEASANT]
    table = build([card, *payers], card, money=0)
    assert table.money()[0] == gain
    assert table.of_type(Built)[0].gained == gain


def test_pavilion_gain_is_capped_at_forty_francs() -> None:
    table = build([C.MARQUIS, C.PEASANT, C.PEASANT, C.PEASANT], C.MARQUIS, money=30)
    built = table.of_type(Built)[0]
    assert (built.gained, built.lost) == (10, 8)
    assert table.money()[0] == 40


# --- end-of-game colour bonuses: Park, Grocery, Bishopric, Stables; Greenhouse --------


@pytest.mark.parametrize(
    ("card", "colour_cards", "other"),
    [
        (C.LANDSCAPER, [C.MECHANIC, C.CULTIVATOR], C.NEWSBOY),
        (C.GROCER, [C.NEWSBOY, C.CONCIERGE], C.MONK),
        (C.BISHOP, [C.MONK, C.ABBOT], C.BARON),
        (C.DUKE, [C.BARON, C.COUNT], C.MONK),
    ],
)
def test_exit_bonus_annexes_pay_four_now_and_four_per_card_of_their_colour(
    card: C, colour_cards: list[C], other: C
) -> None:
    exit_stack = [*colour_cards, other]
    table = build([card, C.PEASANT, C.PEASANT, C.PEASANT], card, money=0, exit_stack=exit_stack)
    assert table.money()[0] == 4
    end_game(table)
    assert table.conserved()
    bonus = [e for e in table.of_type(EndBonus) if e.card is card]
    assert bonus[0].amount == 8, "two cards of its colour in the Exit"


def test_greenhouse_pays_three_per_cheque_held() -> None:
    table = Table(
        rigged(hands=[[], [], []], annexes={0: [annex(C.PRINCE)]}, cheques=[3, 0, 0], queue=[0])
    )
    end_game(table)
    assert [e.amount for e in table.of_type(EndBonus)] == [9]
    standing = table.state.standings[0]
    assert standing.score == standing.money + 30


def test_end_bonuses_are_capped_at_forty_on_the_track() -> None:
    table = Table(
        rigged(
            hands=[[], [], []],
            annexes={0: [annex(C.PRINCE)]},
            money=[38, 5, 5],
            cheques=[2, 0, 0],
            queue=[0],
        )
    )
    end_game(table)
    bonus = table.of_type(EndBonus)[0]
    assert (bonus.amount, bonus.lost) == (6, 4)
    assert table.state.standings[0].score == 40 + 20


# --- multi-target: Butcher's Shop, Store, Crypt; Brewery ------------------------------


def test_butchers_shop_still_kills_a_single_peasant() -> None:
    table = Table(rigged(hands=[[], [], []], annexes={0: [annex(C.BUTCHER)]}, bistro=3, turn=0))
    table.do(0, KILL)
    assert [c for c in table.choices(0) if isinstance(c, TargetPeasants)] == [
        TargetPeasants(count=1)
    ]
    table.do(0, TargetPeasants(count=1))
    assert table.state.players[0].corpses == [C.PEASANT] and table.state.bistro == 2


def test_without_the_store_a_bribe_takes_one_traveller() -> None:
    table = Table(
        rigged(hands=[[C.BARON, C.PEASANT], [], []], rooms={1: C.MONK, 2: C.BRIGADIER}, turn=0)
    )
    table.do(0, BRIBE, TargetRoom(room=1))
    assert table.state.stage is Stage.PAY


def test_crypt_places_each_corpse_and_respects_capacity() -> None:
    """Only the two Depots are free: the third corpse cannot be added."""
    table = Table(
        rigged(
            2,
            hands=[[C.PEASANT], []],
            corpses={0: [C.PEASANT, C.PEASANT, C.PEASANT]},
            annexes={0: [annex(C.ARCHBISHOP, C.BARON, C.BARON, C.BARON)]},
            bistro=0,
            turn=0,
        )
    )
    table.do(0, BURY, TargetCard(card=C.PEASANT))
    assert table.choices(0)[:2] == (Place(owner=0), Place(owner=1))
    table.do(0, Place(owner=1))
    # one place left (seat 0's Depot): it is taken without asking, then no more targets
    table.do(0, TargetCard(card=C.PEASANT))
    assert table.state.players[0].corpses == [C.PEASANT]
    assert table.state.players[1].annexes[0].corpses == [C.PEASANT]
    assert table.state.players[0].annexes[0].corpses == [C.PEASANT]
    assert table.money() == [5 + 2 + 4, 5 + 2]


def test_brewery_bribes_up_to_four_peasants() -> None:
    plain = Table(rigged(hands=[[], [], []], bistro=5, turn=0))
    plain.do(0, BRIBE)
    assert [c for c in plain.choices(0) if isinstance(c, TargetPeasants)] == [
        TargetPeasants(count=1),
        TargetPeasants(count=2),
    ]
    table = Table(rigged(hands=[[], [], []], annexes={0: [annex(C.BREWER)]}, bistro=5, turn=0))
    table.do(0, BRIBE)
    counts = [c.count for c in table.choices(0) if isinstance(c, TargetPeasants)]
    assert counts == [1, 2, 3, 4]
    table.do(0, TargetPeasants(count=4))
    assert table.hand(0) == [C.PEASANT] * 4 and table.state.bistro == 1


# --- Room Service, Monk's Room ---------------------------------------------------------------


def test_room_service_token_goes_on_a_chosen_room_one_per_room() -> None:
    table = Table(
        rigged(
            hands=[[C.CONCIERGE, C.BARON, C.VISCOUNT, C.PEASANT], [], []], service={2: 1}, turn=0
        )
    )
    table.do(0, BUILD, TargetCard(card=C.CONCIERGE), Pay(card=C.BARON), Pay(card=C.VISCOUNT))
    assert table.state.stage is Stage.SERVICE
    assert table.choices(0) == tuple(ServiceRoom(room=r) for r in (1, 3, 4, 5, 6))
    assert table.default(0) == ServiceRoom(room=1), "timeout: one's own room first"
    table.do(0, ServiceRoom(room=5))
    assert table.state.rooms[4].service == 0
    assert table.of_type(RoomServicePlaced)[0].room == 5
    assert table.prompted() == [1]


def test_room_service_pays_nothing_for_rank_zero_and_counts_the_cap() -> None:
    table = Table(
        rigged(
            entrance=[C.BARON, C.COUNT, C.MAJOR, C.NOVICE, C.MONK, C.ABBOT, C.DUKE],
            service={1: 2, 2: 2},
            money=[5, 5, 39],
            welcome=True,
        )
    )
    table.do(0, Welcome(room=1))
    assert table.money()[2] == 39, "a rank-0 guest pays 0 F"
    table.do(0, Welcome(room=2))
    paid = table.of_type(RoomServicePaid)
    assert [(e.seat, e.card, e.amount, e.lost) for e in paid] == [(2, C.COUNT, 2, 1)]
    assert table.money()[2] == 40


def test_room_service_wasted_when_every_room_has_a_token() -> None:
    table = Table(
        rigged(
            1,
            hands=[[C.CONCIERGE, C.BARON, C.VISCOUNT, C.PEASANT]],
            service={1: 0, 2: 0, 3: 0, 4: 0},
            turn=0,
        )
    )
    table.do(0, BUILD, TargetCard(card=C.CONCIERGE), Pay(card=C.BARON), Pay(card=C.VISCOUNT))
    assert table.of_type(EffectWasted)[0].card is C.CONCIERGE


def test_monks_room_with_one_white_key_left_takes_it_and_with_none_is_wasted() -> None:
    table = Table(
        rigged(
            hands=[[C.MONK, C.PEASANT, C.PEASANT], [], []],
            keys={4: 1, 5: 2},
            turn=0,
        )
    )
    table.do(0, BUILD, TargetCard(card=C.MONK), Pay(card=C.PEASANT))
    assert table.of_type(KeyTaken)[0].room == 6, "the only white key: no question"
    assert table.state.rooms[5].owner == 0

    none = Table(
        rigged(hands=[[C.MONK, C.PEASANT, C.PEASANT], [], []], keys={4: 1, 5: 2, 6: 1}, turn=0)
    )
    none.do(0, BUILD, TargetCard(card=C.MONK), Pay(card=C.PEASANT))
    assert none.of_type(EffectWasted)[0].card is C.MONK


def test_monk_key_room_pays_its_new_owner_in_the_morning() -> None:
    table = Table(
        rigged(hands=[[C.MONK, C.PEASANT, C.PEASANT], [], []], rooms={4: C.BARON}, queue=[0])
    )
    table.do(0, BUILD, TargetCard(card=C.MONK), Pay(card=C.PEASANT), KeyRoom(room=4))
    income = table.of_type(RoomIncome)
    assert [(e.seat, e.rooms) for e in income] == [(0, 1)]


def test_chapel_does_not_help_other_actions() -> None:
    table = Table(
        rigged(
            hands=[[C.BARON, C.PEASANT], [], []],
            rooms={1: C.MONK},
            annexes={0: [annex(C.PRIEST)]},
            turn=0,
        )
    )
    table.do(0, BRIBE, TargetRoom(room=1), Pay(card=C.BARON))
    assert table.hand(0) == [C.MONK, C.PEASANT]
    assert table.state.exit == [C.BARON]


def test_unlimited_wealth_turns_forty_francs_into_four_cheques() -> None:
    table = Table(
        rigged(
            hands=[[C.MARQUIS, C.PEASANT, C.PEASANT, C.PEASANT], [], []],
            money=[30, 5, 5],
            cheques=[0, 0, 0],
            turn=0,
            options=BloodyInnOptions(unlimited_wealth=True),
        )
    )
    table.do(0, BUILD, TargetCard(card=C.MARQUIS))
    assert (table.money()[0], table.cheques()[0]) == (8, 4)
    assert table.of_type(Built)[0].lost == 0
