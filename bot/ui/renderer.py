"""All Discord output of tables: the live table message, and the delivery of
what each step owes people (its outbox entries: channel lines and DMs).

The table service calls ``table_changed`` under its lock; this only wakes the
table's worker. One worker per table first edits the table message with the
latest snapshot (what players click comes first, at most once per
``interval``), then delivers the table's undelivered outbox entries in the
order they were written, marking each delivered once Discord accepted it.
Every post carries its entry's id as a nonce (Discord's ``enforce_nonce``), so
a crash between "sent" and "marked" does not post twice when the entry is sent
again; the table message is edited, which is idempotent anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import logging
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.storage.models import OutboxEntry, OutboxKind, TableStatus

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
PICTURE = "table.png"
CONCURRENT_WRITES = 16
"""Discord writes in flight at once, over all tables (a boot refresh of many
tables must not flood the API)."""
RETRY_DELAYS = (1.0, 2.0, 5.0, 15.0, 60.0)
"""Seconds before delivering again after Discord failed (then every last one)."""
NO_PINGS = discord.AllowedMentions.none()
DISCORD_TROUBLE = (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError)


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
        self._latest: dict[int, Snapshot | None] = {}
        """Per table with work to do, the snapshot to show (None: deliver only)."""
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._dm_warned: set[tuple[int, int]] = set()
        self._writes = asyncio.Semaphore(CONCURRENT_WRITES)
        self._pictures: dict[int, bytes] = {}
        """Per table, the digest of the picture last uploaded."""
        self._dm_channels: dict[int, discord.PartialMessageable] = {}

    # --- the Listener side ---------------------------------------------------

    async def table_changed(self, snapshot: Snapshot) -> None:
        self._wake(snapshot.table.id, snapshot)

    async def refresh(self, table_id: int) -> None:
        """Re-render a table from the database and deliver what it owes (boot)."""
        self._wake(table_id, await self.service.snapshot(table_id))

    def deliver(self, table_id: int) -> None:
        """Deliver what the table owes, without redrawing its message (boot)."""
        self._wake(table_id, None)

    def _wake(self, table_id: int, snapshot: Snapshot | None) -> None:
        if snapshot is not None or table_id not in self._latest:
            self._latest[table_id] = snapshot
        worker = self._workers.get(table_id)
        if worker is None or worker.done():
            self._workers[table_id] = asyncio.create_task(
                self._work(table_id), name=f"render-{table_id}"
            )

    async def drain(self, timeout: float = 5.0) -> None:
        """Wait until every queued step is on Discord (shutdown, tests)."""
        workers = [w for w in self._workers.values() if not w.done()]
        if workers:
            await asyncio.wait(workers, timeout=timeout)

    async def stop(self, timeout: float = 3.0) -> None:
        """Flush what is queued (bounded), then cancel what is left (shutdown)."""
        await self.drain(timeout)
        workers = [w for w in self._workers.values() if not w.done()]
        for worker in workers:
            worker.cancel()
        if workers:
            await asyncio.wait(workers, timeout=1.0)

    # --- the worker --------------------------------------------------------------

    async def _work(self, table_id: int) -> None:
        failures = 0
        while table_id in self._latest:
            snapshot = self._latest.pop(table_id)
            try:
                if snapshot is not None:
                    await self._show_table(snapshot)
                await self._deliver(table_id)
                failures = 0
            except DISCORD_TROUBLE as error:  # Discord or the network: try again later
                delay = RETRY_DELAYS[min(failures, len(RETRY_DELAYS) - 1)]
                failures += 1
                log.warning(
                    "table %s: Discord output failed (%r); again in %ss", table_id, error, delay
                )
                self._latest.setdefault(table_id, snapshot)
                await asyncio.sleep(delay)
                continue
            except Exception:  # a bug: retrying would fail the same way
                log.exception("rendering table %s failed", table_id)
            if self.interval and table_id in self._latest:
                await asyncio.sleep(self.interval)
        self._workers.pop(table_id, None)

    def context(self, snapshot: Snapshot, locale: str | None = None) -> TableContext:
        return TableContext(snapshot, locale, self.service.away_after)

    def presenter(self, snapshot: Snapshot) -> AnyPresenter:
        return self.presenters[snapshot.table.game]

    # --- the outbox ------------------------------------------------------------------

    async def _deliver(self, table_id: int) -> None:
        """Send the table's undelivered entries in order; each is marked once Discord
        accepted it (or refused it for good). A failure to retry stops here, so
        nothing is delivered out of order."""
        repo = self.service.repo
        for entry in await repo.undelivered(table_id):
            if entry.kind is OutboxKind.POST:
                await self._post(entry)
            else:
                await self._dm(entry)
            assert entry.id is not None
            await repo.mark_delivered(entry.id)

    async def _post(self, entry: OutboxEntry) -> None:
        channel = self.client.get_partial_messageable(entry.target)
        try:
            async with self._writes:
                await channel.send(
                    entry.content or None,
                    embed=_embed(entry) or discord.utils.MISSING,
                    nonce=_nonce(entry),
                    allowed_mentions=NO_PINGS,
                )
        except (discord.Forbidden, discord.NotFound) as error:
            # The channel is gone or closed to the bot: it can never be delivered.
            log.warning("table %s: cannot post in %s: %s", entry.table_id, entry.target, error)

    async def _dm(self, entry: OutboxEntry) -> None:
        """A DM that never blocks the game: a closed DM is told once in the channel."""
        try:
            channel = await self._dm_channel(entry.target)
            async with self._writes:
                await channel.send(
                    entry.content or None,
                    embed=_embed(entry) or discord.utils.MISSING,
                    nonce=_nonce(entry),
                    allowed_mentions=NO_PINGS,
                )
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                log.warning("DM to %s refused: %s", entry.target, error)
            await self._warn_dm_closed(entry.table_id, entry.target)
        except discord.NotFound as error:
            log.warning("DM to %s impossible: %s", entry.target, error)

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

    async def _warn_dm_closed(self, table_id: int, user_id: int) -> None:
        key = (table_id, user_id)
        if key in self._dm_warned:
            return
        self._dm_warned.add(key)
        snapshot = await self.service.snapshot(table_id)
        channel = self.client.get_partial_messageable(snapshot.table.channel_id)
        async with self._writes:
            await channel.send(
                t("table.dm_closed", None, user=f"<@{user_id}>"),
                nonce=f"dm{table_id}-{user_id}"[:25],
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(user_id)]
                ),
            )

    # --- the table message -------------------------------------------------------------

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
                nonce=f"t{table.id}v{snapshot.version}",
                allowed_mentions=NO_PINGS,
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
        await self.service.repo.mark_rendered(
            snapshot.table.id, snapshot.version, snapshot.table.status
        )

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


def _nonce(entry: OutboxEntry) -> str:
    """Discord keeps one message per nonce: sending an entry again is a no-op."""
    return f"o{entry.id}"


def _embed(entry: OutboxEntry) -> discord.Embed | None:
    return (
        None if entry.embed_json is None else discord.Embed.from_dict(json.loads(entry.embed_json))
    )
