"""Scoring: the chamber's geometry, the largest coalition, every Location, the
Pearl Master, the breakdown and the winners."""

import pytest

from games.conspiracy import Colour, LocationId
from games.conspiracy.cards import ADJACENT, LOCATION_TABLE, LORD_COUNT, LORDS, POSITIONS
from games.conspiracy.models import PlacedLocation, PlayerState, ScoreBreakdown
from games.conspiracy.scoring import coalition, score_player, winners_of

from .helpers import LordPool

R, G, B, Y, P = Colour.RED, Colour.GREEN, Colour.BLUE, Colour.YELLOW, Colour.PURPLE

# The adjacency table of rules/conspiracy.md, verbatim.
DOC_ADJACENCY = {
    1: {2, 6},
    2: {1, 3, 6, 7},
    3: {2, 4, 7, 8},
    4: {3, 5, 8, 9},
    5: {4, 9},
    6: {1, 2, 7, 10},
    7: {2, 3, 6, 8, 10, 11},
    8: {3, 4, 7, 9, 11, 12},
    9: {4, 5, 8, 12},
    10: {6, 7, 11, 13},
    11: {7, 8, 10, 12, 13, 14},
    12: {8, 9, 11, 14},
    13: {10, 11, 14, 15},
    14: {11, 12, 13, 15},
    15: {13, 14},
}


def test_adjacency_is_the_rules_table() -> None:
    derived = {i + 1: {j + 1 for j in ADJACENT[i]} for i in range(15)}
    assert derived == DOC_ADJACENCY


def test_rows_of_five_four_three_two_one_offset_like_bricks() -> None:
    rows = [[place + 1 for place, (row, _) in enumerate(POSITIONS) if row == r] for r in range(5)]
    assert rows == [[1, 2, 3, 4, 5], [6, 7, 8, 9], [10, 11, 12], [13, 14], [15]]
    assert POSITIONS[5][1] == (POSITIONS[0][1] + POSITIONS[1][1]) // 2, "6 sits between 1 and 2"
    assert POSITIONS[14][1] == POSITIONS[2][1], "15 sits right above 3"


def test_card_data_sixty_lords_and_twenty_four_locations() -> None:
    assert LORD_COUNT == len(LORDS) == 60
    per_colour = {c: sorted(lord.influence for lord in LORDS if lord.colour is c) for c in Colour}
    assert all(v == [0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 6] for v in per_colour.values())
    assert [loc.number for loc in LOCATION_TABLE] == list(range(1, 25))
    assert len({loc.id for loc in LOCATION_TABLE}) == 24


def chamber(codes: list[str]) -> list[int]:
    pool = LordPool()
    return pool.take_all(codes)


def colours_chamber(colours: str) -> list[int]:
    """A chamber given as one colour letter per place, with distinct Lords."""
    pool = LordPool()
    used = dict.fromkeys("yrgbp", 0)
    order = ["1", "1", "1", "1", "3", "3", "4", "4", "0", "6", "2", "2"]
    lords = []
    for letter in colours:
        lords.append(pool.take(letter + order[used[letter]]))
        used[letter] += 1
    return lords


@pytest.mark.parametrize(
    ("places", "size", "colours"),
    [
        ("", 0, ()),
        ("r", 1, (R,)),
        ("rg", 1, (R, G)),
        ("rrrrr", 5, (R,)),
        ("rgrgr", 1, (R, G)),
        # 1 r, 2 g, 3 r ... 6 r touches 1 and 2, 7 r touches 2 and 3: 1-6-7-3 is one group
        ("rgrgbrr", 4, (R,)),
        # 1 g and 6 g touch; 3 y and 4 y touch
        ("gbyypg", 2, (Y, G)),
        # the second row (6-9) all blue, touching nothing else blue
        ("rrrrrbbbb", 5, (R,)),
        ("rgrgrbbbbb", 5, (B,)),
    ],
)
def test_largest_coalition(places: str, size: int, colours: tuple[Colour, ...]) -> None:
    assert coalition(colours_chamber(places)) == (size, colours)


def test_full_chamber_with_two_equal_groups() -> None:
    """15 places: red {1,2,3,6,7,10} and green {4,5,8,9,12,14} are two groups of 6,
    blue {11,13,15} a group of 3: the coalition is 6 Lords, 18 points."""
    places = "rrrgg" + "rrgg" + "rbg" + "bg" + "b"
    lords = colours_chamber(places)
    assert coalition(lords) == (6, (R, G))
    breakdown = score_player(PlayerState(lords=lords), 0, pearl_master=False)
    assert breakdown.coalition_size == 6 and breakdown.coalition == 18


def test_full_chamber_one_big_group() -> None:
    """12 yellow Lords filling rows 1-3 are one group; two reds on 13-14 and a green on 15."""
    lords = colours_chamber("y" * 12 + "rrg")
    assert coalition(lords) == (12, (Y,))


def test_diagonal_places_that_do_not_touch_are_not_adjacent() -> None:
    """1 and 7 do not touch (7 sits on 2 and 3); 5 and 8 neither."""
    lords = colours_chamber("rgbyrpr")  # 1 r, 5 r, 7 r: three groups of 1 in red
    assert coalition(lords)[0] == 1


# --- every Location -------------------------------------------------------------

# silver-key Lords: r1 r1 g1 = 3; gold-key Lords: g2 = 1; best: y0 r4 g2 b6 p3;
# count: y1 r3 g2 b1 p1; 5 pearls; 2 Locations owned.
LOCATION_CHAMBER = ["r1", "r1", "g2", "b6", "r4", "y0", "g1", "p3"]
EXPECTED = {
    LocationId.POINTS_7: 7,
    LocationId.PEARL_1: 5,
    LocationId.PEARLS_2: 4,
    LocationId.PEARLS_3: 3,
    LocationId.SILVER_KEYS: 3,
    LocationId.GOLD_KEYS: 2,
    LocationId.PEARL_PAIRS: 2,
    LocationId.LOCATIONS: 4,
    LocationId.TOP_LORD: 3,
    LocationId.REVEAL_TWO: 3,
    LocationId.RECALL_LORDS: 3,
    LocationId.RECALL_LOCATIONS: 3,
    LocationId.ANY_TWO_KEYS: 3,
    LocationId.WHOLE_DECK: 3,
    LocationId.BEST_YELLOW: 0,
    LocationId.BEST_RED: 4,
    LocationId.BEST_GREEN: 2,
    LocationId.BEST_BLUE: 6,
    LocationId.BEST_PURPLE: 3,
    LocationId.COUNT_YELLOW: 2,
    LocationId.COUNT_RED: 4,
    LocationId.COUNT_GREEN: 3,
    LocationId.COUNT_BLUE: 2,
    LocationId.COUNT_PURPLE: 2,
}


def test_every_location_has_an_expected_value() -> None:
    assert set(EXPECTED) == set(LocationId)


@pytest.mark.parametrize("location", list(LocationId))
def test_location_scoring(location: LocationId) -> None:
    other = LocationId.POINTS_7 if location is not LocationId.POINTS_7 else LocationId.PEARL_1
    player = PlayerState(
        lords=chamber(LOCATION_CHAMBER),
        pearls=5,
        locations=[
            PlacedLocation(location=location, place=3),
            PlacedLocation(location=other, place=7),
        ],
    )
    breakdown = score_player(player, 0, pearl_master=False)
    assert breakdown.locations[0].location is location
    assert breakdown.locations[0].points == EXPECTED[location]


def test_pearl_pairs_round_down_and_locations_count_themselves() -> None:
    player = PlayerState(
        pearls=7,
        locations=[PlacedLocation(location=LocationId.PEARL_PAIRS, place=1)],
    )
    assert score_player(player, 0, pearl_master=False).locations_total == 3
    alone = PlayerState(locations=[PlacedLocation(location=LocationId.LOCATIONS, place=1)])
    assert score_player(alone, 0, pearl_master=False).locations_total == 2


def test_full_breakdown() -> None:
    """Best per colour 0+4+2+6+3 = 15; Locations 7 + 3 (silver keys) = 10; coalition:
    r1 r1 on places 1-2 and g2 g1 on places 3 and 7 are the largest groups, 2 Lords
    = 6; Pearl Master 5."""
    player = PlayerState(
        lords=chamber(LOCATION_CHAMBER),
        pearls=5,
        locations=[
            PlacedLocation(location=LocationId.POINTS_7, place=3),
            PlacedLocation(location=LocationId.SILVER_KEYS, place=7),
        ],
    )
    breakdown = score_player(player, 2, pearl_master=True)
    assert breakdown.seat == 2
    assert [(c.colour, c.influence) for c in breakdown.lords] == [
        (Y, 0),
        (R, 4),
        (G, 2),
        (B, 6),
        (P, 3),
    ]
    assert breakdown.lords_total == 15
    assert breakdown.locations_total == 10
    assert (breakdown.coalition_size, breakdown.coalition_colours) == (2, (R, G))
    assert breakdown.coalition == 6
    assert breakdown.pearl_master == 5
    assert breakdown.total == 15 + 10 + 6 + 5
    assert score_player(player, 2, pearl_master=False).total == 31


def _score(seat: int, total: int, pearls: int) -> ScoreBreakdown:
    return ScoreBreakdown(
        seat=seat,
        lords=(),
        lords_total=total,
        locations=(),
        locations_total=0,
        coalition_size=0,
        coalition_colours=(),
        coalition=0,
        pearl_master=0,
        pearls=pearls,
        total=total,
    )


@pytest.mark.parametrize(
    ("totals", "pearls", "removed", "winners"),
    [
        ([30, 41, 12], [0, 0, 9], [False] * 3, [1]),
        ([41, 41, 12], [2, 3, 9], [False] * 3, [1]),
        ([41, 41, 41], [3, 3, 1], [False] * 3, [0, 1]),
        ([41, 41, 41, 41], [0, 0, 0, 0], [False] * 4, [0, 1, 2, 3]),
        ([50, 41, 41], [0, 3, 3], [True, False, False], [1, 2]),
    ],
)
def test_winners(
    totals: list[int], pearls: list[int], removed: list[bool], winners: list[int]
) -> None:
    scores = [_score(i, t, p) for i, (t, p) in enumerate(zip(totals, pearls, strict=True))]
    assert winners_of(scores, removed) == winners
