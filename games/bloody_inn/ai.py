"""Computer players for The Bloody Inn: one-ply heuristic evaluation of each legal step.

Every value is an estimate in francs of how the step changes the player's final
score, compared with doing nothing. A whole action (Act -> targets -> accomplices
-> Done) is judged at once when it is chosen; the later steps of the same action
re-derive the same judgement from the view (policies keep no memory), so they
follow the plan that made the action worth starting. Nothing ever cancels: every
step of an action moves it forward, so a computer player cannot loop.

NORMAL weighs money now (capped track, laundering), what a corpse will bring once
buried against the police risk, the wages of the accomplices, what an annex is
worth for the rounds left, which accomplices to keep, and how to pay the
undertaker (the francs each way leaves). EASY only looks at the francs a step
brings at once, with noise, and forgets the police a quarter of the time; it pays
the undertaker in cash first unless the wages need that cash.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from games.ai import Level, Policy
from games.base import Prompt, Seat

from .cards import (
    CHEQUE,
    PEASANTS_PER_BRIBE,
    UNDERTAKER_FEE,
    WEALTH_CAP,
    ActionKind,
    Card,
    Effect,
    GuestType,
    rank,
    spec,
)
from .models import (
    Act,
    BloodyInnChoice,
    BloodyInnView,
    Cancel,
    Dismiss,
    Done,
    KeyRoom,
    Pass,
    Pay,
    PayUndertaker,
    PendingView,
    Place,
    PlayerView,
    ServiceRoom,
    Stage,
    TargetCard,
    TargetPeasants,
    TargetRoom,
    Welcome,
)
from .table import space_left

InnPrompt = Prompt[BloodyInnChoice]

BRIBE, BUILD, KILL, BURY = ActionKind.BRIBE, ActionKind.BUILD, ActionKind.KILL, ActionKind.BURY

SOLO_LOSS = 150.0
"""Solo: an unburied corpse at a police visit or at the end loses the whole game."""
NEVER = -1e9
CAREFUL_EASY = 0.75
"""How often EASY thinks of the police (and of how to bury) before killing."""
_LASTING = (
    Effect.DISCOUNT,
    Effect.FREE_WAGE,
    Effect.ROUND_INCOME,
    Effect.MULTI_TARGET,
    Effect.MORE_PEASANTS,
    Effect.ROOM_SERVICE,
    Effect.ROOM_KEY,
    Effect.ALL_RETURN,
)
"""The annex effects that keep paying in the rounds left."""
_BEFORE_MORNING = (
    Stage.WELCOME,
    Stage.ACTION,
    Stage.TARGET,
    Stage.PLACE,
    Stage.PAY,
    Stage.KEY,
    Stage.SERVICE,
)
"""The stages of a round before its police investigation."""


@dataclass(frozen=True)
class Weights:
    """The constants of the heuristic (francs unless said otherwise)."""

    payer: tuple[tuple[ActionKind | None, float], ...] = (
        (KILL, 6.0),
        (BURY, 6.0),
        (BRIBE, 4.0),
        (BUILD, 4.0),
        (None, 3.5),
    )
    """An accomplice's worth as a payer, by the action it comes back from."""
    peasant: float = 3.5
    decay: float = 0.85
    """Each further accomplice in hand is worth this much of the one before."""
    wage_rounds: float = 2.0
    """Mornings an accomplice taken now is expected to be paid before it is spent."""
    tempo: float = 5.0
    """What one more action spent later (the Bury a Kill calls for) costs."""
    slot: float = 5.0
    """A free place under one's annexes that one will fill."""
    kills_per_round: float = 0.8
    keep_build: float = 1.0
    """How sure a buildable card kept in hand is to be built one day."""
    build_delay: float = 1.0
    """Rounds later a buildable card kept in hand is expected to be built."""
    later_risk: float = 0.2
    """The chance a corpse kept to the next round meets the police, if buriable."""


NORMAL_WEIGHTS = Weights()


def _effects(player: PlayerView, effect: Effect, action: ActionKind | None = None) -> int:
    """How many of the player's annexes have this effect (for this action)."""
    return sum(
        1
        for a in player.annexes
        if a.card is not None
        and spec(a.card).effect is effect
        and (action is None or spec(a.card).action is action)
    )


def _amounts(player: PlayerView, effect: Effect) -> int:
    """The sum of the ``amount`` of the player's annexes with this effect."""
    return sum(
        spec(a.card).amount
        for a in player.annexes
        if a.card is not None and spec(a.card).effect is effect
    )


def _score(player: PlayerView) -> int:
    return player.money + CHEQUE * player.cheques


Plan = tuple[float, list[Card]]
"""What paying for an action loses, and the hand left."""


# Choices are frozen: the targets a Judge values are built once for every decision.
@cache
def _room_choice(room: int) -> BloodyInnChoice:
    return TargetRoom(room=room)


@cache
def _peasants_choice(count: int) -> BloodyInnChoice:
    return TargetPeasants(count=count)


@cache
def _card_choice(card: Card) -> BloodyInnChoice:
    return TargetCard(card=card)


class Judge:
    """The estimates of one decision, for the viewer (built once per decision)."""

    def __init__(self, view: BloodyInnView, weights: Weights, careful: bool = True) -> None:
        assert view.viewer is not None
        self.view = view
        self.w = weights
        self.me: Seat = view.viewer
        self.player = view.players[self.me]
        self.hand: list[Card] = list(self.player.hand or [])
        self.corpses: list[Card] = list(self.player.corpses)
        self.pending: PendingView | None = view.pending
        self.careful = careful
        self.solo = len(view.players) == 1
        self.rivals = [p for p in view.players if p.active and p.seat != self.me]
        self.weight = 1.0 / len(self.rivals) if self.rivals else 0.0
        """How much one franc of a rival counts against one of mine."""
        self._worth: dict[Card, float] = {}
        self._discounts: dict[ActionKind, int] = {}
        self._plans: dict[tuple[int, ActionKind], Plan] = {}
        self._other_plans: dict[tuple[int, ActionKind, tuple[Card, ...]], Plan] = {}
        self._hands: dict[tuple[Card, ...], float] = {}

    # --- the table ---------------------------------------------------------------

    @cached_property
    def rounds_left(self) -> float:
        """Mornings after this round's (an estimate from the stacks)."""
        view = self.view
        if view.final_round:
            return 0.0
        open_rooms = max(1, sum(1 for r in view.rooms if r.open))
        guests = sum(1 for r in view.rooms if r.guest is not None)
        coming = float(view.entrance_size)
        if view.season == 1:
            coming += 0.6 * (len(view.exit) + view.entrance_size + guests)
        return coming / open_rooms

    @cached_property
    def actions_after(self) -> int:
        """The viewer's actions left this night after the current one."""
        return 1 if self.view.action_round == 1 else 0

    @cached_property
    def future(self) -> float:
        """How much of its worth an accomplice kept now can still bring (0 to 1)."""
        return min(1.0, (self.rounds_left + 0.6 * self.actions_after) / 2.0)

    @cached_property
    def wage(self) -> float:
        """The wages an accomplice taken now is expected to cost before it is spent."""
        return min(self.rounds_left + 1.0, self.w.wage_rounds)

    @cached_property
    def police_rooms(self) -> list[int]:
        return [
            i + 1
            for i, r in enumerate(self.view.rooms)
            if r.guest is not None and spec(r.guest).type is GuestType.POLICE
        ]

    @cached_property
    def fee(self) -> float:
        return SOLO_LOSS if self.solo else float(UNDERTAKER_FEE)

    def discount(self, action: ActionKind) -> int:
        found = self._discounts.get(action)
        if found is None:
            found = self._discounts[action] = _effects(self.player, Effect.DISCOUNT, action)
        return found

    @cached_property
    def chapel(self) -> bool:
        """Every accomplice played for Bury comes back."""
        return bool(_effects(self.player, Effect.ALL_RETURN, BURY))

    def returns(self, card: Card, action: ActionKind) -> bool:
        if action is BURY and self.chapel:
            return True
        return spec(card).aptitude is action

    def money_gain(self, amount: float) -> float:
        """Francs that really reach the track (the excess over 40 F is lost)."""
        if self.view.options.unlimited_wealth:
            return amount
        return min(amount, float(WEALTH_CAP - self.player.money))

    # --- capacity ----------------------------------------------------------------

    def reserved(self, seat: Seat) -> int:
        """Places taken by the corpses of the Bury being prepared."""
        pending = self.pending
        if pending is None or pending.action is not BURY:
            return 0
        return sum(1 for owner in pending.owners if owner == seat)

    @cached_property
    def own_free(self) -> int:
        """Free places under my annexes."""
        return sum(space_left(a) for a in self.player.annexes) - self.reserved(self.me)

    @cached_property
    def own_room(self) -> int:
        """Free places under my annexes left once the corpses I hold are buried there."""
        return self.own_free - len(self.corpses)

    @cached_property
    def rival_room(self) -> int:
        return sum(
            sum(space_left(a) for a in p.annexes) - self.reserved(p.seat) for p in self.rivals
        )

    def share(self, corpse: Card, own: bool) -> float:
        """What burying this corpse brings me: all of it under my annex, half (less
        what the owner, a rival, gains) under another's."""
        pocket = spec(corpse).pocket
        if own:
            return self.money_gain(pocket)
        half = pocket // 2
        return self.money_gain(half) - self.weight * (pocket - half)

    def best_share(self, corpse: Card, room: int) -> float | None:
        """What a corpse will bring once buried with ``room`` places of mine free
        (negative: corpses waiting before it), or None: there is no room for it."""
        if room > 0:
            return self.share(corpse, own=True)
        if self.rival_room + room > 0:
            return self.share(corpse, own=False)
        return None

    # --- accomplices ---------------------------------------------------------------

    def payer_value(self, card: Card) -> float:
        if card is Card.PEASANT:
            return self.w.peasant * self.future
        aptitude = spec(card).aptitude
        base = next(v for a, v in self.w.payer if a is aptitude or a is None)
        return base * self.future

    def worth(self, card: Card) -> float:
        """A card in hand: as a payer, or as the annex it may become."""
        cached = self._worth.get(card)
        if cached is not None:
            return cached
        value = self.payer_value(card)
        data = spec(card)
        if data.buildable and self.future > 0:
            cost = max(0, data.rank - self.discount(BUILD)) * 2.5
            later = max(0.0, self.rounds_left - self.w.build_delay)
            built = self.w.keep_build * self.annex_value(card, later)
            value = max(value, built - cost - self.w.tempo)
        self._worth[card] = value
        return value

    def hand_value(self, cards: Sequence[Card]) -> float:
        """The accomplices together: each further one is worth a bit less."""
        key = tuple(cards)
        found = self._hands.get(key)
        if found is not None:
            return found
        total, factor = 0.0, 1.0
        for value in sorted((self.worth(c) for c in cards), reverse=True):
            total += value * factor
            factor *= self.w.decay
        self._hands[key] = total
        return total

    def pay_plan(
        self, count: int, action: ActionKind, hand: Sequence[Card]
    ) -> tuple[float, list[Card]]:
        """The value lost by paying ``count`` accomplices for ``action`` with the
        cheapest cards of ``hand``, and the hand left (the returning cards stay)."""
        if count <= 0:
            return 0.0, list(hand)
        if hand is self.hand:  # the usual question, asked for every target: once
            key = (count, action)
            plan = self._plans.get(key)
            if plan is None:
                plan = self._plans[key] = self._pay_plan(count, action, hand)
            return plan[0], list(plan[1])
        other = (count, action, tuple(hand))
        plan = self._other_plans.get(other)
        if plan is None:
            plan = self._other_plans[other] = self._pay_plan(count, action, hand)
        return plan[0], list(plan[1])

    def _pay_plan(
        self, count: int, action: ActionKind, hand: Sequence[Card]
    ) -> tuple[float, list[Card]]:
        ordered = sorted(hand, key=lambda c: self.loss(c, action))
        paid = ordered[:count]
        left = ordered[count:] + [c for c in paid if self.returns(c, action)]
        return self.hand_value(hand) - self.hand_value(left), left

    def dropped(self, card: Card) -> float:
        """The hand's value lost without this card."""
        rest = list(self.hand)
        rest.remove(card)
        return self.hand_value(self.hand) - self.hand_value(rest)

    def loss(self, card: Card, action: ActionKind) -> float:
        """The order in which to pay: returning cards (strongest first), then the
        cards worth least."""
        if self.returns(card, action):
            return -0.01 * rank(card)
        return self.worth(card) + 0.01 * rank(card)

    # --- annexes --------------------------------------------------------------------

    def annex_value(self, card: Card, rounds: float | None = None) -> float:
        """What building this card brings (now, or with ``rounds`` left): at once, as
        corpse room, by its effect."""
        rounds = self.rounds_left if rounds is None else rounds
        data = spec(card)
        gain = data.build_gain
        if data.effect is Effect.COLOUR_COUNT:
            same = sum(
                1
                for a in self.player.annexes
                if a.card is not None and spec(a.card).type is data.type
            )
            gain += data.amount * (same + 1)
        room = self.room_value(data.rank, rounds)
        return self.money_gain(gain) + room + self.effect_value(card, rounds)

    def room_value(self, places: int, rounds: float) -> float:
        kills = self.w.kills_per_round * rounds + 0.5 * self.actions_after
        useful = min(float(places), max(0.0, kills - max(0, self.own_room)))
        return self.w.slot * useful + 1.5 * (places - useful) * min(1.0, rounds / 2)

    def effect_value(self, card: Card, rounds: float) -> float:
        data = spec(card)
        effect = data.effect
        if effect is Effect.DISCOUNT:
            return 2.5 * 0.6 * (rounds + 0.5)
        if effect is Effect.FREE_WAGE:
            return 1.0 * (rounds + 1)
        if effect is Effect.ROUND_INCOME:
            return data.amount * (rounds + 1)
        if effect is Effect.EXIT_BONUS:
            return data.amount * self.expected_exit(data.type)
        if effect is Effect.MULTI_TARGET:
            return 1.0 + 0.8 * rounds
        if effect is Effect.MORE_PEASANTS:
            return 0.3 * rounds
        if effect is Effect.ROOM_SERVICE:
            return 1.0 * rounds
        if effect is Effect.ROOM_KEY:
            white = any(r.open and r.owner is None for r in self.view.rooms)
            return 0.8 * (rounds + 1) if white else 0.0
        if effect is Effect.ALL_RETURN:
            return 1.5 * 0.6 * rounds
        if effect is Effect.CHEQUE_BONUS:
            return data.amount * (self.player.cheques + 1 + 0.5 * rounds)
        return 0.0

    def expected_exit(self, colour: GuestType) -> float:
        """Cards of this colour expected in the Exit stack at the end."""
        view = self.view
        guests = sum(1 for r in view.rooms if r.guest is not None)
        if view.season == 2 or view.final_round:
            there = sum(1 for c in view.exit if spec(c).type is colour)
            return there + 0.2 * 0.6 * (view.entrance_size + guests)
        return 0.2 * 0.6 * 0.6 * (len(view.exit) + view.entrance_size + guests)

    def end_bonuses(self) -> float:
        total = 0.0
        for a in self.player.annexes:
            if a.card is not None and spec(a.card).effect is Effect.EXIT_BONUS:
                total += spec(a.card).amount * self.expected_exit(spec(a.card).type)
        return total

    # --- a whole position ------------------------------------------------------------

    def standing(self) -> float:
        """The viewer's expected final score in francs: its money and cheques, the
        end bonuses to come, what its accomplices, corpses, annexes and keys should
        still bring (the search's estimate of an unfinished game)."""
        player = self.player
        value = float(_score(player)) + self.end_bonuses()
        value += _amounts(player, Effect.CHEQUE_BONUS) * player.cheques
        value += self.hand_value(self.hand) + self.corpses_standing()
        rounds = self.rounds_left
        value += sum(
            self.effect_value(a.card, rounds)
            for a in player.annexes
            if a.card is not None and spec(a.card).effect in _LASTING
        )
        value += 0.5 * self.room_value(max(0, self.own_free), rounds)
        keys = sum(1 for room in self.view.rooms if room.owner == self.me)
        return value + 0.8 * keys * rounds

    def corpses_standing(self) -> float:
        """What the corpses in front of the viewer should bring once buried (the
        dearest first, while there is room) against the undertaker's fee."""
        police = bool(self.police_rooms) and self.view.stage in _BEFORE_MORNING
        risk = 0.9 if police else 1.0 if self.view.final_round else 0.3
        total = 0.0
        ordered = sorted(self.corpses, key=lambda c: -spec(c).pocket)
        for waiting, corpse in enumerate(ordered):
            share = self.best_share(corpse, self.own_free - waiting)
            if share is None:
                total -= UNDERTAKER_FEE
            else:
                total += (1 - risk) * (share - 3.0) - risk * UNDERTAKER_FEE
        return total

    # --- corpses and the police -----------------------------------------------------

    def at_risk(self, waiting: int, police_left: bool, can_bury: bool) -> float:
        """The chance a corpse is still unburied when the police (or the end) come,
        with ``waiting`` corpses (it included) to bury in my actions after this one."""
        if not self.careful:
            return 0.0
        if can_bury and self.actions_after >= waiting:
            return 0.0 if self.solo else 0.03  # only rivals could fill my annexes
        if police_left:
            return 1.0 if self.solo else 0.9
        if self.view.final_round:
            return 1.0
        return self.w.later_risk if can_bury else 0.45

    def corpse_value(
        self, corpse: Card, hand: Sequence[Card], police_left: bool, waiting: int
    ) -> float:
        """A new corpse in front of me: its pocket once buried (later, paid with
        ``hand``) against the undertaker's fee if the police find it first."""
        share = self.best_share(corpse, self.own_room)
        need = max(0, rank(corpse) - self.discount(BURY))
        if share is None or need > len(hand):
            risk = self.at_risk(waiting, police_left, can_bury=False)
            return -risk * self.fee - self.w.tempo
        cost, _ = self.pay_plan(need, BURY, hand)
        risk = self.at_risk(waiting, police_left, can_bury=True)
        return (1 - risk) * (share - cost - self.w.tempo) - risk * self.fee

    def police_removed_value(self, room: int) -> float:
        """Taking this guest out of the inn: the police may be gone for the Morning."""
        if room not in self.police_rooms or len(self.police_rooms) > 1:
            return 0.0
        waiting = len(self.corpses) - self.actions_after
        mine = max(0, waiting) * 0.9 * self.fee if self.careful else 0.0
        theirs = sum(len(p.corpses) for p in self.rivals) * 0.8 * UNDERTAKER_FEE
        return mine - self.weight * theirs

    # --- paying the undertaker -----------------------------------------------------------

    def capped(self, money: float) -> float:
        """What of ``money`` the track keeps (the excess over 40 F is lost)."""
        return money if self.view.options.unlimited_wealth else min(money, float(WEALTH_CAP))

    def undertaker_value(self, cheques: int) -> float:
        """Paying the police's undertaker in full with ``cheques`` cheques and the rest
        from the track (the only moment the engine asks: at the end of the game the
        track pays first): the francs it leaves once this Morning is over. Its room
        income goes on the track (what passes 40 F is lost), the wages are paid in
        cash (an accomplice left unpaid leaves the hand: its worth is lost), and each
        cheque kept is worth 10 F plus what a Greenhouse pays for it at the end."""
        player = self.player
        money = player.money - UNDERTAKER_FEE * len(self.corpses) + CHEQUE * cheques
        kept = player.cheques - cheques
        rooms = sum(1 for r in self.view.rooms if r.owner == self.me and r.guest is not None)
        track = self.capped(money + rooms + _amounts(player, Effect.ROUND_INCOME))
        due = max(0, len(self.hand) - _amounts(player, Effect.FREE_WAGE))
        short = max(0, due - int(track))
        staying = sorted(self.hand, key=self.worth)[short:]
        dismissed = self.hand_value(self.hand) - self.hand_value(staying)
        greenhouse = _amounts(player, Effect.CHEQUE_BONUS)
        return track - min(track, due) + (CHEQUE + greenhouse) * kept - dismissed

    def room_income(self, room: int) -> float:
        """The Morning franc of a room's key, lost when its guest leaves now."""
        owner = self.view.rooms[room - 1].owner
        if owner == self.me:
            return -1.0
        if owner is None:
            return 0.0
        return self.weight

    # --- whole actions ----------------------------------------------------------------

    def guest(self, room: int) -> Card:
        card = self.view.rooms[room - 1].guest
        assert card is not None
        return card

    def chosen_rooms(self) -> list[int]:
        pending = self.pending
        return list(pending.rooms) if pending is not None else []

    def rooms_cost(self, rooms: Sequence[int], action: ActionKind) -> int:
        return max(0, sum(rank(self.guest(r)) for r in rooms) - self.discount(action))

    def room_target(self, action: ActionKind, room: int) -> float:
        """Bribing or killing the guest of ``room`` (on top of the rooms already chosen)."""
        before = self.chosen_rooms()
        after = [*before, room]
        if self.rooms_cost(after, action) > len(self.hand):
            return NEVER
        loss_before, _ = self.pay_plan(self.rooms_cost(before, action), action, self.hand)
        loss_after, hand = self.pay_plan(self.rooms_cost(after, action), action, self.hand)
        guest = self.guest(room)
        value = loss_before - loss_after + self.room_income(room)
        value += self.police_removed_value(room)
        if action is BRIBE:
            gained = self.hand_value([*hand, guest]) - self.hand_value(hand)
            return value + gained - self.wage
        gone = [r for r in self.police_rooms if r not in after]
        waiting = len(self.corpses) + len(after)
        return value + self.corpse_value(guest, hand, bool(gone), waiting)

    def peasants_target(self, action: ActionKind, count: int) -> float:
        if action is BRIBE:
            gained = self.hand_value([*self.hand, *[Card.PEASANT] * count])
            return gained - self.hand_value(self.hand) - count * (self.wage + 0.1)
        waiting = len(self.corpses) + 1
        return self.corpse_value(Card.PEASANT, self.hand, bool(self.police_rooms), waiting)

    def build_target(self, card: Card) -> float:
        cost = max(0, rank(card) - self.discount(BUILD))
        rest = list(self.hand)
        rest.remove(card)
        if cost > len(rest):
            return NEVER
        _, left = self.pay_plan(cost, BUILD, rest)
        kept = self.hand_value(left) - self.hand_value(self.hand)
        return self.annex_value(card) + kept + self.wage

    def held_risk(self) -> float:
        """The chance a corpse I keep now (not burying it) meets the police."""
        return self.at_risk(len(self.corpses), bool(self.police_rooms), can_bury=True)

    def bury_target(self, corpse: Card) -> float:
        """Burying this corpse now rather than keeping it for a later action."""
        pending = self.pending
        chosen = list(pending.corpses) if pending is not None and pending.action is BURY else []
        before = max(0, sum(rank(c) for c in chosen) - self.discount(BURY))
        after = max(0, sum(rank(c) for c in [*chosen, corpse]) - self.discount(BURY))
        if after > len(self.hand):
            return NEVER
        share = self.best_share(corpse, self.own_free)
        if share is None:
            return NEVER
        loss_before, _ = self.pay_plan(before, BURY, self.hand)
        loss_after, _ = self.pay_plan(after, BURY, self.hand)
        risk = self.held_risk()
        kept = (1 - risk) * (share - self.w.tempo) - risk * self.fee
        own = 0.05 if self.own_free > 0 else 0.0  # the tie-break
        return share - (loss_after - loss_before) - kept + own

    def laundering(self, launder: int, best_gain: float) -> float:
        """Passing with ``launder`` cheques bought (< 0: cashed) instead of acting."""
        money = self.player.money - CHEQUE * launder
        due = max(0, len(self.hand) - _effects(self.player, Effect.FREE_WAGE))
        income = max(8.0, best_gain)
        if self.view.final_round:
            income = max(income, self.end_bonuses())
        overflow = 0.0
        if not self.view.options.unlimited_wealth:
            overflow = max(0.0, self.player.money + income - WEALTH_CAP)
            overflow -= max(0.0, money + income - WEALTH_CAP)
        short = max(0, due - self.player.money) - max(0, due - money)
        greenhouse = 3.0 * launder * _effects(self.player, Effect.CHEQUE_BONUS)
        if not self.view.final_round:
            greenhouse *= 0.3
        return 0.8 * overflow + 1.2 * short + greenhouse - 0.05 * abs(launder)

    # --- what the prompt offers ----------------------------------------------------------

    def first_targets(self, action: ActionKind) -> list[BloodyInnChoice]:
        """The first targets ``action`` may take (some may be too dear: valued NEVER)."""
        found: list[BloodyInnChoice] = []
        if action in (BRIBE, KILL):
            for number, room in enumerate(self.view.rooms, start=1):
                if room.guest is not None:
                    found.append(_room_choice(number))
            if self.view.bistro:
                limit = PEASANTS_PER_BRIBE if action is BRIBE else 1
                if action is BRIBE and _effects(self.player, Effect.MORE_PEASANTS):
                    limit = 4
                found += [_peasants_choice(n) for n in range(1, min(limit, self.view.bistro) + 1)]
        elif action is BUILD:
            found += [_card_choice(c) for c in dict.fromkeys(self.hand) if spec(c).buildable]
        else:
            found += [_card_choice(c) for c in dict.fromkeys(self.corpses)]
        return found

    def targets(self, action: ActionKind) -> list[tuple[BloodyInnChoice, float]]:
        """Every first target of ``action``, with its value."""
        return [(c, self.target_value(action, c)) for c in self.first_targets(action)]

    def target_value(self, action: ActionKind, choice: BloodyInnChoice) -> float:
        if isinstance(choice, TargetRoom):
            return self.room_target(action, choice.room)
        if isinstance(choice, TargetPeasants):
            return self.peasants_target(action, choice.count)
        if isinstance(choice, TargetCard):
            if action is BUILD:
                return self.build_target(choice.card)
            return self.bury_target(choice.card)
        if isinstance(choice, Done):
            return 0.0
        return NEVER

    def welcome_value(self, room: int, card: Card) -> float:
        """Putting the drawn traveller in ``room``: room service and the key's franc."""
        target = self.view.rooms[room - 1]
        value = 0.0
        if target.service == self.me:
            value += rank(card)
        elif target.service is not None:
            value -= self.weight * rank(card)
        stays = 0.4 + 0.15 * rank(card)
        if target.owner == self.me:
            value += stays
        elif target.owner is not None:
            value -= self.weight * stays
        return value


# --- the policies -------------------------------------------------------------------


def _best(
    choices: Sequence[BloodyInnChoice],
    value: Callable[[BloodyInnChoice], float],
    rng: random.Random,
    noise: float = 0.0,
) -> BloodyInnChoice:
    """The highest valued choice (never Cancel while anything else is offered)."""
    usable: list[BloodyInnChoice] = [c for c in choices if not isinstance(c, Cancel)]
    usable = usable or list(choices)
    scored = [
        (value(c) + (rng.uniform(0.0, noise) if noise else 0.0), i) for i, c in enumerate(usable)
    ]
    return usable[max(scored)[1]]


def _key_room(view: BloodyInnView, choice: BloodyInnChoice) -> float:
    assert isinstance(choice, KeyRoom)
    return 1.0 if view.rooms[choice.room - 1].guest is not None else 0.0


def _service_room(view: BloodyInnView, choice: BloodyInnChoice) -> float:
    assert isinstance(choice, ServiceRoom)
    return 1.0 if view.rooms[choice.room - 1].owner == view.viewer else 0.0


def _undertaker(judge: Judge, choice: BloodyInnChoice) -> float:
    """The francs a way to pay the undertaker leaves; on a tie, cash first."""
    assert isinstance(choice, PayUndertaker)
    return judge.undertaker_value(choice.cheques) - 0.01 * choice.cheques


def _place(view: BloodyInnView, choice: BloodyInnChoice) -> float:
    """Under my annex, else under the poorest rival's (the half he gains hurts least)."""
    assert isinstance(choice, Place)
    if choice.owner == view.viewer:
        return 1000.0
    return -float(_score(view.players[choice.owner]))


class NormalPolicy(Policy[BloodyInnView, BloodyInnChoice]):
    """One-ply evaluation of every legal step with the full heuristic."""

    level = Level.NORMAL
    noise = 0.0

    def __init__(self, weights: Weights = NORMAL_WEIGHTS) -> None:
        self.weights = weights

    def decide(self, view: BloodyInnView, prompt: InnPrompt, rng: random.Random) -> BloodyInnChoice:
        judge = Judge(view, self.weights, careful=self.careful_now(rng))
        stage = view.stage
        choices = prompt.choices
        if stage is Stage.WELCOME:
            drawn = view.drawn
            assert drawn is not None
            return _best(choices, lambda c: self.welcome(judge, c, drawn), rng, self.noise)
        if stage is Stage.ACTION:
            return self.act(judge, choices, rng)
        if stage is Stage.TARGET:
            assert view.pending is not None
            action = view.pending.action
            return _best(choices, lambda c: judge.target_value(action, c), rng, self.noise)
        if stage is Stage.PAY:
            return self.pay(judge, choices, rng)
        if stage is Stage.PLACE:
            return _best(choices, lambda c: _place(view, c), rng)
        if stage is Stage.KEY:
            return _best(choices, lambda c: _key_room(view, c), rng)
        if stage is Stage.SERVICE:
            return _best(choices, lambda c: _service_room(view, c), rng)
        if stage is Stage.UNDERTAKER:
            return _best(choices, lambda c: _undertaker(judge, c), rng)
        return self.dismiss(judge, choices, rng)

    def careful_now(self, rng: random.Random) -> bool:
        return True

    def welcome(self, judge: Judge, choice: BloodyInnChoice, drawn: Card) -> float:
        assert isinstance(choice, Welcome)
        return judge.welcome_value(choice.room, drawn)

    def act(
        self, judge: Judge, choices: Sequence[BloodyInnChoice], rng: random.Random
    ) -> BloodyInnChoice:
        """The best action (by its best target), or a Pass when nothing is worth it."""
        values = {
            c.action: self.action_value(judge, c.action) for c in choices if isinstance(c, Act)
        }
        best = max(values.values(), default=0.0)

        def value(choice: BloodyInnChoice) -> float:
            if isinstance(choice, Act):
                return values[choice.action]
            if isinstance(choice, Pass):
                return self.pass_value(judge, choice.launder, best)
            return NEVER

        return _best(choices, value, rng, self.noise)

    def action_value(self, judge: Judge, action: ActionKind) -> float:
        return max((v for _, v in judge.targets(action)), default=NEVER)

    def pass_value(self, judge: Judge, launder: int, best: float) -> float:
        return judge.laundering(launder, best)

    def pay(
        self, judge: Judge, choices: Sequence[BloodyInnChoice], rng: random.Random
    ) -> BloodyInnChoice:
        """Take the discount when it is there, else play the card cheapest to lose."""
        done = [c for c in choices if isinstance(c, Done)]
        if done:
            return done[0]
        pending = judge.pending
        assert pending is not None
        action = pending.action

        def cost(choice: BloodyInnChoice) -> float:
            if not isinstance(choice, Pay):
                return NEVER
            if judge.returns(choice.card, action):
                return 1.0 + 0.01 * rank(choice.card)
            return -judge.dropped(choice.card)

        return _best(choices, cost, rng)

    def dismiss(
        self, judge: Judge, choices: Sequence[BloodyInnChoice], rng: random.Random
    ) -> BloodyInnChoice:
        def kept(choice: BloodyInnChoice) -> float:
            return -judge.dropped(choice.card) if isinstance(choice, Dismiss) else NEVER

        return _best(choices, kept, rng)


class EasyPolicy(NormalPolicy):
    """Greedy on the francs a step brings at once, with noise; it forgets the
    police a quarter of the time and answers the small prompts with their defaults."""

    level = Level.EASY
    noise = 4.0

    def decide(self, view: BloodyInnView, prompt: InnPrompt, rng: random.Random) -> BloodyInnChoice:
        if view.stage is Stage.TARGET:
            judge = Judge(view, self.weights, careful=self.careful_now(rng))
            assert view.pending is not None
            action = view.pending.action
            return _best(prompt.choices, lambda c: self.greedy(judge, action, c), rng, self.noise)
        if view.stage in (Stage.PAY, Stage.DISMISS, Stage.KEY, Stage.SERVICE, Stage.WELCOME):
            return prompt.default
        if view.stage is Stage.UNDERTAKER:
            return self.undertaker(view, prompt)
        return super().decide(view, prompt, rng)

    @staticmethod
    def undertaker(view: BloodyInnView, prompt: InnPrompt) -> BloodyInnChoice:
        """Cash first, keeping the cheques (a Greenhouse pays for them, and cash
        over 40 F would be lost), but with enough cash left for this Morning's
        wages: the fewest cheques that leave it."""
        assert view.viewer is not None
        player = view.players[view.viewer]
        fee = UNDERTAKER_FEE * len(player.corpses)
        for choice in prompt.choices:
            assert isinstance(choice, PayUndertaker)
            if player.money - fee + CHEQUE * choice.cheques >= player.hand_size:
                return choice
        return prompt.choices[-1]

    def careful_now(self, rng: random.Random) -> bool:
        return rng.random() < CAREFUL_EASY

    def action_value(self, judge: Judge, action: ActionKind) -> float:
        targets = judge.first_targets(action)
        return max((self.greedy(judge, action, c) for c in targets), default=NEVER)

    def pass_value(self, judge: Judge, launder: int, best: float) -> float:
        """Launder (keeping 5 F) once there are 30 F on the track."""
        rich = judge.player.money >= 30 and judge.player.money - CHEQUE * launder >= 5
        return 1.0 if launder > 0 and rich else 0.0

    def greedy(self, judge: Judge, action: ActionKind, choice: BloodyInnChoice) -> float:
        """Only the money: pocket money, build gains, a little for more accomplices."""
        if isinstance(choice, TargetCard):
            if action is BUILD:
                return self.build_gain(judge, choice.card)
            share = judge.best_share(choice.card, judge.own_room + len(judge.corpses))
            return NEVER if share is None else share
        if isinstance(choice, TargetPeasants):
            card, count = Card.PEASANT, choice.count
        elif isinstance(choice, TargetRoom):
            card, count = judge.guest(choice.room), 1
        else:
            return 0.0 if isinstance(choice, Done) else NEVER
        if action is BRIBE:
            return count * (1.0 + 0.5 * rank(card))
        share = judge.best_share(card, judge.own_room)
        if share is None:
            return NEVER
        if not judge.careful:
            return 0.6 * share
        cost = judge.rooms_cost([choice.room], KILL) if isinstance(choice, TargetRoom) else 0
        _, left = judge.pay_plan(cost, KILL, judge.hand)
        if rank(card) - judge.discount(BURY) > len(left):
            return NEVER
        risk = judge.at_risk(len(judge.corpses) + 1, bool(judge.police_rooms), can_bury=True)
        return 0.6 * share - risk * judge.fee

    @staticmethod
    def build_gain(judge: Judge, card: Card) -> float:
        data = spec(card)
        gain = data.build_gain + 1.0
        if data.effect is Effect.COLOUR_COUNT:
            gain += data.amount
        return judge.money_gain(gain)


POLICIES: dict[Level, Policy[Any, Any]] = {Level.EASY: EasyPolicy(), Level.NORMAL: NormalPolicy()}
