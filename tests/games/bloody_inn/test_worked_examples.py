"""The worked examples of the seed (Anna, Madeline, Sebastien) and of its
"tips / examples / clarifications" page, played out.

Seats: Anna = 0, Madeline = 1, Sebastien = 2 (three players: rooms 1-3 carry
their keys, rooms 4-6 white keys, rooms 7-8 are closed).
"""

from games.bloody_inn import GAME, ActionKind
from games.bloody_inn.models import (
    AccomplicesPlayed,
    Act,
    Bribed,
    Built,
    Buried,
    Done,
    KeyTaken,
    Killed,
    Pass,
    Pay,
    Place,
    PoliceInvestigation,
    RoomIncome,
    RoomServicePaid,
    RoundStarted,
    Stage,
    TargetCard,
    TargetPeasants,
    TargetRoom,
    TravellersLeft,
    UndertakerPaid,
    WagesPaid,
    Welcome,
)

from .helpers import C, Table, annex, rigged

ANNA, MADELINE, SEBASTIEN = 0, 1, 2
BRIBE = Act(action=ActionKind.BRIBE)
BUILD = Act(action=ActionKind.BUILD)
KILL = Act(action=ActionKind.KILL)
BURY = Act(action=ActionKind.BURY)


def test_anna_welcomes_the_landscaper_into_the_yellow_room_then_five_more() -> None:
    """Anna, first player, draws the Landscaper (the next traveller shows) and
    puts it in the yellow player's room; five more fill the six open rooms."""
    entrance = [C.LANDSCAPER, C.BARON, C.MONK, C.MAJOR, C.GROCER, C.NOVICE, C.COUNT]
    table = Table(rigged(3, entrance=entrance, welcome=True, first=ANNA))
    assert table.prompted() == [ANNA]
    assert table.state.drawn is C.LANDSCAPER
    assert GAME.view(table.state, None).entrance_top is C.BARON, "the second one is visible"
    assert table.choices(ANNA) == tuple(Welcome(room=r) for r in range(1, 7))

    table.do(ANNA, Welcome(room=SEBASTIEN + 1))
    assert table.state.rooms[SEBASTIEN].guest is C.LANDSCAPER
    table.do(ANNA, Welcome(room=1), Welcome(room=2), Welcome(room=4), Welcome(room=5))

    guests = [room.guest for room in table.state.rooms]
    assert guests == [C.BARON, C.MONK, C.LANDSCAPER, C.MAJOR, C.GROCER, C.NOVICE, None, None]
    assert table.state.entrance == [C.COUNT]
    assert table.state.stage is Stage.ACTION and table.prompted() == [ANNA], "the Night begins"


def test_anna_bribes_the_landscaper_with_three_accomplices() -> None:
    """Rank 3: three cards. The peasant goes to the bistro, the Novice to the Exit,
    the Newsboy (bribe aptitude) comes back; the Landscaper joins Anna's hand."""
    table = Table(
        rigged(
            3,
            hands=[[C.PEASANT, C.NOVICE, C.NEWSBOY, C.BARON], [], []],
            rooms={MADELINE + 1: C.LANDSCAPER},
            turn=ANNA,
        )
    )
    table.do(ANNA, BRIBE)
    assert TargetRoom(room=2) in table.choices(ANNA)
    table.do(ANNA, TargetRoom(room=2))
    assert table.state.stage is Stage.PAY
    assert Done() not in table.choices(ANNA), "three cards are due, no discount"
    events = table.do(ANNA, Pay(card=C.PEASANT), Pay(card=C.NOVICE), Pay(card=C.NEWSBOY))

    played = next(e for e in events if isinstance(e, AccomplicesPlayed))
    assert played.played == (C.PEASANT, C.NOVICE, C.NEWSBOY)
    assert played.returned == (C.NEWSBOY,)
    assert table.state.bistro == 1
    assert table.state.exit == [C.NOVICE]
    assert table.hand(ANNA) == [C.LANDSCAPER, C.NEWSBOY, C.BARON]
    assert table.state.rooms[MADELINE].guest is None
    assert next(e for e in events if isinstance(e, Bribed)).cards == (C.LANDSCAPER,)
    assert table.prompted() == [MADELINE] and table.conserved()


def test_madeline_builds_the_distillery() -> None:
    """The Distiller is rank 2: two more cards. The Viscount goes on its way, the
    Mechanic (build aptitude) comes back; the Distillery is in front of Madeline."""
    table = Table(
        rigged(3, hands=[[], [C.DISTILLER, C.VISCOUNT, C.MECHANIC, C.PEASANT], []], turn=MADELINE)
    )
    table.do(MADELINE, BUILD)
    assert TargetCard(card=C.DISTILLER) in table.choices(MADELINE)
    table.do(MADELINE, TargetCard(card=C.DISTILLER))
    table.do(MADELINE, Pay(card=C.VISCOUNT), Pay(card=C.MECHANIC))

    player = table.state.players[MADELINE]
    assert [a.card for a in player.annexes] == [None, C.DISTILLER]
    assert player.hand == [C.MECHANIC, C.PEASANT]
    assert table.state.exit == [C.VISCOUNT]
    assert table.of_type(Built)[0].card is C.DISTILLER


def test_madeline_kills_the_baron_in_annas_room_for_nothing() -> None:
    table = Table(rigged(3, hands=[[], [C.PEASANT], []], rooms={1: C.BARON}, turn=MADELINE))
    table.do(MADELINE, KILL)
    events = table.do(MADELINE, TargetRoom(room=1))
    assert not any(isinstance(e, AccomplicesPlayed) for e in events), "rank 0: no card played"
    assert table.state.players[MADELINE].corpses == [C.BARON]
    assert table.state.rooms[0].guest is None
    assert table.hand(MADELINE) == [C.PEASANT]
    assert table.of_type(Killed)[0].cards == (C.BARON,)


def test_madeline_buries_a_rank_two_corpse_under_a_rank_three_annex() -> None:
    """Two cards: the peasant to the bistro, the Grocer to the Exit; +18 F."""
    table = Table(
        rigged(
            3,
            hands=[[], [C.PEASANT, C.GROCER, C.BARON], []],
            corpses={MADELINE: [C.COUNT]},
            annexes={MADELINE: [annex(C.GARDENER)]},
            money=[5, 5, 5],
            turn=MADELINE,
        )
    )
    table.do(MADELINE, BURY, TargetCard(card=C.COUNT))
    assert table.choices(MADELINE)[:3] == (Place(owner=0), Place(owner=1), Place(owner=2))
    table.do(MADELINE, Place(owner=MADELINE))
    table.do(MADELINE, Pay(card=C.PEASANT), Pay(card=C.GROCER))

    player = table.state.players[MADELINE]
    assert player.annexes[1].corpses == [C.COUNT], "under the rank-3 annex"
    assert player.money == 5 + 18
    assert table.state.bistro == 1 and table.state.exit == [C.GROCER]
    buried = table.of_type(Buried)[0]
    assert (buried.actor, buried.owner, buried.gained, buried.owner_gained) == (1, 1, 18, 0)


def test_morning_police_sebastiens_rooms_and_wages() -> None:
    """A Police card stayed: Madeline pays 10 F for her corpse; Sebastien earns 2 F
    for his two occupied rooms; the 4 travellers leave; everyone pays 1 F a card."""
    table = Table(
        rigged(
            3,
            hands=[[C.PEASANT, C.PEASANT], [C.NOVICE], [C.BARON, C.MONK, C.PEASANT]],
            rooms={3: C.COUNT, 4: C.BRIGADIER, 5: C.VISCOUNT, 6: C.NEWSBOY},
            keys={6: SEBASTIEN},
            corpses={MADELINE: [C.DUKE]},
            annexes={SEBASTIEN: [annex(C.MONK)]},
            money=[5, 15, 5],
            cheques=[1, 0, 1],
            queue=[SEBASTIEN],
        )
    )
    events = table.do(SEBASTIEN, Pass())

    assert table.of_type(PoliceInvestigation)[0].cards == (C.BRIGADIER,)
    paid = table.of_type(UndertakerPaid)
    assert [(e.seat, e.money, e.cheques, e.corpses) for e in paid] == [(1, 10, 0, (C.DUKE,))]
    assert table.state.box == [C.DUKE]
    income = table.of_type(RoomIncome)
    assert [(e.seat, e.rooms) for e in income] == [(SEBASTIEN, 2)]
    assert sorted(table.of_type(TravellersLeft)[0].cards) == sorted(
        [C.COUNT, C.BRIGADIER, C.VISCOUNT, C.NEWSBOY]
    )
    assert [(e.seat, e.paid) for e in table.of_type(WagesPaid)] == [(0, 2), (1, 1), (2, 3)]
    assert table.money() == [5 - 2, 15 - 10 - 1, 5 + 2 - 3]
    assert all(room.guest is None for room in table.state.rooms)
    started = [e for e in events if isinstance(e, RoundStarted)]
    assert started[0].seat == MADELINE, "the first player card passes left"
    assert table.state.stage is Stage.WELCOME and table.prompted() == [MADELINE]


# --- the clarifications page of the seed -------------------------------------------


def test_workshop_builds_a_rank_one_annex_without_playing_a_card_or_with_one() -> None:
    def start() -> Table:
        table = Table(
            rigged(
                hands=[[C.VISCOUNT, C.BARON], [], []],
                annexes={ANNA: [annex(C.MECHANIC)]},
                turn=ANNA,
            )
        )
        table.do(ANNA, BUILD, TargetCard(card=C.VISCOUNT))
        return table

    table = start()
    assert table.choices(ANNA) == (Pay(card=C.BARON), Done(), *table.choices(ANNA)[2:])
    table.do(ANNA, Done())
    assert table.hand(ANNA) == [C.BARON], "built for free"
    assert table.money()[ANNA] == 5 + 6

    table = start()
    table.do(ANNA, Pay(card=C.BARON))
    assert table.hand(ANNA) == [], "not obliged to use the Workshop"
    assert table.state.exit == [C.BARON]


def test_distillery_two_accomplices_cost_one_franc_and_none_earn_nothing() -> None:
    table = Table(
        rigged(
            1,
            hands=[[C.PEASANT, C.PEASANT]],
            annexes={0: [annex(C.DISTILLER)]},
            money=[5],
            queue=[0],
        )
    )
    table.do(0, Pass())
    assert table.of_type(WagesPaid)[0].paid == 1 and table.money() == [4]

    empty = Table(rigged(1, hands=[[]], annexes={0: [annex(C.DISTILLER)]}, queue=[0]))
    empty.do(0, Pass())
    assert empty.money() == [5], "no card in hand: the Distillery earns nothing"


def test_butchers_shop_kills_a_rank_one_and_a_rank_two_for_three_cards() -> None:
    table = Table(
        rigged(
            hands=[[C.PEASANT, C.PEASANT, C.BARON, C.NOVICE], [], []],
            rooms={1: C.BRIGADIER, 2: C.COUNT, 3: C.MAJOR},
            annexes={ANNA: [annex(C.BUTCHER)]},
            bistro=2,
            turn=ANNA,
        )
    )
    table.do(ANNA, KILL, TargetRoom(room=1))
    more = table.choices(ANNA)
    assert TargetRoom(room=2) in more and TargetRoom(room=3) in more
    assert not any(isinstance(c, TargetPeasants) for c in more), "not peasants"
    table.do(ANNA, TargetRoom(room=2))
    assert table.state.stage is Stage.PAY, "1 + 2 + 3 > four cards: no more targets"
    table.do(ANNA, Pay(card=C.PEASANT), Pay(card=C.PEASANT), Pay(card=C.BARON))
    assert table.state.players[ANNA].corpses == [C.COUNT, C.BRIGADIER]
    assert table.hand(ANNA) == [C.NOVICE]


def test_store_bribes_two_rank_two_travellers_for_four_cards() -> None:
    table = Table(
        rigged(
            hands=[[C.PEASANT, C.PEASANT, C.BARON, C.NOVICE], [], []],
            rooms={1: C.COUNT, 2: C.CONCIERGE},
            annexes={ANNA: [annex(C.SHOPKEEPER)]},
            turn=ANNA,
        )
    )
    table.do(ANNA, BRIBE, TargetRoom(room=1), TargetRoom(room=2))
    # four cards due, four in hand: nothing to choose, all are played
    assert sorted(table.hand(ANNA)) == sorted([C.COUNT, C.CONCIERGE])
    assert table.of_type(Bribed)[0].rooms == (1, 2)


def test_parlor_bribes_a_rank_two_with_a_single_card() -> None:
    table = Table(
        rigged(
            hands=[[C.BARON, C.VISCOUNT], [], []],
            rooms={4: C.COUNT},
            annexes={ANNA: [annex(C.REPRESENTATIVE)]},
            turn=ANNA,
        )
    )
    table.do(ANNA, BRIBE, TargetRoom(room=4), Pay(card=C.BARON))
    assert table.state.stage is Stage.PAY, "the discount is optional"
    table.do(ANNA, Done())
    assert table.hand(ANNA) == [C.VISCOUNT, C.COUNT]


def test_room_service_a_rank_three_traveller_pays_three_francs() -> None:
    table = Table(
        rigged(
            entrance=[C.MAJOR, C.BARON, C.COUNT, C.NOVICE, C.MONK, C.ABBOT, C.DUKE],
            service={4: MADELINE},
            money=[5, 5, 5],
            welcome=True,
        )
    )
    table.do(ANNA, Welcome(room=4))
    paid = table.of_type(RoomServicePaid)
    assert [(e.seat, e.room, e.amount) for e in paid] == [(MADELINE, 4, 3)]
    assert table.money() == [5, 8, 5]


def test_monks_room_takes_a_neutral_room_the_number_of_rooms_stays() -> None:
    table = Table(rigged(hands=[[C.MONK, C.BARON, C.PEASANT], [], []], turn=ANNA))
    table.do(ANNA, BUILD, TargetCard(card=C.MONK), Pay(card=C.BARON))
    assert table.state.stage is Stage.KEY
    table.do(ANNA, table.choices(ANNA)[1])
    assert table.of_type(KeyTaken)[0].room == 5
    assert [r.owner for r in table.state.rooms if r.open] == [0, 1, 2, None, 0, None]
    assert sum(r.open for r in table.state.rooms) == 6


def test_cellar_buries_a_rank_three_with_two_cards() -> None:
    table = Table(
        rigged(
            hands=[[C.BARON, C.VISCOUNT, C.COUNT], [], []],
            corpses={ANNA: [C.MAJOR]},
            annexes={ANNA: [annex(C.ABBOT)]},
            money=[0, 0, 0],
            turn=ANNA,
        )
    )
    table.do(ANNA, BURY, TargetCard(card=C.MAJOR), Place(owner=ANNA))
    table.do(ANNA, Pay(card=C.BARON), Pay(card=C.VISCOUNT), Done())
    assert table.hand(ANNA) == [C.COUNT]
    assert table.money()[ANNA] == 26


def test_chapel_buries_a_rank_three_and_all_three_cards_come_back() -> None:
    table = Table(
        rigged(
            hands=[[C.BARON, C.VISCOUNT, C.COUNT], [], []],
            corpses={ANNA: [C.MAJOR]},
            annexes={ANNA: [annex(C.PRIEST)]},
            money=[0, 0, 0],
            turn=ANNA,
        )
    )
    table.do(ANNA, BURY, TargetCard(card=C.MAJOR), Place(owner=ANNA))
    # three cards due, three in hand: all played at once, and all come back
    assert table.hand(ANNA) == [C.BARON, C.VISCOUNT, C.COUNT]
    assert table.of_type(AccomplicesPlayed)[0].returned == (C.BARON, C.VISCOUNT, C.COUNT)
    assert table.state.exit == []


def test_crypt_buries_two_rank_one_corpses_with_two_cards() -> None:
    table = Table(
        rigged(
            hands=[[C.BARON, C.VISCOUNT, C.PEASANT], [], []],
            corpses={ANNA: [C.MONK, C.BRIGADIER]},
            annexes={ANNA: [annex(C.ARCHBISHOP)]},
            money=[0, 0, 0],
            turn=ANNA,
        )
    )
    table.do(ANNA, BURY, TargetCard(card=C.MONK), Place(owner=ANNA))
    assert TargetCard(card=C.BRIGADIER) in table.choices(ANNA)
    table.do(ANNA, TargetCard(card=C.BRIGADIER), Place(owner=ANNA))
    table.do(ANNA, Pay(card=C.BARON), Pay(card=C.PEASANT))
    assert table.state.players[ANNA].corpses == []
    assert table.money()[ANNA] == 24
    assert len(table.of_type(Buried)) == 2
