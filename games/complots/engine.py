"""Complots rules: a state machine over ComplotsState.

A turn goes ACTION -> (REACT | BLOCK) -> (BLOCK_CHALLENGE) -> RESOLVE ->
(EXCHANGE | EXAMINE_SHOW -> EXAMINE_DECIDE) -> END_TURN. Influence losses are
queued in ``state.losses`` and always settled (the loser chooses) before the
stage machine moves on, so "the challenge is resolved before the block".
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations
from typing import ClassVar

from games.base import (
    Event,
    Game,
    NotPrompted,
    Prompt,
    PromptKind,
    Result,
    Rng,
    Seat,
    trusted,
)

from .cards import (
    FORCED_COUP_COINS,
    STEAL_AMOUNT,
    ActionKind,
    ActionRule,
    BlockScope,
    Character,
    Variant,
    action_rule,
    actions_of,
    copies_per_character,
    deck_characters,
    exchange_draw_count,
)
from .models import (
    CHOICE_ADAPTER,
    CHOICE_TYPES,
    EVENT_ADAPTER,
    Act,
    ActionBlocked,
    ActionDeclared,
    ActionFizzled,
    Block,
    BlockClaim,
    BlockDeclared,
    CardDrawn,
    CardsDealt,
    CardShown,
    Challenge,
    Challenged,
    ClaimFailed,
    ClaimProved,
    CoinsRefunded,
    CoinsStolen,
    CoinsTaken,
    ComplotsChoice,
    ComplotsOptions,
    ComplotsState,
    ComplotsView,
    ExamineStarted,
    ExamineVerdict,
    ExchangeDone,
    ExchangeOffered,
    ExchangeStarted,
    GameWon,
    HandChanged,
    Influence,
    InfluenceLost,
    Keep,
    LossReason,
    Pass,
    Passed,
    PendingAction,
    PendingLoss,
    PendingView,
    Pick,
    PickMade,
    PlayerEliminated,
    PlayerRemoved,
    PlayerState,
    PlayerView,
    Reveal,
    Show,
    Stage,
    TurnStarted,
    Verdict,
)

ComplotsPrompt = Prompt[ComplotsChoice]

_WINDOW_STAGES = (Stage.REACT, Stage.BLOCK, Stage.BLOCK_CHALLENGE)
_EXAMINE_STAGES = (Stage.EXAMINE_SHOW, Stage.EXAMINE_DECIDE)


class Complots(Game[ComplotsState, ComplotsOptions, ComplotsChoice, ComplotsView]):
    name: ClassVar[str] = "complots"
    title: ClassVar[str] = "Complots"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    typical_players: ClassVar[int] = 4
    options_model = ComplotsOptions
    state_model = ComplotsState
    choice_adapter = CHOICE_ADAPTER
    choice_types = CHOICE_TYPES
    event_adapter = EVENT_ADAPTER

    # --- setup ---------------------------------------------------------------

    def setup(self, players: int, options: ComplotsOptions, seed: int) -> ComplotsState:
        rng, first = self._start(players, options, seed)
        if players == 2:
            return self._setup_two_players(options, rng, first)
        characters = deck_characters(options.variant)
        deck = [c for c in characters for _ in range(copies_per_character(players))]
        rng.shuffle(deck)
        seats = [
            PlayerState(coins=2, cards=[Influence(character=deck.pop()) for _ in range(2)])
            for _ in range(players)
        ]
        return ComplotsState(
            seats=players,
            rng=rng,
            options=options,
            players=seats,
            court=deck,
            deck_size=len(characters) * copies_per_character(players),
            stage=Stage.ACTION,
            turn=first,
        )

    def _setup_two_players(self, options: ComplotsOptions, rng: Rng, first: Seat) -> ComplotsState:
        """Three packets of the five characters: one per player to pick from, one
        shuffled third packet dealt (one each) once both have picked, rest = Court."""
        characters = list(deck_characters(options.variant))
        third = list(characters)
        rng.shuffle(third)
        seats = [
            PlayerState(coins=1 if seat == first else 2, packet=list(characters))
            for seat in range(2)
        ]
        return ComplotsState(
            seats=2,
            rng=rng,
            options=options,
            players=seats,
            court=[],
            deck_size=3 * len(characters),
            stage=Stage.PICK,
            turn=first,
            third_packet=third,
        )

    # --- prompts -------------------------------------------------------------

    def _awaiting(self, state: ComplotsState) -> list[Seat]:
        """Who is being asked something now, in seat order (cheap: no choices built)."""
        stage = state.stage
        if stage is Stage.OVER:
            return []
        if state.losses:
            return [state.losses[0].seat]
        if stage is Stage.PICK:
            return [seat for seat, player in enumerate(state.players) if player.packet]
        if stage is Stage.ACTION:
            return [state.turn]
        if stage in _WINDOW_STAGES:
            challengers, blockers = self._window_roles(state)
            return sorted((challengers | blockers) - set(state.passed))
        pending = state.pending
        assert pending is not None
        if stage is Stage.EXAMINE_SHOW:
            assert pending.target is not None
            return [pending.target]
        if stage in (Stage.EXCHANGE, Stage.EXAMINE_DECIDE):
            return [pending.actor]
        return []

    def _prompt_of(self, state: ComplotsState, seat: Seat) -> ComplotsPrompt:
        """The prompt of a seat known to be awaited."""
        window = f"{state.turn_number}.{state.moment}"
        stage = state.stage
        if state.losses:
            return self._card_prompt(state, seat, window, Reveal)
        if stage is Stage.PICK:
            return self._pick_prompt(state, seat, window)
        if stage is Stage.ACTION:
            return self._turn_prompt(state, window)
        if stage in _WINDOW_STAGES:
            choices = self._window_answers(state, seat)
            return self._prompt(seat, PromptKind.REACTION, window, choices, _PASS)
        pending = state.pending
        assert pending is not None
        if stage is Stage.EXCHANGE:
            return self._exchange_prompt(state, pending, window)
        if stage is Stage.EXAMINE_SHOW:
            return self._card_prompt(state, seat, window, Show)
        return self._prompt(seat, PromptKind.CHOICE, window, _VERDICTS, _VERDICTS[0])

    @staticmethod
    def _prompt(
        seat: Seat,
        kind: PromptKind,
        window: str,
        choices: tuple[ComplotsChoice, ...],
        default: ComplotsChoice,
    ) -> ComplotsPrompt:
        return ComplotsPrompt.trusted(seat, kind, window, choices, default)

    def _pick_prompt(self, state: ComplotsState, seat: Seat, window: str) -> ComplotsPrompt:
        choices = tuple(_pick(c) for c in state.players[seat].packet)
        default = choices[self._peek(state, seat, len(choices))]
        return self._prompt(seat, PromptKind.CHOICE, window, choices, default)

    def canonical(self, choice: ComplotsChoice) -> ComplotsChoice:
        """The cards kept in an exchange in any order: sorted, as the prompt offers them."""
        if isinstance(choice, Keep):
            return Keep(cards=tuple(sorted(choice.cards)))
        return choice

    def legal_actions(self, state: ComplotsState, seat: Seat) -> tuple[Act, ...]:
        """The actions ``seat`` may take now: only the coup with 10+ coins."""
        targets = tuple(s for s in self.living(state) if s != seat)
        coins = min(state.players[seat].coins, FORCED_COUP_COINS)  # more is the same
        return _legal_actions(state.options.variant, coins, targets)

    def _turn_prompt(self, state: ComplotsState, window: str) -> ComplotsPrompt:
        """On timeout: Income, or with 10+ coins a coup on a random target (RULING)."""
        choices = self.legal_actions(state, state.turn)
        if state.players[state.turn].coins >= FORCED_COUP_COINS:
            default: Act = choices[self._peek(state, state.turn, len(choices))]
        else:
            default = _INCOME
        return self._prompt(state.turn, PromptKind.TURN, window, choices, default)

    def _card_prompt(
        self, state: ComplotsState, seat: Seat, window: str, kind: type[Reveal] | type[Show]
    ) -> ComplotsPrompt:
        """Choose one of one's face-down cards; on timeout a random one (RULING)."""
        slots = state.players[seat].hidden_slots()
        choices = tuple(_slot_choice(kind, slot) for slot in slots)
        default = choices[self._peek(state, seat, len(choices))]
        return self._prompt(seat, PromptKind.CHOICE, window, choices, default)

    def _exchange_prompt(
        self, state: ComplotsState, pending: PendingAction, window: str
    ) -> ComplotsPrompt:
        """Keep as many cards as one has influence; on timeout keep one's own (RULING)."""
        own = tuple(sorted(state.players[pending.actor].hidden()))
        choices = _keeps(own, tuple(sorted(pending.drawn)))
        return self._prompt(pending.actor, PromptKind.CHOICE, window, choices, _keep(own))

    def _window_roles(self, state: ComplotsState) -> tuple[set[Seat], set[Seat]]:
        """Who may challenge and who may block in the open reaction window."""
        pending = state.pending
        assert pending is not None
        rule = self._rule(state, pending)
        living = self.living(state)
        if state.stage is Stage.BLOCK_CHALLENGE:
            assert pending.block is not None
            return _others(living, pending.block.blocker), set()
        blockers = self._blockers(state, pending, rule, living)
        if state.stage is Stage.REACT and rule.claim is not None:
            return _others(living, pending.actor), blockers
        return set(), blockers

    def _window_answers(self, state: ComplotsState, seat: Seat) -> tuple[ComplotsChoice, ...]:
        pending = state.pending
        assert pending is not None
        challengers, blockers = self._window_roles(state)
        blocks: tuple[Block, ...] = ()
        if seat in blockers:
            blocks = _blocks(pending.action, state.options.variant)
        return (_CHALLENGE, *blocks, _PASS) if seat in challengers else (*blocks, _PASS)

    @staticmethod
    def _blockers(
        state: ComplotsState, pending: PendingAction, rule: ActionRule, living: list[Seat]
    ) -> set[Seat]:
        if rule.block_scope is BlockScope.ANYONE:
            return _others(living, pending.actor)
        if rule.block_scope is BlockScope.TARGET and pending.target is not None:
            return {pending.target} if pending.target in living else set()
        return set()

    @staticmethod
    def _peek(state: ComplotsState, seat: Seat, n: int) -> int:
        """A deterministic random index for a timeout default, without drawing from
        the game's RNG (prompts must not change the state). It depends on the
        decision moment, not on the step: a prompt keeps its default while its
        window is open (the second 2-player pick after the first one)."""
        probe = Rng.from_seed(state.rng.state ^ (state.moment * 0x9E3779B1 + seat + 1))
        return probe.below(n)

    # --- transitions -----------------------------------------------------------

    def _transition(self, state: ComplotsState, seat: Seat, choice: ComplotsChoice) -> list[Event]:
        events: list[Event] = []
        before = self._moment_key(state)
        if isinstance(choice, Reveal):
            self._settle_loss(state, seat, choice.slot, events)
        elif isinstance(choice, Pick):
            self._pick(state, seat, choice, events)
        elif isinstance(choice, Act):
            self._declare(state, choice, events)
        elif isinstance(choice, Challenge):
            self._challenge(state, seat, events)
        elif isinstance(choice, Block):
            self._block(state, seat, choice, events)
        elif isinstance(choice, Pass):
            state.passed.append(seat)
            events.append(Passed(seat=seat))
        elif isinstance(choice, Keep):
            self._keep(state, choice, events)
        elif isinstance(choice, Show):
            self._show(state, choice.slot, events)
        elif isinstance(choice, Verdict):
            self._verdict(state, choice, events)
        self._advance(state, events)
        if self._moment_key(state) != before:
            state.moment += 1
        return events

    @staticmethod
    def _moment_key(state: ComplotsState) -> tuple[object, ...]:
        """What identifies a decision moment: a pass, or a simultaneous pick, keeps it."""
        head = state.losses[0] if state.losses else None
        return (state.stage, state.turn_number, len(state.losses), head)

    def _pick(self, state: ComplotsState, seat: Seat, choice: Pick, events: list[Event]) -> None:
        player = state.players[seat]
        player.cards = [Influence(character=choice.character)]
        player.packet.remove(choice.character)
        player.set_aside = player.packet
        player.packet = []
        events.append(PickMade(seat=seat))
        if any(p.packet for p in state.players):
            return
        for seat_index, each in enumerate(state.players):
            each.cards.append(Influence(character=state.third_packet.pop()))
            hidden = tuple(each.hidden())
            events.append(CardsDealt(audience=(seat_index,), seat=seat_index, hidden=hidden))
        state.court = state.third_packet
        state.third_packet = []
        state.stage = Stage.ACTION

    def _declare(self, state: ComplotsState, act: Act, events: list[Event]) -> None:
        actor = state.turn
        rule = action_rule(act.action, state.options.variant)
        state.players[actor].coins -= rule.cost
        state.pending = PendingAction(
            actor=actor, action=act.action, target=act.target, claim=rule.claim, paid=rule.cost
        )
        events.append(
            ActionDeclared(
                actor=actor, action=act.action, target=act.target, claim=rule.claim, paid=rule.cost
            )
        )
        state.passed = []
        if rule.claim is not None:
            state.stage = Stage.REACT
        elif rule.block_scope is not BlockScope.NOBODY:
            state.stage = Stage.BLOCK
        else:
            state.stage = Stage.RESOLVE

    def _challenge(self, state: ComplotsState, challenger: Seat, events: list[Event]) -> None:
        pending = state.pending
        assert pending is not None
        state.passed = []
        if state.stage is Stage.REACT:
            assert pending.claim is not None
            truthful = self._resolve_challenge(
                state, challenger, pending.actor, pending.claim, events
            )
            if truthful:
                rule = self._rule(state, pending)
                state.stage = (
                    Stage.BLOCK if rule.block_scope is not BlockScope.NOBODY else (Stage.RESOLVE)
                )
            else:
                self._refund(state, pending, events)
                state.stage = Stage.END_TURN
        else:
            block = pending.block
            assert block is not None
            truthful = self._resolve_challenge(
                state, challenger, block.blocker, block.character, events
            )
            if truthful:
                self._blocked(pending, block, events)
                state.stage = Stage.END_TURN
            else:
                # RULING: an exposed block lets the action resolve (no new block window).
                state.stage = Stage.RESOLVE

    def _resolve_challenge(
        self,
        state: ComplotsState,
        challenger: Seat,
        claimant: Seat,
        character: Character,
        events: list[Event],
    ) -> bool:
        """Settle a challenge; True if the claimant had the character."""
        events.append(Challenged(challenger=challenger, claimant=claimant, character=character))
        player = state.players[claimant]
        slot = next(
            (i for i in player.hidden_slots() if player.cards[i].character is character), None
        )
        if slot is None:
            events.append(ClaimFailed(claimant=claimant, character=character))
            state.losses.append(PendingLoss(seat=claimant, reason=LossReason.BLUFF_EXPOSED))
            return False
        events.append(ClaimProved(claimant=claimant, character=character))
        self._replace_card(state, claimant, slot, events)
        state.losses.append(PendingLoss(seat=challenger, reason=LossReason.CHALLENGE_LOST))
        return True

    def _replace_card(
        self, state: ComplotsState, seat: Seat, slot: int, events: list[Event]
    ) -> None:
        """Shuffle the card in ``slot`` into the Court and draw a replacement."""
        card = state.players[seat].cards[slot]
        state.court.append(card.character)
        state.rng.shuffle(state.court)
        card.character = state.court.pop()
        events.append(CardDrawn(audience=(seat,), seat=seat, character=card.character))

    def _refund(self, state: ComplotsState, pending: PendingAction, events: list[Event]) -> None:
        """An exposed Assassin's 3 coins are not spent."""
        if pending.paid and state.players[pending.actor].alive:
            state.players[pending.actor].coins += pending.paid
            events.append(CoinsRefunded(seat=pending.actor, amount=pending.paid))
        pending.paid = 0

    def _block(self, state: ComplotsState, seat: Seat, choice: Block, events: list[Event]) -> None:
        pending = state.pending
        assert pending is not None
        pending.block = BlockClaim(blocker=seat, character=choice.character)
        events.append(BlockDeclared(blocker=seat, character=choice.character))
        state.passed = []
        state.stage = Stage.BLOCK_CHALLENGE

    @staticmethod
    def _blocked(pending: PendingAction, block: BlockClaim, events: list[Event]) -> None:
        events.append(
            ActionBlocked(actor=pending.actor, blocker=block.blocker, character=block.character)
        )

    def _settle_loss(
        self, state: ComplotsState, seat: Seat, slot: int, events: list[Event]
    ) -> None:
        loss = state.losses.pop(0)
        self._lose(state, seat, slot, loss.reason, events)

    def _lose(
        self,
        state: ComplotsState,
        seat: Seat,
        slot: int,
        reason: LossReason,
        events: list[Event],
    ) -> None:
        player = state.players[seat]
        card = player.cards[slot]
        card.revealed = True
        events.append(InfluenceLost(seat=seat, character=card.character, reason=reason))
        if not player.alive:
            self._eliminate(state, seat, events)

    @staticmethod
    def _eliminate(state: ComplotsState, seat: Seat, events: list[Event]) -> None:
        player = state.players[seat]
        events.append(PlayerEliminated(seat=seat, coins_returned=player.coins))
        player.coins = 0

    def _keep(self, state: ComplotsState, choice: Keep, events: list[Event]) -> None:
        pending = state.pending
        assert pending is not None
        player = state.players[pending.actor]
        pool = player.hidden() + pending.drawn
        for character in choice.cards:
            pool.remove(character)
        for slot, character in zip(player.hidden_slots(), choice.cards, strict=True):
            player.cards[slot].character = character
        state.court.extend(pool)
        state.rng.shuffle(state.court)
        pending.drawn = []
        events.append(ExchangeDone(actor=pending.actor, returned=len(pool)))
        events.append(
            HandChanged(audience=(pending.actor,), seat=pending.actor, hidden=choice.cards)
        )
        state.stage = Stage.END_TURN

    def _show(self, state: ComplotsState, slot: int, events: list[Event]) -> None:
        pending = state.pending
        assert pending is not None and pending.target is not None
        pending.shown_slot = slot
        character = state.players[pending.target].cards[slot].character
        events.append(
            CardShown(
                audience=(pending.actor, pending.target),
                inquisitor=pending.actor,
                target=pending.target,
                character=character,
            )
        )
        state.stage = Stage.EXAMINE_DECIDE

    def _verdict(self, state: ComplotsState, choice: Verdict, events: list[Event]) -> None:
        pending = state.pending
        assert pending is not None and pending.target is not None
        assert pending.shown_slot is not None
        events.append(
            ExamineVerdict(inquisitor=pending.actor, target=pending.target, redraw=choice.redraw)
        )
        if choice.redraw:
            self._replace_card(state, pending.target, pending.shown_slot, events)
        pending.shown_slot = None
        state.stage = Stage.END_TURN

    # --- the stage machine -------------------------------------------------------

    def _advance(self, state: ComplotsState, events: list[Event]) -> None:
        """Move on until someone must decide (or the game is over)."""
        while True:
            if self._check_winner(state, events):
                return
            if state.losses:
                if self._auto_settle_loss(state, events):
                    continue
                return
            stage = state.stage
            if stage in _WINDOW_STAGES:
                if self._awaiting(state):
                    return
                self._close_window(state, events)
            elif stage is Stage.RESOLVE:
                self._resolve(state, events)
            elif stage is Stage.EXAMINE_SHOW:
                if not self._auto_show(state, events):
                    return
            elif stage is Stage.END_TURN:
                self._next_turn(state, events)
                return
            else:
                return

    def _auto_settle_loss(self, state: ComplotsState, events: list[Event]) -> bool:
        """Settle the head loss when there is nothing to choose; False if it needs a choice."""
        loss = state.losses[0]
        slots = state.players[loss.seat].hidden_slots()
        if len(slots) > 1:
            return False
        state.losses.pop(0)
        if slots:
            self._lose(state, loss.seat, slots[0], loss.reason, events)
        return True

    def _close_window(self, state: ComplotsState, events: list[Event]) -> None:
        """Everyone eligible passed (or left): the claim or block stands."""
        pending = state.pending
        assert pending is not None
        state.passed = []
        if state.stage is Stage.BLOCK_CHALLENGE:
            assert pending.block is not None
            self._blocked(pending, pending.block, events)
            state.stage = Stage.END_TURN
        else:
            state.stage = Stage.RESOLVE

    def _resolve(self, state: ComplotsState, events: list[Event]) -> None:
        pending = state.pending
        assert pending is not None
        actor = state.players[pending.actor]
        state.stage = Stage.END_TURN
        if not actor.alive:
            return
        target = state.players[pending.target] if pending.target is not None else None
        if target is not None and not target.alive:
            events.append(ActionFizzled(actor=pending.actor, action=pending.action))
            return
        kind = pending.action
        if kind in (ActionKind.INCOME, ActionKind.FOREIGN_AID, ActionKind.TAX):
            gain = {ActionKind.INCOME: 1, ActionKind.FOREIGN_AID: 2, ActionKind.TAX: 3}[kind]
            actor.coins += gain
            events.append(CoinsTaken(seat=pending.actor, amount=gain, action=kind))
        elif kind in (ActionKind.COUP, ActionKind.ASSASSINATE):
            assert pending.target is not None
            reason = LossReason.COUP if kind is ActionKind.COUP else LossReason.ASSASSINATED
            state.losses.append(PendingLoss(seat=pending.target, reason=reason))
        elif kind is ActionKind.STEAL:
            assert target is not None and pending.target is not None
            amount = min(STEAL_AMOUNT, target.coins)
            target.coins -= amount
            actor.coins += amount
            events.append(CoinsStolen(thief=pending.actor, victim=pending.target, amount=amount))
        elif kind is ActionKind.EXCHANGE:
            self._start_exchange(state, pending, events)
        elif kind is ActionKind.EXAMINE:
            assert pending.target is not None
            events.append(ExamineStarted(inquisitor=pending.actor, target=pending.target))
            state.stage = Stage.EXAMINE_SHOW

    def _start_exchange(
        self, state: ComplotsState, pending: PendingAction, events: list[Event]
    ) -> None:
        count = min(exchange_draw_count(state.options.variant), len(state.court))
        pending.drawn = [state.court.pop() for _ in range(count)]
        events.append(ExchangeStarted(actor=pending.actor, drawn=count))
        events.append(
            ExchangeOffered(
                audience=(pending.actor,), actor=pending.actor, drawn=tuple(pending.drawn)
            )
        )
        state.stage = Stage.EXCHANGE

    def _auto_show(self, state: ComplotsState, events: list[Event]) -> bool:
        """A target with one face-down card has nothing to choose."""
        pending = state.pending
        assert pending is not None and pending.target is not None
        slots = state.players[pending.target].hidden_slots()
        if not slots:
            state.stage = Stage.END_TURN
            return True
        if len(slots) == 1:
            self._show(state, slots[0], events)
            return True
        return False

    def _next_turn(self, state: ComplotsState, events: list[Event]) -> None:
        state.pending = None
        state.passed = []
        state.turn = self._next_living(state, state.turn)
        state.turn_number += 1
        state.stage = Stage.ACTION
        events.append(TurnStarted(seat=state.turn, turn_number=state.turn_number))

    def _next_living(self, state: ComplotsState, seat: Seat) -> Seat:
        for step in range(1, state.seats + 1):
            candidate = (seat + step) % state.seats
            if state.players[candidate].alive:
                return candidate
        return seat

    def _check_winner(self, state: ComplotsState, events: list[Event]) -> bool:
        if state.stage is Stage.PICK:
            return False
        living = self.living(state)
        if len(living) != 1:
            return False
        state.winner = living[0]
        state.stage = Stage.OVER
        state.losses = []
        state.passed = []
        if state.pending is not None and state.pending.drawn:
            state.court.extend(state.pending.drawn)
            state.pending.drawn = []
        events.append(GameWon(winner=living[0]))
        return True

    # --- forfeit (a moderator removes a player) ----------------------------------

    def _forfeit(self, state: ComplotsState, seat: Seat) -> list[Event]:
        """The seat's face-down cards are revealed as lost; play goes on without it.
        A seat already out (no card left, after the deal) cannot be removed again."""
        if state.stage is not Stage.PICK and not state.players[seat].alive:
            raise NotPrompted(seat, "already out")
        events: list[Event] = [PlayerRemoved(seat=seat)]
        if state.stage is Stage.PICK:
            self._finish_deal_for_removal(state)
        for slot in state.players[seat].hidden_slots():
            self._lose(state, seat, slot, LossReason.REMOVED, events)
        state.losses = [loss for loss in state.losses if loss.seat != seat]
        state.passed = [s for s in state.passed if s != seat]
        self._drop_removed_from_turn(state, seat)
        self._advance(state, events)
        state.moment += 1
        return events

    @staticmethod
    def _drop_removed_from_turn(state: ComplotsState, seat: Seat) -> None:
        """End or unblock the current action where the removed seat had a part in it."""
        pending = state.pending
        if state.stage is Stage.ACTION and state.turn == seat:
            state.stage = Stage.END_TURN
        if pending is None:
            return
        if pending.actor == seat:
            state.court.extend(pending.drawn)
            pending.drawn = []
            state.stage = Stage.END_TURN
        elif pending.target == seat and state.stage in _EXAMINE_STAGES:
            pending.shown_slot = None
            state.stage = Stage.END_TURN
        elif (
            pending.block is not None
            and pending.block.blocker == seat
            and state.stage is Stage.BLOCK_CHALLENGE
        ):
            state.stage = Stage.RESOLVE  # the block is withdrawn with its claimant

    def _finish_deal_for_removal(self, state: ComplotsState) -> None:
        """A removal during the two-player deal: finish the deal with each pending
        pick's timeout default, so the game can end with the other player winning."""
        for seat in self._awaiting(state):
            default = self._pick_prompt(state, seat, "").default
            assert isinstance(default, Pick)
            self._pick(state, seat, default, [])

    # --- views and result ----------------------------------------------------------

    def view(self, state: ComplotsState, seat: Seat | None) -> ComplotsView:
        """Built without validation (``trusted``): every field comes from the state."""
        pending = state.pending
        own: dict[str, object] = {}
        if seat is not None:
            own = self._own_view(state, seat)
        return trusted(
            ComplotsView,
            viewer=seat,
            variant=state.options.variant,
            stage=state.stage,
            turn=state.turn,
            turn_number=state.turn_number,
            players=[self._player_view(state, s, seat) for s in range(state.seats)],
            court_size=len(state.court),
            pending=None
            if pending is None
            else trusted(
                PendingView,
                actor=pending.actor,
                action=pending.action,
                target=pending.target,
                claim=pending.claim,
                paid=pending.paid,
                block=pending.block,
            ),
            passed=list(state.passed),
            awaiting=self.awaiting(state),
            losing=state.losses[0].seat if state.losses else None,
            winner=state.winner,
            prompt=None if seat is None else self.prompt_for(state, seat),
            **own,
        )

    @staticmethod
    def _own_view(state: ComplotsState, seat: Seat) -> dict[str, object]:
        """What only ``seat`` sees besides its hand: its exchange, the examined card,
        its two-player packet."""
        pending = state.pending
        me = state.players[seat]
        own: dict[str, object] = {}
        if pending is not None and pending.actor == seat and state.stage is Stage.EXCHANGE:
            own["exchange_pool"] = me.hidden() + pending.drawn
        if (
            pending is not None
            and pending.actor == seat
            and state.stage is Stage.EXAMINE_DECIDE
            and pending.target is not None
            and pending.shown_slot is not None
        ):
            own["examined"] = state.players[pending.target].cards[pending.shown_slot].character
        if me.packet:
            own["packet"] = list(me.packet)
        if me.set_aside:
            own["set_aside"] = list(me.set_aside)
        return own

    @staticmethod
    def _player_view(state: ComplotsState, seat: Seat, viewer: Seat | None) -> PlayerView:
        player = state.players[seat]
        hidden = player.hidden()
        mine = seat == viewer
        return trusted(
            PlayerView,
            seat=seat,
            coins=player.coins,
            alive=bool(hidden) or state.stage is Stage.PICK,
            revealed=player.revealed(),
            hidden_count=len(hidden),
            hidden=hidden if mine else None,
            hidden_slots=player.hidden_slots() if mine else None,
        )

    def result(self, state: ComplotsState) -> Result | None:
        if state.winner is None:
            return None
        return Result(winners=(state.winner,))

    # --- helpers -------------------------------------------------------------------

    @staticmethod
    def living(state: ComplotsState) -> list[Seat]:
        """The seats with a face-down card, in seat order."""
        return [seat for seat, player in enumerate(state.players) if player.alive]

    @staticmethod
    def _rule(state: ComplotsState, pending: PendingAction) -> ActionRule:
        return action_rule(pending.action, state.options.variant)


def _others(living: list[Seat], seat: Seat) -> set[Seat]:
    return {s for s in living if s != seat}


# The choices prompts offer, built once each (choices are frozen, so shared).
_CHALLENGE = Challenge()
_PASS = Pass()
_INCOME = Act(action=ActionKind.INCOME)
_VERDICTS: tuple[ComplotsChoice, ...] = (Verdict(redraw=False), Verdict(redraw=True))


@cache
def _act(kind: ActionKind, target: Seat | None) -> Act:
    return Act(action=kind, target=target)


@lru_cache(maxsize=4096)
def _legal_actions(variant: Variant, coins: int, targets: tuple[Seat, ...]) -> tuple[Act, ...]:
    """The actions affordable with ``coins``: only the coup with 10+ coins."""
    kinds = (ActionKind.COUP,) if coins >= FORCED_COUP_COINS else actions_of(variant)
    acts: list[Act] = []
    for kind in kinds:
        rule = action_rule(kind, variant)
        if coins < rule.cost:
            continue
        if rule.targeted:
            acts.extend(_act(kind, t) for t in targets)
        else:
            acts.append(_act(kind, None))
    return tuple(acts)


@cache
def _blocks(kind: ActionKind, variant: Variant) -> tuple[Block, ...]:
    blockers = action_rule(kind, variant).blocking_characters(variant)
    return tuple(Block(character=c) for c in blockers)


@cache
def _slot_choice(kind: type[Reveal] | type[Show], slot: int) -> Reveal | Show:
    return kind(slot=slot)


@cache
def _pick(character: Character) -> Pick:
    return Pick(character=character)


@cache
def _keep(cards: tuple[Character, ...]) -> Keep:
    return Keep(cards=cards)


@cache
def _keeps(own: tuple[Character, ...], drawn: tuple[Character, ...]) -> tuple[Keep, ...]:
    """Every way to keep as many cards as ``own`` (sorted) among own and drawn ones."""
    combos = {tuple(sorted(combo)) for combo in combinations(own + drawn, len(own))}
    return tuple(_keep(combo) for combo in sorted(combos))


GAME = Complots()
