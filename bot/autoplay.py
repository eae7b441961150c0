"""Paces computer players: after every change of a table, if its open prompts
wait on a computer (a computer seat, or a computer playing for a player marked
away), one computer move is played after a short delay, so people can follow.
The computer thinks during that delay (a search may take most of it, in a worker
process: ``bot.thinking``); if the table moved on meanwhile, it thinks again.

Nothing is stored: who must move is read from the state, so after a restart
``resume`` finds every waiting computer again.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from games.base import PromptKind

if TYPE_CHECKING:
    from bot.tables import Snapshot, TableService

log = logging.getLogger("bot.autoplay")


class Autoplay:
    def __init__(self, service: TableService, *, delay: float) -> None:
        self.service = service
        self.delay = delay
        """Seconds before a computer's turn or private choice; half that for a reaction."""
        self._pending: dict[int, asyncio.Task[None]] = {}
        self._stopped = False
        """Shutting down: a step still committed while the bot closes (a click being
        answered) starts no computer move, whose thinking would outlive the workers."""

    async def table_changed(self, snapshot: Snapshot) -> None:
        if self._stopped:
            return
        table_id = snapshot.table.id
        if table_id in self._pending:
            return  # the pending move reads the state when it wakes
        seats = self.service.computers_awaited(snapshot)
        if not seats or snapshot.state is None:
            return
        prompt = snapshot.game.prompt_for(snapshot.state, seats[0])
        reaction = prompt is not None and prompt.kind is PromptKind.REACTION
        delay = self.delay / 2 if reaction else self.delay
        self._pending[table_id] = asyncio.create_task(
            self._move_after(table_id, delay), name=f"computer-move-{table_id}"
        )

    async def _move_after(self, table_id: int, delay: float) -> None:
        planning = asyncio.create_task(self.service.plan_computer(table_id))
        try:
            await asyncio.sleep(delay)
            planned = await planning
        except Exception:
            log.exception("computer move on table %s failed", table_id)
            return
        finally:
            planning.cancel()  # when the wait itself was cancelled (stop)
            # Gone before the move, so the move's own change schedules the next one.
            self._pending.pop(table_id, None)
        try:
            if planned is not None and not await self.service.play_computer(table_id, planned):
                # The table moved on while the computer thought: look at it again.
                await self.table_changed(await self.service.snapshot(table_id))
        except Exception:
            log.exception("computer move on table %s failed", table_id)

    async def resume(self) -> None:
        """At boot: every running table whose prompts wait on a computer gets its move,
        and the workers of its searching computers are started before their turns."""
        service = self.service
        for table_id in await service.repo.tables_with_computers(service.away_after):
            try:
                snapshot = await service.snapshot(table_id)
                service.warm_computers(snapshot.table, snapshot.seats)
                await self.table_changed(snapshot)
            except Exception:
                log.exception("resuming computers of table %s failed", table_id)

    async def stop(self) -> None:
        self._stopped = True
        tasks = list(self._pending.values())
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=1.0)
        self._pending.clear()
