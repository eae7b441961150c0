"""Scenario tests on every rule and edge of a Conspiracy turn."""

import pytest

from games.base import GameIsOver, IllegalChoice, NotAllowed, NotPrompted
from games.conspiracy import GAME, Colour, LocationId
from games.conspiracy.models import (
    FinalRound,
    KeepLord,
    KeysSpent,
    LocationsLeftFaceUp,
    LocationsRecalled,
    LocationTaken,
    LordPlaced,
    LordsRecalled,
    LordsSwapped,
    PearlMasterTaken,
    PearlsGained,
    PlaceNext,
    RestrictionEnded,
    RestrictionStarted,
    RevealLocations,
    RevealLords,
    SkipSwap,
    Stage,
    SwapPick,
    SwapSkipped,
    TakeLocation,
    TakePile,
    TopLordDiscarded,
    TurnStarted,
)

from .helpers import FOURTEEN_LORDS, Table, codes, rigged

R, G, B, Y, P = Colour.RED, Colour.GREEN, Colour.BLUE, Colour.YELLOW, Colour.PURPLE
L = LocationId
FOURTEEN = FOURTEEN_LORDS


# --- recruiting ------------------------------------------------------------------


def test_recruit_reveal_one_to_three_or_any_nonempty_pile() -> None:
    table = Table(rigged([[], []], piles={G: ["g1"], P: ["p3", "p4"]}))
    assert table.choices(0) == (
        RevealLords(count=1),
        RevealLords(count=2),
        RevealLords(count=3),
        TakePile(colour=G),
        TakePile(colour=P),
    )
    assert table.prompted() == [0]
    assert GAME.prompt_for(table.state, 1) is None


def test_reveal_is_limited_by_the_deck() -> None:
    table = Table(rigged([[], []], deck_top=["g1", "r4"], deck_rest=False))
    assert [c for c in table.choices(0) if isinstance(c, RevealLords)] == [
        RevealLords(count=1),
        RevealLords(count=2),
    ]


def test_empty_deck_only_piles_and_the_default_is_the_smallest_pile() -> None:
    table = Table(rigged([[], []], deck_rest=False))
    choices = table.choices(0)
    assert all(isinstance(c, TakePile) for c in choices) and len(choices) == 5
    state = table.state
    state.piles[Y].append(state.piles[R].pop())  # yellow 13, red 11, others 12
    assert table.default() == TakePile(colour=R)


def test_reveal_one_keeps_it_without_asking() -> None:
    table = Table(rigged([[], []], deck_top=["b4"]))
    table.do(0, RevealLords(count=1))
    assert table.chamber(0) == ["b4"]
    assert table.state.turn == 1


def test_identical_revealed_lords_are_one_choice() -> None:
    table = Table(rigged([[], []], deck_top=["g1", "g1", "r6"]))
    table.do(0, RevealLords(count=3))
    assert table.choices(0) == (
        KeepLord(colour=G, influence=1),
        KeepLord(colour=R, influence=6),
    )
    table.do(0, KeepLord(colour=G, influence=1))
    assert table.pile(G) == ["g1"] and table.pile(R) == ["r6"]


def test_top_lord_location_limits_every_opponent_until_its_owner_next_turn() -> None:
    """Seat 0 takes Location 9: seats 1 and 2 may only recruit the top Lord; at
    seat 0's next turn the limit ends, and it never limited seat 0."""
    state = rigged(
        [["y1"], [], []],
        keys=[(1, 0), (0, 0), (0, 0)],
        deck_top=["g1", "b3", "b4", "p3"],
        face_up=[L.TOP_LORD],
        piles={R: ["r3"]},
    )
    table = Table(state)
    table.do(0, RevealLords(count=1))
    table.do(0, TakeLocation(location=L.TOP_LORD))
    assert table.of_type(RestrictionStarted)[0].location is L.TOP_LORD
    assert table.choices(1) == (RevealLords(count=1),)
    assert GAME.view(table.state, None).recruit_limit is L.TOP_LORD
    table.do(1, RevealLords(count=1))
    assert table.choices(2) == (RevealLords(count=1),)
    table.do(2, RevealLords(count=1))
    assert table.of_type(RestrictionEnded)[0].seat == 0
    assert TakePile(colour=R) in table.choices(0)
    assert table.state.restrictions == []


def test_reveal_two_location_forces_revealing_exactly_two() -> None:
    state = rigged([[], []], restrictions=[(0, L.REVEAL_TWO)], turn=1, piles={R: ["r3"]})
    table = Table(state)
    assert table.choices(1) == (RevealLords(count=2),)
    assert table.default() == RevealLords(count=2)
    table.do(1, RevealLords(count=2))
    assert table.state.stage is Stage.KEEP


def test_reveal_two_with_one_lord_left_reveals_it() -> None:
    state = rigged(
        [[], []], restrictions=[(0, L.REVEAL_TWO)], turn=1, deck_top=["r3"], deck_rest=False
    )
    assert Table(state).choices(1) == (RevealLords(count=1),)


def test_the_most_recent_limit_wins_when_two_apply() -> None:
    """RULING: Location 9 of seat 0 then Location 10 of seat 1: seat 2 reveals 2."""
    state = rigged([[], [], []], restrictions=[(0, L.TOP_LORD), (1, L.REVEAL_TWO)], turn=2)
    assert Table(state).choices(2) == (RevealLords(count=2),)
    state = rigged([[], [], []], restrictions=[(1, L.REVEAL_TWO), (0, L.TOP_LORD)], turn=2)
    assert Table(state).choices(2) == (RevealLords(count=1),)


def test_a_limit_is_lifted_when_the_deck_is_empty() -> None:
    state = rigged([[], []], restrictions=[(0, L.TOP_LORD)], turn=1, deck_rest=False)
    table = Table(state)
    assert all(isinstance(c, TakePile) for c in table.choices(1))
    assert GAME.view(state, 1).recruit_limit is None


# --- placing -----------------------------------------------------------------------


def test_order_is_asked_only_while_the_lords_differ() -> None:
    table = Table(rigged([[], []], piles={B: ["b1", "b3", "b1", "b4"]}))
    table.do(0, TakePile(colour=B))
    assert table.choices(0) == (
        PlaceNext(colour=B, influence=1),
        PlaceNext(colour=B, influence=3),
        PlaceNext(colour=B, influence=4),
    )
    assert table.default() == PlaceNext(colour=B, influence=1), "as drawn: the pile's order"
    table.do(0, PlaceNext(colour=B, influence=3))
    table.do(0, PlaceNext(colour=B, influence=4))
    # two b1 left: alike, both placed without asking; the second makes a silver pair
    assert table.chamber(0) == ["b3", "b4", "b1", "b1"]
    assert table.state.stage is Stage.LOCATION


def test_influence_six_discards_the_top_lord_of_the_deck() -> None:
    table = Table(rigged([[], []], deck_top=["p6", "g4"]))
    table.do(0, RevealLords(count=1))
    event = table.of_type(TopLordDiscarded)[0]
    assert (event.colour, event.influence) == (G, 4)
    assert table.pile(G) == ["g4"]


def test_influence_six_with_an_empty_deck_does_nothing() -> None:
    table = Table(rigged([[], []], deck_rest=False))  # every Lord is in a pile
    table.do(0, TakePile(colour=P))
    table.do(0, PlaceNext(colour=P, influence=6))
    assert table.chamber(0) == ["p6"] and table.of_type(TopLordDiscarded) == []


def test_pearl_lords_and_the_pearl_master() -> None:
    """The first player with pearls takes the token from nobody; a holder gaining
    keeps it; passing takes it; staying below does not."""
    table = Table(rigged([[], [], []], deck_top=["r4", "g3", "b4", "y3"]))
    table.do(0, RevealLords(count=1))
    assert table.state.pearl_master == 0
    assert table.of_type(PearlMasterTaken)[0].victim is None
    table.do(1, RevealLords(count=1))  # 2 pearls > 1
    assert table.state.pearl_master == 1
    table.do(2, RevealLords(count=1))  # 1 pearl < 2
    assert table.state.pearl_master == 1
    table.do(0, RevealLords(count=1))  # 1 + 2 = 3 > 2
    assert table.state.pearl_master == 0
    assert [e.total for e in table.of_type(PearlsGained)] == [1, 2, 1, 3]
    assert len(table.of_type(PearlMasterTaken)) == 3


def test_pearl_master_holder_gaining_is_not_a_new_take() -> None:
    table = Table(rigged([[], []], pearl_master=0, pearls=[2, 0], deck_top=["r4"]))
    table.do(0, RevealLords(count=1))
    assert table.state.pearl_master == 0 and table.of_type(PearlMasterTaken) == []


# --- the influence-0 swap ----------------------------------------------------------


def swap_table() -> Table:
    """Chamber: 1 r3, 2 g1 (key), 3 g3, 4 b2 (key), 5 r4; then y0 comes to place 6."""
    return Table(rigged([["r3", "g1", "g3", "b2", "r4"], []], deck_top=["y0"]))


def test_swap_offers_every_lord_without_a_key_including_the_new_one() -> None:
    table = swap_table()
    table.do(0, RevealLords(count=1))
    assert table.state.stage is Stage.SWAP_FIRST
    assert table.choices(0) == (
        SwapPick(place=1),
        SwapPick(place=3),
        SwapPick(place=5),
        SwapPick(place=6),
        SkipSwap(),
    )
    assert table.default() == SkipSwap()


def test_swap_two_lords_of_different_colours() -> None:
    table = swap_table()
    table.do(0, RevealLords(count=1))
    table.do(0, SwapPick(place=6))
    assert table.state.stage is Stage.SWAP_SECOND
    # same-colour partners change nothing and are not offered; 6 again unpicks
    assert table.choices(0) == (
        SwapPick(place=1),
        SwapPick(place=3),
        SwapPick(place=5),
        SwapPick(place=6),
        SkipSwap(),
    )
    table.do(0, SwapPick(place=3))
    assert table.chamber(0) == ["r3", "g1", "y0", "b2", "r4", "g3"]
    swapped = table.of_type(LordsSwapped)[0]
    assert (swapped.first, swapped.second) == (3, 6)
    assert table.state.turn == 1


def test_swap_partners_exclude_the_same_colour() -> None:
    table = swap_table()
    table.do(0, RevealLords(count=1))
    table.do(0, SwapPick(place=1))
    assert table.choices(0) == (
        SwapPick(place=1),
        SwapPick(place=3),
        SwapPick(place=6),
        SkipSwap(),
    )
    with pytest.raises(NotAllowed):
        GAME.apply(table.state, 0, SwapPick(place=5))
    with pytest.raises(NotAllowed):
        GAME.apply(table.state, 0, SwapPick(place=2))


def test_picking_the_first_lord_again_unpicks_it() -> None:
    table = swap_table()
    table.do(0, RevealLords(count=1))
    table.do(0, SwapPick(place=1))
    table.do(0, SwapPick(place=1))
    assert table.state.stage is Stage.SWAP_FIRST and table.state.swap_first is None
    table.do(0, SkipSwap())
    assert table.of_type(SwapSkipped)[0].seat == 0
    assert table.chamber(0) == ["r3", "g1", "g3", "b2", "r4", "y0"]


def test_no_swap_when_it_could_change_nothing() -> None:
    """Only key Lords and Lords of one colour can move: the swap is skipped."""
    table = Table(rigged([["y3", "g1", "b2"], []], deck_top=["y0"]))
    table.do(0, RevealLords(count=1))
    assert table.state.turn == 1


# --- keys and Locations ------------------------------------------------------------


def test_two_silver_keys_take_a_location() -> None:
    table = Table(rigged([["r1"], []], keys=[(1, 0), (0, 0)], deck_top=["b1"]))
    table.do(0, RevealLords(count=1))
    assert table.state.stage is Stage.LOCATION


def test_two_gold_keys_take_a_location() -> None:
    table = Table(rigged([["r2"], []], keys=[(0, 1), (0, 0)], deck_top=["b2"]))
    table.do(0, RevealLords(count=1))
    assert table.state.stage is Stage.LOCATION


def test_silver_and_gold_are_no_pair() -> None:
    table = Table(rigged([["r1"], []], keys=[(1, 0), (0, 0)], deck_top=["b2"]))
    table.do(0, RevealLords(count=1))
    assert table.state.turn == 1
    assert (table.state.players[0].silver, table.state.players[0].gold) == (1, 1)


def test_mixed_leftover_key_is_lost_with_the_pair() -> None:
    """silver, gold, gold: the pair of golds takes a Location and the silver is
    spent too; the next gold starts again from nothing."""
    state = rigged(
        [[], []],
        piles={G: ["g1", "g2", "g2"], B: ["b2"]},
        face_up=[L.POINTS_7, L.PEARL_1],
    )
    table = Table(state)
    table.do(0, TakePile(colour=G))
    table.do(0, PlaceNext(colour=G, influence=1))
    # the two g2 left are alike: both placed, the second completes a gold pair
    table.do(0, TakeLocation(location=L.POINTS_7))
    spent = table.of_type(KeysSpent)[0]
    assert (spent.silver, spent.gold, spent.place) == (1, 2, 3)
    player = table.state.players[0]
    assert (player.silver, player.gold) == (0, 0)
    table.do(1, RevealLords(count=1))
    table.do(0, TakePile(colour=B))
    assert (table.state.players[0].silver, table.state.players[0].gold) == (0, 1)
    assert len(table.state.players[0].locations) == 1


def test_key_pair_in_the_middle_of_a_pile_resolves_before_the_next_lord() -> None:
    state = rigged(
        [["r1"], []], keys=[(1, 0), (0, 0)], piles={G: ["g1", "g4"]}, face_up=[L.PEARLS_3]
    )
    table = Table(state)
    table.do(0, TakePile(colour=G))
    table.do(0, PlaceNext(colour=G, influence=1))
    assert table.state.stage is Stage.LOCATION
    assert table.state.pending != []
    table.do(0, TakeLocation(location=L.PEARLS_3))
    # the Location's 3 pearls come before g4's 1 pearl
    assert [e.total for e in table.of_type(PearlsGained)] == [3, 4]
    assert table.chamber(0) == ["r1", "g1", "g4"]


def test_any_two_keys_location_pairs_silver_with_gold() -> None:
    state = rigged(
        [["r1"], []],
        keys=[(1, 0), (0, 0)],
        owned=[[(L.ANY_TWO_KEYS, 1)], []],
        deck_top=["b2"],
    )
    table = Table(state)
    table.do(0, RevealLords(count=1))
    assert table.state.stage is Stage.LOCATION
    assert GAME.view(table.state, 0).players[0].any_two_keys


def test_location_choices_face_up_or_reveal_one_to_three() -> None:
    state = rigged(
        [["r1"], []], keys=[(1, 0), (0, 0)], deck_top=["b1"], face_up=[L.PEARL_1, L.POINTS_7]
    )
    table = Table(state)
    table.do(0, RevealLords(count=1))
    assert table.choices(0) == (
        TakeLocation(location=L.PEARL_1),
        TakeLocation(location=L.POINTS_7),
        RevealLocations(count=1),
        RevealLocations(count=2),
        RevealLocations(count=3),
    )
    assert table.default() == TakeLocation(location=L.POINTS_7), "the most points"


def test_reveal_three_locations_keep_one_the_others_stay_face_up() -> None:
    state = rigged(
        [["r1"], []],
        keys=[(1, 0), (0, 0)],
        deck_top=["b1"],
        face_up=[L.PEARL_1],
        location_top=[L.GOLD_KEYS, L.PEARLS_2, L.BEST_RED],
    )
    table = Table(state)
    table.do(0, RevealLords(count=1))
    table.do(0, RevealLocations(count=3))
    assert table.state.stage is Stage.LOCATION_KEEP
    assert table.choices(0) == (
        TakeLocation(location=L.GOLD_KEYS),
        TakeLocation(location=L.PEARLS_2),
        TakeLocation(location=L.BEST_RED),
    )
    assert table.default() == TakeLocation(location=L.PEARLS_2)
    with pytest.raises(NotAllowed):
        GAME.apply(table.state, 0, TakeLocation(location=L.PEARL_1))
    table.do(0, TakeLocation(location=L.BEST_RED))
    assert table.state.face_up == [L.PEARL_1, L.GOLD_KEYS, L.PEARLS_2]
    assert table.of_type(LocationsLeftFaceUp)[0].locations == (L.GOLD_KEYS, L.PEARLS_2)
    assert table.state.players[0].locations[0].place == 2


def test_reveal_one_location_takes_it() -> None:
    state = rigged([["r1"], []], keys=[(1, 0), (0, 0)], deck_top=["b1"], location_top=[L.PEARLS_3])
    table = Table(state)
    table.do(0, RevealLords(count=1))
    table.do(0, RevealLocations(count=1))
    assert table.state.players[0].pearls == 3 and table.state.pearl_master == 0
    assert table.state.turn == 1


def test_a_single_possible_location_is_taken_without_asking() -> None:
    state = rigged([["r1"], []], keys=[(1, 0), (0, 0)], deck_top=["b1"], face_up=[L.PEARL_1])
    state.location_deck.clear()
    # the other Locations are owned by seat 1 (places do not matter for this test)
    others = [loc for loc in L if loc is not L.PEARL_1]
    from games.conspiracy.models import PlacedLocation

    state.players[1].locations = [PlacedLocation(location=loc, place=1) for loc in others]
    table = Table(state)
    table.do(0, RevealLords(count=1))
    assert table.of_type(LocationTaken)[0].location is L.PEARL_1
    assert table.state.turn == 1


def test_whole_deck_location_chooses_from_the_deck() -> None:
    state = rigged(
        [["r1"], []],
        keys=[(1, 0), (0, 0)],
        owned=[[(L.WHOLE_DECK, 1)], []],
        deck_top=["b1"],
        face_up=[L.PEARL_1],
    )
    table = Table(state)
    table.do(0, RevealLords(count=1))
    choices = table.choices(0)
    assert not any(isinstance(c, RevealLocations) for c in choices)
    offered = [c.location for c in choices if isinstance(c, TakeLocation)]
    assert offered[0] is L.PEARL_1
    assert sorted(offered) == sorted(loc for loc in L if loc is not L.WHOLE_DECK)
    assert table.default() == TakeLocation(location=L.POINTS_7)
    table.do(0, TakeLocation(location=L.COUNT_RED))
    taken = table.of_type(LocationTaken)[0]
    assert taken.from_deck and taken.location is L.COUNT_RED
    assert L.COUNT_RED not in table.state.location_deck


def test_recall_lords_shuffles_every_discard_pile_into_the_deck() -> None:
    state = rigged(
        [["r1"], []],
        keys=[(1, 0), (0, 0)],
        deck_top=["b1"],
        face_up=[L.RECALL_LORDS],
        piles={G: ["g3"], P: ["p4", "p0"]},
    )
    deck_before = len(state.deck)
    table = Table(state)
    table.do(0, RevealLords(count=1))
    table.do(0, TakeLocation(location=L.RECALL_LORDS))
    assert all(pile == [] for pile in table.state.piles.values())
    assert len(table.state.deck) == deck_before - 1 + 3
    assert table.of_type(LordsRecalled)[0].count == 3


def test_recall_locations_shuffles_the_face_up_ones_back() -> None:
    state = rigged(
        [["r1"], []],
        keys=[(1, 0), (0, 0)],
        deck_top=["b1"],
        face_up=[L.POINTS_7],
        location_top=[L.RECALL_LOCATIONS, L.PEARL_1],
    )
    size = len(state.location_deck)
    table = Table(state)
    table.do(0, RevealLords(count=1))
    table.do(0, RevealLocations(count=2))
    table.do(0, TakeLocation(location=L.RECALL_LOCATIONS))
    assert table.state.face_up == []
    assert len(table.state.location_deck) == size - 2 + 2
    assert table.of_type(LocationsRecalled)[0].count == 2


@pytest.mark.parametrize(("location", "pearls"), [(L.PEARL_1, 1), (L.PEARLS_2, 2), (L.PEARLS_3, 3)])
def test_pearl_locations_give_pearls_when_taken(location: LocationId, pearls: int) -> None:
    state = rigged(
        [["r1"], []], keys=[(1, 0), (0, 0)], deck_top=["b1"], face_up=[location, L.POINTS_7]
    )
    table = Table(state)
    table.do(0, RevealLords(count=1))
    table.do(0, TakeLocation(location=location))
    assert table.state.players[0].pearls == pearls
    assert table.state.pearl_master == 0


def test_pearl_location_ties_take_the_token() -> None:
    state = rigged(
        [[], ["r1"]],
        keys=[(0, 0), (1, 0)],
        deck_top=["b1"],
        face_up=[L.PEARLS_2],
        pearls=[2, 0],
        pearl_master=0,
        turn=1,
    )
    table = Table(state)
    table.do(1, RevealLords(count=1))
    table.do(1, TakeLocation(location=L.PEARLS_2))
    assert table.state.pearl_master == 1


# --- overflow and the end ----------------------------------------------------------


def test_the_pair_completed_by_the_fifteenth_lord_still_takes_a_location() -> None:
    state = rigged(
        [FOURTEEN, []],
        keys=[(1, 0), (0, 0)],
        piles={B: ["b1", "b4"]},
        face_up=[L.POINTS_7],
    )
    table = Table(state)
    table.do(0, TakePile(colour=B))
    table.do(0, PlaceNext(colour=B, influence=1))
    assert table.state.stage is Stage.LOCATION
    table.do(0, TakeLocation(location=L.POINTS_7))
    assert table.pile(B) == ["b4"]
    assert table.state.ender == 0 and table.state.turn == 1


@pytest.mark.parametrize(("players", "ender"), [(2, 0), (2, 1), (3, 2), (4, 1), (4, 3)])
def test_every_other_player_takes_exactly_one_last_turn(players: int, ender: int) -> None:
    chambers: list[list[str]] = [[] for _ in range(players)]
    chambers[ender] = FOURTEEN
    table = Table(rigged(chambers, turn=ender))
    table.do(ender, RevealLords(count=1))
    assert table.of_type(FinalRound)[0].seat == ender
    order = []
    while table.state.stage is not Stage.OVER:
        order.append(table.state.turn)
        assert GAME.view(table.state, None).last_turns == [
            (ender + k) % players for k in range(len(order) + 1, players)
        ]
        table.do(table.state.turn, RevealLords(count=1))
    assert order == [(ender + k) % players for k in range(1, players)]
    assert all(e.last for e in table.of_type(TurnStarted))
    assert GAME.result(table.state) is not None
    assert GAME.prompts(table.state) == []


OTHER_FOURTEEN = ["b1", "b1", "b2", "b2", "b3", "b3", "b4", "b4", "p1", "p1", "p2", "p2", "p3"]


def test_reaching_fifteen_in_a_last_turn_does_not_add_turns() -> None:
    table = Table(rigged([FOURTEEN, [*OTHER_FOURTEEN, "p3"], []], deck_top=["g4", "g3", "g4"]))
    table.do(0, RevealLords(count=1))
    table.do(1, RevealLords(count=1))
    assert len(table.state.players[1].lords) == 15
    assert table.state.turn == 2
    table.do(2, RevealLords(count=1))
    assert table.state.stage is Stage.OVER
    assert len(table.of_type(FinalRound)) == 1


# --- illegal choices and timeouts ------------------------------------------------------


def test_illegal_choices_are_rejected_and_change_nothing() -> None:
    table = Table(rigged([[], []], deck_top=["g1", "r3"]))
    before = table.state.model_dump()
    with pytest.raises(NotPrompted):
        GAME.apply(table.state, 1, RevealLords(count=1))
    with pytest.raises(NotAllowed):
        GAME.apply(table.state, 0, TakePile(colour=R))
    with pytest.raises(NotAllowed):
        GAME.apply(table.state, 0, RevealLords(count=4))
    with pytest.raises(NotAllowed):
        GAME.apply(table.state, 0, KeepLord(colour=G, influence=1))
    with pytest.raises(IllegalChoice):
        GAME.apply(table.state, 0, SkipSwap())
    assert table.state.model_dump() == before


def test_choices_after_the_end_are_rejected() -> None:
    table = Table(rigged([FOURTEEN, []]))
    table.do(0, RevealLords(count=1))
    table.do(1, RevealLords(count=1))
    with pytest.raises(GameIsOver):
        GAME.apply(table.state, 0, RevealLords(count=1))
    with pytest.raises(GameIsOver):
        GAME.forfeit(table.state, 0)


def test_timeout_recruits_the_top_lord() -> None:
    table = Table(rigged([[], []], deck_top=["p4"], piles={G: ["g1"]}))
    table.timeout()
    assert table.chamber(0) == ["p4"]


def test_timeout_keeps_the_first_revealed_and_places_as_drawn() -> None:
    table = Table(rigged([[], []], deck_top=["g1", "r3"]))
    table.do(0, RevealLords(count=2))
    table.timeout()
    assert table.chamber(0) == ["g1"]
    table = Table(rigged([[], []], piles={B: ["b3", "b0", "b4"]}))
    table.do(0, TakePile(colour=B))
    table.timeout()
    table.timeout()
    assert table.chamber(0) == ["b3", "b0", "b4"]


def test_timeout_takes_the_face_up_location_with_most_points_or_reveals_one() -> None:
    state = rigged(
        [["r1"], []], keys=[(1, 0), (0, 0)], deck_top=["b1"], face_up=[L.PEARLS_3, L.PEARL_1]
    )
    table = Table(state)
    table.do(0, RevealLords(count=1))
    table.timeout()
    assert table.of_type(LocationTaken)[0].location is L.PEARL_1
    state = rigged([["r1"], []], keys=[(1, 0), (0, 0)], deck_top=["b1"], location_top=[L.COUNT_RED])
    table = Table(state)
    table.do(0, RevealLords(count=1))
    assert table.default() == RevealLocations(count=1)
    table.timeout()
    assert table.state.players[0].locations[0].location is L.COUNT_RED


def test_timeout_skips_the_swap() -> None:
    table = swap_table()
    table.do(0, RevealLords(count=1))
    table.timeout()
    assert table.of_type(SwapSkipped) and table.state.turn == 1


def test_each_decision_opens_a_new_window() -> None:
    table = Table(rigged([[], []], piles={B: ["b3", "b4", "b0"]}))
    windows = []
    for choice in (
        TakePile(colour=B),
        PlaceNext(colour=B, influence=3),
        PlaceNext(colour=B, influence=4),
    ):
        prompt = GAME.prompt_for(table.state, 0)
        assert prompt is not None
        windows.append(prompt.window)
        table.do(0, choice)
    prompt = GAME.prompt_for(table.state, 1)
    assert prompt is not None
    windows.append(prompt.window)
    assert len(set(windows)) == 4


def test_lord_placed_events_name_the_place() -> None:
    table = Table(rigged([["r3", "r4"], []], deck_top=["g4"]))
    table.do(0, RevealLords(count=1))
    placed = table.of_type(LordPlaced)[0]
    assert (placed.seat, placed.colour, placed.influence, placed.place) == (0, G, 4, 3)
    assert codes(table.state.players[0].lords) == ["r3", "r4", "g4"]


def test_any_two_keys_taken_in_play_lasts_for_the_rest_of_the_game() -> None:
    state = rigged(
        [["r1"], []],
        keys=[(1, 0), (0, 0)],
        deck_top=["b1", "g4", "y1", "p4", "y2"],
        face_up=[L.ANY_TWO_KEYS, L.POINTS_7],
    )
    table = Table(state)
    table.do(0, RevealLords(count=1))
    table.do(0, TakeLocation(location=L.ANY_TWO_KEYS))
    table.do(1, RevealLords(count=1))
    table.do(0, RevealLords(count=1))  # y1: one silver key
    table.do(1, RevealLords(count=1))
    table.do(0, RevealLords(count=1))  # y2: silver + gold is a pair now
    assert table.state.stage is Stage.LOCATION
    table.do(0, TakeLocation(location=L.POINTS_7))
    assert [p.location for p in table.state.players[0].locations] == [
        L.ANY_TWO_KEYS,
        L.POINTS_7,
    ]
    assert table.state.players[0].locations[1].place == 4  # r1 b1 y1 y2
