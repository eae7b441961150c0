"""What the conformance suite (tests/games/conformance) needs to know of Mascarade:
its options (official and random valid custom sets), what each viewer cannot know
(every card it has no fresh memory of, every other observer's memories), and its
invariants: cards conserved, coins conserved (players + courthouse = starting coins
+ what the bank paid, as told by the events), nobody below 0, one prompt at most and
only for a player in play, fresh memories always true, private events only to their
owner, every choice short enough for a button, and the end conditions."""

from __future__ import annotations

import random
from collections import Counter

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
    MascaradeView,
    PlayerRemoved,
    Stage,
    Swap,
    SwapDecided,
    WinReason,
)

NOISE: list[Character | None] = [None, *Character]
ENCODABLE: set[tuple[object, ...]] = set()
"""Choices already checked to encode in under 80 characters."""


def random_options(players: int, rng: random.Random) -> MascaradeOptions:
    characters = random_custom_set(players, rng) if players >= 4 and rng.random() < 0.5 else None
    first = rng.randrange(players) if rng.random() < 0.2 else None
    return MascaradeOptions(characters=characters, first_player=first)


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


def bank_paid(events: list[Event]) -> int:
    """Coins the bank paid out according to the events (minus coins returned)."""
    paid = 0
    for event in events:
        if isinstance(event, CoinsFromBank):
            paid += event.amount
        elif isinstance(event, PlayerRemoved):
            paid -= event.coins_returned
    return paid


def check_rules(state: MascaradeState, before: MascaradeState | None, events: list[Event]) -> None:
    assert Counter(state.cards) == Counter(state.characters), "cards are conserved"
    assert len(state.cards) == state.seats * state.hand_size + state.centre_size
    assert all(c >= 0 for c in state.coins)
    assert state.courthouse >= 0
    bank_before = 0 if before is None else before.bank_out
    assert state.bank_out - bank_before == bank_paid(events), "every bank movement is an event"
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
    """The step that ended the game told who won and why; the reason explains them."""
    won = [e for e in events if isinstance(e, GameWon)]
    assert len(won) == 1 and list(won[0].winners) == state.winners
    assert GAME.result(state) is not None
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


def check_view(state: MascaradeState, viewer: Seat | None, view: MascaradeView) -> None:
    """A view shows exactly the viewer's own memories of the cards."""
    knowledge = state.public if viewer is None else state.knowledge[viewer]
    shown = [m for p in view.players for m in p.cards] + view.centre
    assert shown == knowledge.memories()


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
