"""The Bloody Inn: greedy innkeepers bribe, kill and bury their guests (1-4 players)."""

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.ai import Level, Policy
from games.base import Event, Prompt, Seat
from games.entry import GameEntry
from games.search import SearchPolicy, SearchSettings

from .ai import NORMAL_WEIGHTS, POLICIES, InnPrompt, Judge, NormalPolicy, Weights
from .cards import ActionKind, Card, GuestType
from .engine import GAME, BloodyInn
from .models import (
    BloodyInnChoice,
    BloodyInnOptions,
    BloodyInnState,
    BloodyInnView,
    Cancel,
    Length,
    Pass,
    Stage,
)
from .sampler import SAMPLER


class InnSearch(SearchPolicy[BloodyInnView, BloodyInnState]):
    """The search thinks over the Night's actions and their targets; the small
    steps around them (where a guest sleeps, which accomplice pays, whose annex
    takes a corpse...) are NORMAL's, as the search plays them in its simulations.
    Of a target's many rooms it weighs only the SHORTLIST NORMAL values most: at
    4 players a 0.2 s decision holds about 17 simulations (10 ms each), too few
    for ten targets."""

    def candidates(
        self,
        view: Any,
        prompt: Prompt[Any],
        rng: random.Random,
        history: Sequence[Event] = (),
    ) -> list[Any]:
        choices = super().candidates(view, prompt, rng, history)
        if view.stage not in SEARCHED:
            return choices[:1]
        usual = choices[0]
        # How much to launder is NORMAL's call: one Pass is enough to weigh passing.
        passing = usual if isinstance(usual, Pass) else Pass(launder=0)
        choices = [c for c in choices if not isinstance(c, Pass) or c == passing]
        if view.stage is Stage.TARGET and len(choices) > SHORTLIST:
            choices = [usual, *shortlist(view, choices[1:], SHORTLIST - 1)]
        return choices

    def simulated(self, actor: Seat, seat: Seat) -> Policy[Any, Any]:
        """The seat's own later decisions in its simulations are its guide's, as it
        will play them (GUIDE_WEIGHTS), not NORMAL's; the others' stay NORMAL's."""
        return self.guide if actor == seat else super().simulated(actor, seat)

    def horizon(self, state: BloodyInnState) -> int:
        """About a round: the horizon is set for two players, each more adds its turns."""
        return self.settings.horizon + STEPS_PER_PLAYER * (state.seats - 2)


def shortlist(view: BloodyInnView, targets: list[Any], count: int) -> list[Any]:
    """The ``count`` targets NORMAL values most (a few simulations cannot weigh ten
    rooms: they go to the targets a rule of thumb finds worth trying)."""
    assert view.pending is not None
    judge = Judge(view, NORMAL_WEIGHTS)
    action = view.pending.action
    ranked = sorted(targets, key=lambda c: -judge.target_value(action, c))
    return ranked[:count]


class SizedGuide(NormalPolicy):
    """NORMAL's rule of thumb, with other weights at the table sizes named."""

    def __init__(self, weights: Mapping[int, Weights]) -> None:
        super().__init__()
        self.by_players = {players: NormalPolicy(w) for players, w in weights.items()}

    def decide(self, view: BloodyInnView, prompt: InnPrompt, rng: random.Random) -> BloodyInnChoice:
        policy = self.by_players.get(len(view.players))
        if policy is None:
            return super().decide(view, prompt, rng)
        return policy.decide(view, prompt, rng)


BRIBING = Weights(wage_rounds=1.25)
"""An accomplice expected to cost fewer wages before it is spent, so bribing is worth
more."""
GUIDE_WEIGHTS = {3: BRIBING, 4: BRIBING}
"""HARD's guide's own weights, by table size (NORMAL's elsewhere).
bench/bloody_inn_guide.py, the guide alone against NORMALs, paired on seeds from
10001: at 3 players 39.1 % against NORMAL's weights' 32.2 % of 2,000 games (466
won by it alone, 326 by NORMAL's weights alone); at 4 players 29.6 % against 24.2 %
of 1,500 (279 against 192). In HARD it shows only when the simulations play the
seat's own future by it too (``InnSearch.simulated``); every weight measured:
bench/results/guides.md."""

SEARCHED = (Stage.ACTION, Stage.TARGET)
SHORTLIST = 5
"""Targets searched at most, NORMAL's choice included."""
STEPS_PER_PLAYER = 6
"""Choices one more player adds to a round: a room to fill, two actions."""

HARD = InnSearch(
    GAME,
    SAMPLER,
    rollout=POLICIES[Level.NORMAL],
    settings=SearchSettings(horizon=20, headroom=0.15, caution=1.0),
    guide=SizedGuide(GUIDE_WEIGHTS),
    undoing=(Cancel,),
)
"""Searches over sampled hidden cards from its guide's choice (NORMAL's rule of thumb,
with weights of its own at 3 and 4 players), playing on with NORMAL in the other
seats and its guide in its own for about a round (20 choices at 2 players, 32 at
4), then the sampler's estimate of each player's final score (games.search).
Another choice replaces the guide's when its paired gain exceeds one standard error
(caution 1.0): against a 40-simulation reference at 129 four-player moments, 14
simulations chose worse by 0.004 of a win on average with it, 0.015 with caution
2.0 and every target (NORMAL: 0.035).

Measured (bench.ai --hard --clock cpu, one HARD seat against NORMAL ones, 0.2 s per
decision, 1,000 games each, 95 % Wilson intervals; the goal is the fair share + 15
points; bench/results/hard.jsonl): 71.7 % (68.8-74.4) at 2 players; with its
guide's own weights (``GUIDE_WEIGHTS``) playing its seat in the simulations too,
53.8 % (50.7-56.9) at 3, where NORMAL's weights had won 48.0 % of the same games
(254 won only now, 195 only then), and 45.1 % (42.1-48.2) at 4 (24 simulations a
searched decision), where NORMAL's weights had won 34.4 % of the first 298 of those
games in a run outside the ledger (83 won only now, 43 only then). Decisions: a
median of at most 5 ms, p99 at most 180 ms, the longest 234 ms."""

ENTRY = GameEntry(GAME, {**POLICIES, Level.HARD: HARD})
"""This game's registration (games.registry)."""

__all__ = [
    "ENTRY",
    "GAME",
    "ActionKind",
    "BloodyInn",
    "BloodyInnOptions",
    "BloodyInnState",
    "BloodyInnView",
    "Card",
    "GuestType",
    "Length",
]
