"""Setup, views (nothing but the decks' order is hidden), choice codes and removal
of a player by a moderator."""

import random
from collections import Counter

import pytest

from bot.ui.codec import choice_models, decode, encode
from games.base import InvalidOptions, NotPrompted, copy_state
from games.conspiracy import GAME, Colour, ConspiracyOptions, LocationId
from games.conspiracy.cards import LORDS
from games.conspiracy.models import (
    ConspiracyState,
    GameWon,
    KeepLord,
    LordsDiscarded,
    PearlMasterTaken,
    PlaceNext,
    PlayerRemoved,
    RestrictionEnded,
    RevealLocations,
    RevealLords,
    SkipSwap,
    Stage,
    SwapPick,
    TakeLocation,
    TakePile,
)

from .helpers import FOURTEEN_LORDS, Table, check_conservation, rigged

L = LocationId


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup(players: int) -> None:
    state = GAME.setup(players, ConspiracyOptions(), seed=players)
    assert len(state.deck) == 60 and len(state.face_up) == 1
    assert len(state.location_deck) == 23
    assert all(p.lords == [] and p.pearls == 0 for p in state.players)
    assert state.stage is Stage.RECRUIT and state.pearl_master is None
    check_conservation(state)
    colours = Counter(LORDS[lord].colour for lord in state.deck)
    assert colours == dict.fromkeys(Colour, 12)


def test_first_player_option_and_random_start() -> None:
    assert GAME.setup(4, ConspiracyOptions(first_player=2), seed=1).turn == 2
    starts = {GAME.setup(4, ConspiracyOptions(), seed=s).turn for s in range(40)}
    assert starts == {0, 1, 2, 3}
    with pytest.raises(InvalidOptions, match="no seat 4"):
        GAME.setup(4, ConspiracyOptions(first_player=4), seed=1)
    with pytest.raises(InvalidOptions):
        GAME.setup(2, ConspiracyOptions(first_player=-1), seed=1)


# --- views -------------------------------------------------------------------------


def test_only_the_active_player_sees_a_prompt() -> None:
    state = rigged([[], [], []], turn=1)
    assert GAME.view(state, None).prompt is None
    assert GAME.view(state, 0).prompt is None
    own = GAME.view(state, 1).prompt
    assert own is not None and own == GAME.prompt_for(state, 1)
    assert GAME.view(state, None).awaiting == [1]


def scramble_decks(state: ConspiracyState, seed: int) -> ConspiracyState:
    copy = copy_state(state)
    rng = random.Random(seed)
    rng.shuffle(copy.deck)
    rng.shuffle(copy.location_deck)
    return copy


def test_views_do_not_depend_on_the_order_of_the_decks() -> None:
    state = rigged(
        [["r1"], []],
        keys=[(1, 0), (0, 0)],
        owned=[[(L.WHOLE_DECK, 1)], []],
        deck_top=["g1"],
    )
    table = Table(state)
    table.do(0, RevealLords(count=1))
    assert table.state.stage is Stage.LOCATION
    for viewer in (None, 0, 1):
        view = GAME.view(table.state, viewer)
        for seed in range(5):
            assert GAME.view(scramble_decks(table.state, seed), viewer) == view


def test_view_shows_chambers_piles_and_scores() -> None:
    state = rigged(
        [["r1", "r3"], ["b4"]],
        owned=[[(L.POINTS_7, 1)], []],
        piles={Colour.GREEN: ["g2", "g0"]},
        pearls=[2, 1],
        pearl_master=0,
    )
    view = GAME.view(state, 1)
    me = view.players[0]
    assert [(p.place, p.colour, p.influence, p.location) for p in me.chamber] == [
        (1, Colour.RED, 1, L.POINTS_7),
        (2, Colour.RED, 3, None),
    ]
    assert me.chamber[0].key is not None and me.pearl_master
    assert [(f.colour, f.influence) for f in view.piles[Colour.GREEN]] == [
        (Colour.GREEN, 2),
        (Colour.GREEN, 0),
    ]
    assert view.deck_size == len(state.deck)
    # 3 (best red) + 7 + 6 (two reds) + 5 (Pearl Master)
    assert view.scores[0].total == 21
    assert view.winners == []


def test_every_choice_has_a_short_code_that_decodes_back() -> None:
    models = choice_models(GAME.choice_types)
    samples = [
        RevealLords(count=3),
        TakePile(colour=Colour.PURPLE),
        KeepLord(colour=Colour.YELLOW, influence=6),
        PlaceNext(colour=Colour.GREEN, influence=0),
        TakeLocation(location=L.RECALL_LOCATIONS),
        RevealLocations(count=2),
        SwapPick(place=15),
        SkipSwap(),
    ]
    for choice in samples:
        code = encode(choice)
        assert len(code) < 40
        assert decode(code, GAME.choice_adapter, models) == choice
    assert {type(c) for c in samples} == set(GAME.choice_types)


# --- removal of a player ----------------------------------------------------------------


def test_removing_a_waiting_player_keeps_the_moment() -> None:
    table = Table(rigged([[], [], ["r4"]], turn=0))
    window = GAME.prompts(table.state)[0].window
    table.forfeit(1)
    assert GAME.prompts(table.state)[0].window == window
    table.do(0, RevealLords(count=1))
    assert table.state.turn == 2, "the removed seat takes no turn"
    check_conservation(table.state)


def test_removing_the_active_player_puts_back_what_it_was_taking() -> None:
    table = Table(rigged([[], [], []], deck_top=["g1", "r3", "b4"]))
    table.do(0, RevealLords(count=3))
    table.forfeit(0)
    assert table.of_type(PlayerRemoved)[0].seat == 0
    assert table.pile(Colour.GREEN) == ["g1"] and table.pile(Colour.RED) == ["r3"]
    assert table.state.turn == 1 and table.state.stage is Stage.RECRUIT
    check_conservation(table.state)


def test_removing_the_active_player_mid_placement() -> None:
    table = Table(rigged([[], []], piles={Colour.BLUE: ["b3", "b4", "b0"]}))
    table.do(0, TakePile(colour=Colour.BLUE))
    table.do(0, PlaceNext(colour=Colour.BLUE, influence=4))
    table.forfeit(0)
    assert table.chamber(0) == ["b4"], "what was placed stays"
    assert table.pile(Colour.BLUE) == ["b3", "b0"]
    assert table.of_type(LordsDiscarded)[-1].seat == 0
    assert table.state.stage is Stage.OVER
    assert table.state.winners == [1]
    assert [e.winner for e in table.of_type(GameWon)] == [1]


def test_removing_the_active_player_while_it_keeps_a_location() -> None:
    state = rigged(
        [["r1"], [], []],
        keys=[(1, 0), (0, 0), (0, 0)],
        deck_top=["b1"],
        location_top=[L.POINTS_7, L.PEARL_1],
    )
    table = Table(state)
    table.do(0, RevealLords(count=1))
    table.do(0, RevealLocations(count=2))
    face_up = list(table.state.face_up)
    table.forfeit(0)
    assert table.state.face_up == [*face_up, L.POINTS_7, L.PEARL_1]
    assert table.state.turn == 1
    check_conservation(table.state)


def test_removed_pearl_master_passes_the_token_to_the_most_pearls() -> None:
    table = Table(rigged([[], [], [], []], pearls=[5, 3, 1, 3], pearl_master=0, turn=1))
    table.forfeit(0)
    assert table.state.pearl_master == 1, "tie of 3: the first clockwise after the seat"
    assert table.of_type(PearlMasterTaken)[0].victim == 0
    table = Table(rigged([[], [], []], pearls=[5, 0, 0], pearl_master=0, turn=1))
    table.forfeit(0)
    assert table.state.pearl_master is None


def test_removed_owner_ends_its_recruiting_limit() -> None:
    table = Table(rigged([[], [], []], restrictions=[(0, L.TOP_LORD)], turn=1))
    table.forfeit(0)
    assert table.of_type(RestrictionEnded)[0].location is L.TOP_LORD
    assert len(table.choices(1)) > 1


def test_removal_in_the_final_round() -> None:
    table = Table(rigged([FOURTEEN_LORDS, [], [], []]))
    table.do(0, RevealLords(count=1))
    assert table.state.last_turns == [2, 3]
    table.forfeit(2)
    assert table.state.last_turns == [3]
    table.forfeit(0)  # the player who ended it: the others still finish
    table.do(1, RevealLords(count=1))
    table.do(3, RevealLords(count=1))
    assert table.state.stage is Stage.OVER
    assert set(table.state.winners) <= {1, 3}


def test_removing_down_to_one_player_ends_the_game() -> None:
    table = Table(rigged([[], [], []]))
    table.forfeit(2)
    table.forfeit(0)
    result = GAME.result(table.state)
    assert result is not None and result.winners == (1,)
    assert GAME.prompts(table.state) == []


def test_a_removed_player_cannot_be_removed_again() -> None:
    table = Table(rigged([[], [], []]))
    table.forfeit(1)
    with pytest.raises(NotPrompted):
        GAME.forfeit(table.state, 1)
    with pytest.raises(NotPrompted):
        GAME.forfeit(table.state, 7)
