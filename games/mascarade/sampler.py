"""Mascarade states consistent with a seat's view and history, for the HARD search.

The seat's memories are kept as they are: a fresh memory is the card there; the
places it is unsure of share the characters not accounted for, each place
leaning towards the card it last saw there (stale memory) and towards a
character announced from it since it last moved.

The other seats' memories are not in the view. The history says which places
each of them last saw for sure (the deal, its own looks, the Spy's looks,
reveals; a swap it did not make blurs both cards): those are fresh memories of
the sampled cards, the others stale ones.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from games.base import Event, Rng, Seat, copy_state, trusted
from games.search import Draw, Sampler, softmax_share

from .cards import START_COINS, Character
from .models import (
    Announced,
    Announcement,
    CardRef,
    CardRevealed,
    Claim,
    Knowledge,
    Looked,
    MascaradeOptions,
    MascaradeState,
    MascaradeView,
    Memory,
    PendingSwap,
    Reveal,
    SwapCause,
    SwapDone,
    SwapPrepared,
)

STAY = 3.0
"""A stale memory's character is this many times likelier to still be there."""
CLAIMED = 3.0
"""A character announced from a place (not moved since) is this much likelier there."""
COIN_SCALE = 2.0
"""At a cut-off: coins of lead that make a seat e times likelier to win."""


def moment_of(view: MascaradeView) -> int:
    if view.prompt is None:
        return 0
    return int(view.prompt.window.rsplit(".", 1)[-1])


def place_of(view: MascaradeView, ref: CardRef) -> int:
    seat = len(view.players) if ref.seat is None else ref.seat
    return seat * view.hand_size + ref.slot


@dataclass
class Sight:
    """From the history: which places each seat surely knows, and the characters
    announced from places that did not move since."""

    fresh: list[list[bool]]
    """Per seat, per place."""
    public: list[bool]
    claimed: dict[int, Character]


def read_history(view: MascaradeView, history: Sequence[Event]) -> Sight:
    seats, places = len(view.players), len(flat(view))
    fresh = [[True] * places for _ in range(seats)]
    public = [True] * places
    claimed: dict[int, Character] = {}
    swap: tuple[Seat, int, int] | None = None
    for event in history:
        if isinstance(event, SwapPrepared):
            first = place_of(view, CardRef(seat=event.seat, slot=event.slot))
            second = place_of(view, CardRef(seat=event.target, slot=event.target_slot))
            swap = (event.actor, first, second)
            if event.cause is SwapCause.SPY:
                fresh[event.actor][first] = fresh[event.actor][second] = True
        elif isinstance(event, SwapDone) and swap is not None:
            actor, first, second = swap
            for seat in range(seats):
                if seat != actor:
                    fresh[seat][first] = fresh[seat][second] = False
            public[first] = public[second] = False
            claimed.pop(first, None)
            claimed.pop(second, None)
            swap = None
        elif isinstance(event, Looked):
            fresh[event.seat][event.seat * view.hand_size + event.slot] = True
        elif isinstance(event, CardRevealed):
            place = event.seat * view.hand_size + event.slot
            for seat in range(seats):
                fresh[seat][place] = True
            public[place] = True
            claimed.pop(place, None)
        elif isinstance(event, Announced):
            claimed[event.claimant * view.hand_size + event.slot] = event.character
    return Sight(fresh, public, claimed)


def flat(view: MascaradeView) -> list[Memory | None]:
    return [m for player in view.players for m in player.cards] + list(view.centre)


class MascaradeSampler(Sampler[MascaradeView, MascaradeState]):
    def prepare(self, view: MascaradeView, history: Sequence[Event]) -> Draw[MascaradeState]:
        viewer = view.viewer
        assert viewer is not None
        memories = flat(view)
        sight = read_history(view, history)
        pool = Counter(view.characters)
        known: dict[int, Character] = {}
        for place, memory in enumerate(memories):
            if memory is not None and not memory.stale and pool[memory.character] > 0:
                known[place] = memory.character
                pool[memory.character] -= 1
        unsure = [p for p in range(len(memories)) if p not in known]
        weights = {p: self._leanings(memories[p], sight.claimed.get(p)) for p in unsure}
        base = self._skeleton(view, memories)
        seats = len(view.players)

        def draw(rng: random.Random) -> MascaradeState:
            state = copy_state(base)
            state.rng = Rng.from_seed(rng.getrandbits(64))
            cards = dict(known)
            left = Counter(pool)
            order = list(unsure)
            rng.shuffle(order)
            for place in order:
                options = [c for c, n in left.items() if n > 0]
                lean = weights[place]
                chosen = rng.choices(options, [left[c] * lean.get(c, 1.0) for c in options])[0]
                cards[place] = chosen
                left[chosen] -= 1
            state.cards = [cards[p] for p in range(len(memories))]
            for seat in range(seats):
                if seat != viewer:
                    state.knowledge[seat] = knowledge_of(state.cards, sight.fresh[seat])
            state.public = knowledge_of(state.cards, sight.public)
            return state

        return draw

    @staticmethod
    def _leanings(memory: Memory | None, claimed: Character | None) -> dict[Character, float]:
        lean: dict[Character, float] = {}
        if memory is not None:
            lean[memory.character] = STAY
        if claimed is not None:
            lean[claimed] = lean.get(claimed, 1.0) * CLAIMED
        return lean

    def _skeleton(self, view: MascaradeView, memories: list[Memory | None]) -> MascaradeState:
        viewer = view.viewer
        assert viewer is not None
        seats = len(view.players)
        coins = [p.coins for p in view.players]
        mine = Knowledge(
            seen=[None if m is None else m.character for m in memories],
            stale=[m is not None and m.stale for m in memories],
        )
        placeholder = Knowledge(seen=[None] * len(memories), stale=[False] * len(memories))
        return MascaradeState(
            seats=seats,
            rng=Rng.from_seed(0),
            options=MascaradeOptions(),
            characters=list(view.characters),
            hand_size=view.hand_size,
            centre_size=len(view.centre),
            cards=[],
            coins=coins,
            in_play=[p.in_play for p in view.players],
            courthouse=view.courthouse,
            bank_out=sum(coins) + view.courthouse - START_COINS * seats,
            knowledge=[mine if s == viewer else placeholder for s in range(seats)],
            public=placeholder,
            stage=view.stage,
            turn=view.turn,
            turn_number=view.turn_number,
            must_swap=view.must_swap,
            revealed_this_turn=revealed_this_turn(view),
            moment=moment_of(view),
            swap=self._swap(view),
            announcement=self._announcement(view),
            winners=list(view.winners),
        )

    @staticmethod
    def _swap(view: MascaradeView) -> PendingSwap | None:
        swap = view.swap
        if swap is None:
            return None
        return PendingSwap(
            actor=swap.actor,
            first=place_of(view, swap.first),
            second=place_of(view, swap.second),
            cause=swap.cause,
        )

    @staticmethod
    def _announcement(view: MascaradeView) -> Announcement | None:
        a = view.announcement
        if a is None:
            return None
        user = None
        if a.user is not None:
            slots = {claim.seat: claim.slot for claim in a.contesters}
            slots[a.claimant] = a.slot
            user = Claim(seat=a.user, slot=slots[a.user])
        return Announcement(
            claimant=a.claimant,
            character=a.character,
            slot=a.slot,
            to_ask=list(a.to_ask),
            contesters=[c.model_copy() for c in a.contesters],
            silent=list(a.silent),
            revealed=[Reveal(**r.model_dump()) for r in a.revealed],
            user=user,
            fined=list(a.fined),
            fool_first=None if a.fool_first is None else place_of(view, a.fool_first),
            questioned=a.questioned,
            guess=a.guess,
        )

    def estimate(self, state: MascaradeState, seat: Seat) -> float:
        values = [
            float(coins) if playing else -1e3
            for coins, playing in zip(state.coins, state.in_play, strict=True)
        ]
        return softmax_share(values, seat, COIN_SCALE)


def revealed_this_turn(view: MascaradeView) -> list[Seat]:
    """The seats whose card was turned face up this turn (they must swap next)."""
    a = view.announcement
    if a is None:
        return []
    seats = list(dict.fromkeys(r.seat for r in a.revealed))
    if a.guess is not None and a.questioned is not None and a.questioned not in seats:
        seats.append(a.questioned)
    return seats


def knowledge_of(cards: list[Character], fresh: list[bool]) -> Knowledge:
    """Memories of these cards: fresh where ``fresh``, stale elsewhere."""
    return trusted(Knowledge, seen=list(cards), stale=[not f for f in fresh])


SAMPLER = MascaradeSampler()
