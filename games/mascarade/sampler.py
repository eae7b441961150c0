"""Mascarade states consistent with a seat's view and history, for the HARD search.

The seat's history lets it follow the cards (``track``): everybody saw the opening
deal face up, and the view's memories, undone backwards through the seat's own
swaps and sights, give it back. From it a few hundred deals are played forward
through the history: a swap the seat made moves the cards as it decided, one it
did not make exchanges them with the odds that players do, and every sight (its
looks, a Spy's look, a reveal) keeps the deals that agree. The view alone keeps
only "this card was last seen there", and forgets which two cards a swap
exchanged. A state is dealt from those deals, likelier where they agree with
characters announced (and not contested) from places that did not move since.
Without a history that explains the view, the view's memories are kept as they
are: a fresh memory is the card there; the places it is unsure of share the
characters not accounted for, each place leaning towards the card it last saw
there (stale memory) and towards a character announced from it since it last
moved.

The other seats' memories are not in the view. The history says which places
each of them last saw for sure (the deal, its own looks, the Spy's looks,
reveals; a swap it did not make blurs both cards): those are fresh memories of
the sampled cards, the others stale ones. Or, where the search plays the others
as remembering players, each deal followed keeps its story (the opening deal it
started from, every swap's outcome), and a state drawn from a story is that
story's game (``replay``): what each other seat decided on its swaps and saw on
its looks, hence its memories and its own history.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from games.base import Event, Rng, Seat, copy_state, trusted
from games.search import Draw, Sampler, softmax_share

from .cards import START_COINS, Character
from .models import (
    Announced,
    Announcement,
    CardRef,
    CardRevealed,
    CardSeen,
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
    SwapDecided,
    SwapDone,
    SwapPrepared,
    TurnStarted,
    flat_place,
    place_of,
)
from .odds import coefficients_for, win_chances
from .value import Net
from .value_weights import NETS

STAY = 3.0
"""A stale memory's character is this many times likelier to still be there."""
CLAIMED = 3.0
"""A character announced from a place (not moved since) is this much likelier there."""
COIN_SCALE = 2.0
"""At a cut-off: coins of lead that make a seat e times likelier to win."""
PARTICLES = 200
"""Deals the seat's memory follows through the history (see ``track``)."""
ENOUGH = 0.1
"""Share of the deals that must agree with a sight to carry on alone."""
SWAP_ODDS = 0.8
"""Chance that a swap the seat did not make really exchanged the two cards (NORMAL
players swap 70 to 90 % of the time, at 2 to 10 players)."""


def moment_of(view: MascaradeView) -> int:
    if view.prompt is None:
        return 0
    return int(view.prompt.window.rsplit(".", 1)[-1])


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


def event_place(view: MascaradeView, seat: Seat | None, slot: int) -> int:
    return flat_place(len(view.players), view.hand_size, seat, slot)


def opening_deal(view: MascaradeView, history: Sequence[Event]) -> list[Character | None]:
    """The cards of the opening deal, face up for everyone, as far as the view's
    memories keep them: the history is undone backwards from them (the seat's own
    swaps moved its memories; a later sight overwrote the deal's, lost: None)."""
    assert view.viewer is not None
    table = Table(len(view.players), view.hand_size, tuple(view.characters))
    return opening_deal_of(table, view.viewer, flat(view), history)


def opening_deal_of(
    table: Table, seat: Seat, memories: Sequence[Memory | None], history: Sequence[Event]
) -> list[Character | None]:
    """``opening_deal`` from a seat's memories (flat, as ``flat``)."""
    seen = [None if m is None else m.character for m in memories]
    place = table.place
    moves: list[tuple[int, int] | int] = []
    pair: tuple[int, int] | None = None
    for event in history:
        if isinstance(event, SwapPrepared):
            pair = (place(event.seat, event.slot), place(event.target, event.target_slot))
        elif isinstance(event, SwapDecided) and event.swapped and pair is not None:
            moves.append(pair)
        elif isinstance(event, CardSeen) and event.seat == seat:
            moves.append(place(event.target, event.slot))
        elif isinstance(event, CardRevealed):
            moves.append(place(event.seat, event.slot))
    for move in reversed(moves):
        if isinstance(move, tuple):
            first, second = move
            seen[first], seen[second] = seen[second], seen[first]
        else:
            seen[move] = None
    return seen


def track(
    view: MascaradeView,
    history: Sequence[Event],
    count: int = PARTICLES,
    free_odds: float = SWAP_ODDS,
) -> list[list[Character]] | None:
    """Deals (every place's card now) that agree with everything the seat saw, each
    followed from the opening deal through the history: a swap the seat did not make
    exchanges the two cards with ``SWAP_ODDS``, its own as it decided, and a sight
    (a look, a Spy's look, a reveal) keeps the deals that show that card there;
    at the end, a deal agreeing with standing claims is likelier (``claim_odds``).
    None when the view's memories do not account for the opening deal (or no
    history came with a view that needs one). ``count`` deals are followed; a swap
    another seat chose on its turn (not a forced one) exchanges the cards with
    ``free_odds`` instead."""
    follower = Follower.of_view(view, history, count, free_odds)
    return None if follower is None else follower.deals(flat(view))


@dataclass
class Particle:
    """One deal followed through the history, with the story that made it: the
    opening deal it started from and every swap's outcome (``Follower`` keeps the
    story only when asked: ``replay`` needs it)."""

    cards: list[Character]
    opening: tuple[Character, ...] = ()
    swaps: list[bool] = field(default_factory=list)

    def copy(self) -> Particle:
        return Particle(list(self.cards), self.opening, list(self.swaps))


@dataclass
class Follower:
    """A seat's deals (``track``) kept between events: a search steps them through a
    simulation's events instead of following the whole history again at each
    decision of the seat it simulates."""

    seats: int
    hand_size: int
    seat: Seat
    particles: list[Particle]
    rng: random.Random
    free_odds: float = SWAP_ODDS
    keeps_story: bool = False
    claimed: dict[int, Character] = field(default_factory=dict)
    pair: tuple[int, int] | None = None
    decided: bool | None = None
    swap_odds: float = SWAP_ODDS
    forced: bool = True

    @classmethod
    def of_view(
        cls,
        view: MascaradeView,
        history: Sequence[Event],
        count: int = PARTICLES,
        free_odds: float = SWAP_ODDS,
        keeps_story: bool = False,
    ) -> Follower | None:
        """``track``'s follower of the viewer, its random stream seeded by the
        history's length and the seat."""
        viewer = view.viewer
        assert viewer is not None
        rng = random.Random(len(history) * 7919 + viewer)
        table = Table(len(view.players), view.hand_size, tuple(view.characters))
        return cls.start(table, viewer, flat(view), history, count, rng, free_odds, keeps_story)

    @classmethod
    def start(
        cls,
        table: Table,
        seat: Seat,
        memories: Sequence[Memory | None],
        history: Sequence[Event],
        count: int,
        rng: random.Random,
        free_odds: float = SWAP_ODDS,
        keeps_story: bool = False,
    ) -> Follower | None:
        """The seat's deals from its memories and history (None where ``track``'s)."""
        if not history and any(m is not None and m.stale for m in memories):
            return None  # the memories' stale ones came from a history not given
        deal = opening_deal_of(table, seat, memories, history)
        missing = Counter(table.characters) - Counter(c for c in deal if c is not None)
        holes = [place for place, c in enumerate(deal) if c is None]
        if sum(missing.values()) != len(holes):
            return None
        particles: list[Particle] = []
        for _ in range(count):
            filling = list(missing.elements())
            rng.shuffle(filling)
            filled = list(deal)
            for place, character in zip(holes, filling, strict=True):
                filled[place] = character
            cards = [c for c in filled if c is not None]
            particles.append(Particle(cards, tuple(cards) if keeps_story else ()))
        follower = cls(table.seats, table.hand_size, seat, particles, rng, free_odds, keeps_story)
        for event in history:
            follower.step(event)
        return follower

    def place(self, seat: Seat | None, slot: int) -> int:
        return flat_place(self.seats, self.hand_size, seat, slot)

    def copy(self) -> Follower:
        """An independent follower in the same state (its random stream too)."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return replace(
            self,
            particles=[p.copy() for p in self.particles],
            rng=rng,
            claimed=dict(self.claimed),
        )

    def step(self, event: Event) -> None:
        """One event the seat was shown."""
        if isinstance(event, TurnStarted):
            self.forced = event.must_swap
        elif isinstance(event, SwapPrepared):
            self.pair = (
                self.place(event.seat, event.slot),
                self.place(event.target, event.target_slot),
            )
            free = event.cause is SwapCause.TURN and not self.forced
            self.swap_odds = self.free_odds if free else SWAP_ODDS
            self.decided = None
        elif isinstance(event, SwapDecided):
            self.decided = event.swapped
        elif isinstance(event, SwapDone) and self.pair is not None:
            self._swap(event.actor == self.seat, *self.pair)
        elif isinstance(event, CardSeen) and event.seat == self.seat:
            self._sight(self.place(event.target, event.slot), event.character)
        elif isinstance(event, CardRevealed):
            place = self.place(event.seat, event.slot)
            self._sight(place, event.character)
            self.claimed.pop(place, None)
        elif isinstance(event, Announced):
            self.claimed[self.place(event.claimant, event.slot)] = event.character

    def _swap(self, mine: bool, first: int, second: int) -> None:
        rng, odds, keeps_story = self.rng, self.swap_odds, self.keeps_story
        for particle in self.particles:
            swapped = bool(self.decided) if mine else rng.random() < odds
            if keeps_story:
                particle.swaps.append(swapped)
            if swapped:
                cards = particle.cards
                cards[first], cards[second] = cards[second], cards[first]
        self.claimed.pop(first, None)
        self.claimed.pop(second, None)
        self.pair = None

    def _sight(self, place: int, character: Character) -> None:
        """Keeps the deals showing ``character`` at ``place``, resampled back to
        their number. When too few do (the blind swaps' guesses ran thin), every
        deal is mended instead: the card is brought there from where that deal had
        it."""
        particles = self.particles
        kept = [p for p in particles if p.cards[place] is character]
        if len(kept) == len(particles):
            return
        if len(kept) >= len(particles) * ENOUGH:
            self.particles = [self.rng.choice(kept).copy() for _ in range(len(particles))]
            return
        for particle in particles:
            mend(particle.cards, place, character)

    def deals(self, memories: Sequence[Memory | None]) -> list[list[Character]]:
        """The deals now: each mended to the seat's fresh memories, then drawn again,
        likelier where they agree with standing claims (``claim_odds``)."""
        return [p.cards for p in self.stories(memories)]

    def stories(self, memories: Sequence[Memory | None]) -> list[Particle]:
        """``deals`` with their stories."""
        particles = [p.copy() for p in self.particles]
        fresh = [(p, m.character) for p, m in enumerate(memories) if m is not None and not m.stale]
        for particle in particles:
            for place, character in fresh:
                mend_keeping(particle.cards, place, character, fresh)
        if self.claimed:
            odds = claim_odds([p.cards for p in particles], self.claimed)
            particles = self.rng.choices(particles, odds, k=len(particles))
        return particles


@dataclass(frozen=True)
class Table:
    """What every seat knows of the table's shape."""

    seats: int
    hand_size: int
    characters: tuple[Character, ...]

    def place(self, seat: Seat | None, slot: int) -> int:
        return flat_place(self.seats, self.hand_size, seat, slot)


@dataclass
class Replayed:
    """The game behind one particle, as each seat saw it: its memories, and its
    history with the private events it was shown (its swaps' outcomes, the cards it
    looked at); the public's memories."""

    knowledge: list[Knowledge]
    public: Knowledge
    histories: list[list[Event]]
    salt: int = 0
    """Seeds the other seats' own deals (``Follower``) in the simulations of this
    state, drawn with it."""


def replay(view: MascaradeView, history: Sequence[Event], particle: Particle) -> Replayed:
    """The particle's game from its opening deal (``Follower`` kept its story): the
    seat's history with, for every other seat, what it would have been shown, and
    every seat's memories following the cards as the rules move them. Where the
    particle's cards contradict a sight (a mended particle), they are mended."""
    viewer = view.viewer
    assert viewer is not None
    seats = len(view.players)
    cards = list(particle.opening)
    knowledge = [Knowledge.of_deal(cards) for _ in range(seats)]
    public = Knowledge.of_deal(cards)
    histories: list[list[Event]] = [[] for _ in range(seats)]
    outcomes = iter(particle.swaps)
    pending: tuple[Seat, int, int] | None = None

    def see(seat: Seat, target: Seat | None, slot: int) -> None:
        place = event_place(view, target, slot)
        knowledge[seat].see(place, cards[place])
        histories[seat].append(
            CardSeen(audience=(seat,), seat=seat, target=target, slot=slot, character=cards[place])
        )

    for event in history:
        if event.audience is not None:  # the viewer's own swaps and sights
            if isinstance(event, CardSeen):
                place = event_place(view, event.target, event.slot)
                mend(cards, place, event.character)
                knowledge[viewer].see(place, event.character)
            continue
        if isinstance(event, SwapPrepared):
            first = event_place(view, event.seat, event.slot)
            second = event_place(view, event.target, event.target_slot)
            pending = (event.actor, first, second)
            if event.cause is SwapCause.SPY and event.actor != viewer:
                see(event.actor, event.seat, event.slot)
                see(event.actor, event.target, event.target_slot)
        elif isinstance(event, SwapDone) and pending is not None:
            actor, first, second = pending
            swapped = next(outcomes)
            if actor != viewer:
                histories[actor].append(
                    SwapDecided(audience=(actor,), actor=actor, swapped=swapped)
                )
            if swapped:
                cards[first], cards[second] = cards[second], cards[first]
            for observer, known in enumerate(knowledge):
                if observer != actor:
                    known.blur(first, second)
                elif swapped:
                    known.follow_swap(first, second)
            public.blur(first, second)
            pending = None
        elif isinstance(event, CardRevealed):
            place = event_place(view, event.seat, event.slot)
            mend(cards, place, event.character)
            for known in [*knowledge, public]:
                known.see(place, event.character)
        for seat in range(seats):
            if seat != viewer:
                histories[seat].append(event)
        if isinstance(event, Looked) and event.seat != viewer:
            see(event.seat, event.seat, event.slot)
    histories[viewer] = list(history)
    return Replayed(knowledge, public, histories)


def mend_keeping(
    cards: list[Character], place: int, character: Character, fresh: list[tuple[int, Character]]
) -> None:
    """``mend``, taking the card from a place not known to hold it."""
    if cards[place] is character:
        return
    known = {p for p, c in fresh if c is character}
    source = next((q for q, c in enumerate(cards) if c is character and q not in known), None)
    if source is not None:
        cards[place], cards[source] = cards[source], cards[place]


def mend(cards: list[Character], place: int, character: Character) -> None:
    """Put ``character`` at ``place`` by exchanging it with the card there."""
    if cards[place] is not character:
        source = cards.index(character)
        cards[place], cards[source] = cards[source], cards[place]


def flat(view: MascaradeView) -> list[Memory | None]:
    return [m for player in view.players for m in player.cards] + list(view.centre)


def claim_odds(
    particles: Sequence[Sequence[Character]], claimed: dict[int, Character]
) -> list[float]:
    """Each deal's weight: ``CLAIMED`` for every standing claim it agrees with."""
    return [
        CLAIMED ** sum(1 for place, c in claimed.items() if cards[place] is c)
        for cards in particles
    ]


class MascaradeSampler(Sampler[MascaradeView, MascaradeState]):
    """Deals from ``track``'s deals; from the view's
    memories alone when the view does not account for the opening deal, or when
    not ``tracking``. Given ``stories`` (deals with the story that made them), each
    state is that story's game (``replay``): the other seats' memories are those
    its events left them, and ``replayed`` keeps its histories for the search."""

    def __init__(
        self,
        deals: Sequence[Sequence[Character]] | None = None,
        tracking: bool = True,
        stories: Sequence[Particle] | None = None,
    ) -> None:
        self.deals = deals
        """Deals already tracked for this moment (a search tracks once per decision)."""
        self.tracking = tracking
        self.stories = stories
        self.replayed: Replayed | None = None
        """The game behind the last state drawn from ``stories``."""

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

        particles = self.deals
        if particles is None and self.tracking:
            particles = track(view, history)

        def deal(rng: random.Random) -> list[Character]:
            if particles is not None:
                return list(rng.choice(particles))
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
            return [cards[p] for p in range(len(memories))]

        def draw(rng: random.Random) -> MascaradeState:
            state = copy_state(base)
            state.rng = Rng.from_seed(rng.getrandbits(64))
            state.cards = deal(rng)
            for seat in range(seats):
                if seat != viewer:
                    state.knowledge[seat] = knowledge_of(state.cards, sight.fresh[seat])
            state.public = knowledge_of(state.cards, sight.public)
            return state

        stories = self.stories
        if not stories:
            return draw

        def draw_story(rng: random.Random) -> MascaradeState:
            state = copy_state(base)
            state.rng = Rng.from_seed(rng.getrandbits(64))
            story = rng.choice(stories)
            state.cards = list(story.cards)
            replayed = replay(view, history, story)
            replayed.salt = rng.getrandbits(32)
            for seat, known in enumerate(replayed.knowledge):
                if seat != viewer:
                    state.knowledge[seat] = known
            state.public = replayed.public
            self.replayed = replayed
            return state

        return draw_story

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
        """The learned value (games.mascarade.value) where a net was trained for the
        table, else the fitted odds (games.mascarade.odds) from 4 players on, else
        the coins' softmax."""
        net = learned_value(state)
        if net is not None:
            return net.win_chances(state)[seat]
        coefficients = coefficients_for(state.seats)
        if coefficients is not None:
            return win_chances(state, coefficients)[seat]
        values = [
            float(coins) if playing else -1e3
            for coins, playing in zip(state.coins, state.in_play, strict=True)
        ]
        return softmax_share(values, seat, COIN_SCALE)


def learned_value(state: MascaradeState) -> Net | None:
    """The learned value's net for this table (its size and cards), if one was trained."""
    return net_for(state.seats, state.characters)


def net_for(players: int, characters: Sequence[Character]) -> Net | None:
    """The learned value's net for a table of this size and these cards, if one was
    trained (``NETS``)."""
    net = NETS.get(players)
    return net if net is not None and net.fits(players, characters) else None


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
