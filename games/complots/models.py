"""Complots state, options, choices, events and views (all pydantic)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from games.base import Choice, Event, GameState, Model, Prompt, Seat, View

from .cards import ActionKind, Character, Variant

# --- options -----------------------------------------------------------------


class ComplotsOptions(Model):
    variant: Variant = Variant.AMBASSADOR
    """Ambassador (recommended for first games) or Inquisitor as fifth character."""
    first_player: Seat | None = None
    """Who starts; None draws at random (RULING). A rematch passes the last winner."""


# --- choices -----------------------------------------------------------------


class Act(Choice):
    """The active player's action, with its target where it needs one."""

    type: Literal["act"] = "act"
    action: ActionKind
    target: Seat | None = None


class Challenge(Choice):
    type: Literal["challenge"] = "challenge"


class Block(Choice):
    type: Literal["block"] = "block"
    character: Character


class Pass(Choice):
    type: Literal["pass"] = "pass"


class Reveal(Choice):
    """Lose this influence: turn the face-down card in ``slot`` face up."""

    type: Literal["reveal"] = "reveal"
    slot: int


class Keep(Choice):
    """Exchange: the characters to keep, the others go back to the Court. Prompts
    offer them sorted; any order of the same characters is accepted (``canonical``)."""

    type: Literal["keep"] = "keep"
    cards: tuple[Character, ...]


class Show(Choice):
    """Examined by the Inquisitor: show it the card in ``slot``."""

    type: Literal["show"] = "show"
    slot: int


class Verdict(Choice):
    """The Inquisitor gives the examined card back, or forces it into the Court."""

    type: Literal["verdict"] = "verdict"
    redraw: bool


class Pick(Choice):
    """Two-player deal: the character kept from one's own packet."""

    type: Literal["pick"] = "pick"
    character: Character


ComplotsChoice = Annotated[
    Act | Challenge | Block | Pass | Reveal | Keep | Show | Verdict | Pick,
    Field(discriminator="type"),
]
CHOICE_ADAPTER: TypeAdapter[ComplotsChoice] = TypeAdapter(ComplotsChoice)
CHOICE_TYPES: tuple[type[Choice], ...] = (
    Act,
    Challenge,
    Block,
    Pass,
    Reveal,
    Keep,
    Show,
    Verdict,
    Pick,
)

# --- state -------------------------------------------------------------------


class Stage(StrEnum):
    PICK = "pick"
    """Two-player deal: both players pick a card from their packet."""
    ACTION = "action"
    """The active player chooses an action."""
    REACT = "react"
    """Others may challenge the claim (and the target may block)."""
    BLOCK = "block"
    """Eligible players may block (no challenge of the action any more)."""
    BLOCK_CHALLENGE = "block_challenge"
    """Anyone but the blocker may challenge the block."""
    RESOLVE = "resolve"
    EXCHANGE = "exchange"
    EXAMINE_SHOW = "examine_show"
    EXAMINE_DECIDE = "examine_decide"
    END_TURN = "end_turn"
    OVER = "over"


class Influence(Model):
    character: Character
    revealed: bool = False


class PlayerState(Model):
    coins: int
    cards: list[Influence] = []
    packet: list[Character] = []
    """Two-player deal: the packet this player picks one card from."""
    set_aside: list[Character] = []
    """Two-player deal: the packet cards this player discarded (out of the game)."""

    @property
    def alive(self) -> bool:
        for card in self.cards:  # noqa: SIM110 (a loop: 2x faster than any(), and hot)
            if not card.revealed:
                return True
        return False

    def hidden_slots(self) -> list[int]:
        return [i for i, card in enumerate(self.cards) if not card.revealed]

    def hidden(self) -> list[Character]:
        return [card.character for card in self.cards if not card.revealed]

    def revealed(self) -> list[Character]:
        return [card.character for card in self.cards if card.revealed]


class BlockClaim(Model):
    blocker: Seat
    character: Character


class PendingAction(Model):
    """The action being resolved this turn."""

    actor: Seat
    action: ActionKind
    target: Seat | None = None
    claim: Character | None = None
    paid: int = 0
    block: BlockClaim | None = None
    drawn: list[Character] = []
    """Exchange: the cards drawn from the Court, not yet chosen among."""
    shown_slot: int | None = None
    """Examine: the target's slot shown to the Inquisitor."""


class LossReason(StrEnum):
    CHALLENGE_LOST = "challenge_lost"
    """Challenged a true claim."""
    BLUFF_EXPOSED = "bluff_exposed"
    """Was challenged and did not have the claimed character."""
    COUP = "coup"
    ASSASSINATED = "assassinated"
    REMOVED = "removed"
    """Removed from the game by a moderator."""


class PendingLoss(Model):
    seat: Seat
    reason: LossReason


class ComplotsState(GameState):
    options: ComplotsOptions
    players: list[PlayerState]
    court: list[Character]
    deck_size: int
    stage: Stage
    turn: Seat
    turn_number: int = 1
    moment: int = 0
    """Bumped whenever a new decision moment opens (the prompts' window key)."""
    passed: list[Seat] = []
    pending: PendingAction | None = None
    losses: list[PendingLoss] = []
    third_packet: list[Character] = []
    """Two-player deal: the shuffled third packet, dealt once both have picked."""
    winner: Seat | None = None


# --- events ------------------------------------------------------------------


class TurnStarted(Event):
    type: Literal["turn_started"] = "turn_started"
    seat: Seat
    turn_number: int


class ActionDeclared(Event):
    type: Literal["action_declared"] = "action_declared"
    actor: Seat
    action: ActionKind
    target: Seat | None
    claim: Character | None
    paid: int


class Challenged(Event):
    type: Literal["challenged"] = "challenged"
    challenger: Seat
    claimant: Seat
    character: Character


class ClaimProved(Event):
    """The claimant showed the character, shuffled it into the Court and drew anew."""

    type: Literal["claim_proved"] = "claim_proved"
    claimant: Seat
    character: Character


class ClaimFailed(Event):
    type: Literal["claim_failed"] = "claim_failed"
    claimant: Seat
    character: Character


class CardDrawn(Event):
    """Private: the card a player drew from the Court."""

    type: Literal["card_drawn"] = "card_drawn"
    seat: Seat
    character: Character


class BlockDeclared(Event):
    type: Literal["block_declared"] = "block_declared"
    blocker: Seat
    character: Character


class Passed(Event):
    type: Literal["passed"] = "passed"
    seat: Seat


class InfluenceLost(Event):
    type: Literal["influence_lost"] = "influence_lost"
    seat: Seat
    character: Character
    reason: LossReason


class PlayerEliminated(Event):
    type: Literal["player_eliminated"] = "player_eliminated"
    seat: Seat
    coins_returned: int


class CoinsTaken(Event):
    """Coins from the treasury (income, foreign aid, tax) or a refund."""

    type: Literal["coins_taken"] = "coins_taken"
    seat: Seat
    amount: int
    action: ActionKind


class CoinsRefunded(Event):
    type: Literal["coins_refunded"] = "coins_refunded"
    seat: Seat
    amount: int


class CoinsStolen(Event):
    type: Literal["coins_stolen"] = "coins_stolen"
    thief: Seat
    victim: Seat
    amount: int


class ActionBlocked(Event):
    type: Literal["action_blocked"] = "action_blocked"
    actor: Seat
    blocker: Seat
    character: Character


class ActionFizzled(Event):
    """The action had no effect because its target left the game meanwhile."""

    type: Literal["action_fizzled"] = "action_fizzled"
    actor: Seat
    action: ActionKind


class ExchangeStarted(Event):
    type: Literal["exchange_started"] = "exchange_started"
    actor: Seat
    drawn: int


class ExchangeOffered(Event):
    """Private: the cards drawn for an exchange."""

    type: Literal["exchange_offered"] = "exchange_offered"
    actor: Seat
    drawn: tuple[Character, ...]


class ExchangeDone(Event):
    type: Literal["exchange_done"] = "exchange_done"
    actor: Seat
    returned: int


class HandChanged(Event):
    """Private: a player's face-down cards after an exchange or a redraw."""

    type: Literal["hand_changed"] = "hand_changed"
    seat: Seat
    hidden: tuple[Character, ...]


class CardShown(Event):
    """Private to the Inquisitor and its target: the examined card."""

    type: Literal["card_shown"] = "card_shown"
    inquisitor: Seat
    target: Seat
    character: Character


class ExamineStarted(Event):
    type: Literal["examine_started"] = "examine_started"
    inquisitor: Seat
    target: Seat


class ExamineVerdict(Event):
    type: Literal["examine_verdict"] = "examine_verdict"
    inquisitor: Seat
    target: Seat
    redraw: bool


class PickMade(Event):
    type: Literal["pick_made"] = "pick_made"
    seat: Seat


class CardsDealt(Event):
    """Private: a player's starting hand."""

    type: Literal["cards_dealt"] = "cards_dealt"
    seat: Seat
    hidden: tuple[Character, ...]


class PlayerRemoved(Event):
    type: Literal["player_removed"] = "player_removed"
    seat: Seat


class GameWon(Event):
    type: Literal["game_won"] = "game_won"
    winner: Seat


ComplotsEvent = Annotated[
    TurnStarted
    | ActionDeclared
    | Challenged
    | ClaimProved
    | ClaimFailed
    | CardDrawn
    | BlockDeclared
    | Passed
    | InfluenceLost
    | PlayerEliminated
    | CoinsTaken
    | CoinsRefunded
    | CoinsStolen
    | ActionBlocked
    | ActionFizzled
    | ExchangeStarted
    | ExchangeOffered
    | ExchangeDone
    | HandChanged
    | CardShown
    | ExamineStarted
    | ExamineVerdict
    | PickMade
    | CardsDealt
    | PlayerRemoved
    | GameWon,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[ComplotsEvent] = TypeAdapter(ComplotsEvent)

# --- views -------------------------------------------------------------------


class PlayerView(Model):
    seat: Seat
    coins: int
    alive: bool
    revealed: list[Character]
    hidden_count: int
    hidden: list[Character] | None = None
    """Only in the view of that player itself."""
    hidden_slots: list[int] | None = None
    """The slot of each card of ``hidden`` (what a Reveal or Show choice names); only
    in the view of that player itself."""


class PendingView(Model):
    actor: Seat
    action: ActionKind
    target: Seat | None
    claim: Character | None
    paid: int
    block: BlockClaim | None


class ComplotsView(View):
    variant: Variant
    stage: Stage
    turn: Seat
    turn_number: int
    players: list[PlayerView]
    court_size: int
    pending: PendingView | None
    passed: list[Seat]
    awaiting: list[Seat]
    """Who is being asked something now (public: the table shows it)."""
    losing: Seat | None
    """Who is choosing an influence to lose now."""
    winner: Seat | None
    prompt: Prompt[ComplotsChoice] | None = None
    """The viewer's own prompt, with its legal choices."""
    exchange_pool: list[Character] | None = None
    """The viewer's exchange: its face-down cards plus the ones drawn."""
    examined: Character | None = None
    """The card the viewer (an Inquisitor) is being shown."""
    packet: list[Character] | None = None
    """Two-player deal: the viewer's packet to pick from."""
    set_aside: list[Character] | None = None
