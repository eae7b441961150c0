"""The Bloody Inn rules: a state machine over BloodyInnState.

A round is Evening (WELCOME: the first player puts each drawn traveller in an
open room), Night (two turns per player, each ACTION -> TARGET -> (PLACE) ->
PAY -> (KEY | SERVICE), or a Pass) and Morning (police, travellers leave,
wages; only DISMISS asks anything). Only one player is ever prompted at a time,
and every applied choice opens a new decision moment (``state.moment``).

An action's targets and accomplices are chosen first and nothing happens on
the table until it resolves: the build card, the corpses and the accomplices
played wait in ``state.pending`` (out of the hand), so Cancel puts them back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

from games.base import (
    Event,
    Game,
    NotPrompted,
    Prompt,
    PromptKind,
    Result,
    Seat,
)

from .cards import (
    CHEQUE,
    DEPOT_CAPACITY,
    ORDER,
    PEASANTS,
    PEASANTS_PER_BRIBE,
    REMOVED,
    ROOMS,
    SOLO_BISTRO,
    START_CHEQUES,
    START_MONEY,
    UNDERTAKER_FEE,
    WEALTH_CAP,
    ActionKind,
    Card,
    Effect,
    GuestType,
    rank,
    solo_rank,
    spec,
    travellers,
    white_keys,
)
from .models import (
    CHOICE_ADAPTER,
    CHOICE_TYPES,
    EVENT_ADAPTER,
    AccompliceLeft,
    AccomplicesPlayed,
    Act,
    ActionCancelled,
    ActionStarted,
    Annex,
    BloodyInnChoice,
    BloodyInnOptions,
    BloodyInnState,
    BloodyInnView,
    Bribed,
    Built,
    Buried,
    Cancel,
    Dismiss,
    Dismissal,
    Done,
    EffectWasted,
    EndBonus,
    FinalRound,
    FinalRoundSkipped,
    FinalScore,
    FirstPlayerPassed,
    GameWon,
    HandChanged,
    KeyRoom,
    KeyTaken,
    Killed,
    Length,
    Pass,
    Passed,
    Pay,
    Pending,
    PendingView,
    Place,
    PlayerRemoved,
    PlayerState,
    PlayerView,
    PoliceInvestigation,
    Room,
    RoomIncome,
    RoomServicePaid,
    RoomServicePlaced,
    RoundStarted,
    SeasonChanged,
    ServiceRoom,
    SoloLost,
    Stage,
    Standing,
    TargetCard,
    TargetPeasants,
    TargetRoom,
    TravellersLeft,
    TravellerWelcomed,
    TurnStarted,
    UndertakerPaid,
    WagesPaid,
    Welcome,
)

BloodyInnPrompt = Prompt[BloodyInnChoice]

# Every choice a prompt can hold, built once (choices are frozen, so shared).
_WELCOME = {r: Welcome(room=r) for r in range(1, ROOMS + 1)}
_ROOM = {r: TargetRoom(room=r) for r in range(1, ROOMS + 1)}
_KEY = {r: KeyRoom(room=r) for r in range(1, ROOMS + 1)}
_SERVICE = {r: ServiceRoom(room=r) for r in range(1, ROOMS + 1)}
_ACT = {a: Act(action=a) for a in ActionKind}
_PASS = {k: Pass(launder=k) for k in range(-WEALTH_CAP // CHEQUE, WEALTH_CAP // CHEQUE + 1)}
_PEASANTS = {n: TargetPeasants(count=n) for n in range(1, PEASANTS + 1)}
_CARD = {c: TargetCard(card=c) for c in Card}
_PAY = {c: Pay(card=c) for c in Card}
_DISMISS = {c: Dismiss(card=c) for c in Card}
_DONE = Done()
_NOTHING_YET = {a: Pending(action=a) for a in ActionKind}
"""An action with no target yet (read only: to ask which actions are affordable)."""
_CANCEL = Cancel()

_NIGHT_STAGES = (Stage.ACTION, Stage.TARGET, Stage.PLACE, Stage.PAY, Stage.KEY, Stage.SERVICE)
_PREPARING = (Stage.TARGET, Stage.PLACE, Stage.PAY)


class BloodyInn(Game[BloodyInnState, BloodyInnOptions, BloodyInnChoice, BloodyInnView]):
    name: ClassVar[str] = "bloody_inn"
    title: ClassVar[str] = "The Bloody Inn"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 4
    typical_players: ClassVar[int] = 2
    options_model = BloodyInnOptions
    state_model = BloodyInnState
    choice_adapter = CHOICE_ADAPTER
    choice_types = CHOICE_TYPES
    event_adapter = EVENT_ADAPTER

    # --- setup ---------------------------------------------------------------

    def setup(self, players: int, options: BloodyInnOptions, seed: int) -> BloodyInnState:
        rng, first = self._start(players, options, seed)
        deck = travellers()
        rng.shuffle(deck)
        removed = REMOVED[(players, options.length is Length.LONG)]
        bistro = SOLO_BISTRO if players == 1 else 0
        rooms = [Room() for _ in range(ROOMS)]
        for seat in range(players):
            rooms[seat] = Room(open=True, owner=seat)
        for index in range(players, players + white_keys(players)):
            rooms[index] = Room(open=True)
        state = BloodyInnState(
            seats=players,
            rng=rng,
            options=options,
            players=[
                PlayerState(
                    money=START_MONEY,
                    cheques=START_CHEQUES,
                    hand=[Card.PEASANT, Card.PEASANT],
                    annexes=[Annex(card=None)],
                )
                for _ in range(players)
            ],
            rooms=rooms,
            entrance=deck[removed:],
            bistro=bistro,
            box_unseen=sorted(deck[:removed], key=ORDER.__getitem__),
            box_peasants=PEASANTS - 2 * players - bistro,
            first_player=first,
            stage=Stage.WELCOME,
        )
        self._advance(state, [])
        return state

    # --- who is asked what -----------------------------------------------------

    def awaiting(self, state: BloodyInnState) -> list[Seat]:
        """Who is being asked something now (never more than one player)."""
        stage = state.stage
        if stage is Stage.OVER:
            return []
        if stage is Stage.WELCOME:
            return [state.first_player]
        if stage is Stage.DISMISS:
            return [state.dismissals[0].seat]
        return [state.queue[0]]

    def _prompt_of(self, state: BloodyInnState, seat: Seat) -> BloodyInnPrompt:
        window = f"{state.round}.{state.moment}"
        stage = state.stage
        if stage is Stage.WELCOME:
            rooms = self._free_rooms(state)
            welcome = tuple(_WELCOME[r] for r in rooms)
            return _prompt(seat, PromptKind.TURN, window, welcome, welcome[0])
        if stage is Stage.ACTION:
            return _prompt(seat, PromptKind.TURN, window, self.legal_actions(state, seat), _PASS[0])
        if stage is Stage.TARGET:
            return self._target_prompt(state, seat, window)
        if stage is Stage.PLACE:
            assert state.pending is not None
            owners = self._owners_with_room(state, state.pending)
            places: tuple[BloodyInnChoice, ...] = tuple(Place(owner=o) for o in owners)
            default = places[owners.index(seat)] if seat in owners else places[0]
            return _prompt(seat, PromptKind.CHOICE, window, (*places, _CANCEL), default)
        if stage is Stage.PAY:
            return self._pay_prompt(state, seat, window)
        if stage is Stage.KEY:
            keys = tuple(_KEY[r] for r in self._white_rooms(state))
            return _prompt(seat, PromptKind.CHOICE, window, keys, keys[0])
        if stage is Stage.SERVICE:
            rooms = self._service_rooms(state)
            services = tuple(_SERVICE[r] for r in rooms)
            own = [r for r in rooms if state.rooms[r - 1].owner == seat]
            return _prompt(seat, PromptKind.CHOICE, window, services, _SERVICE[(own or rooms)[0]])
        assert stage is Stage.DISMISS
        hand = state.players[seat].hand
        dismiss = tuple(_DISMISS[c] for c in _kinds(hand))
        return _prompt(seat, PromptKind.CHOICE, window, dismiss, _DISMISS[_cheapest(hand)])

    def legal_actions(self, state: BloodyInnState, seat: Seat) -> tuple[BloodyInnChoice, ...]:
        """The night actions ``seat`` can afford now, then Pass with each laundering."""
        choices: list[BloodyInnChoice] = []
        for action in ActionKind:
            if self._targets(state, seat, _NOTHING_YET[action]):
                choices.append(_ACT[action])
        player = state.players[seat]
        choices.append(_PASS[0])
        choices.extend(_PASS[k] for k in range(1, player.money // CHEQUE + 1))
        cashable = min(player.cheques, (WEALTH_CAP - player.money) // CHEQUE)
        choices.extend(_PASS[-k] for k in range(1, cashable + 1))
        return tuple(choices)

    def _target_prompt(self, state: BloodyInnState, seat: Seat, window: str) -> BloodyInnPrompt:
        pending = state.pending
        assert pending is not None
        targets = self._targets(state, seat, pending)
        choices: list[BloodyInnChoice] = [choice for choice, _ in targets]
        default: BloodyInnChoice = _CANCEL
        if pending.rooms or pending.corpses:
            choices.append(_DONE)
            default = _DONE
        elif targets:
            default = min(targets, key=lambda target: target[1])[0]
        choices.append(_CANCEL)
        return _prompt(seat, PromptKind.CHOICE, window, tuple(choices), default)

    def _pay_prompt(self, state: BloodyInnState, seat: Seat, window: str) -> BloodyInnPrompt:
        pending = state.pending
        assert pending is not None
        low, high = self._cost(state, seat)
        hand = state.players[seat].hand
        choices: list[BloodyInnChoice] = []
        if len(pending.paid) < high:
            choices.extend(_PAY[c] for c in _kinds(hand))
        if len(pending.paid) >= low:
            choices.append(_DONE)
            default: BloodyInnChoice = _DONE
        else:
            default = _PAY[_cheapest(hand, self._returning(state, seat, pending.action))]
        choices.append(_CANCEL)
        return _prompt(seat, PromptKind.CHOICE, window, tuple(choices), default)

    # --- targets and costs ---------------------------------------------------------

    def _targets(
        self, state: BloodyInnState, seat: Seat, pending: Pending
    ) -> list[tuple[BloodyInnChoice, int]]:
        """The targets ``pending`` may add now, each with its minimum cost in
        accomplices: only those the player can still pay (and, for Bury, place)."""
        player = state.players[seat]
        action = pending.action
        hand = len(player.hand)
        found: list[tuple[BloodyInnChoice, int]] = []
        if action in (ActionKind.BRIBE, ActionKind.KILL):
            if pending.peasants or (
                pending.rooms and not self._has(state, seat, Effect.MULTI_TARGET, action)
            ):
                return found
            discount = self._discount(state, seat, action)
            base = sum(rank(self._guest(state, r)) for r in pending.rooms)
            for index, room in enumerate(state.rooms):
                number = index + 1
                if room.guest is None or number in pending.rooms:
                    continue
                cost = max(0, base + rank(room.guest) - discount)
                if cost <= hand:
                    found.append((_ROOM[number], cost))
            if not pending.rooms and state.bistro:
                limit = 1 if action is ActionKind.KILL else self._peasant_limit(state, seat)
                found.extend((_PEASANTS[n], 0) for n in range(1, min(limit, state.bistro) + 1))
        elif action is ActionKind.BUILD:
            if pending.card is not None or not hand:
                return found
            discount = self._discount(state, seat, action)
            for card in _kinds(player.hand):
                if spec(card).buildable:
                    cost = max(0, rank(card) - discount)
                    if cost <= hand - 1:
                        found.append((_CARD[card], cost))
        else:
            if not player.corpses or (
                pending.corpses and not self._has(state, seat, Effect.MULTI_TARGET, action)
            ):
                return found
            if not self._owners_with_room(state, pending):
                return found
            discount = self._discount(state, seat, action)
            base = sum(rank(c) for c in pending.corpses)
            for card in _kinds(player.corpses):
                cost = max(0, base + rank(card) - discount)
                if cost <= hand:
                    found.append((_CARD[card], cost))
        return found

    def _cost(self, state: BloodyInnState, seat: Seat) -> tuple[int, int]:
        """(fewest, most) accomplices the pending action may be paid with."""
        pending = state.pending
        assert pending is not None
        if pending.action is ActionKind.BUILD:
            assert pending.card is not None
            required = rank(pending.card)
        elif pending.action is ActionKind.BURY:
            required = sum(rank(c) for c in pending.corpses)
        else:
            required = sum(rank(self._guest(state, r)) for r in pending.rooms)
        return self._min_cost(state, seat, pending.action, required), required

    def _min_cost(
        self, state: BloodyInnState, seat: Seat, action: ActionKind, required: int
    ) -> int:
        return max(0, required - self._discount(state, seat, action))

    @staticmethod
    def _discount(state: BloodyInnState, seat: Seat, action: ActionKind) -> int:
        """Each Workshop / Parlor / Cellar takes one accomplice off (RULING: they add up)."""
        return sum(
            spec(a.card).amount
            for a in state.players[seat].annexes
            if a.card is not None
            and spec(a.card).effect is Effect.DISCOUNT
            and spec(a.card).action is action
        )

    def _peasant_limit(self, state: BloodyInnState, seat: Seat) -> int:
        limits = [
            spec(a.card).amount
            for a in state.players[seat].annexes
            if a.card is not None and spec(a.card).effect is Effect.MORE_PEASANTS
        ]
        return max([PEASANTS_PER_BRIBE, *limits])

    @staticmethod
    def _has(state: BloodyInnState, seat: Seat, effect: Effect, action: ActionKind) -> bool:
        return any(
            a.card is not None and spec(a.card).effect is effect and spec(a.card).action is action
            for a in state.players[seat].annexes
        )

    def _returning(self, state: BloodyInnState, seat: Seat, action: ActionKind) -> set[Card]:
        """The cards that come back to the hand when played for ``action``."""
        if self._has(state, seat, Effect.ALL_RETURN, action):
            return set(Card)
        return {c for c in Card if spec(c).aptitude is action}

    @staticmethod
    def _guest(state: BloodyInnState, room: int) -> Card:
        guest = state.rooms[room - 1].guest
        assert guest is not None
        return guest

    @staticmethod
    def _free_room(annex: Annex) -> int:
        capacity = DEPOT_CAPACITY if annex.card is None else spec(annex.card).capacity
        return capacity - len(annex.corpses)

    def _owners_with_room(self, state: BloodyInnState, pending: Pending) -> list[Seat]:
        """Players (still in the game) with an annex that can take one more corpse,
        counting the corpses of the pending Bury already assigned to them."""
        reserved = Counter(pending.owners)
        return [
            seat
            for seat, player in enumerate(state.players)
            if player.active and sum(self._free_room(a) for a in player.annexes) > reserved[seat]
        ]

    @staticmethod
    def _free_rooms(state: BloodyInnState) -> list[int]:
        return [i + 1 for i, room in enumerate(state.rooms) if room.open and room.guest is None]

    @staticmethod
    def _white_rooms(state: BloodyInnState) -> list[int]:
        return [i + 1 for i, room in enumerate(state.rooms) if room.open and room.owner is None]

    @staticmethod
    def _service_rooms(state: BloodyInnState) -> list[int]:
        return [i + 1 for i, room in enumerate(state.rooms) if room.open and room.service is None]

    # --- transitions -----------------------------------------------------------

    def _transition(
        self, state: BloodyInnState, seat: Seat, choice: BloodyInnChoice
    ) -> list[Event]:
        events: list[Event] = []
        if isinstance(choice, Welcome):
            self._place_traveller(state, choice.room, events)
        elif isinstance(choice, Act):
            state.pending = Pending(action=choice.action)
            state.stage = Stage.TARGET
            events.append(ActionStarted(actor=seat, action=choice.action))
        elif isinstance(choice, Pass):
            self._pass(state, seat, choice.launder, events)
        elif isinstance(choice, TargetRoom):
            assert state.pending is not None
            state.pending.rooms.append(choice.room)
            self._continue(state, seat, events)
        elif isinstance(choice, TargetPeasants):
            assert state.pending is not None
            state.pending.peasants = choice.count
            self._to_pay(state, seat, events)
        elif isinstance(choice, TargetCard):
            self._target_card(state, seat, choice.card, events)
        elif isinstance(choice, Place):
            assert state.pending is not None
            state.pending.owners.append(choice.owner)
            self._continue(state, seat, events)
        elif isinstance(choice, Pay):
            self._pay(state, seat, choice.card, events)
        elif isinstance(choice, Done):
            if state.stage is Stage.TARGET:
                self._to_pay(state, seat, events)
            else:
                self._resolve(state, seat, events)
        elif isinstance(choice, Cancel):
            self._cancel(state, seat, events)
        elif isinstance(choice, KeyRoom):
            state.rooms[choice.room - 1].owner = seat
            events.append(KeyTaken(seat=seat, room=choice.room))
            self._end_turn(state, events)
        elif isinstance(choice, ServiceRoom):
            state.rooms[choice.room - 1].service = seat
            events.append(RoomServicePlaced(seat=seat, room=choice.room))
            self._end_turn(state, events)
        elif isinstance(choice, Dismiss):
            self._dismiss(state, seat, choice.card, events)
        self._advance(state, events)
        state.moment += 1
        return events

    # --- evening -----------------------------------------------------------------

    def _welcome(self, state: BloodyInnState, events: list[Event]) -> bool:
        """Draw and place travellers until the first player must choose a room
        (True) or the Evening is over (False: the stage moved on)."""
        while True:
            free = self._free_rooms(state)
            if state.drawn is None:
                if not free or not state.entrance:
                    break
                state.drawn = state.entrance.pop()
                if not state.entrance:
                    self._entrance_ran_out(state, events)
            if state.options.first_come_first_served or len(free) == 1:
                self._place_traveller(state, free[0], events)
                continue
            return True
        self._end_evening(state, events)
        return False

    def _entrance_ran_out(self, state: BloodyInnState, events: list[Event]) -> None:
        """First time: the Exit stack, shuffled, is the new Entrance (second season).
        Second time: this round is the last one."""
        if state.season == 1:
            state.season = 2
            state.entrance = state.exit
            state.exit = []
            state.rng.shuffle(state.entrance)
            events.append(SeasonChanged(entrance=len(state.entrance)))
            if state.entrance:
                return
        state.final_round = True

    def _place_traveller(self, state: BloodyInnState, number: int, events: list[Event]) -> None:
        card = state.drawn
        assert card is not None
        room = state.rooms[number - 1]
        room.guest = card
        state.drawn = None
        events.append(TravellerWelcomed(seat=state.first_player, card=card, room=number))
        if room.service is not None and state.players[room.service].active and rank(card):
            lost = self._gain(state, room.service, rank(card))
            events.append(
                RoomServicePaid(
                    seat=room.service, room=number, card=card, amount=rank(card), lost=lost
                )
            )

    def _end_evening(self, state: BloodyInnState, events: list[Event]) -> None:
        guests = [room.guest for room in state.rooms if room.guest is not None]
        if state.final_round:
            if len(guests) < len(self._order(state)):
                self._clear_rooms(state)
                events.append(FinalRoundSkipped(travellers=len(guests), cards=tuple(guests)))
                self._finish(state, events)
                return
            events.append(FinalRound(travellers=len(guests)))
        order = self._order(state)
        state.queue = order + order
        self._next_turn(state, events)

    # --- night -------------------------------------------------------------------

    def _next_turn(self, state: BloodyInnState, events: list[Event]) -> None:
        state.pending = None
        if not state.queue:
            self._morning(state, events)
            return
        state.stage = Stage.ACTION
        events.append(TurnStarted(seat=state.queue[0], action_round=self._action_round(state)))

    def _action_round(self, state: BloodyInnState) -> int:
        return 1 if len(state.queue) > len(self._order(state)) else 2

    def _end_turn(self, state: BloodyInnState, events: list[Event]) -> None:
        state.queue.pop(0)
        self._next_turn(state, events)

    def _pass(self, state: BloodyInnState, seat: Seat, launder: int, events: list[Event]) -> None:
        player = state.players[seat]
        player.money -= launder * CHEQUE
        player.cheques += launder
        events.append(Passed(seat=seat, launder=launder))
        self._end_turn(state, events)

    def _target_card(
        self, state: BloodyInnState, seat: Seat, card: Card, events: list[Event]
    ) -> None:
        pending = state.pending
        assert pending is not None
        player = state.players[seat]
        if pending.action is ActionKind.BUILD:
            player.hand.remove(card)
            pending.card = card
            self._to_pay(state, seat, events)
        else:
            player.corpses.remove(card)
            pending.corpses.append(card)
            self._continue(state, seat, events)

    def _continue(self, state: BloodyInnState, seat: Seat, events: list[Event]) -> None:
        """After a target: place a corpse, offer more targets, or go to payment."""
        pending = state.pending
        assert pending is not None
        if len(pending.owners) < len(pending.corpses):
            owners = self._owners_with_room(state, pending)
            if len(owners) > 1:
                state.stage = Stage.PLACE
                return
            pending.owners.append(owners[0])
        if self._has(state, seat, Effect.MULTI_TARGET, pending.action) and self._targets(
            state, seat, pending
        ):
            state.stage = Stage.TARGET
            return
        self._to_pay(state, seat, events)

    def _to_pay(self, state: BloodyInnState, seat: Seat, events: list[Event]) -> None:
        low, high = self._cost(state, seat)
        hand = state.players[seat].hand
        if high == 0:
            self._resolve(state, seat, events)
        elif low == high == len(hand):
            self._pay_all(state, seat, events)
        else:
            state.stage = Stage.PAY

    def _pay_all(self, state: BloodyInnState, seat: Seat, events: list[Event]) -> None:
        """The whole hand must be played: nothing to choose."""
        pending = state.pending
        assert pending is not None
        player = state.players[seat]
        pending.paid.extend(player.hand)
        player.hand = []
        self._resolve(state, seat, events)

    def _pay(self, state: BloodyInnState, seat: Seat, card: Card, events: list[Event]) -> None:
        pending = state.pending
        assert pending is not None
        state.players[seat].hand.remove(card)
        pending.paid.append(card)
        if len(pending.paid) == self._cost(state, seat)[1]:
            self._resolve(state, seat, events)

    def _cancel(self, state: BloodyInnState, seat: Seat, events: list[Event]) -> None:
        """Everything set aside for the pending action goes back; choose again."""
        pending = state.pending
        assert pending is not None
        player = state.players[seat]
        player.hand.extend(pending.paid)
        if pending.card is not None:
            player.hand.append(pending.card)
        player.corpses.extend(pending.corpses)
        _sort(player.hand)
        _sort(player.corpses)
        state.pending = None
        state.stage = Stage.ACTION
        events.append(ActionCancelled(actor=seat, action=pending.action))

    def _resolve(self, state: BloodyInnState, seat: Seat, events: list[Event]) -> None:
        pending = state.pending
        assert pending is not None
        player = state.players[seat]
        action = pending.action
        if pending.paid:
            returning = self._returning(state, seat, action)
            back = [c for c in pending.paid if c in returning]
            player.hand.extend(back)
            for card in pending.paid:
                if card not in returning:
                    self._discard(state, card)
            events.append(
                AccomplicesPlayed(
                    actor=seat, action=action, played=tuple(pending.paid), returned=tuple(back)
                )
            )
        state.pending = None
        state.stage = Stage.ACTION
        if action is ActionKind.BRIBE:
            cards = self._take_guests(state, pending.rooms)
            player.hand.extend(cards)
            player.hand.extend([Card.PEASANT] * pending.peasants)
            state.bistro -= pending.peasants
            events.append(
                Bribed(
                    actor=seat,
                    rooms=tuple(pending.rooms),
                    cards=tuple(cards),
                    peasants=pending.peasants,
                )
            )
        elif action is ActionKind.KILL:
            cards = self._take_guests(state, pending.rooms)
            player.corpses.extend(cards)
            player.corpses.extend([Card.PEASANT] * pending.peasants)
            state.bistro -= pending.peasants
            _sort(player.corpses)
            events.append(
                Killed(
                    actor=seat,
                    rooms=tuple(pending.rooms),
                    cards=tuple(cards),
                    peasants=pending.peasants,
                )
            )
        elif action is ActionKind.BURY:
            for corpse, owner in zip(pending.corpses, pending.owners, strict=True):
                self._bury(state, seat, owner, corpse, events)
        _sort(player.hand)
        if pending.paid or action in (ActionKind.BRIBE, ActionKind.BUILD):
            events.append(HandChanged(audience=(seat,), seat=seat, hand=tuple(player.hand)))
        if action is ActionKind.BUILD:
            assert pending.card is not None
            self._build(state, seat, pending.card, events)
            if state.stage in (Stage.KEY, Stage.SERVICE):
                return
        self._end_turn(state, events)

    def _take_guests(self, state: BloodyInnState, rooms: Sequence[int]) -> list[Card]:
        cards = [self._guest(state, r) for r in rooms]
        for r in rooms:
            state.rooms[r - 1].guest = None
        return cards

    def _build(self, state: BloodyInnState, seat: Seat, card: Card, events: list[Event]) -> None:
        player = state.players[seat]
        player.annexes.append(Annex(card=card))
        data = spec(card)
        gain = data.build_gain
        if data.effect is Effect.COLOUR_COUNT:
            same = sum(
                1 for a in player.annexes if a.card is not None and spec(a.card).type is data.type
            )
            gain += data.amount * same
        lost = self._gain(state, seat, gain)
        events.append(Built(actor=seat, card=card, gained=gain - lost, lost=lost))
        if data.effect is Effect.ROOM_KEY:
            rooms = self._white_rooms(state)
            if len(rooms) == 1:
                state.rooms[rooms[0] - 1].owner = seat
                events.append(KeyTaken(seat=seat, room=rooms[0]))
            elif rooms:
                state.stage = Stage.KEY
            else:
                events.append(EffectWasted(seat=seat, card=card))
        elif data.effect is Effect.ROOM_SERVICE:
            rooms = self._service_rooms(state)
            if len(rooms) == 1:
                state.rooms[rooms[0] - 1].service = seat
                events.append(RoomServicePlaced(seat=seat, room=rooms[0]))
            elif rooms:
                state.stage = Stage.SERVICE
            else:
                events.append(EffectWasted(seat=seat, card=card))

    def _bury(
        self, state: BloodyInnState, seat: Seat, owner: Seat, corpse: Card, events: list[Event]
    ) -> None:
        """Under the owner's annex with the most room left (RULING: the engine picks
        it; which annex holds a corpse changes nothing in the game). Its pocket money
        is split in two when the annex is another player's."""
        annex = max(state.players[owner].annexes, key=self._free_room)
        annex.corpses.append(corpse)
        money = spec(corpse).pocket
        if owner == seat:
            gained, owner_gained = money, 0
            lost = self._gain(state, seat, money)
            gained -= lost
        else:
            half = money // 2
            lost_actor = self._gain(state, seat, half)
            lost_owner = self._gain(state, owner, money - half)
            gained, owner_gained = half - lost_actor, money - half - lost_owner
            lost = lost_actor + lost_owner
        events.append(
            Buried(
                actor=seat,
                owner=owner,
                corpse=corpse,
                annex=annex.card,
                gained=gained,
                owner_gained=owner_gained,
                lost=lost,
            )
        )

    # --- morning -------------------------------------------------------------------

    def _morning(self, state: BloodyInnState, events: list[Event]) -> None:
        """Police investigation, travellers leave, wages; then dismissals if any."""
        order = self._order(state)
        police = [
            room.guest
            for room in state.rooms
            if room.guest is not None and spec(room.guest).type is GuestType.POLICE
        ]
        if police:
            events.append(PoliceInvestigation(cards=tuple(police)))
            for seat in order:
                if not state.players[seat].corpses:
                    continue
                if state.seats == 1:
                    self._solo_loss(state, seat, events)
                    return
                self._undertaker(state, seat, cheques_first=True, events=events)
        for seat in order:
            player = state.players[seat]
            rooms = sum(1 for room in state.rooms if room.owner == seat and room.guest is not None)
            gardens = sum(
                spec(a.card).amount
                for a in player.annexes
                if a.card is not None and spec(a.card).effect is Effect.ROUND_INCOME
            )
            if rooms or gardens:
                lost = self._gain(state, seat, rooms + gardens)
                events.append(RoomIncome(seat=seat, rooms=rooms, gardens=gardens, lost=lost))
        left = self._clear_rooms(state)
        if left:
            events.append(TravellersLeft(cards=tuple(left)))
        for seat in order:
            self._wages(state, seat, events)
        state.stage = Stage.DISMISS

    def _undertaker(
        self, state: BloodyInnState, seat: Seat, *, cheques_first: bool, events: list[Event]
    ) -> None:
        """10 F per unburied corpse, as much as the player can pay; corpses to the box.
        RULING: at a police investigation cheques are used first (the track money is
        kept for the wages); at the end of the game the track is used first."""
        player = state.players[seat]
        corpses = list(player.corpses)
        money = cheques = unpaid = 0
        for _ in corpses:
            if cheques_first and player.cheques:
                player.cheques -= 1
                cheques += 1
            elif player.money >= UNDERTAKER_FEE:
                player.money -= UNDERTAKER_FEE
                money += UNDERTAKER_FEE
            elif player.cheques:
                player.cheques -= 1
                cheques += 1
            else:
                money += player.money
                unpaid += UNDERTAKER_FEE - player.money
                player.money = 0
        state.box.extend(corpses)
        player.corpses = []
        events.append(
            UndertakerPaid(
                seat=seat, corpses=tuple(corpses), money=money, cheques=cheques, unpaid=unpaid
            )
        )

    def _wages(self, state: BloodyInnState, seat: Seat, events: list[Event]) -> None:
        """1 F per accomplice (no cheques); each Distillery keeps one unpaid."""
        player = state.players[seat]
        count = len(player.hand)
        if not count:
            return
        free = min(
            count,
            sum(
                spec(a.card).amount
                for a in player.annexes
                if a.card is not None and spec(a.card).effect is Effect.FREE_WAGE
            ),
        )
        due = count - free
        paid = min(player.money, due)
        player.money -= paid
        events.append(
            WagesPaid(seat=seat, accomplices=count, free=free, paid=paid, unpaid=due - paid)
        )
        if due > paid:
            state.dismissals.append(Dismissal(seat=seat, count=due - paid))

    def _dismiss(self, state: BloodyInnState, seat: Seat, card: Card, events: list[Event]) -> None:
        player = state.players[seat]
        player.hand.remove(card)
        self._discard(state, card)
        events.append(AccompliceLeft(seat=seat, card=card))
        head = state.dismissals[0]
        head.count -= 1
        if head.count == 0:
            state.dismissals.pop(0)
            events.append(HandChanged(audience=(seat,), seat=seat, hand=tuple(player.hand)))

    def _end_of_round(self, state: BloodyInnState, events: list[Event]) -> None:
        if state.final_round:
            self._finish(state, events)
            return
        state.first_player = self._next_active(state, state.first_player)
        events.append(FirstPlayerPassed(seat=state.first_player))
        state.round += 1
        self._start_round(state, events)

    def _start_round(self, state: BloodyInnState, events: list[Event]) -> None:
        state.stage = Stage.WELCOME
        events.append(RoundStarted(round=state.round, seat=state.first_player, season=state.season))

    # --- the stage machine -------------------------------------------------------------

    def _advance(self, state: BloodyInnState, events: list[Event]) -> None:
        """Run the automatic steps until someone must decide (or the game is over)."""
        while True:
            stage = state.stage
            if stage is Stage.WELCOME:
                if self._welcome(state, events):
                    return
            elif stage is Stage.DISMISS:
                if not state.dismissals:
                    self._end_of_round(state, events)
                    continue
                head = state.dismissals[0]
                hand = state.players[head.seat].hand
                if head.count < len(hand):
                    return
                for card in list(hand):
                    self._dismiss(state, head.seat, card, events)
            else:
                return

    # --- end of the game -----------------------------------------------------------------

    def _finish(self, state: BloodyInnState, events: list[Event]) -> None:
        """Undertaker for the corpses left, end-game annex bonuses, scores, winners."""
        order = self._order(state)
        for seat in order:
            if state.players[seat].corpses:
                if state.seats == 1:
                    self._solo_loss(state, seat, events)
                    return
                self._undertaker(state, seat, cheques_first=False, events=events)
        for seat in order:
            self._end_bonuses(state, seat, events)
        self._close(state, order, events)

    def _end_bonuses(self, state: BloodyInnState, seat: Seat, events: list[Event]) -> None:
        """Park, Grocery, Bishopric, Stables: per card of their colour in the Exit;
        Greenhouse: per cheque held when the bonuses are counted (RULING)."""
        player = state.players[seat]
        cheques = player.cheques
        exit_types = Counter(spec(c).type for c in state.exit)
        for annex in player.annexes:
            if annex.card is None:
                continue
            data = spec(annex.card)
            if data.effect is Effect.EXIT_BONUS:
                amount = data.amount * exit_types[data.type]
            elif data.effect is Effect.CHEQUE_BONUS:
                amount = data.amount * cheques
            else:
                continue
            lost = self._gain(state, seat, amount)
            events.append(EndBonus(seat=seat, card=annex.card, amount=amount, lost=lost))

    def _close(self, state: BloodyInnState, contenders: list[Seat], events: list[Event]) -> None:
        """Scores; the best score wins, then most corpses under one's own annexes;
        still tied: a draw between them (all are winners)."""
        state.standings = [
            Standing(
                seat=seat,
                money=p.money,
                cheques=p.cheques,
                score=p.money + CHEQUE * p.cheques,
                buried_own=sum(len(a.corpses) for a in p.annexes),
            )
            for seat, p in enumerate(state.players)
        ]
        for standing in state.standings:
            if state.players[standing.seat].active:
                events.append(FinalScore(**standing.model_dump()))
        ranked = [state.standings[s] for s in contenders]
        winners: list[Seat] = []
        if ranked and not state.solo_lost:
            best = max((s.score, s.buried_own) for s in ranked)
            winners = sorted(s.seat for s in ranked if (s.score, s.buried_own) == best)
        state.winners = winners
        long_solo = state.seats == 1 and state.options.length is Length.LONG
        for winner in winners:
            score = state.standings[winner].score
            events.append(
                GameWon(
                    winner=winner,
                    score=score,
                    shared=len(winners) > 1,
                    solo_rank=solo_rank(score) if long_solo else None,
                )
            )
        state.stage = Stage.OVER
        state.queue = []
        state.pending = None
        state.dismissals = []

    def _solo_loss(self, state: BloodyInnState, seat: Seat, events: list[Event]) -> None:
        """Solo: an unburied corpse at a police investigation or at the end loses."""
        events.append(SoloLost(seat=seat, corpses=len(state.players[seat].corpses)))
        state.solo_lost = True
        self._close(state, [], events)

    # --- forfeit (a moderator removes a player) ----------------------------------------

    def _forfeit(self, state: BloodyInnState, seat: Seat) -> list[Event]:
        """The player leaves the table: its hand goes (to the Exit, peasants to the
        bistro), its unburied corpses to the box, its keys turn white, its
        room-service tokens go; its annexes stay but take no more corpses. An
        action being prepared (by anyone) is cancelled: its player chooses again.
        A removed first player who is welcoming travellers hands the Evening to
        the next player at once; otherwise the first-player card passes on as
        usual at the end of the round, to the next player still in the game.
        With one player left in a multiplayer game, that player wins at once;
        with nobody left, the game ends without a winner."""
        player = state.players[seat]
        if not player.active:
            raise NotPrompted(seat, "already removed")
        events: list[Event] = [PlayerRemoved(seat=seat)]
        pending = state.pending
        head = state.queue[0] if state.queue else None
        if pending is not None and state.stage in _PREPARING:
            assert head is not None
            self._cancel(state, head, events)
        for card in player.hand:
            self._discard(state, card)
        player.hand = []
        state.box.extend(player.corpses)
        player.corpses = []
        player.active = False
        for room in state.rooms:
            if room.owner == seat:
                room.owner = None
            if room.service == seat:
                room.service = None
        state.dismissals = [d for d in state.dismissals if d.seat != seat]
        if state.first_player == seat and state.stage is Stage.WELCOME:
            state.first_player = self._next_active(state, seat)
        active = self._order(state)
        if len(active) <= 1 and (state.seats > 1 or not active):
            self._close(state, active, events)
        elif head == seat and state.stage in _NIGHT_STAGES:
            state.queue = [s for s in state.queue if s != seat]
            self._next_turn(state, events)
        else:
            state.queue = [s for s in state.queue if s != seat]
        self._advance(state, events)
        state.moment += 1
        return events

    # --- views and result ----------------------------------------------------------------

    def view(self, state: BloodyInnState, seat: Seat | None) -> BloodyInnView:
        """What ``seat`` may know. The view shares the state's (public) Room and Annex
        objects and options instead of copying them: treat it as read only."""
        awaiting = self.awaiting(state)
        pending = state.pending
        night = state.stage in _NIGHT_STAGES
        pending_view = None
        if pending is not None and state.queue:
            chosen = pending.action is not ActionKind.BUILD or pending.card is not None
            low, high = self._cost(state, state.queue[0]) if chosen else (0, 0)
            pending_view = PendingView.model_construct(
                actor=state.queue[0],
                action=pending.action,
                rooms=list(pending.rooms),
                peasants=pending.peasants,
                card=pending.card,
                corpses=list(pending.corpses),
                owners=list(pending.owners),
                paid_count=len(pending.paid),
                min_cards=low,
                max_cards=high,
            )
        view = BloodyInnView.model_construct(
            viewer=seat,
            options=state.options,
            round=state.round,
            season=state.season,
            final_round=state.final_round,
            stage=state.stage,
            first_player=state.first_player,
            turn=state.queue[0] if night else None,
            action_round=self._action_round(state) if night else None,
            awaiting=awaiting,
            rooms=list(state.rooms),
            entrance_size=len(state.entrance),
            entrance_top=state.entrance[-1] if state.entrance else None,
            drawn=state.drawn,
            exit=list(state.exit),
            bistro=state.bistro,
            box=list(state.box),
            box_unseen=len(state.box_unseen),
            box_peasants=state.box_peasants,
            players=[self._player_view(state, s, seat) for s in range(state.seats)],
            pending=pending_view,
            dismissing=state.dismissals[0].model_copy() if state.stage is Stage.DISMISS else None,
            standings=list(state.standings),
            winners=None if state.winners is None else list(state.winners),
            solo_lost=state.solo_lost,
            prompt=self._prompt_of(state, seat) if seat in awaiting else None,
        )
        if seat is not None and pending_view is not None and pending_view.actor == seat:
            assert pending is not None
            view.paying = list(pending.paid)
        return view

    def _player_view(self, state: BloodyInnState, seat: Seat, viewer: Seat | None) -> PlayerView:
        player = state.players[seat]
        return PlayerView.model_construct(
            seat=seat,
            active=player.active,
            money=player.money,
            cheques=player.cheques,
            hand_size=len(player.hand),
            hand=list(player.hand) if seat == viewer else None,
            annexes=list(player.annexes),
            corpses=list(player.corpses),
        )

    def result(self, state: BloodyInnState) -> Result | None:
        if state.stage is not Stage.OVER or state.winners is None:
            return None
        return Result(winners=tuple(state.winners), scores=tuple(s.score for s in state.standings))

    # --- helpers -------------------------------------------------------------------------

    def _gain(self, state: BloodyInnState, seat: Seat, amount: int) -> int:
        """Add money to the track; returns the F lost over the 40 F cap. With
        unlimited wealth, each time the track passes 40 F, 40 F become 4 cheques."""
        player = state.players[seat]
        player.money += amount
        if state.options.unlimited_wealth:
            while player.money > WEALTH_CAP:
                player.money -= WEALTH_CAP
                player.cheques += WEALTH_CAP // CHEQUE
            return 0
        lost = max(0, player.money - WEALTH_CAP)
        player.money -= lost
        return lost

    @staticmethod
    def _discard(state: BloodyInnState, card: Card) -> None:
        """A card leaving a hand: peasants to the bistro, travellers to the Exit."""
        if card is Card.PEASANT:
            state.bistro += 1
        else:
            state.exit.append(card)

    @staticmethod
    def _clear_rooms(state: BloodyInnState) -> list[Card]:
        """All travellers in rooms go to the Exit stack, living side up."""
        left = [room.guest for room in state.rooms if room.guest is not None]
        for room in state.rooms:
            room.guest = None
        state.exit.extend(left)
        return left

    @staticmethod
    def _order(state: BloodyInnState) -> list[Seat]:
        """Players still in the game, clockwise from the first player."""
        return [
            (state.first_player + i) % state.seats
            for i in range(state.seats)
            if state.players[(state.first_player + i) % state.seats].active
        ]

    @staticmethod
    def _next_active(state: BloodyInnState, seat: Seat) -> Seat:
        for step in range(1, state.seats + 1):
            candidate = (seat + step) % state.seats
            if state.players[candidate].active:
                return candidate
        return seat


def _prompt(
    seat: Seat,
    kind: PromptKind,
    window: str,
    choices: tuple[BloodyInnChoice, ...],
    default: BloodyInnChoice,
) -> BloodyInnPrompt:
    return BloodyInnPrompt.model_construct(
        player=seat, kind=kind, window=window, choices=choices, default=default
    )


def _kinds(cards: Sequence[Card]) -> list[Card]:
    """The distinct kinds among ``cards``, in table order."""
    return sorted(set(cards), key=ORDER.__getitem__)


def _sort(cards: list[Card]) -> None:
    cards.sort(key=ORDER.__getitem__)


def _cheapest(cards: Sequence[Card], returning: set[Card] | None = None) -> Card:
    """The card cheapest to play or lose: one that comes back, then a peasant
    (it only goes to the bistro), then the lowest rank."""
    back = returning or set()
    return min(
        cards,
        key=lambda c: (c not in back, c is not Card.PEASANT, rank(c), ORDER[c]),
    )


GAME = BloodyInn()
