"""Scenario tests on the rules and edges: the Morning, seasons, the final round and
its exception, the end of the game, solo, variants, laundering, Cancel, illegal
choices, timeouts and removals."""

import pytest

from games.base import GameIsOver, IllegalChoice, NotAllowed, NotPrompted
from games.bloody_inn import GAME, ActionKind, BloodyInnOptions, Length
from games.bloody_inn.models import (
    AccompliceLeft,
    Act,
    ActionCancelled,
    BloodyInnChoice,
    BloodyInnState,
    Buried,
    Cancel,
    Dismiss,
    FinalRound,
    FinalRoundSkipped,
    FinalScore,
    GameWon,
    HandChanged,
    Pass,
    Passed,
    Pay,
    Place,
    PoliceInvestigation,
    RoomIncome,
    SeasonChanged,
    SoloLost,
    Stage,
    TargetCard,
    TargetPeasants,
    TargetRoom,
    TravellersLeft,
    TurnStarted,
    UndertakerPaid,
    WagesPaid,
    Welcome,
)

from .helpers import C, Table, annex, rigged

BRIBE = Act(action=ActionKind.BRIBE)
BUILD = Act(action=ActionKind.BUILD)
KILL = Act(action=ActionKind.KILL)
BURY = Act(action=ActionKind.BURY)
SIX = [C.BARON, C.MONK, C.COUNT, C.NOVICE, C.ABBOT, C.VISCOUNT]


def pass_all(table: Table) -> None:
    """Everyone passes (and the defaults answer anything else) until the game ends
    or a new Evening asks for a room."""
    while GAME.result(table.state) is None and table.state.stage is not Stage.WELCOME:
        seat = table.prompted()[0]
        table.do(seat, Pass() if table.state.stage is Stage.ACTION else table.default(seat))


# --- Morning: police ----------------------------------------------------------------


def test_no_police_in_the_inn_no_investigation() -> None:
    table = Table(rigged(corpses={1: [C.BARON]}, rooms={4: C.MONK}, queue=[2]))
    table.do(2, Pass())
    assert table.of_type(PoliceInvestigation) == []
    assert table.state.players[1].corpses == [C.BARON]


def test_police_with_one_way_to_pay_pays_at_once_as_much_as_one_can() -> None:
    """15 F and a cheque for two corpses: 10 F and the cheque; 12 F and a cheque for
    three: everything, 8 F short (the choice of how to pay: test_undertaker)."""
    table = Table(
        rigged(
            corpses={0: [C.BARON, C.VISCOUNT], 1: [C.COUNT, C.DUKE, C.MONK]},
            rooms={4: C.PEACEKEEPER},
            money=[15, 12, 5],
            cheques=[1, 1, 1],
            queue=[2],
        )
    )
    table.do(2, Pass())
    paid = {e.seat: (e.cheques, e.money, e.unpaid) for e in table.of_type(UndertakerPaid)}
    assert paid == {0: (1, 10, 0), 1: (1, 12, 8)}
    assert table.money()[:2] == [5, 0] and table.cheques() == [0, 0, 1]
    assert sorted(table.state.box) == sorted([C.BARON, C.VISCOUNT, C.COUNT, C.DUKE, C.MONK])
    assert all(not p.corpses for p in table.state.players)
    assert table.conserved()


def test_police_bribed_or_killed_during_the_night_investigates_nothing() -> None:
    table = Table(
        rigged(hands=[[], [], []], corpses={1: [C.BARON]}, rooms={4: C.PEACEKEEPER}, queue=[2])
    )
    table.do(2, KILL, TargetRoom(room=4))
    assert table.of_type(PoliceInvestigation) == []
    assert table.state.players[2].corpses == [C.PEACEKEEPER]


# --- Morning: travellers leave, wages ---------------------------------------------------


def test_white_rooms_pay_nobody_and_travellers_leave_to_the_exit() -> None:
    table = Table(rigged(rooms={1: C.BARON, 4: C.MONK}, hands=[[], [], []], queue=[2]))
    table.do(2, Pass())
    assert [(e.seat, e.rooms) for e in table.of_type(RoomIncome)] == [(0, 1)]
    assert table.of_type(TravellersLeft)[0].cards == (C.BARON, C.MONK)
    assert table.state.exit == [C.BARON, C.MONK]


def test_wages_with_too_little_money_the_player_chooses_who_leaves() -> None:
    table = Table(
        rigged(
            hands=[[C.PEASANT, C.BARON, C.MONK, C.COUNT], [C.PEASANT, C.NOVICE, C.ABBOT], []],
            money=[2, 1, 5],
            queue=[2],
        )
    )
    table.do(2, Pass())
    wages = table.of_type(WagesPaid)
    assert [(e.seat, e.paid, e.unpaid) for e in wages] == [(0, 2, 2), (1, 1, 2)]
    assert table.money()[:2] == [0, 0]
    assert table.state.stage is Stage.DISMISS and table.prompted() == [0]
    assert table.choices(0) == tuple(Dismiss(card=c) for c in (C.MONK, C.BARON, C.COUNT, C.PEASANT))
    assert table.default(0) == Dismiss(card=C.PEASANT), "timeout: a peasant goes first"
    table.do(0, Dismiss(card=C.COUNT))
    assert table.prompted() == [0], "one more must leave"
    table.do(0, Dismiss(card=C.PEASANT))
    assert table.hand(0) == [C.MONK, C.BARON]
    assert table.prompted() == [1], "then the next underpaid player"
    table.do(1, Dismiss(card=C.ABBOT), Dismiss(card=C.NOVICE))
    assert [(e.seat, e.card) for e in table.of_type(AccompliceLeft)] == [
        (0, C.COUNT),
        (0, C.PEASANT),
        (1, C.ABBOT),
        (1, C.NOVICE),
    ]
    assert table.state.exit == [C.COUNT, C.ABBOT, C.NOVICE]
    assert table.state.bistro == 1
    assert table.stage() is Stage.WELCOME and table.conserved()
    private = table.of_type(HandChanged)
    assert all(e.audience == (e.seat,) for e in private)


def test_wages_when_every_accomplice_must_leave_nothing_is_asked() -> None:
    table = Table(rigged(hands=[[C.BARON, C.MONK], [], []], money=[0, 5, 5], queue=[2]))
    table.do(2, Pass())
    assert table.hand(0) == []
    assert len(table.of_type(AccompliceLeft)) == 2
    assert table.state.stage is Stage.WELCOME


def test_cheques_do_not_pay_wages() -> None:
    table = Table(rigged(hands=[[C.BARON], [], []], money=[0, 5, 5], cheques=[3, 0, 0], queue=[2]))
    table.do(2, Pass())
    assert table.hand(0) == [] and table.cheques()[0] == 3


def test_second_action_round_and_the_morning_after_it() -> None:
    table = Table(rigged(hands=[[], [], []], first=1, turn=1))
    seen = []
    for _ in range(6):
        seat = table.prompted()[0]
        seen.append(seat)
        table.do(seat, Pass())
    assert seen == [1, 2, 0, 1, 2, 0]
    rounds = [e.action_round for e in table.of_type(TurnStarted)]
    assert rounds == [1, 1, 2, 2, 2]
    assert table.state.first_player == 2 and table.state.round == 2


# --- seasons and the end --------------------------------------------------------------------


def test_first_run_out_shuffles_the_exit_into_a_new_entrance() -> None:
    exit_stack = [C.MAJOR, C.GROCER, C.BISHOP, C.DUKE, C.PRINCE, C.MARQUIS, C.BREWER]
    table = Table(rigged(entrance=SIX[:3], exit_stack=exit_stack, welcome=True))
    table.do(0, Welcome(room=1))
    assert table.of_type(SeasonChanged) == []
    table.do(0, Welcome(room=2))
    # the last card of the Entrance is drawn: the Exit becomes the Entrance at once
    assert table.of_type(SeasonChanged)[0].entrance == 7
    assert table.state.drawn is C.COUNT
    assert table.state.season == 2 and table.state.exit == []
    assert sorted(table.state.entrance) == sorted(exit_stack)
    table.do(0, Welcome(room=3), Welcome(room=4), Welcome(room=5))
    assert table.state.stage is Stage.ACTION and not table.state.final_round
    assert len(table.state.entrance) == 4


def test_second_run_out_the_last_round_is_played_with_a_partly_empty_inn() -> None:
    table = Table(rigged(entrance=SIX[:4], season=2, welcome=True))
    table.do(0, Welcome(room=6), Welcome(room=5), Welcome(room=4), Welcome(room=3))
    assert table.of_type(FinalRound)[0].travellers == 4
    assert table.state.final_round and table.state.stage is Stage.ACTION
    assert [r.guest is not None for r in table.state.rooms[:6]] == [False] * 2 + [True] * 4
    pass_all(table)
    result = GAME.result(table.state)
    assert result is not None and table.stage() is Stage.OVER
    assert len(table.of_type(FinalScore)) == 3
    assert len(table.of_type(TravellersLeft)) == 1, "the final round's Morning happened"


@pytest.mark.parametrize(("travellers", "played"), [(2, False), (3, True)])
def test_final_round_exception_fewer_travellers_than_players(travellers: int, played: bool) -> None:
    table = Table(rigged(entrance=SIX[:travellers], season=2, welcome=True))
    for room in range(1, travellers + 1):
        if table.state.drawn is not None:
            table.do(0, Welcome(room=room))
    if played:
        assert table.state.stage is Stage.ACTION
        assert table.of_type(FinalRound)[0].travellers == 3
        return
    skipped = table.of_type(FinalRoundSkipped)
    assert skipped[0].travellers == 2 and skipped[0].cards == tuple(SIX[:2])
    assert table.state.stage is Stage.OVER and table.of_type(TurnStarted) == []
    assert table.state.exit == SIX[:2]
    assert GAME.result(table.state) is not None


def test_run_out_with_an_empty_exit_is_at_once_the_last_one() -> None:
    table = Table(rigged(entrance=SIX[:2], welcome=True))
    table.do(0, Welcome(room=1))
    assert table.of_type(SeasonChanged)[0].entrance == 0
    assert table.state.final_round
    table.do(0, Welcome(room=2))
    assert table.of_type(FinalRoundSkipped)[0].travellers == 2


def test_end_of_game_corpses_cost_ten_each_from_the_track_first() -> None:
    table = Table(
        rigged(corpses={0: [C.BARON, C.MONK]}, money=[15, 5, 5], cheques=[1, 0, 0], queue=[2])
    )
    table.state.final_round = True
    table.do(2, Pass())
    paid = table.of_type(UndertakerPaid)[0]
    assert (paid.money, paid.cheques, paid.unpaid) == (10, 1, 0)
    assert table.state.box == [C.BARON, C.MONK]
    assert table.state.standings[0].score == 5


def test_best_score_wins() -> None:
    table = Table(rigged(hands=[[], [], []], money=[15, 25, 20], cheques=[2, 0, 1], queue=[2]))
    table.state.final_round = True
    table.do(2, Pass())
    result = GAME.result(table.state)
    assert result is not None
    assert result.winners == (0,) and result.scores == (35, 25, 30)
    assert [(e.winner, e.score, e.shared) for e in table.of_type(GameWon)] == [(0, 35, False)]


def test_tie_break_corpses_under_ones_own_annexes_then_a_draw() -> None:
    def finish(buried: tuple[int, int]) -> tuple[tuple[int, ...], list[GameWon]]:
        corpses = [[C.PEASANT] * buried[0], [C.PEASANT] * buried[1]]
        table = Table(
            rigged(
                2,
                hands=[[], []],
                annexes={s: [annex(C.COUNT, *corpses[s])] for s in (0, 1)},
                money=[20, 20],
                cheques=[1, 1],
                queue=[1],
            )
        )
        table.state.final_round = True
        table.do(1, Pass())
        result = GAME.result(table.state)
        assert result is not None and result.scores == (30, 30)
        return result.winners, table.of_type(GameWon)

    winners, won = finish((1, 2))
    assert winners == (1,) and not won[0].shared
    winners, won = finish((2, 2))
    assert winners == (0, 1) and all(e.shared for e in won), "still tied: a draw"


# --- solo -------------------------------------------------------------------------------


@pytest.mark.parametrize(("length", "entrance"), [(Length.SHORT, 36), (Length.LONG, 44)])
def test_solo_setup(length: Length, entrance: int) -> None:
    state = GAME.setup(1, BloodyInnOptions(length=length), seed=3)
    assert [(r.open, r.owner) for r in state.rooms[:5]] == [
        (True, 0),
        (True, None),
        (True, None),
        (True, None),
        (False, None),
    ]
    assert state.bistro == 2 and state.box_peasants == 4
    assert state.players[0].hand == [C.PEASANT, C.PEASANT]
    assert len(state.entrance) + 1 == entrance, "one traveller already drawn"
    assert state.first_player == 0 and state.stage is Stage.WELCOME


def test_solo_an_unburied_corpse_at_a_police_investigation_loses_at_once() -> None:
    table = Table(rigged(1, corpses={0: [C.BARON]}, rooms={2: C.MAJOR}, money=[40], queue=[0]))
    table.do(0, Pass())
    assert table.of_type(SoloLost)[0].corpses == 1
    result = GAME.result(table.state)
    assert result is not None and result.winners == ()
    assert table.of_type(WagesPaid) == [], "the game stopped at once"


def test_solo_an_unburied_corpse_at_the_end_loses() -> None:
    table = Table(rigged(1, corpses={0: [C.BARON]}, money=[40], queue=[0]))
    table.state.final_round = True
    table.do(0, Pass())
    assert table.state.solo_lost
    result = GAME.result(table.state)
    assert result is not None and result.winners == ()


def test_solo_long_game_score_and_rank() -> None:
    table = Table(
        rigged(
            1,
            money=[40],
            cheques=[9],
            queue=[0],
            options=BloodyInnOptions(length=Length.LONG),
        )
    )
    table.state.final_round = True
    table.do(0, Pass())
    won = table.of_type(GameWon)[0]
    assert (won.winner, won.score, won.solo_rank) == (0, 130, "dangerous")


# --- variants ------------------------------------------------------------------------------


def test_first_come_first_served_fills_the_rooms_in_order_without_asking() -> None:
    state = GAME.setup(2, BloodyInnOptions(first_come_first_served=True, first_player=1), seed=5)
    assert state.stage is Stage.ACTION and state.queue[0] == 1
    assert [r.guest is not None for r in state.rooms] == [True] * 5 + [False] * 3
    table = Table(rigged(2, entrance=SIX, welcome=True, options=state.options))
    assert [r.guest for r in table.state.rooms[:5]] == SIX[:5]


def test_forty_franc_cap_and_unlimited_wealth_on_room_income() -> None:
    capped = Table(rigged(rooms={1: C.BARON}, hands=[[], [], []], money=[40, 5, 5], queue=[2]))
    capped.do(2, Pass())
    assert capped.money()[0] == 40 and capped.of_type(RoomIncome)[0].lost == 1
    unlimited = Table(
        rigged(
            rooms={1: C.BARON},
            hands=[[], [], []],
            money=[40, 5, 5],
            cheques=[0, 0, 0],
            queue=[2],
            options=BloodyInnOptions(unlimited_wealth=True),
        )
    )
    unlimited.do(2, Pass())
    assert (unlimited.money()[0], unlimited.cheques()[0]) == (1, 4)


# --- laundering, bury split, cancel ----------------------------------------------------------


def test_pass_launders_money_into_cheques_and_back() -> None:
    table = Table(rigged(money=[25, 35, 5], cheques=[1, 2, 0], turn=0))
    assert table.choices(0)[-4:] == (Pass(), Pass(launder=1), Pass(launder=2), Pass(launder=-1))
    assert table.default(0) == Pass()
    table.do(0, Pass(launder=2))
    assert (table.money()[0], table.cheques()[0]) == (5, 3)
    passes = [c for c in table.choices(1) if isinstance(c, Pass)]
    assert passes == [Pass(), Pass(launder=1), Pass(launder=2), Pass(launder=3)], (
        "cashing a cheque at 35 F would pass 40 F: not offered"
    )


def test_burying_under_another_players_annex_splits_the_pocket_money() -> None:
    table = Table(
        rigged(
            corpses={0: [C.COUNT]},
            annexes={1: [annex(C.DISTILLER)]},
            hands=[[C.PEASANT, C.PEASANT], [], []],
            money=[5, 38, 5],
            turn=0,
        )
    )
    table.do(0, BURY, TargetCard(card=C.COUNT), Place(owner=1))
    # two cards due, two in hand: both are played without asking
    assert table.state.bistro == 2
    buried = table.of_type(Buried)[0]
    assert (buried.gained, buried.owner_gained, buried.lost) == (9, 2, 7)
    assert table.money()[:2] == [14, 40]
    assert table.state.players[1].annexes[1].corpses == [C.COUNT]


def test_cancel_puts_everything_back_and_the_player_chooses_again() -> None:
    before = rigged(
        hands=[[C.COUNT, C.BARON, C.MONK, C.PEASANT], [], []], corpses={0: [C.MONK]}, turn=0
    )
    table = Table(before)
    table.do(0, BUILD, TargetCard(card=C.COUNT), Pay(card=C.BARON))
    view = GAME.view(table.state, 1)
    assert view.players[0].hand_size == 2 and view.pending is not None
    assert view.pending.paid_count == 1 and view.paying is None
    assert GAME.view(table.state, 0).paying == [C.BARON]
    table.do(0, Cancel())
    assert table.hand(0) == before.players[0].hand
    assert table.state.stage is Stage.ACTION and table.prompted() == [0]
    assert table.of_type(ActionCancelled)[0].action is ActionKind.BUILD
    table.do(0, BURY, TargetCard(card=C.MONK), Place(owner=0), Cancel())
    assert table.state.players[0].corpses == [C.MONK]
    assert table.conserved()


def test_only_affordable_actions_and_targets_are_offered() -> None:
    table = Table(
        rigged(
            hands=[[C.MAJOR], [], []],
            rooms={1: C.DUKE, 2: C.MONK, 3: C.BARON},
            corpses={0: [C.COUNT]},
            turn=0,
        )
    )
    acts = [c for c in table.choices(0) if isinstance(c, Act)]
    assert acts == [BRIBE, KILL], "no Build (Police), no Bury (rank 2 with one card)"
    table.do(0, BRIBE)
    assert table.choices(0) == (TargetRoom(room=2), TargetRoom(room=3), Cancel())
    assert table.default(0) == TargetRoom(room=3), "timeout: the cheapest target"


# --- illegal choices ----------------------------------------------------------------------


def _rejects(state: BloodyInnState, seat: int, choice: BloodyInnChoice, error: type) -> None:
    snapshot = state.model_dump()
    with pytest.raises(error) as caught:
        GAME.apply(state, seat, choice)
    assert isinstance(caught.value, IllegalChoice)
    assert state.model_dump() == snapshot, "the state is untouched"


def test_illegal_choices_are_rejected_with_typed_errors() -> None:
    state = rigged(hands=[[C.PEASANT], [], []], rooms={1: C.DUKE, 2: C.BARON}, turn=0)
    _rejects(state, 1, Pass(), NotPrompted)
    _rejects(state, 0, Welcome(room=1), NotAllowed)
    _rejects(state, 0, Pass(launder=3), NotAllowed)
    state, _ = GAME.apply(state, 0, BRIBE)
    _rejects(state, 0, TargetRoom(room=1), NotAllowed)  # rank 3, one card
    _rejects(state, 0, TargetRoom(room=5), NotAllowed)  # an empty room
    _rejects(state, 0, TargetPeasants(count=1), NotAllowed)  # the bistro is empty
    state, _ = GAME.apply(state, 0, TargetRoom(room=2))
    assert state.players[0].hand == [C.BARON, C.PEASANT]

    over = rigged(hands=[[], [], []], queue=[2])
    over.final_round = True
    over, _ = GAME.apply(over, 2, Pass())
    _rejects(over, 0, Pass(), GameIsOver)
    with pytest.raises(GameIsOver):
        GAME.forfeit(over, 0)


def test_paying_with_a_card_one_does_not_hold_is_refused() -> None:
    state = rigged(hands=[[C.PEASANT, C.BARON], [], []], rooms={1: C.MONK}, turn=0)
    state, _ = GAME.apply(state, 0, BRIBE)
    state, _ = GAME.apply(state, 0, TargetRoom(room=1))
    _rejects(state, 0, Pay(card=C.COUNT), NotAllowed)


# --- timeouts ----------------------------------------------------------------------------


def test_timeout_defaults() -> None:
    welcome = Table(rigged(entrance=SIX, welcome=True))
    welcome.timeout()
    assert welcome.state.rooms[0].guest is C.BARON, "the next free room in order"

    turn = Table(rigged(money=[25, 5, 5], turn=0))
    turn.timeout()
    assert [(e.seat, e.launder) for e in turn.of_type(Passed)] == [(0, 0)]
    assert turn.prompted() == [1]

    pay = Table(
        rigged(hands=[[C.BARON, C.NEWSBOY, C.PEASANT, C.COUNT], [], []], rooms={1: C.MONK}, turn=0)
    )
    pay.do(0, BRIBE, TargetRoom(room=1))
    assert pay.default(0) == Pay(card=C.NEWSBOY), "a card that comes back first"
    pay.timeout()
    assert pay.hand(0) == [C.NEWSBOY, C.MONK, C.BARON, C.COUNT, C.PEASANT]

    place = Table(rigged(corpses={0: [C.PEASANT]}, turn=0))
    place.do(0, BURY, TargetCard(card=C.PEASANT))
    assert place.default(0) == Place(owner=0)
    place.timeout()
    assert place.state.players[0].annexes[0].corpses == [C.PEASANT]
