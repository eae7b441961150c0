"""Random legal games for 2 to 13 players, with invariants checked after every step.

Hypothesis draws each game's seed and whether it uses a random valid custom set;
a seeded ``random.Random`` drives the choices inside a game (fast, and a
failing example replays from its seed). Timeouts and removals are sprinkled
in. Every step checks: cards conserved, coins conserved (players + courthouse
= starting coins + what the bank paid, as told by the events), nobody below 0,
one prompt at most and only for a player in play, fresh memories always true,
private events only to their owner, the end conditions, and that no view
depends on a card its viewer has not legitimately seen: every card the viewer
has no fresh memory of is scrambled (and every other observer's memories
replaced by noise), and the view must stay the same.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Event, InvalidOptions, Rng, Seat
from games.mascarade import GAME, Character, MascaradeOptions, MascaradeState
from games.mascarade.cards import (
    EIGHT_PLUS,
    WINNING_COINS,
    allowed_card_counts,
    check_custom_set,
)
from games.mascarade.models import (
    CardSeen,
    ChooseCard,
    CoinsFromBank,
    GameWon,
    Knowledge,
    MascaradeChoice,
    PlayerRemoved,
    Stage,
    Swap,
    SwapDecided,
    WinReason,
)

GAMES_PER_PLAYER_COUNT = {**dict.fromkeys(range(2, 7), 200), **dict.fromkeys(range(7, 14), 120)}
"""Games per player count, sized to the CI budget (~40 s for all counts on one core):
a 13-player game checks ~110 steps, each with two views and a scrambled copy.
``MASCARADE_GAMES_SCALE=10`` runs ten times as many (a longer local soak)."""
MAX_STEPS = 3000
PLAYER_COUNTS = range(2, 14)
NOISE: list[Character | None] = [None, *Character]
ENCODABLE: set[tuple[object, ...]] = set()
"""Choices already checked to encode in under 80 characters."""


class Ledger:
    """Coins the bank paid out according to the events (to check conservation)."""

    def __init__(self) -> None:
        self.bank_out = 0

    def record(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, CoinsFromBank):
                self.bank_out += event.amount
            elif isinstance(event, PlayerRemoved):
                self.bank_out -= event.coins_returned


def check_invariants(state: MascaradeState, events: list[Event], ledger: Ledger) -> None:
    assert Counter(state.cards) == Counter(state.characters), "cards are conserved"
    assert len(state.cards) == state.seats * state.hand_size + state.centre_size
    assert all(c >= 0 for c in state.coins)
    assert state.courthouse >= 0
    assert state.bank_out == ledger.bank_out, "every bank movement is an event"
    assert sum(state.coins) + state.courthouse == 6 * state.seats + state.bank_out
    for seat in range(state.seats):
        if not state.in_play[seat]:
            assert state.coins[seat] == 0
    for knowledge in [*state.knowledge, state.public]:
        assert all(
            seen is None or stale or seen is card
            for seen, stale, card in zip(knowledge.seen, knowledge.stale, state.cards, strict=True)
        ), "a fresh memory is always true"
    for event in events:
        if isinstance(event, CardSeen):
            assert event.audience == (event.seat,)
        elif isinstance(event, SwapDecided):
            assert event.audience == (event.actor,)
        else:
            assert event.public, f"{type(event).__name__} has no secret: it is public"
    prompts = GAME.prompts(state)
    assert len(prompts) <= 1, "one player is asked at a time"
    for prompt in prompts:
        assert state.in_play[prompt.player], "a removed player was prompted"
        assert prompt.default in prompt.choices
        keys = [(type(c), *c.__dict__.values()) for c in prompt.choices]
        assert len(set(keys)) == len(keys), "every choice is offered once"
        assert len(keys) <= 25, "fits a Discord select"
        for key, choice in zip(keys, prompt.choices, strict=True):
            if key not in ENCODABLE:
                assert len(GAME.choice_adapter.dump_json(choice)) < 80
                ENCODABLE.add(key)
            check_takes_no_protected_card(prompt.player, choice)
    if state.stage is Stage.CONTEST:
        announcement = state.announcement
        assert announcement is not None
        (prompt,) = prompts
        assert prompt.player == announcement.to_ask[0] != announcement.claimant
        answered = [c.seat for c in announcement.contesters] + announcement.silent
        assert not set(answered) & set(announcement.to_ask), "each player is asked once"
    if state.stage is Stage.TURN:
        (prompt,) = prompts
        assert prompt.player == state.turn
        playing = [s for s in range(state.seats) if state.in_play[s]]
        assert all(0 < state.coins[s] < WINNING_COINS for s in playing)
        if state.turn_number <= 4:
            assert state.must_swap
        if state.must_swap:
            assert all(isinstance(c, Swap) for c in prompt.choices)
    if state.stage is Stage.OVER:
        check_end(state, events)


def check_takes_no_protected_card(seat: Seat, choice: MascaradeChoice) -> None:
    """Two-player game: nobody may take another player's protected card (slot 2)."""
    if isinstance(choice, Swap) and choice.target not in (None, seat):
        assert choice.target_slot < 2
    if isinstance(choice, ChooseCard):
        assert choice.target != seat and choice.slot < 2


def check_end(state: MascaradeState, events: list[Event]) -> None:
    assert GAME.prompts(state) == []
    won = [e for e in events if isinstance(e, GameWon)]
    assert len(won) == 1 and list(won[0].winners) == state.winners
    playing = [s for s in range(state.seats) if state.in_play[s]]
    assert set(state.winners) <= set(playing)
    reason = won[0].reason
    if reason is WinReason.THIRTEEN:
        assert state.winners == [s for s in playing if state.coins[s] >= WINNING_COINS]
    elif reason is WinReason.BANKRUPTCY:
        assert any(state.coins[s] == 0 for s in playing)
        top = max(state.coins[s] for s in playing)
        assert state.winners == [s for s in playing if state.coins[s] == top]
    elif reason is WinReason.CHEAT:
        assert len(state.winners) == 1 and state.coins[state.winners[0]] >= 10
    else:
        assert state.winners == playing and len(playing) == 1


def check_views(state: MascaradeState, rng: random.Random) -> None:
    """One viewer per step, the spectator or a seat (many games cover every seat)."""
    viewer = rng.choice([None, *range(state.seats)])
    view = GAME.view(state, viewer)
    knowledge = state.public if viewer is None else state.knowledge[viewer]
    shown = [m for p in view.players for m in p.cards] + view.centre
    assert shown == knowledge.memories()
    assert (view.prompt is not None) == (viewer in GAME.awaiting(state))
    scrambled = scramble_unknown(state, viewer, rng)
    assert GAME.view(scrambled, viewer) == view, (
        f"seat {viewer}'s view depends on something it cannot know"
    )


def scramble_unknown(
    state: MascaradeState, viewer: Seat | None, rng: random.Random
) -> MascaradeState:
    """A copy where every card ``viewer`` has no fresh memory of is shuffled among
    those places, and every other observer's knowledge is replaced by noise."""
    own = state.public if viewer is None else state.knowledge[viewer]
    unknown = [p for p in range(len(state.cards)) if not own.knows(p)]
    pool = [state.cards[p] for p in unknown]
    rng.shuffle(pool)
    cards = list(state.cards)
    for place, card in zip(unknown, pool, strict=True):
        cards[place] = card
    noise = Knowledge(
        seen=rng.choices(NOISE, k=len(cards)), stale=rng.choices((False, True), k=len(cards))
    )
    knowledge = [own if seat == viewer else noise for seat in range(state.seats)]
    # The view only reads: a shallow copy with fresh fields is a safe scrambled twin.
    return state.model_copy(
        update={
            "cards": cards,
            "knowledge": knowledge,
            "public": own if viewer is None else noise,
            "rng": Rng(state=rng.getrandbits(64)),
        }
    )


def random_custom_set(players: int, rng: random.Random) -> tuple[Character, ...] | None:
    """A random set that the seed's rules allow (None: give up, use the official one)."""
    low, high = allowed_card_counts(players)
    pool = [c for c in Character if c is not Character.JUDGE]
    pool = [c for c in pool if players >= 8 or c not in EIGHT_PLUS]
    for _ in range(50):
        size = rng.randint(low, high)
        cards = [Character.JUDGE]
        for character in rng.sample(pool, len(pool)):
            copies = 2 if character is Character.PEASANT else 1
            if len(cards) + copies <= size:
                cards.extend([character] * copies)
        try:
            check_custom_set(players, cards)
        except InvalidOptions:
            continue
        return tuple(cards)
    return None


def play_random_game(players: int, seed: int, custom: bool) -> MascaradeState:
    rng = random.Random(seed)
    characters = random_custom_set(players, rng) if custom and players >= 4 else None
    state = GAME.setup(players, MascaradeOptions(characters=characters), seed)
    ledger = Ledger()
    check_invariants(state, [], ledger)
    check_views(state, rng)
    for _ in range(MAX_STEPS):
        if GAME.result(state) is not None:
            return state
        state, events = random_step(state, rng)
        ledger.record(events)
        check_invariants(state, events, ledger)
        check_views(state, rng)
    raise AssertionError(f"no end after {MAX_STEPS} steps (seed {seed})")


def random_step(state: MascaradeState, rng: random.Random) -> tuple[MascaradeState, list[Event]]:
    roll = rng.random()
    if roll < 0.05:
        return GAME.timeout(state)
    if roll < 0.053:
        playing = [s for s in range(state.seats) if state.in_play[s]]
        return GAME.forfeit(state, rng.choice(playing))
    (prompt,) = GAME.prompts(state)
    return GAME.apply(state, prompt.player, rng.choice(prompt.choices))


def _examples(players: int) -> int:
    scale = float(os.environ.get("MASCARADE_GAMES_SCALE", "1"))
    return max(1, int(GAMES_PER_PLAYER_COUNT[players] * scale))


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_games_end_with_invariants_kept(players: int) -> None:
    @settings(max_examples=_examples(players))
    @given(seed=st.integers(0, 2**63), custom=st.booleans())
    def run(seed: int, custom: bool) -> None:
        final = play_random_game(players, seed, custom)
        result = GAME.result(final)
        assert result is not None and result.winners

    run()


@settings(max_examples=30)
@given(seed=st.integers(0, 2**63), players=st.integers(2, 13))
def test_replay_gives_the_identical_final_state(seed: int, players: int) -> None:
    """The same seed, options and choices give the same state, choice by choice."""
    rng = random.Random(seed)
    options = MascaradeOptions(first_player=rng.randrange(players))
    state = GAME.setup(players, options, seed)
    log = []
    while GAME.result(state) is None:
        (prompt,) = GAME.prompts(state)
        choice = rng.choice(prompt.choices)
        log.append((prompt.player, GAME.choice_adapter.dump_json(choice)))
        state, _ = GAME.apply(state, prompt.player, choice)
    replayed = GAME.setup(players, options, seed)
    for seat, raw in log:
        replayed, _ = GAME.apply(replayed, seat, GAME.parse_choice(raw))
    assert replayed == state
    assert replayed.model_dump_json() == state.model_dump_json()


def test_random_custom_sets_are_valid_and_varied() -> None:
    """The property tests' custom-set generator really produces custom sets."""
    rng = random.Random(1)
    for players in range(4, 14):
        sets = {random_custom_set(players, rng) for _ in range(20)}
        assert None not in sets and len(sets) > 1
        for cards in sets:
            assert cards is not None
            check_custom_set(players, cards)
