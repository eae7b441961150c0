"""Who is likely to win an unfinished game of Conspiracy: a fitted estimate.

A conditional logit (a softmax over the players) of a few public features of each
player, each also weighted by the share of the game left (``horizon_of``): the
same lead counts for more near the end. Fitted on NORMAL's self-play games, one
set of coefficients per player count (``COEFFICIENTS``); bench/conspiracy_fit.py
plays the games, fits them and prints them (its docstring has the figures).
HARD's simulations end on it (games.conspiracy.hard).

Fitted (bench/conspiracy_fit.py, seeds 1-2000 per player count, 45,000 to 80,000
turn starts), it predicts NORMAL's games better than NORMAL's own ``ai.win_share``
(held-out log-loss, 4 players: 1.107 against 1.215, a coin 1.386; 0.790 against
0.948 on the last third). What it learned: early on a lead in points says next to
nothing (2 players: 0.01 a point of standing at the start, 0.25 at the end); on the
last turns a chamber with room left beats a full one of the same standing (its last
turns still add Lords), and the one to move is ahead.

View-only, as a policy: it reads the view, never the state.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import Seat
from games.search import softmax

from .ai import horizon_of, standing
from .cards import CHAMBER_SIZE
from .models import ConspiracyView, PlayerView

BASE_FEATURES = (
    "score",
    "standing",
    "lords",
    "pearls",
    "keys",
    "pair_ready",
    "locations",
    "to_move",
    "turns_ahead",
)
"""Per player: its score as it stands (the view's), NORMAL's standing of its chamber
(the score plus what it promises), its Lords, pearls, unused keys, whether any next
key makes a pair, its Locations, whether it is the one to move, and how many more
turns it has had than the one to move (0 or 1: it played earlier in this round)."""

FEATURES = (*BASE_FEATURES, *(f"{name}*left" for name in BASE_FEATURES))
"""The base features, then each times the share of the game left (1 at the start)."""

REMOVED = -1e3
"""A removed player's logit: no chance."""


def turns_taken(view: ConspiracyView, seat: Seat) -> int:
    """Turns the seat has started before the current one (turns go round in seat
    order from the first player; turn_number counts them from 1)."""
    count = len(view.players)
    first = (view.turn - (view.turn_number - 1)) % count
    done = view.turn_number - 1
    position = (seat - first) % count
    return done // count + (1 if position < done % count else 0)


def pair_ready(player: PlayerView) -> bool:
    keys = player.silver + player.gold
    return bool((player.silver and player.gold) or (player.any_two_keys and keys))


def base_features(view: ConspiracyView, seat: Seat) -> tuple[float, ...]:
    player = view.players[seat]
    return (
        float(view.scores[seat].total),
        standing(view, seat),
        len(player.chamber) / CHAMBER_SIZE,
        float(player.pearls),
        float(player.silver + player.gold),
        float(pair_ready(player)),
        float(len(player.locations)),
        float(seat == view.turn),
        float(turns_taken(view, seat) - turns_taken(view, view.turn)),
    )


def features(view: ConspiracyView, seat: Seat) -> tuple[float, ...]:
    """``FEATURES`` of one player."""
    base = base_features(view, seat)
    left = horizon_of(view)
    return (*base, *(value * left for value in base))


def logits(view: ConspiracyView, coefficients: Sequence[float]) -> list[float]:
    return [
        REMOVED
        if player.removed
        else sum(c * x for c, x in zip(coefficients, features(view, player.seat), strict=True))
        for player in view.players
    ]


def coefficients_for(players: int) -> tuple[float, ...]:
    return COEFFICIENTS[min(max(players, min(COEFFICIENTS)), max(COEFFICIENTS))]


def win_chances(view: ConspiracyView) -> list[float]:
    """Every player's chance of winning (they add up to 1)."""
    return softmax(logits(view, coefficients_for(len(view.players))))


def win_chance(view: ConspiracyView, seat: Seat) -> float:
    return win_chances(view)[seat]


COEFFICIENTS: dict[int, tuple[float, ...]] = {
    2: (
        -0.14236,
        0.39118,
        -5.7696,
        0.053939,
        0.17508,
        0.12953,
        0.3142,
        0.63997,
        0.077125,
        0.13974,
        -0.37771,
        5.0444,
        -0.11569,
        -0.18769,
        -0.38976,
        0.58889,
        -0.41069,
        0.27341,
    ),
    3: (
        -0.09541,
        0.35649,
        -4.7088,
        -0.045951,
        0.29854,
        -0.085694,
        0.31814,
        0.52159,
        -0.36874,
        0.077462,
        -0.3425,
        3.7818,
        -0.22374,
        -0.42502,
        0.045464,
        0.47514,
        -0.41029,
        0.7206,
    ),
    4: (
        -0.059455,
        0.33237,
        -4.3808,
        -0.037127,
        0.45427,
        -0.13373,
        0.31402,
        0.51875,
        -0.496,
        0.044791,
        -0.33737,
        5.4689,
        -0.29754,
        -0.669,
        0.082926,
        0.39423,
        -0.40652,
        0.864,
    ),
}
"""Per player count, one coefficient per ``FEATURES`` entry (bench/conspiracy_fit.py)."""
