"""All Discord output of tables: the live table message, event lines, DMs.

The table service calls ``table_changed`` under its lock; this only enqueues.
One worker per table posts the steps' public lines and DMs in order and edits
the table message with the latest snapshot, at most once per ``interval``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.storage.models import TableStatus

from .components import view_of
from .i18n import t
from .presenter import (
    AnyPresenter,
    TableContext,
    finished_items,
    hand_button,
    lobby_embed,
    lobby_items,
)

if TYPE_CHECKING:
    from bot.tables import Snapshot, TableService

log = logging.getLogger("bot.render")

DM_CLOSED = 50007
MAX_MESSAGE = 2000
PICTURE = "table.png"
CONCURRENT_WRITES = 16
"""Discord writes in flight at once, over all tables (a boot refresh of many
tables must not flood the API)."""


class Renderer:
    def __init__(
        self,
        client: discord.Client,
        presenters: dict[str, AnyPresenter],
        service: TableService,
        *,
        interval: float = 1.0,
    ) -> None:
        self.client = client
        self.presenters = presenters
        self.service = service
        self.interval = interval
        self._queues: dict[int, asyncio.Queue[Snapshot]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._dm_warned: set[tuple[int, int]] = set()
        self._writes = asyncio.Semaphore(CONCURRENT_WRITES)
        self._pictures: dict[int, bytes] = {}
        self._dm_channels: dict[int, discord.PartialMessageable] = {}
        """Per table, the digest of the picture last uploaded."""

    # --- the Listener side ---------------------------------------------------

    async def table_changed(self, snapshot: Snapshot) -> None:
        table_id = snapshot.table.id
        queue = self._queues.setdefault(table_id, asyncio.Queue())
        queue.put_nowait(snapshot)
        worker = self._workers.get(table_id)
        if worker is None or worker.done():
            self._workers[table_id] = asyncio.create_task(
                self._work(table_id, queue), name=f"render-{table_id}"
            )

    async def drain(self, timeout: float = 5.0) -> None:
        """Wait until every queued step is on Discord (shutdown, tests)."""
        workers = [w for w in self._workers.values() if not w.done()]
        if workers:
            await asyncio.wait(workers, timeout=timeout)

    # --- the worker --------------------------------------------------------------

    async def _work(self, table_id: int, queue: asyncio.Queue[Snapshot]) -> None:
        while not queue.empty():
            steps = [queue.get_nowait() for _ in range(queue.qsize())]
            try:
                await self._show_table(steps[-1])  # what players click comes first
                for step in steps:
                    await self._post_step(step)
            except Exception:
                log.exception("rendering table %s failed", table_id)
            if self.interval and queue.empty():
                await asyncio.sleep(self.interval)
        # Idle: forget this table (no await since the queue was seen empty).
        self._queues.pop(table_id, None)
        self._workers.pop(table_id, None)

    async def stop(self, timeout: float = 3.0) -> None:
        """Flush what is queued (bounded), then cancel what is left (shutdown)."""
        await self.drain(timeout)
        workers = [w for w in self._workers.values() if not w.done()]
        for worker in workers:
            worker.cancel()
        if workers:
            await asyncio.wait(workers, timeout=1.0)

    def context(self, snapshot: Snapshot, locale: str | None = None) -> TableContext:
        return TableContext(snapshot, locale, self.service.away_after)

    def presenter(self, snapshot: Snapshot) -> AnyPresenter:
        return self.presenters[snapshot.table.game]

    async def _post_step(self, snapshot: Snapshot) -> None:
        ctx = self.context(snapshot)
        presenter = self.presenter(snapshot)
        if snapshot.started:
            for seat in range(len(snapshot.seats)):
                panel = presenter.hand(ctx, seat)
                await self._dm(ctx, seat, panel.content, panel.embed)
        notices = [t(n.key, None, player=ctx.name(n.seat, marked=False)) for n in snapshot.notices]
        if not snapshot.events:
            await self._send_lines(snapshot.table.channel_id, notices)
            return
        lines = [*presenter.event_lines(ctx, snapshot.events), *notices]
        await self._send_lines(snapshot.table.channel_id, lines)
        for seat in range(len(snapshot.seats)):
            private = presenter.private_lines(ctx, seat, snapshot.events)
            if private:
                await self._dm(ctx, seat, "\n".join(private))

    async def _send_lines(self, channel_id: int, lines: list[str]) -> None:
        channel = self.client.get_partial_messageable(channel_id)
        for chunk in _chunks(lines):
            async with self._writes:
                await channel.send(chunk, allowed_mentions=discord.AllowedMentions(users=True))

    async def _dm(
        self, ctx: TableContext, seat: int, text: str, embed: discord.Embed | None = None
    ) -> None:
        """A DM that never blocks the game: a closed DM is told once in the channel.
        Computer players get none."""
        if ctx.snapshot.seats[seat].is_computer:
            return
        user_id = ctx.snapshot.seats[seat].user_id
        try:
            channel = await self._dm_channel(user_id)
            async with self._writes:
                if embed is not None:
                    await channel.send(text[:MAX_MESSAGE] or None, embed=embed)
                else:
                    await channel.send(text[:MAX_MESSAGE])
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                log.warning("DM to %s refused: %s", user_id, error)
            await self._warn_dm_closed(ctx, user_id)
        except discord.HTTPException:
            log.exception("DM to %s failed", user_id)

    async def _dm_channel(self, user_id: int) -> discord.PartialMessageable:
        """The user's DM channel, opened once (discord.py keeps only 128 of them)."""
        channel = self._dm_channels.get(user_id)
        if channel is None:
            async with self._writes:
                opened = await self.client.create_dm(discord.Object(user_id))
            channel = self.client.get_partial_messageable(
                opened.id, type=discord.ChannelType.private
            )
            self._dm_channels[user_id] = channel
        return channel

    async def _warn_dm_closed(self, ctx: TableContext, user_id: int) -> None:
        key = (ctx.table_id, user_id)
        if key in self._dm_warned:
            return
        self._dm_warned.add(key)
        await self._send_lines(
            ctx.snapshot.table.channel_id, [t("table.dm_closed", None, user=f"<@{user_id}>")]
        )

    async def _show_table(self, snapshot: Snapshot) -> None:
        ctx = self.context(snapshot)
        embed, items = self.table_message(ctx)
        view = view_of(items) if items else None
        picture = await self._picture(ctx, embed)
        table = snapshot.table
        channel = self.client.get_partial_messageable(table.channel_id)
        if table.message_id is not None:
            with contextlib.suppress(discord.NotFound):
                message = channel.get_partial_message(table.message_id)
                async with self._writes:
                    if picture is None:
                        await message.edit(embed=embed, view=view, content=None)
                    else:
                        await message.edit(embed=embed, view=view, attachments=[picture])
                await self._rendered(snapshot)
                return
            self._pictures.pop(table.id, None)  # a new message needs the picture again
            picture = await self._picture(ctx, embed)
        async with self._writes:
            sent = await channel.send(
                embed=embed,
                view=view or discord.utils.MISSING,
                file=picture or discord.utils.MISSING,
            )
        await self.service.message_posted(table.id, sent.id)
        await self._rendered(snapshot)

    async def _picture(self, ctx: TableContext, embed: discord.Embed) -> discord.File | None:
        """The table's picture as a file to upload, or None when it did not change
        since the last upload (the message keeps its attachment) or there is none."""
        if ctx.snapshot.table.status is not TableStatus.RUNNING and ctx.snapshot.state is None:
            return None
        presenter = self.presenter(ctx.snapshot)
        if not presenter.draws_picture:
            return None
        png = await asyncio.to_thread(presenter.table_image, ctx)
        if png is None:
            return None
        embed.set_image(url=f"attachment://{PICTURE}")
        digest = hashlib.sha256(png).digest()
        if self._pictures.get(ctx.table_id) == digest:
            return None
        self._pictures[ctx.table_id] = digest
        return discord.File(io.BytesIO(png), filename=PICTURE)

    async def _rendered(self, snapshot: Snapshot) -> None:
        if snapshot.version is not None:
            await self.service.repo.mark_rendered(snapshot.table.id, snapshot.version)

    def table_message(self, ctx: TableContext) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
        snapshot = ctx.snapshot
        presenter = self.presenter(snapshot)
        status = snapshot.table.status
        if status in (TableStatus.LOBBY, TableStatus.CANCELLED) and snapshot.state is None:
            items = lobby_items(ctx) if status is TableStatus.LOBBY else []
            return lobby_embed(ctx, presenter), items
        embed = presenter.table_embed(ctx)
        if status is TableStatus.RUNNING:
            return embed, [*presenter.table_items(ctx), hand_button(ctx)]
        if status is TableStatus.FINISHED:
            return embed, finished_items(ctx)
        return embed, []

    async def refresh(self, table_id: int) -> None:
        """Re-render a table from the database (at boot)."""
        await self.table_changed(await self.service.snapshot(table_id))


def _chunks(lines: list[str]) -> list[str]:
    chunks: list[str] = []
    current = ""
    for line in lines:
        if current and len(current) + len(line) + 1 > MAX_MESSAGE:
            chunks.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line[:MAX_MESSAGE]
    if current:
        chunks.append(current)
    return chunks
