"""Bluff statistics of a Complots game that is over, read from its steps.

A claim is an action or a block that names a character (Duke, Assassin, ...);
it is a bluff when the claimant did not hold that character face down when it
made the claim. A challenge is won by the challenger when the claim fails, lost
when it is proved. Pure: the steps come from the replay of the stored log.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import Event, GameState, Seat
from games.entry import SeatStats, Step

from .cards import Character
from .models import (
    ActionDeclared,
    BlockDeclared,
    Challenged,
    ClaimFailed,
    ClaimProved,
    ComplotsState,
)

STATS = ("claims", "bluffs", "bluffs_caught", "challenges_won", "challenges_lost")
"""The counters, in the order they read."""


def bluff_stats(steps: Sequence[Step], players: int) -> list[SeatStats]:
    """Each seat's counters over ``steps`` (the state before each step, and the
    events it made), every counter present."""
    counts: list[SeatStats] = [dict.fromkeys(STATS, 0) for _ in range(players)]
    for before, events in steps:
        _count_step(_complots(before), events, counts)
    return counts


def _complots(state: GameState) -> ComplotsState:
    if not isinstance(state, ComplotsState):
        raise TypeError(f"not a Complots state: {type(state).__name__}")
    return state


def _count_step(before: ComplotsState, events: Sequence[Event], counts: list[SeatStats]) -> None:
    challenger: Seat | None = None
    for event in events:
        if isinstance(event, ActionDeclared) and event.claim is not None:
            _claim(before, event.actor, event.claim, counts)
        elif isinstance(event, BlockDeclared):
            _claim(before, event.blocker, event.character, counts)
        elif isinstance(event, Challenged):
            challenger = event.challenger
        elif isinstance(event, ClaimFailed):
            counts[event.claimant]["bluffs_caught"] += 1
            if challenger is not None:
                counts[challenger]["challenges_won"] += 1
        elif isinstance(event, ClaimProved) and challenger is not None:
            counts[challenger]["challenges_lost"] += 1


def _claim(
    before: ComplotsState, seat: Seat, character: Character, counts: list[SeatStats]
) -> None:
    counts[seat]["claims"] += 1
    if character not in before.players[seat].hidden():
        counts[seat]["bluffs"] += 1
