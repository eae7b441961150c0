"""What the conformance suite (tests/games/conformance) needs to know of Conspiracy:
its options, what nobody may know (the order of both decks), and its invariants:
the 60 Lords and 24 Locations are all there exactly once, chambers hold at most 15
Lords and each Location sits on a key Lord, no unused key pair is left over, the
Pearl Master has the most pearls, only the active (not removed) player is asked,
from a short list of distinct choices; at the end, the result matches the scores."""

from __future__ import annotations

import random

from games.base import Event, Seat
from games.conspiracy import GAME, ConspiracyOptions, ConspiracyState
from games.conspiracy.cards import CHAMBER_SIZE, LORDS
from games.conspiracy.models import Stage
from games.conspiracy.scoring import score_all

from .helpers import check_conservation

MAX_CHOICES = 25
"""A Discord select holds 25 options."""


def random_options(players: int, rng: random.Random) -> ConspiracyOptions:
    return ConspiracyOptions(first_player=rng.randrange(players) if rng.random() < 0.3 else None)


def check_rules(
    state: ConspiracyState, before: ConspiracyState | None, events: list[Event]
) -> None:
    check_conservation(state)
    stage = state.stage
    for player in state.players:
        assert len(player.lords) <= CHAMBER_SIZE
        for placed in player.locations:
            assert 1 <= placed.place <= len(player.lords)
            assert LORDS[player.lords[placed.place - 1]].key is not None, "a Location moved"
        if stage is not Stage.LOCATION and stage is not Stage.LOCATION_KEEP:
            assert not GAME.has_key_pair(player), "an unused key pair was left"
    if state.pearl_master is not None:
        holder = state.players[state.pearl_master]
        assert not holder.removed and holder.pearls > 0
        assert all(p.pearls <= holder.pearls for p in state.players if not p.removed)
    else:
        assert all(p.pearls == 0 or p.removed for p in state.players)
    assert bool(state.revealed) == (stage is Stage.KEEP)
    assert bool(state.revealed_locations) == (stage is Stage.LOCATION_KEEP)
    assert (state.swap_first is not None) == (stage is Stage.SWAP_SECOND)
    if stage is Stage.OVER:
        assert not state.pending and not state.revealed
        in_play = [p for p in state.players if not p.removed]
        assert state.ender is not None or not state.deck or len(in_play) <= 1, "ended early"
        check_result(state)
        return
    prompts = GAME.prompts(state)
    assert [p.player for p in prompts] == [state.turn], "only the active player is asked"
    assert not state.players[state.turn].removed
    (prompt,) = prompts
    assert len(prompt.choices) <= MAX_CHOICES


def check_result(final: ConspiracyState) -> None:
    """The winners have the best score (pearls break ties) among those still in."""
    result = GAME.result(final)
    assert result is not None and result.winners
    assert not any(final.players[w].removed for w in result.winners)
    removed = [p.removed for p in final.players]
    scores = score_all(final)
    assert result.scores == tuple(s.total for s in scores)
    if sum(not r for r in removed) > 1:
        best = max((s.total, s.pearls) for s in scores if not removed[s.seat])
        assert {s.seat for s in scores if not removed[s.seat] and (s.total, s.pearls) == best} == (
            set(result.winners)
        )
    else:
        assert list(result.winners) == [seat for seat, r in enumerate(removed) if not r]


def scramble_unknown(
    state: ConspiracyState, viewer: Seat | None, rng: random.Random
) -> ConspiracyState:
    """A copy where what nobody may know, the order of both decks, is shuffled (a
    shallow copy: views never modify the state). Every viewer knows the same."""
    deck = list(state.deck)
    locations = list(state.location_deck)
    rng.shuffle(deck)
    rng.shuffle(locations)
    return state.model_copy(update={"deck": deck, "location_deck": locations})
