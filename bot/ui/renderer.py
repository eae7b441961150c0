"""All Discord output of tables: the live table message, and the delivery of
what each step owes people (its outbox entries: channel lines and DMs).

The table service calls ``table_changed`` under its lock; this only wakes the
table's two workers. One edits the table message with the latest snapshot (at
most once per ``interval``); the other delivers the table's undelivered outbox
entries in the order they were written, marking each delivered once Discord
accepted it. They are apart so that the table message, mostly edited through
clicks' interactions (free of the global rate limit), never waits behind a DM
or a line queued in the REST budget; a line still waits for an edit of the
table message in progress (what players click comes first).
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
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.storage.models import OutboxEntry, OutboxKind, TableStatus

from .components import view_of
from .i18n import t
from .limits import CONTENT
from .presenter import (
    RECENT_LINES,
    AnyPresenter,
    TableContext,
    finished_items,
    hand_button,
    hidden_embed,
    lobby_embed,
    lobby_items,
    watch_button,
)
from .writes import Writes, discord_budget

if TYPE_CHECKING:
    from bot.tables import Snapshot, TableService

log = logging.getLogger("bot.render")

DM_CLOSED = 50007
PICTURE = "table.png"
CONCURRENT_WRITES = 16
"""Discord writes in flight at once, over all tables (a boot refresh of many
tables must not flood the API)."""
DM_CHANNELS = 10_000
OUTBOX_LEASE = 120.0
"""Seconds a process holds a table's outbox to deliver it (several processes on one
database): long enough for a delivery waiting on Discord's rate limits; should
the process die, another may deliver after that."""
"""DM channels remembered (the oldest opened is forgotten first)."""
CARRIER_LIFETIME = 14 * 60.0
"""Seconds a click's interaction may still edit its table message after its answer:
Discord keeps an interaction's token 15 minutes; a minute is left as margin."""
CARRIER_RENEW = 5 * 60.0
"""A carrier with less life left than this is worth renewing (see ``needs_carrier``)."""
CARRIER_GONE = (401, 403, 404)
"""Statuses of an interaction edit that will not succeed later (an expired token,
a deleted message): the carrier is dropped and the edit goes by REST."""
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
        log_interval: float = 0.0,
        rest_per_second: float = 45.0,
    ) -> None:
        self.client = client
        self.presenters = presenters
        self.service = service
        self.interval = interval
        self.log_interval = log_interval
        """Minimum seconds between two posts of one table's lines."""
        self._last_post: dict[int, float] = {}
        self._later: dict[int, asyncio.TimerHandle] = {}
        """Tables whose lines wait for ``log_interval``."""
        self._stopped = False
        self._latest: dict[int, Snapshot] = {}
        """Per table whose message is to be drawn, the snapshot to show."""
        self._workers: dict[int, asyncio.Task[None]] = {}
        """Per table, the worker drawing its message."""
        self._owed: set[int] = set()
        """Tables that may owe outbox entries."""
        self._deliverers: dict[int, asyncio.Task[None]] = {}
        """Per table, the worker delivering its outbox."""
        self._showing: dict[int, asyncio.Event] = {}
        """Tables whose message is being drawn (set when done)."""
        self._dm_warned: set[tuple[int, int]] = set()
        self._writes = Writes(CONCURRENT_WRITES, discord_budget(rest_per_second))
        """Every REST write: within the bot's share of Discord's global rate limit."""
        self._pictures: dict[int, bytes] = {}
        """Per table, the digest of the picture last uploaded."""
        self._dm_channels: dict[int, discord.PartialMessageable] = {}
        self._held: dict[int, int] = {}
        """Tables whose message a click is about to update through its interaction."""
        self._parked: dict[int, Snapshot] = {}
        """Per held table, the latest snapshot to show if the click does not."""
        self._shown: dict[int, _Shown] = {}
        """Per table, what its message shows."""
        self._carriers: dict[int, _Carrier] = {}
        """Per table, the latest click whose interaction can edit its table message."""
        self.carrier_lifetime = CARRIER_LIFETIME
        self._carriers_swept = time.monotonic()

    # --- the Listener side ---------------------------------------------------

    async def table_changed(self, snapshot: Snapshot) -> None:
        self._wake(snapshot.table.id, snapshot)

    async def refresh(self, table_id: int) -> None:
        """Draw a table from the database, whatever its message shows, and deliver
        what it owes (boot)."""
        self._shown.pop(table_id, None)
        self._wake(table_id, await self.service.snapshot(table_id))

    def deliver(self, table_id: int) -> None:
        """Deliver what the table owes, without redrawing its message (boot)."""
        self._wake(table_id, None)

    # --- a click updates the table message itself --------------------------------

    def hold(self, table_id: int) -> None:
        """A click on the table message is being judged: its answer will update the
        message (an interaction response, free of the global rate limit), so the
        worker does not edit it meanwhile (it still delivers the outbox)."""
        self._held[table_id] = self._held.get(table_id, 0) + 1

    def release(self, table_id: int) -> None:
        """The click was answered (or failed): what it did not show, the worker does."""
        count = self._held.get(table_id, 0) - 1
        if count > 0:
            self._held[table_id] = count
            return
        self._held.pop(table_id, None)
        parked = self._parked.pop(table_id, None)
        if parked is not None and not self._is_shown(parked):
            self._wake(table_id, parked)

    async def message_update(self, snapshot: Snapshot) -> dict[str, Any]:
        """The table message for ``snapshot``, as arguments of a message edit."""
        ctx = self.context(snapshot)
        embed, items = self.table_message(ctx)
        update: dict[str, Any] = {"embed": embed, "view": view_of(items) if items else None}
        picture = await self._picture(ctx, embed)
        if picture is not None:
            update["attachments"] = [picture]
        return update

    async def shown(self, snapshot: Snapshot) -> None:
        """The table message now shows ``snapshot`` (a click's answer updated it)."""
        await self._rendered(snapshot)

    # --- edits through a click's interaction ------------------------------------------

    def carry(self, table_id: int, interaction: discord.Interaction[Any]) -> None:
        """A click on the table message was answered by updating that message (or a
        deferred update): for 15 minutes its interaction can edit the message again,
        free of the global rate limit. The worker's later edits of the table (a
        private move, a computer's, a timeout) go that way while it lasts."""
        message = interaction.message
        if message is None:
            return
        now = time.monotonic()
        self._carriers[table_id] = _Carrier(interaction, message.id, now + self.carrier_lifetime)
        if now - self._carriers_swept > CARRIER_RENEW:  # expired ones hold memory
            self._carriers_swept = now
            for expired in [k for k, c in self._carriers.items() if c.until <= now]:
                del self._carriers[expired]

    def needs_carrier(self, table_id: int) -> bool:
        """Whether no click can edit the table message for the next minutes: a click
        that would open a private panel then answers by a deferred update of the
        table message, the panel following, so the move made in it shows at once."""
        carrier = self._carriers.get(table_id)
        return carrier is None or carrier.until - time.monotonic() < CARRIER_RENEW

    def _carrier(self, table_id: int, message_id: int | None) -> _Carrier | None:
        carrier = self._carriers.get(table_id)
        if carrier is None:
            return None
        if carrier.message_id != message_id or carrier.until <= time.monotonic():
            del self._carriers[table_id]
            return None
        return carrier

    def _is_shown(self, snapshot: Snapshot) -> bool:
        """Whether the message shows this snapshot already, or a later version. Besides
        the version and status, the message depends on the seats (away, taken over,
        removed), which change without a new version."""
        shown = self._shown.get(snapshot.table.id)
        if shown is None or shown.version is None or snapshot.version is None:
            return False
        return shown.version > snapshot.version or shown == _Shown.of(snapshot)

    def _idle(self) -> bool:
        """Nothing left to do: no click holds a table message, no worker runs."""
        return not self._held and not self._running()

    def _running(self) -> list[asyncio.Task[None]]:
        tasks = [*self._workers.values(), *self._deliverers.values()]
        return [task for task in tasks if not task.done()]

    def _wake(self, table_id: int, snapshot: Snapshot | None) -> None:
        """Draw ``snapshot`` (if any) and deliver what the table owes."""
        if self._stopped:
            return
        if snapshot is not None:
            self._latest[table_id] = snapshot
            worker = self._workers.get(table_id)
            if worker is None or worker.done():
                self._workers[table_id] = asyncio.create_task(
                    self._work(table_id), name=f"render-{table_id}"
                )
        self._owed.add(table_id)
        deliverer = self._deliverers.get(table_id)
        if deliverer is None or deliverer.done():
            self._deliverers[table_id] = asyncio.create_task(
                self._deliver_work(table_id), name=f"deliver-{table_id}"
            )

    async def drain(self, timeout: float = 5.0) -> None:
        """Wait (at most ``timeout`` seconds) until every click on a table message has
        been answered and every queued step is on Discord (shutdown)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not self._idle() and loop.time() < end:
            workers = self._running()
            if workers:
                await asyncio.wait(workers, timeout=end - loop.time())
            else:
                await asyncio.sleep(0.005)  # a click is being answered

    async def stop(self, timeout: float = 3.0) -> None:
        """Flush what is queued, lines waiting for ``log_interval`` included (bounded),
        then cancel what is left (shutdown)."""
        self.log_interval = 0.0
        for table_id, handle in list(self._later.items()):
            handle.cancel()
            self._post_later(table_id)
        await self.drain(timeout)
        self._stopped = True
        workers = self._running()
        for worker in workers:
            worker.cancel()
        if workers:
            await asyncio.wait(workers, timeout=1.0)

    # --- the worker --------------------------------------------------------------

    async def _work(self, table_id: int) -> None:
        """Draws the table message while there is a newer snapshot to show."""
        failures = 0
        while table_id in self._latest:
            snapshot = self._latest.pop(table_id)
            try:
                if self._held.get(table_id):
                    self._parked[table_id] = snapshot
                elif not self._is_shown(snapshot):
                    await self._show(snapshot)
                failures = 0
            except DISCORD_TROUBLE as error:  # Discord or the network: try again later
                failures += 1
                await self._retry_later(table_id, "its message", error, failures)
                self._latest.setdefault(table_id, snapshot)
                continue
            except Exception:  # a bug: retrying would fail the same way
                log.exception("rendering table %s failed", table_id)
            if self.interval and table_id in self._latest:
                await asyncio.sleep(self.interval)
        self._workers.pop(table_id, None)
        self._forget_if_done(table_id)

    async def _deliver_work(self, table_id: int) -> None:
        """Delivers the table's outbox while it may owe something."""
        failures = 0
        while table_id in self._owed:
            self._owed.discard(table_id)
            try:
                await self._deliver(table_id)
                failures = 0
            except DISCORD_TROUBLE as error:
                failures += 1
                await self._retry_later(table_id, "its outbox", error, failures)
                self._owed.add(table_id)
            except Exception:
                log.exception("delivering the outbox of table %s failed", table_id)
        self._deliverers.pop(table_id, None)
        self._forget_if_done(table_id)

    @staticmethod
    async def _retry_later(table_id: int, what: str, error: BaseException, failures: int) -> None:
        delay = RETRY_DELAYS[min(failures - 1, len(RETRY_DELAYS) - 1)]
        log.warning(
            "table %s: Discord output of %s failed (%r); again in %ss", table_id, what, error, delay
        )
        await asyncio.sleep(delay)

    async def _show(self, snapshot: Snapshot) -> None:
        """Draw the table message; lines wait meanwhile (``_drawn_first``)."""
        table_id = snapshot.table.id
        showing = self._showing[table_id] = asyncio.Event()
        try:
            await self._show_table(snapshot)
        finally:
            showing.set()
            if self._showing.get(table_id) is showing:
                del self._showing[table_id]

    async def _drawn_first(self, table_id: int) -> None:
        """Channel lines come after the table message being drawn (players see what
        they click first, and a new table message stays above its lines)."""
        showing = self._showing.get(table_id)
        if showing is not None:
            await showing.wait()

    def _forget_if_done(self, table_id: int) -> None:
        if table_id not in self._workers and table_id not in self._deliverers:
            self._forget_if_closed(table_id)

    def _forget_if_closed(self, table_id: int) -> None:
        """A closed table's message will not change again: what this renderer keeps
        about it goes (memory follows the live tables)."""
        shown = self._shown.get(table_id)
        if shown is None or shown.status.open or table_id in self._later:
            return
        for kept in (self._shown, self._pictures, self._last_post, self._carriers):
            kept.pop(table_id, None)
        self._dm_warned = {key for key in self._dm_warned if key[0] != table_id}

    def context(self, snapshot: Snapshot, locale: str | None = None) -> TableContext:
        """The table as ``locale`` reads it (default: the table's language, for
        everyone)."""
        return TableContext(snapshot, locale or snapshot.table.language, self.service.away_after)

    @property
    def writes(self) -> Writes:
        """The bot's budget of REST writes, for other writers (``bot.reminders``)."""
        return self._writes

    def presenter(self, snapshot: Snapshot) -> AnyPresenter:
        return self.presenters[snapshot.table.game]

    # --- the outbox ------------------------------------------------------------------

    async def _deliver(self, table_id: int) -> None:
        """Send the table's undelivered entries in order (per channel and per user);
        each is marked once Discord accepted it (or refused it for good). Entries to
        one place go as one message where they fit. The channel's lines wait until
        ``log_interval`` passed since the table's last post, while the table
        message's "what just happened" can show them all (more lines than that, or
        the table over: they go at once). A failure to retry stops here, so nothing
        is delivered out of order."""
        repo = self.service.repo
        if not await repo.undelivered(table_id):
            return  # most steps owe nothing: a read, not a claim's write
        claim = await repo.claim_outbox(table_id, self.service.owner, OUTBOX_LEASE)
        if claim.retry_at is not None:
            # Another process is delivering them; should it die, its claim runs out.
            self._deliver_later(table_id, claim.retry_at - time.time())
            return
        entries = claim.entries
        posts_due = await self._posts_due(table_id, entries)
        posts_left = False
        for group in _groups(entries):
            if group[0].kind is OutboxKind.POST and not posts_due:
                posts_left = True
                continue
            if group[0].kind is OutboxKind.POST:
                await self._drawn_first(table_id)
            sent = await self._send(group)
            for entry in group[:sent]:
                assert entry.id is not None
                await repo.mark_delivered(entry.id)
            if sent < len(group):  # Discord had an earlier message of this nonce
                self._owed.add(table_id)
                return
            if group[0].kind is OutboxKind.POST:
                self._last_post[table_id] = time.monotonic()
        if posts_left:
            delay = self.log_interval - (time.monotonic() - self._last_post.get(table_id, 0.0))
            self._deliver_later(table_id, delay)

    def _deliver_later(self, table_id: int, delay: float) -> None:
        if table_id not in self._later:
            self._later[table_id] = asyncio.get_running_loop().call_later(
                max(delay, 0.0), self._post_later, table_id
            )

    def _post_later(self, table_id: int) -> None:
        self._later.pop(table_id, None)
        self.deliver(table_id)

    async def _posts_due(self, table_id: int, entries: list[OutboxEntry]) -> bool:
        if time.monotonic() - self._last_post.get(table_id, -1e9) >= self.log_interval:
            return True
        waiting = sum(e.content.count("\n") + 1 for e in entries if e.kind is OutboxKind.POST)
        if waiting > RECENT_LINES:  # the table message cannot show them all any more
            return True
        snapshot = await self.service.snapshot(table_id)
        return snapshot.table.status not in (TableStatus.RUNNING, TableStatus.LOBBY)

    async def _send(self, group: list[OutboxEntry]) -> int:
        """Send a group of entries as one message; how many of them it holds (the
        message Discord returns for a nonce it already had may hold fewer)."""
        first = group[0]
        content = "\n".join(entry.content for entry in group)
        sending: dict[str, Any] = {
            "content": content or None,
            "embed": _embed(first) or discord.utils.MISSING,
            "nonce": _nonce(first),
            "allowed_mentions": NO_PINGS,
        }
        try:
            if first.kind is OutboxKind.POST:
                channel = self.client.get_partial_messageable(first.target)
                async with self._writes:
                    message = await channel.send(**sending)
            else:
                message = await self._send_dm(first.target, sending)
        except discord.Forbidden as error:
            await self._undeliverable(first, error)
            return len(group)
        except discord.NotFound as error:
            log.warning("table %s: cannot send to %s: %s", first.table_id, first.target, error)
            return len(group)
        return _entries_in(group, message.content)

    async def _undeliverable(self, entry: OutboxEntry, error: discord.Forbidden) -> None:
        """A channel closed to the bot, or a player's closed DMs (told once in the
        channel, so the game goes on with My hand)."""
        if entry.kind is OutboxKind.POST:
            log.warning("table %s: cannot post in %s: %s", entry.table_id, entry.target, error)
            return
        if error.code != DM_CLOSED:
            log.warning("DM to %s refused: %s", entry.target, error)
        await self._warn_dm_closed(entry.table_id, entry.target)

    async def direct_message(self, user_id: int, content: str) -> bool:
        """A DM sent now (a click waits for it), through the DM channels this renderer
        keeps open; False when the user does not take DMs from the bot."""
        try:
            await self._send_dm(user_id, {"content": content, "allowed_mentions": NO_PINGS})
        except discord.Forbidden:
            return False
        return True

    async def _send_dm(self, user_id: int, sending: dict[str, Any]) -> discord.Message:
        """Sends in the user's DM channel; one Discord no longer knows (a kept id)
        is opened anew, once."""
        for attempt in (1, 2):
            channel = await self._dm_channel(user_id)
            try:
                async with self._writes:
                    return await channel.send(**sending)
            except discord.NotFound:
                if attempt == 2:
                    raise
                await self._forget_dm_channel(user_id)
        raise AssertionError("unreachable")

    async def _dm_channel(self, user_id: int) -> discord.PartialMessageable:
        """The user's DM channel (discord.py keeps only 128 of them): kept here, and
        in the database for the next boot; opened only when neither has it."""
        channel = self._dm_channels.get(user_id)
        if channel is None:
            repo = self.service.repo
            channel_id = await repo.dm_channel(user_id)
            if channel_id is None:
                async with self._writes:
                    channel_id = (await self.client.create_dm(discord.Object(user_id))).id
                await repo.remember_dm_channel(user_id, channel_id)
            channel = self.client.get_partial_messageable(
                channel_id, type=discord.ChannelType.private
            )
            self._dm_channels[user_id] = channel
            while len(self._dm_channels) > DM_CHANNELS:
                del self._dm_channels[next(iter(self._dm_channels))]
        return channel

    async def _forget_dm_channel(self, user_id: int) -> None:
        """A kept DM channel Discord no longer knows: the next DM opens it anew."""
        self._dm_channels.pop(user_id, None)
        await self.service.repo.remember_dm_channel(user_id, None)

    async def _warn_dm_closed(self, table_id: int, user_id: int) -> None:
        key = (table_id, user_id)
        if key in self._dm_warned:
            return
        self._dm_warned.add(key)
        snapshot = await self.service.snapshot(table_id)
        channel = self.client.get_partial_messageable(snapshot.table.channel_id)
        async with self._writes:
            await channel.send(
                t("table.dm_closed", snapshot.table.language, user=f"<@{user_id}>"),
                nonce=f"dm{table_id}-{user_id}"[:25],
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(user_id)]
                ),
            )

    # --- the table message -------------------------------------------------------------

    async def _show_table(self, snapshot: Snapshot) -> None:
        table_id = snapshot.table.id
        carrier = self._carrier(table_id, snapshot.table.message_id)
        if carrier is None:
            await self._writes.token()  # first: what the edit shows is the latest then
        if (newer := self._latest.get(table_id)) is not None and not self._held.get(table_id):
            del self._latest[table_id]
            snapshot = newer
        if self._is_shown(snapshot):  # a click's answer showed it meanwhile
            return
        if carrier is not None:
            if await self._edit_through(carrier, snapshot):
                return
            await self._writes.token()
        await self._edit_or_post(snapshot)

    async def _edit_through(self, carrier: _Carrier, snapshot: Snapshot) -> bool:
        """Edit the table message through a click's interaction; False when that
        interaction can no longer edit it (the edit then goes by REST)."""
        update = await self.message_update(snapshot)
        try:
            async with self._writes.slot():
                await carrier.interaction.edit_original_response(**update)
        except discord.HTTPException as error:
            if error.status not in CARRIER_GONE:
                raise
            log.debug("table %s: its carrier is gone (%s)", snapshot.table.id, error)
            self._carriers.pop(snapshot.table.id, None)
            self._pictures.pop(snapshot.table.id, None)  # it was not uploaded
            return False
        await self._rendered(snapshot)
        return True

    async def _edit_or_post(self, snapshot: Snapshot) -> None:
        """Edit the table message by REST, or post it anew when it is gone."""
        ctx = self.context(snapshot)
        embed, items = self.table_message(ctx)
        view = view_of(items) if items else None
        picture = await self._picture(ctx, embed)
        table = snapshot.table
        channel = self.client.get_partial_messageable(table.channel_id)
        if table.message_id is not None:
            with contextlib.suppress(discord.NotFound):
                message = channel.get_partial_message(table.message_id)
                async with self._writes.slot():
                    if picture is None:
                        await message.edit(embed=embed, view=view, content=None)
                    else:
                        await message.edit(embed=embed, view=view, attachments=[picture])
                await self._rendered(snapshot)
                return
            self._pictures.pop(table.id, None)  # a new message needs the picture again
            picture = await self._picture(ctx, embed)
            await self._writes.token()  # the failed edit spent the first
        async with self._writes.slot():
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
        png = await self.picture_of(ctx)
        if png is None:
            return None
        embed.set_image(url=f"attachment://{PICTURE}")
        digest = hashlib.sha256(png).digest()
        if self._pictures.get(ctx.table_id) == digest:
            return None
        self._pictures[ctx.table_id] = digest
        return discord.File(io.BytesIO(png), filename=PICTURE)

    async def picture_of(self, ctx: TableContext) -> bytes | None:
        """The table's drawn board as a PNG (public: drawn from the spectator view), or
        None: the game draws none, the table has no game yet, or it is hidden."""
        if ctx.snapshot.state is None or ctx.hidden:
            return None
        presenter = self.presenter(ctx.snapshot)
        if not presenter.draws_picture:
            return None
        return await asyncio.to_thread(presenter.table_image, ctx)

    async def _rendered(self, snapshot: Snapshot) -> None:
        if self._is_shown(snapshot):
            return
        self._shown[snapshot.table.id] = _Shown.of(snapshot)
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
        if ctx.hidden:
            return hidden_embed(ctx, presenter), [hand_button(ctx), watch_button(ctx)]
        embed = presenter.table_embed(ctx)
        if status is TableStatus.RUNNING:
            return embed, [*presenter.table_items(ctx), hand_button(ctx), watch_button(ctx)]
        if status is TableStatus.FINISHED:
            return embed, finished_items(ctx)
        return embed, []


@dataclass(frozen=True)
class _Shown:
    """What a table message shows: the state version, the status, and the seats'
    marks (away strikes, removed)."""

    version: int | None
    status: TableStatus
    seats: tuple[tuple[int, bool], ...]

    @classmethod
    def of(cls, snapshot: Snapshot) -> _Shown:
        seats = tuple((s.away_strikes, s.removed) for s in snapshot.seats)
        return cls(snapshot.version, snapshot.table.status, seats)


@dataclass(frozen=True)
class _Carrier:
    """A click whose interaction can edit the table message (``@original``) until
    ``until`` (monotonic seconds)."""

    interaction: discord.Interaction[Any]
    message_id: int
    until: float


def _groups(entries: list[OutboxEntry]) -> list[list[OutboxEntry]]:
    """The entries as messages: each place's entries in their order, joined while
    they fit one message (an embed goes alone). Only the order within one place
    (a channel, a user's DMs) is kept: a DM between two lines does not split them."""
    groups: list[list[OutboxEntry]] = []
    open_group: dict[tuple[OutboxKind, int], list[OutboxEntry]] = {}
    """Each place's latest group, while more can join it."""
    for entry in entries:
        place = (entry.kind, entry.target)
        last = open_group.get(place)
        if (
            last is not None
            and entry.embed_json is None
            and sum(len(e.content) + 1 for e in last) + len(entry.content) <= CONTENT
        ):
            last.append(entry)
            continue
        group = [entry]
        groups.append(group)
        if entry.embed_json is None:
            open_group[place] = group
        else:
            open_group.pop(place, None)
    return groups


def _entries_in(group: list[OutboxEntry], content: str) -> int:
    """How many of the group's entries a sent message holds, from its start."""
    for count in range(len(group), 0, -1):
        if "\n".join(entry.content for entry in group[:count]) == content:
            return count
    return len(group)


def _nonce(entry: OutboxEntry) -> str:
    """Discord keeps one message per nonce: sending an entry again is a no-op."""
    return f"o{entry.id}"


def _embed(entry: OutboxEntry) -> discord.Embed | None:
    return (
        None if entry.embed_json is None else discord.Embed.from_dict(json.loads(entry.embed_json))
    )
