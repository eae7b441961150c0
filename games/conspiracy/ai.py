"""Conspiracy computer players: one-ply evaluation of each legal choice.

Both levels value a choice by the chamber it leads to. NORMAL scores that
chamber as the game will (Lords' influence per colour, Locations, the largest
coalition, the Pearl Master) plus what it promises: room for the coalition to
grow, keys towards the next Location, the expected best of a blind reveal, the
game left to play. EASY only counts the influence it gains, with noise.

Nearly everything is public in Conspiracy: the view shows every chamber, every
discard pile and the face-up Locations, so the decks' contents (not their
order) follow from what is visible.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Any, TypeVar

from games.ai import Level, Policy
from games.base import Prompt, Seat

from .cards import (
    CHAMBER_SIZE,
    COLOURS,
    LOCATION_TABLE,
    LOCATIONS,
    LORD_TABLE,
    Colour,
    Key,
    LocationEffect,
    LocationId,
    lord_kind,
)
from .models import (
    ConspiracyChoice,
    ConspiracyView,
    KeepLord,
    LordFace,
    PlaceNext,
    PlayerView,
    RevealLocations,
    RevealLords,
    SkipSwap,
    Stage,
    SwapPick,
    TakeLocation,
    TakePile,
)
from .scoring import colour_groups as groups

ConspiracyPrompt = Prompt[ConspiracyChoice]
Kind = tuple[Colour, int]
"""A Lord as it shows: colour and influence (copies are interchangeable)."""

PEARL_MASTER_POINTS = 5
POINTS_PER_COALITION_LORD = 3
SWAP_INFLUENCE = 0


# --- the chamber as a value ------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """One player's chamber and counters, as the view shows them (or as imagined)."""

    colours: tuple[Colour, ...]
    influences: tuple[int, ...]
    keys: tuple[Key | None, ...]
    locations: tuple[LocationId, ...]
    pearls: int
    silver: int
    gold: int
    any_two_keys: bool

    @classmethod
    def of(cls, player: PlayerView) -> Board:
        return cls(
            colours=tuple(p.colour for p in player.chamber),
            influences=tuple(p.influence for p in player.chamber),
            keys=tuple(p.key for p in player.chamber),
            locations=player.locations,
            pearls=player.pearls,
            silver=player.silver,
            gold=player.gold,
            any_two_keys=player.any_two_keys,
        )

    @property
    def free(self) -> int:
        return CHAMBER_SIZE - len(self.colours)

    def best_of(self, colour: Colour) -> int:
        return max(
            (i for c, i in zip(self.colours, self.influences, strict=True) if c is colour),
            default=0,
        )

    def influence_points(self) -> int:
        best: dict[Colour, int] = {}
        for colour, influence in zip(self.colours, self.influences, strict=True):
            if influence > best.get(colour, 0):
                best[colour] = influence
        return sum(best.values())


def location_points(location: LocationId, board: Board, owned: int) -> int:
    """What a Location scores at the end on this board (as scoring.py counts it), when
    ``owned`` Locations are owned in all."""
    card = LOCATIONS[location]
    effect = card.effect
    points = card.points
    if effect is LocationEffect.PER_SILVER_KEY:
        points += board.keys.count(Key.SILVER)
    elif effect is LocationEffect.PER_GOLD_KEY:
        points += 2 * board.keys.count(Key.GOLD)
    elif effect is LocationEffect.PER_PEARL_PAIR:
        points += board.pearls // 2
    elif effect is LocationEffect.PER_LOCATION:
        points += 2 * owned
    elif effect is LocationEffect.BEST_OF_COLOUR:
        assert card.colour is not None
        points += board.best_of(card.colour)
    elif effect is LocationEffect.PER_LORD_OF_COLOUR:
        points += board.colours.count(card.colour)
    return points


def locations_total(board: Board) -> int:
    owned = len(board.locations)
    return sum(location_points(location, board, owned) for location in board.locations)


# --- what the table tells --------------------------------------------------------------


def _all_kinds() -> Counter[Kind]:
    return Counter(
        {(colour, kind.influence): kind.copies for colour in COLOURS for kind in LORD_TABLE}
    )


ALL_KINDS = _all_kinds()


def unseen_lords(view: ConspiracyView) -> Counter[Kind]:
    """The Lord deck's contents: every Lord not shown anywhere on the table."""
    unseen = ALL_KINDS.copy()
    shown: list[Kind] = [(p.colour, p.influence) for pv in view.players for p in pv.chamber]
    shown.extend((f.colour, f.influence) for pile in view.piles.values() for f in pile)
    shown.extend((f.colour, f.influence) for f in (*view.revealed, *view.pending))
    unseen.subtract(shown)
    return +unseen


def unseen_locations(view: ConspiracyView) -> list[LocationId]:
    """The Location deck's contents."""
    shown = {loc for pv in view.players for loc in pv.locations}
    shown.update(view.face_up, view.revealed_locations)
    return [loc.id for loc in LOCATION_TABLE if loc.id not in shown]


def expected_best(values: Sequence[float], draws: int) -> float:
    """The expected best of ``draws`` cards drawn without replacement from ``values``."""
    return expected_best_of(Counter(values), draws)


def expected_best_of(copies: Counter[float], draws: int) -> float:
    """The expected best of ``draws`` cards drawn without replacement, from a deck
    holding ``copies[value]`` cards of each value."""
    return expected_bests(copies, (draws,))[0]


def expected_bests(copies: Counter[float], counts: Sequence[int]) -> list[float]:
    """``expected_best_of`` for each of several numbers of draws, in one pass."""
    total = sum(copies.values())
    draws = [min(count, total) for count in counts]
    ways = [comb(total, d) for d in draws]
    expected = [0.0] * len(draws)
    above = 0
    for value in sorted(copies, reverse=True):
        count = copies[value]
        for index, d in enumerate(draws):
            if d <= 0:
                continue
            # the best is worth ``value``: no card above it is drawn, and not all the
            # drawn cards are below it
            hands = comb(total - above, d) - comb(total - above - count, d)
            expected[index] += value * hands / ways[index]
        above += count
    return expected


# --- NORMAL's evaluation ---------------------------------------------------------------


@dataclass(frozen=True)
class Weights:
    """The tuning of NORMAL's evaluation (points per unit)."""

    frontier: float = 0.4
    """Coalition points per free place touching a group, at the game's start."""
    key_progress: float = 0.45
    """Share of a Location a lone key is worth."""
    key_both: float = 0.6
    """Share of a Location unused keys are worth when any next key makes a pair (a silver
    and a gold, or one key with the any-two-keys Location)."""
    reveal_leak: float = 0.6
    """Points given away per extra Lord revealed (it goes face up to a discard pile)."""
    location_leak: float = 0.4
    """Points given away per extra Location revealed (it stays face up for everyone)."""
    deny: float = 1.0
    """Share of the opponent's best discard pile (above its blind reveal) counted against
    a choice that leaves that pile to it, head to head. With more opponents, denying the
    next one helps the others as much (measured: no gain), so it is not counted."""


@dataclass
class Context:
    """What one decision's evaluations share (built once per decision)."""

    view: ConspiracyView
    seat: Seat
    weights: Weights
    horizon: float
    """The share of the game still to play: 1 at the start, 0 on a last turn."""
    other_pearls: int
    """The most pearls another player has."""
    _location_prospect: float | None = field(default=None, init=False)
    _reveals: dict[int, float] | None = field(default=None, init=False)
    _opponent: Context | None = field(default=None, init=False)
    _board: Board | None = field(default=None, init=False)
    _singles: dict[Kind, float] | None = field(default=None, init=False)
    _groups: dict[tuple[Kind, ...], float] | None = field(default=None, init=False)
    _unseen: Counter[Kind] | None = field(default=None, init=False)

    @property
    def me(self) -> PlayerView:
        return self.view.players[self.seat]

    @property
    def board(self) -> Board:
        """The viewer's chamber as it stands."""
        if self._board is None:
            self._board = Board.of(self.me)
        return self._board

    def location_prospect(self) -> float:
        """What the next Location is worth to this board (the best offered or revealed)."""
        if self._location_prospect is None:
            key = (*self._key(), tuple(self.view.face_up), tuple(unseen_locations(self.view)))
            self._location_prospect = remembered(
                PROSPECTS, key, lambda: self._best_location_offer(self.board)
            )
        return self._location_prospect

    def _key(self) -> tuple[Hashable, ...]:
        """What every value of this context depends on, beside the table's cards."""
        me = self.me
        return (self.board, me.pearl_master, me.whole_deck, self.other_pearls, self.horizon)

    def opponent_context(self, seat: Seat) -> Context:
        if self._opponent is None or self._opponent.seat != seat:
            self._opponent = context_of(self.view, seat, self.weights)
            self._opponent._unseen = self._unseen
        return self._opponent

    def unseen(self) -> Counter[Kind]:
        """The Lord deck's contents (``unseen_lords``; the same table for every seat)."""
        if self._unseen is None:
            self._unseen = unseen_lords(self.view)
        return self._unseen

    def reveal_value(self, count: int) -> float:
        """Revealing ``count`` Lords (the three counts are valued together, once)."""
        if self._reveals is None:
            deck = frozenset(self.unseen().items())
            key = (*self._key(), self.location_prospect(), self.weights, deck)
            self._reveals = remembered(REVEALS, key, lambda: reveal_values(self))
        return self._reveals[count]

    def location_reveal_value(self, count: int) -> float:
        """Revealing ``count`` Locations (remembered, as ``reveal_value``)."""
        deck = tuple(unseen_locations(self.view))
        key = (*self._key(), self.weights, deck)
        return remembered(LOCATION_REVEALS, key, lambda: location_reveal_values(self, deck))[count]

    def single_value(self, kind: Kind) -> float:
        """``recruit_value`` of one Lord (remembered: reveals ask it of every Lord)."""
        values = self._singles
        if values is None:
            key = (*self._key(), self.location_prospect(), self.weights)
            values = self._singles = remembered(SINGLES, key, dict)
        found = values.get(kind)
        if found is None:
            found = values[kind] = recruit_value(self, [kind])
        return found

    def pile_value(self, lords: Sequence[Kind]) -> float:
        """``recruit_value`` of several Lords (remembered: head to head, the threat of
        every choice weighs the same piles for the opponent)."""
        values = self._groups
        if values is None:
            key = (*self._key(), self.location_prospect(), self.weights)
            values = self._groups = remembered(GROUPS, key, dict)
        lords = tuple(lords)
        found = values.get(lords)
        if found is None:
            found = values[lords] = recruit_value(self, lords)
        return found

    def _best_location_offer(self, board: Board) -> float:
        face_up = [location_value(self, board, loc) for loc in self.view.face_up]
        deck = [location_value(self, board, loc) for loc in unseen_locations(self.view)]
        if self.me.whole_deck:
            return max([*face_up, *deck], default=0.0)
        return max([*face_up, expected_best(deck, 3)], default=0.0)


T = TypeVar("T")
MEMO_SIZE = 4096
PROSPECTS: dict[Hashable, float] = {}
SINGLES: dict[Hashable, dict[Kind, float]] = {}
GROUPS: dict[Hashable, dict[tuple[Kind, ...], float]] = {}
REVEALS: dict[Hashable, dict[int, float]] = {}
LOCATION_REVEALS: dict[Hashable, dict[int, float]] = {}
"""Values already computed, by everything they depend on: the HARD search asks
NORMAL about the same boards and tables over and over."""


def remembered(memo: dict[Hashable, T], key: Hashable, compute: Callable[[], T]) -> T:
    found = memo.get(key)
    if found is None:
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        found = memo[key] = compute()
    return found


def horizon_of(view: ConspiracyView) -> float:
    if view.ender is not None:
        return 0.0
    most = max((len(p.chamber) for p in view.players if not p.removed), default=0)
    return (CHAMBER_SIZE - most) / CHAMBER_SIZE


def context_of(view: ConspiracyView, seat: Seat, weights: Weights) -> Context:
    others = [p.pearls for p in view.players if p.seat != seat and not p.removed]
    return Context(view, seat, weights, horizon_of(view), max(others, default=0))


def pearl_value(ctx: Context, pearls: int, master: bool) -> float:
    """The Pearl Master's 5 points, as sure as the margin and the game left make them."""
    margin = pearls - ctx.other_pearls
    if master:
        hold = min(1.0, max(0.0, 0.6 + 0.15 * margin))
        chance = 1.0 - ctx.horizon * (1.0 - hold)
    else:
        chance = ctx.horizon * min(1.0, max(0.0, 0.4 + 0.1 * margin))
    return PEARL_MASTER_POINTS * chance + 0.05 * pearls


def location_value(ctx: Context, board: Board, location: LocationId) -> float:
    """A Location taken now: the points it adds on this board and what it promises."""
    card = LOCATIONS[location]
    gain = float(location_points(location, board, len(board.locations) + 1))
    if LocationId.LOCATIONS in board.locations:
        gain += 2  # the Location counting Locations counts this one too
    if card.effect is LocationEffect.PEARLS:
        master = ctx.me.pearl_master or board.pearls + card.pearls >= ctx.other_pearls
        before = pearl_value(ctx, board.pearls, ctx.me.pearl_master)
        gain += pearl_value(ctx, board.pearls + card.pearls, master) - before
    elif card.colour is not None:
        gain += ctx.horizon * _colour_promise(board, card.colour, card.effect)
    else:
        gain += ctx.horizon * PROMISES.get(card.effect, 0.0)
    return gain


PROMISES: dict[LocationEffect, float] = {
    LocationEffect.PER_SILVER_KEY: 2.5,
    LocationEffect.PER_GOLD_KEY: 2.5,
    LocationEffect.PER_PEARL_PAIR: 1.5,
    LocationEffect.PER_LOCATION: 4.0,
    LocationEffect.TOP_LORD_ONLY: 1.0,
    LocationEffect.REVEAL_TWO: 0.5,
    LocationEffect.ANY_TWO_KEYS: 5.0,
    LocationEffect.WHOLE_DECK: 3.0,
}


def _colour_promise(board: Board, colour: Colour, effect: LocationEffect) -> float:
    """A colour's Location grows with the Lords of that colour still to come: more
    for a colour the chamber already holds many of."""
    if effect is LocationEffect.BEST_OF_COLOUR:
        return max(0.0, 4.0 - board.best_of(colour)) * 0.5
    share = board.colours.count(colour) / len(board.colours) if board.colours else 0.2
    return board.free * share


def key_progress(ctx: Context, silver: int, gold: int, any_two: bool) -> float:
    """What unused keys promise towards the next Location."""
    if silver + gold == 0:
        return 0.0
    both = any_two or (silver and gold)
    share = ctx.weights.key_both if both else ctx.weights.key_progress
    return share * ctx.location_prospect() * min(1.0, 3.0 * ctx.horizon)


@dataclass(frozen=True)
class Outcome:
    """A board after placing some Lords, and what happened on the way."""

    board: Board
    locations: int
    """Key pairs completed (each takes a Location)."""
    master: bool


def place_all(ctx: Context, board: Board, master: bool, lords: Iterable[Kind]) -> Outcome:
    """Place Lords one by one as the engine does (powers resolve, overflow is lost)."""
    colours, influences, keys = list(board.colours), list(board.influences), list(board.keys)
    pearls, silver, gold = board.pearls, board.silver, board.gold
    locations = 0
    for colour, influence in lords:
        if len(colours) >= CHAMBER_SIZE:
            break
        kind = lord_kind(influence)
        colours.append(colour)
        influences.append(influence)
        keys.append(kind.key)
        if kind.pearls:
            pearls += kind.pearls
            master = master or pearls >= ctx.other_pearls
        if kind.key is Key.SILVER:
            silver += 1
        elif kind.key is Key.GOLD:
            gold += 1
        if silver >= 2 or gold >= 2 or (board.any_two_keys and silver + gold >= 2):
            locations += 1
            silver = gold = 0
    after = Board(
        tuple(colours),
        tuple(influences),
        tuple(keys),
        board.locations,
        pearls,
        silver,
        gold,
        board.any_two_keys,
    )
    return Outcome(after, locations, master)


def coalition_value(ctx: Context, colours: tuple[Colour, ...]) -> float:
    """3 per Lord of the largest group, plus room to grow while the game lasts."""
    reach = ctx.weights.frontier * ctx.horizon
    best = max((size + reach * frontier for _, size, frontier in groups(colours)), default=0.0)
    return POINTS_PER_COALITION_LORD * best


def board_value(ctx: Context, outcome: Outcome) -> float:
    """The board's end score as it stands, plus what it promises."""
    board = outcome.board
    value = float(board.influence_points())
    value += locations_total(board)
    value += coalition_value(ctx, board.colours)
    value += pearl_value(ctx, board.pearls, outcome.master)
    value += outcome.locations * ctx.location_prospect()
    value += key_progress(ctx, board.silver, board.gold, board.any_two_keys)
    return value


def recruit_value(ctx: Context, lords: Sequence[Kind]) -> float:
    """The value of recruiting these Lords, placed in a sensible order."""
    outcome = place_all(ctx, ctx.board, ctx.me.pearl_master, placing_order(lords))
    return board_value(ctx, outcome)


def placing_order(lords: Sequence[Kind]) -> list[Kind]:
    """Most influential first (they are the ones kept when the chamber overflows), the
    swap last (it then has the most Lords to move)."""
    return sorted(lords, key=lambda k: (k[1] == SWAP_INFLUENCE, -k[1]))


def reveal_values(ctx: Context) -> dict[int, float]:
    """Revealing n Lords: the expected best of n from the deck, less the ones given away."""
    values: Counter[float] = Counter()
    for kind, copies in ctx.unseen().items():
        values[ctx.single_value(kind)] += copies
    leak = ctx.weights.reveal_leak * ctx.horizon
    counts = (1, 2, 3)
    bests = expected_bests(values, counts)
    return {n: best - leak * (n - 1) for n, best in zip(counts, bests, strict=True)}


def kinds(faces: Iterable[LordFace]) -> list[Kind]:
    return [(f.colour, f.influence) for f in faces]


# --- the swap ------------------------------------------------------------------------


def swapped(colours: tuple[Colour, ...], first: int, second: int) -> tuple[Colour, ...]:
    new = list(colours)
    new[first], new[second] = new[second], new[first]
    return tuple(new)


def swap_gain(ctx: Context, first: int, second: int) -> float:
    colours = ctx.board.colours
    return coalition_value(ctx, swapped(colours, first, second)) - coalition_value(ctx, colours)


def best_swap(ctx: Context, firsts: Sequence[int]) -> tuple[float, int, int]:
    """The best (gain, first, second) among movable Lords of different colours (0-based)."""
    chamber = ctx.me.chamber
    movable = [p.place - 1 for p in chamber if p.key is None]
    best = (0.0, -1, -1)
    for first in firsts:
        for second in movable:
            if chamber[second].colour is chamber[first].colour:
                continue
            gain = swap_gain(ctx, first, second)
            if gain > best[0] + 1e-9:
                best = (gain, first, second)
    return best


def choose_swap(ctx: Context, prompt: ConspiracyPrompt) -> ConspiracyChoice:
    picks = [c.place - 1 for c in prompt.choices if isinstance(c, SwapPick)]
    if ctx.view.swap_first is None:
        gain, first, _ = best_swap(ctx, picks)
        target = first
    else:
        first = ctx.view.swap_first - 1
        gain, _, target = best_swap(ctx, [first])
    if gain <= 0.0 or target < 0:
        return SkipSwap()
    return SwapPick(place=target + 1)


# --- NORMAL --------------------------------------------------------------------------


class NormalPolicy(Policy[ConspiracyView, ConspiracyChoice]):
    """Values each choice by the board it leads to (see ``board_value``) and takes the best."""

    level = Level.NORMAL

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or Weights()

    def decide(
        self, view: ConspiracyView, prompt: ConspiracyPrompt, rng: random.Random
    ) -> ConspiracyChoice:
        ctx = context_of(view, prompt.player, self.weights)
        if view.stage in (Stage.SWAP_FIRST, Stage.SWAP_SECOND):
            return choose_swap(ctx, prompt)
        if view.stage is Stage.ORDER:
            return next_to_place(ctx, prompt)
        scored = [(self.value(ctx, choice), index) for index, choice in enumerate(prompt.choices)]
        return prompt.choices[max(scored)[1]]

    def value(self, ctx: Context, choice: ConspiracyChoice) -> float:
        if isinstance(choice, RevealLords):
            return ctx.reveal_value(choice.count) - self.deny(ctx, piles_left(ctx.view, None))
        if isinstance(choice, TakePile):
            own = recruit_value(ctx, kinds(ctx.view.piles[choice.colour]))
            return own - self.deny(ctx, piles_left(ctx.view, choice.colour))
        if isinstance(choice, KeepLord):
            own = recruit_value(ctx, [(choice.colour, choice.influence)])
            return own - self.deny(ctx, piles_after_keep(ctx.view, choice))
        if isinstance(choice, TakeLocation):
            return location_value(ctx, ctx.board, choice.location)
        if isinstance(choice, RevealLocations):
            return location_reveal_value(ctx, choice.count)
        return 0.0

    def deny(self, ctx: Context, piles: dict[Colour, list[Kind]]) -> float:
        opponents = sum(not p.removed for p in ctx.view.players) - 1
        if not self.weights.deny or opponents != 1:
            return 0.0
        return self.weights.deny * threat(ctx, piles)


def piles_left(view: ConspiracyView, taken: Colour | None) -> dict[Colour, list[Kind]]:
    return {c: kinds(pile) for c, pile in view.piles.items() if c is not taken and pile}


def piles_after_keep(view: ConspiracyView, kept: KeepLord) -> dict[Colour, list[Kind]]:
    piles = piles_left(view, None)
    others = kinds(view.revealed)
    others.remove((kept.colour, kept.influence))
    for colour, influence in others:
        piles.setdefault(colour, []).append((colour, influence))
    return piles


def next_opponent(view: ConspiracyView, seat: Seat) -> Seat | None:
    if view.ender is not None:
        return view.last_turns[0] if view.last_turns else None
    count = len(view.players)
    for step in range(1, count):
        other = (seat + step) % count
        if not view.players[other].removed:
            return other
    return None


def threat(ctx: Context, piles: dict[Colour, list[Kind]]) -> float:
    """How much better than a blind reveal the next opponent's best pile is for it."""
    opponent = next_opponent(ctx.view, ctx.seat)
    if opponent is None or not piles:
        return 0.0
    theirs = ctx.opponent_context(opponent)
    best = max(theirs.pile_value(pile) for pile in piles.values())
    return max(0.0, best - theirs.reveal_value(3))


def location_reveal_value(ctx: Context, count: int) -> float:
    return ctx.location_reveal_value(count)


def location_reveal_values(ctx: Context, deck: Sequence[LocationId]) -> dict[int, float]:
    """Revealing n Locations: the expected best of n from the deck, less the ones left
    face up for the others."""
    board = ctx.board
    values = Counter(location_value(ctx, board, loc) for loc in deck)
    leak = ctx.weights.location_leak * ctx.horizon
    counts = (1, 2, 3)
    bests = expected_bests(values, counts)
    return {n: best - leak * (n - 1) for n, best in zip(counts, bests, strict=True)}


def next_to_place(ctx: Context, prompt: ConspiracyPrompt) -> ConspiracyChoice:
    """With room for all, the sensible order; with overflow, the most valuable first."""
    offered = [c for c in prompt.choices if isinstance(c, PlaceNext)]
    pending = kinds(ctx.view.pending)
    if len(pending) <= ctx.board.free:
        first = placing_order([(c.colour, c.influence) for c in offered])[0]
        return PlaceNext(colour=first[0], influence=first[1])
    return max(offered, key=lambda c: recruit_value(ctx, [(c.colour, c.influence)]))


# --- EASY ----------------------------------------------------------------------------


class EasyPolicy(Policy[ConspiracyView, ConspiracyChoice]):
    """Greedy on the influence points a choice adds now, with noise; no coalition plans."""

    level = Level.EASY
    noise = 1.5

    def decide(
        self, view: ConspiracyView, prompt: ConspiracyPrompt, rng: random.Random
    ) -> ConspiracyChoice:
        if view.stage in (Stage.SWAP_FIRST, Stage.SWAP_SECOND):
            return SkipSwap()
        board = Board.of(view.players[prompt.player])
        scored = [
            (self.value(view, board, choice) + rng.gauss(0.0, self.noise), index)
            for index, choice in enumerate(prompt.choices)
        ]
        return prompt.choices[max(scored)[1]]

    @staticmethod
    def value(view: ConspiracyView, board: Board, choice: ConspiracyChoice) -> float:
        if isinstance(choice, RevealLords):
            return 2.0  # a blind draw: about one decent Lord
        if isinstance(choice, TakePile):
            return influence_gain(board, kinds(view.piles[choice.colour]))
        if isinstance(choice, KeepLord | PlaceNext):
            return influence_gain(board, [(choice.colour, choice.influence)])
        if isinstance(choice, TakeLocation):
            return float(LOCATIONS[choice.location].points)
        if isinstance(choice, RevealLocations):
            return 3.0 - choice.count
        return 0.0


def influence_gain(board: Board, lords: Sequence[Kind]) -> float:
    """Influence points added (the best Lord of each colour), a little for the rest."""
    best = {colour: board.best_of(colour) for colour in COLOURS}
    gain = 0.0
    for colour, influence in lords[: board.free]:
        gain += max(0, influence - best[colour]) + 0.2 * influence
        best[colour] = max(best[colour], influence)
    return gain


POLICIES: dict[Level, Policy[Any, Any]] = {
    Level.EASY: EasyPolicy(),
    Level.NORMAL: NormalPolicy(),
}


# --- the standing of an unfinished game (HARD's cut-off) -------------------------------


def standing(view: ConspiracyView, seat: Seat, weights: Weights | None = None) -> float:
    """What NORMAL expects a player's chamber to score: its points as they stand plus
    what it promises (coalition room, unused keys, the Pearl Master's hold)."""
    ctx = context_of(view, seat, weights or Weights())
    player = view.players[seat]
    return board_value(ctx, Outcome(Board.of(player), 0, player.pearl_master))


def win_scale(view: ConspiracyView) -> float:
    """Points of lead that make a player e (2.7) times likelier to win: fitted on
    NORMAL's games, about 5 on the last turns, 15 half-way, 25 at the start."""
    return 4.0 + 22.0 * horizon_of(view)


def win_share(view: ConspiracyView, seat: Seat) -> float:
    """The seat's expected share of the win, its standing against the others'."""
    values = [-1e3 if p.removed else standing(view, p.seat) for p in view.players]
    top = max(values)
    scale = win_scale(view)
    weights = [math.exp((value - top) / scale) for value in values]
    return weights[seat] / sum(weights)
