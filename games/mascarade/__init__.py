"""Mascarade (2013 edition): 2 to 13 players, swapped masks and bluffed powers."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from games.ai import Level, Policy
from games.base import Event, Prompt, Seat
from games.entry import GameEntry
from games.search import SearchPolicy, SearchSettings, collector_paused

from .ai import (
    NORMAL_KNOBS,
    NORMAL_PARTICLES,
    POLICIES,
    Knobs,
    Mind,
    NormalPolicy,
    RememberingPolicy,
    beliefs_from,
    flat_memories,
)
from .cards import Character
from .engine import GAME, Mascarade
from .models import MascaradeChoice, MascaradeOptions, MascaradeState, MascaradeView, Swap
from .sampler import (
    SAMPLER,
    SWAP_ODDS,
    Follower,
    MascaradeSampler,
    Replayed,
    Table,
    learned_value,
    net_for,
    track,
)

SHORTLIST = 4
"""Turn choices searched besides NORMAL's own: its next best by its reckoning (a big
table offers some twenty, too many for the simulations a budget allows)."""

SEARCHED_PLAYERS = 6
"""The largest table where HARD searches with the fitted odds as its estimate.
Beyond, it searches only where a learned value was trained for the table (10
players, the official set: ``MascaradeSearch.searches``), else plays its guide
(NORMAL following 200 deals); beyond it either way, with ``BIG_TABLE_KNOBS``,
``FREE_SWAP_ODDS`` and ``THREAT_COINS``. There its simulations play the others by a
NORMAL that reads its view alone, sure of its own card (``SureOfOwn``; up to 6
players, as remembering NORMALs: ``REMEMBERED_SIZES``), which misjudges the
remembering NORMALs most at big tables: at 10 players the
search scored by the fitted odds and cut soon after the turn won 7.5 % (4.6-12.0) of
200 games where its guide won 12.0 % of the same (0.2 s of CPU). Scored by the
learned value and cut at the turn's end, it won 17.0 % of seeds 201-400 where the
guide won 15.5 % (28/25), and with ``THREAT_COINS`` 20.5 % (35/25);
bench/results/mascarade-hard.md has every variant measured."""

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

AFTER_TURN_LEARNED = 0
"""``AFTER_TURN`` where the learned value scores the game (games.mascarade.value,
trained for 6 and 10 players): a simulation stops once the turn being decided and its power
are played, some 116 simulations a searched decision at 0.2 s of CPU instead of 56.
Screened at 6 players on seeds 205-404 (the ledger's games 204-403, so paired with
its cell of the HARD before, which had won 16-20 % of them; those settings had been
chosen on seeds 1-200): the net with this cut won 27.9 % of 111 games (25 won by it
alone, 12 by the HARD before alone), the net with the cut 6 choices later 24.7 % of
77 (15/11), this cut with the fitted odds 6.8 % of 44 (3/9). The net is what lets
the simulations stop this early; at a fixed 40 simulations and the old cut it changed
nothing (29.0 % of seeds 1-200 either way, 36/36). The 1,000-game cell:
bench/results/mascarade-hard.md."""

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

REMEMBERED_SIZES = frozenset({2, 3, 4, 6})
"""The tables whose simulations play the other seats as remembering NORMALs
(``Minds``), each with the history its sampled state's story gives it, instead of
NORMALs reading their views alone. Screened against remembering NORMALs at 0.2 s of
CPU, paired with the HARD before on the same seeds (games won by the new alone /
by the old alone): 2 players 92.0 % of 88 games against 80.7 % (15/5), 3 players
69.0 % of 100 against 55.0 % (27/13), 4 players 62.0 % of 100 against 37.0 %; at 4
players and 40 simulations a decision, 61.5 % of 200 against 36.5 % (71/21). At 6
players they had cost three quarters of the simulations and gained nothing measurable
(30.0 % of 200 against 28.0 %, 39/35, 28 simulations a searched decision instead of
101); started only for the seats that decide (``Minds``), with the collector paused
and the stop at the deadline (``STOPPED_SIZES``), 38.2 % (35.2-41.3) of 1,000 games against
the view-only others' 29.1 % (242/151; 82 simulations a searched decision; at a
fixed 40, 31.8 % of 255 against 29.4 %, 54/48). The 1,000-game cells:
bench/results/mascarade-hard.md."""

THREAT_COINS = 10
"""Beyond SEARCHED_PLAYERS, HARD's search also weighs every swap with a player this
rich (``MascaradeSearch.threat_swaps``): the King and the Cheat win from here, and
the swap is how to take such a card before its holder's turn. HARD's guide at 10
players lost 47 of 200 games to a true Cheat and 28 to a true King
(bench/mascarade_ends.py). At 10 players, 0.2 s of CPU: 20.5 % of seeds 201-400
where the search without them won 17.0 % (15/8) and the guide 15.5 % (35/25). From
9 coins: 19.1 % of 403 games where this won 18.6 % (22/20); from 8, less."""

STOPPED_SIZES = frozenset({2, 3, 6})
"""The tables whose simulations stop at the decision's deadline
(``MascaradeSearch.stops_at_deadline``): below CUT_AFTER_TURN_FROM, where one may play
40 choices, and at 6 players, where the others remember (``REMEMBERED_SIZES``) and a
simulation whose announcement asks all five of them starts each one's deals (some 7
ms a seat) where most simulations take 2-3 ms."""

MARGIN = 0.9
"""Share of the budget the search may plan to use (where its simulations do not stop
at the deadline, ``STOPPED_SIZES``, a last one may end past it)."""


class Minds:
    """What the other seats remember in one decision's simulations. Each state drawn
    from the seat's stories comes with its game (``MascaradeSampler.replayed``):
    each other seat's deals (``Follower``, as a remembering NORMAL follows them)
    are started from the history that game gives it, then copied for each
    simulation of that state and stepped through the simulation's events.

    All of it happens when the seat first decides (``follower``): a simulation
    where it decides nothing (a swap's, most often) starts, copies and steps nothing
    for it. The deals are the same either way: a follower depends only on its seat's
    story and on the events it is shown, in order."""

    def __init__(self, sampler: MascaradeSampler, viewer: Seat) -> None:
        self.sampler = sampler
        self.viewer = viewer
        """The searching seat (its own later decisions are not a remembering NORMAL's)."""
        self.started: dict[Seat, Follower | None] = {}
        """The followers of the last state drawn, as its story leaves them."""
        self.source: Replayed | None = None
        """The last state drawn's game."""
        self.table: Table | None = None
        """The table of the last state drawn."""
        self.current: dict[Seat, Follower | None] | None = None
        """This simulation's followers, by seat (None: the others read their views
        alone)."""
        self.events: list[Event] = []
        """This simulation's events so far."""
        self.read: dict[Seat, int] = {}
        """How many of them each follower of ``current`` has stepped through."""

    def begin(self, state: MascaradeState) -> None:
        """Before a simulation from a copy of the last state drawn."""
        replayed = self.sampler.replayed
        if replayed is None:
            self.current = None
            return
        if replayed is not self.source:
            self.started = {}
            self.source = replayed
            self.table = Table(state.seats, state.hand_size, tuple(state.characters))
        self.current = {}
        self.events = []
        self.read = {}

    def observe(self, events: Sequence[Event]) -> None:
        """The simulation's events, for its followers to step through when asked."""
        if self.current is not None:
            self.events.extend(events)

    def follower(self, seat: Seat) -> Follower | None:
        """The seat's deals in this simulation, up to its last event (None: the
        searching seat, a seat whose deals cannot be followed, or no stories)."""
        current = self.current
        if current is None or seat == self.viewer:
            return None
        if seat not in current:
            if seat not in self.started:
                self.started[seat] = self.start(seat)
            origin = self.started[seat]
            current[seat] = None if origin is None else origin.copy()
            self.read[seat] = 0
        follower = current[seat]
        if follower is not None:
            for event in self.events[self.read[seat] :]:
                if event.audience is None or seat in event.audience:
                    follower.step(event)
            self.read[seat] = len(self.events)
        return follower

    def start(self, seat: Seat) -> Follower | None:
        """The seat's deals as the last state drawn's story leaves them."""
        replayed, table = self.source, self.table
        assert replayed is not None and table is not None
        return Follower.start(
            table,
            seat,
            replayed.knowledge[seat].memories(),
            replayed.histories[seat],
            NORMAL_PARTICLES,
            random.Random(replayed.salt + seat),
        )

    def deals(self, seat: int, view: MascaradeView) -> list[list[Character]] | None:
        follower = self.follower(seat)
        return None if follower is None else follower.deals(flat_memories(view))


class ObservedMascarade(Mascarade):
    """The rules, telling a decision's ``Minds`` every step of its simulations."""

    def __init__(self, minds: Minds) -> None:
        super().__init__()
        self.minds = minds

    def apply_in_place(
        self, state: MascaradeState, seat: int, choice: MascaradeChoice
    ) -> list[Event]:
        events = super().apply_in_place(state, seat, choice)
        self.minds.observe(events)
        return events


class Recalling(NormalPolicy):
    """Another seat in a simulation: NORMAL with the deals its ``Minds`` follow (the
    view alone when it has none)."""

    def __init__(self, minds: Minds, seat: int) -> None:
        self.minds = minds
        self.seat = seat

    def decide(self, view: MascaradeView, prompt: Any, rng: random.Random) -> MascaradeChoice:
        deals = self.minds.deals(self.seat, view)
        if deals is None:
            return super().decide(view, prompt, rng)
        return RememberingPolicy(deals).decide(view, prompt, rng)


class SureOfOwn(NormalPolicy):
    """Another seat in HARD's simulations beyond ``SEARCHED_PLAYERS``: NORMAL from its
    view, its stale memory of its own cards taken as sure. A sampled state's stale
    memories are the sampled cards, so this seat believes what it holds, as a
    remembering NORMAL mostly does (its deals guess nine cards in ten right), where
    NORMAL from a stale memory doubts it. The others' answers to HARD's announcements
    then come out as the remembering NORMALs give them: at 6 players a bluff was
    contested in 75 % of the simulations against 94 % of the real games, a true claim
    in 26 % against 21 %; with this seat 99 % and 19 % (against 100 and 14 %; probes of
    40 games each, bench/results/mascarade-hard.md). At 10 players, 0.2 s of CPU: 21.9 %
    (19.5-24.6) of 1,000 games where the search before won 20.4 % (125 won only now,
    109 only then); on seeds 401-600 22.5 % against 19.0 % (28/21). Not at 6 players:
    26.5 % of seeds 205-404 against 26.0 % (37/36)."""

    def decide(self, view: MascaradeView, prompt: Any, rng: random.Random) -> MascaradeChoice:
        assert view.viewer is not None
        memories = flat_memories(view)
        first = view.viewer * view.hand_size
        for place in range(first, first + view.hand_size):
            memory = memories[place]
            if memory is not None and memory.stale:
                memories[place] = memory.model_copy(update={"stale": False})
        return self.think(Mind(view, beliefs_from(memories, view.characters)), prompt, rng)


SURE_OF_OWN = SureOfOwn()


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

    minds: Minds | None = None
    """The other seats' memories in this decision's simulations (``plays_minds``)."""
    others_sure_of_own: bool = False
    """Whether this decision's simulations play the other seats as ``SureOfOwn``."""

    def recall(
        self, view: Any, prompt: Prompt[Any], rng: random.Random, history: Sequence[Event]
    ) -> Any:
        started = self.clock()
        moment = copy.copy(self)
        sampler = moment.sampler = self.moment_sampler(view, history)
        # The tracking is part of the decision's budget, and a simulation at ten
        # players is long: a margin keeps the slow ones under the budget.
        left = max(self.settings.budget_seconds * MARGIN - (self.clock() - started), 0.0)
        moment.settings = replace(self.settings, budget_seconds=left)
        if sampler.stories is not None:
            minds = moment.minds = Minds(sampler, view.viewer)
            moment.game = ObservedMascarade(minds)
        moment.others_sure_of_own = self.big_table(view)
        moment.guide = RememberingPolicy(sampler.deals, knobs=self.guide_knobs(view))
        with collector_paused():
            return SearchPolicy.recall(moment, view, prompt, rng, history)

    def moment_sampler(self, view: MascaradeView, history: Sequence[Event]) -> MascaradeSampler:
        """The deals tracked through the history once for the decision (for the
        guide's beliefs and the sampled states), with their stories where the
        simulations play the others as remembering players (``plays_minds``)."""
        if not self.remembers:
            return MascaradeSampler(None, tracking=False)
        if not self.plays_minds(view):
            return MascaradeSampler(track(view, history, free_odds=self.free_swap_odds(view)))
        follower = Follower.of_view(
            view, history, free_odds=self.free_swap_odds(view), keeps_story=True
        )
        if follower is None:
            return MascaradeSampler(None)
        stories = follower.stories(flat_memories(view))
        return MascaradeSampler([p.cards for p in stories], stories=stories)

    def plays_minds(self, view: MascaradeView) -> bool:
        """Whether the simulations play the other seats as remembering NORMALs."""
        return len(view.players) in REMEMBERED_SIZES

    def simulate(
        self,
        state: MascaradeState,
        seat: Seat,
        choice: Any,
        rng: random.Random,
        stop_at: float | None = None,
    ) -> float:
        if self.minds is not None:
            self.minds.begin(state)
        return super().simulate(state, seat, choice, rng, stop_at)

    def stops_at_deadline(self, view: MascaradeView) -> bool:
        """At ``STOPPED_SIZES``. Below CUT_AFTER_TURN_FROM players, where a simulation
        plays up to 40 choices and one may take several times the others' average. Such a last
        simulation overran the budget: at 3 players 1.7 % of HARD's decisions took
        over 0.2 s of CPU (up to 250 ms; p99 over the budget), each time a last
        simulation of 50-90 ms after others of 10-20 (scratch probe, 60 games; from
        4 players, 0.6 %, p99 under it). With the stop, 3 of 19,262 decisions at 2
        players and 1 of 16,774 at 3 (1,000 games each), max 206 ms; the same
        simulations a decision and no measurable loss of strength
        (bench/results/mascarade-hard.md)."""
        return len(view.players) in STOPPED_SIZES

    def simulated(self, actor: Seat, seat: Seat) -> Policy[Any, Any]:
        """The searching seat and known computers as the shared search plays them;
        another seat as a remembering NORMAL where the simulations have its memories
        (``Minds``), else ``SureOfOwn`` beyond SEARCHED_PLAYERS, else NORMAL."""
        if actor == seat or actor in self.seated:
            return super().simulated(actor, seat)
        minds = self.minds
        if minds is not None and minds.current is not None:
            return Recalling(minds, actor)
        if self.others_sure_of_own:
            return SURE_OF_OWN
        return super().simulated(actor, seat)

    def searches(self, view: MascaradeView) -> bool:
        """Whether HARD searches at this table (else it plays its guide): up to
        ``searched_players``, and beyond where a learned value was trained for the
        table (its simulations then stop at the turn's end: ``horizon``)."""
        players = len(view.players)
        return players <= self.searched_players or net_for(players, view.characters) is not None

    def big_table(self, view: MascaradeView) -> bool:
        """Beyond ``searched_players``: the guide's own knobs and swap odds."""
        return len(view.players) > self.searched_players

    def free_swap_odds(self, view: MascaradeView) -> float:
        """FREE_SWAP_ODDS beyond ``searched_players``, else SWAP_ODDS."""
        return FREE_SWAP_ODDS if self.big_table(view) else SWAP_ODDS

    def guide_knobs(self, view: MascaradeView) -> Knobs:
        """HARD's own weights beyond ``searched_players``, else NORMAL's."""
        return self.big_table_knobs if self.big_table(view) else NORMAL_KNOBS

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
        if self.big_table(view):
            kept += self.threat_swaps(view, others)
        return [usual, *(c for c in others if c in kept)]

    def threat_swaps(self, view: MascaradeView, choices: Sequence[Any]) -> list[Swap]:
        """The swaps with a player who has THREAT_COINS or more: the way to take a
        winning card from its holder before its turn (NORMAL's reckoning seldom
        ranks them among its best)."""
        threats = {
            p.seat
            for p in view.players
            if p.in_play and p.coins >= THREAT_COINS and p.seat != view.viewer
        }
        return [c for c in choices if isinstance(c, Swap) and c.target in threats]

    def horizon(self, state: MascaradeState) -> int:
        """From CUT_AFTER_TURN_FROM players on, the rest of the turn being decided and
        AFTER_TURN choices more (else the settings' horizon): a cut in the middle of an
        announcement would score it before its power is used."""
        if state.seats < CUT_AFTER_TURN_FROM:
            return self.settings.horizon
        announcement = state.announcement
        asks = len(announcement.to_ask) if announcement is not None else 0
        after = AFTER_TURN if learned_value(state) is None else AFTER_TURN_LEARNED
        return asks + POWER_CHOICES + after


HARD = MascaradeSearch(
    GAME,
    SAMPLER,
    rollout=NormalPolicy(),
    settings=SearchSettings(horizon=40),
    guide=RememberingPolicy(),
)
"""Searches over sampled hidden cards from NORMAL's choice (with the beliefs the
history gives), playing on with NORMAL from the views alone (games.search), or at 2
to 4 and 6 players (``REMEMBERED_SIZES``) the others as remembering NORMALs (``Minds``),
beyond 6 players as NORMALs sure of their own cards (``SureOfOwn``); a
simulation cut off (after 40 choices at 2 and 3 players, soon after the turn from 4 on:
``MascaradeSearch.horizon``) is scored by the learned value (games.mascarade.value) at
6 and 10 players, by the fitted odds (games.mascarade.odds) at the other sizes from 4
on. Beyond 6 players it searches only where a learned value fits (``searches``)."""

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
