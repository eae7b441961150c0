"""Boot time of the real bot process with many stored running tables, and the
first clicks after boot.

    .venv/bin/python -m bench.restore [--tables 0 1000 10000] [--boots 3]
        [--tables-per-guild 20] [--steps 10] [--keep FOLDER]
        [--backend sqlite|postgres] [--shard-count N]

The database: one Complots table of 4 players is opened, joined, started and
played ``--steps`` random legal steps through the real ``TableService`` with the
bot's real ``TableAnnouncer`` (so its state, seats, actions, events, deadline and
outbox rows are what the bot writes); then its rows are copied N times with SQL
(each copy its own table id, guild, channel, message id and 4 users; every table
with a key ``table_id`` is copied, whatever columns it has). The copies are what a
cleanly stopped bot leaves: every table message shows its table (``rendered_version``
and ``rendered_status`` current) and every outbox entry is delivered, so the boot
owes Discord nothing; deadlines are spread over the hours to come (none fires
during the bench).

The world: the fake Discord (in this process) holds every table's guild
(``--tables-per-guild`` tables per guild) and channel, so READY brings the bot every
guild it would have. The table messages of the few tables clicked after each boot
are posted in the fake (rendered by the bot's own renderer from the stored table);
the others are only ids (a boot must not touch them: the REST calls of the boot are
listed to show it).

Each boot starts ``python -m bot`` (LOG_LEVEL=WARNING, RENDER_INTERVAL=1.0) and
measures, from the process's spawn: its first REST request (the interpreter and
the imports are done: ``login``), the command sync (``setup_hook`` under way), the
gateway IDENTIFY (``setup_hook`` done: scheduler armed, owed output queued,
computers resumed; READY and the guilds follow at once), and the answer to a click
sent on a never-loaded table the moment the bot identified (so it waits for READY
and the guilds to be parsed: "serving"). Then, one by one, clicks on other
never-loaded tables (each loads its table: the first click's latency after boot)
and a click on an already loaded one. The bot's CPU seconds and RSS after boot.
Each size is booted ``--boots`` times (the file in the OS page cache: a warm
restart). The goal: spawn -> IDENTIFY within 1 s with 10,000 stored tables. Nothing
is asserted: it is a measurement, not a test.

``--backend postgres``: the database is built in SQLite as above, then copied into a
new PostgreSQL database with ``bot.migrate.migrate_database`` (what ``python -m bot
migrate`` does; not timed) on a throwaway server this bench starts
(``tests.postgres.running_server``: its own cluster on a free local port, durability
off), and the bot boots with ``DATABASE_URL``. ``--shard-count N``: the guilds are
dealt over N Discord shards in turn (``add_guild(shard=...)``) and the bot boots as
shard 0 of N (``SHARD_COUNT=N``, ``SHARD_IDS=0``), owning about 1/N of the tables;
the clicked tables are among its own.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import tempfile
import time
from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from bench.botproc import (
    BotProcess,
    DatabaseReader,
    bot_process,
    compile_bytecode,
    load_text,
    open_reader,
    panel_of,
    rate_limited,
    request_kinds,
    time_requests,
)
from bench.discord_latency import watched_callbacks
from bench.stored import (
    GAME,
    PLAYERS,
    SYNTHETIC_MESSAGE,
    Slot,
    build_template,
    copy_tables,
    post_table_messages,
)
from bot.migrate import migrate_database
from bot.storage import SqliteRepository
from tests.e2e.bot.harness import buttons_on, clicks_for, panel_select
from tests.e2e.fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeUser
from tests.postgres import PostgresServer, running_server

CLICKED_PER_BOOT = 3
"""Never-loaded tables clicked after each boot (the first at once, at IDENTIFY)."""
SYNTHETIC_USER = 10**15
"""User ids of tables nobody clicks: far below the fake's snowflakes."""
ANSWER_TIMEOUT = 30.0
GOAL_TABLES = 10_000
GOAL_IDENTIFY = 1.0
"""Seconds from spawn to IDENTIFY with GOAL_TABLES stored tables."""


# --- the world ---------------------------------------------------------------------------------


@dataclass
class World:
    fake: FakeDiscord
    slots: list[Slot]
    clicked: list[int] = field(default_factory=list)
    """Indexes of the slots whose table messages and users are in the fake."""
    users: dict[int, FakeUser] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    served: int = 0
    """Tables in the guilds of the booting shard (every table, unsharded)."""


def build_world(
    fake: FakeDiscord, tables: int, per_guild: int, clicked: int, shards: int | None = None
) -> World:
    """Guilds and channels for every table (the guilds dealt over ``shards`` in turn);
    users (members) only where clicked, in the booting shard's (0) guilds."""
    slots: list[Slot] = []
    world = World(fake, slots)
    guild: FakeGuild | None = None
    served = [n for n in range(tables) if shard_of_guild(n // per_guild, shards) == 0]
    world.served = len(served)
    picks = set(served[:: max(1, len(served) // max(clicked, 1))][:clicked])
    for n in range(tables):
        if n % per_guild == 0:
            guild = add_guild(fake, n // per_guild, shards)
        assert guild is not None
        channel = fake.add_channel(guild, f"complots-{n}")
        world.channels[channel.id] = channel
        if n in picks:
            users = [fake.add_user(f"p{n}-{i}") for i in range(PLAYERS)]
            for user in users:
                fake.add_member(guild, user)
                world.users[user.id] = user
            ids = [u.id for u in users]
            world.clicked.append(n)
        else:
            ids = [SYNTHETIC_USER + PLAYERS * n + i for i in range(PLAYERS)]
        slots.append(Slot(10 + n, guild.id, channel.id, SYNTHETIC_MESSAGE + n, ids))
    return world


def shard_of_guild(number: int, shards: int | None) -> int:
    return 0 if shards is None else number % shards


def add_guild(fake: FakeDiscord, number: int, shards: int | None) -> FakeGuild:
    if shards is None:
        return fake.add_guild(f"Guild {number}")
    return fake.add_guild(f"Guild {number}", shard=(shard_of_guild(number, shards), shards))


async def post_clicked_messages(world: World, path: Path) -> None:
    """The clicked tables' messages, posted in the fake (the others are only ids)."""
    posted = [(world.slots[n], world.channels[world.slots[n].channel_id]) for n in world.clicked]
    await post_table_messages(world.fake, path, posted)


# --- one boot ------------------------------------------------------------------------------------


@dataclass
class Boot:
    tables: int
    login: float = math.nan
    sync: float = math.nan
    identify: float = math.nan
    serving: float = math.nan
    """Spawn -> the answer to a click sent at IDENTIFY on a never-loaded table."""
    first_click: float = math.nan
    """That click's own latency (sent at IDENTIFY: READY and the guilds come first)."""
    cold: list[float] = field(default_factory=list)
    """Latencies of clicks on never-loaded tables, the bot idle."""
    warm: float = math.nan
    answers: list[str] = field(default_factory=list)
    cpu: float = math.nan
    """The bot's CPU seconds from spawn to IDENTIFY."""
    rss_mib: float = math.nan
    boot_rest: Counter[str] = field(default_factory=Counter)
    log: Counter[str] = field(default_factory=Counter)
    load: tuple[float, float, float] = (math.nan, math.nan, math.nan)


async def click_once(
    world: World, oracle: DatabaseReader, n: int, boot: Boot
) -> tuple[float, float] | None:
    """A legal move on slot ``n``'s table (a public button if one is shown); the
    click's (latency, monotonic time its answer came)."""
    fake, slot = world.fake, world.slots[n]
    view = await oracle.table(slot.table_id)
    assert view is not None and view.state is not None and view.message_id is not None
    message = fake.message(view.message_id)
    moves = []
    for prompt in GAME.prompts(view.state):
        user = world.users[view.seat_users[prompt.player]]
        for choice in prompt.choices:
            clicks = clicks_for(buttons_on(message), choice)
            if clicks is not None:
                moves.append((clicks.value is not None, user, clicks))
    if not moves:
        return None
    _, user, clicks = min(moves, key=lambda m: m[0])  # public first
    record = await fake.click(user, message, clicks.custom_id)
    if not await watched_callbacks(record).longer_than(0, ANSWER_TIMEOUT):
        return None
    response = record.response
    boot.answers.append("none" if response is None else f"type {response.type}")
    if response is None or record.latency is None:
        return None
    answered_at = record.created_at + record.latency
    panel = await panel_of(record) if clicks.value is not None else None
    if panel is not None:  # finish the step in the panel
        select, offered = panel_select(panel)
        if clicks.value in offered:
            chosen = await fake.select(user, panel, select, [clicks.value])
            await watched_callbacks(chosen).longer_than(0, ANSWER_TIMEOUT)
    return record.latency, answered_at


@dataclass(frozen=True)
class Deployment:
    """Where the booting bot finds its tables, and which shard it is."""

    server: PostgresServer | None = None
    """The PostgreSQL server the SQLite database is copied to (None: SQLite)."""
    shard_count: int | None = None
    """The bot boots as shard 0 of these (None: unsharded)."""

    def describe(self) -> str:
        where = "SQLite file" if self.server is None else "PostgreSQL (copied from SQLite)"
        if self.shard_count is None:
            return f"{where}, the bot unsharded"
        return f"{where}, the bot booting shard 0 of {self.shard_count} (SHARD_IDS=0)"

    def env(self, dsn: str | None) -> dict[str, str]:
        env = {"RENDER_INTERVAL": "1.0"}
        if dsn is not None:
            env["DATABASE_URL"] = dsn
        if self.shard_count is not None:
            env.update(SHARD_COUNT=str(self.shard_count), SHARD_IDS="0")
        return env


@dataclass(frozen=True)
class Stored:
    """The database a boot finds, and the bot's settings besides the bench's own."""

    database: Path
    """The SQLite file built here (the bot's own unless ``dsn``)."""
    dsn: str | None
    """Its copy in PostgreSQL, the bot's database when set."""
    env: dict[str, str]
    profile: Path | None = None
    """Boots run under cProfile, each writing ``<profile>.<tables>.<boot>``."""

    def profile_of(self, tables: int, number: int) -> Path | None:
        return None if self.profile is None else Path(f"{self.profile}.{tables}.{number}")


async def boot_once(
    world: World, folder: Path, stored: Stored, picks: list[int], tables: int, number: int
) -> Boot:
    fake = world.fake
    boot = Boot(tables)
    requests = time_requests(fake)
    first = len(requests)
    database = stored.database
    oracle = await open_reader(database, stored.dsn)
    try:
        profile = stored.profile_of(tables, number)
        async with bot_process(
            fake, folder, database, stored.env, poll=0.001, profile=profile
        ) as bot:
            identified = time.monotonic()
            boot.identify = identified - bot.spawned_at
            boot.cpu = bot.cpu_seconds()
            first_click = await click_once(world, oracle, picks[0], boot)
            if first_click is not None:
                boot.first_click = first_click[0]
                boot.serving = first_click[1] - bot.spawned_at
            await asyncio.sleep(0.5)
            for n in picks[1:]:
                clicked = await click_once(world, oracle, n, boot)
                if clicked is not None:
                    boot.cold.append(clicked[0])
                await asyncio.sleep(0.2)
            await asyncio.sleep(0.5)
            warm = await click_once(world, oracle, picks[-1], boot)
            if warm is not None:
                boot.warm = warm[0]
            boot.rss_mib = bot.rss_kib() / 1024
            boot.load = os.getloadavg()
            timeline(boot, bot, requests, first, identified)
    finally:
        await oracle.close()
    boot.log = bot.log_counts()
    return boot


def timeline(boot: Boot, bot: BotProcess, requests: Any, first: int, identified: float) -> None:
    """Login and command sync times from the fake's requests; what else the boot asked."""
    window = list(zip(requests[first:], requests.times[first:], strict=True))
    for record, at in window:
        if math.isnan(boot.login):
            boot.login = at - bot.spawned_at
        if record.method == "PUT" and record.path.endswith("/commands") and math.isnan(boot.sync):
            boot.sync = at - bot.spawned_at
    until_identify = [r for r, at in window if at <= identified]
    boot.boot_rest = request_kinds_of(until_identify)


def request_kinds_of(records: list[Any]) -> Counter[str]:
    kinds: Counter[str] = Counter()
    for record in rate_limited(records):
        kinds[f"{record.method} {record.path.split('/')[1]}"] += 1
    return kinds


# --- driver ----------------------------------------------------------------------------------


@dataclass
class Size:
    tables: int
    fill_seconds: float
    rows: dict[str, int]
    file_mb: float
    boots: list[Boot]
    later_rest: Counter[str] = field(default_factory=Counter)
    served: int = 0
    """Tables in the booting shard's guilds."""
    copy_seconds: float = math.nan
    """SQLite -> PostgreSQL (migrate_database; NaN: SQLite)."""
    postgres_mb: float = math.nan


async def measure(
    tables: int,
    boots: int,
    per_guild: int,
    steps: int,
    keep: Path | None,
    deployment: Deployment = Deployment(),
    profile: Path | None = None,
) -> Size:
    with tempfile.TemporaryDirectory(prefix="bench-restore-") as name:
        folder = keep or Path(name)
        folder.mkdir(parents=True, exist_ok=True)
        database = folder / f"restore-{tables}.sqlite3"
        for old in folder.glob(database.name + "*"):
            old.unlink()
        async with FakeDiscord() as fake:
            time_requests(fake)
            began = time.perf_counter()
            world = build_world(
                fake, tables, per_guild, CLICKED_PER_BOOT * boots, deployment.shard_count
            )
            rows: dict[str, int] = {}
            if tables:
                template = await build_template(database, steps, seed=tables)
                rows = copy_tables(database, template, world.slots)
                await post_clicked_messages(world, database)
            else:
                repo = SqliteRepository(database)
                await repo.open()
                await repo.close()
            fill = time.perf_counter() - began
            size_mb = sum(p.stat().st_size for p in folder.glob(database.name + "*")) / 1e6
            size = Size(tables, fill, rows, size_mb, [], served=world.served)
            server = deployment.server
            dsn = None if server is None else await copy_to_postgres(database, server, size)
            try:
                stored = Stored(database, dsn, deployment.env(dsn), profile)
                for number in range(boots):
                    size.boots.append(await boot_number(world, folder, stored, number))
            finally:
                if server is not None and dsn is not None:
                    await server.drop_database(dsn)
            size.later_rest = Counter(request_kinds(fake, fake.requests))
    return size


async def copy_to_postgres(database: Path, server: PostgresServer, size: Size) -> str:
    """A new PostgreSQL database holding what the SQLite file holds (not timed); its DSN."""
    dsn = await server.new_database(migrated=False)
    began = time.perf_counter()
    await migrate_database(database, dsn)
    size.copy_seconds = time.perf_counter() - began
    db = await asyncpg.connect(dsn)
    try:
        size.postgres_mb = await db.fetchval("SELECT pg_database_size(current_database())") / 1e6
    finally:
        await db.close()
    return dsn


async def boot_number(world: World, folder: Path, stored: Stored, number: int) -> Boot:
    """Boot ``number`` (from 0), clicking its share of the clicked tables."""
    picks = world.clicked[number * CLICKED_PER_BOOT : (number + 1) * CLICKED_PER_BOOT]
    tables = len(world.slots)
    boot = (
        await boot_once(world, folder, stored, picks, tables, number)
        if len(picks) == CLICKED_PER_BOOT
        else await boot_without_clicks(world, folder, stored, tables)
    )
    print_boot(boot, number)
    return boot


async def boot_without_clicks(world: World, folder: Path, stored: Stored, tables: int) -> Boot:
    """A boot with no table to click (the empty database): timeline only."""
    fake = world.fake
    boot = Boot(tables)
    requests = time_requests(fake)
    first = len(requests)
    async with bot_process(fake, folder, stored.database, stored.env, poll=0.001) as bot:
        identified = time.monotonic()
        boot.identify = identified - bot.spawned_at
        boot.cpu = bot.cpu_seconds()
        await asyncio.sleep(0.5)
        boot.rss_mib = bot.rss_kib() / 1024
        boot.load = os.getloadavg()
        timeline(boot, bot, requests, first, identified)
    boot.log = bot.log_counts()
    return boot


def ms(seconds: float) -> str:
    return "-" if math.isnan(seconds) else f"{1000 * seconds:.0f}"


COLUMNS = (
    f"{'tables':>7} {'boot':>4} {'login':>6} {'sync':>6} {'IDENT':>6} {'own':>5} {'tail':>5}"
    f" {'serving':>8}"
    f" {'1st click':>9} {'cold clicks':>12} {'warm':>6} {'CPU s':>6} {'RSS MiB':>8}"
    f" {'load 1m':>8}"
)


def print_boot(boot: Boot, number: int) -> None:
    cold = "/".join(ms(x) for x in boot.cold) or "-"
    print(
        f"{boot.tables:>7} {number + 1:>4} {ms(boot.login):>6} {ms(boot.sync):>6}"
        f" {ms(boot.identify):>6} {ms(boot.identify - boot.login):>5}"
        f" {ms(boot.identify - boot.sync):>5} {ms(boot.serving):>8}"
        f" {ms(boot.first_click):>9}"
        f" {cold:>12} {ms(boot.warm):>6} {boot.cpu:>6.2f} {boot.rss_mib:>8.1f}"
        f" {boot.load[0]:>8.2f}",
        flush=True,
    )


def print_size(size: Size) -> None:
    boots = size.boots
    rows = ", ".join(f"{k} {v}" for k, v in size.rows.items())
    print(
        f"\n{size.tables} stored tables: filled in {size.fill_seconds:.1f} s"
        f" ({rows or 'empty'}; file {size.file_mb:.1f} MB)"
    )
    identify = statistics.median(b.identify for b in boots)
    own = statistics.median(b.identify - b.login for b in boots)
    serving = [b.serving for b in boots if not math.isnan(b.serving)]
    cold = [x for b in boots for x in b.cold]
    print(
        f"  median of {len(boots)} boots: spawn -> IDENTIFY (setup_hook done)"
        f" {ms(identify)} ms (login -> IDENTIFY {ms(own)} ms)"
        + (f", -> serving {ms(statistics.median(serving))} ms" if serving else "")
        + (
            f"; cold first clicks median {ms(statistics.median(cold))} ms, max {ms(max(cold))} ms"
            if cold
            else ""
        )
    )
    print_deployment(size)
    if size.tables >= GOAL_TABLES:
        verdict = "met" if identify <= GOAL_IDENTIFY else "missed"
        print(
            f"  goal: spawn -> IDENTIFY <= {ms(GOAL_IDENTIFY)} ms with {GOAL_TABLES:,} stored"
            f" tables: {verdict} ({ms(identify)} ms, median)"
        )
    boot_rest: Counter[str] = Counter()
    answers: Counter[str] = Counter()
    logs: Counter[str] = Counter()
    for boot in boots:
        boot_rest += boot.boot_rest
        answers.update(boot.answers)
        logs += boot.log
    print(
        "  REST calls until IDENTIFY, all boots: "
        + (", ".join(f"{k} x{n}" for k, n in boot_rest.most_common()) or "none")
    )
    print(
        "  rate-limited REST calls of the whole run (boots + clicks): "
        + (", ".join(f"{k} {n}" for k, n in size.later_rest.most_common()) or "none")
    )
    if answers:
        print("  click answers: " + ", ".join(f"{k} x{n}" for k, n in answers.most_common()))
    for text, n in logs.most_common(5):
        print(f"  bot log x{n}: {text}")


def print_deployment(size: Size) -> None:
    """What only a copy to PostgreSQL or a sharded boot has to say."""
    if not math.isnan(size.copy_seconds):
        print(
            f"  copied into PostgreSQL by migrate_database in {size.copy_seconds:.1f} s"
            f" (not timed; database {size.postgres_mb:.1f} MB)"
        )
    if size.served != size.tables:
        print(f"  the booting shard's guilds hold {size.served} of the {size.tables} tables")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[0, 1000, 10_000])
    parser.add_argument("--boots", type=int, default=3)
    parser.add_argument("--tables-per-guild", type=int, default=20)
    parser.add_argument("--steps", type=int, default=10, help="steps played by the template")
    parser.add_argument(
        "--keep", type=Path, help="write the SQLite databases here, not in a temp dir"
    )
    parser.add_argument(
        "--backend",
        choices=["sqlite", "postgres"],
        default="sqlite",
        help="the bot's database (postgres: the SQLite one copied to a throwaway server)",
    )
    parser.add_argument(
        "--shard-count", type=int, help="boot shard 0 of this many (default: unsharded)"
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="boot under cProfile (slower: not the figures) into FILE.<tables>.<boot>",
    )
    args = parser.parse_args()
    if args.shard_count is not None and args.shard_count < 1:
        parser.error("--shard-count must be at least 1")
    print("Boot of the bot process with stored running tables (bench.restore)")
    print(
        "Times in ms from the process's spawn: its first REST request (login), the command\n"
        "sync, IDENTIFY (setup_hook done; 'own': IDENTIFY - login, the bot's boot without\n"
        "the interpreter and imports; 'tail': IDENTIFY - sync, deadlines armed, owed\n"
        "output and computers looked up), and the answer to a click sent at IDENTIFY on a\n"
        "never-loaded table (serving: READY and every guild parsed first); '1st click' is\n"
        "that click's latency, 'cold clicks' later clicks on other never-loaded tables,\n"
        "'warm' one on a loaded table; the bot's CPU seconds until IDENTIFY, its RSS after\n"
        f"the clicks. {args.tables_per_guild} tables per guild, a channel per table."
    )
    goal = f"{ms(GOAL_IDENTIFY)} ms with {GOAL_TABLES:,} stored tables"
    print(f"Goal: spawn -> IDENTIFY <= {goal}.")
    compile_bytecode()
    print("The project's bytecode is compiled first, as an installed package has it.")
    postgres = running_server() if args.backend == "postgres" else nullcontext()
    with postgres as server:
        deployment = Deployment(server, args.shard_count)
        print(f"The bot's tables: {deployment.describe()}.")
        print(f"Load average before: {load_text()}")
        print(COLUMNS, flush=True)
        sizes = [
            asyncio.run(
                measure(
                    n,
                    args.boots,
                    args.tables_per_guild,
                    args.steps,
                    args.keep,
                    deployment,
                    args.profile,
                )
            )
            for n in args.tables
        ]
    for size in sizes:
        print_size(size)
    print(f"\nLoad average after: {load_text()}")


if __name__ == "__main__":
    main()
