"""Interaction latency, throughput and cost of the bot process with many concurrent
Complots tables.

    .venv/bin/python -m bench.discord_latency [--tables 10 100 500 1000] [--seconds 20]
        [--pace 0] [--profile FILE] [--backend sqlite|postgres] [--processes 1]

For each table count: one fake Discord (tests/e2e/fake_discord: real HTTP and a
real websocket on 127.0.0.1) in this process, one guild, one channel per table, 4
users per table, and the bot in ITS OWN process: ``python -m bot`` (as
tests/e2e/bot/test_process.py runs it) with a temp ``DATABASE_PATH``,
``RENDER_INTERVAL=1.0`` (the production default), ``LOG_LEVEL=WARNING`` and every
other setting at the bot's default. So the fake's and the simulated players' work
is billed to this process, not to the bot; on a 2-core machine both still share
the cores (the load average is printed).

Every table is opened, joined and started by clicks (not timed), or with
``--stored`` built in the bot's database before the bot starts (``bench.stored``:
copies of one started game, each table message posted in the fake as the bot's;
opening 2,000 tables by clicks takes longer than ``SETUP_LIMIT``, its lobby posts and
welcome and start DMs queued behind the bot's budget of REST writes) and then
stepped once each, not timed (so the bot loaded each table before the timed phase,
as it has those it opened by clicks), and the bot's output drained (every table
message rendered, the outbox empty). Then, for
``--seconds``, one asyncio task per table plays random legal Complots steps
through the UI, waiting for each answer before its next click, like a human: the
prompted players and their legal choices come from the bot's database, read
(read-only) by this process (``bench.botproc.Oracle``; not timed); the click uses
the custom_id shown on the *latest* table message (a choice the message does not
show yet waits for its next version). Private choices go through the ephemeral
panel (a click, then a select: both count). Which clicks make a choice, and
whether the bot refused one, come from the e2e harness (``clicks_for``,
``panel_select``, ``refusal``). A click refused as stale is counted, and retried
after the table message changed. A finished game is replaced by a rematch in the
same channel (Rematch, then Start: both count).

Figures, per table count:

* clicks/s and the latency of every click: the fake's ``InteractionRecord.latency``,
  from the INTERACTION_CREATE frame written to the bot's socket to its callback
  received; p50, p99, max. The fake keeps Discord's 3-second deadline: later
  answers are refused (404 / 10062) and counted as expired (">3 s": 0 is the goal).
* the table-message delay: from the accepted step's answer reaching the fake to
  the fake storing a version of the table message that shows the step's state
  version (its buttons carry it) or the finished table. It is read from what the
  fake stored for that message (its timed history), whichever way it came: an
  interaction update (type 7: then 0) or a REST edit by the bot's renderer.
  Public steps (a button on the table message) and panel steps (a select in the
  clicker's ephemeral panel) apart.
* REST calls per accepted step that count against Discord's global rate limit:
  every request the bot made during the timed phase (``fake.requests``) except
  interaction callbacks and interaction webhooks (``/interactions/``,
  ``/webhooks/``), over the accepted game steps (Rematch and Start calls are in the
  numerator, not the denominator).
* the CPU split over the timed phase: the bot process's CPU seconds
  (/proc/<pid>/stat utime + stime, all its threads; the sum of the bot processes)
  against this process's (``os.times()``: the fake and the players), with the load
  average.
* how late this process's event loop ran during the timed phase: the fake
  receives the bot's answers there, so seconds of lag would be billed to the bot.
  This process freezes what the setup built (``gc.freeze``) and collects no
  garbage while timed (the fake keeps every version of every message: a full
  collection over that took up to a second at 500 tables).

``--global-limit N`` (50 by default, Discord's default for a bot): the fake answers
429 to REST requests beyond N per second, interaction endpoints exempt, as Discord
does; discord.py then waits and retries (the count of 429s is printed). 0: no limit.

``--backend postgres``: the bot keeps its tables in PostgreSQL (``DATABASE_URL``), a
new database per table count on a throwaway server this bench starts
(``tests.postgres.running_server``: its own cluster on a free local port, durability
traded for speed: ``fsync`` and ``synchronous_commit`` off, as SQLite's
``synchronous=NORMAL`` does not wait for the disk at each commit either); players
read it through the bot's own repository (``bench.botproc.PostgresReader``).
``--processes N`` (PostgreSQL only, when over 1): N bot processes, one Discord shard
each (``SHARD_COUNT=N``, ``SHARD_IDS=i``), the tables spread over N guilds, one per
shard (``add_guild(shard=...)``), so each process serves its own 1/N of the tables.
The bot CPU figure is then the sum of the processes (each printed apart); with
PostgreSQL the server's CPU (its postmaster and backends, the players' reads
included) is printed beside it.

``--pace S``: each table waits a random think time (exponential, mean S seconds,
seeded per table) before each step, as people do; 0 (the default) clicks again as
soon as the previous answer came, which measures the bot's ceiling. ``--profile
FILE``: the bot process runs under cProfile (slower: figures taken so are not
comparable) and writes its profile to FILE.<tables> when it stops (each of several
processes to FILE.<tables>.shard<i>).

Nothing is asserted: it is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import os
import random
import re
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager, AsyncExitStack, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from bench.botproc import (
    BotProcess,
    DatabaseReader,
    TableView,
    Watched,
    bot_process,
    load_text,
    open_reader,
    panel_of,
    percentile,
    rate_limited,
    request_kinds,
    server_cpu_seconds,
    shown_versions,
    time_requests,
    watched_history,
)
from bench.stored import SYNTHETIC_MESSAGE, Slot, build_template, copy_tables, post_table_messages
from bot.migrate import migrate_database
from bot.ui.i18n import t
from games.registry import GAMES
from tests.e2e.bot.harness import Clicks, buttons_on, clicks_for, panel_select, refusal
from tests.e2e.fake_discord import (
    CallbackRecord,
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeUser,
    InteractionRecord,
    InteractionRefused,
    StoredMessage,
)
from tests.postgres import PostgresServer, running_server

PLAYERS = 4
RENDER_INTERVAL = 1.0
RESPONSE_DEADLINE = 3.0
ANSWER_TIMEOUT = 10.0
"""Seconds a simulated player waits for any callback before counting an error."""
RENDER_TIMEOUT = 5.0
LOBBY_TIMEOUT = 60.0
"""Setup: a lobby message is posted by REST within the bot's budget of REST writes,
behind the welcome DMs of every join; hundreds of tables opened at once wait seconds."""
"""Seconds a player waits for the table message to change before counting an error."""
SETUP_LIMIT = 300.0
SETUP_CONCURRENCY = 25
DRAIN_LIMIT = 120.0
SETTLE = 3.0
"""Seconds after the timed phase before table-message delays are read (late edits)."""
STALE = t("refusal.stale", "en")
GAME = GAMES["complots"]
RUNNING, FINISHED, LOBBY = "running", "finished", "lobby"


def watched_callbacks(record: InteractionRecord) -> Watched[CallbackRecord]:
    if not isinstance(record.callbacks, Watched):
        record.callbacks = Watched(record.callbacks)
    return record.callbacks


# --- figures ---------------------------------------------------------------------------


@dataclass
class Shown:
    """An accepted step, to be found on its table message."""

    kind: str
    """"public" (a button of the table message) or "panel" (a select of a panel)."""
    table_id: int
    message: StoredMessage
    seen: int
    """How many versions the table message had when the answering interaction left."""
    version: int
    """The state version the step made."""
    answered_at: float
    """When the accepted answer reached the fake (monotonic)."""

    def delay(self) -> float | None:
        """Seconds from the answer to the first stored version showing the step."""
        history = watched_history(self.message)
        for index in range(self.seen, len(history)):
            highest, finished = shown_versions(history[index], self.table_id)
            if highest >= self.version or finished:
                return max(0.0, history.times[index] - self.answered_at)
        return None


@dataclass
class Stats:
    """What one phase (setup, or the timed run) measured."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    clicks: int = 0
    missed: int = 0
    stale: int = 0
    steps: int = 0
    games: int = 0
    render_waits: int = 0
    slow_renders: int = 0
    """Waits for the table message given up after RENDER_TIMEOUT (the player looks again)."""
    errors: Counter[str] = field(default_factory=Counter)
    shown: list[Shown] = field(default_factory=list)
    answer_types: Counter[str] = field(default_factory=Counter)

    def count(self, kind: str, record: InteractionRecord) -> None:
        self.clicks += 1
        if record.latency is not None:
            self.latencies[kind].append(record.latency)
        if not record.deadline_met:
            self.missed += 1

    def error(self, reason: str) -> None:
        self.errors[re.sub(r"\d{3,}", "N", reason)[:120]] += 1

    def all_latencies(self) -> list[float]:
        return [x for values in self.latencies.values() for x in values]


@dataclass
class Cost:
    """What the timed phase cost: CPU of both processes, the bot's REST calls."""

    bot_cpu: float = math.nan
    """All the bot processes."""
    bot_cpus: list[float] = field(default_factory=list)
    """Each bot process (shard 0 first)."""
    server_cpu: float = math.nan
    """The PostgreSQL server (NaN: SQLite, in the bot process)."""
    bench_cpu: float = math.nan
    rest: int = 0
    rest_kinds: Counter[str] = field(default_factory=Counter)
    exempt: int = 0
    """Interaction callbacks and webhooks (outside the global rate limit)."""
    refused: int = 0
    """Requests the fake answered 429 (over the global rate limit; retried)."""
    committed: int = 0
    """Action records the bot wrote during the timed phase: accepted steps, and steps
    committed whose answer came too late, timeouts, starts."""


class LoopLag:
    """How late this process's event loop runs (the fake and the players): a task
    that sleeps ``TICK`` s again and again records how much later it woke. Seconds
    of lag here would be the bench's fault, not the bot's."""

    TICK = 0.05

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._watch())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _watch(self) -> None:
        while True:
            began = time.monotonic()
            await asyncio.sleep(self.TICK)
            self.lags.append(time.monotonic() - began - self.TICK)


@dataclass
class Result:
    tables: int
    setup_seconds: float
    seconds: float = 0.0
    stats: Stats = field(default_factory=Stats)
    setup: Stats = field(default_factory=Stats)
    cost: Cost = field(default_factory=Cost)
    log: Counter[str] = field(default_factory=Counter)
    note: str = ""
    load_before: tuple[float, float, float] = (math.nan, math.nan, math.nan)
    load: tuple[float, float, float] = (math.nan, math.nan, math.nan)
    """The machine's load average (1, 5, 15 min) at the end of the timed phase."""
    exit_code: int | None = None
    lags: list[float] = field(default_factory=list)
    """Lateness of this process's event loop during the timed phase (LoopLag)."""


# --- the world ---------------------------------------------------------------------------


@dataclass
class Seating:
    """One channel, its 4 players, and the table currently open in it."""

    channel: FakeChannel
    users: list[FakeUser]
    table_id: int = 0
    running: bool = False


@dataclass(frozen=True)
class Move:
    """Who makes a choice, and the clicks that make it."""

    user: FakeUser
    clicks: Clicks


def build_world(fake: FakeDiscord, tables: int, shards: int = 1) -> list[Seating]:
    """One guild (unsharded), or one guild per shard, the tables dealt in turn."""
    guilds = bench_guilds(fake, shards)
    seatings = []
    for n in range(tables):
        guild = guilds[n % len(guilds)]
        channel = fake.add_channel(guild, f"complots-{n}")
        users = [fake.add_user(f"p{n}-{i}") for i in range(PLAYERS)]
        for user in users:
            fake.add_member(guild, user)
        seatings.append(Seating(channel, users))
    return seatings


def bench_guilds(fake: FakeDiscord, shards: int) -> list[FakeGuild]:
    if shards == 1:
        return [fake.add_guild("Bench night")]
    return [fake.add_guild(f"Bench night {i}", shard=(i, shards)) for i in range(shards)]


@dataclass(frozen=True)
class Deployment:
    """Where the bot keeps its tables, and how many processes (shards) serve them."""

    processes: int = 1
    server: PostgresServer | None = None
    """The PostgreSQL server of the run (None: SQLite)."""

    def describe(self) -> str:
        where = "SQLite file" if self.server is None else "PostgreSQL"
        if self.processes == 1:
            return f"{where}, one bot process"
        return f"{where}, {self.processes} bot processes (one shard each)"

    def env(self, index: int, dsn: str | None) -> dict[str, str]:
        """Settings of bot process ``index`` besides the bench's own."""
        env = {"RENDER_INTERVAL": str(RENDER_INTERVAL)}
        if dsn is not None:
            env["DATABASE_URL"] = dsn
        if self.processes > 1:
            env.update(SHARD_COUNT=str(self.processes), SHARD_IDS=str(index))
        return env

    def server_cpu(self) -> float:
        return math.nan if self.server is None else server_cpu_seconds(self.server.data)


# --- one run -----------------------------------------------------------------------------


class Run:
    """The fake and the simulated players of one table count (the bot is elsewhere)."""

    def __init__(self, fake: FakeDiscord, oracle: DatabaseReader, seatings: list[Seating]) -> None:
        self.fake = fake
        self.oracle = oracle  # where players read the true state (not timed)
        self.seatings = seatings
        self.stats = Stats()
        self.pace = 0.0
        """Mean think time (s) of a table before each step; 0: at once."""

    # --- talking to the bot ---

    async def answer(
        self, kind: str, sent: Awaitable[InteractionRecord]
    ) -> InteractionRecord | None:
        """Send one interaction and wait for the bot's first callback; None if none counts."""
        try:
            record = await sent
        except InteractionRefused as refused:
            self.stats.error(f"the fake refused a {kind}: {refused}")
            return None
        answered = await watched_callbacks(record).longer_than(0, ANSWER_TIMEOUT)
        self.stats.count(kind, record)
        if not answered:
            self.stats.error(f"no answer to a {kind} within {ANSWER_TIMEOUT:.0f} s")
            return None
        response = record.response
        if response is None:
            return None
        self.stats.answer_types[f"{kind}: type {response.type}"] += 1
        return record

    async def click(
        self, kind: str, user: FakeUser, message: StoredMessage, custom_id: str
    ) -> InteractionRecord | None:
        """A click the bot must accept (a refusal is counted and gives None)."""
        record = await self.answer(kind, self.fake.click(user, message, custom_id))
        if record is None or self.accepted(kind, record):
            return record
        # Refused (mostly stale): retry once the table message caught up with the table.
        await self.wait_for_edit(message, record.source_version, time.monotonic() + 2.0)
        return None

    def accepted(self, kind: str, record: InteractionRecord) -> bool:
        """True unless the bot refused; a stale refusal counts apart from errors."""
        refused = refusal(record)
        if refused == STALE:
            self.stats.stale += 1
        elif refused is not None:
            self.stats.error(f"{kind} refused: {refused}")
        return refused is None

    def table_message(self, view: TableView) -> StoredMessage | None:
        if view.message_id is None:
            return None
        try:
            return self.fake.message(view.message_id)
        except LookupError:
            return None

    async def wait_for_edit(self, message: StoredMessage, seen: int, until: float) -> None:
        """Wait until ``message`` has more than ``seen`` versions (the bot changed it)."""
        timeout = min(RENDER_TIMEOUT, until - time.monotonic())
        if timeout <= 0:
            return
        edited = await watched_history(message).longer_than(seen, timeout)
        if not edited and timeout >= RENDER_TIMEOUT:
            self.stats.slow_renders += 1

    async def wait_for_message(self, seating: Seating, until: float) -> StoredMessage | None:
        """The table's message once the bot posted it (polled: rare)."""
        while time.monotonic() < until:
            view = await self.oracle.table(seating.table_id)
            if view is not None and (message := self.table_message(view)) is not None:
                return message
            await asyncio.sleep(0.05)
        return None

    # --- setup (not timed) ---

    async def open_table(self, seating: Seating) -> None:
        creator = seating.users[0]
        if await self.answer("lobby", self.fake.slash(creator, seating.channel, "complots")):
            seating.table_id = await self.oracle.open_table_in_channel(seating.channel.id) or 0

    async def join_table(self, seating: Seating) -> None:
        message = await self.wait_for_message(seating, time.monotonic() + LOBBY_TIMEOUT)
        if message is None:
            self.stats.error("no lobby message")
            return
        join = buttons_on(message)["ui.join"]
        joiners = seating.users[1:]
        answers = [await self.answer("lobby", self.fake.click(u, message, join)) for u in joiners]
        # An accepted Join answers a line alone too: the table tells who sat down.
        view = await self.oracle.table(seating.table_id)
        seated = set() if view is None else set(view.seat_users)
        for user, record in zip(joiners, answers, strict=True):
            if record is not None and user.id not in seated:
                self.stats.error(f"lobby refused: {record.message.content}")

    async def start_table(self, seating: Seating) -> None:
        message = await self.wait_for_message(seating, time.monotonic() + LOBBY_TIMEOUT)
        if message is None:
            return
        start = buttons_on(message).get("ui.start")
        if start is None:
            self.stats.error("no Start button on the lobby")
            return
        seating.running = bool(await self.click("lobby", seating.users[0], message, start))

    async def for_each(
        self, seatings: list[Seating], action: Callable[[Seating], Awaitable[None]]
    ) -> None:
        """``action`` on every seating, a few at a time."""
        limit = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def one(seating: Seating) -> None:
            async with limit:
                await action(seating)

        await asyncio.gather(*(one(s) for s in seatings))

    async def set_up(self) -> None:
        await self.for_each(self.seatings, self.open_table)
        opened = [s for s in self.seatings if s.table_id]
        await self.for_each(opened, self.join_table)
        await self.for_each(opened, self.start_table)

    async def warm_up(self) -> None:
        """Stored tables: one step each (not timed), so that the bot has loaded every
        table once before the timed phase, as it has a table it opened by clicks."""
        until = time.monotonic() + SETUP_LIMIT

        async def first_step(seating: Seating) -> None:
            await self.step(seating, random.Random(-seating.channel.id), until)

        await self.for_each(self.seatings, first_step)

    async def drain(self) -> bool:
        """Wait until every table message shows its table and the outbox is empty."""
        end = time.monotonic() + DRAIN_LIMIT
        while await self.oracle.owed() != (0, 0):
            if time.monotonic() > end:
                return False
            await asyncio.sleep(0.2)
        return True

    # --- the timed phase ---

    async def play(self, seating: Seating, until: float) -> None:
        rng = random.Random(seating.channel.id)
        while time.monotonic() < until:
            if self.pace:  # thinking; the timed phase ends on time all the same
                think = rng.expovariate(1 / self.pace)
                await asyncio.sleep(min(think, until - time.monotonic()))
                if time.monotonic() >= until:
                    return
            try:
                await self.step(seating, rng, until)
            except Exception as error:  # a surprise must not end the table's task
                self.stats.error(f"{type(error).__name__}: {error}")
                await asyncio.sleep(0.1)

    async def step(self, seating: Seating, rng: random.Random, until: float) -> None:
        """One random legal step of one table, through the latest table message."""
        view = await self.oracle.table(seating.table_id)
        message = None if view is None else self.table_message(view)
        if view is None or message is None:
            await asyncio.sleep(0.1)
            return
        watched_history(message)
        if view.status == FINISHED:
            await self.rematch(seating, view, message, until)
            return
        if view.status == LOBBY:
            await self.start_rematch(view, message, until)
            return
        moves = self.moves(view, message)
        if not moves:
            self.stats.render_waits += 1
            await self.wait_for_edit(message, len(message.history), until)
            return
        await self.make(rng.choice(moves), view, message)

    def moves(self, view: TableView, message: StoredMessage) -> list[Move]:
        """Every legal (prompted player, choice) whose button the table message shows."""
        if view.state is None or view.status != RUNNING:
            return []
        shown = buttons_on(message)
        moves = []
        for prompt in GAME.prompts(view.state):
            user = self.fake.store.users[view.seat_users[prompt.player]]
            for choice in prompt.choices:
                clicks = clicks_for(shown, choice)
                if clicks is not None:
                    moves.append(Move(user, clicks))
        return moves

    async def make(self, move: Move, view: TableView, message: StoredMessage) -> None:
        value = move.clicks.value
        kind = "choice" if value is None else "panel"
        seen = len(message.history)
        record = await self.click(kind, move.user, message, move.clicks.custom_id)
        if record is None:
            return
        if value is not None:
            seen = len(message.history)
            record = await self.choose_in_panel(move.user, record, value)
        if record is None or record.response is None:
            return
        self.stats.steps += 1
        answered_at = record.created_at + record.response.latency
        self.stats.shown.append(
            Shown(
                "public" if value is None else "panel",
                view.id,
                message,
                seen,
                (view.version or 0) + 1,
                answered_at,
            )
        )

    async def choose_in_panel(
        self, user: FakeUser, panel: InteractionRecord, value: str
    ) -> InteractionRecord | None:
        message = await panel_of(panel)
        if message is None:
            self.stats.error("the panel never came")
            return None
        select, offered = panel_select(message)
        if value not in offered:
            self.stats.error(f"panel does not offer {value}: {offered}")
            return None
        sent = self.fake.select(user, message, select, [value])
        record = await self.answer("select", sent)
        return record if record is not None and self.accepted("select", record) else None

    async def rematch(
        self, seating: Seating, view: TableView, message: StoredMessage, until: float
    ) -> None:
        """Replace a finished game: Rematch on its message opens a new lobby (same players)."""
        button = buttons_on(message).get("ui.rematch")
        if button is None:
            self.stats.render_waits += 1
            await self.wait_for_edit(message, len(message.history), until)
            return
        user = self.fake.store.users[view.seat_users[0]]
        if await self.click("lobby", user, message, button) is None:
            return
        self.stats.games += 1
        table_id = await self.oracle.open_table_in_channel(seating.channel.id)
        if table_id is None:
            self.stats.error("no lobby after a rematch")
            return
        seating.table_id = table_id

    async def start_rematch(self, view: TableView, message: StoredMessage, until: float) -> None:
        """Its creator starts a rematch lobby (once the table message shows it)."""
        button = buttons_on(message).get("ui.start")
        if button is None:
            self.stats.render_waits += 1
            await self.wait_for_edit(message, len(message.history), until)
            return
        creator = self.fake.store.users[view.creator_id]
        await self.click("lobby", creator, message, button)

    async def timed(self, seconds: float) -> float:
        """Every running table plays for ``seconds``; returns the real elapsed time."""
        began = time.monotonic()
        until = began + seconds
        await asyncio.gather(*(self.play(s, until) for s in self.seatings if s.running))
        return time.monotonic() - began


# --- driver ------------------------------------------------------------------------------


async def measure(
    tables: int,
    seconds: float,
    pace: float,
    profile: str | None,
    global_limit: int,
    deployment: Deployment = Deployment(),
    stored: bool = False,
) -> Result:
    """One row: a fresh fake, world, database and bot processes for ``tables`` tables
    (``stored``: the running tables built in the database before the bots start)."""
    server = deployment.server
    dsn = None if server is None else await server.new_database(migrated=not stored)
    try:
        with tempfile.TemporaryDirectory(prefix="bench-discord-") as name:
            folder = Path(name)
            database = folder / "tables.sqlite3"
            limit = global_limit or None
            async with FakeDiscord(response_deadline=RESPONSE_DEADLINE, global_limit=limit) as fake:
                time_requests(fake)
                seatings = build_world(fake, tables, deployment.processes)
                if stored:
                    await store_tables(fake, seatings, database, dsn)
                started = bot_processes(fake, folder, dsn, profile, tables, deployment)
                async with AsyncExitStack() as stack:
                    bots = [await stack.enter_async_context(bot) for bot in started]
                    oracle = await open_reader(database, dsn)
                    run = Run(fake, oracle, seatings)
                    run.pace = pace
                    try:
                        result = await run_phases(run, bots, seconds, deployment)
                    finally:
                        await oracle.close()
                codes = [bot.process.returncode for bot in bots]
                result.exit_code = next((code for code in codes if code), codes[0])
                for bot in bots:
                    result.log += bot.log_counts()
                result.note = "; ".join(filter(None, [result.note, fake_health(fake)]))
    finally:
        if server is not None and dsn is not None:
            await server.drop_database(dsn)
    return result


async def store_tables(
    fake: FakeDiscord, seatings: list[Seating], database: Path, dsn: str | None
) -> None:
    """Every seating's table built in the database as a started game (copies of one
    table started by the real service: bench.stored), its message posted in the fake;
    into PostgreSQL (``dsn``) by ``bot migrate``'s copy."""
    template = await build_template(database, steps=0, seed=len(seatings))
    slots = [
        Slot(
            10 + n,
            seating.channel.guild_id or 0,
            seating.channel.id,
            SYNTHETIC_MESSAGE + n,
            [user.id for user in seating.users],
        )
        for n, seating in enumerate(seatings)
    ]
    copy_tables(database, template, slots)
    posted = [(slot, seating.channel) for slot, seating in zip(slots, seatings, strict=True)]
    await post_table_messages(fake, database, posted)
    if dsn is not None:
        await migrate_database(database, dsn)
    for slot, seating in zip(slots, seatings, strict=True):
        seating.table_id, seating.running = slot.table_id, True


def bot_processes(
    fake: FakeDiscord,
    folder: Path,
    dsn: str | None,
    profile: str | None,
    tables: int,
    deployment: Deployment,
) -> Iterator[AbstractAsyncContextManager[BotProcess]]:
    """The bot processes, one per shard, each started when the previous one identified."""
    for index in range(deployment.processes):
        shard = "" if deployment.processes == 1 else f".shard{index}"
        profiled = None if profile is None else Path(f"{profile}.{tables}{shard}").resolve()
        env = deployment.env(index, dsn)
        yield bot_process(fake, folder, folder / "tables.sqlite3", env, profile=profiled)


async def run_phases(
    run: Run, bots: list[BotProcess], seconds: float, deployment: Deployment
) -> Result:
    """Set every table up (within SETUP_LIMIT), drain, then the timed phase."""
    began = time.monotonic()
    stored = all(s.running for s in run.seatings)
    finished = await within_setup_limit(run.warm_up() if stored else run.set_up())
    drained = finished and await run.drain()
    result = Result(len(run.seatings), time.monotonic() - began, setup=run.stats)
    result.note = setup_note(run, finished, drained)
    if not finished:
        return result
    gc.collect()
    gc.freeze()  # the world and the setup's records stay: no collection walks them again
    run.stats = result.stats
    fake = run.fake
    requests = time_requests(fake)
    first = len(requests)
    result.load_before = os.getloadavg()
    server_cpu = deployment.server_cpu()
    bot_cpus, bench = [b.cpu_seconds() for b in bots], os.times()
    lag = LoopLag()
    lag.start()
    gc.disable()  # no collection pauses in this process while it is timed
    wall_began = time.time()
    timed_began = time.monotonic()
    try:
        result.seconds = await run.timed(seconds)
    finally:
        gc.enable()
    timed_ended = time.monotonic()
    wall_ended = time.time()
    await lag.stop()
    result.lags = lag.lags
    after = os.times()
    result.cost.bot_cpus = [b.cpu_seconds() - cpu for b, cpu in zip(bots, bot_cpus, strict=True)]
    result.cost.bot_cpu = sum(result.cost.bot_cpus)
    result.cost.server_cpu = deployment.server_cpu() - server_cpu
    result.cost.bench_cpu = (after.user + after.system) - (bench.user + bench.system)
    result.load = os.getloadavg()
    window = [
        record
        for record, at in zip(requests[first:], requests.times[first:], strict=True)
        if timed_began <= at <= timed_ended
    ]
    result.cost.refused = sum(r.status == 429 for r in window)
    limited = [r for r in rate_limited(window) if r.status != 429]
    result.cost.rest = len(limited)
    result.cost.exempt = len(window) - len(limited)
    result.cost.rest_kinds = request_kinds(fake, limited)
    result.cost.committed = await run.oracle.actions_between(wall_began, wall_ended)
    await asyncio.sleep(SETTLE)  # table-message versions still on their way
    return result


async def within_setup_limit(setup: Awaitable[None]) -> bool:
    try:
        await asyncio.wait_for(setup, SETUP_LIMIT)
    except TimeoutError:
        return False
    return True


def setup_note(run: Run, finished: bool, drained: bool) -> str:
    ready, tables = sum(s.running for s in run.seatings), len(run.seatings)
    if not finished:
        return (
            f"setup took over {SETUP_LIMIT:.0f} s ({ready}/{tables} tables started):"
            " no timed phase, no figures"
        )
    notes = []
    if ready < tables:
        notes.append(f"only {ready}/{tables} tables started; the timed phase used those")
    if not drained:
        notes.append(f"the bot's output was not drained within {DRAIN_LIMIT:.0f} s")
    return "; ".join(notes)


def fake_health(fake: FakeDiscord) -> str:
    problems = [f"fake internal errors: {len(fake.server_errors)}"] if fake.server_errors else []
    if fake.unknown_routes:
        problems.append(f"unknown routes: {sorted(set(fake.unknown_routes))}")
    return "; ".join(problems)


# --- printing ----------------------------------------------------------------------------

LATENCY_COLUMNS = (
    f"{'tables':>6} {'setup s':>8} {'clicks':>7} {'clicks/s':>9} {'p50 ms':>8} {'p99 ms':>8}"
    f" {'max ms':>8} {'>3 s':>5} {'stale':>6} {'errors':>7} {'bot log':>8}"
)
COST_COLUMNS = (
    f"{'tables':>6} {'steps/s':>8} {'msg p50':>8} {'msg p99':>8} {'panel p50':>10}"
    f" {'panel p99':>10} {'REST/step':>10} {'REST/s':>7} {'bot CPU':>8} {'bench CPU':>10}"
    f" {'load 1m':>8}"
)


def print_header(seconds: float, pace: float, deployment: Deployment = Deployment()) -> None:
    print("Interaction latency and cost of the bot process (bench.discord_latency)")
    print(f"The bot's tables: {deployment.describe()}.")
    print(
        "The bot runs alone in its own process (python -m bot); the fake Discord and the\n"
        "simulated players run in this one (both on this machine's cores: see the load).\n"
        f"{PLAYERS} players per table, one channel per table, RENDER_INTERVAL="
        f"{RENDER_INTERVAL} s, deadline {RESPONSE_DEADLINE} s,\n"
        f"{seconds:g} s timed per row; a finished game is replaced by a rematch in the same\n"
        "channel (Rematch + Start, both counted). "
        + (
            f"Each table thinks {pace:g} s on average before a step.\n"
            if pace
            else "Each table steps again as soon as it was answered.\n"
        )
        + "Players read the true state from the\n"
        "bot's database (read-only, not timed).\n"
        "Latency: INTERACTION_CREATE written -> callback received, as the fake records it;\n"
        "'>3 s': answers that missed Discord's deadline (or never came); 'bot log':\n"
        "WARNING/ERROR lines the bot process logged (whole run)."
    )
    print(f"Load average before (1, 5, 15 min): {load_text()}", flush=True)


def print_tables(results: list[Result]) -> None:
    print()
    print(LATENCY_COLUMNS)
    for result in results:
        print_latency_row(result)
    print()
    print(
        "Table message: answer -> the fake stores a version showing the step (ms), public\n"
        "steps ('msg') and panel steps apart; REST calls under the global rate limit per\n"
        "accepted step and per second; CPU seconds of the bot process vs this process\n"
        "(the fake + players) over the timed phase, and the load average after it."
    )
    print(COST_COLUMNS)
    for result in results:
        print_cost_row(result)


def ms(values: list[float], p: float) -> str:
    return f"{1000 * percentile(values, p):.1f}"


def print_latency_row(result: Result) -> None:
    stats = result.stats
    head = f"{result.tables:>6} {result.setup_seconds:>8.1f}"
    if not result.seconds:
        print(f"{head}  not measured: see the note below", flush=True)
        return
    values = stats.all_latencies()
    log_lines = sum(result.log.values())
    print(
        f"{head} {stats.clicks:>7} {stats.clicks / result.seconds:>9.1f}"
        f" {ms(values, 50):>8} {ms(values, 99):>8} {1000 * max(values, default=math.nan):>8.1f}"
        f" {stats.missed:>5} {stats.stale:>6} {sum(stats.errors.values()):>7} {log_lines:>8}",
        flush=True,
    )


def delays(stats: Stats, kind: str) -> list[float]:
    found = [s.delay() for s in stats.shown if s.kind == kind]
    return [d for d in found if d is not None]


def print_cost_row(result: Result) -> None:
    if not result.seconds:
        return
    stats, cost, seconds = result.stats, result.cost, result.seconds
    public, panel = delays(stats, "public"), delays(stats, "panel")
    per_step = cost.rest / stats.steps if stats.steps else math.nan
    print(
        f"{result.tables:>6} {stats.steps / seconds:>8.1f} {ms(public, 50):>8}"
        f" {ms(public, 99):>8} {ms(panel, 50):>10} {ms(panel, 99):>10} {per_step:>10.2f}"
        f" {cost.rest / seconds:>7.1f} {cost.bot_cpu:>7.1f}s {cost.bench_cpu:>9.1f}s"
        f" {result.load[0]:>8.2f}",
        flush=True,
    )


def print_details(result: Result) -> None:
    stats, setup, cost = result.stats, result.setup, result.cost
    print(
        f"\n{result.tables} tables (load average before the timed phase:"
        f" {load_text(result.load_before)}; after: {load_text(result.load)}):"
    )
    if result.note:
        print(f"  note: {result.note}")
    setup_p99 = ms(setup.all_latencies(), 99)
    print(
        f"  setup: {setup.clicks} interactions, p99 {setup_p99} ms, {setup.missed} over 3 s,"
        f" {sum(setup.errors.values())} errors"
    )
    if result.seconds:
        seconds = result.seconds
        unseen = sum(1 for s in stats.shown if s.delay() is None)
        print(
            f"  timed {seconds:.1f} s: {stats.steps} game steps accepted"
            f" ({stats.steps / seconds:.1f}/s), {stats.games} games finished and"
            f" rematched, {stats.render_waits} waits for the table message to show the move"
            f" ({stats.slow_renders} of them over {RENDER_TIMEOUT:.0f} s),"
            f" {unseen} steps never seen on their message"
        )
        print("  latency by kind: " + kind_summary(stats))
        print("  answers: " + ", ".join(f"{k} x{n}" for k, n in sorted(stats.answer_types.items())))
        kinds = ", ".join(f"{k} {n}" for k, n in cost.rest_kinds.most_common())
        print(
            f"  REST under the global limit: {cost.rest} ({kinds or 'none'});"
            f" interaction callbacks/webhooks (exempt): {cost.exempt}; {cost.committed}"
            f" actions committed ({cost.rest / max(cost.committed, 1):.2f} REST calls each);"
            f" answered 429 (over the global limit, then retried): {cost.refused}"
        )
        bot_share = cost.bot_cpu / seconds
        print(
            f"  CPU over {seconds:.1f} s: {bot_processes_cpu(cost)} {cost.bot_cpu:.1f} s"
            f" ({100 * bot_share:.0f}% of a core,"
            f" {1000 * cost.bot_cpu / max(stats.clicks, 1):.2f} ms per click),"
            f"{server_cpu_text(cost, stats.clicks, seconds)}"
            f" bench process (fake + players) {cost.bench_cpu:.1f} s"
            f" ({100 * cost.bench_cpu / seconds:.0f}% of a core); {os.cpu_count()} cores"
        )
        print(
            f"  this process's event loop late by p50 {ms(result.lags, 50)},"
            f" p99 {ms(result.lags, 99)}, max {1000 * max(result.lags, default=math.nan):.1f} ms"
            " (the fake and players keeping up: a few ms)"
        )
    if result.exit_code not in (0, None):
        print(f"  the bot process exited with code {result.exit_code}")
    for reason, n in (stats.errors + setup.errors).most_common(5):
        print(f"  error x{n}: {reason}")
    for text, n in result.log.most_common(5):
        print(f"  bot log x{n}: {text}")


def bot_processes_cpu(cost: Cost) -> str:
    """The bot process, or the bot processes with each one's share."""
    if len(cost.bot_cpus) <= 1:
        return "bot process"
    each = ", ".join(f"shard {i} {cpu:.1f} s" for i, cpu in enumerate(cost.bot_cpus))
    return f"bot processes ({each}), together"


def server_cpu_text(cost: Cost, clicks: int, seconds: float) -> str:
    if math.isnan(cost.server_cpu):
        return ""
    return (
        f" PostgreSQL server {cost.server_cpu:.1f} s ({100 * cost.server_cpu / seconds:.0f}%"
        f" of a core, {1000 * cost.server_cpu / max(clicks, 1):.2f} ms per click, the"
        " players' reads included),"
    )


def kind_summary(stats: Stats) -> str:
    parts = []
    for kind in ("choice", "panel", "select", "lobby"):
        values = stats.latencies.get(kind, [])
        if values:
            parts.append(f"{kind} n={len(values)} p50 {ms(values, 50)} p99 {ms(values, 99)} ms")
    return " | ".join(parts) or "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 100, 500, 1000])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--pace", type=float, default=0.0, help="mean think time per step")
    parser.add_argument("--profile", help="profile the bot process into this file (+ .N)")
    parser.add_argument(
        "--global-limit",
        type=int,
        default=50,
        help="Discord's global rate limit the fake enforces, requests/s (0: none)",
    )
    parser.add_argument(
        "--backend",
        choices=["sqlite", "postgres"],
        default="sqlite",
        help="where the bot keeps its tables (postgres: a throwaway local server)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="bot processes, one shard each (over 1: --backend postgres)",
    )
    parser.add_argument(
        "--stored",
        action="store_true",
        help="build the started tables in the database before the bot starts (bench.stored)"
        " instead of opening, joining and starting them by clicks",
    )
    args = parser.parse_args()
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    if args.processes > 1 and args.backend != "postgres":
        parser.error("several bot processes share one database: --backend postgres")
    postgres = running_server() if args.backend == "postgres" else nullcontext()
    with postgres as server:
        deployment = Deployment(args.processes, server)
        print_header(args.seconds, args.pace, deployment)
        limit = f"{args.global_limit} requests/s" if args.global_limit else "none"
        print(f"Global rate limit the fake enforces (interactions exempt): {limit}", flush=True)
        results = []
        for tables in args.tables:
            result = asyncio.run(
                measure(
                    tables,
                    args.seconds,
                    args.pace,
                    args.profile,
                    args.global_limit,
                    deployment,
                    args.stored,
                )
            )
            results.append(result)
            print(
                f"  {tables} tables done (setup {result.setup_seconds:.1f} s,"
                f" load {load_text(result.load)})",
                flush=True,
            )
    print_tables(results)
    for result in results:
        print_details(result)


if __name__ == "__main__":
    main()
