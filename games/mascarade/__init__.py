"""Mascarade (2013 edition): 2 to 13 players, swapped masks and bluffed powers."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from games.ai import Level
from games.base import Event, Prompt
from games.entry import GameEntry
from games.search import SearchPolicy, SearchSettings

from .ai import NORMAL_KNOBS, POLICIES, Knobs, NormalPolicy, RememberingPolicy
from .cards import Character
from .engine import GAME, Mascarade
from .models import MascaradeOptions, MascaradeState, MascaradeView
from .sampler import SAMPLER, SWAP_ODDS, MascaradeSampler, track

SHORTLIST = 4
"""Turn choices searched besides NORMAL's own: its next best by its reckoning (a big
table offers some twenty, too many for the simulations a budget allows)."""

SEARCHED_PLAYERS = 6
"""The largest table where HARD searches; beyond it HARD plays its guide (NORMAL
following 200 deals, with ``BIG_TABLE_KNOBS`` and ``FREE_SWAP_ODDS``). Its
simulations play the others by a NORMAL that reads its view alone, which misjudges
the remembering NORMALs most at big tables: at 10 players the search cut soon after
the turn won 7.5 % (4.6-12.0) of 200 games where its guide won 12.0 % of the same
(0.2 s of CPU; bench/results/mascarade-hard.md has every variant measured)."""

CUT_AFTER_TURN_FROM = 4
"""The smallest table whose simulations stop soon after the turn (``horizon``);
smaller ones play 40 choices (2 and 3 players: goals met with 81.9 and 55.1 % of
1,000 games). At 4 players the 40-choice cut won 36.4 % (33.5-39.4) of 1,000 games
(goal 40 %; 45.0 % on seeds 1-200, those the fitted estimate was chosen on, 34.3 %
on the 800 after); the cut after the turn won 41.5 % of seeds 201-400 against
33.5 % (51 games won by it alone, 35 by the 40-choice cut alone), then 40.5 % of
seeds 401-600 against 33.0 % (46/31; 0.2 s of CPU, paired), and over the 1,000
games 39.2 % (36.2-42.3) against 36.4 % (222/194): a smaller gain than those 400
said, and still 0.8 points short of the goal at 0.2 s."""

POWER_CHOICES = 3
"""The most choices a power may take after the contests (the Fool: two cards and
the decision to swap them)."""

AFTER_TURN = 6
"""Choices played past the turn being decided before the fitted estimate scores
the game (roughly the next player's turn). A cut among an announcement's contests
misjudges it; this one gives some 70 simulations a decision at 6 players and 0.2 s
of CPU (18 with the old cut after 40 choices), and HARD won 29.0 % (23.2-35.6) of
200 games there against 16.5 % (12.0-22.3) with the old cut (seeds 1-200, paired:
48 games won by the new alone, 23 by the old alone; goal 32 %). The other cuts,
settings and models tried at 6 players, none kept: bench/results/mascarade-hard.md."""

BIG_TABLE_KNOBS = Knobs(
    future=0.8, contest_knowing=0.8, contest_noise=0.12, rival_weight=0.7, variety=0.0
)
"""HARD's own weights beyond SEARCHED_PLAYERS, where it plays its guide (NORMAL's
where it searches: not measured with the search). Mostly a guide that fears a
contest more, so bluffs less. Chosen by bench/mascarade_guide.py one knob at a time
(300 games each), then confirmed together against 9 remembering NORMALs at 10
players on fresh seeds 1001-1400: 14.8 % (11.6-18.6) of 400 against 11.5 % (8.7-15.0)
with NORMAL's knobs. Each knob's figures: bench/results/mascarade-hard.md."""

FREE_SWAP_ODDS = 0.92
"""Beyond SEARCHED_PLAYERS, the chance that a swap another seat chose on its own
turn (not a forced one) really exchanged the cards, as HARD's memory follows the
deals (``track``; forced swaps and the powers' keep SWAP_ODDS, 0.8). Remembering
NORMALs at 10 players really swapped in 544 of their 593 chosen swaps (92 %) and
115 of 147 forced ones (78 %; 30 self-play games). HARD then won 18.0 % (13.3-23.9)
of 200 games at 10 players against remembering NORMALs, 13.5 % before; its guide
alone 18.5 % (15.0-22.6) against 14.8 % (11.6-18.6) on fresh seeds 1001-1400. Where
HARD searches (6 players and fewer) its memory is as before."""

MARGIN = 0.9
"""Share of the budget the search may plan to use (one simulation may end past it)."""


class MascaradeSearch(SearchPolicy[MascaradeView, MascaradeState]):
    """The search (games.search) from a NORMAL that remembers (its beliefs follow the
    deals tracked through the seat's history, as the sampler's states do), over its
    shortlist of turn choices."""

    shortlist = SHORTLIST
    searched_players = SEARCHED_PLAYERS
    remembers = True
    """Track the deals through the history once per decision, for the guide's beliefs
    and the sampler's deals (else both read the view alone)."""
    big_table_knobs = BIG_TABLE_KNOBS
    """The guide's weights beyond ``searched_players`` (NORMAL's at smaller tables)."""

    def recall(
        self, view: Any, prompt: Prompt[Any], rng: random.Random, history: Sequence[Event]
    ) -> Any:
        started = self.clock()
        deals = (
            track(view, history, free_odds=self.free_swap_odds(view)) if self.remembers else None
        )
        moment = copy.copy(self)
        # The tracking is part of the decision's budget, and a simulation at ten
        # players is long: a margin keeps the slow ones under the budget.
        left = self.settings.budget_seconds * MARGIN - (self.clock() - started)
        moment.settings = replace(self.settings, budget_seconds=max(left, 0.0))
        moment.guide = RememberingPolicy(deals, knobs=self.guide_knobs(view))
        moment.sampler = MascaradeSampler(deals, tracking=self.remembers)
        return SearchPolicy.recall(moment, view, prompt, rng, history)

    def searches(self, view: MascaradeView) -> bool:
        """Whether HARD searches at this table (else it plays its guide)."""
        return len(view.players) <= self.searched_players

    def free_swap_odds(self, view: MascaradeView) -> float:
        """SWAP_ODDS where HARD searches; FREE_SWAP_ODDS where it plays its guide."""
        return SWAP_ODDS if self.searches(view) else FREE_SWAP_ODDS

    def guide_knobs(self, view: MascaradeView) -> Knobs:
        """NORMAL's weights where HARD searches; its own where it plays its guide."""
        return NORMAL_KNOBS if self.searches(view) else self.big_table_knobs

    def candidates(
        self,
        view: Any,
        prompt: Prompt[Any],
        rng: random.Random,
        history: Sequence[Event] = (),
    ) -> list[Any]:
        usual, *others = super().candidates(view, prompt, rng, history)
        if not self.searches(view):
            return [usual]
        assert isinstance(self.guide, RememberingPolicy)
        kept = self.guide.shortlist(view, prompt, self.shortlist)
        return [usual, *(c for c in others if c in kept)]

    def horizon(self, state: MascaradeState) -> int:
        """From CUT_AFTER_TURN_FROM players on, the rest of the turn being decided and
        AFTER_TURN choices more (else the settings' horizon): a cut in the middle of an
        announcement would score it before its power is used."""
        if state.seats < CUT_AFTER_TURN_FROM:
            return self.settings.horizon
        announcement = state.announcement
        asks = len(announcement.to_ask) if announcement is not None else 0
        return asks + POWER_CHOICES + AFTER_TURN


HARD = MascaradeSearch(
    GAME,
    SAMPLER,
    rollout=NormalPolicy(),
    settings=SearchSettings(horizon=40),
    guide=RememberingPolicy(),
)
"""Searches over sampled hidden cards from NORMAL's choice (with the beliefs the
history gives), playing on with NORMAL from the views alone (games.search); a
simulation cut off (after 40 choices at 2 and 3 players, soon after the turn from 4 on:
``MascaradeSearch.horizon``) is scored by the fitted odds (games.mascarade.odds) from
4 players on."""

ENTRY = GameEntry(GAME, {**POLICIES, Level.HARD: HARD})
"""This game's registration (games.registry)."""

__all__ = [
    "ENTRY",
    "GAME",
    "Character",
    "Mascarade",
    "MascaradeOptions",
    "MascaradeState",
    "MascaradeView",
]
