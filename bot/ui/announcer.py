"""What a change of a table owes people, rendered as outbox entries.

The table service calls ``announce`` with the snapshot of a change before it
commits it; the entries go into the same transaction (``bot.storage`` outbox),
and the renderer delivers them later, in order. So a crash after the commit
loses nothing that was owed: the next start delivers it.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING

import discord

from bot.storage.models import OutboxEntry, OutboxKind, SeatRecord
from games.base import Event

from .i18n import t
from .limits import CONTENT, cut
from .presenter import AnyPresenter, TableContext

if TYPE_CHECKING:
    from bot.tables import Notice, Snapshot


class TableAnnouncer:
    """Renders public lines (events, then notices) as channel posts, in the
    table's language, and each seat's secrets (its hand when cards are dealt, its
    private lines) as DMs, in the seat's own locale. Posts carry what people need
    to be told, or every line (``every_line``)."""

    def __init__(
        self, presenters: dict[str, AnyPresenter], away_after: int, *, every_line: bool = False
    ) -> None:
        """``every_line``: the channel gets every line of the game, not only what
        people need to be told (see ``Settings.channel_log``)."""
        self.presenters = presenters
        self.away_after = away_after
        self.every_line = every_line

    def announce(self, snapshot: Snapshot) -> list[OutboxEntry]:
        ctx = TableContext(snapshot, snapshot.table.language, self.away_after)
        presenter = self.presenters.get(snapshot.table.game)
        entries: list[OutboxEntry] = []
        if presenter is not None and snapshot.state is not None:
            if snapshot.started:
                entries += self._hands(ctx, presenter)
            lines = presenter.event_lines(ctx, self._posted(presenter, snapshot))
        else:
            lines = []
        lines += [self._notice(ctx, notice) for notice in snapshot.notices]
        entries += [
            self._entry(ctx, OutboxKind.POST, ctx.snapshot.table.channel_id, chunk)
            for chunk in chunks(lines)
        ]
        if presenter is not None and snapshot.state is not None and snapshot.events:
            entries += self._private_lines(ctx, presenter)
        return entries

    def _posted(self, presenter: AnyPresenter, snapshot: Snapshot) -> list[Event]:
        """The events whose lines the channel gets: all of them, or the notable ones
        (every line of the deal and of the end)."""
        assert snapshot.state is not None
        if self.every_line or snapshot.started or presenter.game.result(snapshot.state):
            return snapshot.events
        return [event for event in snapshot.events if presenter.notable(event)]

    def _hands(self, ctx: TableContext, presenter: AnyPresenter) -> list[OutboxEntry]:
        entries = []
        for record in ctx.snapshot.seats:
            if record.is_computer or record.removed:
                continue
            panel = presenter.hand(self._reader(ctx, record), record.seat)
            entries.append(
                self._entry(ctx, OutboxKind.DM, record.user_id, panel.content, panel.embed)
            )
        return entries

    def _private_lines(self, ctx: TableContext, presenter: AnyPresenter) -> list[OutboxEntry]:
        entries = []
        for record in ctx.snapshot.seats:
            if record.is_computer:
                continue
            reader = self._reader(ctx, record)
            lines = presenter.private_lines(reader, record.seat, ctx.snapshot.events)
            entries += [
                self._entry(ctx, OutboxKind.DM, record.user_id, chunk) for chunk in chunks(lines)
            ]
        return entries

    @staticmethod
    def _reader(ctx: TableContext, seat: SeatRecord) -> TableContext:
        """The table as the seat's player reads its DMs: in its own locale."""
        if seat.locale is None or seat.locale == ctx.locale:
            return ctx
        return replace(ctx, locale=seat.locale)

    @staticmethod
    def _notice(ctx: TableContext, notice: Notice) -> str:
        player = ctx.name(notice.seat, marked=False) if notice.seat is not None else ""
        return t(notice.key, ctx.locale, player=player, table=ctx.table_id)

    @staticmethod
    def _entry(
        ctx: TableContext,
        kind: OutboxKind,
        target: int,
        content: str,
        embed: discord.Embed | None = None,
    ) -> OutboxEntry:
        return OutboxEntry(
            table_id=ctx.table_id,
            version=ctx.snapshot.version,
            kind=kind,
            target=target,
            content=content,
            embed_json=None if embed is None else json.dumps(embed.to_dict()),
        )


def chunks(lines: list[str]) -> list[str]:
    """Lines joined into as few messages as fit Discord's length limit."""
    out: list[str] = []
    current = ""
    for line in lines:
        if current and len(current) + len(line) + 1 > CONTENT:
            out.append(current)
            current = ""
        current = f"{current}\n{line}" if current else cut(line, CONTENT)
    if current:
        out.append(current)
    return out
