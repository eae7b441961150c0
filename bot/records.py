"""Records of games that are over, and what is worked out from them afterwards.

``record_of`` builds the record of a game as it ended: ``TableService`` writes it
in the transaction of the step that ends the game. The ``RecordKeeper`` does the
rest off that step, so no click waits on it:

- a game's own statistics (Complots bluffs, ``GameEntry.stats``), computed from
  the game's replay in a worker thread once the game is over and stored per
  seat; whatever a crash left uncomputed is computed at the next boot;
- at boot, records of the games that ended before records existed (their stored
  state and seats say everything a record holds), with the ratings they move.

Nothing here reads a running game: statistics and records exist only for games
that are over, when nothing is secret any more. No Discord here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from itertools import pairwise
from typing import TYPE_CHECKING

from games.base import GameState, Result
from games.entry import SeatStats, Step
from games.registry import GAMES

from .replays import ReplayMismatch, replay_steps
from .storage.models import (
    ActionRecord,
    GameOutcome,
    GameRecord,
    RecordSeat,
    SeatRecord,
    TableRecord,
    TableStatus,
)
from .storage.repository import Repository

if TYPE_CHECKING:
    from .tables import Snapshot

log = logging.getLogger("bot.records")

BATCH = 20
"""Records whose statistics one pass computes before looking for more."""


def record_of(
    table: TableRecord,
    seats: Sequence[SeatRecord],
    state: GameState,
    outcome: GameOutcome,
    result: Result | None,
    ended_at: float,
) -> GameRecord:
    """The record of the game ``state`` ends (``result``: its winners, for a game
    played to its end)."""
    winners = set(result.winners) if result is not None else set()
    scores = result.scores if result is not None else None
    return GameRecord(
        table_id=table.id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        game=table.game,
        options_json=table.options_json,
        outcome=outcome,
        ended_at=ended_at,
        steps=state.step,
        seats=[
            RecordSeat(
                seat=s.seat,
                user_id=s.user_id,
                name=s.name,
                computer=s.computer,
                removed=s.removed,
                winner=s.seat in winners,
                score=None if scores is None else scores[s.seat],
            )
            for s in seats
        ],
    )


def game_stats(
    table: TableRecord, players: int, actions: list[ActionRecord]
) -> dict[int, SeatStats]:
    """The game's own statistics of each seat (empty for a game that keeps none),
    from its replay. Raises ReplayMismatch when the log does not replay."""
    entry = GAMES.entry(table.game)
    if entry.stats is None or table.seed is None:
        return {}
    options = entry.game.options_model.model_validate_json(table.options_json)
    steps = replay_steps(entry.game, options, table.seed, players, actions)
    pairs: list[Step] = [(before.state, after.events) for before, after in pairwise(steps)]
    return dict(enumerate(entry.stats(pairs, players)))


class RecordKeeper:
    """Works out what a game that is over adds to the records, off the step that
    ended it (a ``TableService`` listener)."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def table_changed(self, snapshot: Snapshot) -> None:
        if snapshot.table.status in (TableStatus.FINISHED, TableStatus.CANCELLED):
            self._wake.set()

    def start(self) -> None:
        """In the background (boot does not wait on it): records past games that
        have none, then computes every missing statistic, and again whenever a game
        ends."""
        self._wake.set()
        self._task = asyncio.create_task(self._work(), name="record-keeper")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _work(self) -> None:
        try:
            await self.backfill()
        except Exception:
            log.exception("recording past games failed")
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self.compute_pending()
            except Exception:
                log.exception("computing game statistics failed")

    async def compute_pending(self) -> int:
        """Computes and stores the statistics of every record still without them;
        returns how many records it did."""
        done = 0
        while table_ids := await self.repo.records_awaiting_stats(BATCH):
            for table_id in table_ids:
                await self.compute(table_id)
                done += 1
        return done

    async def compute(self, table_id: int) -> None:
        """One record's statistics. A game whose log does not replay gets none (the
        mismatch is logged), so it is not tried again at every boot."""
        table = await self.repo.get_table(table_id)
        seats = await self.repo.seats(table_id)
        actions = await self.repo.actions(table_id)
        stats: dict[int, SeatStats] = {}
        if table is not None:
            try:
                stats = await asyncio.to_thread(game_stats, table, len(seats), actions)
            except ReplayMismatch as mismatch:
                log.error("no statistics for table %s: %s", table_id, mismatch)
        await self.repo.save_stats(table_id, stats)

    async def backfill(self) -> int:
        """Records of the games that ended before records existed, with their ratings;
        returns how many it added."""
        records = []
        for table_id in await self.repo.unrecorded_games():
            if (record := await self._past_record(table_id)) is not None:
                records.append(record)
        if records:
            await self.repo.add_past_records(records)
            log.info("recorded %d games that ended before records existed", len(records))
        return len(records)

    async def _past_record(self, table_id: int) -> GameRecord | None:
        table = await self.repo.get_table(table_id)
        stored = await self.repo.load_state(table_id)
        if table is None or stored is None or table.game not in GAMES:
            return None
        game = GAMES[table.game]
        state = game.state_model.model_validate_json(stored.state_json)
        result = game.result(state)
        if table.status is TableStatus.FINISHED and result is not None:
            outcome = GameOutcome.FINISHED
        elif table.status is TableStatus.CANCELLED:
            outcome, result = GameOutcome.ENDED, None
        else:
            return None
        seats = await self.repo.seats(table_id)
        return record_of(table, seats, state, outcome, result, table.updated_at)
