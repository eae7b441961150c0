"""Mascarade computer players: the EASY and NORMAL policies.

Both see only the seat's view. NORMAL rebuilds, at every decision, a belief per
card place (a probability over characters) from the viewer's memories: a fresh
memory is certain; the places it cannot be sure of share the characters not
accounted for, each leaning towards the card last seen there (a stale memory).
Every decision then compares the coin outcomes of its choices (one ply), scored by
``Fortunes.standing``: one's coins against the richest rival's, with the game's ends
(13 coins, the Cheat at 10, a bankruptcy making the richest win) as big stakes.
The view has no history, so two players could repeat the same sure moves forever:
now and then NORMAL looks at an unsure card or plays a choice nearly as good.

``RememberingPolicy`` is NORMAL with the beliefs the seat's history gives (the deals
``sampler.track`` follows through every swap, sight and claim): HARD's guide.

EASY plays what it surely knows: it announces only a card it saw fresh, contests
only with such a card, and otherwise looks or swaps at random.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache, partial
from operator import itemgetter
from typing import Any

from games.ai import Level, Policy
from games.base import Event, Prompt, Seat

from .cards import (
    BANK_GAINS,
    BISHOP_TAKES,
    CHEAT_COINS,
    FINE,
    INQUISITOR_FINE,
    THIEF_TAKES,
    WIDOW_TARGET,
    WINNING_COINS,
    Character,
)
from .models import (
    Announce,
    ChooseCard,
    ChoosePlayer,
    Contest,
    Decide,
    Guess,
    Look,
    MascaradeChoice,
    MascaradeView,
    Memory,
    Pass,
    Stage,
    Swap,
    SwapCause,
    flat_place,
    place_of,
)
from .sampler import PARTICLES, track

Belief = dict[Character, float]
MascaradePrompt = Prompt[MascaradeChoice]

WIN = 30.0
"""The standing of a won game (a lost one is -WIN), in coins."""
RIVAL_WEIGHT = 0.4
"""How much the richest rival's coins count against one's own."""
DANGER_COINS = 3.0
"""A player this poor may go bankrupt soon, ending the game."""
STAY_WEIGHT = 2.0
"""A stale memory's character is this many times likelier to still be there."""
SURE = 0.9
"""A belief this high counts as knowing the card."""
FUTURE = 0.6
"""Discount of a gain expected on a later turn (the card may move meanwhile)."""
OTHER_CARDS = 0.25
"""Worth of a hand's other cards (two and three players) beside its best one."""
CONFUSION = 0.05
"""A swap's small worth of its own: the other cards' owners lose track of them."""
GIFT_WEIGHT = 0.3
"""Share of the harm a card given away could do in its new owner's hands."""
CONTEST_NOISE = 0.05
"""Chance that a player contests a false announcement without holding the card."""
CONTEST_KNOWING = 0.5
"""Chance that the holder of a card knows it and contests a false claim of it."""
CONTEST_WIN = 0.5
"""Chance that a player contests an announcement that would win the game."""
CLAIM_TRUST = 0.75
"""Share of the unexplained belief moved to the claimant by its announcing."""
INQUISITOR_HIT = 0.6
"""Chance that a questioned player whose card is a mystery to us guesses wrong."""
CONTEST_MARGIN = 0.2
"""Contest only when it beats silence by this much (in standing)."""
VARIETY = 0.1
"""Chance of a turn spent looking at an unsure card, else on a choice nearly as good
as the best."""
NEARLY = 0.5
"""How much worse than the best a choice may be to count as nearly as good."""
LONG_GAME_ROUNDS = 25
"""Rounds after which NORMAL sometimes plays at random (a cycle breaker)."""
EASY_ANNOUNCES = 0.85
"""Chance that EASY announces a card it knows (and whose power brings coins)."""
POWER_EXTRA: dict[Character, float] = {
    Character.SPY: 0.7,
    Character.FOOL: 0.3,
}
"""Worth of a power beyond coins (the Spy's look and steal, the Fool's swap)."""


@dataclass(frozen=True)
class Knobs:
    """The weights a ``Mind`` decides by. The defaults are NORMAL's (the module
    constants above, whose docstrings say what each is); a HARD guide may play
    others without moving NORMAL's decisions."""

    rival_weight: float = RIVAL_WEIGHT
    danger_coins: float = DANGER_COINS
    sure: float = SURE
    future: float = FUTURE
    other_cards: float = OTHER_CARDS
    confusion: float = CONFUSION
    gift_weight: float = GIFT_WEIGHT
    contest_noise: float = CONTEST_NOISE
    contest_knowing: float = CONTEST_KNOWING
    contest_win: float = CONTEST_WIN
    claim_trust: float = CLAIM_TRUST
    inquisitor_hit: float = INQUISITOR_HIT
    contest_margin: float = CONTEST_MARGIN
    variety: float = VARIETY
    nearly: float = NEARLY
    long_game_rounds: int = LONG_GAME_ROUNDS


NORMAL_KNOBS = Knobs()
"""NORMAL's weights (and the view-only NORMAL's, EASY's and the simulations')."""


# --- places ------------------------------------------------------------------


def flat_memories(view: MascaradeView) -> list[Memory | None]:
    """The viewer's memory of each place: seats' slots, then the centre (engine order)."""
    return [m for player in view.players for m in player.cards] + list(view.centre)


def owner_of(view: MascaradeView, place: int) -> Seat | None:
    seat = place // view.hand_size
    return seat if seat < len(view.players) else None


# --- beliefs -----------------------------------------------------------------


def beliefs_of(view: MascaradeView) -> list[Belief]:
    """A probability over characters for every place, from the viewer's memories."""
    return beliefs_from(flat_memories(view), view.characters)


def beliefs_from(
    memories: Sequence[Memory | None], characters: Sequence[Character]
) -> list[Belief]:
    """``beliefs_of`` from memories of every place (``flat_memories``) and the set.

    The beliefs are shared between the calls given the same memories (a search asks
    for the same ones again and again: 98 % of its calls at 6 players), so they must
    not be changed; the list is the caller's own."""
    key = tuple(None if m is None else (m.character, m.stale) for m in memories)
    return list(shared_beliefs(key, tuple(characters)))


@lru_cache(maxsize=4096)
def shared_beliefs(
    memories: tuple[tuple[Character, bool] | None, ...], characters: tuple[Character, ...]
) -> tuple[Belief, ...]:
    """``beliefs_from`` of memories given as (character, stale) pairs."""
    pool = Counter(characters)
    result: list[Belief] = [{} for _ in memories]
    unsure: list[int] = []
    for place, memory in enumerate(memories):
        if memory is not None and not memory[1] and pool[memory[0]] > 0:
            result[place] = {memory[0]: 1.0}
            pool[memory[0]] -= 1
        else:
            unsure.append(place)
    if unsure:
        rows = spread(pool, [memories[p] for p in unsure])
        for place, row in zip(unsure, rows, strict=True):
            result[place] = row
    return tuple(result)


def spread(
    pool: Counter[Character], memories: Sequence[tuple[Character, bool] | None]
) -> list[Belief]:
    """Share the unaccounted characters over the unsure places: each place leans
    towards its stale memory, and each character's total stays its number of copies
    (a few rounds of iterative proportional fitting)."""
    characters = [c for c, n in pool.items() if n > 0]
    rows = [
        [pool[c] * (STAY_WEIGHT if m is not None and m[0] is c else 1.0) for c in characters]
        for m in memories
    ]
    for _ in range(3):
        for row in rows:
            total = sum(row)
            for i in range(len(row)):
                row[i] /= total
        for i, character in enumerate(characters):
            column = sum(row[i] for row in rows)
            scale = pool[character] / column if column else 0.0
            for row in rows:
                row[i] *= scale
    beliefs: list[Belief] = []
    for row in rows:
        total = sum(row) or 1.0
        beliefs.append({c: x / total for c, x in zip(characters, row, strict=True) if x > 0})
    return beliefs


def certainty(belief: Belief) -> float:
    return max(belief.values(), default=0.0)


# --- the table as coins ------------------------------------------------------


class Fortunes:
    """The viewer's situation: coins, who plays, and what each power would do.

    Made by ``of`` from a view, and shared by every decision of the same fortunes
    (a search meets the same ones again and again: 98 % of its decisions at 6 and
    10 players), with what it has worked out so far: never change what it gives."""

    def __init__(
        self,
        coins: Sequence[int],
        in_play: Sequence[bool],
        courthouse: int,
        characters: Sequence[Character],
        me: Seat,
        knobs: Knobs = NORMAL_KNOBS,
    ) -> None:
        self.in_play = in_play
        self.courthouse = courthouse
        self.characters = characters
        self.me = me
        self.knobs = knobs
        self.harms: dict[tuple[Seat, Character], float] = {}
        self.coins = [float(c) for c in coins]
        self.playing = [seat for seat, playing in enumerate(in_play) if playing]
        self.rivals = [s for s in self.playing if s != me]
        self.rivals_coins: Callable[[Sequence[float]], Sequence[float]] = (
            itemgetter(*self.rivals) if len(self.rivals) > 1 else partial(listed, self.rivals)
        )
        """The rivals' entries of a list of coins (``itemgetter`` from two rivals on:
        ``standing`` runs some 70 times a simulation; no method of its own, which
        would make a reference cycle)."""
        self.clockwise: dict[Seat, list[Seat]] = {}
        """``others_clockwise`` of the seats already asked."""
        self.now = self.standing(self.coins)

    @staticmethod
    def of(view: MascaradeView, me: Seat, knobs: Knobs = NORMAL_KNOBS) -> Fortunes:
        """The fortunes the view shows, as the viewer ``me`` weighs them."""
        return shared_fortunes(
            tuple(p.coins for p in view.players),
            tuple(p.in_play for p in view.players),
            view.courthouse,
            tuple(view.characters),
            me,
            knobs,
        )

    def others_clockwise(self, seat: Seat) -> list[Seat]:
        known = self.clockwise.get(seat)
        if known is None:
            seats = len(self.in_play)
            around = ((seat + step) % seats for step in range(1, seats))
            known = self.clockwise[seat] = [s for s in around if self.in_play[s]]
        return known

    def standing(self, coins: Sequence[float]) -> float:
        """How good these fortunes are for the viewer; a finished game is +-WIN."""
        mine = coins[self.me]
        rivals = self.rivals_coins(coins)
        if not rivals or mine >= WINNING_COINS:
            return WIN
        richest, poorest = max(rivals), min(rivals)
        if richest >= WINNING_COINS:
            return -WIN
        if mine <= 0 or poorest <= 0:
            return WIN if mine >= richest else -WIN
        # The richest rival's weight: near a bankruptcy the richest wins, so then only
        # the lead counts.
        knobs = self.knobs
        danger_coins, weight = knobs.danger_coins, knobs.rival_weight
        lowest = min(mine, poorest)
        danger = min(1.0, max(0.0, (danger_coins - lowest) / (danger_coins - 1)))
        return mine - (weight + (1 - weight) * danger) * richest

    def fined(self, coins: Sequence[float], *seats: Seat) -> list[float]:
        after = list(coins)
        for seat in seats:
            after[seat] = max(0.0, after[seat] - FINE)
        return after

    def richest_other(self, seat: Seat, coins: Sequence[float]) -> Seat:
        return max(self.others_clockwise(seat), key=lambda s: coins[s])

    def after_power(self, user: Seat, character: Character) -> list[float]:
        """The fortunes once ``user`` used the power (the Cheat's win as 13 coins)."""
        coins = list(self.coins)
        if character in BANK_GAINS:
            coins[user] += BANK_GAINS[character]
        elif character is Character.WIDOW:
            coins[user] = max(coins[user], float(WIDOW_TARGET))
        elif character is Character.JUDGE:
            coins[user] += self.courthouse
        elif character is Character.CHEAT:
            if coins[user] >= CHEAT_COINS:
                coins[user] = max(coins[user], float(WINNING_COINS))
        elif character is Character.THIEF:
            others = self.others_clockwise(user)
            for victim in dict.fromkeys((others[0], others[-1])):
                take(coins, user, victim, THIEF_TAKES)
        elif character is Character.BISHOP:
            take(coins, user, self.richest_other(user, coins), BISHOP_TAKES)
        elif character is Character.WITCH:
            return self.after_witch(user, coins)
        elif character is Character.INQUISITOR:
            victim = self.richest_other(user, coins)
            take(
                coins, user, victim, self.knobs.inquisitor_hit * min(INQUISITOR_FINE, coins[victim])
            )
        return coins

    def after_witch(self, user: Seat, coins: list[float]) -> list[float]:
        """The viewer swaps with whoever suits it best; others with the richest."""
        if user == self.me:
            options = [swapped(coins, user, t) for t in self.others_clockwise(user)]
            return max([coins, *options], key=self.standing)
        target = self.richest_other(user, coins)
        return swapped(coins, user, target) if coins[target] > coins[user] else coins

    @cached_property
    def values(self) -> dict[Character, float]:
        """What using each power now would bring the viewer (standing gained)."""
        return {
            c: self.standing(self.after_power(self.me, c)) - self.now + POWER_EXTRA.get(c, 0.0)
            for c in dict.fromkeys(self.characters)
        }

    def harm(self, user: Seat, character: Character) -> float:
        """Standing the viewer gains (mostly loses) when ``user`` uses the power."""
        key = (user, character)
        if key not in self.harms:
            self.harms[key] = self.standing(self.after_power(user, character)) - self.now
        return self.harms[key]


def listed(seats: Sequence[Seat], coins: Sequence[float]) -> list[float]:
    """The entries of ``coins`` at ``seats``, as a list."""
    return [coins[s] for s in seats]


@lru_cache(maxsize=4096)
def shared_fortunes(
    coins: tuple[int, ...],
    in_play: tuple[bool, ...],
    courthouse: int,
    characters: tuple[Character, ...],
    me: Seat,
    knobs: Knobs,
) -> Fortunes:
    """``Fortunes.of``, one per situation."""
    return Fortunes(coins, in_play, courthouse, characters, me, knobs)


def take(coins: list[float], actor: Seat, victim: Seat, amount: float) -> None:
    amount = min(amount, coins[victim])
    coins[victim] -= amount
    coins[actor] += amount


def swapped(coins: Sequence[float], one: Seat, two: Seat) -> list[float]:
    after = list(coins)
    after[one], after[two] = after[two], after[one]
    return after


# --- NORMAL ------------------------------------------------------------------


class Mind:
    """One NORMAL decision: the viewer's beliefs and the worth of its options."""

    def __init__(
        self,
        view: MascaradeView,
        beliefs: list[Belief] | None = None,
        knobs: Knobs = NORMAL_KNOBS,
    ) -> None:
        assert view.viewer is not None
        self.view = view
        self.me = view.viewer
        self.knobs = knobs
        self.table = Fortunes.of(view, self.me, knobs)
        self.beliefs = beliefs_of(view) if beliefs is None else beliefs
        self.worths: dict[int, tuple[Belief, float]] = {}
        """``card_worth`` of the beliefs already weighed (by identity: they do not change)."""
        self.hand = [self.me * view.hand_size + slot for slot in range(view.hand_size)]

    def place(self, seat: Seat | None, slot: int) -> int:
        """The flat index of a seat's card (seat None: a centre card), as ``place_of``
        gives it without building a ``CardRef`` (a search asks this some six times a
        simulation)."""
        return flat_place(len(self.view.players), self.view.hand_size, seat, slot)

    def own(self, slot: int) -> Belief:
        return self.beliefs[self.hand[slot]]

    # worth of cards --------------------------------------------------------

    def potential(self, belief: Belief) -> float:
        """What a card is worth once known: each character's best use, never < 0."""
        values = self.table.values
        return sum(p * max(values[c], 0.0) for c, p in belief.items())

    def card_worth(self, belief: Belief) -> float:
        """A card one holds: its potential, discounted when one would first have to look."""
        known = self.worths.get(id(belief))
        if known is not None and known[0] is belief:
            return known[1]
        worth = self.potential(belief)
        worth = worth if certainty(belief) >= self.knobs.sure else self.knobs.future * worth
        self.worths[id(belief)] = (belief, worth)
        return worth

    def hand_worth(self, beliefs: Sequence[Belief]) -> float:
        return self.hand_worth_of([self.card_worth(b) for b in beliefs])

    def hand_worth_of(self, worths: Sequence[float]) -> float:
        """The best card one may announce with on one's turn, plus a little for the
        others (the two- and three-player hands)."""
        protected = self.view.protected_slot
        best = max(w for slot, w in enumerate(worths) if slot != protected)
        return best + self.knobs.other_cards * (sum(worths) - best)

    def gift_harm(self, seat: Seat | None, belief: Belief) -> float:
        """Harm (<= 0) of handing this card to ``seat`` (nothing for the centre)."""
        if seat is None or seat == self.me:
            return 0.0
        return self.knobs.gift_weight * sum(
            p * min(0.0, self.table.harm(seat, c)) for c, p in belief.items() if p > 0.05
        )

    # the turn -------------------------------------------------------------

    def turn(self, prompt: MascaradePrompt, rng: random.Random) -> MascaradeChoice:
        """The best choice; now and then a look at an unsure card, or another choice
        nearly as good, so that players cannot repeat the same turns forever (a view
        has no history: two players both sure the other is the Witch would swap
        fortunes back and forth)."""
        if self.dragging_on() and rng.random() < self.knobs.variety:
            return rng.choice(prompt.choices)
        current = self.hand_worth([self.own(s) for s in range(self.view.hand_size)])
        scored = [(self.worth_of(c, current) + rng.random() * 1e-3, c) for c in prompt.choices]
        best = max(worth for worth, _ in scored)
        if rng.random() < self.knobs.variety:
            looks = [c for c in prompt.choices if isinstance(c, Look) and self.unsure(c.slot)]
            near = [c for worth, c in scored if worth >= best - self.knobs.nearly]
            return rng.choice(looks or near)
        return next(c for worth, c in scored if worth == best)

    def ranked(self, prompt: MascaradePrompt) -> list[MascaradeChoice]:
        """The turn's choices, best first by their worth (no randomness)."""
        current = self.hand_worth([self.own(s) for s in range(self.view.hand_size)])
        return sorted(prompt.choices, key=lambda c: -self.worth_of(c, current))

    def dragging_on(self) -> bool:
        """A game this long is likely caught in a cycle of sure moves: shake it."""
        return self.view.turn_number > self.knobs.long_game_rounds * len(self.table.playing)

    def unsure(self, slot: int) -> bool:
        return certainty(self.own(slot)) < self.knobs.sure

    def worth_of(self, choice: MascaradeChoice, current: float) -> float:
        if isinstance(choice, Announce):
            # The card stays: its worth for later turns adds to the power used now.
            return self.announce_worth(choice.slot, choice.character) + self.knobs.future * current
        if isinstance(choice, Look):
            return self.look_worth(choice.slot, current)
        assert isinstance(choice, Swap)
        target = self.place(choice.target, choice.target_slot)
        return (
            self.knobs.future * self.swap_gain(self.hand[choice.slot], target, current)
            + self.knobs.confusion
        )

    def announce_worth(self, slot: int, character: Character) -> float:
        """True: the power works, contested or not. False: it works unless contested;
        contested, one pays a fine, and a contesting holder uses the power."""
        p = self.own(slot).get(character, 0.0)
        gain = self.table.values[character]
        fine = self.table.standing(self.table.fined(self.table.coins, self.me)) - self.table.now
        contested, holder_harm = self.contest_risk(character, gain >= WIN / 2)
        bluff = (1 - contested) * gain + contested * fine + holder_harm
        return p * gain + (1 - p) * bluff

    def contest_risk(self, character: Character, winning: bool) -> tuple[float, float]:
        """Chance that somebody contests a false announcement of ``character``, and the
        expected harm of its holder contesting (it then uses the power)."""
        knobs, table, beliefs, hand = self.knobs, self.table, self.beliefs, self.view.hand_size
        floor = knobs.contest_win if winning else 0.0
        nobody, harm = 1.0, 0.0
        for seat in table.others_clockwise(self.me):
            first = seat * hand
            holds = sum(beliefs[place].get(character, 0.0) for place in range(first, first + hand))
            knowing = knobs.contest_knowing * min(holds, 1.0)
            if knowing > 0.01:
                harm += knowing * table.harm(seat, character)
            nobody *= 1 - min(max(knobs.contest_noise + knowing, floor), 1.0)
        return 1 - nobody, harm

    def look_worth(self, slot: int, current: float) -> float:
        belief = self.own(slot)
        if certainty(belief) >= self.knobs.sure:
            return self.knobs.future * current
        worths = [self.card_worth(self.own(s)) for s in range(self.view.hand_size)]
        worths[slot] = self.potential(belief)
        return self.knobs.future * self.hand_worth_of(worths)

    def swap_gain(self, mine: int, other: int, current: float) -> float:
        """The hand's worth after the better of swapping or pretending to."""
        return max(current, self.swapped_worth(mine, other))

    def swapped_worth(self, mine: int, other: int) -> float:
        hand = [self.beliefs[p] for p in self.hand]
        owner = owner_of(self.view, other)
        if owner == self.me:
            i, j = self.hand.index(mine), self.hand.index(other)
            hand[i], hand[j] = hand[j], hand[i]
            return self.hand_worth(hand)
        hand[self.hand.index(mine)] = self.beliefs[other]
        return self.hand_worth(hand) + self.gift_harm(owner, self.beliefs[mine])

    # swaps under the table ---------------------------------------------------

    def decide(self, rng: random.Random) -> Decide:
        swap = self.view.swap
        assert swap is not None
        first, second = place_of(self.view, swap.first), place_of(self.view, swap.second)
        if swap.cause is SwapCause.FOOL:
            return Decide(swap=self.fool_swaps(first, second))
        current = self.hand_worth([self.beliefs[p] for p in self.hand])
        after = self.swapped_worth(first, second)
        if abs(after - current) < 1e-6:
            return Decide(swap=rng.random() < 0.5)
        return Decide(swap=after > current)

    def fool_swaps(self, first: int, second: int) -> bool:
        """Move the better card away from the richer of the two owners."""
        one, two = owner_of(self.view, first), owner_of(self.view, second)
        assert one is not None and two is not None
        coins = self.table.coins
        richer_first = coins[one] >= coins[two]
        first_better = self.potential(self.beliefs[first]) > self.potential(self.beliefs[second])
        return richer_first == first_better

    # contests --------------------------------------------------------------

    def contest(self, prompt: MascaradePrompt) -> MascaradeChoice:
        announcement = self.view.announcement
        assert announcement is not None
        character, claimant = announcement.character, announcement.claimant
        slot = max(range(self.view.hand_size), key=lambda s: self.own(s).get(character, 0.0))
        p = self.own(slot).get(character, 0.0)
        claimed = self.beliefs[claimant * self.view.hand_size + announcement.slot]
        q = claimed.get(character, 0.0)
        if certainty(claimed) < self.knobs.sure:
            # Players mostly announce what they believe they are: a claim is evidence.
            q = min(q + max(0.0, 1 - p - q) * self.knobs.claim_trust, 1 - p)
        if (
            self.contest_gain(claimant, character, p, q, bool(announcement.contesters))
            > self.knobs.contest_margin
        ):
            return Contest(slot=slot)
        return Pass()

    def contest_gain(
        self, claimant: Seat, character: Character, p: float, q: float, contested: bool
    ) -> float:
        """Contesting against staying silent, in standing; p: one holds the card,
        q: the claimant does (else neither: both are fined)."""
        table = self.table
        standing = table.standing
        theirs = table.after_power(claimant, character)
        mine = table.after_power(self.me, character)
        silent = standing(theirs)
        if contested:
            silent = q * silent + (1 - q) * standing(table.fined(table.coins, claimant))
        speak = (
            p * (standing(table.fined(mine, claimant)) + POWER_EXTRA.get(character, 0.0))
            + q * standing(table.fined(theirs, self.me))
            + (1 - p - q) * standing(table.fined(table.coins, claimant, self.me))
        )
        return speak - silent

    # powers ----------------------------------------------------------------

    def power(self, prompt: MascaradePrompt) -> MascaradeChoice:
        stage = self.view.stage
        if stage is Stage.GUESS:
            return self.guess(prompt)
        if stage in (Stage.WITCH, Stage.BISHOP):
            return self.best_fortune(prompt)
        if stage is Stage.INQUISITOR:
            return self.question(prompt)
        cards = [c for c in prompt.choices if isinstance(c, ChooseCard)]
        if stage is Stage.SPY:
            return max(cards, key=self.spy_interest)
        return max(cards, key=self.fool_interest)

    def guess(self, prompt: MascaradePrompt) -> MascaradeChoice:
        guesses = [c for c in prompt.choices if isinstance(c, Guess)]
        belief = self.own(0)
        return max(guesses, key=lambda g: belief.get(g.character, 0.0))

    def best_fortune(self, prompt: MascaradePrompt) -> MascaradeChoice:
        """Witch (or the Bishop's tie): the target leaving the best fortunes."""
        coins = self.table.coins

        def outcome(choice: MascaradeChoice) -> float:
            assert isinstance(choice, ChoosePlayer)
            if choice.target is None:
                return self.table.standing(coins)
            if self.view.stage is Stage.WITCH:
                return self.table.standing(swapped(coins, self.me, choice.target))
            # Among equally rich players, rob the one likelier to hold a good card.
            after = list(coins)
            take(after, self.me, choice.target, BISHOP_TAKES)
            threat = self.potential(self.beliefs_of_seat(choice.target))
            return self.table.standing(after) + 0.1 * threat

        return max(prompt.choices, key=outcome)

    def beliefs_of_seat(self, seat: Seat) -> Belief:
        return self.beliefs[seat * self.view.hand_size]

    def question(self, prompt: MascaradePrompt) -> MascaradeChoice:
        """Inquisitor: the player likeliest to pay most. A card we are sure of was
        likely seen by its owner too, so it is less likely to be guessed wrong."""
        coins = self.table.coins

        def outcome(choice: MascaradeChoice) -> float:
            assert isinstance(choice, ChoosePlayer) and choice.target is not None
            known = certainty(self.beliefs_of_seat(choice.target))
            miss = self.knobs.inquisitor_hit * (1 - known / 2)
            after = list(coins)
            take(after, self.me, choice.target, miss * min(INQUISITOR_FINE, coins[choice.target]))
            return self.table.standing(after)

        return max(prompt.choices, key=outcome)

    def spy_interest(self, choice: ChooseCard) -> float:
        belief = self.beliefs[self.place(choice.target, choice.slot)]
        return self.potential(belief) + 0.1 * (1 - certainty(belief))

    def fool_interest(self, choice: ChooseCard) -> float:
        """First card: the richest player's best one; second: the poorest player's."""
        assert choice.target is not None
        belief = self.beliefs[self.place(choice.target, choice.slot)]
        coins = self.table.coins[choice.target]
        if self.view.stage is Stage.FOOL_FIRST:
            return coins + 0.1 * self.potential(belief)
        return -coins - 0.1 * self.potential(belief)


class NormalPolicy(Policy[MascaradeView, MascaradeChoice]):
    """Tracks beliefs, looks when unsure, steals known good cards, announces and
    contests when the expected coins say so, bluffs when a bluff pays: from the
    view alone (HARD's simulations play it, as they have no history to give).
    The NORMAL level is ``RememberingPolicy``."""

    level = Level.NORMAL

    def decide(
        self, view: MascaradeView, prompt: MascaradePrompt, rng: random.Random
    ) -> MascaradeChoice:
        return self.think(Mind(view), prompt, rng)

    @staticmethod
    def think(mind: Mind, prompt: MascaradePrompt, rng: random.Random) -> MascaradeChoice:
        view = mind.view
        stage = view.stage
        if stage is Stage.TURN:
            return mind.turn(prompt, rng)
        if stage is Stage.DECIDE:
            return mind.decide(rng)
        if stage is Stage.CONTEST:
            return mind.contest(prompt)
        return mind.power(prompt)


class RememberingPolicy(NormalPolicy):
    """NORMAL: beliefs from the seat's history as well as its view, the deals
    ``track`` follows from the opening deal through every swap, sight and claim
    (the view alone forgets which two cards a swap exchanged). Given ``deals``, it
    uses those (a search thinking from one moment). Against the view-only
    ``NormalPolicy``, 1,000 games a size (seed 1), following 200 deals: 50.1 % at 2
    players (fair 50), 38.6 at 3 (33.3), 33.0 at 4 (25), 27.7 at 6 (16.7), 45.3 at
    10 (10); following NORMAL's 50: 37.4 % at 3, 34.0 at 4, 25.7 at 6 (1,000
    games), 42.7 at 10 (300)."""

    remembers = True

    def __init__(
        self,
        deals: Sequence[Sequence[Character]] | None = None,
        particles: int = PARTICLES,
        knobs: Knobs = NORMAL_KNOBS,
    ) -> None:
        self.deals = deals
        self.particles = particles
        """Deals followed through the history when none are given (``track``)."""
        self.knobs = knobs
        """Its weights: NORMAL's, or a HARD guide's."""

    def recall(
        self,
        view: MascaradeView,
        prompt: MascaradePrompt,
        rng: random.Random,
        history: Sequence[Event],
    ) -> MascaradeChoice:
        deals = self.deals if self.deals is not None else track(view, history, self.particles)
        return self.think(Mind(view, remembered(view, deals), self.knobs), prompt, rng)

    def decide(
        self, view: MascaradeView, prompt: MascaradePrompt, rng: random.Random
    ) -> MascaradeChoice:
        return self.recall(view, prompt, rng, ())

    def shortlist(self, view: MascaradeView, prompt: MascaradePrompt, size: int) -> list[Any]:
        """The ``size`` best turn choices by its reckoning; every choice at other
        moments (they are few)."""
        if view.stage is not Stage.TURN:
            return list(prompt.choices)
        return Mind(view, remembered(view, self.deals), self.knobs).ranked(prompt)[:size]


def remembered(
    view: MascaradeView, deals: Sequence[Sequence[Character]] | None
) -> list[Belief] | None:
    """Each place's share of the deals per character; the view's fresh memories
    are sure (they may be newer than the deals). None without deals."""
    if not deals:
        return None
    share = 1.0 / len(deals)
    beliefs: list[Belief] = []
    for place, memory in enumerate(flat_memories(view)):
        if memory is not None and not memory.stale:
            beliefs.append({memory.character: 1.0})
            continue
        belief: Belief = {}
        for cards in deals:
            belief[cards[place]] = belief.get(cards[place], 0.0) + share
        beliefs.append(belief)
    return beliefs


# --- EASY --------------------------------------------------------------------


class EasyPolicy(Policy[MascaradeView, MascaradeChoice]):
    """Announces a card it surely knows when its power brings coins, contests only
    with such a card, else looks or swaps at random; simple power choices."""

    level = Level.EASY

    def decide(
        self, view: MascaradeView, prompt: MascaradePrompt, rng: random.Random
    ) -> MascaradeChoice:
        assert view.viewer is not None
        table = Fortunes.of(view, view.viewer)
        stage = view.stage
        if stage is Stage.TURN:
            return easy_turn(view, table, prompt, rng)
        if stage is Stage.CONTEST:
            return easy_contest(view, prompt)
        if stage is Stage.DECIDE:
            return easy_decide(view, table, rng)
        if stage is Stage.GUESS:
            return easy_guess(view, prompt, rng)
        if stage in (Stage.WITCH, Stage.BISHOP, Stage.INQUISITOR):
            return easy_target(view, table, prompt)
        return rng.choice(prompt.choices)


def known_own(view: MascaradeView, slot: int) -> Character | None:
    assert view.viewer is not None
    memory = view.players[view.viewer].cards[slot]
    return memory.character if memory is not None and not memory.stale else None


def coin_gain(table: Fortunes, character: Character) -> float:
    return table.after_power(table.me, character)[table.me] - table.coins[table.me]


def easy_turn(
    view: MascaradeView, table: Fortunes, prompt: MascaradePrompt, rng: random.Random
) -> MascaradeChoice:
    announcements = [
        c
        for c in prompt.choices
        if isinstance(c, Announce)
        and known_own(view, c.slot) is c.character
        and coin_gain(table, c.character) > 0
    ]
    # Not always: two players announcing the same powers could otherwise loop forever.
    if announcements and rng.random() < EASY_ANNOUNCES:
        return rng.choice(announcements)
    looks = [c for c in prompt.choices if isinstance(c, Look)]
    swaps = [c for c in prompt.choices if isinstance(c, Swap)]
    if looks and rng.random() < 0.5:
        return rng.choice(looks)
    return rng.choice(swaps)


def easy_contest(view: MascaradeView, prompt: MascaradePrompt) -> MascaradeChoice:
    announcement = view.announcement
    assert announcement is not None
    for slot in range(view.hand_size):
        if known_own(view, slot) is announcement.character:
            return Contest(slot=slot)
    return Pass()


def easy_decide(view: MascaradeView, table: Fortunes, rng: random.Random) -> MascaradeChoice:
    """Random, except when it has just seen both cards (the Spy): the richer power."""
    swap = view.swap
    assert swap is not None
    if swap.cause is SwapCause.SPY:
        memories = flat_memories(view)
        mine = memories[place_of(view, swap.first)]
        other = memories[place_of(view, swap.second)]
        if mine is not None and other is not None:
            gain = coin_gain(table, other.character) - coin_gain(table, mine.character)
            return Decide(swap=gain > 0)
    return Decide(swap=rng.random() < 0.5)


def easy_guess(view: MascaradeView, prompt: MascaradePrompt, rng: random.Random) -> MascaradeChoice:
    """The card it last saw, stale or not; a random guess if it never saw one."""
    assert view.viewer is not None
    memory = view.players[view.viewer].cards[0]
    if memory is not None:
        guess = Guess(character=memory.character)
        if guess in prompt.choices:
            return guess
    return rng.choice(prompt.choices)


def easy_target(view: MascaradeView, table: Fortunes, prompt: MascaradePrompt) -> MascaradeChoice:
    """The richest other player; the Witch keeps her fortune unless that one is richer."""
    targets = [c for c in prompt.choices if isinstance(c, ChoosePlayer) and c.target is not None]
    richest = max(targets, key=lambda c: table.coins[c.target] if c.target is not None else 0)
    if view.stage is Stage.WITCH:
        assert richest.target is not None
        if table.coins[richest.target] <= table.coins[table.me]:
            return ChoosePlayer(target=None)
    return richest


NORMAL_PARTICLES = 50
"""Deals NORMAL follows through the history. It decides on the bot's event loop:
200 (HARD's) cost 3-5 ms a decision at 4-13 players (median; p99 up to 13 ms), 50
cost 0.8-2.1 ms (p99 up to 6 ms), and won as often within noise against the
view-only NORMAL (6 players, 1,000 games: 25.7 % against 27.7 %; 10 players:
42.7 % over 300 games against 45.3 % over 1,000)."""

POLICIES: dict[Level, Policy[Any, Any]] = {
    Level.EASY: EasyPolicy(),
    Level.NORMAL: RememberingPolicy(particles=NORMAL_PARTICLES),
}
