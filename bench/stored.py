"""Stored tables built without Discord, for the benches that need many of them
(bench.restore, bench.discord_latency --stored): one Complots table of 4 players is
opened, joined, started and played a few random legal steps through the real
``TableService`` with the bot's real ``TableAnnouncer`` (so its state, seats,
actions, events, deadline and outbox rows are what the bot writes); then its rows
are copied once per ``Slot`` with SQL (each copy its own table id, guild, channel,
message id and 4 users; every table with a key ``table_id`` is copied, whatever
columns it has). The copies are what a cleanly stopped bot leaves: every table
message shows its table (``rendered_version`` and ``rendered_status`` current) and
every outbox entry is delivered, so a boot owes Discord nothing; deadlines are
spread over the hours to come; the players of the tables in the fake have their DM
channels kept. ``post_table_messages`` posts chosen tables'
messages in the fake, rendered by the bot's own renderer.
"""

from __future__ import annotations

import random
import sqlite3
import time
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

from bot.app import game_extension
from bot.storage import SqliteRepository, Timeouts
from bot.storage.models import TableStatus
from bot.tables import TableService
from bot.ui.announcer import TableAnnouncer
from bot.ui.components import view_of
from bot.ui.renderer import Renderer
from games.registry import GAMES
from tests.bot.schedulers import NoScheduler
from tests.e2e.fake_discord import FakeChannel, FakeDiscord

GAME = GAMES["complots"]
PLAYERS = 4
TEMPLATE_USERS = [1001, 1002, 1003, 1004]
TIMEOUTS = Timeouts(turn=120, reaction=30, choice=60)
SYNTHETIC_MESSAGE = 2 * 10**15
"""Message ids of tables whose message is not in the fake."""


def presenters() -> dict[str, Any]:
    return {name: import_module(game_extension(name)).PRESENTER for name in GAMES}


# --- the template table ----------------------------------------------------------------------


async def build_template(path: Path, steps: int, seed: int) -> int:
    """One running table played ``steps`` random steps by the real service; its id.
    (A game over within ``steps`` is left behind: ``copy_tables`` drops it.)"""
    rng = random.Random(seed)
    repo = SqliteRepository(path)
    await repo.open()
    try:
        service = TableService(repo, NoScheduler(), seeds=lambda: rng.getrandbits(63))
        service.announcer = TableAnnouncer(presenters(), 3)
        for _ in range(100):  # a deal whose game outlives ``steps`` (almost always the first)
            snap = await service.create_table(
                guild_id=1,
                channel_id=1 + rng.getrandbits(40),
                game=GAME.name,
                creator_id=TEMPLATE_USERS[0],
                creator_name="ann",
                options=GAME.options_model(),
                timeouts=TIMEOUTS,
            )
            table_id = snap.table.id
            for number, user in enumerate(TEMPLATE_USERS[1:], start=1):
                await service.join(table_id, user, f"player {number}")
            await service.start(table_id, TEMPLATE_USERS[0], moderator=False)
            if await play_steps(service, table_id, steps, rng):
                await repo.set_message(table_id, SYNTHETIC_MESSAGE)
                snap = await service.snapshot(table_id)
                await repo.mark_rendered(table_id, snap.version, TableStatus.RUNNING)
                return table_id
        raise RuntimeError("no game outlived the steps asked")
    finally:
        await repo.close()


async def play_steps(service: TableService, table_id: int, steps: int, rng: random.Random) -> bool:
    """``steps`` random legal steps; False if the game ended first."""
    for _ in range(steps):
        snap = await service.snapshot(table_id)
        if snap.state is None or snap.table.status is not TableStatus.RUNNING:
            return False
        prompt = rng.choice(GAME.prompts(snap.state))
        user = snap.seats[prompt.player].user_id
        await service.act(table_id, snap.version or 0, user, rng.choice(prompt.choices))
    snap = await service.snapshot(table_id)
    return snap.table.status is TableStatus.RUNNING


# --- copies ------------------------------------------------------------------------------------


@dataclass
class Slot:
    """Where one stored table lives: its guild, channel, message and users."""

    table_id: int
    guild_id: int
    channel_id: int
    message_id: int
    users: list[int]


USER_COLUMNS = {"user_id", "creator_id"}


def column_expression(table: str, column: str, template_users: list[int]) -> str | None:
    """The SELECT expression giving a copy's value of ``column`` (None: left out)."""

    def user(expression: str) -> str:
        cases = " ".join(f"WHEN {u} THEN c.u{i}" for i, u in enumerate(template_users))
        return f"CASE {expression} {cases} ELSE {expression} END"

    if table == "tables" and column == "id":
        return "c.table_id"
    if table == "outbox" and column == "id":
        return None  # its own AUTOINCREMENT id
    if column == "table_id":
        return "c.table_id"
    if column in ("guild_id", "channel_id", "message_id"):
        return f"c.{column}"
    if column in USER_COLUMNS:
        return user(f"t.{column}")
    if table == "outbox" and column == "target":
        return f"CASE WHEN t.kind = 'post' THEN c.channel_id ELSE {user('t.target')} END"
    if table == "outbox" and column == "delivered_at":
        return "COALESCE(t.delivered_at, t.created_at)"
    if table == "deadlines" and column == "due_at":
        return f"{time.time() + 3600:.3f} + c.n * 0.37"
    return f"t.{column}"


def copy_tables(path: Path, template_id: int, slots: list[Slot]) -> dict[str, int]:
    """Copy the template's rows once per slot (SQL only), then drop every other table
    (the template); rows written per table."""
    db = sqlite3.connect(path, isolation_level=None)
    written: dict[str, int] = {}
    try:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("BEGIN")
        db.execute(
            "CREATE TEMP TABLE copies (n INTEGER PRIMARY KEY, table_id INTEGER,"
            " guild_id INTEGER, channel_id INTEGER, message_id INTEGER,"
            + ", ".join(f"u{i} INTEGER" for i in range(PLAYERS))
            + ")"
        )
        db.executemany(
            f"INSERT INTO copies VALUES ({', '.join('?' * (5 + PLAYERS))})",
            [
                (n, s.table_id, s.guild_id, s.channel_id, s.message_id, *s.users)
                for n, s in enumerate(slots)
            ],
        )
        for table in ["tables", *tables_keyed_by_table_id(db)]:
            columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            pairs = [
                (column, column_expression(table, column, TEMPLATE_USERS)) for column in columns
            ]
            kept = [(c, e) for c, e in pairs if e is not None]
            key = "id" if table == "tables" else "table_id"
            cursor = db.execute(
                f"INSERT INTO {table} ({', '.join(c for c, _ in kept)})"
                f" SELECT {', '.join(e for _, e in kept if e)} FROM {table} t, copies c"
                f" WHERE t.{key} = ? ORDER BY c.n",
                (template_id,),
            )
            written[table] = cursor.rowcount
        copies = "(SELECT table_id FROM copies)"
        for table in tables_keyed_by_table_id(db):
            db.execute(f"DELETE FROM {table} WHERE table_id NOT IN {copies}")
        db.execute(f"DELETE FROM tables WHERE id NOT IN {copies}")
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()
    return written


def tables_keyed_by_table_id(db: sqlite3.Connection) -> list[str]:
    names = [
        row[0]
        for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    return [
        name
        for name in names
        if name != "tables"
        and "table_id" in [r[1] for r in db.execute(f"PRAGMA table_info({name})")]
    ]


async def post_table_messages(
    fake: FakeDiscord, path: Path, posted: list[tuple[Slot, FakeChannel]]
) -> None:
    """These tables' messages, rendered by the bot's renderer, posted in the fake as
    the bot's; their ids stored as the tables' messages (and in their slots). Their
    players' DM channels are opened and kept, as the bot that dealt them did."""
    repo = SqliteRepository(path)
    await repo.open()
    try:
        service = TableService(repo, NoScheduler())
        renderer = Renderer(None, presenters(), service)  # type: ignore[arg-type]
        for slot, channel in posted:
            snapshot = await service.snapshot(slot.table_id)
            embed, items = renderer.table_message(renderer.context(snapshot))
            message = await fake.post_as_bot(
                channel,
                embeds=[embed.to_dict()],  # type: ignore[list-item]
                components=view_of(items).to_components() if items else [],
            )
            await repo.set_message(slot.table_id, message.id)
            slot.message_id = message.id
            for user_id in slot.users:
                await repo.remember_dm_channel(user_id, fake.store.open_dm(user_id).id)
    finally:
        await repo.close()
