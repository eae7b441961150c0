"""Conspiracy rules: a state machine over ConspiracyState.

A turn goes RECRUIT -> (KEEP) -> PLACE, where PLACE places the recruited Lords
one at a time (ORDER asks which one next when they differ) and each placed
Lord's power resolves before the next one: a key pair opens LOCATION (->
LOCATION_KEEP after a reveal), an influence-0 Lord opens SWAP_FIRST ->
SWAP_SECOND. When nothing is left to place the turn ends (END_TURN), which
also starts the final round once the player has 15 Lords. Only the active
player is ever asked anything.
"""

from __future__ import annotations

from functools import cache, lru_cache
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
    CHAMBER_SIZE,
    COLOURS,
    LOCATION_ORDER,
    LOCATION_TABLE,
    LOCATIONS,
    LORD_COUNT,
    LORDS,
    Colour,
    Key,
    LocationEffect,
    LocationId,
    Power,
)
from .models import (
    CHOICE_ADAPTER,
    CHOICE_TYPES,
    EVENT_ADAPTER,
    ChamberPlace,
    ConspiracyChoice,
    ConspiracyOptions,
    ConspiracyState,
    ConspiracyView,
    FinalRound,
    GameWon,
    KeepLord,
    KeysSpent,
    LocationsLeftFaceUp,
    LocationsRecalled,
    LocationsRevealed,
    LocationTaken,
    LordFace,
    LordKept,
    LordPlaced,
    LordsDiscarded,
    LordsOverflowed,
    LordsRecalled,
    LordsRevealed,
    LordsSwapped,
    NoLocationLeft,
    PearlMasterTaken,
    PearlsGained,
    PileTaken,
    PlacedLocation,
    PlaceNext,
    PlayerRemoved,
    PlayerScored,
    PlayerState,
    PlayerView,
    Restriction,
    RestrictionEnded,
    RestrictionStarted,
    RevealLocations,
    RevealLords,
    SkipSwap,
    Stage,
    SwapPick,
    SwapSkipped,
    TakeLocation,
    TakePile,
    TopLordDiscarded,
    TurnSkipped,
    TurnStarted,
)
from .scoring import score_all, winners_of

ConspiracyPrompt = Prompt[ConspiracyChoice]

ASKING_STAGES = frozenset(
    {
        Stage.RECRUIT,
        Stage.KEEP,
        Stage.ORDER,
        Stage.LOCATION,
        Stage.LOCATION_KEEP,
        Stage.SWAP_FIRST,
        Stage.SWAP_SECOND,
    }
)
MAX_REVEAL = 3
RESTRICTING_EFFECTS = (LocationEffect.TOP_LORD_ONLY, LocationEffect.REVEAL_TWO)


_FACES: tuple[LordFace, ...] = tuple(
    LordFace(colour=lord.colour, influence=lord.influence) for lord in LORDS
)


def face(lord_id: int) -> LordFace:
    """What a Lord shows: its colour and influence (values are frozen, so shared)."""
    return _FACES[lord_id]


def faces(lord_ids: list[int]) -> tuple[LordFace, ...]:
    return tuple(_FACES[lord_id] for lord_id in lord_ids)


# Every choice there can be, built once (choices are frozen; prompts are hot).
_REVEAL_LORDS = {n: RevealLords(count=n) for n in range(1, MAX_REVEAL + 1)}
_TAKE_PILE = {colour: TakePile(colour=colour) for colour in COLOURS}
_KEEP = {f: KeepLord(colour=f.colour, influence=f.influence) for f in set(_FACES)}
_PLACE_NEXT = {f: PlaceNext(colour=f.colour, influence=f.influence) for f in set(_FACES)}
_TAKE_LOCATION = {location: TakeLocation(location=location) for location in LocationId}
_REVEAL_LOCATIONS = {n: RevealLocations(count=n) for n in range(1, MAX_REVEAL + 1)}
_SWAP_PICK = {place: SwapPick(place=place) for place in range(1, CHAMBER_SIZE + 1)}
_SKIP_SWAP = SkipSwap()


@cache
def chamber_place(lord_id: int, place: int, location: LocationId | None) -> ChamberPlace:
    """One shown place of a chamber (frozen, so views share them; views are hot)."""
    lord = LORDS[lord_id]
    return ChamberPlace(
        place=place,
        colour=lord.colour,
        influence=lord.influence,
        key=lord.key,
        location=location,
    )


@lru_cache(maxsize=4096)
def player_view(
    seat: Seat,
    lords: tuple[int, ...],
    locations: tuple[tuple[LocationId, int], ...],
    counters: tuple[int, int, int],
    pearl_master: bool,
    removed: bool,
) -> PlayerView:
    """What everyone sees of a player (frozen and memoised: views are hot, and a
    player changes only on its own turn)."""
    on_place = {place: location for location, place in locations}
    owned = {location for location, _ in locations}
    pearls, silver, gold = counters
    return PlayerView(
        seat=seat,
        chamber=tuple(
            chamber_place(lord, index + 1, on_place.get(index + 1))
            for index, lord in enumerate(lords)
        ),
        locations=tuple(location for location, _ in locations),
        pearls=pearls,
        silver=silver,
        gold=gold,
        pearl_master=pearl_master,
        any_two_keys=LocationId.ANY_TWO_KEYS in owned,
        whole_deck=LocationId.WHOLE_DECK in owned,
        removed=removed,
    )


def owns(player: PlayerState, location: LocationId) -> bool:
    return any(placed.location is location for placed in player.locations)


class Conspiracy(Game[ConspiracyState, ConspiracyOptions, ConspiracyChoice, ConspiracyView]):
    name: ClassVar[str] = "conspiracy"
    title: ClassVar[str] = "Conspiracy"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    typical_players: ClassVar[int] = 2
    options_model = ConspiracyOptions
    state_model = ConspiracyState
    choice_adapter = CHOICE_ADAPTER
    choice_types = CHOICE_TYPES
    event_adapter = EVENT_ADAPTER

    # --- setup ---------------------------------------------------------------

    def setup(self, players: int, options: ConspiracyOptions, seed: int) -> ConspiracyState:
        rng, first = self._start(players, options, seed)
        deck = list(range(LORD_COUNT))
        rng.shuffle(deck)
        locations = [location.id for location in LOCATION_TABLE]
        rng.shuffle(locations)
        face_up = [locations.pop()]
        return ConspiracyState(
            seats=players,
            rng=rng,
            options=options,
            players=[PlayerState() for _ in range(players)],
            deck=deck,
            piles={colour: [] for colour in COLOURS},
            location_deck=locations,
            face_up=face_up,
            stage=Stage.RECRUIT,
            turn=first,
        )

    # --- prompts -------------------------------------------------------------

    def _awaiting(self, state: ConspiracyState) -> list[Seat]:
        """Who is being asked something now (only ever the active player)."""
        return [state.turn] if state.stage in ASKING_STAGES else []

    def _prompt_of(self, state: ConspiracyState, seat: Seat) -> ConspiracyPrompt:
        window = f"{state.turn_number}.{state.moment}"
        stage = state.stage
        kind = PromptKind.CHOICE
        if stage is Stage.RECRUIT:
            kind = PromptKind.TURN
            choices = self.recruit_choices(state)
            default = self._recruit_default(state, choices)
        elif stage is Stage.KEEP:
            choices = [_KEEP[f] for f in self._kinds(state.revealed)]
            default = choices[0]
        elif stage is Stage.ORDER:
            choices = [_PLACE_NEXT[f] for f in self._kinds(state.pending)]
            default = choices[0]
        elif stage in (Stage.LOCATION, Stage.LOCATION_KEEP):
            choices = self.location_choices(state)
            default = self._location_default(choices)
        else:
            choices = self.swap_choices(state)
            default = _SKIP_SWAP
        return ConspiracyPrompt.trusted(seat, kind, window, tuple(choices), default)

    @staticmethod
    def _kinds(lord_ids: list[int]) -> list[LordFace]:
        """The distinct Lords (colour and influence) among these, in their order."""
        seen: list[LordFace] = []
        for lord_id in lord_ids:
            lord_face = face(lord_id)
            if lord_face not in seen:
                seen.append(lord_face)
        return seen

    @staticmethod
    def recruit_limit(state: ConspiracyState) -> LocationId | None:
        """The opponent's Location effect limiting the active player's recruiting, if any.

        RULING: when both limits apply (two opponents' Locations), the most recent
        one wins; with an empty deck neither applies (the piles are open)."""
        if not state.deck:
            return None
        limits = [r.location for r in state.restrictions if r.owner != state.turn]
        return limits[-1] if limits else None

    def recruit_choices(self, state: ConspiracyState) -> list[ConspiracyChoice]:
        player = state.players[state.turn]
        if len(player.lords) >= CHAMBER_SIZE:
            return []
        deck = len(state.deck)
        limit = self.recruit_limit(state)
        if limit is not None:
            if LOCATIONS[limit].effect is LocationEffect.TOP_LORD_ONLY:
                return [_REVEAL_LORDS[1]]
            return [_REVEAL_LORDS[min(2, deck)]]
        choices: list[ConspiracyChoice] = [
            _REVEAL_LORDS[n] for n in range(1, min(MAX_REVEAL, deck) + 1)
        ]
        choices.extend(_TAKE_PILE[c] for c in COLOURS if state.piles[c])
        return choices

    @staticmethod
    def _recruit_default(
        state: ConspiracyState, choices: list[ConspiracyChoice]
    ) -> ConspiracyChoice:
        """RULING: reveal 1 (and keep it); when only a forced reveal of 2 is allowed,
        that; with an empty deck, the smallest pile (first in colour order)."""
        reveals = [c for c in choices if isinstance(c, RevealLords)]
        if reveals:
            return reveals[0]
        piles = [c for c in choices if isinstance(c, TakePile)]
        return min(piles, key=lambda c: (len(state.piles[c.colour]), COLOURS.index(c.colour)))

    def location_choices(self, state: ConspiracyState) -> list[ConspiracyChoice]:
        if state.stage is Stage.LOCATION_KEEP:
            return [_TAKE_LOCATION[loc] for loc in state.revealed_locations]
        player = state.players[state.turn]
        choices: list[ConspiracyChoice] = [_TAKE_LOCATION[loc] for loc in state.face_up]
        if owns(player, LocationId.WHOLE_DECK):
            # RULING: with the whole deck to choose from, revealing is pointless; the
            # deck is offered in table order, so the choices say nothing of its order.
            in_deck = sorted(state.location_deck, key=LOCATION_ORDER.__getitem__)
            choices.extend(_TAKE_LOCATION[loc] for loc in in_deck)
            return choices
        reveal = min(MAX_REVEAL, len(state.location_deck))
        choices.extend(_REVEAL_LOCATIONS[n] for n in range(1, reveal + 1))
        return choices

    @staticmethod
    def _location_default(choices: list[ConspiracyChoice]) -> ConspiracyChoice:
        """The offered Location with the most printed points (then the lowest number);
        with none face up, reveal 1."""
        takes = [c for c in choices if isinstance(c, TakeLocation)]
        if not takes:
            return _REVEAL_LOCATIONS[1]
        return max(
            takes,
            key=lambda c: (LOCATIONS[c.location].points, -LOCATIONS[c.location].number),
        )

    def swap_choices(self, state: ConspiracyState) -> list[ConspiracyChoice]:
        player = state.players[state.turn]
        if state.stage is Stage.SWAP_FIRST:
            places = self._swap_firsts(player)
        else:
            assert state.swap_first is not None
            first = state.swap_first - 1
            places = sorted([*self._swap_partners(player, first), first])
        return [*(_SWAP_PICK[i + 1] for i in places), _SKIP_SWAP]

    @staticmethod
    def _movable(player: PlayerState) -> list[int]:
        """Indexes of the chamber's Lords without a key (the swap may move them)."""
        return [i for i, lord in enumerate(player.lords) if LORDS[lord].key is None]

    def _swap_partners(self, player: PlayerState, index: int) -> list[int]:
        """Movable Lords of another colour (swapping same-colour Lords changes nothing)."""
        colour = LORDS[player.lords[index]].colour
        return [j for j in self._movable(player) if LORDS[player.lords[j]].colour is not colour]

    def _swap_firsts(self, player: PlayerState) -> list[int]:
        movable = self._movable(player)
        colours = {LORDS[player.lords[i]].colour for i in movable}
        return movable if len(colours) > 1 else []

    # --- transitions -----------------------------------------------------------

    def _transition(
        self, state: ConspiracyState, seat: Seat, choice: ConspiracyChoice
    ) -> list[Event]:
        events: list[Event] = []
        if isinstance(choice, RevealLords):
            self._reveal_lords(state, choice.count, events)
        elif isinstance(choice, TakePile):
            self._take_pile(state, choice, events)
        elif isinstance(choice, KeepLord):
            lord = self._find(state.revealed, choice.colour, choice.influence)
            self._keep(state, lord, events)
        elif isinstance(choice, PlaceNext):
            lord = self._find(state.pending, choice.colour, choice.influence)
            state.pending.remove(lord)
            self._place(state, lord, events)
        elif isinstance(choice, TakeLocation | RevealLocations):
            self._location_choice(state, choice, events)
        elif isinstance(choice, SwapPick):
            self._swap_pick(state, choice.place, events)
        elif isinstance(choice, SkipSwap):
            state.swap_first = None
            state.stage = Stage.PLACE
            events.append(SwapSkipped(seat=state.turn))
        self._advance(state, events)
        state.moment += 1
        return events

    @staticmethod
    def _find(lord_ids: list[int], colour: Colour, influence: int) -> int:
        return next(
            lord
            for lord in lord_ids
            if LORDS[lord].colour is colour and LORDS[lord].influence == influence
        )

    def _reveal_lords(self, state: ConspiracyState, count: int, events: list[Event]) -> None:
        state.revealed = [state.deck.pop() for _ in range(count)]
        events.append(LordsRevealed(seat=state.turn, lords=faces(state.revealed)))
        if count == 1:
            self._keep(state, state.revealed[0], events)
        else:
            state.stage = Stage.KEEP

    def _keep(self, state: ConspiracyState, lord: int, events: list[Event]) -> None:
        seat = state.turn
        state.revealed.remove(lord)
        state.pending = [lord]
        events.append(
            LordKept(seat=seat, colour=LORDS[lord].colour, influence=LORDS[lord].influence)
        )
        if state.revealed:
            self._discard(state, state.revealed)
            events.append(LordsDiscarded(seat=seat, lords=faces(state.revealed)))
        state.revealed = []
        state.stage = Stage.PLACE

    @staticmethod
    def _discard(state: ConspiracyState, lord_ids: list[int]) -> None:
        for lord in lord_ids:
            state.piles[LORDS[lord].colour].append(lord)

    @staticmethod
    def _take_pile(state: ConspiracyState, choice: TakePile, events: list[Event]) -> None:
        state.pending = state.piles[choice.colour]
        state.piles[choice.colour] = []
        events.append(PileTaken(seat=state.turn, colour=choice.colour, lords=faces(state.pending)))
        state.stage = Stage.PLACE

    def _place(self, state: ConspiracyState, lord_id: int, events: list[Event]) -> None:
        """Put a Lord in the next free place and resolve its power."""
        seat = state.turn
        player = state.players[seat]
        player.lords.append(lord_id)
        place = len(player.lords)
        lord = LORDS[lord_id]
        events.append(
            LordPlaced(seat=seat, colour=lord.colour, influence=lord.influence, place=place)
        )
        state.stage = Stage.PLACE
        power = lord.power
        if power is Power.SWAP:
            if self._swap_firsts(player):
                state.stage = Stage.SWAP_FIRST
        elif power is Power.KEY:
            if lord.key is Key.SILVER:
                player.silver += 1
            else:
                player.gold += 1
            if self.has_key_pair(player):
                events.append(
                    KeysSpent(seat=seat, silver=player.silver, gold=player.gold, place=place)
                )
                player.silver = player.gold = 0
                state.location_place = place
                state.stage = Stage.LOCATION
        elif power is Power.PEARLS:
            self._gain_pearls(state, seat, lord.kind.pearls, events)
        elif power is Power.DISCARD_TOP and state.deck:
            top = state.deck.pop()
            state.piles[LORDS[top].colour].append(top)
            events.append(
                TopLordDiscarded(
                    seat=seat, colour=LORDS[top].colour, influence=LORDS[top].influence
                )
            )

    @staticmethod
    def has_key_pair(player: PlayerState) -> bool:
        if player.silver >= 2 or player.gold >= 2:
            return True
        return owns(player, LocationId.ANY_TWO_KEYS) and player.silver + player.gold >= 2

    @staticmethod
    def _gain_pearls(state: ConspiracyState, seat: Seat, amount: int, events: list[Event]) -> None:
        """Whoever equals or passes the Pearl Master's pearls takes the token."""
        player = state.players[seat]
        player.pearls += amount
        events.append(PearlsGained(seat=seat, amount=amount, total=player.pearls))
        holder = state.pearl_master
        if holder == seat:
            return
        if holder is None or player.pearls >= state.players[holder].pearls:
            state.pearl_master = seat
            events.append(PearlMasterTaken(thief=seat, victim=holder))

    def _location_choice(
        self,
        state: ConspiracyState,
        choice: TakeLocation | RevealLocations,
        events: list[Event],
    ) -> None:
        if isinstance(choice, TakeLocation):
            self._take_location(state, choice.location, events)
            return
        state.revealed_locations = [state.location_deck.pop() for _ in range(choice.count)]
        events.append(LocationsRevealed(seat=state.turn, locations=tuple(state.revealed_locations)))
        if choice.count == 1:
            self._take_location(state, state.revealed_locations[0], events)
        else:
            state.stage = Stage.LOCATION_KEEP

    def _take_location(
        self, state: ConspiracyState, location: LocationId, events: list[Event]
    ) -> None:
        seat = state.turn
        player = state.players[seat]
        from_deck = False
        if location in state.revealed_locations:
            state.revealed_locations.remove(location)
        elif location in state.face_up:
            state.face_up.remove(location)
        else:
            state.location_deck.remove(location)
            from_deck = True
        place = state.location_place
        assert place is not None
        player.locations.append(PlacedLocation(location=location, place=place))
        events.append(LocationTaken(seat=seat, location=location, place=place, from_deck=from_deck))
        if state.revealed_locations:
            state.face_up.extend(state.revealed_locations)
            events.append(LocationsLeftFaceUp(seat=seat, locations=tuple(state.revealed_locations)))
            state.revealed_locations = []
        state.location_place = None
        state.stage = Stage.PLACE
        self._location_effect(state, location, events)

    def _location_effect(
        self, state: ConspiracyState, location: LocationId, events: list[Event]
    ) -> None:
        seat = state.turn
        card = LOCATIONS[location]
        effect = card.effect
        if effect is LocationEffect.PEARLS:
            self._gain_pearls(state, seat, card.pearls, events)
        elif effect in RESTRICTING_EFFECTS:
            state.restrictions.append(Restriction(owner=seat, location=location))
            events.append(RestrictionStarted(seat=seat, location=location))
        elif effect is LocationEffect.RECALL_LORDS:
            count = 0
            for colour in COLOURS:
                count += len(state.piles[colour])
                state.deck.extend(state.piles[colour])
                state.piles[colour] = []
            state.rng.shuffle(state.deck)
            events.append(LordsRecalled(seat=seat, count=count))
        elif effect is LocationEffect.RECALL_LOCATIONS:
            count = len(state.face_up)
            state.location_deck.extend(state.face_up)
            state.face_up = []
            state.rng.shuffle(state.location_deck)
            events.append(LocationsRecalled(seat=seat, count=count))

    def _swap_pick(self, state: ConspiracyState, place: int, events: list[Event]) -> None:
        if state.stage is Stage.SWAP_FIRST:
            state.swap_first = place
            state.stage = Stage.SWAP_SECOND
            return
        first = state.swap_first
        assert first is not None
        state.swap_first = None
        if place == first:
            state.stage = Stage.SWAP_FIRST
            return
        lords = state.players[state.turn].lords
        lords[first - 1], lords[place - 1] = lords[place - 1], lords[first - 1]
        low, high = sorted((first, place))
        events.append(LordsSwapped(seat=state.turn, first=low, second=high))
        state.stage = Stage.PLACE

    # --- the stage machine -------------------------------------------------------

    def _advance(self, state: ConspiracyState, events: list[Event]) -> None:
        """Move on until the active player must decide (or the game is over)."""
        skipped = 0
        while True:
            stage = state.stage
            if stage is Stage.PLACE:
                self._place_step(state, events)
            elif stage is Stage.LOCATION:
                choices = self.location_choices(state)
                if len(choices) > 1:
                    return
                if choices:
                    choice = choices[0]
                    assert isinstance(choice, TakeLocation | RevealLocations)
                    self._location_choice(state, choice, events)
                else:
                    events.append(NoLocationLeft(seat=state.turn))
                    state.location_place = None
                    state.stage = Stage.PLACE
            elif stage is Stage.END_TURN:
                self._end_turn(state, events)
            elif stage is Stage.RECRUIT:
                if self.recruit_choices(state):
                    return
                events.append(TurnSkipped(seat=state.turn))
                skipped += 1
                if skipped >= state.seats:
                    self._finish(state, events)
                    return
                state.stage = Stage.END_TURN
            else:
                return

    def _place_step(self, state: ConspiracyState, events: list[Event]) -> None:
        player = state.players[state.turn]
        if not state.pending:
            state.stage = Stage.END_TURN
            return
        if len(player.lords) >= CHAMBER_SIZE:
            self._discard(state, state.pending)
            events.append(LordsOverflowed(seat=state.turn, lords=faces(state.pending)))
            state.pending = []
            state.stage = Stage.END_TURN
            return
        if len(self._kinds(state.pending)) > 1:
            state.stage = Stage.ORDER
            return
        self._place(state, state.pending.pop(0), events)

    def _end_turn(self, state: ConspiracyState, events: list[Event]) -> None:
        seat = state.turn
        player = state.players[seat]
        if state.ender is None and not player.removed and len(player.lords) >= CHAMBER_SIZE:
            state.ender = seat
            state.last_turns = [
                other
                for other in self._clockwise_after(state, seat)
                if not state.players[other].removed
            ]
            events.append(FinalRound(seat=seat))
        if state.ender is not None:
            if not state.last_turns:
                self._finish(state, events)
                return
            following = state.last_turns.pop(0)
        else:
            following = self._next_active(state, seat)
        self._start_turn(state, following, events)

    @staticmethod
    def _start_turn(state: ConspiracyState, seat: Seat, events: list[Event]) -> None:
        state.turn = seat
        state.turn_number += 1
        state.stage = Stage.RECRUIT
        events.append(
            TurnStarted(seat=seat, turn_number=state.turn_number, last=state.ender is not None)
        )
        for restriction in state.restrictions:
            if restriction.owner == seat:
                events.append(RestrictionEnded(seat=seat, location=restriction.location))
        state.restrictions = [r for r in state.restrictions if r.owner != seat]

    @staticmethod
    def _clockwise_after(state: ConspiracyState, seat: Seat) -> list[Seat]:
        return [(seat + step) % state.seats for step in range(1, state.seats)]

    def _next_active(self, state: ConspiracyState, seat: Seat) -> Seat:
        for other in self._clockwise_after(state, seat):
            if not state.players[other].removed:
                return other
        return seat

    def _finish(
        self, state: ConspiracyState, events: list[Event], winners: list[Seat] | None = None
    ) -> None:
        state.stage = Stage.OVER
        state.last_turns = []
        scores = score_all(state)
        removed = [p.removed for p in state.players]
        state.winners = winners if winners is not None else winners_of(scores, removed)
        events.extend(
            PlayerScored(
                seat=s.seat,
                lords=s.lords_total,
                locations=s.locations_total,
                coalition=s.coalition,
                pearl_master=s.pearl_master,
                pearls=s.pearls,
                total=s.total,
            )
            for s in scores
        )
        shared = len(state.winners) > 1
        events.extend(GameWon(winner=w, shared=shared) for w in state.winners)

    # --- forfeit (a moderator removes a player) ----------------------------------

    def _forfeit(self, state: ConspiracyState, seat: Seat) -> list[Event]:
        """The seat takes no more turns and cannot win; its chamber stays as it is.

        Lords and Locations it was in the middle of taking go back to the table
        (discard piles, face-up Locations), its recruiting limits end, and the
        Pearl Master token passes to the player with the most pearls. With one
        player left, that player wins at once."""
        player = state.players[seat]
        if player.removed:
            raise NotPrompted(seat, "already removed")
        before = (self._awaiting(state), state.stage, state.turn_number)
        events: list[Event] = [PlayerRemoved(seat=seat)]
        player.removed = True
        state.last_turns = [s for s in state.last_turns if s != seat]
        for restriction in state.restrictions:
            if restriction.owner == seat:
                events.append(RestrictionEnded(seat=seat, location=restriction.location))
        state.restrictions = [r for r in state.restrictions if r.owner != seat]
        if state.pearl_master == seat:
            self._pass_pearl_master(state, seat, events)
        active = [s for s, p in enumerate(state.players) if not p.removed]
        if len(active) <= 1:
            self._clear_turn(state, events)
            self._finish(state, events, winners=active)
        elif state.turn == seat:
            self._clear_turn(state, events)
            state.stage = Stage.END_TURN
            self._advance(state, events)
        if (self._awaiting(state), state.stage, state.turn_number) != before:
            state.moment += 1
        return events

    def _pass_pearl_master(self, state: ConspiracyState, seat: Seat, events: list[Event]) -> None:
        """RULING: the removed holder's token goes to the remaining player with the most
        pearls (ties: the first clockwise after the removed seat); nobody if none has any."""
        candidates = [s for s in self._clockwise_after(state, seat) if not state.players[s].removed]
        best = max((state.players[s].pearls for s in candidates), default=0)
        state.pearl_master = None
        if best > 0:
            heir = next(s for s in candidates if state.players[s].pearls == best)
            state.pearl_master = heir
            events.append(PearlMasterTaken(thief=heir, victim=seat))

    def _clear_turn(self, state: ConspiracyState, events: list[Event]) -> None:
        """Put back what the active player was in the middle of taking."""
        seat = state.turn
        leftovers = state.revealed + state.pending
        if leftovers:
            self._discard(state, leftovers)
            events.append(LordsDiscarded(seat=seat, lords=faces(leftovers)))
        state.revealed = []
        state.pending = []
        if state.revealed_locations:
            state.face_up.extend(state.revealed_locations)
            events.append(LocationsLeftFaceUp(seat=seat, locations=tuple(state.revealed_locations)))
            state.revealed_locations = []
        state.location_place = None
        state.swap_first = None

    # --- views and result ----------------------------------------------------------

    def view(self, state: ConspiracyState, seat: Seat | None) -> ConspiracyView:
        """Built without validation (``trusted``): every field comes from the state."""
        awaiting = self.awaiting(state)
        prompt = None if seat is None else self.prompt_for(state, seat)
        return trusted(
            ConspiracyView,
            viewer=seat,
            stage=state.stage,
            turn=state.turn,
            turn_number=state.turn_number,
            players=[self._player_view(state, s) for s in range(state.seats)],
            deck_size=len(state.deck),
            piles={colour: list(faces(state.piles[colour])) for colour in COLOURS},
            location_deck_size=len(state.location_deck),
            face_up=list(state.face_up),
            revealed=list(faces(state.revealed)),
            pending=list(faces(state.pending)),
            revealed_locations=list(state.revealed_locations),
            location_place=state.location_place,
            swap_first=state.swap_first,
            restrictions=[r.model_copy() for r in state.restrictions],
            recruit_limit=self.recruit_limit(state) if state.stage is not Stage.OVER else None,
            pearl_master=state.pearl_master,
            ender=state.ender,
            last_turns=list(state.last_turns),
            awaiting=awaiting,
            scores=score_all(state),
            winners=list(state.winners),
            prompt=prompt,
        )

    @staticmethod
    def _player_view(state: ConspiracyState, seat: Seat) -> PlayerView:
        player = state.players[seat]
        return player_view(
            seat,
            tuple(player.lords),
            tuple((placed.location, placed.place) for placed in player.locations),
            (player.pearls, player.silver, player.gold),
            state.pearl_master == seat,
            player.removed,
        )

    def result(self, state: ConspiracyState) -> Result | None:
        if state.stage is not Stage.OVER:
            return None
        totals = tuple(s.total for s in score_all(state))
        return Result(winners=tuple(state.winners), scores=totals)


GAME = Conspiracy()
