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

from .ai import POLICIES, NormalPolicy, RememberingPolicy
from .cards import Character
from .engine import GAME, Mascarade
from .models import MascaradeOptions, MascaradeState, MascaradeView
from .sampler import SAMPLER, MascaradeSampler, track

SHORTLIST = 4
"""Turn choices searched besides NORMAL's own: its next best by its reckoning (a big
table offers some twenty, too many for the simulations a budget allows)."""

SEARCHED_PLAYERS = 10
"""The largest table where HARD searches; beyond it HARD plays its guide (NORMAL
following 200 deals), which won 12.0 % (8.2-17.2) of 200 games against remembering
NORMALs at 10 players. A decision there gets too few simulations to judge its
choices: at 0.2 s of CPU, a median of 8 simulations for a median of 2 choices, 62 %
of them cut off by the horizon (3 games, 61 searched decisions). With the coins'
softmax as the cut-off's estimate (worse than a coin at 10 players) HARD won 1.7 %
(0.3-8.9) of 60 games; with the fitted estimate (games.mascarade.odds) 8.6 %
(4.0-17.5) of 70 (seeds 0-69), where its guide won 5.7 % of the same 70: no gain
shown for the search's cost."""

CUT_AFTER_TURN_FROM = 5
"""The smallest table whose simulations stop soon after the turn (``horizon``);
smaller ones play 40 choices, as measured there (2-4 players: goals met)."""

POWER_CHOICES = 3
"""The most choices a power may take after the contests (the Fool: two cards and
the decision to swap them)."""

AFTER_TURN = 6
"""Choices played past the turn being decided before the fitted estimate scores
the game (roughly the next player's turn)."""

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

    def recall(
        self, view: Any, prompt: Prompt[Any], rng: random.Random, history: Sequence[Event]
    ) -> Any:
        started = self.clock()
        deals = track(view, history) if self.remembers else None
        moment = copy.copy(self)
        # The tracking is part of the decision's budget, and a simulation at ten
        # players is long: a margin keeps the slow ones under the budget.
        left = self.settings.budget_seconds * MARGIN - (self.clock() - started)
        moment.settings = replace(self.settings, budget_seconds=max(left, 0.0))
        moment.guide = RememberingPolicy(deals)
        moment.sampler = MascaradeSampler(deals, tracking=self.remembers)
        return SearchPolicy.recall(moment, view, prompt, rng, history)

    def candidates(
        self,
        view: Any,
        prompt: Prompt[Any],
        rng: random.Random,
        history: Sequence[Event] = (),
    ) -> list[Any]:
        usual, *others = super().candidates(view, prompt, rng, history)
        if len(view.players) > self.searched_players:
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
simulation cut off after 40 choices is scored by the fitted odds (games.mascarade.odds)
from 4 players on."""

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
