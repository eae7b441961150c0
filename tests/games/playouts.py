"""All-computer games for tests and benches: play one game to its end with a policy
in every seat, and measure one policy's share of wins against another."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.ai import Policy, decision_rng
from games.base import Event, Game, GameState, Result


@dataclass
class Playout:
    """One finished all-computer game."""

    result: Result
    state: GameState
    decisions: int
    per_seat_decisions: list[int] = field(default_factory=list)


class TooLong(Exception):
    """A playout exceeded its step budget (an engine or policy loop)."""


Watch = Callable[[GameState, int, Any, list[Event], GameState], None]
"""Told of every step of a playout: the state before it, the seat, its choice, the
events it made and the state after it."""


def play_out(
    game: Game[Any, Any, Any, Any],
    policies: Sequence[Policy[Any, Any]],
    seed: int,
    options: Any = None,
    max_steps: int = 20_000,
    watch: Watch | None = None,
) -> Playout:
    """Plays a whole game where seat ``i`` is ``policies[i]``, which is given its
    seat's visible history (the events that seat was shown, in order).

    When several seats are asked at once (a reaction window), a seeded random
    one of them answers first, as people would in no fixed order. ``watch`` (benches
    that study the games) is told of every step.
    """
    order = random.Random(seed ^ 0x5EED)
    state = game.setup(len(policies), options or game.options_model(), seed)
    decisions = 0
    per_seat = [0] * len(policies)
    histories: list[list[Event]] = [[] for _ in policies]
    while (result := game.result(state)) is None:
        if decisions >= max_steps:
            raise TooLong(f"{game.name} seed {seed}: no end after {max_steps} decisions")
        seat = order.choice(game.awaiting(state))
        view = game.view(state, seat)
        rng = decision_rng(seed, state.step, seat)
        choice = policies[seat].choose(view, rng, histories[seat])
        before = state
        state, events = game.apply(state, seat, choice)
        if watch is not None:
            watch(before, seat, choice, events, state)
        for event in events:
            audience = event.audience
            for each in range(len(policies)) if audience is None else audience:
                histories[each].append(event)
        decisions += 1
        per_seat[seat] += 1
    return Playout(result, state, decisions, per_seat)


def hero_share(
    game: Game[Any, Any, Any, Any],
    hero: Policy[Any, Any],
    others: Policy[Any, Any],
    players: int,
    games: int,
    seed: int,
    options: Callable[[int], Any] | None = None,
) -> float:
    """The hero's share of wins against ``others`` in every other seat over games
    ``0`` to ``games - 1`` (``hero_game``)."""
    shares = (
        hero_game(game, hero, others, players, index, seed, options) for index in range(games)
    )
    return sum(shares) / games


def hero_game(
    game: Game[Any, Any, Any, Any],
    hero: Policy[Any, Any],
    others: Policy[Any, Any],
    players: int,
    index: int,
    seed: int,
    options: Callable[[int], Any] | None = None,
) -> float:
    """The hero's share of game ``index`` against ``others`` in every other seat:
    seed ``seed + index``, options ``options(index)``, the hero at seat
    ``index mod players``; a shared win counts its part."""
    seat = index % players
    seats = [others] * players
    seats[seat] = hero
    table_options = options(index) if options is not None else None
    winners = play_out(game, seats, seed + index, table_options).result.winners
    return 1 / len(winners) if seat in winners else 0.0
