"""Replays of games that are over, rebuilt by the engine from the stored log.

The action log is the truth: START (the table's seed, its options and seat
count), then each CHOICE, COMPUTER, TIMEOUT, FORFEIT or END, applied exactly as
``bot.tables.TableService`` applied it (``act`` and ``play_computer``: a choice;
``fire``: the window's defaults; ``remove_player``: a forfeit; ``end``: no change).
The rebuilt last state must be the stored one: otherwise the replay is refused
(and the mismatch logged), never shown wrong. No Discord here.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from games.base import Event, GameState, IllegalChoice, Seat
from games.entry import AnyGame
from games.registry import GAMES

from .storage.models import ActionKind, ActionRecord, GameRecord, SeatRecord, TableRecord
from .storage.repository import Repository

log = logging.getLogger("bot.replays")


class ReplayUnavailable(Exception):
    """No replay can be shown: ``key`` names the polite text (under ``replay.``)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class ReplayMismatch(Exception):
    """The stored log does not rebuild the stored game (a bug, or damaged data)."""


@dataclass(frozen=True)
class ReplayStep:
    """One stored version: the action that produced it, the state after it and the
    events the engine produced on the way."""

    version: int
    kind: ActionKind
    seat: Seat | None
    state: GameState
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Replay:
    """A game that is over, every stored version of it in order (``steps[0]`` is the
    deal)."""

    table: TableRecord
    record: GameRecord
    seats: list[SeatRecord]
    steps: list[ReplayStep]

    @property
    def game(self) -> AnyGame:
        return GAMES[self.table.game]

    def step(self, index: int) -> tuple[int, ReplayStep]:
        """The step at ``index`` clamped to the replay's range, with its index."""
        index = min(max(index, 0), len(self.steps) - 1)
        return index, self.steps[index]


def replay_steps(
    game: AnyGame, options: Any, seed: int, players: int, actions: list[ActionRecord]
) -> list[ReplayStep]:
    """Every stored version's state and events, from the seed and the log. Raises
    ReplayMismatch when the log does not fit the engine."""
    if not actions or actions[0].kind is not ActionKind.START:
        raise ReplayMismatch("the log does not begin with START")
    state: GameState = game.setup(players, options, seed)
    steps = [ReplayStep(0, ActionKind.START, None, state, ())]
    for expected, action in enumerate(actions[1:], start=1):
        if action.version != expected:
            raise ReplayMismatch(f"version {action.version} where {expected} was expected")
        try:
            state, events = _applied(game, state, action)
        except IllegalChoice as error:
            raise ReplayMismatch(f"version {action.version}: {error!r}") from error
        steps.append(ReplayStep(action.version, action.kind, action.seat, state, tuple(events)))
    return steps


def _applied(
    game: AnyGame, state: GameState, action: ActionRecord
) -> tuple[GameState, list[Event]]:
    """The state after ``action`` and its events, as the table service made them."""
    kind = action.kind
    if kind in (ActionKind.CHOICE, ActionKind.COMPUTER):
        if action.seat is None or action.choice_json is None:
            raise ReplayMismatch(f"version {action.version}: a choice without seat or choice")
        return game.apply(state, action.seat, game.parse_choice(action.choice_json))
    if kind is ActionKind.TIMEOUT:
        return game.timeout(state)
    if kind is ActionKind.FORFEIT:
        if action.seat is None:
            raise ReplayMismatch(f"version {action.version}: a forfeit without a seat")
        return game.forfeit(state, action.seat)
    if kind is ActionKind.END:
        return state, []
    raise ReplayMismatch(f"version {action.version}: unexpected {kind.value}")


async def load_replay(repo: Repository, table_id: int) -> Replay:
    """The replay of a table whose game is over. Raises ReplayUnavailable: "unavailable"
    for a table without a record (unknown, lobby, running), "mismatch" when the log
    does not rebuild the stored state (logged as an error)."""
    table = await repo.get_table(table_id)
    record = await repo.game_record(table_id)
    if table is None or record is None or table.seed is None:
        raise ReplayUnavailable("unavailable")
    game = GAMES[table.game]
    seats = await repo.seats(table_id)
    try:
        options = game.options_model.model_validate_json(table.options_json)
        actions = await repo.actions(table_id)
        # A long game takes tens of milliseconds to rebuild: not on the event loop.
        steps = await asyncio.to_thread(
            replay_steps, game, options, table.seed, len(seats), actions
        )
        await _check_against_stored(repo, table_id, steps)
    except ReplayMismatch as mismatch:
        log.error("table %s cannot be replayed: %s", table_id, mismatch)
        raise ReplayUnavailable("mismatch") from mismatch
    return Replay(table=table, record=record, seats=seats, steps=steps)


async def _check_against_stored(repo: Repository, table_id: int, steps: list[ReplayStep]) -> None:
    stored = await repo.load_state(table_id)
    last = steps[-1]
    if stored is None or stored.version != last.version:
        found = None if stored is None else stored.version
        raise ReplayMismatch(f"the log ends at version {last.version}, the state is at {found}")
    if stored.state_json != last.state.model_dump_json():
        raise ReplayMismatch("the log does not rebuild the stored state")
