"""Conspiracy state, options, choices, events and views (all pydantic)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from games.base import Choice, Event, FrozenModel, GameState, Model, Prompt, Seat, View

from .cards import Colour, Key, LocationId

# --- options -----------------------------------------------------------------


class ConspiracyOptions(Model):
    first_player: Seat | None = None
    """Who starts; None draws at random. A rematch passes the last winner."""


# --- choices -----------------------------------------------------------------


class RevealLords(Choice):
    """Recruit: reveal this many Lords from the deck (then keep one)."""

    type: Literal["reveal_lords"] = "reveal_lords"
    count: int


class TakePile(Choice):
    """Recruit: take every Lord of this colour's discard pile."""

    type: Literal["take_pile"] = "take_pile"
    colour: Colour


class KeepLord(Choice):
    """Keep this revealed Lord; the others go to their discard piles."""

    type: Literal["keep_lord"] = "keep_lord"
    colour: Colour
    influence: int


class PlaceNext(Choice):
    """Place this recruited Lord next (its power resolves before the next one)."""

    type: Literal["place_next"] = "place_next"
    colour: Colour
    influence: int


class TakeLocation(Choice):
    """Take this Location (face up, revealed, or from the deck with the whole-deck Location)."""

    type: Literal["take_location"] = "take_location"
    location: LocationId


class RevealLocations(Choice):
    """Reveal this many Locations from the Location deck (then keep one)."""

    type: Literal["reveal_locations"] = "reveal_locations"
    count: int


class SwapPick(Choice):
    """Influence 0: pick a place (1-15) to swap; picking the first one again unpicks it."""

    type: Literal["swap_pick"] = "swap_pick"
    place: int


class SkipSwap(Choice):
    type: Literal["skip_swap"] = "skip_swap"


ConspiracyChoice = Annotated[
    RevealLords
    | TakePile
    | KeepLord
    | PlaceNext
    | TakeLocation
    | RevealLocations
    | SwapPick
    | SkipSwap,
    Field(discriminator="type"),
]
CHOICE_ADAPTER: TypeAdapter[ConspiracyChoice] = TypeAdapter(ConspiracyChoice)
CHOICE_TYPES: tuple[type[Choice], ...] = (
    RevealLords,
    TakePile,
    KeepLord,
    PlaceNext,
    TakeLocation,
    RevealLocations,
    SwapPick,
    SkipSwap,
)

# --- state -------------------------------------------------------------------


class Stage(StrEnum):
    RECRUIT = "recruit"
    """The active player reveals 1-3 Lords or takes a discard pile."""
    KEEP = "keep"
    """The active player keeps one of the revealed Lords."""
    ORDER = "order"
    """The active player chooses which recruited Lord to place next."""
    LOCATION = "location"
    """A key pair: take a face-up Location or reveal 1-3."""
    LOCATION_KEEP = "location_keep"
    """Keep one of the revealed Locations."""
    SWAP_FIRST = "swap_first"
    """Influence 0: the first Lord to swap (or skip)."""
    SWAP_SECOND = "swap_second"
    """Influence 0: the Lord to swap it with."""
    PLACE = "place"
    """Internal: placing the recruited Lords (nobody is asked)."""
    END_TURN = "end_turn"
    """Internal: the turn is over."""
    OVER = "over"


class PlacedLocation(Model):
    location: LocationId
    place: int
    """The chamber place (1-15) of the Lord that completed the key pair."""


class PlayerState(Model):
    lords: list[int] = []
    """The chamber: Lord ids in place order (index 0 is place 1)."""
    locations: list[PlacedLocation] = []
    pearls: int = 0
    silver: int = 0
    """Unused silver keys."""
    gold: int = 0
    """Unused gold keys."""
    removed: bool = False
    """Removed by a moderator: no more turns, cannot win."""


class Restriction(Model):
    """A Location effect on opponents' recruiting, until its owner's next turn."""

    owner: Seat
    location: LocationId


class ConspiracyState(GameState):
    options: ConspiracyOptions
    players: list[PlayerState]
    deck: list[int]
    """Lord ids; the top of the deck is the last one."""
    piles: dict[Colour, list[int]]
    """One face-up discard pile per colour, oldest first."""
    location_deck: list[LocationId]
    """The top of the Location deck is the last one."""
    face_up: list[LocationId]
    stage: Stage
    turn: Seat
    turn_number: int = 1
    moment: int = 0
    """Bumped whenever a new decision moment opens (the prompts' window key)."""
    revealed: list[int] = []
    """Lords revealed from the deck this turn, in the order drawn."""
    pending: list[int] = []
    """Recruited Lords not placed yet, in the order drawn (or the pile's order)."""
    revealed_locations: list[LocationId] = []
    location_place: int | None = None
    """The place of the Lord that completed the key pair being rewarded."""
    swap_first: int | None = None
    restrictions: list[Restriction] = []
    pearl_master: Seat | None = None
    ender: Seat | None = None
    """Who first had 15 Lords: every other player then takes one last turn."""
    last_turns: list[Seat] = []
    """The seats still to take their last turn, in order."""
    winners: list[Seat] = []


# --- values shown in events and views ------------------------------------------------


class LordFace(FrozenModel):
    colour: Colour
    influence: int


class ColourPoints(FrozenModel):
    colour: Colour
    influence: int
    """The influence of the most influential Lord of this colour (0: none)."""


class LocationPoints(FrozenModel):
    location: LocationId
    points: int


class ScoreBreakdown(FrozenModel):
    seat: Seat
    lords: tuple[ColourPoints, ...]
    """Per colour, in colour order."""
    lords_total: int
    locations: tuple[LocationPoints, ...]
    locations_total: int
    coalition_size: int
    coalition_colours: tuple[Colour, ...]
    """The colours that have a largest group (several when groups tie)."""
    coalition: int
    """3 points per Lord of the largest group."""
    pearl_master: int
    """5 for the Pearl Master, else 0."""
    pearls: int
    total: int


# --- events ------------------------------------------------------------------


class TurnStarted(Event):
    type: Literal["turn_started"] = "turn_started"
    seat: Seat
    turn_number: int
    last: bool
    """This is the seat's last turn (someone has 15 Lords)."""


class TurnSkipped(Event):
    """The seat could not recruit anything (an empty deck and no pile)."""

    type: Literal["turn_skipped"] = "turn_skipped"
    seat: Seat


class LordsRevealed(Event):
    type: Literal["lords_revealed"] = "lords_revealed"
    seat: Seat
    lords: tuple[LordFace, ...]


class LordKept(Event):
    type: Literal["lord_kept"] = "lord_kept"
    seat: Seat
    colour: Colour
    influence: int


class LordsDiscarded(Event):
    """Lords going face up to their colour's discard pile."""

    type: Literal["lords_discarded"] = "lords_discarded"
    seat: Seat
    lords: tuple[LordFace, ...]


class PileTaken(Event):
    type: Literal["pile_taken"] = "pile_taken"
    seat: Seat
    colour: Colour
    lords: tuple[LordFace, ...]


class LordPlaced(Event):
    type: Literal["lord_placed"] = "lord_placed"
    seat: Seat
    colour: Colour
    influence: int
    place: int


class LordsOverflowed(Event):
    """Recruited Lords that did not fit in the full chamber go to their discard piles."""

    type: Literal["lords_overflowed"] = "lords_overflowed"
    seat: Seat
    lords: tuple[LordFace, ...]


class PearlsGained(Event):
    type: Literal["pearls_gained"] = "pearls_gained"
    seat: Seat
    amount: int
    total: int


class PearlMasterTaken(Event):
    """``thief`` equals or passes the holder's pearls (``victim`` None: nobody held it)."""

    type: Literal["pearl_master_taken"] = "pearl_master_taken"
    thief: Seat
    victim: Seat | None


class KeysSpent(Event):
    """A key pair: every unused key is spent (a lone key of the other metal too)."""

    type: Literal["keys_spent"] = "keys_spent"
    seat: Seat
    silver: int
    gold: int
    place: int


class LocationsRevealed(Event):
    type: Literal["locations_revealed"] = "locations_revealed"
    seat: Seat
    locations: tuple[LocationId, ...]


class LocationTaken(Event):
    type: Literal["location_taken"] = "location_taken"
    seat: Seat
    location: LocationId
    place: int
    from_deck: bool
    """Chosen from the Location deck (the whole-deck Location's power)."""


class LocationsLeftFaceUp(Event):
    type: Literal["locations_left_face_up"] = "locations_left_face_up"
    seat: Seat
    locations: tuple[LocationId, ...]


class NoLocationLeft(Event):
    """A key pair with no Location left anywhere: the keys are spent for nothing."""

    type: Literal["no_location_left"] = "no_location_left"
    seat: Seat


class LordsSwapped(Event):
    type: Literal["lords_swapped"] = "lords_swapped"
    seat: Seat
    first: int
    second: int


class SwapSkipped(Event):
    type: Literal["swap_skipped"] = "swap_skipped"
    seat: Seat


class TopLordDiscarded(Event):
    """Influence 6: the deck's top Lord goes face up to its discard pile."""

    type: Literal["top_lord_discarded"] = "top_lord_discarded"
    seat: Seat
    colour: Colour
    influence: int


class LordsRecalled(Event):
    """Every discarded Lord is shuffled back into the deck."""

    type: Literal["lords_recalled"] = "lords_recalled"
    seat: Seat
    count: int


class LocationsRecalled(Event):
    """The face-up Locations are shuffled back into the Location deck."""

    type: Literal["locations_recalled"] = "locations_recalled"
    seat: Seat
    count: int


class RestrictionStarted(Event):
    type: Literal["restriction_started"] = "restriction_started"
    seat: Seat
    location: LocationId


class RestrictionEnded(Event):
    type: Literal["restriction_ended"] = "restriction_ended"
    seat: Seat
    location: LocationId


class FinalRound(Event):
    """``seat`` has 15 Lords: every other player takes one last turn."""

    type: Literal["final_round"] = "final_round"
    seat: Seat


class PlayerRemoved(Event):
    type: Literal["player_removed"] = "player_removed"
    seat: Seat


class PlayerScored(Event):
    type: Literal["player_scored"] = "player_scored"
    seat: Seat
    lords: int
    locations: int
    coalition: int
    pearl_master: int
    pearls: int
    total: int


class GameWon(Event):
    type: Literal["game_won"] = "game_won"
    winner: Seat
    shared: bool


ConspiracyEvent = Annotated[
    TurnStarted
    | TurnSkipped
    | LordsRevealed
    | LordKept
    | LordsDiscarded
    | PileTaken
    | LordPlaced
    | LordsOverflowed
    | PearlsGained
    | PearlMasterTaken
    | KeysSpent
    | LocationsRevealed
    | LocationTaken
    | LocationsLeftFaceUp
    | NoLocationLeft
    | LordsSwapped
    | SwapSkipped
    | TopLordDiscarded
    | LordsRecalled
    | LocationsRecalled
    | RestrictionStarted
    | RestrictionEnded
    | FinalRound
    | PlayerRemoved
    | PlayerScored
    | GameWon,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[ConspiracyEvent] = TypeAdapter(ConspiracyEvent)

# --- views -------------------------------------------------------------------


class ChamberPlace(FrozenModel):
    place: int
    """1-15: row 1 is places 1-5, then 6-9, 10-12, 13-14, 15 (see cards.POSITIONS)."""
    colour: Colour
    influence: int
    key: Key | None
    location: LocationId | None
    """The Location sitting on this Lord."""


class PlayerView(FrozenModel):
    seat: Seat
    chamber: tuple[ChamberPlace, ...]
    locations: tuple[LocationId, ...]
    pearls: int
    silver: int
    gold: int
    """Unused keys."""
    pearl_master: bool
    any_two_keys: bool
    whole_deck: bool
    removed: bool


class ConspiracyView(View):
    stage: Stage
    turn: Seat
    turn_number: int
    players: list[PlayerView]
    deck_size: int
    piles: dict[Colour, list[LordFace]]
    location_deck_size: int
    face_up: list[LocationId]
    revealed: list[LordFace]
    """Lords revealed by the active player, waiting for its pick."""
    pending: list[LordFace]
    """Lords recruited this turn and not placed yet."""
    revealed_locations: list[LocationId]
    location_place: int | None
    swap_first: int | None
    restrictions: list[Restriction]
    recruit_limit: LocationId | None
    """The Location effect limiting the active player's recruiting now, if any."""
    pearl_master: Seat | None
    ender: Seat | None
    last_turns: list[Seat]
    awaiting: list[Seat]
    scores: list[ScoreBreakdown]
    """Everyone's score as it stands (the final scores once the game is over)."""
    winners: list[Seat]
    prompt: Prompt[ConspiracyChoice] | None = None
    """The viewer's own prompt, with its legal choices."""
