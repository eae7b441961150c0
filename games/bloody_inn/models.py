"""The Bloody Inn state, options, choices, events and views (all pydantic)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from games.base import Choice, Event, GameState, Model, Prompt, Seat, View, trusted

from .cards import ActionKind, Card

# --- options -----------------------------------------------------------------


class Length(StrEnum):
    SHORT = "short"
    LONG = "long"


class BloodyInnOptions(Model):
    length: Length = Length.SHORT
    """Short or long game: how many travellers are removed unseen at setup."""
    first_come_first_served: bool = False
    """Variant: the Evening fills the rooms in order 1, 2, 3 ... (no choice)."""
    unlimited_wealth: bool = False
    """Variant: past 40 F, 40 F become four 10 F cheques and the track restarts."""
    first_player: Seat | None = None
    """Who starts; None draws at random (RULING). A rematch passes the last winner."""


# --- choices -----------------------------------------------------------------


class Welcome(Choice):
    """Evening: put the drawn traveller in this open, empty room (1-8)."""

    type: Literal["welcome"] = "welcome"
    room: int


class Act(Choice):
    """Night: start a Bribe, Build, Kill or Bury (its targets are asked next)."""

    type: Literal["act"] = "act"
    action: ActionKind


class Pass(Choice):
    """Night: pass, laundering money: ``launder`` > 0 buys that many 10 F cheques
    with money from the track, < 0 cashes that many cheques onto the track."""

    type: Literal["pass"] = "pass"
    launder: int = 0


class TargetRoom(Choice):
    """Bribe or Kill: the traveller in this room (1-8)."""

    type: Literal["room"] = "room"
    room: int


class TargetPeasants(Choice):
    """Bribe (1, 2, up to 4 with the Brewery) or Kill (1) peasants of the bistro."""

    type: Literal["peasants"] = "peasants"
    count: int


class TargetCard(Choice):
    """Build: the card of one's hand to build. Bury: one of one's corpses."""

    type: Literal["card"] = "card"
    card: Card


class Place(Choice):
    """Bury: under an annex (with room) of this player; the engine picks which one."""

    type: Literal["place"] = "place"
    owner: Seat


class Pay(Choice):
    """Play this accomplice from one's hand to pay the action."""

    type: Literal["pay"] = "pay"
    card: Card


class Done(Choice):
    """No more targets, or no more accomplices to play (a discount is taken)."""

    type: Literal["done"] = "done"


class Cancel(Choice):
    """Give up the action being prepared and choose another one."""

    type: Literal["cancel"] = "cancel"


class KeyRoom(Choice):
    """Monk's Room: replace the white key of this room by one's own key."""

    type: Literal["key"] = "key"
    room: int


class ServiceRoom(Choice):
    """Room Service: put one's room-service token on this room."""

    type: Literal["service"] = "service"
    room: int


class Dismiss(Choice):
    """Wages: this unpaid accomplice leaves one's hand."""

    type: Literal["dismiss"] = "dismiss"
    card: Card


class PayUndertaker(Choice):
    """The undertaker's fee (10 F per unburied corpse): ``cheques`` of those 10 F
    payments are made with 10 F cheques, the others from the track."""

    type: Literal["undertaker"] = "undertaker"
    cheques: int


BloodyInnChoice = Annotated[
    Welcome
    | Act
    | Pass
    | TargetRoom
    | TargetPeasants
    | TargetCard
    | Place
    | Pay
    | Done
    | Cancel
    | KeyRoom
    | ServiceRoom
    | Dismiss
    | PayUndertaker,
    Field(discriminator="type"),
]
CHOICE_ADAPTER: TypeAdapter[BloodyInnChoice] = TypeAdapter(BloodyInnChoice)
CHOICE_TYPES: tuple[type[Choice], ...] = (
    Welcome,
    Act,
    Pass,
    TargetRoom,
    TargetPeasants,
    TargetCard,
    Place,
    Pay,
    Done,
    Cancel,
    KeyRoom,
    ServiceRoom,
    Dismiss,
    PayUndertaker,
)

# --- state -------------------------------------------------------------------


class Stage(StrEnum):
    WELCOME = "welcome"
    """Evening: the first player puts the drawn traveller in a room."""
    ACTION = "action"
    """Night: the player whose turn it is picks an action (or passes)."""
    TARGET = "target"
    """The action's target(s); with Store, Butcher's Shop or Crypt, more of them."""
    PLACE = "place"
    """Bury: whose annex receives the corpse just chosen."""
    PAY = "pay"
    """The accomplices played for the action, one at a time."""
    KEY = "key"
    """Monk's Room just built: which white key becomes the player's."""
    SERVICE = "service"
    """Room Service just built: which room gets the token."""
    DISMISS = "dismiss"
    """Morning wages: an underpaid player chooses the accomplices who leave."""
    UNDERTAKER = "undertaker"
    """Police investigation: a player who can pay the undertaker either from the
    track or with cheques chooses how (``BloodyInnState.undertaker``)."""
    OVER = "over"


class Annex(Model):
    card: Card | None
    """None: the player aid, the Depot (holds one corpse)."""
    corpses: list[Card] = []


class PlayerState(Model):
    money: int
    cheques: int
    hand: list[Card] = []
    annexes: list[Annex] = []
    """Index 0 is always the Depot."""
    corpses: list[Card] = []
    """Unburied corpses, in front of the player."""
    active: bool = True
    """False once a moderator removed the player."""


class Room(Model):
    open: bool = False
    owner: Seat | None = None
    """The key's colour; None on an open room is a white key (pays nobody)."""
    service: Seat | None = None
    """The owner of the room-service token on this room."""
    guest: Card | None = None


class Pending(Model):
    """The action being prepared by the player whose turn it is."""

    action: ActionKind
    rooms: list[int] = []
    """Bribe or Kill: the chosen rooms (1-8), travellers still in them."""
    peasants: int = 0
    """Bribe or Kill: peasants taken from the bistro (bistro count not yet changed)."""
    card: Card | None = None
    """Build: the card taken out of the hand to be built (public once chosen)."""
    corpses: list[Card] = []
    """Bury: the corpses taken from in front of the player, in order."""
    owners: list[Seat] = []
    """Bury: whose annex each corpse goes under (one per placed corpse)."""
    paid: list[Card] = []
    """Accomplices played so far (out of the hand; only the player knows which)."""


class Dismissal(Model):
    seat: Seat
    count: int


class UndertakerVisit(Model):
    """The undertaker's round, at a police investigation or at the end of the game:
    the players who still have unburied corpses to pay for, in play order (from
    the first player). The head pays now; it is asked how (``Stage.UNDERTAKER``)
    only at a police investigation, when it can pay in full both with more and
    with fewer cheques (``scoring.cheque_range``)."""

    end: bool
    """True at the end of the game (the end bonuses and the scores follow); False
    at a police investigation (the rest of the Morning follows)."""
    owing: list[Seat]


class Standing(Model):
    """A player's final account."""

    seat: Seat
    money: int
    cheques: int
    score: int
    buried_own: int
    """Corpses under the player's own annexes (the tie-break)."""


class BloodyInnState(GameState):
    options: BloodyInnOptions
    players: list[PlayerState]
    rooms: list[Room]
    entrance: list[Card]
    """The Entrance stack; its last card is the top (face up, public)."""
    exit: list[Card] = []
    bistro: int
    box_unseen: list[Card]
    """Travellers removed unseen at setup."""
    box_peasants: int
    """Peasants not used at this player count."""
    box: list[Card] = []
    """Corpses removed by the undertaker (police investigation, end of game)."""
    drawn: Card | None = None
    """Evening: the traveller drawn from the Entrance, waiting for a room."""
    season: int = 1
    final_round: bool = False
    round: int = 1
    first_player: Seat
    stage: Stage
    queue: list[Seat] = []
    """Night: the turns still to play (two per player), the head plays now."""
    pending: Pending | None = None
    dismissals: list[Dismissal] = []
    undertaker: UndertakerVisit | None = None
    """Set while the undertaker is paid (Stage.UNDERTAKER), else None."""
    moment: int = 0
    """Bumped on every applied choice (each opens a new decision moment)."""
    standings: list[Standing] = []
    winners: list[Seat] | None = None
    """Set when the game is over (solo lost: empty)."""
    solo_lost: bool = False


# --- events ------------------------------------------------------------------


class RoundStarted(Event):
    type: Literal["round_started"] = "round_started"
    round: int
    seat: Seat
    """The first player, who welcomes the travellers."""
    season: int


class SeasonChanged(Event):
    """The Entrance ran out the first time: the Exit stack became the new Entrance."""

    type: Literal["season_changed"] = "season_changed"
    entrance: int


class TravellerWelcomed(Event):
    type: Literal["traveller_welcomed"] = "traveller_welcomed"
    seat: Seat
    card: Card
    room: int


class RoomServicePaid(Event):
    type: Literal["room_service_paid"] = "room_service_paid"
    seat: Seat
    """The owner of the room-service token."""
    room: int
    card: Card
    amount: int
    lost: int
    """F over the 40 F cap, lost."""


class FinalRound(Event):
    """The Entrance ran out the second time: this round is the last."""

    type: Literal["final_round"] = "final_round"
    travellers: int


class FinalRoundSkipped(Event):
    """Fewer travellers than players in the inn: no final round; they leave."""

    type: Literal["final_round_skipped"] = "final_round_skipped"
    travellers: int
    cards: tuple[Card, ...]


class TurnStarted(Event):
    type: Literal["turn_started"] = "turn_started"
    seat: Seat
    action_round: int


class Passed(Event):
    type: Literal["passed"] = "passed"
    seat: Seat
    launder: int


class ActionStarted(Event):
    type: Literal["action_started"] = "action_started"
    actor: Seat
    action: ActionKind


class ActionCancelled(Event):
    type: Literal["action_cancelled"] = "action_cancelled"
    actor: Seat
    action: ActionKind


class AccomplicesPlayed(Event):
    """The cards played to pay an action: ``returned`` came back to the hand, the
    others went to the Exit stack (peasants to the bistro)."""

    type: Literal["accomplices_played"] = "accomplices_played"
    actor: Seat
    action: ActionKind
    played: tuple[Card, ...]
    returned: tuple[Card, ...]


class Bribed(Event):
    type: Literal["bribed"] = "bribed"
    actor: Seat
    rooms: tuple[int, ...]
    cards: tuple[Card, ...]
    peasants: int


class Killed(Event):
    type: Literal["killed"] = "killed"
    actor: Seat
    rooms: tuple[int, ...]
    cards: tuple[Card, ...]
    peasants: int


class Built(Event):
    type: Literal["built"] = "built"
    actor: Seat
    card: Card
    gained: int
    lost: int


class Buried(Event):
    """One corpse under ``owner``'s annex (``annex`` None: its Depot)."""

    type: Literal["buried"] = "buried"
    actor: Seat
    owner: Seat
    corpse: Card
    annex: Card | None
    gained: int
    owner_gained: int
    lost: int
    """F over the 40 F cap, lost (both players together)."""


class KeyTaken(Event):
    type: Literal["key_taken"] = "key_taken"
    seat: Seat
    room: int


class RoomServicePlaced(Event):
    type: Literal["room_service_placed"] = "room_service_placed"
    seat: Seat
    room: int


class EffectWasted(Event):
    """Monk's Room with no white key left, or Room Service with no room for it."""

    type: Literal["effect_wasted"] = "effect_wasted"
    seat: Seat
    card: Card


class PoliceInvestigation(Event):
    type: Literal["police_investigation"] = "police_investigation"
    cards: tuple[Card, ...]


class UndertakerPaid(Event):
    """10 F per unburied corpse (as much as one can); the corpses go to the box."""

    type: Literal["undertaker_paid"] = "undertaker_paid"
    seat: Seat
    corpses: tuple[Card, ...]
    money: int
    cheques: int
    unpaid: int


class RoomIncome(Event):
    type: Literal["room_income"] = "room_income"
    seat: Seat
    rooms: int
    gardens: int
    lost: int


class TravellersLeft(Event):
    type: Literal["travellers_left"] = "travellers_left"
    cards: tuple[Card, ...]


class WagesPaid(Event):
    type: Literal["wages_paid"] = "wages_paid"
    seat: Seat
    accomplices: int
    free: int
    paid: int
    unpaid: int


class AccompliceLeft(Event):
    type: Literal["accomplice_left"] = "accomplice_left"
    seat: Seat
    card: Card


class FirstPlayerPassed(Event):
    type: Literal["first_player_passed"] = "first_player_passed"
    seat: Seat


class HandChanged(Event):
    """Private: the player's hand now."""

    type: Literal["hand_changed"] = "hand_changed"
    seat: Seat
    hand: tuple[Card, ...]


class EndBonus(Event):
    type: Literal["end_bonus"] = "end_bonus"
    seat: Seat
    card: Card
    amount: int
    lost: int


class FinalScore(Event):
    type: Literal["final_score"] = "final_score"
    seat: Seat
    money: int
    cheques: int
    score: int
    buried_own: int


class SoloLost(Event):
    type: Literal["solo_lost"] = "solo_lost"
    seat: Seat
    corpses: int


class GameWon(Event):
    """One winner; several GameWon events (``shared``) are a draw."""

    type: Literal["game_won"] = "game_won"
    winner: Seat
    score: int
    shared: bool
    solo_rank: str | None = None


class PlayerRemoved(Event):
    type: Literal["player_removed"] = "player_removed"
    seat: Seat


BloodyInnEvent = Annotated[
    RoundStarted
    | SeasonChanged
    | TravellerWelcomed
    | RoomServicePaid
    | FinalRound
    | FinalRoundSkipped
    | TurnStarted
    | Passed
    | ActionStarted
    | ActionCancelled
    | AccomplicesPlayed
    | Bribed
    | Killed
    | Built
    | Buried
    | KeyTaken
    | RoomServicePlaced
    | EffectWasted
    | PoliceInvestigation
    | UndertakerPaid
    | RoomIncome
    | TravellersLeft
    | WagesPaid
    | AccompliceLeft
    | FirstPlayerPassed
    | HandChanged
    | EndBonus
    | FinalScore
    | SoloLost
    | GameWon
    | PlayerRemoved,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[BloodyInnEvent] = TypeAdapter(BloodyInnEvent)

# --- views -------------------------------------------------------------------


class PlayerView(Model):
    seat: Seat
    active: bool
    money: int
    cheques: int
    hand_size: int
    hand: list[Card] | None = None
    """Only in the view of that player itself."""
    annexes: list[Annex]
    """Index 0 is the Depot (holds 1 corpse); an annex holds as many as its rank."""
    corpses: list[Card]


class PendingView(Model):
    actor: Seat
    action: ActionKind
    rooms: list[int]
    peasants: int
    card: Card | None
    corpses: list[Card]
    owners: list[Seat]
    paid_count: int
    """How many accomplices are played so far (which ones: only the actor knows)."""
    min_cards: int
    max_cards: int


class BloodyInnView(View):
    options: BloodyInnOptions
    round: int
    season: int
    final_round: bool
    stage: Stage
    first_player: Seat
    turn: Seat | None
    """Night: whose action it is."""
    action_round: int | None
    """Night: the first or the second action of each player."""
    awaiting: list[Seat]
    rooms: list[Room]
    """Rooms 1 to 8 (index + 1)."""
    entrance_size: int
    entrance_top: Card | None
    drawn: Card | None
    exit: list[Card]
    bistro: int
    box: list[Card]
    """Corpses removed by the undertaker."""
    box_unseen: int
    box_peasants: int
    players: list[PlayerView]
    pending: PendingView | None
    dismissing: Dismissal | None
    undertaker: UndertakerVisit | None = None
    """While the undertaker is paid: why (police or end) and who still owes (public)."""
    standings: list[Standing]
    winners: list[Seat] | None
    solo_lost: bool
    prompt: Prompt[BloodyInnChoice] | None = None
    """The viewer's own prompt, with its legal choices."""
    paying: list[Card] | None = None
    """The accomplices the viewer has played so far for its pending action."""


def player_view(state: BloodyInnState, seat: Seat, viewer: Seat | None) -> PlayerView:
    """What ``viewer`` (None: a spectator) sees of ``seat``'s player: its hand only if
    it is the viewer's own (the engine's views and the search's estimate share it)."""
    player = state.players[seat]
    return trusted(
        PlayerView,
        seat=seat,
        active=player.active,
        money=player.money,
        cheques=player.cheques,
        hand_size=len(player.hand),
        hand=list(player.hand) if seat == viewer else None,
        annexes=list(player.annexes),
        corpses=list(player.corpses),
    )
