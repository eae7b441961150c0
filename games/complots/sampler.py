"""Complots states consistent with a seat's view and history, for the HARD search.

The cards the seat cannot see (the others' face-down cards, the Court, an
opponent's exchange draw, a two-player opponent's set-aside packet) are the deck
minus every card it saw: face-up cards, its own hand, its exchange pool and
packet. They are dealt at random, then the deal is kept with a likelihood that
follows the history as ``beliefs`` reads it (rejection sampling): claimed
characters likelier, characters one could have blocked with and did not less
likely, failed claims very unlikely, cards seen as the Inquisitor in place, and
the cards the seat put back in the Court (its own exchange, a proved claim)
still there until someone else draws from the Court.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from games.base import Event, Rng, Seat, copy_state
from games.search import Draw, Sampler, softmax_share

from .beliefs import EXPOSED, Memory, read_history
from .cards import COUP_COST, ActionKind, Character, copies_per_character, deck_characters
from .models import (
    ActionDeclared,
    BlockClaim,
    ClaimFailed,
    ClaimProved,
    ComplotsOptions,
    ComplotsState,
    ComplotsView,
    Influence,
    LossReason,
    PendingAction,
    PendingLoss,
    PlayerState,
    PlayerView,
    Stage,
)

CLAIMED = 10.0
"""How much likelier a claimed character is in the claimant's hand than not, the
claim being decided included (fitted on NORMAL's claims: about 80 % are honest)."""
TRIES = 24
"""Deals tried per sample before the likeliest one is taken."""
PICK_PRIOR = {Character.DUCHESS: 8.0, Character.CAPTAIN: 2.0}
"""Two players: how much likelier each character is the opponent's opening pick than
the others (the Duchess's tax is the strongest start)."""
VALUE_SCALE = 1.5
"""At a cut-off: how much standing makes a seat e times likelier to win."""


def moment_of(view: ComplotsView) -> int:
    if view.prompt is None:
        return 0
    return int(view.prompt.window.rsplit(".", 1)[-1])


def own_cards(player: PlayerView) -> list[Influence]:
    """The viewer's cards slot by slot: its hidden ones where the view says, its
    revealed ones (in slot order) in the other slots."""
    hidden = dict(zip(player.hidden_slots or [], player.hidden or [], strict=True))
    revealed = iter(player.revealed)
    slots = len(player.revealed) + player.hidden_count
    return [
        Influence(character=hidden[slot])
        if slot in hidden
        else Influence(character=next(revealed), revealed=True)
        for slot in range(slots)
    ]


@dataclass
class Holes:
    """The places of the cards the viewer cannot see, to be dealt."""

    hands: dict[Seat, int]
    """Face-down cards of each other seat."""
    court: int
    drawn: int
    """An opponent's exchange draw, in progress."""
    set_aside: Seat | None
    """Two-player game: the opponent whose set-aside packet is unseen."""


class ComplotsSampler(Sampler[ComplotsView, ComplotsState]):
    def prepare(self, view: ComplotsView, history: Sequence[Event]) -> Draw[ComplotsState]:
        viewer = view.viewer
        assert viewer is not None
        if view.stage is Stage.PICK:
            return self._prepare_pick(view)
        memory = read_history(history, viewer)
        base = self._skeleton(view, history)
        characters = deck_characters(view.variant)
        two = len(view.players) == 2
        pool = Counter(
            {c: 3 if two else copies_per_character(len(view.players)) for c in characters}
        )
        pool -= Counter(self._seen(view))
        others = [p for p in view.players if p.seat != viewer]
        opponent_aside = others[0].seat if two else None
        hands = {p.seat: p.hidden_count for p in others if p.hidden_count}
        unseen = sum(pool.values()) - (4 if two else 0)
        drawn = unseen - sum(hands.values()) - view.court_size
        fixed = self._examined(view, memory)
        holes = Holes(hands, view.court_size, drawn, opponent_aside)
        dealer = Dealer(pool, holes, memory, characters, fixed)

        def draw(rng: random.Random) -> ComplotsState:
            state = copy_state(base)
            state.rng = Rng.from_seed(rng.getrandbits(64))
            dealer.deal(state, rng)
            return state

        return draw

    @staticmethod
    def _examined(view: ComplotsView, memory: Memory) -> dict[Seat, list[Character]]:
        """The card the viewer (the Inquisitor) is being shown, in its target's hand."""
        pending = view.pending
        if view.examined is None or pending is None or pending.target is None:
            return {}
        known = memory.known.get(pending.target, [])
        if view.examined in known:
            known.remove(view.examined)  # the same card, not a second copy
        return {pending.target: [view.examined]}

    @staticmethod
    def _seen(view: ComplotsView) -> list[Character]:
        viewer = view.viewer
        assert viewer is not None
        me = view.players[viewer]
        cards = [c for p in view.players for c in p.revealed]
        cards += view.exchange_pool if view.exchange_pool is not None else (me.hidden or [])
        cards += view.set_aside or []
        if view.examined is not None:
            cards.append(view.examined)
        return cards

    def _skeleton(self, view: ComplotsView, history: Sequence[Event]) -> ComplotsState:
        """The state with every card the viewer knows in place; unseen cards empty."""
        viewer = view.viewer
        assert viewer is not None
        players = []
        for p in view.players:
            if p.seat == viewer:
                cards = own_cards(p)
            else:
                cards = [Influence(character=c, revealed=True) for c in p.revealed]
            players.append(
                PlayerState(coins=p.coins, cards=cards, set_aside=list(view.set_aside or []))
                if p.seat == viewer
                else PlayerState(coins=p.coins, cards=cards)
            )
        pending = None
        if view.pending is not None:
            pv = view.pending
            drawn: list[Character] = []
            if view.exchange_pool is not None:
                drawn = list(view.exchange_pool[view.players[viewer].hidden_count :])
            pending = PendingAction(
                actor=pv.actor,
                action=pv.action,
                target=pv.target,
                claim=pv.claim,
                paid=pv.paid,
                block=None if pv.block is None else BlockClaim(**pv.block.model_dump()),
                drawn=drawn,
            )
        losses = []
        if view.losing is not None:
            losses = [PendingLoss(seat=view.losing, reason=loss_reason(view, history))]
        return ComplotsState(
            seats=len(view.players),
            rng=Rng.from_seed(0),
            options=ComplotsOptions(variant=view.variant),
            players=players,
            court=[],
            deck_size=len(deck_characters(view.variant))
            * (3 if len(view.players) == 2 else copies_per_character(len(view.players))),
            stage=view.stage,
            turn=view.turn,
            turn_number=view.turn_number,
            moment=moment_of(view),
            passed=list(view.passed),
            pending=pending,
            losses=losses,
            winner=view.winner,
        )

    def _prepare_pick(self, view: ComplotsView) -> Draw[ComplotsState]:
        """The two-player deal: packets are whole decks, the third one is shuffled."""
        viewer = view.viewer
        assert viewer is not None
        characters = list(deck_characters(view.variant))
        opponent = 1 - viewer

        def draw(rng: random.Random) -> ComplotsState:
            players = [PlayerState(coins=p.coins) for p in view.players]
            me = players[viewer]
            me.packet = list(view.packet or [])
            me.set_aside = list(view.set_aside or [])
            me.cards = own_cards(view.players[viewer])
            other = players[opponent]
            if opponent in view.awaiting:
                other.packet = list(characters)
            else:
                pick = rng.choice(characters)
                other.cards = [Influence(character=pick)]
                other.set_aside = [c for c in characters if c != pick]
            third = list(characters)
            rng.shuffle(third)
            return ComplotsState(
                seats=2,
                rng=Rng.from_seed(rng.getrandbits(64)),
                options=ComplotsOptions(variant=view.variant),
                players=players,
                court=[],
                deck_size=3 * len(characters),
                stage=Stage.PICK,
                turn=view.turn,
                turn_number=view.turn_number,
                moment=moment_of(view),
                third_packet=third,
            )

        return draw

    def estimate(self, state: ComplotsState, seat: Seat) -> float:
        values = [standing(p) for p in state.players]
        return softmax_share(values, seat, VALUE_SCALE)


def standing(player: PlayerState) -> float:
    """Influence first, coins after (a coup's worth counts extra)."""
    hidden = len(player.hidden())
    if not hidden:
        return -1e3
    coins = min(player.coins, 12)
    return 2.5 * hidden + 0.3 * coins + (0.5 if coins >= COUP_COST else 0.0)


def loss_reason(view: ComplotsView, history: Sequence[Event]) -> LossReason:
    """Why the seat now choosing a card loses it (only the event wording needs it)."""
    for event in reversed(history):
        if isinstance(event, ClaimFailed):
            return LossReason.BLUFF_EXPOSED
        if isinstance(event, ClaimProved):
            return LossReason.CHALLENGE_LOST
        if isinstance(event, ActionDeclared):
            break
    if view.pending is not None and view.pending.action is ActionKind.ASSASSINATE:
        return LossReason.ASSASSINATED
    return LossReason.COUP


class Dealer:
    """Deals the unseen cards into a skeleton state, weighted by the history."""

    def __init__(
        self,
        pool: Counter[Character],
        holes: Holes,
        memory: Memory,
        characters: Sequence[Character],
        fixed: dict[Seat, list[Character]],
    ) -> None:
        self.fixed = fixed
        self.pool = pool
        self.holes = holes
        self.memory = memory
        self.characters = list(characters)
        self.court_first = memory.court & pool

    def deal(self, state: ComplotsState, rng: random.Random) -> None:
        best: tuple[float, dict[Seat, list[Character]], list[Character], list[Character]] | None
        best = None
        for _ in range(TRIES):
            pool = Counter(self.pool)
            aside = self._set_aside(pool, rng)
            court = list(self.court_first.elements())[: self.holes.court]
            pool -= Counter(court)
            hands = self._known_in_hands(pool)
            cards = list(pool.elements())
            rng.shuffle(cards)
            for seat, count in self.holes.hands.items():
                hand = hands.setdefault(seat, [])
                while len(hand) < count:
                    hand.append(cards.pop())
            drawn = [cards.pop() for _ in range(self.holes.drawn)]
            court += cards
            weight = self._likelihood(hands)
            if best is None or weight > best[0]:
                best = (weight, hands, court + drawn, aside)
            if rng.random() < weight:
                best = (weight, hands, court + drawn, aside)
                break
        assert best is not None
        _, hands, rest, aside = best
        self._place(state, hands, rest, aside, rng)

    def _set_aside(self, pool: Counter[Character], rng: random.Random) -> list[Character]:
        """Two players: the opponent's packet minus its pick, one of each character
        but one."""
        if self.holes.set_aside is None:
            return []
        left_out = [c for c in self.characters if all(pool[o] for o in self.characters if o != c)]
        if left_out:
            weights = [PICK_PRIOR.get(c, 1.0) for c in left_out]
            out = rng.choices(left_out, weights)[0]
        else:
            out = self.characters[0]
        aside = [c for c in self.characters if c != out and pool[c] > 0]
        pool -= Counter(aside)
        return aside

    def _known_in_hands(self, pool: Counter[Character]) -> dict[Seat, list[Character]]:
        """The cards the viewer knows in others' hands, first (the examined one first
        of all: it lies in its target's first face-down slot)."""
        hands = {seat: list(cards) for seat, cards in self.fixed.items()}
        for seat, cards in self.memory.known.items():
            room = self.holes.hands.get(seat, 0) - len(hands.get(seat, []))
            for character in cards[: max(0, room)]:
                if pool[character] > 0:
                    pool[character] -= 1
                    hands.setdefault(seat, []).append(character)
        return hands

    def _likelihood(self, hands: dict[Seat, list[Character]]) -> float:
        """Relative to the likeliest hands (every claim true, no exposed or denied
        card held)."""
        weight = 1.0
        memory = self.memory
        for seat, hand in hands.items():
            for character in memory.claims.get(seat, {}):
                if character not in hand:
                    weight /= CLAIMED
            for character, ratio in memory.denied.get(seat, {}).items():
                if character in hand:
                    weight *= ratio
            for character in memory.exposed.get(seat, set()):
                if character in hand:
                    weight *= EXPOSED
        return weight

    def _place(
        self,
        state: ComplotsState,
        hands: dict[Seat, list[Character]],
        rest: list[Character],
        aside: list[Character],
        rng: random.Random,
    ) -> None:
        drawn = rest[len(rest) - self.holes.drawn :] if self.holes.drawn else []
        court = rest[: len(rest) - self.holes.drawn]
        rng.shuffle(court)
        state.court = court
        for seat, hand in hands.items():
            state.players[seat].cards.extend(Influence(character=c) for c in hand)
        if self.holes.set_aside is not None:
            state.players[self.holes.set_aside].set_aside = aside
        pending = state.pending
        if pending is not None and drawn:
            pending.drawn = drawn
        if (
            pending is not None
            and pending.target is not None
            and state.stage is Stage.EXAMINE_DECIDE
        ):
            self._show(state, pending)

    def _show(self, state: ComplotsState, pending: PendingAction) -> None:
        """The examined card lies in the target's first face-down slot (see
        ``_known_in_hands``)."""
        assert pending.target is not None
        target = state.players[pending.target]
        pending.shown_slot = target.hidden_slots()[0]


SAMPLER = ComplotsSampler()
