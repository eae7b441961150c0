"""The Bloody Inn states consistent with a seat's view and history, for HARD search.

Rooms, piles, annexes and corpses are public. What a seat does not see is the
Entrance under its top card, the travellers removed unseen at setup, the other
players' hands, and the accomplices another player has played so far for the
action it prepares. The hands are not truly secret: everyone starts with two
peasants and every card that joins or leaves a hand is shown (bribed, played,
returned, built, dismissed), so the history rebuilds each hand; without a
history (or where it does not add up) the unseen cards are dealt at random,
peasants in hands only (the Entrance and the box hold travellers).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from games.base import Event, Rng, Seat, copy_state, trusted
from games.search import Draw, Sampler, softmax_share

from .ai import NORMAL_WEIGHTS, Judge
from .cards import ORDER, SPECS, Card
from .models import (
    AccompliceLeft,
    AccomplicesPlayed,
    BloodyInnState,
    BloodyInnView,
    Bribed,
    Built,
    Dismissal,
    Pending,
    PlayerRemoved,
    PlayerState,
    RoundStarted,
    Stage,
    WagesPaid,
    player_view,
)

SCORE_SCALE = 8.0
"""At a cut-off: F of expected final score that make a player e times likelier
to win."""
_NIGHT = (Stage.ACTION, Stage.TARGET, Stage.PLACE, Stage.PAY, Stage.KEY, Stage.SERVICE)

Hands = dict[Seat, Counter[Card]]


def moment_of(view: BloodyInnView) -> int:
    if view.prompt is None:
        return 0
    return int(view.prompt.window.rsplit(".", 1)[-1])


def sort(cards: list[Card]) -> list[Card]:
    return sorted(cards, key=ORDER.__getitem__)


def tracked_hands(view: BloodyInnView, history: Sequence[Event]) -> Hands:
    """Each seat's hand as the history shows it, with the cards set aside for its
    pending action (the build card, the accomplices played so far) still in it."""
    hands: Hands = {p.seat: Counter({Card.PEASANT: 2}) for p in view.players}
    for event in history:
        if isinstance(event, Bribed):
            hands[event.actor] += Counter(event.cards) + Counter({Card.PEASANT: event.peasants})
        elif isinstance(event, AccomplicesPlayed):
            hands[event.actor] -= Counter(event.played)
            hands[event.actor] += Counter(event.returned)
        elif isinstance(event, Built):
            hands[event.actor] -= Counter([event.card])
        elif isinstance(event, AccompliceLeft):
            hands[event.seat] -= Counter([event.card])
        elif isinstance(event, PlayerRemoved):
            hands[event.seat] = Counter()
    return hands


def later_dismissals(view: BloodyInnView, history: Sequence[Event]) -> list[Dismissal]:
    """The dismissals queued behind the one shown (this Morning's unpaid wages)."""
    head = view.dismissing
    if head is None:
        return []
    unpaid: list[tuple[Seat, int]] = []
    for event in history:
        if isinstance(event, RoundStarted):
            unpaid = []
        elif isinstance(event, WagesPaid) and event.unpaid:
            unpaid.append((event.seat, event.unpaid))
    seats = [seat for seat, _ in unpaid]
    if head.seat not in seats:
        return [head.model_copy()]
    later = unpaid[seats.index(head.seat) + 1 :]
    return [head.model_copy(), *(Dismissal(seat=s, count=n) for s, n in later)]


def seen_cards(view: BloodyInnView) -> Counter[Card]:
    """Every card the viewer sees where it is."""
    seen: Counter[Card] = Counter()
    seen.update(room.guest for room in view.rooms if room.guest is not None)
    seen.update(card for card in (view.drawn, view.entrance_top) if card is not None)
    seen.update(view.exit)
    seen.update(view.box)
    for player in view.players:
        seen.update(annex.card for annex in player.annexes if annex.card is not None)
        seen.update(c for annex in player.annexes for c in annex.corpses)
        seen.update(player.corpses)
        seen.update(player.hand or [])
    seen.update(view.paying or [])
    if view.pending is not None:
        seen.update(view.pending.corpses)
        if view.pending.card is not None:
            seen[view.pending.card] += 1
    seen[Card.PEASANT] += view.bistro + view.box_peasants
    return seen


def night_queue(view: BloodyInnView) -> list[Seat]:
    """The turns still to play this Night, the current one first."""
    if view.stage not in _NIGHT or view.turn is None:
        return []
    seats = len(view.players)
    order = [
        (view.first_player + i) % seats
        for i in range(seats)
        if view.players[(view.first_player + i) % seats].active
    ]
    rest = order[order.index(view.turn) :]
    return rest + order if view.action_round == 1 else rest


class BloodyInnSampler(Sampler[BloodyInnView, BloodyInnState]):
    def prepare(self, view: BloodyInnView, history: Sequence[Event]) -> Draw[BloodyInnState]:
        viewer = view.viewer
        assert viewer is not None
        pool = Counter({card: spec.copies for card, spec in SPECS.items()}) - seen_cards(view)
        others = [p for p in view.players if p.seat != viewer]
        pending = view.pending
        actor = pending.actor if pending is not None else None
        set_aside = pending.card if pending is not None else None
        paid: dict[Seat, int] = {}
        if pending is not None and pending.actor != viewer:
            paid[pending.actor] = pending.paid_count
        holding = {p.seat: p.hand_size + paid.get(p.seat, 0) for p in others}
        hands = tracked_hands(view, history)
        known: Hands = {}
        for p in others:
            hand = hands[p.seat]
            if p.seat == actor and set_aside is not None:
                hand = hand - Counter([set_aside])
            if sum(hand.values()) == holding[p.seat] and not hand - pool:
                known[p.seat] = hand
                pool -= hand
        base = self._skeleton(view, history)
        hidden_entrance = max(0, view.entrance_size - 1)

        def draw(rng: random.Random) -> BloodyInnState:
            state = copy_state(base)
            state.rng = Rng.from_seed(rng.getrandbits(64))
            left = Counter(pool)
            dealt = deal_hands(left, {s: n for s, n in holding.items() if s not in known}, rng)
            dealt.update({s: list(hand.elements()) for s, hand in known.items()})
            for seat, cards in dealt.items():
                rng.shuffle(cards)
                count = paid.get(seat, 0)
                state.players[seat].hand = sort(cards[count:])
                if count:
                    assert state.pending is not None
                    state.pending.paid = cards[:count]
            rest = list(left.elements())
            rng.shuffle(rest)
            entrance = rest[:hidden_entrance]
            if view.entrance_top is not None:
                entrance.append(view.entrance_top)
            state.entrance = entrance
            state.box_unseen = sort(rest[hidden_entrance:])
            return state

        return draw

    @staticmethod
    def _skeleton(view: BloodyInnView, history: Sequence[Event]) -> BloodyInnState:
        viewer = view.viewer
        pending = None
        if view.pending is not None:
            pv = view.pending
            pending = Pending(
                action=pv.action,
                rooms=list(pv.rooms),
                peasants=pv.peasants,
                card=pv.card,
                corpses=list(pv.corpses),
                owners=list(pv.owners),
                paid=list(view.paying or []) if pv.actor == viewer else [],
            )
        return BloodyInnState(
            seats=len(view.players),
            rng=Rng.from_seed(0),
            options=view.options.model_copy(),
            players=[
                PlayerState(
                    money=p.money,
                    cheques=p.cheques,
                    hand=list(p.hand or []),
                    annexes=[a.model_copy(deep=True) for a in p.annexes],
                    corpses=list(p.corpses),
                    active=p.active,
                )
                for p in view.players
            ],
            rooms=[room.model_copy() for room in view.rooms],
            entrance=[],
            exit=list(view.exit),
            bistro=view.bistro,
            box_unseen=[],
            box_peasants=view.box_peasants,
            box=list(view.box),
            drawn=view.drawn,
            season=view.season,
            final_round=view.final_round,
            round=view.round,
            first_player=view.first_player,
            stage=view.stage,
            queue=night_queue(view),
            pending=pending,
            dismissals=later_dismissals(view, history),
            undertaker=None if view.undertaker is None else view.undertaker.model_copy(deep=True),
            moment=moment_of(view),
            standings=[s.model_copy() for s in view.standings],
            winners=None if view.winners is None else list(view.winners),
            solo_lost=view.solo_lost,
        )

    def estimate(self, state: BloodyInnState, seat: Seat) -> float:
        """Each player's expected final score as NORMAL's judge values its position
        (money, cheques, end bonuses, accomplices, corpses, annexes, keys)."""
        values = [
            Judge(standing_view(state, p), NORMAL_WEIGHTS).standing() if player.active else -1e3
            for p, player in enumerate(state.players)
        ]
        return softmax_share(values, seat, SCORE_SCALE)


def standing_view(state: BloodyInnState, seat: Seat) -> BloodyInnView:
    """What a seat would see of a sampled state, as far as its judge reads it (no
    prompt, no action being prepared): the estimate's input."""
    night = state.stage in _NIGHT
    return trusted(
        BloodyInnView,
        viewer=seat,
        options=state.options,
        round=state.round,
        season=state.season,
        final_round=state.final_round,
        stage=state.stage,
        first_player=state.first_player,
        turn=state.queue[0] if night and state.queue else None,
        action_round=None,
        awaiting=[],
        rooms=state.rooms,
        entrance_size=len(state.entrance),
        entrance_top=state.entrance[-1] if state.entrance else None,
        drawn=state.drawn,
        exit=state.exit,
        bistro=state.bistro,
        box=state.box,
        box_unseen=len(state.box_unseen),
        box_peasants=state.box_peasants,
        players=[player_view(state, p, seat) for p in range(state.seats)],
        pending=None,
        dismissing=None,
        standings=[],
        winners=None,
        solo_lost=state.solo_lost,
    )


def deal_hands(
    left: Counter[Card], holding: dict[Seat, int], rng: random.Random
) -> dict[Seat, list[Card]]:
    """Random hands of these sizes from ``left`` (taken out of it): every peasant
    left goes to a hand (the Entrance and the box hold none), then travellers."""
    slots = [seat for seat, count in holding.items() for _ in range(count)]
    rng.shuffle(slots)
    peasants = min(left[Card.PEASANT], len(slots))
    left[Card.PEASANT] -= peasants
    travellers = list(left.elements())
    rng.shuffle(travellers)
    cards = [Card.PEASANT] * peasants + travellers[: len(slots) - peasants]
    left -= Counter(cards[peasants:])
    hands: dict[Seat, list[Card]] = {seat: [] for seat in holding}
    for seat, card in zip(slots, cards, strict=True):
        hands[seat].append(card)
    return hands


SAMPLER = BloodyInnSampler()
