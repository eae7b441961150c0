"""The deck table, setup by player count and length, options, views (hidden hands)
and the removal of a player by a moderator."""

from collections import Counter

import pytest

from bot.ui.codec import choice_models, decode, encode
from games.base import InvalidOptions, NotPrompted
from games.bloody_inn import GAME, ActionKind, BloodyInnOptions, GuestType, Length
from games.bloody_inn.cards import DECK_SIZE, SPECS, spec, travellers
from games.bloody_inn.models import (
    Act,
    BloodyInnChoice,
    Cancel,
    Done,
    GameWon,
    Pass,
    Pay,
    PayUndertaker,
    Place,
    PlayerRemoved,
    Stage,
    TargetCard,
    TargetRoom,
    TurnStarted,
    Welcome,
)
from games.bloody_inn.prompts import _ACT, _DISMISS, _KEY, _PASS, _PAY, _SERVICE, _WELCOME
from games.bloody_inn.targets import _CARD, _PEASANTS, _ROOM
from tests.games.bloody_inn.helpers import full_deck

from .helpers import C, Table, annex, card_count, rigged

# --- the deck table ---------------------------------------------------------------------


def test_the_deck_table_has_78_cards_14_per_traveller_type_and_8_peasants() -> None:
    assert sum(full_deck().values()) == DECK_SIZE == 78
    per_type = Counter[GuestType]()
    for s in SPECS.values():
        per_type[s.type] += s.copies
    assert per_type == {t: 14 for t in GuestType if t is not GuestType.PEASANT} | {
        GuestType.PEASANT: 8
    }
    assert len(travellers()) == 70


def test_pocket_money_aptitudes_and_buildable_cards() -> None:
    for s in SPECS.values():
        expected = 4 if s.type is GuestType.PEASANT else (8, 12, 18, 26)[s.rank]
        assert s.pocket == expected, s.card
        assert s.buildable == (s.type not in (GuestType.POLICE, GuestType.PEASANT))
    aptitudes = {s.type: s.aptitude for s in SPECS.values()}
    assert aptitudes == {
        GuestType.MERCHANT: ActionKind.BRIBE,
        GuestType.ARTISAN: ActionKind.BUILD,
        GuestType.RELIGIOUS: ActionKind.BURY,
        GuestType.POLICE: ActionKind.KILL,
        GuestType.NOBLE: None,
        GuestType.PEASANT: None,
    }
    assert spec(C.MARQUIS).build_gain == 18 and spec(C.GARDENER).capacity == 3


# --- setup ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "length", "removed", "open_rooms"),
    [
        (1, Length.SHORT, 34, 4),
        (1, Length.LONG, 26, 4),
        (2, Length.SHORT, 35, 5),
        (2, Length.LONG, 25, 5),
        (3, Length.SHORT, 28, 6),
        (3, Length.LONG, 16, 6),
        (4, Length.SHORT, 22, 8),
        (4, Length.LONG, 6, 8),
    ],
)
def test_setup_by_player_count_and_length(
    players: int, length: Length, removed: int, open_rooms: int
) -> None:
    state = GAME.setup(players, BloodyInnOptions(length=length, first_player=0), seed=11)
    assert len(state.box_unseen) == removed
    assert len(state.entrance) + 1 == 70 - removed, "one traveller is drawn for the Evening"
    assert sum(r.open for r in state.rooms) == open_rooms
    assert [r.owner for r in state.rooms[:players]] == list(range(players))
    assert all(r.owner is None for r in state.rooms[players:])
    assert all(p.money == 5 and p.cheques == 1 for p in state.players)
    assert all(p.hand == [C.PEASANT, C.PEASANT] for p in state.players)
    assert [a.card for a in state.players[0].annexes] == [None], "the Depot"
    assert card_count(state) == full_deck()
    assert state.stage is Stage.WELCOME and state.round == 1 and state.season == 1


def test_first_player_option_and_random_start() -> None:
    assert GAME.setup(4, BloodyInnOptions(first_player=2), seed=1).first_player == 2
    starts = {GAME.setup(4, BloodyInnOptions(), seed=s).first_player for s in range(40)}
    assert starts == {0, 1, 2, 3}, "RULING: a new table starts with a random player"
    with pytest.raises(InvalidOptions, match="no seat 3"):
        GAME.setup(3, BloodyInnOptions(first_player=3), seed=1)


def test_unknown_option_is_refused() -> None:
    with pytest.raises(ValueError, match="extra"):
        BloodyInnOptions.model_validate({"length": "short", "colour": "red"})


# --- choices fit a button ------------------------------------------------------------------


def test_every_possible_choice_round_trips_through_a_short_button_code() -> None:
    models = choice_models(GAME.choice_types)
    every: list[BloodyInnChoice] = [
        *_WELCOME.values(),
        *_ACT.values(),
        *_PASS.values(),
        *_ROOM.values(),
        *_PEASANTS.values(),
        *_CARD.values(),
        *_PAY.values(),
        *_DISMISS.values(),
        *_KEY.values(),
        *_SERVICE.values(),
        *(Place(owner=s) for s in range(4)),
        *(PayUndertaker(cheques=k) for k in range(12)),
        Done(),
        Cancel(),
    ]
    assert {type(c) for c in every} == set(GAME.choice_types)
    for choice in every:
        code = encode(choice)
        assert len(code) < 80
        assert decode(code, GAME.choice_adapter, models) == choice


# --- views -------------------------------------------------------------------------------------


def test_hands_are_secret_their_size_public() -> None:
    state = rigged(hands=[[C.COUNT, C.MONK], [C.BARON], []], turn=0)
    mine = GAME.view(state, 0)
    assert mine.players[0].hand == [C.MONK, C.COUNT]
    assert mine.players[1].hand is None and mine.players[1].hand_size == 1
    spectator = GAME.view(state, None)
    assert all(p.hand is None for p in spectator.players)
    assert spectator.prompt is None and spectator.viewer is None
    assert mine.prompt is not None and GAME.view(state, 1).prompt is None
    assert mine.awaiting == [0] and mine.turn == 0 and mine.action_round == 1


def test_public_table_in_the_view() -> None:
    state = rigged(
        rooms={1: C.BARON},
        corpses={1: [C.MONK]},
        annexes={2: [annex(C.COUNT, C.PEASANT)]},
        exit_stack=[C.MAJOR],
        bistro=2,
        turn=0,
    )
    view = GAME.view(state, None)
    assert view.rooms[0].guest is C.BARON and view.rooms[0].owner == 0
    assert view.players[1].corpses == [C.MONK]
    assert view.players[2].annexes[1].card is C.COUNT
    assert view.players[2].annexes[1].corpses == [C.PEASANT]
    assert view.exit == [C.MAJOR] and view.bistro == 2
    assert view.entrance_top == state.entrance[-1]
    assert view.entrance_size == len(state.entrance)
    assert view.box_unseen == 0


# --- a moderator removes a player -------------------------------------------------------------


def test_removing_the_player_whose_turn_it_is() -> None:
    table = Table(
        rigged(
            hands=[[C.COUNT, C.PEASANT, C.BARON, C.MONK], [], []],
            corpses={0: [C.NOVICE]},
            service={4: 0},
            turn=0,
        )
    )
    table.do(0, Act(action=ActionKind.BUILD), TargetCard(card=C.COUNT))
    events = table.forfeit(0)
    assert isinstance(events[0], PlayerRemoved)
    assert not table.state.players[0].active
    assert table.state.exit == [C.MONK, C.BARON, C.COUNT] and table.state.bistro == 1
    assert table.state.box == [C.NOVICE]
    assert table.state.rooms[0].owner is None, "its key turns white"
    assert table.state.rooms[3].service is None
    assert table.prompted() == [1]
    assert [e.seat for e in table.of_type(TurnStarted)] == [1]
    assert table.conserved()
    for seat in (1, 2, 1, 2):
        table.do(seat, Pass())
    assert table.state.stage is Stage.WELCOME and table.state.first_player == 1
    with pytest.raises(NotPrompted):
        GAME.forfeit(table.state, 0)


def test_removal_cancels_an_action_being_prepared_by_another_player() -> None:
    table = Table(
        rigged(
            hands=[[], [C.BARON, C.NOVICE, C.PEASANT], []],
            corpses={1: [C.COUNT]},
            annexes={0: [annex(C.GARDENER)]},
            turn=1,
        )
    )
    table.do(1, Act(action=ActionKind.BURY), TargetCard(card=C.COUNT), Place(owner=0))
    table.do(1, Pay(card=C.BARON))
    table.forfeit(0)
    assert table.state.stage is Stage.ACTION and table.prompted() == [1]
    assert table.hand(1) == [C.NOVICE, C.BARON, C.PEASANT]
    assert table.state.players[1].corpses == [C.COUNT]
    table.do(1, Act(action=ActionKind.BURY), TargetCard(card=C.COUNT))
    assert Place(owner=0) not in table.choices(1), "a removed player's annexes take no more"


def test_removing_the_first_player_while_welcoming() -> None:
    table = Table(
        rigged(
            entrance=[C.BARON, C.MONK, C.COUNT, C.NOVICE, C.ABBOT, C.DUKE, C.MAJOR], welcome=True
        )
    )
    table.do(0, Welcome(room=2))
    table.forfeit(0)
    assert table.state.first_player == 1 and table.prompted() == [1]
    assert table.state.drawn is C.MONK
    table.do(1, Welcome(room=1))
    assert table.state.rooms[0].guest is C.MONK


def test_down_to_one_player_that_player_wins() -> None:
    table = Table(rigged(money=[5, 30, 20], turn=1))
    table.forfeit(1)
    assert GAME.result(table.state) is None
    table.forfeit(0)
    result = GAME.result(table.state)
    assert result is not None and result.winners == (2,)
    assert table.of_type(GameWon)[0].winner == 2


def test_removing_the_solo_player_ends_the_game_without_a_winner() -> None:
    table = Table(rigged(1, turn=0))
    table.forfeit(0)
    result = GAME.result(table.state)
    assert result is not None and result.winners == ()


def test_removed_players_rooms_pay_nobody_and_it_gets_no_turn() -> None:
    table = Table(rigged(rooms={2: C.BARON}, hands=[[], [], []], turn=0))
    table.forfeit(1)
    seen = []
    while table.state.stage is not Stage.WELCOME:
        seat = table.prompted()[0]
        seen.append(seat)
        table.do(seat, Pass())
    assert seen == [0, 2, 0, 2]
    assert table.money()[1] == 5, "its (now white) room paid nobody"


def test_the_prompt_of_the_view_only_offers_legal_choices() -> None:
    state = rigged(hands=[[C.PEASANT], [], []], rooms={1: C.DUKE, 2: C.BARON}, turn=0)
    state, _ = GAME.apply(state, 0, Act(action=ActionKind.BRIBE))
    view = GAME.view(state, 0)
    assert view.prompt is not None
    assert view.prompt.choices == (TargetRoom(room=2), Cancel())
    assert view.pending is not None and view.pending.action is ActionKind.BRIBE
