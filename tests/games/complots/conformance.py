"""What the conformance suite (tests/games/conformance) needs to know of Complots:
its options, what each viewer cannot know, and its invariants (cards conserved,
coins never negative, at most 2 cards per player, face-up cards never change,
eliminated players never prompted, one survivor at the end)."""

from __future__ import annotations

import random

from games.base import Event, Seat, copy_state
from games.complots import GAME, Character, ComplotsOptions, ComplotsState, Variant
from games.complots.models import ComplotsView, Stage

from .helpers import card_total


def random_options(players: int, rng: random.Random) -> ComplotsOptions:
    first = rng.randrange(players) if rng.random() < 0.2 else None
    return ComplotsOptions(variant=rng.choice(list(Variant)), first_player=first)


def check_rules(state: ComplotsState, before: ComplotsState | None, events: list[Event]) -> None:
    assert card_total(state) == state.deck_size, "cards are conserved"
    assert all(p.coins >= 0 for p in state.players)
    assert all(len(p.cards) <= 2 for p in state.players)
    if before is not None and before.stage is not Stage.PICK:
        for old, new in zip(before.players, state.players, strict=True):
            old_up = [(i, c.character) for i, c in enumerate(old.cards) if c.revealed]
            new_up = [(i, c.character) for i, c in enumerate(new.cards) if c.revealed]
            assert set(old_up) <= set(new_up), "a face-up card changed or went face down"
    prompts = GAME.prompts(state)
    if state.stage is not Stage.PICK:
        for prompt in prompts:
            assert state.players[prompt.player].alive, "an eliminated player was prompted"
    if state.stage is Stage.ACTION:
        assert state.players[state.turn].alive
    if state.stage is Stage.OVER:
        alive = [i for i, p in enumerate(state.players) if p.alive]
        assert alive == [state.winner]
        result = GAME.result(state)
        assert result is not None and result.winners == (state.winner,)


def check_view(state: ComplotsState, viewer: Seat | None, view: ComplotsView) -> None:
    for player in view.players:
        if player.seat != viewer:
            assert player.hidden is None, "a view shows another player's face-down cards"


def scramble_unknown(
    state: ComplotsState, viewer: Seat | None, rng: random.Random
) -> ComplotsState:
    """A copy where every card ``viewer`` cannot know is shuffled among those places."""
    copy = copy_state(state)
    pending = copy.pending
    known_slot = None
    if (
        viewer is not None
        and pending is not None
        and pending.actor == viewer
        and pending.target is not None
        and pending.shown_slot is not None
        and copy.stage is Stage.EXAMINE_DECIDE
    ):
        known_slot = (pending.target, pending.shown_slot)
    places: list[tuple[list[Character], int]] = []
    hand_slots = []
    for seat, player in enumerate(copy.players):
        if seat == viewer:
            continue
        for slot, card in enumerate(player.cards):
            if not card.revealed and (seat, slot) != known_slot:
                hand_slots.append(card)
        places.extend((player.packet, i) for i in range(len(player.packet)))
        places.extend((player.set_aside, i) for i in range(len(player.set_aside)))
    places.extend((copy.court, i) for i in range(len(copy.court)))
    places.extend((copy.third_packet, i) for i in range(len(copy.third_packet)))
    if pending is not None and pending.actor != viewer:
        places.extend((pending.drawn, i) for i in range(len(pending.drawn)))
    pool = [card.character for card in hand_slots] + [seq[i] for seq, i in places]
    rng.shuffle(pool)
    for card in hand_slots:
        card.character = pool.pop()
    for seq, i in places:
        seq[i] = pool.pop()
    return copy
