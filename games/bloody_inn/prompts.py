"""The prompts: what the one player asked at each stage may choose, and the
choice taken for them on timeout.

Welcome a traveller in a free room; an affordable action or a Pass with
laundering; the action's targets, the annex for each corpse, the accomplices to
pay with; a room for a new key or room-service token; the accomplice to
dismiss; how many cheques pay the undertaker. The targets and costs themselves
come from ``targets``.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import Prompt, PromptKind, Seat

from .cards import CHEQUE, ORDER, ROOMS, WEALTH_CAP, ActionKind, Card, rank
from .models import (
    Act,
    BloodyInnChoice,
    BloodyInnState,
    Cancel,
    Dismiss,
    Done,
    KeyRoom,
    Pass,
    Pay,
    PayUndertaker,
    Place,
    ServiceRoom,
    Stage,
    Welcome,
)
from .scoring import cheque_range
from .table import free_rooms, service_rooms, white_rooms
from .targets import can_start, kinds, owners_with_room, pending_cost, returning, targets

BloodyInnPrompt = Prompt[BloodyInnChoice]

# Every other choice a prompt can hold, built once (choices are frozen, so shared);
# the target choices are in ``targets``.
_WELCOME = {r: Welcome(room=r) for r in range(1, ROOMS + 1)}
_KEY = {r: KeyRoom(room=r) for r in range(1, ROOMS + 1)}
_SERVICE = {r: ServiceRoom(room=r) for r in range(1, ROOMS + 1)}
_ACT = {a: Act(action=a) for a in ActionKind}
_PASS = {k: Pass(launder=k) for k in range(-WEALTH_CAP // CHEQUE, WEALTH_CAP // CHEQUE + 1)}
_PAY = {c: Pay(card=c) for c in Card}
_DISMISS = {c: Dismiss(card=c) for c in Card}
_DONE = Done()
_CANCEL = Cancel()


def prompt_of(state: BloodyInnState, seat: Seat) -> BloodyInnPrompt:
    """What ``seat`` (the one player awaited) is asked at the current stage."""
    window = f"{state.round}.{state.moment}"
    stage = state.stage
    if stage is Stage.WELCOME:
        welcome = tuple(_WELCOME[r] for r in free_rooms(state))
        return _prompt(seat, PromptKind.TURN, window, welcome, welcome[0])
    if stage is Stage.ACTION:
        return _prompt(seat, PromptKind.TURN, window, action_choices(state, seat), _PASS[0])
    if stage is Stage.TARGET:
        return _target_prompt(state, seat, window)
    if stage is Stage.PLACE:
        return _place_prompt(state, seat, window)
    if stage is Stage.PAY:
        return _pay_prompt(state, seat, window)
    if stage is Stage.KEY:
        keys = tuple(_KEY[r] for r in white_rooms(state))
        return _prompt(seat, PromptKind.CHOICE, window, keys, keys[0])
    if stage is Stage.SERVICE:
        return _service_prompt(state, seat, window)
    if stage is Stage.UNDERTAKER:
        return _undertaker_prompt(state, seat, window)
    assert stage is Stage.DISMISS
    return _dismiss_prompt(state, seat, window)


def action_choices(state: BloodyInnState, seat: Seat) -> tuple[BloodyInnChoice, ...]:
    """The night actions ``seat`` can afford now, then Pass with each laundering."""
    choices: list[BloodyInnChoice] = [_ACT[a] for a in ActionKind if can_start(state, seat, a)]
    player = state.players[seat]
    choices.append(_PASS[0])
    choices.extend(_PASS[k] for k in range(1, player.money // CHEQUE + 1))
    cashable = min(player.cheques, (WEALTH_CAP - player.money) // CHEQUE)
    choices.extend(_PASS[-k] for k in range(1, cashable + 1))
    return tuple(choices)


def _target_prompt(state: BloodyInnState, seat: Seat, window: str) -> BloodyInnPrompt:
    """Targets of the pending action; Done once it has one; the default is Done,
    else the cheapest target, else Cancel."""
    pending = state.pending
    assert pending is not None
    found = targets(state, seat, pending)
    choices: list[BloodyInnChoice] = [choice for choice, _ in found]
    default: BloodyInnChoice = _CANCEL
    if pending.rooms or pending.corpses:
        choices.append(_DONE)
        default = _DONE
    elif found:
        default = min(found, key=lambda target: target[1])[0]
    choices.append(_CANCEL)
    return _prompt(seat, PromptKind.CHOICE, window, tuple(choices), default)


def _place_prompt(state: BloodyInnState, seat: Seat, window: str) -> BloodyInnPrompt:
    """Whose annexes take the corpse just chosen (one's own by default)."""
    assert state.pending is not None
    owners = owners_with_room(state, state.pending)
    places: tuple[BloodyInnChoice, ...] = tuple(Place(owner=o) for o in owners)
    default = places[owners.index(seat)] if seat in owners else places[0]
    return _prompt(seat, PromptKind.CHOICE, window, (*places, _CANCEL), default)


def _pay_prompt(state: BloodyInnState, seat: Seat, window: str) -> BloodyInnPrompt:
    """One more accomplice while under the most; Done from the fewest on."""
    pending = state.pending
    assert pending is not None
    low, high = pending_cost(state, seat)
    hand = state.players[seat].hand
    choices: list[BloodyInnChoice] = []
    if len(pending.paid) < high:
        choices.extend(_PAY[c] for c in kinds(hand))
    if len(pending.paid) >= low:
        choices.append(_DONE)
        default: BloodyInnChoice = _DONE
    else:
        default = _PAY[_cheapest(hand, returning(state, seat, pending.action))]
    choices.append(_CANCEL)
    return _prompt(seat, PromptKind.CHOICE, window, tuple(choices), default)


def _service_prompt(state: BloodyInnState, seat: Seat, window: str) -> BloodyInnPrompt:
    """A room for the room-service token (one's own room by default)."""
    rooms = service_rooms(state)
    services = tuple(_SERVICE[r] for r in rooms)
    own = [r for r in rooms if state.rooms[r - 1].owner == seat]
    return _prompt(seat, PromptKind.CHOICE, window, services, _SERVICE[(own or rooms)[0]])


def _undertaker_prompt(state: BloodyInnState, seat: Seat, window: str) -> BloodyInnPrompt:
    """How many of the undertaker's 10 F payments go by cheque, from the fewest to
    the most; on timeout the fewest: the track pays first, then cheques (RULING)."""
    assert state.undertaker is not None
    low, high = cheque_range(state.players[seat], end=state.undertaker.end)
    pays = tuple(PayUndertaker(cheques=k) for k in range(low, high + 1))
    return _prompt(seat, PromptKind.CHOICE, window, pays, pays[0])


def _dismiss_prompt(state: BloodyInnState, seat: Seat, window: str) -> BloodyInnPrompt:
    hand = state.players[seat].hand
    dismiss = tuple(_DISMISS[c] for c in kinds(hand))
    return _prompt(seat, PromptKind.CHOICE, window, dismiss, _DISMISS[_cheapest(hand)])


def _prompt(
    seat: Seat,
    kind: PromptKind,
    window: str,
    choices: tuple[BloodyInnChoice, ...],
    default: BloodyInnChoice,
) -> BloodyInnPrompt:
    return BloodyInnPrompt.trusted(seat, kind, window, choices, default)


def _cheapest(cards: Sequence[Card], coming_back: set[Card] | None = None) -> Card:
    """The card cheapest to play or lose: one that comes back, then a peasant
    (it only goes to the bistro), then the lowest rank."""
    back = coming_back or set()
    return min(
        cards,
        key=lambda c: (c not in back, c is not Card.PEASANT, rank(c), ORDER[c]),
    )
