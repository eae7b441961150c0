"""Who is likely to win an unfinished game of Mascarade: a learned value.

HARD's simulations stop soon after the turn they decide and score the unfinished
game (``MascaradeSampler.estimate``). From the player counts ``NETS`` has (trained
by bench/mascarade_value.py on remembering NORMAL self-play, every choice point),
the score is a small network's: each player's ``features`` go through one hidden
layer of tanh units to a score, and a softmax over the players in play turns the
scores into chances to win (the fitted logit of games.mascarade.odds is the same
with a straight line instead of the hidden layer). Other counts keep the logit.

At 6 players (6,000 games, 16 hidden units) the held-out log-loss of who wins is
1.518, where the fitted logit's is 1.631 and a coin's 1.792; at 10 players (3,000
games) 2.031 against 2.148 and 2.303 (value_weights.FIGURES). A better judge of a
position lets HARD's simulations stop at the end of the turn they decide
(games.mascarade ``AFTER_TURN_LEARNED``), twice as many of them, and lets HARD
search at 10 players, where with the fitted logit it had lost to its guide.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import repeat
from operator import add, mul

from games.base import Seat
from games.search import softmax

from .cards import CHEAT_COINS, WINNING_COINS, Character
from .models import MascaradeState, Stage
from .odds import REMOVED, power_gain

STAGES = (
    Stage.TURN,
    Stage.DECIDE,
    Stage.CONTEST,
    Stage.BISHOP,
    Stage.WITCH,
    Stage.SPY,
    Stage.FOOL_FIRST,
    Stage.FOOL_SECOND,
)
"""The moments a player's features tell apart (the others count as none)."""

SCALE = float(WINNING_COINS)
"""Coins are read in thirteenths (the winning fortune)."""


@dataclass(frozen=True)
class Layout:
    """Where each feature sits in a player's input, for one set of characters."""

    characters: tuple[Character, ...]
    """The distinct characters of the table's set, in the enum order."""
    stages: tuple[Stage, ...]
    players: int

    @property
    def size(self) -> int:
        return 2 * len(self.characters) + len(self.stages) + self.players + len(DENSE) + 3

    @cached_property
    def slots(self) -> Slots:
        """Where each one-hot group starts, and each value's place in its group."""
        dense = len(self.characters)
        wait = dense + len(DENSE)
        stage = wait + self.players
        announced = stage + len(self.stages)
        return Slots(
            character={c: i for i, c in enumerate(self.characters)},
            stage={s: i for i, s in enumerate(self.stages)},
            dense=dense,
            wait=wait,
            stages=stage,
            announced=announced,
            flags=announced + len(self.characters),
        )


@dataclass(frozen=True)
class Slots:
    """A ``Layout``'s places: its groups' first inputs, and the one-hot indexes."""

    character: dict[Character, int]
    stage: dict[Stage, int]
    dense: int
    wait: int
    stages: int
    announced: int
    flags: int


DENSE = (
    "coins",
    "lead",
    "richest_other",
    "poorest",
    "courthouse",
    "gain",
    "cheat_ready",
    "wins_now",
    "knows_own",
    "known_by",
)
"""A player's numbers: its coins, its lead on the richest other, that other's coins,
the poorest player's coins, the courthouse, what its card's power would bring it
now, it holds the Cheat with 10+ coins, its power would win now, it knows its card
(a fresh memory), the share of the others who know it."""


def features(state: MascaradeState, seat: Seat, layout: Layout) -> list[float]:
    """The seat's input (one card a seat: from 4 players on): its card (one-hot), its
    numbers (``DENSE``), how far its turn is (one-hot), the moment (one-hot), the
    character announced (one-hot), and whether it announced, holds the announced
    character, must swap this turn."""
    n = state.seats
    coins = state.coins
    in_play = state.in_play
    card = state.cards[seat]
    mine = coins[seat]
    richest_other = max(
        (c for other, c in enumerate(coins) if other != seat and in_play[other]), default=0
    )
    gain = power_gain(state, seat, card)
    cheat = card is Character.CHEAT and mine >= CHEAT_COINS
    knows_own, known_by = False, 0
    for observer, knowledge in enumerate(state.knowledge):
        if knowledge.seen[seat] is card and not knowledge.stale[seat]:
            if observer == seat:
                knows_own = True
            else:
                known_by += 1
    announcement = state.announcement
    announced = announcement.character if announcement is not None else None
    wait = (seat - state.turn) % n
    slots = layout.slots
    inputs = [0.0] * layout.size
    # The one-hot groups' single ones, by index (a value outside the layout has none).
    for group, index in (
        (0, slots.character.get(card)),
        (slots.wait, wait if wait < layout.players else None),
        (slots.stages, slots.stage.get(state.stage)),
        (slots.announced, slots.character.get(announced) if announced is not None else None),
    ):
        if index is not None:
            inputs[group + index] = 1.0
    inputs[slots.dense : slots.wait] = [
        mine / SCALE,
        (mine - richest_other) / SCALE,
        richest_other / SCALE,
        min(coins) / SCALE,
        state.courthouse / SCALE,
        gain / SCALE,
        float(cheat),
        float(cheat or mine + gain >= WINNING_COINS),
        float(knows_own),
        known_by / (n - 1),
    ]
    inputs[slots.flags :] = [
        float(announcement is not None and announcement.claimant == seat),
        float(announced is card),
        float(state.must_swap and state.turn == seat),
    ]
    return inputs


@dataclass(frozen=True)
class Net:
    """One hidden layer: score = sum(output * tanh(bias + inputs @ weights))."""

    layout: Layout
    hidden_bias: tuple[float, ...]
    input_weights: tuple[tuple[float, ...], ...]
    """One row of hidden weights per input."""
    output_weights: tuple[float, ...]

    def score(self, inputs: Sequence[float]) -> float:
        hidden: Sequence[float] = self.hidden_bias
        # Most inputs are zero (the one-hot groups): add only the others' rows; most
        # of those are one, whose row adds as it is (1.0 * w is w, to the bit).
        for value, row in zip(inputs, self.input_weights, strict=True):
            if value == 1.0:
                hidden = list(map(add, hidden, row))
            elif value:
                hidden = list(map(add, hidden, map(mul, repeat(value), row)))
        score: float = sum(map(mul, self.output_weights, map(math.tanh, hidden)))
        return score

    @classmethod
    def from_numbers(cls, layout: Layout, hidden: int, numbers: str) -> Net:
        """A net from its numbers: the hidden biases, each input's row of hidden
        weights, the output weights (bench/mascarade_value.py writes them so)."""
        values = [float(word) for word in numbers.split()]
        rows = [tuple(values[i : i + hidden]) for i in range(0, len(values), hidden)]
        if len(values) % hidden or len(rows) != layout.size + 2:
            raise ValueError(f"{len(values)} numbers do not make a net of {layout.size} inputs")
        return cls(layout, rows[0], tuple(rows[1:-1]), rows[-1])

    def numbers(self) -> list[float]:
        """The inverse of ``from_numbers``."""
        rows = [self.hidden_bias, *self.input_weights, self.output_weights]
        return [value for row in rows for value in row]

    def fits(self, players: int, characters: Sequence[Character]) -> bool:
        """Whether this net was trained for a table of this size and these cards."""
        return players == self.layout.players and set(characters) == set(self.layout.characters)

    def win_chances(self, state: MascaradeState) -> list[float]:
        """Every seat's chance to win."""
        scores = [
            self.score(features(state, seat, self.layout)) if state.in_play[seat] else REMOVED
            for seat in range(state.seats)
        ]
        return softmax(scores)


def layout_for(characters: Sequence[Character], players: int) -> Layout:
    """The layout of a table with these cards (distinct, enum order)."""
    distinct = tuple(c for c in Character if c in characters)
    return Layout(characters=distinct, stages=STAGES, players=players)
