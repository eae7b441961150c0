"""Conspiracy's HARD player: the search of games.search, with short simulations.

Conspiracy is long and almost fully public, so a playout to the end is costly and,
early on, says little. A simulation plays the seat's choice, the rest of its turn
by NORMAL, and one round (every other player's turn, by NORMAL too) until the
seat's next turn starts; there a fitted estimate (``odds.win_chance``, a softmax
of public features fitted on NORMAL's games) says who is likely to win. Once the
fullest chamber holds ``finish_from`` Lords, simulations play the game out instead
(up to ``horizon`` choices): the last turns decide the game and are few. What the search sees that
NORMAL does not: the Lords the reveals turn up, what the others take of what a
choice leaves them, and how the game ends.

Only NORMAL's best-valued choices are weighed (``shortlist``), and the order of
placing and the swaps are left to NORMAL: fewer choices, more simulations each.
Against NORMAL, 2 players, 60 games (seeds 11-70, 20 simulations a decision,
caution 1): the round alone won 48 %, with the game played out from 10 Lords
57 % (both within noise of each other: ± 13 points). At the 0.2 s budget the
search's usual caution (2 standard errors) did better than 1 (seeds 1-30: 53 %
against 40 % at 2 players, 27 % against 20 % at 4): with a handful of
simulations per choice, weaker evidence overrides NORMAL on noise.

Garbage collection: full collections (each traverses the long-lived heap: the
engine's cached chamber views, NORMAL's memos) took about half of a decision's
CPU and made the decisions over twice the budget (up to 0.27 s of CPU each). A
decision now runs with the collector paused and freezes what lives after it
(``collector_paused``): about twice the simulations (2 players at 0.2 s: 40-90
a decision before 10 Lords, 15-30 after), and no decision over the budget.
Played-out simulations start at 12 Lords (from 10, only 2-3 fitted in 0.2 s:
never enough to override NORMAL).

The cut-off estimate was the limit. It used to be NORMAL's standing of every
chamber (``ai.win_share``: a softmax of the very value NORMAL chooses by, with one
scale), so a round of simulation could hardly disagree with NORMAL: the search
kept NORMAL's choice in about nine searched decisions of ten. Measured then
(``bench.ai --hard --game conspiracy --against normal --clock cpu``, seeds 1-60,
60 games a cell, 95 % intervals), one HARD seat against NORMAL: at 0.2 s, 2
players 56.7 ± 12.5 % (fair 50), 3 players 53.3 ± 12.6 % (fair 33), 4 players
26.7 ± 11.2 % (fair 25); at 1.0 s, 2 players 50.0 ± 12.7 %, 4 players (32 games)
34.4 ± 16.5 %. NORMAL's weights are a local optimum (each of frontier,
key_progress, key_both, reveal_leak, location_leak, deny moved either way lost or
tied, 300 games at 2 players; a bonus per Lord recruited, to hasten the end, lost
too).

``odds.win_chance`` predicts NORMAL's games better (held-out log-loss at 4
players 1.107 against 1.215; see bench/conspiracy_fit.py): it knows that early
leads say little, that room left in a chamber counts on the last turns, and the
tempo of who moves next. With it, CPU clock, at 0.2 s (the ledger,
bench/results/hard.jsonl): 2 players 62.3 % (55.4-68.7) of 200 games, 3 players
58.5 % (51.6-65.1) of 200, 4 players 44.7 % (37.6-52.0) of 179 (goals, fair + 15:
65, 48, 40): the goal is missed at 2 players. Decisions: median 160 ms, max 172 ms
of CPU. A helper's first 80 games a cell had given 70.6 / 57.5 / 52.5 %, and at
1.0 s (40 games a cell) 70.0 / 60.0 / 52.5 %: small samples.

At 2 players the search is less cautious (``caution_at``: 1 standard error). With
the fitted leaf and caution 2, a searched decision at 0.2 s had a median of 96
simulations (3 choices) with 0-2 Lords in the fullest chamber, 55 at 9-11 and 30
at 12-14 (played out), and overrode NORMAL in 25 %, 10 % and 4 % of them (60
games). Caution 1 overrides in 36 %, 22 % and 23 %. Its first 60 games (seeds
1-60, dev runs) said 68.3 % against 59.2 % with caution 2 (caution 0.5: 67.5 %),
but 200 games (seeds 1-200, CPU clock) give 63.0 % (56.1-69.4) against the
ledger's 62.3 %: 47 games won that caution 2 lost, 45 lost that it won. No better,
no worse: the goal (65 %) is still missed at 0.2 s. The same settings replayed
differ in a third of the games (the clock cuts the simulations), so 60 paired
games cannot tell a few points apart. At 1.0 s (the bot's budget), 2 players:
73.3 % (61.0-82.9) of 60 games, decisions max 811 ms of CPU. At 3 and 4 players
the same player decides (``for_players``): their first 60 games gave 55.0 %
(42.5-66.9) and 50.0 % (37.7-62.3), the ledger's 60.0 and 46.7 % on the same
seeds. Not playing the
simulations out at all (a round and the leaf to the end: twice the simulations at
12-14 Lords) won 55.8 % of seeds 1-60 (59.2 % from 12 Lords, caution 2).

More simulations at 2 players. Most of a simulation is NORMAL choosing, and head to
head most of NORMAL was its ``deny`` (the opponent's value of every discard pile,
worked out again for each choice). NORMAL now remembers those pile values, the
reveal values (by board and deck) and the three expected bests in one pass: the same
decisions (NORMAL's games and fixed-count searches, 2 and 3 players, identical), a
simulation at 12-14 Lords 6.2 -> 3.85 ms of CPU, at 0-5 Lords 1.6 -> 1.2 ms; the search
also plans on 90 % of its budget (``headroom`` 0.1, was 0.2). At 0.2 s, CPU clock,
seeds 1-200: 64.5 % (57.7-70.8) against 63.0 % before (98 games won by both, 29
won only before, 32 only now): within noise, still short of the wanted margin. The
speed alone (headroom 0.2), seeds 1-55: 36 wins, as many as before. Halving the
0/1 outcome of a played-out game with a softmax of the final points (scale 3 points,
to see a choice's points when no win changes hands) was neutral: seeds 1-68, 49
wins with and without. Playing out from 11 Lords costs 10 ms a simulation (2.5 for
a round): about 6 simulations a choice at 0.2 s, too few. At 3 players (the faster
NORMAL and the headroom change its simulation counts only), seeds 1-200: 57.5 %
(50.6-64.1) against 58.5 % before, decisions median 180 / p99 185 / max 205 ms; at
4 players 50.0 % (43.1-56.9) against 44.7 % of 179 before (on those 179 seeds, 86
wins against 80), max 199 ms. At the bot's 1.0 s, 2 players, seeds 1-100: 71.5 %
(62.0-79.4), decisions max 916 ms of CPU; seeds 1-200: 70.0 % (63.3-75.9), max 935
ms."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from games.base import Event, Prompt, Seat
from games.search import SearchPolicy, collector_paused, share_of

from .ai import NormalPolicy, context_of
from .cards import CHAMBER_SIZE
from .models import ConspiracyState, ConspiracyView, Stage
from .odds import win_chance

Leaf = Callable[[ConspiracyView, Seat], float]
"""The seat's expected share of the win in an unfinished game, from a view."""

SEARCHED_STAGES = (Stage.RECRUIT, Stage.KEEP, Stage.LOCATION, Stage.LOCATION_KEEP)
"""Where the search weighs choices; the order of placing and the swaps are NORMAL's."""


class RoundSearch(SearchPolicy[ConspiracyView, ConspiracyState]):
    """Simulations end when the seat's next turn starts (or the game ends, or after
    ``horizon`` choices). Only NORMAL's ``shortlist`` best-valued choices are tried."""

    def __init__(
        self,
        *args: Any,
        shortlist: int = 3,
        finish_from: int = CHAMBER_SIZE,
        leaf: Leaf = win_chance,
        caution_at: Mapping[int, float] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.shortlist = shortlist
        self.caution_at = dict(caution_at or {})
        """The caution at these player counts (at the others, the settings')."""
        self.leaf = leaf
        """Who wins where a simulation stops before the end (odds.win_chance)."""
        self.finish_from = finish_from
        """From this many Lords in the fullest chamber on, simulations play the game
        out (up to ``horizon`` choices) instead of stopping after a round."""

    def recall(
        self,
        view: ConspiracyView,
        prompt: Prompt[Any],
        rng: random.Random,
        history: Sequence[Event],
    ) -> Any:
        searcher = self.for_players(len(view.players))
        with collector_paused():
            return SearchPolicy.recall(searcher, view, prompt, rng, history)

    def for_players(self, players: int) -> SearchPolicy[ConspiracyView, ConspiracyState]:
        """This player with the caution of that player count (``caution_at``)."""
        caution = self.caution_at.get(players, self.settings.caution)
        if caution == self.settings.caution:
            return self
        return self.with_settings(replace(self.settings, caution=caution))

    def candidates(
        self,
        view: ConspiracyView,
        prompt: Prompt[Any],
        rng: random.Random,
        history: Sequence[Event] = (),
    ) -> list[Any]:
        guide = self.guide
        usual = guide.choose(view, random.Random(rng.random()), history)
        if view.stage not in SEARCHED_STAGES or not isinstance(guide, NormalPolicy):
            return [usual]
        ctx = context_of(view, prompt.player, guide.weights)
        ranked = sorted(prompt.choices, key=lambda c: -guide.value(ctx, c))
        return [usual, *(c for c in ranked if c != usual)][: self.shortlist]

    def simulate(
        self,
        state: ConspiracyState,
        seat: Seat,
        choice: Any,
        rng: random.Random,
        stop_at: float | None = None,
    ) -> float:
        game = self.game
        start = state.turn_number
        to_the_end = max(len(p.lords) for p in state.players) >= self.finish_from
        game.apply_in_place(state, seat, choice)
        for _ in range(self.settings.horizon):
            if game.result(state) is not None:
                break
            if not to_the_end and next_turn_of(state, seat, start):
                break
            if self.out_of_time(stop_at):
                break
            actor = state.turn
            policy = self.guide if actor == seat else self.simulated(actor, seat)
            game.apply_in_place(state, actor, policy.choose(game.view(state, actor), rng))
        result = game.result(state)
        if result is not None:
            return share_of(result, seat)
        return self.leaf(game.view(state, seat), seat)


def next_turn_of(state: ConspiracyState, seat: Seat, start: int) -> bool:
    """Whether the seat's first turn after turn number ``start`` is starting."""
    return state.turn == seat and state.stage is Stage.RECRUIT and state.turn_number > start
