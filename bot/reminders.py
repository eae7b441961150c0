"""Reminds a person whose move the table waits on, once half its time is gone.

The table message changes in place, and Discord notifies nobody of an edit: a
player who looked away learns of their turn only when it times out. So when a
table waits on one person alone (a turn, or a private choice: not a reaction
window, which anyone may let pass) and half of that window's time has gone by, the
bot posts one short line in the table's channel that mentions that person, with a
link to the table. The line is deleted once the table moves on, so the channel
keeps no trail of them. A player who moves in time is never pinged; a computer, or
a computer playing for an away player, never is.

Nothing is stored, and a reminder is best-effort, not an outbox entry: one lost in
a crash or a restart costs nobody anything the game owes. A restarted bot arms
reminders from the tables' next changes (arming them at boot would load every
running table).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import discord

from games.base import PromptKind

from .ui.i18n import t

if TYPE_CHECKING:
    from bot.storage.models import Deadline
    from bot.tables import Snapshot, TableService
    from bot.ui.writes import Writes

log = logging.getLogger("bot.reminders")

REMIND_AFTER = 0.5
"""Share of a window's time after which its one awaited person is reminded."""


STOP_WAIT = 1.0
"""Seconds a shutdown waits for the reminder lines being posted or deleted."""


class Due(NamedTuple):
    """Whom a table waits on alone, in which window, and when to remind them."""

    user_id: int
    window: str
    at: float


class Shown(NamedTuple):
    """A reminder on show in a channel."""

    channel_id: int
    message_id: int
    window: str


@dataclass
class Waiting:
    """A reminder armed for a table: who, for which window."""

    user_id: int
    window: str
    handle: asyncio.TimerHandle


class Reminders:
    """A table listener (``TableService.listeners``) that pings a slow player."""

    def __init__(self, service: TableService, client: discord.Client, writes: Writes) -> None:
        self.service = service
        self.client = client
        self.writes = writes
        """The renderer's budget of REST writes (``bot.ui.writes``)."""
        self.clock = time.time
        self._armed: dict[int, Waiting] = {}
        self._posted: dict[int, Shown] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._stopped = False
        """Shutting down: the steps still committed while the bot closes (a click being
        answered) arm nothing, else a reminder would fire on a closed HTTP session."""

    async def table_changed(self, snapshot: Snapshot) -> None:
        if self._stopped:
            return
        table_id = snapshot.table.id
        due = self._due(snapshot)
        armed = self._armed.get(table_id)
        if armed is not None and (due is None or due.window != armed.window):
            armed.handle.cancel()
            del self._armed[table_id]
            armed = None
        shown = self._posted.get(table_id)
        if shown is not None and (due is None or due.window != shown.window):
            del self._posted[table_id]
            self._spawn(self._delete(shown.channel_id, shown.message_id))
            shown = None
        if due is None or armed is not None or shown is not None:
            return
        delay = due.at - self.clock()
        if delay <= 0:
            return  # already past: the window began before this process saw it
        window = due.window
        handle = asyncio.get_running_loop().call_later(
            delay, lambda: self._spawn(self._remind(table_id, window))
        )
        self._armed[table_id] = Waiting(due.user_id, window, handle)

    def _due(self, snapshot: Snapshot) -> Due | None:
        deadline: Deadline | None = snapshot.deadline
        if snapshot.state is None or deadline is None:
            return None
        prompts = snapshot.game.prompts(snapshot.state)
        if len(prompts) != 1 or prompts[0].kind is PromptKind.REACTION:
            return None
        seat = snapshot.seats[prompts[0].player]
        if seat.removed or self.service.computer_level(snapshot, seat) is not None:
            return None  # a computer moves for it (the one place that says so: the service)
        timeouts = snapshot.table.timeouts
        seconds = timeouts.turn if prompts[0].kind is PromptKind.TURN else timeouts.choice
        return Due(seat.user_id, deadline.window, deadline.due_at - seconds * (1 - REMIND_AFTER))

    async def _remind(self, table_id: int, window: str) -> None:
        armed = self._armed.pop(table_id, None)
        snapshot = await self.service.snapshot(table_id)
        due = self._due(snapshot)
        if armed is None or due is None or due.window != window or due.user_id != armed.user_id:
            return
        table = snapshot.table
        assert snapshot.deadline is not None
        left = max(round(snapshot.deadline.due_at - self.clock()), 1)
        link = f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"
        if table.message_id is not None:
            link += f"/{table.message_id}"
        content = t(
            "table.reminder", table.language, user=f"<@{armed.user_id}>", seconds=left, link=link
        )
        channel = self.client.get_partial_messageable(table.channel_id)
        async with self.writes:
            message = await channel.send(
                content,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(armed.user_id)]
                ),
                suppress_embeds=True,
            )
        self._posted[table_id] = Shown(table.channel_id, message.id, window)
        # The table may have moved on while the line was being sent.
        await self.table_changed(await self.service.snapshot(table_id))

    async def _delete(self, channel_id: int, message_id: int) -> None:
        async with self.writes:
            await self.client.http.delete_message(channel_id, message_id)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(self._logged(work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _logged(work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        except discord.HTTPException as error:
            log.info("reminder not sent or deleted: %s", error)
        except Exception:
            log.exception("reminder failed")

    async def stop(self) -> None:
        self._stopped = True
        for armed in self._armed.values():
            armed.handle.cancel()
        self._armed.clear()
        if self._tasks:
            # A second for the lines being posted or deleted; the rest would fail on
            # the session the bot closes next.
            await asyncio.wait(list(self._tasks), timeout=STOP_WAIT)
        for task in list(self._tasks):
            task.cancel()
