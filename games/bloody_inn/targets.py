"""What a night action can target and what it costs.

The targets an action being prepared may still add (guests in rooms or bistro
peasants for Bribe and Kill, a buildable card in hand for Build, corpses for
Bury), each with the fewest accomplices it calls for, keeping only those the
player can pay (and, for Bury, place); the fewest and most accomplices a
prepared action may be paid with; and the annex effects behind them: discounts,
several targets, more peasants, accomplices that come back to the hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.base import Seat

from .cards import (
    ORDER,
    PEASANTS,
    PEASANTS_PER_BRIBE,
    ROOMS,
    ActionKind,
    Card,
    Effect,
    rank,
    spec,
)
from .models import (
    BloodyInnChoice,
    BloodyInnState,
    Pending,
    TargetCard,
    TargetPeasants,
    TargetRoom,
)
from .table import guest, space_left

# Every target choice, built once (choices are frozen, so shared).
_ROOM = {r: TargetRoom(room=r) for r in range(1, ROOMS + 1)}
_PEASANTS = {n: TargetPeasants(count=n) for n in range(1, PEASANTS + 1)}
_CARD = {c: TargetCard(card=c) for c in Card}
_NOTHING_YET = {a: Pending(action=a) for a in ActionKind}
"""An action with no target yet (read only: to ask which actions are affordable)."""

Target = tuple[BloodyInnChoice, int]
"""A target choice and the fewest accomplices the action costs with it."""


# --- targets ---------------------------------------------------------------------------


def can_start(state: BloodyInnState, seat: Seat, action: ActionKind) -> bool:
    """Whether ``seat`` has something to target with ``action`` that it can pay for."""
    return bool(targets(state, seat, _NOTHING_YET[action]))


def targets(state: BloodyInnState, seat: Seat, pending: Pending) -> list[Target]:
    """The targets ``pending`` may add now, each with its minimum cost in
    accomplices: only those the player can still pay (and, for Bury, place)."""
    if pending.action in (ActionKind.BRIBE, ActionKind.KILL):
        return _guest_targets(state, seat, pending)
    if pending.action is ActionKind.BUILD:
        return _build_targets(state, seat, pending)
    return _corpse_targets(state, seat, pending)


def _guest_targets(state: BloodyInnState, seat: Seat, pending: Pending) -> list[Target]:
    """Bribe and Kill: travellers in rooms (several with the right annex), or
    peasants from the bistro instead (never mixed with travellers)."""
    if pending.peasants or (
        pending.rooms and not has_effect(state, seat, Effect.MULTI_TARGET, pending.action)
    ):
        return []
    found = _room_targets(state, seat, pending)
    if not pending.rooms and state.bistro:
        found.extend(_peasant_targets(state, seat, pending.action))
    return found


def _room_targets(state: BloodyInnState, seat: Seat, pending: Pending) -> list[Target]:
    hand = len(state.players[seat].hand)
    discount = action_discount(state, seat, pending.action)
    base = sum(rank(guest(state, r)) for r in pending.rooms)
    found: list[Target] = []
    for index, room in enumerate(state.rooms):
        number = index + 1
        if room.guest is None or number in pending.rooms:
            continue
        cost = max(0, base + rank(room.guest) - discount)
        if cost <= hand:
            found.append((_ROOM[number], cost))
    return found


def _peasant_targets(state: BloodyInnState, seat: Seat, action: ActionKind) -> list[Target]:
    """Peasants cost nothing: Kill takes one, Bribe up to its limit."""
    limit = 1 if action is ActionKind.KILL else peasant_limit(state, seat)
    return [(_PEASANTS[n], 0) for n in range(1, min(limit, state.bistro) + 1)]


def _build_targets(state: BloodyInnState, seat: Seat, pending: Pending) -> list[Target]:
    """Build: one buildable card of the hand, paid with the other cards."""
    hand = state.players[seat].hand
    if pending.card is not None or not hand:
        return []
    discount = action_discount(state, seat, pending.action)
    found: list[Target] = []
    for card in kinds(hand):
        if spec(card).buildable:
            cost = max(0, rank(card) - discount)
            if cost <= len(hand) - 1:
                found.append((_CARD[card], cost))
    return found


def _corpse_targets(state: BloodyInnState, seat: Seat, pending: Pending) -> list[Target]:
    """Bury: the player's corpses (several with the right annex), while some
    annex can still take one more."""
    player = state.players[seat]
    if not player.corpses or (
        pending.corpses and not has_effect(state, seat, Effect.MULTI_TARGET, pending.action)
    ):
        return []
    if not owners_with_room(state, pending):
        return []
    discount = action_discount(state, seat, pending.action)
    base = sum(rank(c) for c in pending.corpses)
    found: list[Target] = []
    for card in kinds(player.corpses):
        cost = max(0, base + rank(card) - discount)
        if cost <= len(player.hand):
            found.append((_CARD[card], cost))
    return found


def owners_with_room(state: BloodyInnState, pending: Pending) -> list[Seat]:
    """Players (still in the game) with an annex that can take one more corpse,
    counting the corpses of the pending Bury already assigned to them."""
    reserved = Counter(pending.owners)
    return [
        seat
        for seat, player in enumerate(state.players)
        if player.active and sum(space_left(a) for a in player.annexes) > reserved[seat]
    ]


# --- costs -----------------------------------------------------------------------------


def pending_cost(state: BloodyInnState, seat: Seat) -> tuple[int, int]:
    """(fewest, most) accomplices the pending action may be paid with."""
    pending = state.pending
    assert pending is not None
    if pending.action is ActionKind.BUILD:
        assert pending.card is not None
        required = rank(pending.card)
    elif pending.action is ActionKind.BURY:
        required = sum(rank(c) for c in pending.corpses)
    else:
        required = sum(rank(guest(state, r)) for r in pending.rooms)
    return max(0, required - action_discount(state, seat, pending.action)), required


def action_discount(state: BloodyInnState, seat: Seat, action: ActionKind) -> int:
    """Each Workshop / Parlor / Cellar takes one accomplice off (RULING: they add up)."""
    return sum(
        spec(a.card).amount
        for a in state.players[seat].annexes
        if a.card is not None
        and spec(a.card).effect is Effect.DISCOUNT
        and spec(a.card).action is action
    )


def peasant_limit(state: BloodyInnState, seat: Seat) -> int:
    """How many bistro peasants one Bribe may take (more with a Brewery)."""
    limits = [
        spec(a.card).amount
        for a in state.players[seat].annexes
        if a.card is not None and spec(a.card).effect is Effect.MORE_PEASANTS
    ]
    return max([PEASANTS_PER_BRIBE, *limits])


def has_effect(state: BloodyInnState, seat: Seat, effect: Effect, action: ActionKind) -> bool:
    """Whether one of the player's annexes has ``effect`` for ``action``."""
    return any(
        a.card is not None and spec(a.card).effect is effect and spec(a.card).action is action
        for a in state.players[seat].annexes
    )


def returning(state: BloodyInnState, seat: Seat, action: ActionKind) -> set[Card]:
    """The cards that come back to the hand when played for ``action``."""
    if has_effect(state, seat, Effect.ALL_RETURN, action):
        return set(Card)
    return {c for c in Card if spec(c).aptitude is action}


def kinds(cards: Sequence[Card]) -> list[Card]:
    """The distinct kinds among ``cards``, in table order."""
    return sorted(set(cards), key=ORDER.__getitem__)
