"""Mascarade state, options, choices, events and views (all pydantic).

Cards lie on *places*: each seat has ``hand_size`` slots (1; 2 with three
players; 3 with two, slot 2 being the protected card), then come the centre
cards. The engine keeps the places in one flat list (``place = seat *
hand_size + slot``, centre card ``c`` at ``seats * hand_size + c``); choices,
events and views name a place as ``(seat or None for the centre, slot)``.

Nobody knows a face-down card unless a rule showed it: each seat has a
``Memory`` per place (what it last saw there, and whether that may have moved
since), and so has the public (what the whole table saw: the opening deal and
the reveals), which is the spectators' knowledge.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from games.base import Choice, Event, FrozenModel, GameState, Model, Prompt, Seat, View

from .cards import Character

# --- options -----------------------------------------------------------------


class MascaradeOptions(Model):
    characters: tuple[Character, ...] | None = None
    """A custom set of cards (the Peasant twice); None = the official set for the
    player count. Cards beyond one per player lie in the centre."""
    first_player: Seat | None = None
    """Who starts; None draws at random (RULING). A rematch passes the last winner."""


# --- choices -----------------------------------------------------------------


class Swap(Choice):
    """Turn action: take one's card in ``slot`` and another face-down card
    (``target`` None: the centre card ``target_slot``) under the table."""

    type: Literal["swap"] = "swap"
    slot: int
    target: Seat | None
    target_slot: int


class Look(Choice):
    """Turn action: look secretly at one's own card in ``slot``."""

    type: Literal["look"] = "look"
    slot: int


class Announce(Choice):
    """Turn action: "I am the ``character``", pointing at one's card in ``slot``."""

    type: Literal["announce"] = "announce"
    slot: int
    character: Character


class Decide(Choice):
    """Under the table: really swap the two cards, or only pretend."""

    type: Literal["decide"] = "decide"
    swap: bool


class Contest(Choice):
    """ "No, I am that character!", pointing at one's card in ``slot``."""

    type: Literal["contest"] = "contest"
    slot: int


class Pass(Choice):
    """Stay silent when asked whether one contests an announcement."""

    type: Literal["pass"] = "pass"


class ChooseCard(Choice):
    """A card chosen by a power (Spy: the card to look at; Fool: the cards to swap)."""

    type: Literal["choose_card"] = "choose_card"
    target: Seat | None
    slot: int


class ChoosePlayer(Choice):
    """A player chosen by a power (Bishop's tie, Witch, Inquisitor); Witch: None keeps."""

    type: Literal["choose_player"] = "choose_player"
    target: Seat | None


class Guess(Choice):
    """Questioned by the Inquisitor: the character one thinks one is."""

    type: Literal["guess"] = "guess"
    character: Character


MascaradeChoice = Annotated[
    Swap | Look | Announce | Decide | Contest | Pass | ChooseCard | ChoosePlayer | Guess,
    Field(discriminator="type"),
]
CHOICE_ADAPTER: TypeAdapter[MascaradeChoice] = TypeAdapter(MascaradeChoice)
CHOICE_TYPES: tuple[type[Choice], ...] = (
    Swap,
    Look,
    Announce,
    Decide,
    Contest,
    Pass,
    ChooseCard,
    ChoosePlayer,
    Guess,
)

# --- state -------------------------------------------------------------------


class Stage(StrEnum):
    TURN = "turn"
    """The active player swaps, looks or announces."""
    DECIDE = "decide"
    """The swapper (turn, Spy or Fool) swaps the two cards or pretends to."""
    CONTEST = "contest"
    """One player after the other, from the announcer's left, may contest."""
    BISHOP = "bishop"
    """The Bishop chooses among equally rich players."""
    WITCH = "witch"
    """The Witch chooses whose fortune to take, or keeps hers."""
    SPY = "spy"
    """The Spy chooses the other card to look at."""
    FOOL_FIRST = "fool_first"
    FOOL_SECOND = "fool_second"
    """The Fool chooses the two cards of other players to swap or not."""
    INQUISITOR = "inquisitor"
    """The Inquisitor chooses whom to question."""
    GUESS = "guess"
    """The questioned player says which character it thinks it is."""
    OVER = "over"


class SwapCause(StrEnum):
    TURN = "turn"
    SPY = "spy"
    FOOL = "fool"


class Memory(FrozenModel):
    """What an observer last saw at a place; ``stale`` once the card there may have
    been swapped out of its sight."""

    character: Character
    stale: bool = False


@cache
def _memory(character: Character, stale: bool) -> Memory:
    """Memories are immutable values: the few possible ones are shared."""
    return Memory(character=character, stale=stale)


class Knowledge(Model):
    """What one observer knows of every place (two flat lists, copied fast)."""

    seen: list[Character | None]
    """The character it last saw on each place (None: never)."""
    stale: list[bool]
    """True where that card may have been swapped away since."""

    @classmethod
    def of_deal(cls, cards: list[Character]) -> Knowledge:
        """Everybody saw the opening deal face up."""
        return cls(seen=list(cards), stale=[False] * len(cards))

    def memory(self, place: int) -> Memory | None:
        character = self.seen[place]
        if character is None:
            return None
        return _memory(character, self.stale[place])

    def memories(self) -> list[Memory | None]:
        return [
            None if seen is None else _memory(seen, stale)
            for seen, stale in zip(self.seen, self.stale, strict=True)
        ]

    def knows(self, place: int) -> bool:
        """A fresh memory: the card there is surely the one it saw."""
        return self.seen[place] is not None and not self.stale[place]

    def see(self, place: int, character: Character) -> None:
        self.seen[place] = character
        self.stale[place] = False

    def follow_swap(self, first: int, second: int) -> None:
        """It swapped these two cards itself: its memories move with them."""
        seen, stale = self.seen, self.stale
        seen[first], seen[second] = seen[second], seen[first]
        stale[first], stale[second] = stale[second], stale[first]

    def blur(self, first: int, second: int) -> None:
        """It saw these two cards go under the table, not whether they were swapped:
        both memories may be stale (unless both were surely the same character)."""
        if self.knows(first) and self.knows(second) and self.seen[first] == self.seen[second]:
            return
        for place in (first, second):
            if self.seen[place] is not None:
                self.stale[place] = True


class CardRef(FrozenModel):
    """A place as players see it: a seat's card (by slot) or a centre card (seat None)."""

    seat: Seat | None
    slot: int


def flat_place(seats: int, hand_size: int, seat: Seat | None, slot: int) -> int:
    """The flat index of a seat's card by slot (seat None: a centre card) at a table
    of ``seats`` seats of ``hand_size`` cards (the module's layout)."""
    return (seats if seat is None else seat) * hand_size + slot


def place_of(view: MascaradeView, ref: CardRef) -> int:
    """The flat index of a place the view names."""
    return flat_place(len(view.players), view.hand_size, ref.seat, ref.slot)


class PendingSwap(Model):
    actor: Seat
    first: int
    """Place of the first card (the actor's own, or the Fool's first choice)."""
    second: int
    cause: SwapCause


class Claim(Model):
    seat: Seat
    slot: int


class Reveal(Model):
    seat: Seat
    slot: int
    character: Character


class Announcement(Model):
    """The announcement being resolved this turn, contest round and power included."""

    claimant: Seat
    character: Character
    slot: int
    to_ask: list[Seat]
    """Players still to be asked whether they contest, the next one first."""
    contesters: list[Claim] = []
    silent: list[Seat] = []
    revealed: list[Reveal] = []
    """The claimants' cards, turned face up (empty if nobody contested)."""
    user: Claim | None = None
    """Who is using a power that needs choices (the announcer if uncontested)."""
    fined: list[Seat] = []
    """False claimants; they pay after the power is used."""
    fool_first: int | None = None
    """The Fool's first chosen card (a place)."""
    questioned: Seat | None = None
    guess: Character | None = None


class MascaradeState(GameState):
    options: MascaradeOptions
    characters: list[Character]
    """The cards in play, in the enum order (the Peasant twice if present)."""
    hand_size: int
    centre_size: int
    cards: list[Character]
    """The character on each place (seat slots, then the centre)."""
    coins: list[int]
    in_play: list[bool]
    courthouse: int = 0
    bank_out: int = 0
    """Coins the bank paid out, minus coins returned to it (it is unlimited)."""
    knowledge: list[Knowledge]
    """What each seat knows of the cards."""
    public: Knowledge
    """What the whole table (spectators included) knows of the cards."""
    stage: Stage
    turn: Seat
    turn_number: int = 1
    must_swap: bool = False
    """The turn player's card was revealed during the previous turn: it must swap."""
    revealed_this_turn: list[Seat] = []
    moment: int = 0
    """Bumped whenever a new decision moment opens (the prompts' window key)."""
    swap: PendingSwap | None = None
    announcement: Announcement | None = None
    winners: list[Seat] = []


# --- events ------------------------------------------------------------------


class TurnStarted(Event):
    type: Literal["turn_started"] = "turn_started"
    seat: Seat
    turn_number: int
    must_swap: bool
    """A forced swap: one of the first four turns, or just after a reveal."""


class SwapPrepared(Event):
    """``actor`` takes two face-down cards under the table (seat None: a centre card)."""

    type: Literal["swap_prepared"] = "swap_prepared"
    actor: Seat
    seat: Seat
    slot: int
    target: Seat | None
    target_slot: int
    cause: SwapCause


class SwapDecided(Event):
    """Private to the swapper: whether it really swapped."""

    type: Literal["swap_decided"] = "swap_decided"
    actor: Seat
    swapped: bool


class SwapDone(Event):
    """The two cards are back in place; nobody else knows whether they moved."""

    type: Literal["swap_done"] = "swap_done"
    actor: Seat


class Looked(Event):
    type: Literal["looked"] = "looked"
    seat: Seat
    slot: int


class CardSeen(Event):
    """Private: ``seat`` saw the card at (``target``, ``slot``) (target None: centre)."""

    type: Literal["card_seen"] = "card_seen"
    seat: Seat
    target: Seat | None
    slot: int
    character: Character


class Announced(Event):
    type: Literal["announced"] = "announced"
    claimant: Seat
    slot: int
    character: Character


class Contested(Event):
    type: Literal["contested"] = "contested"
    challenger: Seat
    slot: int
    character: Character


class StayedSilent(Event):
    type: Literal["stayed_silent"] = "stayed_silent"
    seat: Seat


class CardRevealed(Event):
    """A card turned face up for everyone (a claimant's, or the Inquisitor's target's)."""

    type: Literal["card_revealed"] = "card_revealed"
    seat: Seat
    slot: int
    character: Character


class PowerUsed(Event):
    """``seat`` uses the power of ``character``; ``revealed`` False: unchallenged,
    whatever its card is."""

    type: Literal["power_used"] = "power_used"
    seat: Seat
    character: Character
    revealed: bool


class CoinsFromBank(Event):
    type: Literal["coins_from_bank"] = "coins_from_bank"
    seat: Seat
    amount: int
    character: Character


class CoinsTaken(Event):
    """Bishop, Thief and Inquisitor: coins moving from ``victim`` to ``actor``."""

    type: Literal["coins_taken"] = "coins_taken"
    actor: Seat
    victim: Seat
    amount: int
    character: Character


class CourthouseTaken(Event):
    type: Literal["courthouse_taken"] = "courthouse_taken"
    seat: Seat
    amount: int


class FortunesSwapped(Event):
    """The Witch's swap; the amounts are each one's fortune afterwards."""

    type: Literal["fortunes_swapped"] = "fortunes_swapped"
    actor: Seat
    target: Seat
    actor_coins: int
    target_coins: int


class FortuneKept(Event):
    type: Literal["fortune_kept"] = "fortune_kept"
    actor: Seat


class CheatFailed(Event):
    """The Cheat's power with fewer than 10 coins: nothing happens."""

    type: Literal["cheat_failed"] = "cheat_failed"
    seat: Seat
    coins: int


class Questioned(Event):
    type: Literal["questioned"] = "questioned"
    inquisitor: Seat
    target: Seat


class Guessed(Event):
    type: Literal["guessed"] = "guessed"
    target: Seat
    character: Character
    right: bool


class FinePaid(Event):
    type: Literal["fine_paid"] = "fine_paid"
    seat: Seat
    amount: int


class AnnouncementCancelled(Event):
    """The announcer was removed from the game before its announcement resolved."""

    type: Literal["announcement_cancelled"] = "announcement_cancelled"
    claimant: Seat


class PlayerRemoved(Event):
    type: Literal["player_removed"] = "player_removed"
    seat: Seat
    coins_returned: int


class WinReason(StrEnum):
    THIRTEEN = "thirteen"
    """13 coins or more."""
    CHEAT = "cheat"
    """The Cheat with 10 coins or more."""
    BANKRUPTCY = "bankruptcy"
    """Someone has no coin left: the richest wins."""
    LAST_PLAYER = "last_player"
    """Everybody else was removed."""


class GameWon(Event):
    type: Literal["game_won"] = "game_won"
    winners: tuple[Seat, ...]
    reason: WinReason


MascaradeEvent = Annotated[
    TurnStarted
    | SwapPrepared
    | SwapDecided
    | SwapDone
    | Looked
    | CardSeen
    | Announced
    | Contested
    | StayedSilent
    | CardRevealed
    | PowerUsed
    | CoinsFromBank
    | CoinsTaken
    | CourthouseTaken
    | FortunesSwapped
    | FortuneKept
    | CheatFailed
    | Questioned
    | Guessed
    | FinePaid
    | AnnouncementCancelled
    | PlayerRemoved
    | GameWon,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[MascaradeEvent] = TypeAdapter(MascaradeEvent)

# --- views -------------------------------------------------------------------


class PlayerView(Model):
    seat: Seat
    coins: int
    in_play: bool
    cards: list[Memory | None]
    """By slot: what the viewer last saw of each of this player's cards (None: it
    never saw it, or cannot know)."""


class SwapView(Model):
    actor: Seat
    first: CardRef
    second: CardRef
    cause: SwapCause


class AnnouncementView(Model):
    claimant: Seat
    character: Character
    slot: int
    asked: Seat | None
    """Who is being asked now whether it contests."""
    to_ask: list[Seat]
    contesters: list[Claim]
    silent: list[Seat]
    revealed: list[Reveal]
    user: Seat | None
    fined: list[Seat]
    fool_first: CardRef | None
    questioned: Seat | None
    guess: Character | None


class MascaradeView(View):
    stage: Stage
    turn: Seat
    turn_number: int
    must_swap: bool
    """The turn player may only swap (first four turns, or just after a reveal)."""
    characters: list[Character]
    hand_size: int
    protected_slot: int | None
    """Two-player game: the slot of each player's protected (middle) card."""
    players: list[PlayerView]
    centre: list[Memory | None]
    """What the viewer last saw of each centre card."""
    courthouse: int
    swap: SwapView | None
    announcement: AnnouncementView | None
    awaiting: list[Seat]
    """Who is being asked something now (public: the table shows it)."""
    winners: list[Seat]
    prompt: Prompt[MascaradeChoice] | None = None
    """The viewer's own prompt, with its legal choices."""
