"""What the conformance suite (tests/games/conformance) needs to know of The Bloody
Inn: its options (lengths, variants), how random games pick (mostly act, rarely
cancel), what each viewer cannot know (other hands, accomplices being played by
another player, the Entrance under its top card, the travellers removed unseen),
and its invariants: the 78 cards are all somewhere (the box holds the unseen
travellers, the unused peasants and the undertaker's corpses), the track never
passes 40 F, annexes hold no more corpses than their rank, only one player is
prompted and never a removed one, the undertaker asks only at a police
investigation and only a player with a real choice, every step opens a new moment, choices fit a
select, private events go only to their player, and the end's scores."""

from __future__ import annotations

import random

from games.base import Event, Prompt, Seat, copy_state
from games.bloody_inn import (
    GAME,
    ActionKind,
    BloodyInnOptions,
    BloodyInnState,
    BloodyInnView,
    Length,
)
from games.bloody_inn.cards import WEALTH_CAP, Card, spec
from games.bloody_inn.models import Act, BloodyInnChoice, Cancel, HandChanged, Pass, Stage
from games.bloody_inn.scoring import cheque_range
from tests.games.bloody_inn.helpers import full_deck

from .helpers import card_count

InnPrompt = Prompt[BloodyInnChoice]


def random_options(players: int, rng: random.Random) -> BloodyInnOptions:
    return BloodyInnOptions(
        length=rng.choice(list(Length)),
        first_come_first_served=rng.random() < 0.3,
        unlimited_wealth=rng.random() < 0.3,
        first_player=rng.randrange(players) if rng.random() < 0.2 else None,
    )


def check_rules(state: BloodyInnState, before: BloodyInnState | None, events: list[Event]) -> None:
    assert card_count(state) == full_deck()
    assert state.bistro >= 0 and state.box_peasants >= 0
    for player in state.players:
        assert 0 <= player.money <= WEALTH_CAP, "the track never passes 40 F"
        assert player.cheques >= 0
        assert player.annexes[0].card is None, "the Depot is always annex 0"
        assert len(player.annexes[0].corpses) <= 1
        for annex in player.annexes[1:]:
            assert annex.card is not None
            assert len(annex.corpses) <= spec(annex.card).rank
        if not player.active:
            assert player.hand == [] and player.corpses == []
    for room in state.rooms:
        assert room.open or (room.guest is None and room.owner is None and room.service is None)
        assert room.owner is None or state.players[room.owner].active
    if state.pending is not None:
        assert state.stage in (Stage.TARGET, Stage.PLACE, Stage.PAY)
    assert all(state.players[s].active for s in state.queue), "a removed player keeps a turn"
    assert all(state.players[d.seat].active for d in state.dismissals)
    check_undertaker(state)
    prompts = GAME.prompts(state)
    assert len(prompts) <= 1, "one player at a time"
    for prompt in prompts:
        assert state.players[prompt.player].active, "a removed player was prompted"
        assert len(prompt.choices) <= 25, "fits a Discord select"
    if before is not None and prompts:
        previous = GAME.prompts(before)
        assert previous[0].window != prompts[0].window, "each step opens a new moment"
    for event in events:
        if isinstance(event, HandChanged):
            assert event.audience == (event.seat,)
        else:
            assert event.public, f"{type(event).__name__} is private"
    if state.stage is Stage.OVER:
        result = GAME.result(state)
        assert result is not None and result.scores is not None
        assert all(score >= 0 for score in result.scores)
        assert all(state.players[w].active for w in result.winners)
        if state.solo_lost:
            assert result.winners == ()
            return
        if not all(p.active for p in state.players):
            return  # a removal may end the game at once, before the undertaker comes
        assert all(p.corpses == [] for p in state.players), "the undertaker took every corpse"
        if result.winners:
            best = max(result.scores[s] for s, p in enumerate(state.players) if p.active)
            assert all(result.scores[w] == best for w in result.winners), "the best score wins"
    else:
        assert GAME.result(state) is None


def check_undertaker(state: BloodyInnState) -> None:
    """The undertaker's round exists only while a player is asked how to pay it: at
    a police investigation, a player still in the game with corpses and a real
    choice; everyone after it still owes."""
    visit = state.undertaker
    if state.stage is not Stage.UNDERTAKER:
        assert visit is None, "an undertaker's round left open"
        return
    assert visit is not None and visit.owing and not visit.end, "asked only at the police"
    for seat in visit.owing:
        assert state.players[seat].active and state.players[seat].corpses
    low, high = cheque_range(state.players[visit.owing[0]], end=False)
    assert low < high, "asked only with a real choice"


def check_view(state: BloodyInnState, viewer: Seat | None, view: BloodyInnView) -> None:
    for player in view.players:
        if player.seat != viewer:
            assert player.hand is None, "a view shows another player's hand"
        else:
            assert player.hand == state.players[player.seat].hand
    if viewer is None:
        assert view.paying is None
    elif view.paying is not None:
        assert view.pending is not None and view.pending.actor == viewer


def scramble_unknown(
    state: BloodyInnState, viewer: Seat | None, rng: random.Random
) -> BloodyInnState:
    """A copy where every card ``viewer`` cannot know is shuffled among those places."""
    copy = copy_state(state)
    places: list[list[Card]] = [copy.box_unseen, copy.entrance]
    for seat, player in enumerate(copy.players):
        if seat != viewer:
            places.append(player.hand)
    pending = copy.pending
    if pending is not None and copy.queue and copy.queue[0] != viewer:
        places.append(pending.paid)
    top = copy.entrance.pop() if copy.entrance else None
    pool = [card for place in places for card in place]
    rng.shuffle(pool)
    for place in places:
        for i in range(len(place)):
            place[i] = pool.pop()
    if top is not None:
        copy.entrance.append(top)
    return copy


_WEIGHTS = {ActionKind.BURY: 4, ActionKind.BUILD: 4, ActionKind.BRIBE: 3, ActionKind.KILL: 1}


def random_choice(prompt: InnPrompt, rng: random.Random) -> BloodyInnChoice:
    """Mostly act rather than pass, and rarely cancel (uniform 15% of the time):
    uniform choices would cancel most actions and rarely build or bury."""
    choices = prompt.choices
    if rng.random() < 0.15:
        return rng.choice(choices)
    acts = [c for c in choices if isinstance(c, Act)]
    if acts:
        if rng.random() < 0.9:
            return rng.choices(acts, weights=[_WEIGHTS[a.action] for a in acts])[0]
        return rng.choice([c for c in choices if isinstance(c, Pass)])
    rest = [c for c in choices if not isinstance(c, Cancel)]
    return rng.choice(rest or choices)


def boost_hands(state: BloodyInnState) -> None:
    """Rich players (6 more travellers from the Entrance, 30 F), so that the rank-3
    annexes and multi-target actions happen often in random games."""
    for player in state.players:
        player.hand += [state.entrance.pop(0) for _ in range(6)]
        player.money = 30


def random_step(
    state: BloodyInnState, prompts: list[InnPrompt], rng: random.Random
) -> tuple[BloodyInnState, list[Event]]:
    """A timeout (4%), a removal (0.15%), else the prompted player's random choice."""
    roll = rng.random()
    if roll < 0.04:
        return GAME.timeout(state)
    if roll < 0.0415:
        active = [s for s, p in enumerate(state.players) if p.active]
        return GAME.forfeit(state, rng.choice(active))
    prompt = prompts[0]
    return GAME.apply(state, prompt.player, random_choice(prompt, rng))
