"""Computer players for Complots.

EASY plays its own cards honestly, rarely bluffs or challenges and picks its
targets at random. NORMAL counts the characters it can see (face-up cards,
its own hand, its exchange draw, its set-aside packet) against the deck, so
it knows how many copies of each character may still hide in other hands. It
also remembers the seat's visible history (``beliefs``): who claimed, blocked,
let a theft or a murder go unblocked, failed a claim or exchanged, which shifts
the odds of each opponent's cards. It challenges claims that are unlikely by
those odds, bluffs now and then with characters that are plausible (and
consistent with its own past claims), aims at the most dangerous opponent, and
looks one turn ahead: on its last influence, it stops a coup coming next turn
when a theft or a murder can. EASY forgets: it decides from the view alone.
In a game that runs far too long both stop trying blockable actions, so two
players holding each other's blockers cannot trade blocked thefts forever.
"""

from __future__ import annotations

import math
import random
from abc import abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.ai import Level, Policy
from games.base import Event, Prompt

from .beliefs import Memory, read_history
from .cards import (
    ASSASSIN_COST,
    COUP_COST,
    STEAL_AMOUNT,
    ActionKind,
    Character,
    Variant,
    copies_per_character,
    deck_characters,
)
from .models import (
    Act,
    Block,
    Challenge,
    ComplotsChoice,
    ComplotsView,
    Keep,
    Pass,
    PendingView,
    Pick,
    PlayerView,
    Reveal,
    Show,
    Stage,
    Verdict,
)

ComplotsPrompt = Prompt[ComplotsChoice]

DUCHESS = Character.DUCHESS
ASSASSIN = Character.ASSASSIN
COUNTESS = Character.COUNTESS
CAPTAIN = Character.CAPTAIN

BASE_VALUE: dict[Character, float] = {
    Character.DUCHESS: 5.0,
    Character.CAPTAIN: 4.0,
    Character.ASSASSIN: 3.5,
    Character.COUNTESS: 3.0,
    Character.INQUISITOR: 3.0,
    Character.AMBASSADOR: 2.5,
}
DUPLICATE_PENALTY = 2.5
"""Two copies of one character give fewer options than two different ones."""

BLUFF_PRIOR = 0.15
"""NORMAL's belief of how often a claim without the card is made."""
DESPERATE_BLOCK_PRIOR = 0.6
"""... and for a Countess claimed by a one-influence target: its only way out."""

STALL_TURNS_PER_SEAT = 20
"""After this many turns per seat, only unblockable gains: two players holding
the blockers of each other's actions would otherwise trade blocked actions forever."""
UNBLOCKABLE = (ActionKind.INCOME, ActionKind.TAX, ActionKind.COUP)


# --- what the viewer knows ---------------------------------------------------------

DECKS = {variant: deck_characters(variant) for variant in Variant}
EXCHANGERS = {variant: Character(variant.value) for variant in Variant}
NO_MEMORY = Memory()
"""What an empty history says (simulations decide from views alone); never changed."""


@dataclass(frozen=True)
class Situation:
    """The facts of one decision, read from the view once."""

    view: ComplotsView
    me: PlayerView
    hand: tuple[Character, ...]
    opponents: tuple[PlayerView, ...]
    unseen: dict[Character, int]
    """Copies of each character that may be in another hand or the Court."""
    unseen_total: int
    copies: int
    memory: Memory = field(default_factory=Memory)
    """What the seat's visible history says of the hands (empty: no history)."""

    @property
    def exchanger(self) -> Character:
        return EXCHANGERS[self.view.variant]

    @property
    def influence(self) -> int:
        return self.me.hidden_count

    @property
    def two_player(self) -> bool:
        return len(self.view.players) == 2

    def player(self, seat: int) -> PlayerView:
        return self.view.players[seat]

    def random_hold_chance(self, characters: Iterable[Character], seat: int) -> float:
        """How likely ``seat`` holds at least one of ``characters`` if hands were random."""
        unseen = sum(self.unseen.get(c, 0) for c in set(characters))
        total = self.unseen_total
        drawn = min(self.player(seat).hidden_count, total)
        if unseen <= 0 or drawn <= 0:
            return 0.0
        return 1.0 - math.comb(total - unseen, drawn) / math.comb(total, drawn)

    def hold_chance(self, character: Character, seat: int, pending: bool = False) -> float:
        """How likely ``seat`` holds at least one ``character``, by the counts and
        what its past claims and blocks say (``pending``: its last claim, the one
        being decided, is not evidence for itself)."""
        if self.memory.empty:
            return self.random_hold_chance((character,), seat)
        if character in self.memory.known.get(seat, ()):
            return 1.0
        prior = self.random_hold_chance((character,), seat)
        ratio = self.memory.ratio(seat, character, pending)
        return posterior(prior, ratio)

    def hold_any_chance(self, characters: Iterable[Character], seat: int) -> float:
        """How likely ``seat`` holds at least one of ``characters``: the random chance,
        scaled by what the history says of each."""
        wanted = set(characters)
        prior = self.random_hold_chance(wanted, seat)
        if self.memory.empty:
            return prior
        alone = [self.random_hold_chance((c,), seat) for c in wanted]
        informed = [self.hold_chance(c, seat) for c in wanted]
        independent = 1.0 - math.prod(1.0 - p for p in alone)
        if independent <= 0.0:
            return 0.0
        return min(1.0, prior / independent * (1.0 - math.prod(1.0 - p for p in informed)))

    def bluff_chance(self, character: Character, seat: int, prior: float = BLUFF_PRIOR) -> float:
        """How likely the claim of ``character`` ``seat`` is making is a bluff
        (1.0: impossible)."""
        holds = self.hold_chance(character, seat, pending=True)
        if holds <= 0.0:
            return 1.0
        return 1.0 - holds / (holds + (1.0 - holds) * prior)

    def credibility(self, character: Character) -> float:
        """How believable a claim of ``character`` by the viewer is after its own past
        claims and blocks (1: no history; up to 2 when it claimed it before, down to
        near 0 when it failed to prove it)."""
        if self.memory.empty:
            return 1.0
        return min(2.0, math.sqrt(self.memory.ratio(self.me.seat, character)))

    def plausibility(self, character: Character) -> float:
        """The share of copies still unseen: 0 means everyone can see it is a lie."""
        return self.unseen.get(character, 0) / self.copies


def visible_cards(view: ComplotsView, me: PlayerView) -> list[Character]:
    """Every card the viewer sees that is certainly not in another player's hand."""
    cards = [c for player in view.players for c in player.revealed]
    cards += view.exchange_pool if view.exchange_pool is not None else (me.hidden or [])
    cards += view.packet or []
    cards += view.set_aside or []
    return cards


def posterior(prior: float, ratio: float) -> float:
    """A chance updated by a likelihood ratio (on the odds)."""
    if prior <= 0.0 or prior >= 1.0 or ratio == 1.0:
        return prior
    return prior * ratio / (prior * ratio + 1.0 - prior)


def read_situation(view: ComplotsView, history: Sequence[Event] = ()) -> Situation:
    assert view.viewer is not None
    me = view.players[view.viewer]
    copies = copies_per_character(len(view.players))
    memory = read_history(history, view.viewer) if history else NO_MEMORY
    seen = Counter(visible_cards(view, me))
    for seat, cards in memory.known.items():
        if seat != me.seat and view.players[seat].alive:
            seen.update(cards)
    unseen = {c: max(0, copies - seen[c]) for c in DECKS[view.variant]}
    opponents = tuple(p for p in view.players if p.alive and p.seat != me.seat)
    return Situation(
        view=view,
        me=me,
        hand=tuple(me.hidden or ()),
        opponents=opponents,
        unseen=unseen,
        unseen_total=sum(unseen.values()),
        copies=copies,
        memory=memory,
    )


# --- values ------------------------------------------------------------------------


def assassin_threat(situation: Situation) -> bool:
    return any(p.coins >= ASSASSIN_COST for p in situation.opponents)


def card_value(character: Character, situation: Situation, influence: int) -> float:
    """How useful a card is to keep, when the hand will have ``influence`` cards."""
    value = BASE_VALUE[character]
    if character is ASSASSIN and situation.me.coins >= ASSASSIN_COST:
        value += 1.0
    if character is COUNTESS and influence == 1 and assassin_threat(situation):
        value += 2.0
    return value


def hand_value(cards: Sequence[Character], situation: Situation) -> float:
    values = sum(card_value(c, situation, len(cards)) for c in cards)
    return values - DUPLICATE_PENALTY * (len(cards) - len(set(cards)))


def static_hand_value(cards: Sequence[Character]) -> float:
    values = sum(BASE_VALUE[c] for c in cards)
    return values - DUPLICATE_PENALTY * (len(cards) - len(set(cards)))


def danger(player: PlayerView) -> float:
    """Most influence first, then most coins, and a bonus for a coup next turn."""
    about_to_coup = 2.0 if player.coins >= COUP_COST else 0.0
    return 3.0 * player.hidden_count + 0.6 * player.coins + about_to_coup


def chance_from_margin(margin: float, steepness: float = 20.0) -> float:
    """A smooth step: 0.5 at margin 0, near 1 well above, near 0 well below."""
    return 1.0 / (1.0 + math.exp(-steepness * margin))


def acts_of(prompt: ComplotsPrompt) -> list[Act]:
    return [c for c in prompt.choices if isinstance(c, Act)]


def stalled(view: ComplotsView) -> bool:
    return view.turn_number > STALL_TURNS_PER_SEAT * len(view.players)


def progressing(acts: list[Act], view: ComplotsView) -> list[Act]:
    """The acts worth considering: all of them, or the unblockable ones in a long game."""
    if not stalled(view):
        return acts
    return [a for a in acts if a.action in UNBLOCKABLE]


def kinds_in(acts: Iterable[Act]) -> set[ActionKind]:
    return {a.action for a in acts}


# --- the shared dispatch -------------------------------------------------------------


class ComplotsPolicy(Policy[ComplotsView, ComplotsChoice]):
    """Dispatches a prompt to the method of its decision kind; the 2-player pick
    (keep the most useful character) is shared."""

    remembers = False  # EASY forgets

    def decide(
        self, view: ComplotsView, prompt: ComplotsPrompt, rng: random.Random
    ) -> ComplotsChoice:
        return self.recall(view, prompt, rng, ())

    def recall(
        self,
        view: ComplotsView,
        prompt: ComplotsPrompt,
        rng: random.Random,
        history: Sequence[Event],
    ) -> ComplotsChoice:
        situation = read_situation(view, history if self.remembers else ())
        sample = prompt.choices[0]
        if isinstance(sample, Pick):
            return self.pick(situation, prompt, rng)
        if isinstance(sample, Act):
            return self.act(situation, progressing(acts_of(prompt), view), rng)
        if isinstance(sample, Reveal):
            return self.lose(situation, prompt, rng)
        if isinstance(sample, Keep):
            return self.keep(situation, prompt, rng)
        if isinstance(sample, Show):
            return self.show(situation, prompt, rng)
        if isinstance(sample, Verdict):
            return self.verdict(situation, rng)
        return self.react(situation, prompt, rng)

    def pick(self, s: Situation, prompt: ComplotsPrompt, rng: random.Random) -> ComplotsChoice:
        picks = [c for c in prompt.choices if isinstance(c, Pick)]
        best = max(card_value(p.character, s, 2) for p in picks)
        return rng.choice([p for p in picks if card_value(p.character, s, 2) == best])

    @abstractmethod
    def act(self, s: Situation, acts: list[Act], rng: random.Random) -> Act: ...

    @abstractmethod
    def lose(self, s: Situation, prompt: ComplotsPrompt, rng: random.Random) -> ComplotsChoice: ...

    @abstractmethod
    def keep(self, s: Situation, prompt: ComplotsPrompt, rng: random.Random) -> ComplotsChoice: ...

    @abstractmethod
    def show(self, s: Situation, prompt: ComplotsPrompt, rng: random.Random) -> ComplotsChoice: ...

    @abstractmethod
    def verdict(self, s: Situation, rng: random.Random) -> ComplotsChoice: ...

    @abstractmethod
    def react(self, s: Situation, prompt: ComplotsPrompt, rng: random.Random) -> ComplotsChoice: ...


def weakest_slot(
    s: Situation, prompt: ComplotsPrompt, keep_value: Callable[[list[Character]], float]
) -> ComplotsChoice:
    """The choice giving up the card whose partner is best to keep (two cards), by
    ``keep_value(kept_cards)``; slots and face-down cards are in the same order."""
    choices = list(prompt.choices)
    if len(s.hand) != len(choices):
        return choices[0]
    scores = [keep_value([c for j, c in enumerate(s.hand) if j != i]) for i in range(len(choices))]
    return choices[scores.index(max(scores))]


# --- EASY ----------------------------------------------------------------------------


class EasyPolicy(ComplotsPolicy):
    """Honest and timid: uses the cards it has, bluffs and challenges rarely, random
    targets, no counting of cards."""

    level = Level.EASY

    def act(self, s: Situation, acts: list[Act], rng: random.Random) -> Act:
        kinds = kinds_in(acts)
        coups = [a for a in acts if a.action is ActionKind.COUP]
        if coups and (kinds == {ActionKind.COUP} or rng.random() < 0.7):
            return rng.choice(coups)
        if ActionKind.TAX in kinds and (DUCHESS in s.hand or rng.random() < 0.05):
            return Act(action=ActionKind.TAX)
        murders = [a for a in acts if a.action is ActionKind.ASSASSINATE]
        if murders and ASSASSIN in s.hand and rng.random() < 0.7:
            return rng.choice(murders)
        steals = [
            a
            for a in acts
            if a.action is ActionKind.STEAL and a.target is not None and s.player(a.target).coins
        ]
        if steals and CAPTAIN in s.hand:
            return rng.choice(steals)
        if ActionKind.EXCHANGE in kinds and s.exchanger in s.hand and rng.random() < 0.4:
            return Act(action=ActionKind.EXCHANGE)
        gains = [k for k in (ActionKind.INCOME, ActionKind.FOREIGN_AID) if k in kinds]
        return Act(action=rng.choice(gains))

    def lose(self, s: Situation, prompt: ComplotsPrompt, rng: random.Random) -> ComplotsChoice:
        return weakest_slot(s, prompt, static_hand_value)

    def keep(self, s: Situation, prompt: ComplotsPrompt, rng: random.Random) -> ComplotsChoice:
        keeps = [c for c in prompt.choices if isinstance(c, Keep)]
        return max(keeps, key=lambda k: static_hand_value(k.cards))

    def show(self, s: Situation, prompt: ComplotsPrompt, rng: random.Random) -> ComplotsChoice:
        return rng.choice(prompt.choices)

    def verdict(self, s: Situation, rng: random.Random) -> ComplotsChoice:
        strong = s.view.examined in (DUCHESS, ASSASSIN, CAPTAIN)
        return Verdict(redraw=strong)

    def react(self, s: Situation, prompt: ComplotsPrompt, rng: random.Random) -> ComplotsChoice:
        pending = s.view.pending
        assert pending is not None
        blocks = [c for c in prompt.choices if isinstance(c, Block)]
        honest = [b for b in blocks if b.character in s.hand]
        if honest:
            return honest[0]
        doomed = pending.action is ActionKind.ASSASSINATE and s.influence == 1
        if doomed and blocks and rng.random() < 0.5:
            return blocks[0]
        can_challenge = Challenge() in prompt.choices
        if can_challenge and rng.random() < (0.25 if doomed else 0.05):
            return Challenge()
        return Pass()


# --- NORMAL --------------------------------------------------------------------------


class NormalPolicy(ComplotsPolicy):
    """Counts cards, claims mostly what it holds, bluffs plausibly, challenges what the
    counts make unlikely, and aims at the most dangerous opponent."""

    level = Level.NORMAL
    remembers = True

    # --- the turn ---

    def act(self, s: Situation, acts: list[Act], rng: random.Random) -> Act:
        coups = [a for a in acts if a.action is ActionKind.COUP]
        if coups and s.me.coins >= COUP_COST:
            return max(coups, key=lambda a: self.coup_score(s, a))
        escape = self.escape(s, acts)
        if escape is not None:
            return escape
        held = set(s.hand) | self.bluffs(s, rng)
        options = [(value, a) for a in acts if (value := self.act_value(s, a, held)) > 0]
        return max(options, key=lambda option: option[0] + rng.uniform(0.0, 0.3))[1]

    @staticmethod
    def coup_score(s: Situation, act: Act) -> float:
        assert act.target is not None
        return danger(s.player(act.target))

    def desperate(self, s: Situation) -> bool:
        """Behind in influence, or on its last card with someone able to coup it."""
        strongest = max((p.hidden_count for p in s.opponents), default=0)
        rich = any(p.coins >= COUP_COST for p in s.opponents)
        return s.influence < strongest or (s.influence == 1 and rich)

    def bluffs(self, s: Situation, rng: random.Random) -> set[Character]:
        """Characters it will claim this turn without holding them: rarely, more
        often when desperate, never one whose copies are all visible elsewhere."""
        rate = 0.25 if self.desperate(s) else 0.12 if s.influence > 1 else 0.05
        rate *= 2.0 / (1 + len(s.opponents))  # every opponent may challenge
        claimable = (DUCHESS, CAPTAIN, ASSASSIN, s.exchanger)
        return {
            c
            for c in claimable
            if c not in s.hand and rng.random() < rate * s.plausibility(c) * s.credibility(c)
        }

    # --- one turn ahead: a coup coming at the last influence ---

    def escape(self, s: Situation, acts: list[Act]) -> Act | None:
        """On its last influence, with an opponent able to coup it next turn (two
        players: the only one; more: only with the card in hand), the act with the
        best chance to stop that coup: a theft that leaves the threat below the
        coup's price, or a murder of its last influence. None: no such threat or
        no such act."""
        if s.influence != 1:
            return None
        threats = [p.seat for p in s.opponents if p.coins >= COUP_COST]
        if not threats:
            return None
        options = [(chance, a) for a in acts if (chance := self.escape_chance(s, a, threats)) > 0]
        if not options:
            return None
        return max(options, key=lambda option: option[0])[1]

    def escape_chance(self, s: Situation, act: Act, threats: list[int]) -> float:
        """How likely ``act`` stops every threat's coup next turn (0: it cannot)."""
        if act.target is None or threats != [act.target]:
            return 0.0
        target = s.player(act.target)
        if act.action is ActionKind.STEAL:
            if target.coins - min(STEAL_AMOUNT, target.coins) >= COUP_COST:
                return 0.0
            claim, blocked = CAPTAIN, s.hold_any_chance((CAPTAIN, s.exchanger), target.seat)
            worth = 0.8  # the coup is only put off
        elif act.action is ActionKind.ASSASSINATE and target.hidden_count == 1:
            claim, blocked = ASSASSIN, s.hold_chance(COUNTESS, target.seat) * 0.7
            worth = 1.0
        else:
            return 0.0
        if claim in s.hand:
            return worth * (1.0 - blocked) + 1.0
        if not s.two_player:
            return 0.0
        believed = 0.3 + 0.6 * s.plausibility(claim) * min(1.0, s.credibility(claim))
        return worth * believed * (1.0 - blocked)

    def act_value(self, s: Situation, act: Act, held: set[Character]) -> float:
        """What one action is worth now (0: not an option)."""
        kind = act.action
        if kind is ActionKind.INCOME:
            return 1.0
        if kind is ActionKind.FOREIGN_AID:
            return 2.0 * (1.0 - self.foreign_aid_block_chance(s))
        if kind is ActionKind.TAX:
            return 3.0 if DUCHESS in held else 0.0
        if kind is ActionKind.EXCHANGE:
            return self.exchange_value(s) if s.exchanger in held else 0.0
        assert act.target is not None
        target = s.player(act.target)
        if kind is ActionKind.ASSASSINATE:
            return self.murder_value(s, target) if ASSASSIN in held else 0.0
        if kind is ActionKind.STEAL:
            return self.steal_value(s, target) if CAPTAIN in held else 0.0
        if kind is ActionKind.EXAMINE:
            return 0.85 + 0.05 * target.hidden_count if Character.INQUISITOR in held else 0.0
        return 0.0  # a coup below 7 coins is never offered

    @staticmethod
    def foreign_aid_block_chance(s: Situation) -> float:
        free = 1.0
        for p in s.opponents:
            free *= 1.0 - s.hold_chance(DUCHESS, p.seat)
        return min(0.95, 1.0 - free + 0.1)

    @staticmethod
    def murder_value(s: Situation, target: PlayerView) -> float:
        """An influence taken is worth a coup (7); a Countess makes the 3 coins a loss.
        Among targets, the most dangerous first."""
        blocked = s.hold_chance(COUNTESS, target.seat)
        if target.hidden_count == 1:
            blocked *= 0.7  # a last-card Countess is often a bluff worth challenging
        most = max(danger(p) for p in s.opponents)
        return 6.0 * (1.0 - blocked) - 1.5 + 0.15 * (danger(target) - most)

    @staticmethod
    def steal_value(s: Situation, target: PlayerView) -> float:
        amount = min(STEAL_AMOUNT, target.coins)
        blocked = s.hold_any_chance((CAPTAIN, s.exchanger), target.seat)
        swing = 2.0 if s.two_player else 1.4
        return amount * swing * (1.0 - blocked) + 0.02 * danger(target)

    @staticmethod
    def exchange_value(s: Situation) -> float:
        """Worth more the weaker the hand is next to the best characters still unseen."""
        if not s.hand:
            return 0.0
        worst = min(card_value(c, s, len(s.hand)) for c in s.hand)
        candidates = [c for c, n in s.unseen.items() if n > 0 and c not in s.hand]
        best = max((card_value(c, s, len(s.hand)) for c in candidates), default=worst)
        duplicate = DUPLICATE_PENALTY if len(set(s.hand)) < len(s.hand) else 0.0
        return 0.5 + 0.45 * (max(0.0, best - worst) + duplicate)

    # --- private choices ---

    def lose(self, s: Situation, prompt: ComplotsPrompt, rng: random.Random) -> ComplotsChoice:
        return weakest_slot(s, prompt, lambda kept: hand_value(kept, s))

    def keep(self, s: Situation, prompt: ComplotsPrompt, rng: random.Random) -> ComplotsChoice:
        keeps = [c for c in prompt.choices if isinstance(c, Keep)]
        return max(keeps, key=lambda k: hand_value(k.cards, s))

    def show(self, s: Situation, prompt: ComplotsPrompt, rng: random.Random) -> ComplotsChoice:
        """Show the card it would least mind being forced to replace."""
        return weakest_slot(s, prompt, lambda kept: hand_value(kept, s))

    def verdict(self, s: Situation, rng: random.Random) -> ComplotsChoice:
        """Force a card back into the Court when it is better than a random draw."""
        shown = s.view.examined
        if shown is None:
            return Verdict(redraw=False)
        pool = Counter({c: n for c, n in s.unseen.items() if n > 0})
        pool[shown] += 1
        average = sum(BASE_VALUE[c] * n for c, n in pool.items()) / sum(pool.values())
        counters_me = shown is COUNTESS and ASSASSIN in s.hand
        return Verdict(redraw=BASE_VALUE[shown] > average + 0.3 or counters_me)

    # --- reactions ---

    def react(self, s: Situation, prompt: ComplotsPrompt, rng: random.Random) -> ComplotsChoice:
        pending = s.view.pending
        assert pending is not None
        can_challenge = Challenge() in prompt.choices
        blocks = [c for c in prompt.choices if isinstance(c, Block)]
        if s.view.stage is Stage.BLOCK_CHALLENGE:
            doubt = can_challenge and self.challenge_block(s, pending, rng)
            return Challenge() if doubt else Pass()
        if blocks and pending.target == s.me.seat:
            return self.defend(s, pending, blocks, can_challenge, rng)
        if blocks:
            block = self.block_foreign_aid(s, pending, blocks, rng)
            if block is not None:
                return block
        if can_challenge and self.challenge_action(s, pending, rng):
            return Challenge()
        return Pass()

    def threshold(self, s: Situation) -> float:
        """The bluff chance above which a challenge is worth an influence."""
        return 0.55 if s.influence >= 2 else 0.7

    def challenge(self, s: Situation, bluff: float, stakes: float, rng: random.Random) -> bool:
        if bluff >= 1.0:
            return True
        margin = bluff - (self.threshold(s) - stakes - (0.05 if s.two_player else 0.0))
        return rng.random() < chance_from_margin(margin)

    def challenge_action(self, s: Situation, pending: PendingView, rng: random.Random) -> bool:
        assert pending.claim is not None
        bluff = s.bluff_chance(pending.claim, pending.actor)
        return self.challenge(s, bluff, self.action_stakes(s, pending), rng)

    @staticmethod
    def action_stakes(s: Situation, pending: PendingView) -> float:
        """How much the claimed action matters to the viewer (lowers the threshold)."""
        actor = s.player(pending.actor)
        if pending.action is ActionKind.ASSASSINATE and pending.target == s.me.seat:
            return 0.15
        if pending.action is ActionKind.STEAL and pending.target == s.me.seat:
            return 0.0
        if pending.action is ActionKind.TAX and actor.coins + 3 >= COUP_COST:
            return 0.0
        if pending.action in (ActionKind.EXCHANGE, ActionKind.EXAMINE):
            return -0.2
        return -0.1

    def challenge_block(self, s: Situation, pending: PendingView, rng: random.Random) -> bool:
        block = pending.block
        assert block is not None
        desperate = (
            pending.action is ActionKind.ASSASSINATE and s.player(block.blocker).hidden_count == 1
        )
        prior = DESPERATE_BLOCK_PRIOR if desperate else BLUFF_PRIOR
        bluff = s.bluff_chance(block.character, block.blocker, prior)
        stakes = -0.1
        if pending.actor == s.me.seat:
            stakes = 0.1 if pending.action is ActionKind.ASSASSINATE else 0.0
        return self.challenge(s, bluff, stakes, rng)

    def block_foreign_aid(
        self, s: Situation, pending: PendingView, blocks: list[Block], rng: random.Random
    ) -> Block | None:
        """Block with a Duchess it holds; bluff one rarely against a rich player."""
        block = blocks[0]
        if block.character in s.hand:
            return block
        rich = s.player(pending.actor).coins + 2 >= COUP_COST
        chance = (0.15 if rich else 0.03) * s.plausibility(block.character)
        chance *= s.credibility(block.character)
        if s.influence > 1 and rng.random() < chance:
            return block
        return None

    def defend(
        self,
        s: Situation,
        pending: PendingView,
        blocks: list[Block],
        can_challenge: bool,
        rng: random.Random,
    ) -> ComplotsChoice:
        """The viewer is the target of a murder or a theft."""
        bluff = s.bluff_chance(pending.claim, pending.actor) if pending.claim else 0.0
        if can_challenge and bluff >= 1.0:
            return Challenge()
        honest = [b for b in blocks if b.character in s.hand]
        if honest:
            return honest[0]
        if pending.action is ActionKind.ASSASSINATE:
            return self.defend_murder(s, blocks[0], bluff if can_challenge else -1.0, rng)
        return self.defend_theft(s, pending, blocks, can_challenge, rng)

    def caught_chance(self, s: Situation, character: Character) -> float:
        """How likely a bluffed block of ``character`` gets challenged."""
        caught = 0.15 + 0.85 * (1.0 - s.plausibility(character)) ** 2
        return min(1.0, caught / max(s.credibility(character), 0.01))

    def defend_murder(
        self, s: Situation, countess: Block, bluff: float, rng: random.Random
    ) -> ComplotsChoice:
        """No Countess in hand. ``bluff`` is the Assassin's bluff chance, -1 if it
        cannot be challenged any more."""
        caught = self.caught_chance(s, COUNTESS)
        if s.influence == 1:
            # Passing loses the last card: any chance beats a certain loss.
            return Challenge() if bluff > 1.0 - caught else countess
        if bluff >= 0 and self.challenge(s, bluff, 0.0, rng):
            return Challenge()
        if caught < 0.35 and rng.random() < 0.3:
            return countess
        return Pass()

    def defend_theft(
        self,
        s: Situation,
        pending: PendingView,
        blocks: list[Block],
        can_challenge: bool,
        rng: random.Random,
    ) -> ComplotsChoice:
        """No blocker in hand: challenge, bluff a block, or let the coins go."""
        if s.me.coins == 0:
            return Pass()
        if can_challenge and self.challenge_action(s, pending, rng):
            return Challenge()
        block = max(blocks, key=lambda b: s.unseen.get(b.character, 0))
        rate = 0.3 if s.influence > 1 else 0.08
        if rng.random() < rate * s.plausibility(block.character) * s.credibility(block.character):
            return block
        return Pass()


POLICIES: dict[Level, Policy[Any, Any]] = {
    Level.EASY: EasyPolicy(),
    Level.NORMAL: NormalPolicy(),
}
