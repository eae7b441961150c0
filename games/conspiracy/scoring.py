"""End-of-game scoring: Lords per colour, Locations, the coalition, the Pearl Master."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from games.base import Seat

from .cards import (
    ADJACENT,
    COLOURS,
    INFLUENCES,
    LOCATIONS,
    LORDS,
    Colour,
    Key,
    LocationEffect,
    LocationId,
)
from .models import (
    ColourPoints,
    ConspiracyState,
    LocationPoints,
    PlayerState,
    ScoreBreakdown,
)

PEARL_MASTER_POINTS = 5
POINTS_PER_COALITION_LORD = 3


_COLOUR_POINTS: dict[Colour, dict[int, ColourPoints]] = {
    colour: {i: ColourPoints(colour=colour, influence=i) for i in (0, *INFLUENCES)}
    for colour in COLOURS
}


@lru_cache(maxsize=8192)
def colour_groups(colours: tuple[Colour, ...]) -> tuple[tuple[Colour, int, int], ...]:
    """Each group of adjacent same-colour Lords in a chamber filled in place order:
    (colour, size, free places touching it)."""
    filled = len(colours)
    seen = [False] * filled
    found: list[tuple[Colour, int, int]] = []
    for start, colour in enumerate(colours):
        if seen[start]:
            continue
        seen[start] = True
        stack = [start]
        size = 0
        frontier: set[int] = set()
        while stack:
            here = stack.pop()
            size += 1
            for there in ADJACENT[here]:
                if there >= filled:
                    frontier.add(there)
                elif not seen[there] and colours[there] is colour:
                    seen[there] = True
                    stack.append(there)
        found.append((colour, size, len(frontier)))
    return tuple(found)


def coalition(lords: Sequence[int]) -> tuple[int, tuple[Colour, ...]]:
    """The size of the largest group of adjacent same-colour Lords, and the colours
    that have a group of that size (in colour order)."""
    found = colour_groups(tuple(LORDS[lord].colour for lord in lords))
    best = max((size for _, size, _ in found), default=0)
    best_colours = {colour for colour, size, _ in found if size == best}
    return best, tuple(c for c in COLOURS if c in best_colours)


def score_player(player: PlayerState, seat: Seat, pearl_master: bool) -> ScoreBreakdown:
    locations = tuple(placed.location for placed in player.locations)
    return _score(tuple(player.lords), locations, player.pearls, seat, pearl_master)


@lru_cache(maxsize=4096)
def _score(
    lords: tuple[int, ...],
    locations: tuple[LocationId, ...],
    pearls: int,
    seat: Seat,
    pearl_master: bool,
) -> ScoreBreakdown:
    """Memoised (a chamber changes on its owner's turn only, and views are hot)."""
    best = dict.fromkeys(COLOURS, 0)
    count = dict.fromkeys(COLOURS, 0)
    silver = gold = 0
    for lord_id in lords:
        lord = LORDS[lord_id]
        best[lord.colour] = max(best[lord.colour], lord.influence)
        count[lord.colour] += 1
        silver += lord.key is Key.SILVER
        gold += lord.key is Key.GOLD
    owned = len(locations)
    location_points: list[LocationPoints] = []
    for location_id in locations:
        location = LOCATIONS[location_id]
        points = location.points
        effect = location.effect
        if effect is LocationEffect.PER_SILVER_KEY:
            points += silver
        elif effect is LocationEffect.PER_GOLD_KEY:
            points += 2 * gold
        elif effect is LocationEffect.PER_PEARL_PAIR:
            points += pearls // 2
        elif effect is LocationEffect.PER_LOCATION:
            points += 2 * owned
        elif effect is LocationEffect.BEST_OF_COLOUR:
            assert location.colour is not None
            points += best[location.colour]
        elif effect is LocationEffect.PER_LORD_OF_COLOUR:
            assert location.colour is not None
            points += count[location.colour]
        location_points.append(LocationPoints(location=location_id, points=points))
    size, colours = coalition(lords)
    lords_total = sum(best.values())
    locations_total = sum(p.points for p in location_points)
    coalition_points = POINTS_PER_COALITION_LORD * size
    master = PEARL_MASTER_POINTS if pearl_master else 0
    return ScoreBreakdown(
        seat=seat,
        lords=tuple(_COLOUR_POINTS[c][best[c]] for c in COLOURS),
        lords_total=lords_total,
        locations=tuple(location_points),
        locations_total=locations_total,
        coalition_size=size,
        coalition_colours=colours,
        coalition=coalition_points,
        pearl_master=master,
        pearls=pearls,
        total=lords_total + locations_total + coalition_points + master,
    )


def score_all(state: ConspiracyState) -> list[ScoreBreakdown]:
    return [
        score_player(player, seat, state.pearl_master == seat)
        for seat, player in enumerate(state.players)
    ]


def winners_of(scores: Sequence[ScoreBreakdown], removed: Sequence[bool]) -> list[Seat]:
    """Highest total; tie: most pearls; still tied: all of them. Removed seats cannot win."""
    contenders = [s for s in scores if not removed[s.seat]]
    if not contenders:
        return []
    top = max((s.total, s.pearls) for s in contenders)
    return [s.seat for s in contenders if (s.total, s.pearls) == top]
