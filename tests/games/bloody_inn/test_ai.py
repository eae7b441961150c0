"""The Bloody Inn computer players: what they import, how they play, how well.
(All-computer games and view-only decisions: the conformance suite, tests/games/conformance.)
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.ai import RANDOM, Level, Policy, decision_rng
from games.base import Seat
from games.bloody_inn import GAME, ActionKind, BloodyInnOptions, BloodyInnState, Length
from games.bloody_inn.ai import NORMAL_WEIGHTS, POLICIES, Judge
from games.bloody_inn.models import (
    Act,
    BloodyInnChoice,
    Cancel,
    Dismiss,
    Dismissal,
    Done,
    Pass,
    Pay,
    PayUndertaker,
    Place,
    Stage,
    TargetCard,
    TargetRoom,
    Welcome,
)
from games.registry import policy_for
from tests.games.playouts import hero_share, play_out

from ..ai_imports import assert_view_only
from .conformance import random_options
from .helpers import C, Table, annex, rigged

BRIBE = Act(action=ActionKind.BRIBE)
BUILD = Act(action=ActionKind.BUILD)
KILL = Act(action=ActionKind.KILL)
BURY = Act(action=ActionKind.BURY)
NORMAL = POLICIES[Level.NORMAL]
EASY = POLICIES[Level.EASY]


# --- the policies see only their view ------------------------------------------------


def test_the_policies_import_neither_the_engine_nor_the_state() -> None:
    assert_view_only(
        "bloody_inn",
        {"GAME", "BloodyInn", "BloodyInnState", "PlayerState", "Pending", "copy_state"},
    )


# --- behaviours ------------------------------------------------------------------------


def test_a_computer_player_never_cancels() -> None:
    """Cancel is for people who change their mind: EASY and NORMAL seats asked with a
    choice never take it (a few games of 1 to 4 players, random options)."""
    checked = 0
    for seed in range(8):
        players = 1 + seed % 4
        rng = random.Random(seed)
        levels = [rng.choice([Level.EASY, Level.NORMAL]) for _ in range(players)]
        state = GAME.setup(players, random_options(players, rng), seed)
        while GAME.result(state) is None:
            (seat,) = GAME.awaiting(state)
            view = GAME.view(state, seat)
            choice = policy_for("bloody_inn", levels[seat]).choose(
                view, decision_rng(seed, state.step, seat)
            )
            assert view.prompt is not None
            if len(view.prompt.choices) > 1:
                assert not isinstance(choice, Cancel), "a computer player never cancels"
                checked += 1
            state, _ = GAME.apply(state, seat, choice)
    assert checked > 300


def decide(policy: Policy[Any, Any], state: BloodyInnState, seat: Seat = 0) -> BloodyInnChoice:
    choice: BloodyInnChoice = policy.choose(GAME.view(state, seat), random.Random(1))
    return choice


def play_turn(table: Table, seat: Seat = 0) -> list[BloodyInnChoice]:
    """NORMAL plays one whole action of ``seat`` (every step of it); its choices."""
    choices = [decide(NORMAL, table.state, seat)]
    table.do(seat, choices[0])
    while table.prompted() == [seat] and table.stage() in ONE_ACTION:
        choices.append(decide(NORMAL, table.state, seat))
        table.do(seat, choices[-1])
    return choices


ONE_ACTION = (Stage.TARGET, Stage.PLACE, Stage.PAY, Stage.KEY, Stage.SERVICE)


@pytest.mark.parametrize("police", [True, False])
def test_buries_before_a_police_visit_else_builds_first(police: bool) -> None:
    """Last action of the night, a corpse that only fits under a rival's annex: with
    the police in the inn it is buried now; without, the Marquis comes first."""
    state = rigged(
        hands=[[C.NOVICE, C.MARQUIS, C.PEASANT, C.PEASANT, C.PEASANT], [], []],
        corpses={0: [C.BRIGADIER]},
        annexes={0: [annex(None, C.BARON)]},
        rooms={4: C.PEACEKEEPER if police else C.MONK, 5: C.BARON},
        queue=[0],
    )
    assert decide(NORMAL, state) == (BURY if police else BUILD)


@pytest.mark.parametrize("last_action", [True, False])
def test_kills_only_when_it_can_bury_before_the_police(last_action: bool) -> None:
    """A Baron costs nothing to kill; the police (a Major) stays in the inn. Killed on
    the first action it is buried with the second; on the last one it would be found."""
    state = rigged(
        hands=[[C.NOVICE], [], []],
        rooms={4: C.MAJOR, 5: C.BARON},
        queue=[0] if last_action else None,
    )
    choice = decide(NORMAL, state)
    assert (choice == KILL) is not last_action


def test_kill_then_bury_in_the_same_night() -> None:
    table = Table(rigged(hands=[[C.NOVICE], [], []], rooms={4: C.MAJOR, 5: C.BARON}, turn=0))
    assert play_turn(table)[0] == KILL
    table.do(1, Pass())
    table.do(2, Pass())
    assert play_turn(table)[0] == BURY
    assert table.state.players[0].corpses == []
    assert table.state.players[0].money == 5 + 8


def test_solo_takes_the_police_out_when_its_corpse_cannot_be_buried() -> None:
    """Solo, the Depot is full: a corpse at the police visit loses the game."""
    table = Table(
        rigged(
            1,
            hands=[[C.PEASANT]],
            corpses={0: [C.VISCOUNT]},
            annexes={0: [annex(None, C.BARON)]},
            rooms={2: C.BRIGADIER, 3: C.BARON, 4: C.COUNT},
            queue=[0],
        )
    )
    play_turn(table)
    assert all(room.guest is not C.BRIGADIER for room in table.state.rooms)


def test_pays_with_returning_cards_then_the_cheapest_keeping_the_useful_ones() -> None:
    """Killing a rank-2 guest: the Peacekeeper comes back from a Kill, then the Baron
    goes; the Novice (it pays the Bury and comes back) and the Count are kept. (The
    timeout default would play the Novice: it only looks at ranks.)"""
    hand = [C.PEACEKEEPER, C.NOVICE, C.BARON, C.COUNT]
    table = Table(rigged(hands=[hand, [], []], rooms={4: C.BRIGADIER_CHIEF}))
    table.do(0, KILL, TargetRoom(room=4))
    assert decide(NORMAL, table.state) == Pay(card=C.PEACEKEEPER)
    table.do(0, Pay(card=C.PEACEKEEPER))
    assert table.default(0) == Pay(card=C.NOVICE)
    assert decide(NORMAL, table.state) == Pay(card=C.BARON)
    table.do(0, Pay(card=C.BARON))
    assert sorted(table.hand(0)) == sorted([C.NOVICE, C.PEACEKEEPER, C.COUNT])


def test_a_remembered_pay_plan_is_not_changed_by_its_user() -> None:
    """The judge computes each pay plan once per decision: the hand it returns is the
    caller's to change, the next answer the same as the first."""
    hand = [C.PEACEKEEPER, C.NOVICE, C.BARON, C.COUNT]
    view = GAME.view(rigged(hands=[hand, [], []], rooms={4: C.BRIGADIER_CHIEF}), 0)
    judge = Judge(view, NORMAL_WEIGHTS)
    smaller = hand[1:]
    first_loss, first_left = judge.pay_plan(2, ActionKind.KILL, smaller)
    kept = list(first_left)
    first_left.clear()
    assert judge.pay_plan(2, ActionKind.KILL, smaller) == (first_loss, kept)
    assert judge.hand_value(kept) == Judge(view, NORMAL_WEIGHTS).hand_value(kept)
    assert kept == [C.COUNT], "the two cheapest pay a Kill"


def test_takes_the_workshop_discount() -> None:
    table = Table(rigged(hands=[[C.VISCOUNT, C.PEASANT], [], []], annexes={0: [annex(C.MECHANIC)]}))
    table.do(0, BUILD, TargetCard(card=C.VISCOUNT))
    assert table.stage() is Stage.PAY
    assert decide(NORMAL, table.state) == Done()


@pytest.mark.parametrize("final_round", [False, True])
def test_hires_accomplices_early_not_at_the_end(final_round: bool) -> None:
    """A free Novice in the inn: worth its wages early, only wages in the last round."""
    state = rigged(hands=[[], [], []], rooms={4: C.NOVICE}, queue=[0] if final_round else None)
    state.final_round = final_round
    choice = decide(NORMAL, state)
    assert (choice == BRIBE) is not final_round
    if final_round:
        assert isinstance(choice, Pass)


@pytest.mark.parametrize(
    ("final_round", "first"), [(False, BUILD), (True, BURY)], ids=["early", "last"]
)
def test_builds_an_annex_early_for_its_effect_not_in_the_last_round(
    final_round: bool, first: Act
) -> None:
    """Early, the Gardens (+2 F every round, room for 3 corpses) are built before the
    Baron's corpse is buried (the second action will do); in the last round they
    would bring a few francs only: the corpse comes first."""
    state = rigged(
        hands=[[C.GARDENER, C.PEASANT, C.PEASANT, C.PEASANT], [], []],
        corpses={0: [C.BARON]},
        rooms={4: C.MONK},
    )
    state.final_round = final_round
    assert decide(NORMAL, state) == first


def test_launders_money_at_the_cap_and_keeps_the_wages() -> None:
    state = rigged(hands=[[C.PEASANT, C.PEASANT], [], []], money=[40, 5, 5], queue=[0])
    choice = decide(NORMAL, state)
    assert isinstance(choice, Pass) and choice.launder >= 1
    assert 40 - 10 * choice.launder >= 2


@pytest.mark.parametrize(("service", "room"), [(0, 5), (1, 1)])
def test_welcomes_a_rich_guest_into_its_own_rooms(service: Seat, room: int) -> None:
    """A Duke pays 3 F to the room-service token of its room: into mine, else my key's room."""
    state = rigged(
        welcome=True,
        service={5: service},
        entrance=[C.DUKE, C.BARON, C.MONK, C.NOVICE, C.ABBOT, C.COUNT],
    )
    assert state.drawn is C.DUKE
    assert decide(NORMAL, state) == Welcome(room=room)


def test_buries_under_its_own_annex_else_the_poorest_rival() -> None:
    own = Table(
        rigged(
            hands=[[C.NOVICE], [], []],
            corpses={0: [C.BRIGADIER]},
            annexes={0: [annex(None, C.BARON), annex(C.VISCOUNT)]},
        )
    )
    own.do(0, BURY, TargetCard(card=C.BRIGADIER))
    assert decide(NORMAL, own.state) == Place(owner=0)
    rivals = Table(
        rigged(
            hands=[[C.NOVICE], [], []],
            corpses={0: [C.BRIGADIER]},
            annexes={0: [annex(None, C.BARON)]},
            money=[5, 30, 5],
            cheques=[1, 1, 0],
        )
    )
    rivals.do(0, BURY, TargetCard(card=C.BRIGADIER))
    assert decide(NORMAL, rivals.state) == Place(owner=2)


def test_dismisses_the_least_useful_accomplice() -> None:
    """Unpaid wages: the Baron leaves first (a plain payer, a small annex), not the
    Novice the timeout default would dismiss (the lowest rank first)."""
    hand = [C.NOVICE, C.BARON, C.COUNT]
    table = Table(rigged(hands=[hand, [], []], money=[1, 5, 5], queue=[2]))
    table.do(2, Pass())
    assert table.state.dismissals == [Dismissal(seat=0, count=2)]
    assert table.default(0) == Dismiss(card=C.NOVICE)
    assert decide(NORMAL, table.state) == Dismiss(card=C.BARON)


# --- paying the undertaker ---------------------------------------------------------------


def owes_the_undertaker(
    hand: list[C], money: int, cheques: int, *, greenhouse: bool = False, final: bool = False
) -> BloodyInnState:
    """The police (room 4) find seat 0's corpse; seat 0 owns room 1, occupied."""
    state = rigged(
        hands=[hand, [], []],
        rooms={1: C.MONK, 4: C.PEACEKEEPER},
        annexes={0: [annex(C.PRINCE)]} if greenhouse else None,
        corpses={0: [C.BARON]},
        money=[money, 5, 5],
        cheques=[cheques, 0, 0],
        queue=[2],
    )
    state.final_round = final
    state, _ = GAME.apply(state, 2, Pass())
    assert state.stage is Stage.UNDERTAKER and GAME.awaiting(state) == [0]
    return state


CASH, ONE_CHEQUE = PayUndertaker(cheques=0), PayUndertaker(cheques=1)


@pytest.mark.parametrize("level", [Level.EASY, Level.NORMAL])
def test_at_forty_francs_it_pays_cash_rather_than_lose_the_rooms_franc(level: Level) -> None:
    """The cheque would keep 40 F on the track, and the room's franc would be lost."""
    assert decide(POLICIES[level], owes_the_undertaker([], 40, 1)) == CASH


@pytest.mark.parametrize("level", [Level.EASY, Level.NORMAL])
def test_a_greenhouse_owner_keeps_its_cheques(level: Level) -> None:
    assert decide(POLICIES[level], owes_the_undertaker([], 25, 2, greenhouse=True)) == CASH


@pytest.mark.parametrize("level", [Level.EASY, Level.NORMAL])
def test_it_pays_by_cheque_when_the_cash_must_pay_the_wages(level: Level) -> None:
    """10 F on the track and three accomplices: cash would leave nothing for the
    wages, and all three would leave."""
    state = owes_the_undertaker([C.MONK, C.ABBOT, C.NOVICE], 10, 1)
    assert GAME.prompts(state)[0].default == CASH
    assert decide(POLICIES[level], state) == ONE_CHEQUE


def test_normal_lets_accomplices_go_unpaid_in_the_final_round() -> None:
    """In the final round an accomplice is worth nothing once the wages are due:
    cash keeps the cheque (10 F), the cheque would leave 10 F - 3 F of wages."""
    state = owes_the_undertaker([C.MONK, C.ABBOT, C.NOVICE], 10, 1, final=True)
    assert decide(NORMAL, state) == CASH
    assert decide(EASY, state) == ONE_CHEQUE, "EASY only counts the wages"


# --- strength -------------------------------------------------------------------------


def _wins(lineup: list[Policy[Any, Any]], hero: Policy[Any, Any], games: int, base: int) -> float:
    """The hero's share of wins (draws split) against the lineup, rotating its seat."""
    (others,) = set(lineup)
    return hero_share(GAME, hero, others, len(lineup) + 1, games, base)


@pytest.mark.slow
def test_normal_beats_random_and_easy_clearly() -> None:
    """30 games per line, fixed seeds (fair share 1/4 at 4 players, 1/2 at 2). Measured
    on exactly these games: NORMAL 1.0 against 3 RANDOM and against 1 RANDOM, 0.9
    against 3 EASY (an EASY seat there: 0.22), EASY 0.875 against 3 RANDOM; every
    bound is 4 binomial sd or more below."""
    games = 30
    assert _wins([RANDOM] * 3, NORMAL, games, 7_000) >= 0.85
    assert _wins([RANDOM], NORMAL, games, 8_000) >= 0.85
    against_easy = _wins([EASY] * 3, NORMAL, games, 9_000)
    easy_among_easy = _wins([EASY] * 3, EASY, games, 9_000)
    assert against_easy >= 0.6 and against_easy > easy_among_easy + 0.3
    assert _wins([RANDOM] * 3, EASY, games, 7_000) >= 0.6


@pytest.mark.slow
def test_normal_never_loses_a_solo_game() -> None:
    for seed in range(40):
        options = BloodyInnOptions(length=Length.LONG if seed % 2 else Length.SHORT)
        result = play_out(GAME, [NORMAL], 10_000 + seed, options).result
        assert result.winners == (0,), f"seed {10_000 + seed}"
