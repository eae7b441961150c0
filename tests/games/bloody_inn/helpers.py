"""A small driver for Bloody Inn scenario tests: rigged tables that keep all 78 cards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from games.base import Event, Seat
from games.bloody_inn import GAME, BloodyInnOptions, BloodyInnState, Card
from games.bloody_inn.cards import ORDER, SPECS
from games.bloody_inn.models import Annex, BloodyInnChoice, Stage
from tests.games.driver import EngineTable

C = Card


def full_deck() -> Counter[Card]:
    """All 78 guest cards by kind."""
    return Counter({s.card: s.copies for s in SPECS.values()})


def card_count(state: BloodyInnState) -> Counter[Card]:
    """Every card of the game, wherever it is (box, stacks, rooms, hands, annexes ...)."""
    cards: list[Card | None] = [*state.entrance, *state.exit, *state.box_unseen, *state.box]
    for player in state.players:
        cards += player.hand
        cards += player.corpses
        for a in player.annexes:
            cards.append(a.card)
            cards += a.corpses
    cards += [room.guest for room in state.rooms]
    cards.append(state.drawn)
    if state.pending is not None:
        cards += state.pending.paid
        cards += state.pending.corpses
        cards.append(state.pending.card)
    count = Counter(c for c in cards if c is not None)
    count[Card.PEASANT] += state.bistro + state.box_peasants
    return +count


def annex(card: Card | None, *corpses: Card) -> Annex:
    return Annex(card=card, corpses=list(corpses))


def rigged(
    players: int = 3,
    *,
    hands: Sequence[Sequence[Card]] | None = None,
    rooms: Mapping[int, Card] | None = None,
    annexes: Mapping[Seat, Sequence[Annex]] | None = None,
    corpses: Mapping[Seat, Sequence[Card]] | None = None,
    money: Sequence[int] | None = None,
    cheques: Sequence[int] | None = None,
    bistro: int = 0,
    turn: Seat | None = None,
    queue: Sequence[Seat] | None = None,
    first: Seat = 0,
    entrance: Sequence[Card] | None = None,
    exit_stack: Sequence[Card] | None = None,
    keys: Mapping[int, Seat | None] | None = None,
    service: Mapping[int, Seat] | None = None,
    season: int = 1,
    welcome: bool = False,
    options: BloodyInnOptions | None = None,
    seed: int = 7,
) -> BloodyInnState:
    """A table in the middle of a Night (``turn`` plays next, the queue goes on
    from there), or at the start of an Evening with ``welcome``. Cards named come
    from the deck; the other travellers form the Entrance (``entrance`` is put on
    top, its last card first) unless ``entrance`` is given, then they are in the
    box. Annexes get a Depot (index 0) in front of the ones given, unless the
    first one given is a Depot (``annex(None, ...)``). ``queue``
    overrides the turns left this Night (e.g. ``[2]``: seat 2's last action)."""
    opts = (options or BloodyInnOptions()).model_copy(update={"first_player": first})
    state = GAME.setup(players, opts, seed)
    pool = full_deck()
    hands = hands if hands is not None else [[] for _ in range(players)]
    used: list[Card] = []
    for seat, player in enumerate(state.players):
        player.hand = sorted(hands[seat], key=ORDER.__getitem__)
        player.corpses = list((corpses or {}).get(seat, []))
        given = list((annexes or {}).get(seat, []))
        player.annexes = given if given and given[0].card is None else [annex(None), *given]
        player.money = money[seat] if money is not None else 5
        player.cheques = cheques[seat] if cheques is not None else 1
        used += player.hand + player.corpses
        for a in player.annexes:
            used += ([a.card] if a.card is not None else []) + a.corpses
    for number, room in enumerate(state.rooms, start=1):
        room.guest = (rooms or {}).get(number)
        if keys is not None and number in keys:
            room.open = True
            room.owner = keys[number]
        room.service = (service or {}).get(number)
        if room.guest is not None:
            used.append(room.guest)
    used += list(exit_stack or [])
    used += list(entrance or [])
    peasants_used = used.count(Card.PEASANT) + bistro
    assert peasants_used <= pool[Card.PEASANT], "more peasants than the game has"
    rest = pool - Counter(used)
    assert Counter(used) <= pool, f"more copies than the deck has: {Counter(used) - pool}"
    others: list[Card] = sorted(
        (c for c in rest.elements() if c is not Card.PEASANT), key=ORDER.__getitem__
    )
    state.bistro = bistro
    state.box_peasants = pool[Card.PEASANT] - peasants_used
    state.exit = list(exit_stack or [])
    state.box = []
    state.drawn = None
    state.season = season
    if entrance is None:
        state.entrance = others
        state.box_unseen = []
    else:
        state.entrance = list(reversed(entrance))
        state.box_unseen = others
    state.pending = None
    state.dismissals = []
    if welcome:
        state.stage = Stage.WELCOME
        state.queue = []
        GAME._advance(state, [])
    else:
        order = [(first + i) % players for i in range(players)]
        start = order.index(turn if turn is not None else first)
        state.queue = list(queue) if queue is not None else (order + order)[start:]
        state.stage = Stage.ACTION
    assert card_count(state) == full_deck()
    return state


class Table(EngineTable[BloodyInnState, BloodyInnChoice]):
    """Plays choices on a state and keeps every event, like a table would."""

    game = GAME

    def do(self, seat: Seat, *choices: BloodyInnChoice) -> list[Event]:
        """One or several choices of the same seat in a row (a multi-step action)."""
        events: list[Event] = []
        for choice in choices:
            events += super().do(seat, choice)
        return events

    def default(self, seat: Seat) -> BloodyInnChoice:
        return self.prompt(seat).default

    def stage(self) -> Stage:
        return self.state.stage

    def money(self) -> list[int]:
        return [p.money for p in self.state.players]

    def cheques(self) -> list[int]:
        return [p.cheques for p in self.state.players]

    def hand(self, seat: Seat) -> list[Card]:
        return list(self.state.players[seat].hand)

    def conserved(self) -> bool:
        return card_count(self.state) == full_deck()
