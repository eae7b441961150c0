"""The Bloody Inn rules: a state machine over BloodyInnState.

A round is Evening (WELCOME: the first player puts each drawn traveller in an
open room), Night (two turns per player, each ACTION -> TARGET -> (PLACE) ->
PAY -> (KEY | SERVICE), or a Pass) and Morning (police, travellers leave,
wages; only UNDERTAKER, how to pay the police's undertaker, and DISMISS ask
anything). The end of the game runs the undertaker's round too, where nobody
is asked (``scoring.cheque_range``). Only one player is ever prompted at a
time, and every applied choice opens a new decision moment (``state.moment``).

An action's targets and accomplices are chosen first and nothing happens on
the table until it resolves: the build card, the corpses and the accomplices
played wait in ``state.pending`` (out of the hand), so Cancel puts them back.

What each stage offers is built in ``prompts``, from the targets and costs of
``targets``; the end of the game (undertaker, end bonuses, scores, winners) is in
``scoring``; seat order, the money track and other small shared steps in ``table``.
"""

from __future__ import annotations

from typing import ClassVar

from games.base import Event, Game, NotPrompted, Result, Seat, trusted

from .cards import (
    CHEQUE,
    ORDER,
    PEASANTS,
    REMOVED,
    ROOMS,
    SOLO_BISTRO,
    START_CHEQUES,
    START_MONEY,
    ActionKind,
    Card,
    Effect,
    GuestType,
    rank,
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
    FinalRound,
    FinalRoundSkipped,
    FirstPlayerPassed,
    HandChanged,
    KeyRoom,
    KeyTaken,
    Killed,
    Length,
    Pass,
    Passed,
    Pay,
    PayUndertaker,
    Pending,
    PendingView,
    Place,
    PlayerRemoved,
    PlayerState,
    PoliceInvestigation,
    Room,
    RoomIncome,
    RoomServicePaid,
    RoomServicePlaced,
    RoundStarted,
    SeasonChanged,
    ServiceRoom,
    Stage,
    TargetCard,
    TargetPeasants,
    TargetRoom,
    TravellersLeft,
    TravellerWelcomed,
    TurnStarted,
    WagesPaid,
    Welcome,
    player_view,
)
from .prompts import BloodyInnPrompt, action_choices, prompt_of
from .scoring import (
    call_undertaker,
    close,
    final_accounts,
    finish,
    pay_undertaker,
    settle_undertaker,
    solo_loss,
)
from .table import (
    clear_rooms,
    discard,
    free_rooms,
    gain,
    guest,
    next_active,
    order,
    service_rooms,
    space_left,
    white_rooms,
)
from .targets import has_effect, owners_with_room, pending_cost, returning, targets

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

    def _awaiting(self, state: BloodyInnState) -> list[Seat]:
        """Who is being asked something now (never more than one player)."""
        stage = state.stage
        if stage is Stage.OVER:
            return []
        if stage is Stage.WELCOME:
            return [state.first_player]
        if stage is Stage.DISMISS:
            return [state.dismissals[0].seat]
        if stage is Stage.UNDERTAKER:
            assert state.undertaker is not None
            return [state.undertaker.owing[0]]
        return [state.queue[0]]

    def _prompt_of(self, state: BloodyInnState, seat: Seat) -> BloodyInnPrompt:
        return prompt_of(state, seat)

    def legal_actions(self, state: BloodyInnState, seat: Seat) -> tuple[BloodyInnChoice, ...]:
        """The night actions ``seat`` can afford now, then Pass with each laundering."""
        return action_choices(state, seat)

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
        elif isinstance(choice, PayUndertaker):
            pay_undertaker(state, seat, choice.cheques, events)
        self._advance(state, events)
        state.moment += 1
        return events

    # --- evening -----------------------------------------------------------------

    def _welcome(self, state: BloodyInnState, events: list[Event]) -> bool:
        """Draw and place travellers until the first player must choose a room
        (True) or the Evening is over (False: the stage moved on)."""
        while True:
            free = free_rooms(state)
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
            lost = gain(state, room.service, rank(card))
            events.append(
                RoomServicePaid(
                    seat=room.service, room=number, card=card, amount=rank(card), lost=lost
                )
            )

    def _end_evening(self, state: BloodyInnState, events: list[Event]) -> None:
        guests = [room.guest for room in state.rooms if room.guest is not None]
        if state.final_round:
            if len(guests) < len(order(state)):
                clear_rooms(state)
                events.append(FinalRoundSkipped(travellers=len(guests), cards=tuple(guests)))
                finish(state, events)
                return
            events.append(FinalRound(travellers=len(guests)))
        seats = order(state)
        state.queue = seats + seats
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
        return 1 if len(state.queue) > len(order(state)) else 2

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
            owners = owners_with_room(state, pending)
            if len(owners) > 1:
                state.stage = Stage.PLACE
                return
            pending.owners.append(owners[0])
        if has_effect(state, seat, Effect.MULTI_TARGET, pending.action) and targets(
            state, seat, pending
        ):
            state.stage = Stage.TARGET
            return
        self._to_pay(state, seat, events)

    def _to_pay(self, state: BloodyInnState, seat: Seat, events: list[Event]) -> None:
        low, high = pending_cost(state, seat)
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
        if len(pending.paid) == pending_cost(state, seat)[1]:
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
        """The prepared action happens: its accomplices are played, then its effect."""
        pending = state.pending
        assert pending is not None
        player = state.players[seat]
        action = pending.action
        if pending.paid:
            self._play_accomplices(state, seat, pending, events)
        state.pending = None
        state.stage = Stage.ACTION
        if action in (ActionKind.BRIBE, ActionKind.KILL):
            self._bribe_or_kill(state, seat, pending, events)
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

    def _play_accomplices(
        self, state: BloodyInnState, seat: Seat, pending: Pending, events: list[Event]
    ) -> None:
        """The accomplices that come back for this action (its aptitude, or all of
        them with the matching annex) return to the hand; the others are discarded."""
        coming_back = returning(state, seat, pending.action)
        back = [c for c in pending.paid if c in coming_back]
        state.players[seat].hand.extend(back)
        for card in pending.paid:
            if card not in coming_back:
                discard(state, card)
        events.append(
            AccomplicesPlayed(
                actor=seat, action=pending.action, played=tuple(pending.paid), returned=tuple(back)
            )
        )

    def _bribe_or_kill(
        self, state: BloodyInnState, seat: Seat, pending: Pending, events: list[Event]
    ) -> None:
        """The targeted travellers leave their rooms and the peasants the bistro:
        bribed, they join the hand; killed, they become the player's corpses."""
        player = state.players[seat]
        cards = [guest(state, r) for r in pending.rooms]
        for r in pending.rooms:
            state.rooms[r - 1].guest = None
        state.bistro -= pending.peasants
        taken = [*cards, *[Card.PEASANT] * pending.peasants]
        event: type[Bribed | Killed]
        if pending.action is ActionKind.BRIBE:
            player.hand.extend(taken)
            event = Bribed
        else:
            player.corpses.extend(taken)
            _sort(player.corpses)
            event = Killed
        events.append(
            event(
                actor=seat,
                rooms=tuple(pending.rooms),
                cards=tuple(cards),
                peasants=pending.peasants,
            )
        )

    def _build(self, state: BloodyInnState, seat: Seat, card: Card, events: list[Event]) -> None:
        player = state.players[seat]
        player.annexes.append(Annex(card=card))
        data = spec(card)
        earned = data.build_gain
        if data.effect is Effect.COLOUR_COUNT:
            same = sum(
                1 for a in player.annexes if a.card is not None and spec(a.card).type is data.type
            )
            earned += data.amount * same
        lost = gain(state, seat, earned)
        events.append(Built(actor=seat, card=card, gained=earned - lost, lost=lost))
        if data.effect is Effect.ROOM_KEY:
            rooms = white_rooms(state)
            if len(rooms) == 1:
                state.rooms[rooms[0] - 1].owner = seat
                events.append(KeyTaken(seat=seat, room=rooms[0]))
            elif rooms:
                state.stage = Stage.KEY
            else:
                events.append(EffectWasted(seat=seat, card=card))
        elif data.effect is Effect.ROOM_SERVICE:
            rooms = service_rooms(state)
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
        annex = max(state.players[owner].annexes, key=space_left)
        annex.corpses.append(corpse)
        money = spec(corpse).pocket
        if owner == seat:
            gained, owner_gained = money, 0
            lost = gain(state, seat, money)
            gained -= lost
        else:
            half = money // 2
            lost_actor = gain(state, seat, half)
            lost_owner = gain(state, owner, money - half)
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
        """Police investigation (the undertaker's round, Stage.UNDERTAKER, which then
        calls ``_leave_and_wages``), else travellers leave and wages at once."""
        police = [
            room.guest
            for room in state.rooms
            if room.guest is not None and spec(room.guest).type is GuestType.POLICE
        ]
        if not police:
            self._leave_and_wages(state, events)
            return
        events.append(PoliceInvestigation(cards=tuple(police)))
        for seat in order(state):
            if state.seats == 1 and state.players[seat].corpses:
                solo_loss(state, seat, events)
                return
        call_undertaker(state, end=False)

    def _leave_and_wages(self, state: BloodyInnState, events: list[Event]) -> None:
        """The rest of the Morning: rooms pay, travellers leave, wages; then the
        dismissals if any (Stage.DISMISS)."""
        seats = order(state)
        for seat in seats:
            self._room_income(state, seat, events)
        left = clear_rooms(state)
        if left:
            events.append(TravellersLeft(cards=tuple(left)))
        for seat in seats:
            self._wages(state, seat, events)
        state.stage = Stage.DISMISS

    def _room_income(self, state: BloodyInnState, seat: Seat, events: list[Event]) -> None:
        """1 F per own room with a guest, plus the Gardens' income."""
        player = state.players[seat]
        rooms = sum(1 for room in state.rooms if room.owner == seat and room.guest is not None)
        gardens = sum(
            spec(a.card).amount
            for a in player.annexes
            if a.card is not None and spec(a.card).effect is Effect.ROUND_INCOME
        )
        if rooms or gardens:
            lost = gain(state, seat, rooms + gardens)
            events.append(RoomIncome(seat=seat, rooms=rooms, gardens=gardens, lost=lost))

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
        discard(state, card)
        events.append(AccompliceLeft(seat=seat, card=card))
        head = state.dismissals[0]
        head.count -= 1
        if head.count == 0:
            state.dismissals.pop(0)
            events.append(HandChanged(audience=(seat,), seat=seat, hand=tuple(player.hand)))

    def _end_of_round(self, state: BloodyInnState, events: list[Event]) -> None:
        if state.final_round:
            finish(state, events)
            return
        state.first_player = next_active(state, state.first_player)
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
            elif stage is Stage.UNDERTAKER:
                if settle_undertaker(state, events):
                    return
                visit = state.undertaker
                assert visit is not None
                state.undertaker = None
                if visit.end:
                    final_accounts(state, events)
                else:
                    self._leave_and_wages(state, events)
            else:
                return

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
            discard(state, card)
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
        if state.undertaker is not None:
            state.undertaker.owing = [s for s in state.undertaker.owing if s != seat]
        if state.first_player == seat and state.stage is Stage.WELCOME:
            state.first_player = next_active(state, seat)
        active = order(state)
        if len(active) <= 1 and (state.seats > 1 or not active):
            close(state, active, events)
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
        pending_view = self._pending_view(state)
        view = trusted(
            BloodyInnView,
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
            players=[player_view(state, s, seat) for s in range(state.seats)],
            pending=pending_view,
            dismissing=state.dismissals[0].model_copy() if state.stage is Stage.DISMISS else None,
            undertaker=None if state.undertaker is None else state.undertaker.model_copy(deep=True),
            standings=list(state.standings),
            winners=None if state.winners is None else list(state.winners),
            solo_lost=state.solo_lost,
            prompt=None if seat is None else self.prompt_for(state, seat),
        )
        if seat is not None and pending_view is not None and pending_view.actor == seat:
            assert pending is not None
            view.paying = list(pending.paid)
        return view

    @staticmethod
    def _pending_view(state: BloodyInnState) -> PendingView | None:
        """The action being prepared, its accomplices counted but not shown."""
        pending = state.pending
        if pending is None or not state.queue:
            return None
        chosen = pending.action is not ActionKind.BUILD or pending.card is not None
        low, high = pending_cost(state, state.queue[0]) if chosen else (0, 0)
        return trusted(
            PendingView,
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

    def result(self, state: BloodyInnState) -> Result | None:
        if state.stage is not Stage.OVER or state.winners is None:
            return None
        return Result(winners=tuple(state.winners), scores=tuple(s.score for s in state.standings))


def _sort(cards: list[Card]) -> None:
    cards.sort(key=ORDER.__getitem__)


GAME = BloodyInn()
