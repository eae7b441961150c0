"""The worked examples and rules of the seed (seeds/conspiracy-it.txt), played out.

Seats: "giocatore 1" = 0, "giocatore 2" = 1.
"""

from games.conspiracy import GAME, Colour, LocationId
from games.conspiracy.models import (
    FinalRound,
    GameWon,
    KeepLord,
    KeysSpent,
    LocationTaken,
    LordKept,
    LordsDiscarded,
    LordsOverflowed,
    PearlMasterTaken,
    PileTaken,
    PlacedLocation,
    PlaceNext,
    RevealLords,
    Stage,
    TakeLocation,
    TakePile,
    TurnStarted,
)

from .helpers import FOURTEEN_LORDS, Table, rigged


def test_example_a_reveal_three_and_keep_the_red_one() -> None:
    """Player 1 reveals 3 Lords and keeps the red one; the other two go to their
    colour's discard pile, face up."""
    table = Table(rigged([[], []], deck_top=["g1", "r3", "b4"]))
    table.do(0, RevealLords(count=3))
    assert table.state.stage is Stage.KEEP
    assert set(table.choices(0)) == {
        KeepLord(colour=Colour.GREEN, influence=1),
        KeepLord(colour=Colour.RED, influence=3),
        KeepLord(colour=Colour.BLUE, influence=4),
    }
    table.do(0, KeepLord(colour=Colour.RED, influence=3))
    assert table.chamber(0) == ["r3"]
    assert table.pile(Colour.GREEN) == ["g1"]
    assert table.pile(Colour.BLUE) == ["b4"]
    discarded = table.of_type(LordsDiscarded)[0]
    assert [(f.colour, f.influence) for f in discarded.lords] == [
        (Colour.GREEN, 1),
        (Colour.BLUE, 4),
    ]
    assert table.prompted() == [1]


def test_example_b_take_the_whole_green_pile() -> None:
    """Player 2 takes every Lord of the green discard pile and places them one by
    one, in the order it prefers."""
    state = rigged([["r4"], ["b3"]], piles={Colour.GREEN: ["g3", "g4", "g3"]}, turn=1)
    table = Table(state)
    assert TakePile(colour=Colour.GREEN) in table.choices(1)
    table.do(1, TakePile(colour=Colour.GREEN))
    assert table.state.piles[Colour.GREEN] == []
    assert table.of_type(PileTaken)[0].colour is Colour.GREEN
    assert table.state.stage is Stage.ORDER
    assert table.choices(1) == (
        PlaceNext(colour=Colour.GREEN, influence=3),
        PlaceNext(colour=Colour.GREEN, influence=4),
    )
    table.do(1, PlaceNext(colour=Colour.GREEN, influence=4))
    # the two remaining Lords are alike: nothing to choose, both are placed
    assert table.chamber(1) == ["b3", "g4", "g3", "g3"]
    assert table.state.turn == 0


def test_lords_are_placed_one_after_another_each_power_first() -> None:
    """Each placed Lord's effect resolves before the next one is placed: the first
    pearl Lord makes player 2 Pearl Master before the second is placed."""
    state = rigged(
        [["r4"], []], piles={Colour.BLUE: ["b3", "b4"]}, pearls=[1, 0], pearl_master=0, turn=1
    )
    table = Table(state)
    table.do(1, TakePile(colour=Colour.BLUE))
    table.do(1, PlaceNext(colour=Colour.BLUE, influence=4))
    taken = table.of_type(PearlMasterTaken)
    assert [(e.thief, e.victim) for e in taken] == [(1, 0)], "1 pearl equals 1 pearl"
    assert table.state.players[1].pearls == 3


def test_keys_second_silver_takes_a_location_and_the_lone_gold_is_lost() -> None:
    """A silver key and a gold key, then another silver: a Location, placed on the
    second silver Lord; the earlier keys, the lone gold one too, are spent."""
    state = rigged(
        [["y1", "r2"], []],
        keys=[(1, 1), (0, 0)],
        deck_top=["g1"],
        face_up=[LocationId.POINTS_7],
    )
    table = Table(state)
    table.do(0, RevealLords(count=1))
    spent = table.of_type(KeysSpent)[0]
    assert (spent.silver, spent.gold, spent.place) == (2, 1, 3)
    assert table.state.stage is Stage.LOCATION
    table.do(0, TakeLocation(location=LocationId.POINTS_7))
    player = table.state.players[0]
    assert player.locations == [PlacedLocation(location=LocationId.POINTS_7, place=3)]
    assert (player.silver, player.gold) == (0, 0)
    assert table.of_type(LocationTaken)[0].place == 3


def test_pearl_master_token_is_stolen_by_equalling() -> None:
    """The player with the most pearls holds the token; another player who equals
    (or passes) the holder's pearls steals it."""
    state = rigged([["r3"], []], pearls=[2, 1], pearl_master=0, deck_top=["g4"], turn=1)
    table = Table(state)
    table.do(1, RevealLords(count=1))
    assert table.state.pearl_master == 1
    assert table.of_type(PearlMasterTaken)[0].victim == 0


def test_more_than_fifteen_lords_only_fifteen_are_placed() -> None:
    """A player who must place more than 15 Lords places 15 and leaves the others
    in the discard piles."""
    state = rigged([FOURTEEN_LORDS, []], piles={Colour.BLUE: ["b3", "b4", "b3"]})
    table = Table(state)
    table.do(0, TakePile(colour=Colour.BLUE))
    table.do(0, PlaceNext(colour=Colour.BLUE, influence=4))
    assert len(table.state.players[0].lords) == 15
    assert table.chamber(0)[-1] == "b4"
    assert table.pile(Colour.BLUE) == ["b3", "b3"]
    assert len(table.of_type(LordsOverflowed)[0].lords) == 2


def test_fifteen_lords_every_opponent_takes_one_last_turn() -> None:
    """The game ends when a player has 15 Lords; every opponent then takes one more
    turn."""
    state = rigged([[], FOURTEEN_LORDS, [], []], deck_top=["g3", "g4", "b4", "b3"], turn=1)
    table = Table(state)
    table.do(1, RevealLords(count=1))
    assert table.of_type(FinalRound)[0].seat == 1
    for seat in (2, 3, 0):
        assert table.state.turn == seat
        assert table.of_type(TurnStarted)[-1].last
        table.do(seat, RevealLords(count=1))
    assert table.state.stage is Stage.OVER
    assert sum(1 for e in table.of_type(LordKept)) == 4


YELLOW_TWELVE = ["y1", "y1", "y1", "y1", "y2", "y2", "y3", "y3", "y4", "y4", "y0", "y6"]
LOCATIONS_30 = [
    LocationId.POINTS_7,
    LocationId.PEARL_1,
    LocationId.PEARLS_2,
    LocationId.PEARLS_3,
    LocationId.TOP_LORD,
    LocationId.REVEAL_TWO,
    LocationId.RECALL_LORDS,
    LocationId.COUNT_BLUE,
]


def _tied_game(p0_pearls: int, p1_pearls: int, master: int) -> Table:
    """P0 (12 yellow + 2 red) completes 15 Lords with a g1: 8 for its best Lords
    + 36 for its yellow coalition of 12 = 44. P1 (b3 and Locations worth 30) takes its
    last turn, keeps a p3 (+2 pearls) and is Pearl Master: 6 + 3 + 30 + 5 = 44."""
    state = rigged(
        [[*YELLOW_TWELVE, "r1", "r1"], ["b3"]],
        owned=[[], [(loc, 1) for loc in LOCATIONS_30]],
        deck_top=["g1", "p3"],
        pearls=[p0_pearls, p1_pearls],
        pearl_master=master,
    )
    table = Table(state)
    table.do(0, RevealLords(count=1))
    assert table.state.turn == 1 and table.state.ender == 0
    table.do(1, RevealLords(count=1))
    assert table.state.stage is Stage.OVER
    return table


def test_tie_on_points_goes_to_most_pearls() -> None:
    """Equal points: the player with more pearls among the tied wins."""
    table = _tied_game(p0_pearls=0, p1_pearls=2, master=1)
    result = GAME.result(table.state)
    assert result is not None
    assert result.scores == (44, 44)
    assert result.winners == (1,)
    assert [(e.winner, e.shared) for e in table.of_type(GameWon)] == [(1, False)]


def test_tie_on_points_and_pearls_is_a_shared_win() -> None:
    """Equal points and equal pearls: every tied player wins (P1 takes the Pearl
    Master token by equalling P0's 4 pearls)."""
    table = _tied_game(p0_pearls=4, p1_pearls=2, master=0)
    assert table.state.pearl_master == 1
    result = GAME.result(table.state)
    assert result is not None
    assert result.scores == (44, 44)
    assert result.winners == (0, 1)
    assert [(e.winner, e.shared) for e in table.of_type(GameWon)] == [(0, True), (1, True)]
