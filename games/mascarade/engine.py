"""Mascarade rules: a state machine over MascaradeState.

A turn is TURN -> (DECIDE | CONTEST -> power stages -> DECIDE). Exactly one
player is asked at a time, so every choice opens a new decision moment.

An announcement resolves as: contest round (one player after the other from
the announcer's left) -> reveal of every claimant if someone contested -> the
power of each true claimant (or of the unrevealed announcer), with its own
choices -> the false claimants' fines -> the end checks (13 coins, then
bankruptcy; the Cheat wins at once inside its power) -> the next turn.

Knowledge: ``state.knowledge[seat]`` is what a seat last saw on each place
(``state.public``: what the whole table saw). Seeing a card (opening deal, a
look, a Spy look, a reveal) writes a fresh memory; a possible swap moves the
swapper's memories with the cards (it knows what it did) and marks everyone
else's memories of those two places stale. Views show nothing else of the cards.
"""

from __future__ import annotations

from functools import cache
from typing import ClassVar

from games.base import (
    Event,
    Game,
    NotPrompted,
    Prompt,
    PromptKind,
    Result,
    Seat,
    trusted,
)

from .cards import (
    BANK_GAINS,
    BISHOP_TAKES,
    CHEAT_COINS,
    FINE,
    FORCED_SWAP_TURNS,
    INQUISITOR_FINE,
    PEASANT_PAIR_GAIN,
    START_COINS,
    THIEF_TAKES,
    WIDOW_TARGET,
    WINNING_COINS,
    Character,
    character_set,
    distinct,
    hand_size,
)
from .models import (
    CHOICE_ADAPTER,
    CHOICE_TYPES,
    EVENT_ADAPTER,
    Announce,
    Announced,
    Announcement,
    AnnouncementCancelled,
    AnnouncementView,
    CardRef,
    CardRevealed,
    CardSeen,
    CheatFailed,
    ChooseCard,
    ChoosePlayer,
    Claim,
    CoinsFromBank,
    CoinsTaken,
    Contest,
    Contested,
    CourthouseTaken,
    Decide,
    FinePaid,
    FortuneKept,
    FortunesSwapped,
    GameWon,
    Guess,
    Guessed,
    Knowledge,
    Look,
    Looked,
    MascaradeChoice,
    MascaradeOptions,
    MascaradeState,
    MascaradeView,
    Memory,
    Pass,
    PendingSwap,
    PlayerRemoved,
    PlayerView,
    PowerUsed,
    Questioned,
    Reveal,
    Stage,
    StayedSilent,
    Swap,
    SwapCause,
    SwapDecided,
    SwapDone,
    SwapPrepared,
    SwapView,
    TurnStarted,
    WinReason,
    flat_place,
)

MascaradePrompt = Prompt[MascaradeChoice]

_AUTOMATIC_STAGES = (
    Stage.BISHOP,
    Stage.SPY,
    Stage.FOOL_FIRST,
    Stage.FOOL_SECOND,
    Stage.INQUISITOR,
)
"""Power stages settled without asking when only one answer is possible."""
PROTECTED_SLOT = 2
"""Two-player game: the middle card of each player."""


class Mascarade(Game[MascaradeState, MascaradeOptions, MascaradeChoice, MascaradeView]):
    name: ClassVar[str] = "mascarade"
    title: ClassVar[str] = "Mascarade"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 13
    typical_players: ClassVar[int] = 6
    options_model = MascaradeOptions
    state_model = MascaradeState
    choice_adapter = CHOICE_ADAPTER
    choice_types = CHOICE_TYPES
    event_adapter = EVENT_ADAPTER

    # --- setup ---------------------------------------------------------------

    def setup(self, players: int, options: MascaradeOptions, seed: int) -> MascaradeState:
        """Deal face up (everyone's memory holds every card), then face down."""
        characters = character_set(players, options.characters)
        rng, first = self._start(players, options, seed)
        hand = hand_size(players)
        deck = list(characters)
        rng.shuffle(deck)
        return MascaradeState(
            seats=players,
            rng=rng,
            options=options,
            characters=list(characters),
            hand_size=hand,
            centre_size=len(deck) - players * hand,
            cards=deck,
            coins=[START_COINS] * players,
            in_play=[True] * players,
            knowledge=[Knowledge.of_deal(deck) for _ in range(players)],
            public=Knowledge.of_deal(deck),
            stage=Stage.TURN,
            turn=first,
            must_swap=True,
        )

    # --- places --------------------------------------------------------------

    @staticmethod
    def place(state: MascaradeState, seat: Seat | None, slot: int) -> int:
        """The flat index of a seat's card (seat None: a centre card)."""
        return flat_place(state.seats, state.hand_size, seat, slot)

    @staticmethod
    def ref(state: MascaradeState, place: int) -> CardRef:
        seat, slot = divmod(place, state.hand_size)
        if seat >= state.seats:
            return CardRef(seat=None, slot=place - state.seats * state.hand_size)
        return CardRef(seat=seat, slot=slot)

    @staticmethod
    def takeable_slots(state: MascaradeState, seat: Seat) -> range:
        """The slots of ``seat`` another player may take (never the protected card).
        The same slots are the ones one may announce with on one's own turn."""
        return range(min(state.hand_size, PROTECTED_SLOT))

    # --- prompts -------------------------------------------------------------

    def _awaiting(self, state: MascaradeState) -> list[Seat]:
        """Who is being asked something now (never more than one player)."""
        stage = state.stage
        if stage is Stage.OVER:
            return []
        if stage is Stage.TURN:
            return [state.turn]
        if stage is Stage.DECIDE:
            assert state.swap is not None
            return [state.swap.actor]
        announcement = state.announcement
        assert announcement is not None
        if stage is Stage.CONTEST:
            return announcement.to_ask[:1]
        if stage is Stage.GUESS:
            assert announcement.questioned is not None
            return [announcement.questioned]
        assert announcement.user is not None
        return [announcement.user.seat]

    def _prompt_of(self, state: MascaradeState, seat: Seat) -> MascaradePrompt:
        """The prompt of a seat known to be awaited."""
        stage = state.stage
        kind = PromptKind.CHOICE
        choices: tuple[MascaradeChoice, ...]
        if stage is Stage.TURN:
            kind = PromptKind.TURN
            choices = self.turn_choices(state)
            default: MascaradeChoice = choices[0] if state.must_swap else _LOOK
        elif stage is Stage.DECIDE:
            choices = _DECISIONS
            default = choices[0]
        elif stage is Stage.CONTEST:
            kind = PromptKind.REACTION
            choices = _contest_answers(state.hand_size)
            default = choices[-1]
        elif stage is Stage.WITCH:
            others = self.others_clockwise(state, seat)
            choices = (ChoosePlayer(target=None), *(ChoosePlayer(target=t) for t in others))
            default = choices[0]
        elif stage is Stage.GUESS:
            choices = _guesses(distinct(state.characters))
            default = min(choices, key=_guessed_name)
        else:
            choices = self._power_choices(state, seat)
            default = choices[0]
        window = f"{state.turn_number}.{state.moment}"
        return MascaradePrompt.trusted(seat, kind, window, choices, default)

    def turn_choices(self, state: MascaradeState) -> tuple[MascaradeChoice, ...]:
        """Swaps first (the first one, with the left neighbour, is the forced default),
        then looks and announcements unless the turn must be a swap."""
        return _turn_choices(
            state.turn,
            tuple(self.others_clockwise(state, state.turn)),
            state.hand_size,
            state.centre_size,
            state.must_swap,
            distinct(state.characters),
        )

    def _power_choices(self, state: MascaradeState, seat: Seat) -> tuple[MascaradeChoice, ...]:
        """Bishop's tie, Spy's card, Fool's cards, Inquisitor's target."""
        stage = state.stage
        announcement = state.announcement
        assert announcement is not None
        if stage is Stage.BISHOP:
            return tuple(ChoosePlayer(target=t) for t in self.richest_others(state, seat))
        if stage is Stage.INQUISITOR:
            return tuple(ChoosePlayer(target=t) for t in self.others_clockwise(state, seat))
        if stage is Stage.SPY:
            places = self.spy_places(state, seat)
        elif stage is Stage.FOOL_FIRST:
            places = self.fool_places(state, seat, None)
        else:
            places = self.fool_places(state, seat, announcement.fool_first)
        refs = [self.ref(state, p) for p in places]
        return tuple(ChooseCard(target=r.seat, slot=r.slot) for r in refs)

    def others_clockwise(self, state: MascaradeState, seat: Seat) -> list[Seat]:
        """The other players in play, from ``seat``'s left neighbour on."""
        others = ((seat + step) % state.seats for step in range(1, state.seats))
        return [s for s in others if state.in_play[s]]

    def richest_others(self, state: MascaradeState, seat: Seat) -> list[Seat]:
        others = self.others_clockwise(state, seat)
        top = max(state.coins[s] for s in others)
        return [s for s in others if state.coins[s] == top]

    def spy_places(self, state: MascaradeState, spy: Seat) -> list[int]:
        """Another player's card (never a protected one) or a centre card."""
        places = [
            self.place(state, t, slot)
            for t in self.others_clockwise(state, spy)
            for slot in self.takeable_slots(state, t)
        ]
        places.extend(self.place(state, None, c) for c in range(state.centre_size))
        return places

    def fool_places(self, state: MascaradeState, fool: Seat, first: int | None) -> list[int]:
        """Cards of other players the Fool may take: two players' cards when there are
        two other players or more (RULING: else two cards of the one opponent)."""
        others = self.others_clockwise(state, fool)
        if first is not None and len(others) > 1:
            owner = self.ref(state, first).seat
            others = [s for s in others if s != owner]
        places = [
            self.place(state, t, slot) for t in others for slot in self.takeable_slots(state, t)
        ]
        return [p for p in places if p != first]

    def _fool_can_swap(self, state: MascaradeState, fool: Seat) -> bool:
        others = self.others_clockwise(state, fool)
        return len(others) > 1 or (
            len(others) == 1 and len(self.takeable_slots(state, others[0])) > 1
        )

    # --- transitions -----------------------------------------------------------

    def _transition(
        self, state: MascaradeState, seat: Seat, choice: MascaradeChoice
    ) -> list[Event]:
        events: list[Event] = []
        if isinstance(choice, Swap):
            self._prepare_turn_swap(state, seat, choice, events)
        elif isinstance(choice, Decide):
            self._decide(state, choice.swap, events)
        elif isinstance(choice, Look):
            self._look(state, seat, choice.slot, events)
        elif isinstance(choice, Announce):
            self._announce(state, seat, choice, events)
        elif isinstance(choice, Contest | Pass):
            self._answer(state, seat, choice, events)
        elif isinstance(choice, ChooseCard):
            self._choose_card(state, seat, self.place(state, choice.target, choice.slot), events)
        elif isinstance(choice, ChoosePlayer):
            self._choose_player(state, seat, choice.target, events)
        elif isinstance(choice, Guess):
            self._guess(state, seat, choice.character, events)
        self._settle_forced_choices(state, events)
        state.moment += 1
        return events

    # swapping ---------------------------------------------------------------

    def _prepare_turn_swap(
        self, state: MascaradeState, seat: Seat, choice: Swap, events: list[Event]
    ) -> None:
        first = self.place(state, seat, choice.slot)
        second = self.place(state, choice.target, choice.target_slot)
        state.swap = PendingSwap(actor=seat, first=first, second=second, cause=SwapCause.TURN)
        state.stage = Stage.DECIDE
        events.append(
            SwapPrepared(
                actor=seat,
                seat=seat,
                slot=choice.slot,
                target=choice.target,
                target_slot=choice.target_slot,
                cause=SwapCause.TURN,
            )
        )

    def _decide(self, state: MascaradeState, swapped: bool, events: list[Event]) -> None:
        pending = state.swap
        assert pending is not None
        state.swap = None
        first, second = pending.first, pending.second
        if swapped:
            state.cards[first], state.cards[second] = state.cards[second], state.cards[first]
        for observer, knowledge in enumerate(state.knowledge):
            if observer != pending.actor:
                knowledge.blur(first, second)
            elif swapped:
                knowledge.follow_swap(first, second)
        state.public.blur(first, second)
        events.append(SwapDecided(audience=(pending.actor,), actor=pending.actor, swapped=swapped))
        events.append(SwapDone(actor=pending.actor))
        if pending.cause is SwapCause.TURN:
            self._next_turn(state, events)
        else:
            self._finish_power(state, events)

    # looking and revealing ---------------------------------------------------

    def _look(self, state: MascaradeState, seat: Seat, slot: int, events: list[Event]) -> None:
        events.append(Looked(seat=seat, slot=slot))
        self._show_privately(state, seat, self.place(state, seat, slot), events)
        self._next_turn(state, events)

    def _show_privately(
        self, state: MascaradeState, seat: Seat, place: int, events: list[Event]
    ) -> None:
        character = state.cards[place]
        state.knowledge[seat].see(place, character)
        ref = self.ref(state, place)
        events.append(
            CardSeen(
                audience=(seat,), seat=seat, target=ref.seat, slot=ref.slot, character=character
            )
        )

    def _reveal(self, state: MascaradeState, seat: Seat, slot: int, events: list[Event]) -> Reveal:
        """Turn a card face up for everyone, then face down again."""
        place = self.place(state, seat, slot)
        character = state.cards[place]
        for knowledge in [*state.knowledge, state.public]:
            knowledge.see(place, character)
        if seat not in state.revealed_this_turn:
            state.revealed_this_turn.append(seat)
        events.append(CardRevealed(seat=seat, slot=slot, character=character))
        return Reveal(seat=seat, slot=slot, character=character)

    # announcing and contesting ---------------------------------------------------

    def _announce(
        self, state: MascaradeState, seat: Seat, choice: Announce, events: list[Event]
    ) -> None:
        state.announcement = Announcement(
            claimant=seat,
            character=choice.character,
            slot=choice.slot,
            to_ask=self.others_clockwise(state, seat),
        )
        state.stage = Stage.CONTEST
        events.append(Announced(claimant=seat, slot=choice.slot, character=choice.character))

    def _answer(
        self, state: MascaradeState, seat: Seat, choice: Contest | Pass, events: list[Event]
    ) -> None:
        announcement = state.announcement
        assert announcement is not None
        announcement.to_ask.remove(seat)
        if isinstance(choice, Contest):
            announcement.contesters.append(Claim(seat=seat, slot=choice.slot))
            events.append(
                Contested(challenger=seat, slot=choice.slot, character=announcement.character)
            )
        else:
            announcement.silent.append(seat)
            events.append(StayedSilent(seat=seat))
        if not announcement.to_ask:
            self._resolve(state, events)

    def _resolve(self, state: MascaradeState, events: list[Event]) -> None:
        """Everyone was asked: reveal if contested, then the true claimants' powers."""
        announcement = state.announcement
        assert announcement is not None
        character = announcement.character
        announcer = Claim(seat=announcement.claimant, slot=announcement.slot)
        if not announcement.contesters:
            self._use_power(state, [announcer], revealed=False, events=events)
            return
        users: list[Claim] = []
        for claim in [announcer, *announcement.contesters]:
            reveal = self._reveal(state, claim.seat, claim.slot, events)
            announcement.revealed.append(reveal)
            if reveal.character is character:
                users.append(claim)
            else:
                announcement.fined.append(claim.seat)
        self._use_power(state, users, revealed=True, events=events)

    # powers ----------------------------------------------------------------------

    def _use_power(
        self, state: MascaradeState, users: list[Claim], revealed: bool, events: list[Event]
    ) -> None:
        announcement = state.announcement
        assert announcement is not None
        character = announcement.character
        for user in users:
            events.append(PowerUsed(seat=user.seat, character=character, revealed=revealed))
        if character is Character.PEASANT:
            gain = PEASANT_PAIR_GAIN if len(users) == 2 else BANK_GAINS[character]
            for user in users:
                self._from_bank(state, user.seat, gain, character, events)
        elif users:
            (user,) = users
            announcement.user = user
            if self._start_power(state, user.seat, character, events):
                return
        self._finish_power(state, events)

    def _start_power(
        self, state: MascaradeState, seat: Seat, character: Character, events: list[Event]
    ) -> bool:
        """Use a power; True if it waits for a choice (a power stage was entered)."""
        coins = state.coins
        if character in (Character.KING, Character.QUEEN):
            self._from_bank(state, seat, BANK_GAINS[character], character, events)
        elif character is Character.WIDOW:
            self._from_bank(state, seat, max(0, WIDOW_TARGET - coins[seat]), character, events)
        elif character is Character.JUDGE:
            events.append(CourthouseTaken(seat=seat, amount=state.courthouse))
            coins[seat] += state.courthouse
            state.courthouse = 0
        elif character is Character.THIEF:
            others = self.others_clockwise(state, seat)
            for victim in dict.fromkeys((others[0], others[-1])):
                self._take(state, seat, victim, THIEF_TAKES, character, events)
        elif character is Character.CHEAT:
            if coins[seat] >= CHEAT_COINS:
                self._win(state, [seat], WinReason.CHEAT, events)
                return True
            events.append(CheatFailed(seat=seat, coins=coins[seat]))
        elif character is Character.FOOL:
            self._from_bank(state, seat, BANK_GAINS[character], character, events)
            if self._fool_can_swap(state, seat):
                state.stage = Stage.FOOL_FIRST
                return True
        else:
            state.stage = {
                Character.BISHOP: Stage.BISHOP,
                Character.WITCH: Stage.WITCH,
                Character.SPY: Stage.SPY,
                Character.INQUISITOR: Stage.INQUISITOR,
            }[character]
            return True
        return False

    def _from_bank(
        self,
        state: MascaradeState,
        seat: Seat,
        amount: int,
        character: Character,
        events: list[Event],
    ) -> None:
        state.coins[seat] += amount
        state.bank_out += amount
        events.append(CoinsFromBank(seat=seat, amount=amount, character=character))

    @staticmethod
    def _take(
        state: MascaradeState,
        actor: Seat,
        victim: Seat,
        amount: int,
        character: Character,
        events: list[Event],
    ) -> None:
        """Take up to ``amount`` from ``victim`` (what there is, never below 0: RULING)."""
        amount = min(amount, state.coins[victim])
        state.coins[victim] -= amount
        state.coins[actor] += amount
        events.append(CoinsTaken(actor=actor, victim=victim, amount=amount, character=character))

    def _choose_card(
        self, state: MascaradeState, seat: Seat, place: int, events: list[Event]
    ) -> None:
        announcement = state.announcement
        assert announcement is not None and announcement.user is not None
        if state.stage is Stage.FOOL_FIRST:
            announcement.fool_first = place
            state.stage = Stage.FOOL_SECOND
            return
        if state.stage is Stage.FOOL_SECOND:
            assert announcement.fool_first is not None
            self._prepare_power_swap(state, seat, announcement.fool_first, place, events)
            return
        own = self.place(state, seat, announcement.user.slot)
        self._show_privately(state, seat, own, events)
        self._show_privately(state, seat, place, events)
        self._prepare_power_swap(state, seat, own, place, events)

    def _prepare_power_swap(
        self, state: MascaradeState, seat: Seat, first: int, second: int, events: list[Event]
    ) -> None:
        cause = SwapCause.SPY if state.stage is Stage.SPY else SwapCause.FOOL
        state.swap = PendingSwap(actor=seat, first=first, second=second, cause=cause)
        state.stage = Stage.DECIDE
        one, two = self.ref(state, first), self.ref(state, second)
        assert one.seat is not None
        events.append(
            SwapPrepared(
                actor=seat,
                seat=one.seat,
                slot=one.slot,
                target=two.seat,
                target_slot=two.slot,
                cause=cause,
            )
        )

    def _choose_player(
        self, state: MascaradeState, seat: Seat, target: Seat | None, events: list[Event]
    ) -> None:
        announcement = state.announcement
        assert announcement is not None
        if state.stage is Stage.INQUISITOR:
            assert target is not None
            announcement.questioned = target
            state.stage = Stage.GUESS
            events.append(Questioned(inquisitor=seat, target=target))
            return
        if state.stage is Stage.BISHOP:
            assert target is not None
            self._take(state, seat, target, BISHOP_TAKES, Character.BISHOP, events)
        elif target is None:
            events.append(FortuneKept(actor=seat))
        else:
            coins = state.coins
            coins[seat], coins[target] = coins[target], coins[seat]
            events.append(
                FortunesSwapped(
                    actor=seat, target=target, actor_coins=coins[seat], target_coins=coins[target]
                )
            )
        self._finish_power(state, events)

    def _guess(
        self, state: MascaradeState, seat: Seat, character: Character, events: list[Event]
    ) -> None:
        """The questioned player names a character, then reveals its card."""
        announcement = state.announcement
        assert announcement is not None and announcement.user is not None
        announcement.guess = character
        reveal = self._reveal(state, seat, 0, events)
        right = reveal.character is character
        events.append(Guessed(target=seat, character=character, right=right))
        if not right:
            inquisitor = announcement.user.seat
            self._take(state, inquisitor, seat, INQUISITOR_FINE, Character.INQUISITOR, events)
        self._finish_power(state, events)

    def _settle_forced_choices(self, state: MascaradeState, events: list[Event]) -> None:
        """A power stage with a single possible answer is settled without asking."""
        while state.stage in _AUTOMATIC_STAGES:
            (seat,) = self._awaiting(state)
            choices = self._power_choices(state, seat)
            if len(choices) != 1:
                return
            (choice,) = choices
            if isinstance(choice, ChooseCard):
                self._choose_card(
                    state, seat, self.place(state, choice.target, choice.slot), events
                )
            else:
                assert isinstance(choice, ChoosePlayer)
                self._choose_player(state, seat, choice.target, events)

    def _finish_power(self, state: MascaradeState, events: list[Event]) -> None:
        """The false claimants pay their fines, then the game may end; else next turn."""
        announcement = state.announcement
        assert announcement is not None
        for seat in announcement.fined:
            if not state.in_play[seat]:
                continue
            amount = min(FINE, state.coins[seat])
            state.coins[seat] -= amount
            state.courthouse += amount
            events.append(FinePaid(seat=seat, amount=amount))
        if not self._check_end(state, events):
            self._next_turn(state, events)

    # turns and the end ----------------------------------------------------------------

    def _next_turn(self, state: MascaradeState, events: list[Event]) -> None:
        revealed = state.revealed_this_turn
        state.turn = self.others_clockwise(state, state.turn)[0]
        state.turn_number += 1
        state.must_swap = state.turn_number <= FORCED_SWAP_TURNS or state.turn in revealed
        state.revealed_this_turn = []
        state.announcement = None
        state.swap = None
        state.stage = Stage.TURN
        events.append(
            TurnStarted(seat=state.turn, turn_number=state.turn_number, must_swap=state.must_swap)
        )

    def _check_end(self, state: MascaradeState, events: list[Event]) -> bool:
        """13 coins wins (several may tie); else anyone at 0 ends it: richest wins."""
        playing = [s for s in range(state.seats) if state.in_play[s]]
        rich = [s for s in playing if state.coins[s] >= WINNING_COINS]
        if rich:
            self._win(state, rich, WinReason.THIRTEEN, events)
            return True
        if any(state.coins[s] == 0 for s in playing):
            top = max(state.coins[s] for s in playing)
            richest = [s for s in playing if state.coins[s] == top]
            self._win(state, richest, WinReason.BANKRUPTCY, events)
            return True
        return False

    @staticmethod
    def _win(
        state: MascaradeState, winners: list[Seat], reason: WinReason, events: list[Event]
    ) -> None:
        state.winners = winners
        state.stage = Stage.OVER
        state.swap = None
        state.announcement = None
        events.append(GameWon(winners=tuple(winners), reason=reason))

    # --- forfeit (a moderator removes a player) -------------------------------------

    def _forfeit(self, state: MascaradeState, seat: Seat) -> list[Event]:
        """The seat leaves with its coins (back to the bank); its cards stay where they
        are but nobody can take them any more. What it was doing is dropped: its turn
        ends, its swap does not happen, its announcement is cancelled, its power is
        skipped, its contest and fine are forgotten. One player left: it wins. A seat
        already out cannot be removed again."""
        events: list[Event] = []
        if not state.in_play[seat]:
            raise NotPrompted(seat, "already out")
        before = self._prompt_signature(state)
        returned = state.coins[seat]
        state.coins[seat] = 0
        state.bank_out -= returned
        state.in_play[seat] = False
        events.append(PlayerRemoved(seat=seat, coins_returned=returned))
        playing = [s for s in range(state.seats) if state.in_play[s]]
        if len(playing) == 1:
            self._win(state, playing, WinReason.LAST_PLAYER, events)
        else:
            self._drop_from_turn(state, seat, events)
            self._settle_forced_choices(state, events)
        if self._prompt_signature(state) != before:
            state.moment += 1
        return events

    def _prompt_signature(self, state: MascaradeState) -> tuple[object, ...]:
        return tuple((p.player, p.choices) for p in self.prompts(state))

    def _drop_from_turn(self, state: MascaradeState, seat: Seat, events: list[Event]) -> None:
        stage = state.stage
        announcement = state.announcement
        if stage is Stage.TURN:
            if state.turn == seat:
                self._next_turn(state, events)
            return
        if stage is Stage.DECIDE:
            pending = state.swap
            assert pending is not None
            owners = {pending.actor, self.ref(state, pending.first).seat}
            owners.add(self.ref(state, pending.second).seat)
            if seat not in owners:
                return
            state.swap = None
            if pending.cause is not SwapCause.TURN:
                self._finish_power(state, events)
            elif pending.actor == seat:
                self._next_turn(state, events)
            else:
                state.stage = Stage.TURN  # the other card left: the turn player chooses again
            return
        assert announcement is not None
        if stage is Stage.CONTEST:
            self._drop_from_contest(state, announcement, seat, events)
            return
        assert announcement.user is not None
        if announcement.user.seat == seat or announcement.questioned == seat:
            self._finish_power(state, events)
        elif stage is Stage.FOOL_SECOND:
            assert announcement.fool_first is not None
            if self.ref(state, announcement.fool_first).seat == seat or not self.fool_places(
                state, announcement.user.seat, announcement.fool_first
            ):
                announcement.fool_first = None
                state.stage = Stage.FOOL_FIRST
        if state.stage is Stage.FOOL_FIRST and not self._fool_can_swap(
            state, announcement.user.seat
        ):
            self._finish_power(state, events)

    def _drop_from_contest(
        self,
        state: MascaradeState,
        announcement: Announcement,
        seat: Seat,
        events: list[Event],
    ) -> None:
        if announcement.claimant == seat:
            events.append(AnnouncementCancelled(claimant=seat))
            self._next_turn(state, events)
            return
        announcement.contesters = [c for c in announcement.contesters if c.seat != seat]
        announcement.silent = [s for s in announcement.silent if s != seat]
        if seat in announcement.to_ask:
            announcement.to_ask.remove(seat)
            if not announcement.to_ask:
                self._resolve(state, events)

    # --- views and result ----------------------------------------------------------

    def view(self, state: MascaradeState, seat: Seat | None) -> MascaradeView:
        """Coins, the announcement and who is asked are public; of the cards, a seat
        sees only its own memories (a spectator: what the whole table saw). Built
        without validation (``trusted``): every field comes from the state."""
        knowledge = state.public if seat is None else state.knowledge[seat]
        awaiting = self.awaiting(state)
        prompt = None if seat is None else self.prompt_for(state, seat)
        cards_of = self._memories_by_seat(state, knowledge)
        return trusted(
            MascaradeView,
            viewer=seat,
            stage=state.stage,
            turn=state.turn,
            turn_number=state.turn_number,
            must_swap=state.must_swap,
            characters=list(state.characters),
            hand_size=state.hand_size,
            protected_slot=PROTECTED_SLOT if state.hand_size > PROTECTED_SLOT else None,
            players=[
                trusted(
                    PlayerView,
                    seat=s,
                    coins=state.coins[s],
                    in_play=state.in_play[s],
                    cards=cards_of[s],
                )
                for s in range(state.seats)
            ],
            centre=cards_of[state.seats],
            courthouse=state.courthouse,
            swap=self._swap_view(state),
            announcement=self._announcement_view(state),
            awaiting=awaiting,
            winners=list(state.winners),
            prompt=prompt,
        )

    @staticmethod
    def _memories_by_seat(state: MascaradeState, knowledge: Knowledge) -> list[list[Memory | None]]:
        """The observer's memories cut into each seat's cards, the centre last."""
        memories = knowledge.memories()
        hand = state.hand_size
        cut = [memories[seat * hand : seat * hand + hand] for seat in range(state.seats)]
        cut.append(memories[state.seats * hand :])
        return cut

    def _swap_view(self, state: MascaradeState) -> SwapView | None:
        pending = state.swap
        if pending is None:
            return None
        return trusted(
            SwapView,
            actor=pending.actor,
            first=self.ref(state, pending.first),
            second=self.ref(state, pending.second),
            cause=pending.cause,
        )

    def _announcement_view(self, state: MascaradeState) -> AnnouncementView | None:
        a = state.announcement
        if a is None:
            return None
        return trusted(
            AnnouncementView,
            claimant=a.claimant,
            character=a.character,
            slot=a.slot,
            asked=a.to_ask[0] if state.stage is Stage.CONTEST and a.to_ask else None,
            to_ask=list(a.to_ask),
            contesters=list(a.contesters),
            silent=list(a.silent),
            revealed=list(a.revealed),
            user=a.user.seat if a.user is not None else None,
            fined=list(a.fined),
            fool_first=self.ref(state, a.fool_first) if a.fool_first is not None else None,
            questioned=a.questioned,
            guess=a.guess,
        )

    def result(self, state: MascaradeState) -> Result | None:
        if state.stage is not Stage.OVER:
            return None
        return Result(winners=tuple(state.winners), scores=tuple(state.coins))


_DECISIONS: tuple[MascaradeChoice, ...] = (Decide(swap=False), Decide(swap=True))
_LOOK = Look(slot=0)
"""The turn's timeout default (RULING): look at one's (first) card."""


@cache
def _contest_answers(hand: int) -> tuple[MascaradeChoice, ...]:
    """Contest with one of one's cards, or stay silent (last: the timeout default)."""
    return (*(Contest(slot=slot) for slot in range(hand)), Pass())


@cache
def _guesses(characters: tuple[Character, ...]) -> tuple[MascaradeChoice, ...]:
    return tuple(Guess(character=c) for c in characters)


def _guessed_name(choice: MascaradeChoice) -> str:
    """Sort key of the Inquisitor's guesses: the timeout default is the first
    character of the set in alphabetical order (RULING)."""
    assert isinstance(choice, Guess)
    return choice.character.value


@cache
def _turn_choices(
    seat: Seat,
    others: tuple[Seat, ...],
    hand: int,
    centre: int,
    must_swap: bool,
    characters: tuple[Character, ...],
) -> tuple[MascaradeChoice, ...]:
    """The turn choices (cached: the same few tuples come back all game long)."""
    takeable = range(min(hand, PROTECTED_SLOT))
    swaps: list[MascaradeChoice] = []
    for slot in range(hand):
        for target in others:
            swaps.extend(Swap(slot=slot, target=target, target_slot=t) for t in takeable)
        swaps.extend(Swap(slot=slot, target=None, target_slot=c) for c in range(centre))
        swaps.extend(
            Swap(slot=slot, target=seat, target_slot=other) for other in range(slot + 1, hand)
        )
    if must_swap:
        return tuple(swaps)
    looks = [_LOOK, *(Look(slot=slot) for slot in range(1, hand))]
    announcements = [
        Announce(slot=slot, character=character)
        for slot in range(min(hand, PROTECTED_SLOT))
        for character in characters
    ]
    return (*swaps, *looks, *announcements)


GAME = Mascarade()
