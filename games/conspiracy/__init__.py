"""Conspiracy (Abyss Universe): recruit Lords, pair keys for Locations, build a chamber."""

from games.ai import Level
from games.entry import GameEntry
from games.search import SearchSettings

from .ai import POLICIES
from .cards import Colour, LocationId
from .engine import GAME, Conspiracy
from .hard import RoundSearch
from .models import ConspiracyOptions, ConspiracyState, ConspiracyView
from .sampler import SAMPLER

HARD = RoundSearch(
    GAME,
    SAMPLER,
    rollout=POLICIES[Level.NORMAL],
    # The headroom: NORMAL's shortlist comes before the simulations, and a played-out
    # simulation can run longer than the average the search plans with. With the
    # collector paused (hard.collector_paused) the last one ended at most 12 ms past
    # the plan at 0.2 s, so a tenth of the budget is kept (was a fifth): 2 players,
    # 200 games, median 180 ms, p99 185 ms, max 203 ms of CPU (3 of 5,280 over 200).
    settings=SearchSettings(horizon=40, headroom=0.1),
    guide=POLICIES[Level.NORMAL],
    finish_from=12,
    # Head to head, one standard error of gain overrides NORMAL: 200 games at 0.2 s
    # gave 63.0 % against 62.3 % with two (games.conspiracy.hard): no worse, no better.
    caution_at={2: 1.0},
)
"""Searches from NORMAL's choice over sampled deck orders, one round ahead (to the
end from 12 Lords on) with NORMAL in every seat, then a fitted estimate of who wins
(games.conspiracy.hard, games.conspiracy.odds)."""

ENTRY = GameEntry(GAME, {**POLICIES, Level.HARD: HARD})
"""This game's registration (games.registry)."""

__all__ = [
    "ENTRY",
    "GAME",
    "Colour",
    "Conspiracy",
    "ConspiracyOptions",
    "ConspiracyState",
    "ConspiracyView",
    "LocationId",
]
