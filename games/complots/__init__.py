"""Complots (the Coup family), with the Ambassador or the Inquisitor."""

from games.ai import Level
from games.entry import GameEntry
from games.search import SearchPolicy, SearchSettings

from .ai import POLICIES
from .cards import ActionKind, Character, Variant
from .engine import GAME, Complots
from .models import ComplotsOptions, ComplotsState, ComplotsView
from .sampler import SAMPLER
from .stats import bluff_stats

STOPS_FROM = 4
"""From this many players a simulation still running at the decision's planned end
stops there (games.search ``stops_at_deadline``). At 4 players, with the headroom
alone, 1.25 % of HARD's decisions took over 0.2 s of CPU against NORMALs (1,000 games;
p99 205 ms, max 236): a last simulation of 15-50 ms after others of 3-8. With the
stop, a scratch probe (100 games against NORMALs, 2,842 decisions): none over, p99
191 ms, max 193. At 2 and 3 players the p99 was under the budget, and their cells
were measured without the stop."""


class ComplotsSearch(SearchPolicy[ComplotsView, ComplotsState]):
    """The search (games.search), stopping at the deadline from STOPS_FROM players."""

    def stops_at_deadline(self, view: ComplotsView) -> bool:
        return len(view.players) >= STOPS_FROM


HARD = ComplotsSearch(
    GAME,
    SAMPLER,
    rollout=POLICIES[Level.NORMAL],
    # The headroom: without it a decision's last simulation ran past the budget in
    # about half the decisions (200 games at 2 players, 0.2 s: p99 202 ms, max 204).
    settings=SearchSettings(horizon=24, guide_remembers=True, headroom=0.05),
    guide=POLICIES[Level.NORMAL],
)
"""Searches over sampled hidden cards from NORMAL's choice (made with the seat's
history), playing on with NORMAL (games.search)."""

ENTRY = GameEntry(GAME, {**POLICIES, Level.HARD: HARD}, stats=bluff_stats)
"""This game's registration (games.registry)."""

__all__ = [
    "ENTRY",
    "GAME",
    "ActionKind",
    "Character",
    "Complots",
    "ComplotsOptions",
    "ComplotsState",
    "ComplotsView",
    "Variant",
]
