"""Random legal games for 1 to 4 players, short and long, every variant, with
invariants checked after every step.

Hypothesis draws each game's seed and options; a seeded ``random.Random``
drives the choices inside a game (fast, and a failing example replays from its
seed), with timeouts and moderator removals sprinkled in. Every step checks:
the 78 cards are all somewhere (the box holds the unseen travellers, the
unused peasants and the undertaker's corpses), the track never passes 40 F,
annexes hold no more corpses than their rank, only one player is prompted and
never a removed one, every choice fits a button code, private events go only to
their player, and no view shows what its viewer may not know — checked both
structurally and by scrambling every card the viewer cannot know (other hands,
accomplices being played by another player, the Entrance under its top card,
the travellers removed unseen) and requiring its view to stay the same.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Event, Prompt, Seat, copy_state
from games.bloody_inn import (
    GAME,
    ActionKind,
    BloodyInnOptions,
    BloodyInnState,
    BloodyInnView,
    Length,
)
from games.bloody_inn.cards import WEALTH_CAP, Card, full_deck, spec
from games.bloody_inn.models import Act, BloodyInnChoice, Cancel, HandChanged, Pass, Stage

from .helpers import card_count

GAMES_PER_PLAYER_COUNT = {1: 1000, 2: 300, 3: 170, 4: 140}
MAX_STEPS = 5000
InnPrompt = Prompt[BloodyInnChoice]

options_strategy = st.builds(
    BloodyInnOptions,
    length=st.sampled_from(Length),
    first_come_first_served=st.booleans(),
    unlimited_wealth=st.booleans(),
)


def check_invariants(
    state: BloodyInnState, prompts: list[InnPrompt], before: list[InnPrompt] | None
) -> None:
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
    assert len(prompts) <= 1, "one player at a time"
    for prompt in prompts:
        assert state.players[prompt.player].active, "a removed player was prompted"
        assert prompt.default in prompt.choices
        assert len(set(prompt.choices)) == len(prompt.choices)
        assert len(prompt.choices) <= 25, "fits a Discord select"
    if before and prompts:
        assert before[0].window != prompts[0].window, "each choice opens a new moment"
    if state.stage is Stage.OVER:
        assert prompts == []
        result = GAME.result(state)
        assert result is not None and result.scores is not None
        assert len(result.scores) == state.seats
        assert all(state.players[w].active for w in result.winners)
        if state.solo_lost:
            assert result.winners == ()
    else:
        assert GAME.result(state) is None
        assert prompts, "an unfinished game always asks someone"


def check_events(events: list[Event]) -> None:
    for event in events:
        if isinstance(event, HandChanged):
            assert event.audience == (event.seat,)
        else:
            assert event.public, f"{type(event).__name__} is private"
        GAME.parse_event(event.model_dump_json())


def check_views(state: BloodyInnState, rng: random.Random) -> None:
    """One viewer per step, the spectator or a seat (thousands of steps cover all)."""
    viewer = rng.choice([None, *range(state.seats)])
    view = GAME.view(state, viewer)
    for player in view.players:
        if player.seat != viewer:
            assert player.hand is None, "a view shows another player's hand"
        else:
            assert player.hand == state.players[player.seat].hand
    if viewer is None:
        assert view.prompt is None and view.paying is None
    elif view.paying is not None:
        assert view.pending is not None and view.pending.actor == viewer
    if rng.random() < 0.05:
        # views are built without validation (speed): they must still be valid
        assert BloodyInnView.model_validate_json(view.model_dump_json()) == view
    scrambled = scramble_unknown(state, viewer, rng)
    assert GAME.view(scrambled, viewer) == view, (
        f"seat {viewer}'s view depends on cards it cannot know"
    )


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


def play_random_game(
    players: int, seed: int, options: BloodyInnOptions, boost: bool = False
) -> BloodyInnState:
    rng = random.Random(seed)
    state = GAME.setup(players, options, seed)
    if boost:
        boost_hands(state)
    prompts = GAME.prompts(state)
    check_invariants(state, prompts, None)
    for _ in range(MAX_STEPS):
        if GAME.result(state) is not None:
            return state
        before = prompts
        state, events = random_step(state, prompts, rng)
        prompts = GAME.prompts(state)
        check_invariants(state, prompts, before)
        check_events(events)
        check_views(state, rng)
    raise AssertionError(f"no end after {MAX_STEPS} steps (seed {seed})")


def boost_hands(state: BloodyInnState) -> None:
    """Rich players (6 more travellers from the Entrance, 30 F), so that the rank-3
    annexes and multi-target actions happen often in random games."""
    for player in state.players:
        player.hand += [state.entrance.pop(0) for _ in range(6)]
        player.money = 30


_WEIGHTS = {ActionKind.BURY: 4, ActionKind.BUILD: 4, ActionKind.BRIBE: 3, ActionKind.KILL: 1}


def pick(prompt: InnPrompt, rng: random.Random) -> BloodyInnChoice:
    """Mostly act rather than pass, and rarely cancel (uniform 15% of the time)."""
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


def random_step(
    state: BloodyInnState, prompts: list[InnPrompt], rng: random.Random
) -> tuple[BloodyInnState, list[Event]]:
    roll = rng.random()
    if roll < 0.04:
        return GAME.timeout(state)
    if roll < 0.0415:
        active = [s for s, p in enumerate(state.players) if p.active]
        return GAME.forfeit(state, rng.choice(active))
    prompt = prompts[0]
    return GAME.apply(state, prompt.player, pick(prompt, rng))


def _finishes(players: int, seed: int, options: BloodyInnOptions, boost: bool) -> None:
    final = play_random_game(players, seed, options, boost)
    result = GAME.result(final)
    assert result is not None and final.stage is Stage.OVER


@settings(max_examples=GAMES_PER_PLAYER_COUNT[1])
@given(seed=st.integers(0, 2**63), options=options_strategy, boost=st.booleans())
def test_random_solo_games_end_with_invariants_kept(
    seed: int, options: BloodyInnOptions, boost: bool
) -> None:
    _finishes(1, seed, options, boost)


@settings(max_examples=GAMES_PER_PLAYER_COUNT[2])
@given(seed=st.integers(0, 2**63), options=options_strategy, boost=st.booleans())
def test_random_two_player_games_end_with_invariants_kept(
    seed: int, options: BloodyInnOptions, boost: bool
) -> None:
    _finishes(2, seed, options, boost)


@settings(max_examples=GAMES_PER_PLAYER_COUNT[3])
@given(seed=st.integers(0, 2**63), options=options_strategy, boost=st.booleans())
def test_random_three_player_games_end_with_invariants_kept(
    seed: int, options: BloodyInnOptions, boost: bool
) -> None:
    _finishes(3, seed, options, boost)


@settings(max_examples=GAMES_PER_PLAYER_COUNT[4])
@given(seed=st.integers(0, 2**63), options=options_strategy, boost=st.booleans())
def test_random_four_player_games_end_with_invariants_kept(
    seed: int, options: BloodyInnOptions, boost: bool
) -> None:
    _finishes(4, seed, options, boost)


@settings(max_examples=30)
@given(seed=st.integers(0, 2**63), players=st.integers(1, 4), options=options_strategy)
def test_replay_gives_the_identical_final_state(
    seed: int, players: int, options: BloodyInnOptions
) -> None:
    """The same seed, options and log (choices, timeouts, removals) give the same
    state, step by step, as the bot replays a table from its action log."""
    rng = random.Random(seed)
    state = GAME.setup(players, options, seed)
    log: list[tuple[str, Seat, bytes]] = []
    while GAME.result(state) is None:
        roll = rng.random()
        if roll < 0.05:
            log.append(("timeout", 0, b""))
            state, _ = GAME.timeout(state)
        elif roll < 0.052:
            seat = rng.choice([s for s, p in enumerate(state.players) if p.active])
            log.append(("forfeit", seat, b""))
            state, _ = GAME.forfeit(state, seat)
        else:
            prompt = GAME.prompts(state)[0]
            choice = pick(prompt, rng)
            log.append(("choice", prompt.player, GAME.choice_adapter.dump_json(choice)))
            state, _ = GAME.apply(state, prompt.player, choice)
    replayed = GAME.setup(players, options, seed)
    for kind, seat, raw in log:
        if kind == "timeout":
            replayed, _ = GAME.timeout(replayed)
        elif kind == "forfeit":
            replayed, _ = GAME.forfeit(replayed, seat)
        else:
            replayed, _ = GAME.apply(replayed, seat, GAME.parse_choice(raw))
    assert replayed == state
    assert replayed.model_dump_json() == state.model_dump_json()
