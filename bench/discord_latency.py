"""Interaction latency and throughput of the bot with many concurrent Complots tables.

    .venv/bin/python -m bench.discord_latency [--tables 10 100 500] [--seconds 20]

For each table count: one fake Discord (tests/e2e/fake_discord: real HTTP and a
real websocket on 127.0.0.1), one guild, one channel per table, 4 users per
table, and our bot (``GameMasterBot``) with a temp SQLite file and
``render_interval=1.0`` (the production default). Every table is opened,
joined and started by clicks (not timed). Then, for ``--seconds``, one asyncio
task per table plays random legal Complots steps through the UI, waiting for
each answer before its next click, like a human: the prompted players and
their legal choices come from ``bot.tables.snapshot`` + ``game.prompts`` (an
oracle read, not timed); the click uses the custom_id shown on the *latest*
table message (a choice the message does not show yet waits for the
renderer's next edit). Private choices go through the ephemeral panel (a
click, then a select: both count). Which clicks make a choice, and whether the
bot refused one, come from the e2e harness (tests/e2e/bot/harness.py:
``clicks_for``, ``panel_select``, ``refusal``), as its ``Table.play`` uses them.
A click refused as stale is counted, and retried after the table message
changed. A finished game is replaced by a rematch in the same channel
(Rematch, then Start: both count).

Latency is the fake's ``InteractionRecord.latency``: from the INTERACTION_CREATE
frame written to the bot's socket to the bot's callback POST received. The fake
keeps Discord's 3-second deadline: later callbacks are refused (404 / 10062)
and counted as misses.

The fake, the bot and the simulated players share ONE event loop in ONE
process: every millisecond the fake and the players spend is a millisecond the
bot is not running, so these figures understate what a separate bot process
would do. It is what a 2-core box can run. Nothing here is asserted: it is a
measurement, not a test.

Waiting: a simulated player waits for *its* answer by swapping the record's
``callbacks`` list (and the table message's ``history``) for a list that wakes
it on append, instead of ``InteractionRecord.wait_response()``: the fake's
``wait_for`` wakes every waiter on every change of the fake, which would cost
O(tables) task switches per request and swamp the loop at 500 tables.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import math
import os
import random
import re
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from bot.app import GameMasterBot
from bot.config import Settings
from bot.storage.models import TableStatus
from bot.tables import Snapshot
from bot.ui.i18n import t
from tests.e2e.bot.harness import Clicks, buttons_on, clicks_for, panel_select, refusal
from tests.e2e.fake_discord import (
    CallbackRecord,
    FakeChannel,
    FakeDiscord,
    FakeUser,
    InteractionRecord,
    InteractionRefused,
    StoredMessage,
)

T = TypeVar("T")

PLAYERS = 4
RENDER_INTERVAL = 1.0
RESPONSE_DEADLINE = 3.0
ANSWER_TIMEOUT = 10.0
"""Seconds a simulated player waits for any callback before counting an error."""
RENDER_TIMEOUT = 5.0
"""Seconds a player waits for the table message to change before counting an error."""
SETUP_LIMIT = 180.0
SETUP_CONCURRENCY = 25
STALE = t("refusal.stale", "en")
LOGGERS = ("discord", "bot")


class Watched(list[T]):
    """A list that wakes its waiter when it grows (the fake only appends to these)."""

    def __init__(self, items: Iterable[T] = ()) -> None:
        super().__init__(items)
        self._grew = asyncio.Event()

    def append(self, item: T) -> None:
        super().append(item)
        self._grew.set()

    async def longer_than(self, length: int, timeout: float) -> bool:
        """Wait until more than ``length`` items are in; False after ``timeout`` s."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while len(self) <= length:
            remaining = end - loop.time()
            if remaining <= 0:
                return False
            self._grew.clear()
            try:
                await asyncio.wait_for(self._grew.wait(), remaining)
            except TimeoutError:
                return len(self) > length
        return True


def watched_callbacks(record: InteractionRecord) -> Watched[CallbackRecord]:
    if not isinstance(record.callbacks, Watched):
        record.callbacks = Watched(record.callbacks)
    return record.callbacks


def watched_history(message: StoredMessage) -> Watched[dict[str, Any]]:
    if not isinstance(message.history, Watched):
        message.history = Watched(message.history)
    return message.history


# --- figures ---------------------------------------------------------------------------


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
    errors: Counter[str] = field(default_factory=Counter)

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


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile of ``values`` (NaN when empty)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


class LogCounter(logging.Handler):
    """Counts WARNING+ records of the "discord" and "bot" loggers, by message."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: Counter[tuple[int, str]] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        text = f"{record.levelname} {record.name}: "
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            text += f"[{type(error).__name__}: {error}] "
        text += record.getMessage()
        self.records[(record.levelno, re.sub(r"\d{3,}", "N", text)[:150])] += 1

    def install(self) -> None:
        for name in LOGGERS:
            logging.getLogger(name).addHandler(self)

    def uninstall(self) -> None:
        for name in LOGGERS:
            logging.getLogger(name).removeHandler(self)

    def clear(self) -> None:
        self.records.clear()


@dataclass
class Result:
    tables: int
    setup_seconds: float
    seconds: float = 0.0
    stats: Stats = field(default_factory=Stats)
    setup: Stats = field(default_factory=Stats)
    log: Counter[tuple[int, str]] = field(default_factory=Counter)
    closing_log: Counter[tuple[int, str]] = field(default_factory=Counter)
    """Records logged after the timed phase, while the bot closed."""
    note: str = ""
    load: tuple[float, float, float] = (math.nan, math.nan, math.nan)
    """The machine's load average (1, 5, 15 min) when the row was done."""


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


def build_world(fake: FakeDiscord, tables: int) -> list[Seating]:
    guild = fake.add_guild("Bench night")
    seatings = []
    for n in range(tables):
        channel = fake.add_channel(guild, f"complots-{n}")
        users = [fake.add_user(f"p{n}-{i}") for i in range(PLAYERS)]
        for user in users:
            fake.add_member(guild, user)
        seatings.append(Seating(channel, users))
    return seatings


def make_bot(fake: FakeDiscord, folder: Path) -> GameMasterBot:
    settings = Settings(
        _env_file=None,
        discord_token=fake.token,
        database_path=folder / "tables.sqlite3",
        render_interval=RENDER_INTERVAL,
    )
    return GameMasterBot(settings, guild_ready_timeout=0.01)


# --- one run -----------------------------------------------------------------------------


class Run:
    """The bot, the fake and the simulated players of one table count."""

    def __init__(self, fake: FakeDiscord, bot: GameMasterBot, seatings: list[Seating]) -> None:
        self.fake = fake
        self.bot = bot
        self.seatings = seatings
        self.oracle = bot.tables  # where players read the true state (not timed)
        self.game = bot.tables.game("complots")
        self.stats = Stats()

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
        return record if record.response is not None else None

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

    def table_message(self, snapshot: Snapshot) -> StoredMessage | None:
        message_id = snapshot.table.message_id
        return None if message_id is None else self.fake.message(message_id)

    async def wait_for_edit(self, message: StoredMessage, seen: int, until: float) -> None:
        """Wait until ``message`` has more than ``seen`` versions (the renderer edited it)."""
        timeout = min(RENDER_TIMEOUT, until - time.monotonic())
        if timeout <= 0:
            return
        edited = await watched_history(message).longer_than(seen, timeout)
        if not edited and timeout >= RENDER_TIMEOUT:
            self.stats.error(f"table message not edited within {RENDER_TIMEOUT:.0f} s")

    async def wait_for_message(self, seating: Seating, until: float) -> StoredMessage | None:
        """The table's message once the renderer posted it (polled: rare)."""
        while time.monotonic() < until:
            table = await self.oracle.repo.get_table(seating.table_id)
            if table is not None and table.message_id is not None:
                return self.fake.message(table.message_id)
            await asyncio.sleep(0.1)
        return None

    # --- setup (not timed) ---

    async def open_table(self, seating: Seating) -> None:
        creator = seating.users[0]
        if await self.answer("lobby", self.fake.slash(creator, seating.channel, "complots")):
            table = await self.oracle.table_in_channel(seating.channel.id)
            seating.table_id = 0 if table is None else table.id

    async def join_table(self, seating: Seating) -> None:
        message = await self.wait_for_message(seating, time.monotonic() + RENDER_TIMEOUT)
        if message is None:
            return
        join = buttons_on(message)["ui.join"]
        joiners = seating.users[1:]
        answers = [await self.answer("lobby", self.fake.click(u, message, join)) for u in joiners]
        # An accepted Join answers a line alone too: the table tells who sat down.
        seated = {seat.user_id for seat in (await self.oracle.snapshot(seating.table_id)).seats}
        for user, record in zip(joiners, answers, strict=True):
            if record is not None and user.id not in seated:
                self.stats.error(f"lobby refused: {record.message.content}")

    async def start_table(self, seating: Seating) -> None:
        message = await self.wait_for_message(seating, time.monotonic() + RENDER_TIMEOUT)
        if message is None:
            return
        start = buttons_on(message)["ui.start"]
        seating.running = bool(await self.click("lobby", seating.users[0], message, start))

    async def for_each(
        self, seatings: list[Seating], action: Callable[[Seating], Awaitable[None]]
    ) -> None:
        """``action`` on every seating, a few at a time; then let the renderer catch up."""
        limit = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def one(seating: Seating) -> None:
            async with limit:
                await action(seating)

        await asyncio.gather(*(one(s) for s in seatings))
        await self.bot.renderer.drain(timeout=60.0)

    async def set_up(self) -> None:
        await self.for_each(self.seatings, self.open_table)
        opened = [s for s in self.seatings if s.table_id]
        await self.for_each(opened, self.join_table)
        await self.for_each(opened, self.start_table)

    # --- the timed phase ---

    async def play(self, seating: Seating, until: float) -> None:
        rng = random.Random(seating.channel.id)
        while time.monotonic() < until:
            try:
                await self.step(seating, rng, until)
            except Exception as error:  # a surprise must not end the table's task
                self.stats.error(f"{type(error).__name__}: {error}")
                await asyncio.sleep(0.1)

    async def step(self, seating: Seating, rng: random.Random, until: float) -> None:
        """One random legal step of one table, through the latest table message."""
        snapshot = await self.oracle.snapshot(seating.table_id)
        message = self.table_message(snapshot)
        if message is None:
            await asyncio.sleep(0.1)
            return
        if snapshot.table.status is TableStatus.FINISHED:
            await self.rematch(seating, snapshot, message, until)
            return
        if snapshot.table.status is TableStatus.LOBBY:
            await self.start_rematch(snapshot, message, until)
            return
        moves = self.moves(snapshot, message)
        if not moves:
            self.stats.render_waits += 1
            await self.wait_for_edit(message, len(message.history), until)
            return
        await self.make(rng.choice(moves), message)

    def moves(self, snapshot: Snapshot, message: StoredMessage) -> list[Move]:
        """Every legal (prompted player, choice) whose button the table message shows."""
        if snapshot.state is None or snapshot.table.status is not TableStatus.RUNNING:
            return []
        shown = buttons_on(message)
        moves = []
        for prompt in self.game.prompts(snapshot.state):
            user = self.fake.store.users[snapshot.seats[prompt.player].user_id]
            for choice in prompt.choices:
                clicks = clicks_for(shown, choice)
                if clicks is not None:
                    moves.append(Move(user, clicks))
        return moves

    async def make(self, move: Move, message: StoredMessage) -> None:
        value = move.clicks.value
        kind = "choice" if value is None else "panel"
        record = await self.click(kind, move.user, message, move.clicks.custom_id)
        if record is None:
            return
        if value is not None:
            record = await self.choose_in_panel(move.user, record, value)
        if record is not None:
            self.stats.steps += 1

    async def choose_in_panel(
        self, user: FakeUser, panel: InteractionRecord, value: str
    ) -> InteractionRecord | None:
        select, offered = panel_select(panel.message)
        if value not in offered:
            self.stats.error(f"panel does not offer {value}: {offered}")
            return None
        sent = self.fake.select(user, panel.message, select, [value])
        record = await self.answer("select", sent)
        return record if record is not None and self.accepted("select", record) else None

    async def rematch(
        self, seating: Seating, snapshot: Snapshot, message: StoredMessage, until: float
    ) -> None:
        """Replace a finished game: Rematch on its message opens a new lobby (same players)."""
        button = buttons_on(message).get("ui.rematch")
        if button is None:
            self.stats.render_waits += 1
            await self.wait_for_edit(message, len(message.history), until)
            return
        user = self.fake.store.users[snapshot.seats[0].user_id]
        if await self.click("lobby", user, message, button) is None:
            return
        self.stats.games += 1
        table = await self.oracle.table_in_channel(seating.channel.id)
        if table is None:
            self.stats.error("no lobby after a rematch")
            return
        seating.table_id = table.id

    async def start_rematch(self, snapshot: Snapshot, message: StoredMessage, until: float) -> None:
        """Its creator starts a rematch lobby (once the renderer shows it)."""
        button = buttons_on(message).get("ui.start")
        if button is None:
            self.stats.render_waits += 1
            await self.wait_for_edit(message, len(message.history), until)
            return
        creator = self.fake.store.users[snapshot.table.creator_id]
        await self.click("lobby", creator, message, button)

    async def timed(self, seconds: float) -> float:
        """Every running table plays for ``seconds``; returns the real elapsed time."""
        began = time.monotonic()
        until = began + seconds
        await asyncio.gather(*(self.play(s, until) for s in self.seatings if s.running))
        return time.monotonic() - began


# --- driver ------------------------------------------------------------------------------


async def measure(tables: int, seconds: float, log: LogCounter) -> Result:
    """One row: a fresh fake, world, database and bot for ``tables`` tables."""
    with tempfile.TemporaryDirectory(prefix="bench-discord-") as folder:
        async with FakeDiscord(response_deadline=RESPONSE_DEADLINE) as fake:
            seatings = build_world(fake, tables)
            bot = make_bot(fake, Path(folder))
            async with fake.running(bot, timeout=60.0):
                result = await run_phases(Run(fake, bot, seatings), seconds, log)
            result.note = "; ".join(filter(None, [result.note, fake_health(fake)]))
    return result


def measure_in_new_loop(tables: int, seconds: float) -> Result:
    """``measure`` in its own event loop; the bot's logs are counted until the loop is
    gone (render workers that outlive the bot's close log there, not on stderr)."""
    log = LogCounter()
    log.install()
    try:
        result = asyncio.run(measure(tables, seconds, log))
    finally:
        log.uninstall()
    result.closing_log = Counter(log.records) - result.log
    result.load = os.getloadavg()
    return result


async def run_phases(run: Run, seconds: float, log: LogCounter) -> Result:
    """Set every table up (within SETUP_LIMIT), then the timed phase."""
    began = time.monotonic()
    finished = await set_up_within_limit(run)
    result = Result(len(run.seatings), time.monotonic() - began, setup=run.stats)
    result.note = setup_note(run, finished)
    if finished:
        gc.collect()
        run.stats = result.stats
        log.clear()
        result.seconds = await run.timed(seconds)
    result.log = Counter(log.records)
    return result


async def set_up_within_limit(run: Run) -> bool:
    try:
        await asyncio.wait_for(run.set_up(), SETUP_LIMIT)
    except TimeoutError:
        return False
    return True


def setup_note(run: Run, finished: bool) -> str:
    ready, tables = sum(s.running for s in run.seatings), len(run.seatings)
    if not finished:
        return (
            f"setup took over {SETUP_LIMIT:.0f} s ({ready}/{tables} tables started):"
            " no timed phase, no figures"
        )
    if ready < tables:
        return f"only {ready}/{tables} tables started; the timed phase used those"
    return ""


def fake_health(fake: FakeDiscord) -> str:
    problems = [f"fake internal errors: {len(fake.server_errors)}"] if fake.server_errors else []
    if fake.unknown_routes:
        problems.append(f"unknown routes: {sorted(set(fake.unknown_routes))}")
    if fake.store.changes.crashes:
        problems.append(f"client crashed: {fake.store.changes.crashes[0]!r}")
    return "; ".join(problems)


# --- printing ----------------------------------------------------------------------------

COLUMNS = (
    f"{'tables':>6} {'setup s':>8} {'clicks':>7} {'clicks/s':>9} {'p50 ms':>8} {'p90 ms':>8}"
    f" {'p99 ms':>8} {'max ms':>8} {'stale':>6} {'errors':>7} {'>3 s':>5} {'log err':>8}"
)


def print_header(seconds: float) -> None:
    print("Interaction latency of GameMasterBot on the fake Discord (bench.discord_latency)")
    print(
        "One process, ONE event loop shared by the fake Discord (HTTP + websocket on\n"
        "127.0.0.1), the bot and the simulated players: the fake's and the players' CPU\n"
        "time is charged to the bot, so a separate bot process would do better than this."
    )
    print(
        f"{PLAYERS} players per table, one channel per table, render_interval="
        f"{RENDER_INTERVAL} s, deadline {RESPONSE_DEADLINE} s,\n"
        f"{seconds:g} s timed per row; a finished game is replaced by a rematch in the same\n"
        "channel (Rematch + Start, both counted). Players read the true state (not timed)\n"
        "through bot.tables.snapshot: the bot's repository and its lock (this adds load).\n"
        "Latency: INTERACTION_CREATE written -> callback received, as the fake records it;\n"
        "'>3 s': answers that missed Discord's deadline (or never came); 'log err': ERROR\n"
        "records of the discord and bot loggers during the timed phase."
    )
    print(f"Load average before (1, 5, 15 min): {load_text(os.getloadavg())}")
    print()
    print(COLUMNS)


def print_row(result: Result) -> None:
    stats = result.stats
    head = f"{result.tables:>6} {result.setup_seconds:>8.1f}"
    if not result.seconds:
        print(f"{head}  not measured: see the note below", flush=True)
        return
    values = [1000 * x for x in stats.all_latencies()]
    log_errors = sum(n for (level, _), n in result.log.items() if level >= logging.ERROR)
    print(
        f"{head} {stats.clicks:>7} {stats.clicks / result.seconds:>9.1f}"
        f" {percentile(values, 50):>8.1f} {percentile(values, 90):>8.1f}"
        f" {percentile(values, 99):>8.1f} {max(values, default=math.nan):>8.1f}"
        f" {stats.stale:>6} {sum(stats.errors.values()):>7} {stats.missed:>5} {log_errors:>8}",
        flush=True,
    )


def print_details(result: Result) -> None:
    stats, setup = result.stats, result.setup
    print(f"\n{result.tables} tables (load average after: {load_text(result.load)}):")
    if result.note:
        print(f"  note: {result.note}")
    setup_p99 = 1000 * percentile(setup.all_latencies(), 99)
    print(
        f"  setup: {setup.clicks} interactions, p99 {setup_p99:.1f} ms, {setup.missed} over 3 s,"
        f" {sum(setup.errors.values())} errors"
    )
    if result.seconds:
        print(
            f"  timed {result.seconds:.1f} s: {stats.steps} game steps accepted"
            f" ({stats.steps / result.seconds:.1f}/s), {stats.games} games finished and"
            f" rematched, {stats.render_waits} waits for the table message to show the move"
        )
        print("  by kind: " + kind_summary(stats))
    for reason, n in (stats.errors + setup.errors).most_common(5):
        print(f"  error x{n}: {reason}")
    for (_, text), n in result.log.most_common(5):
        print(f"  log x{n}: {text}")
    for (_, text), n in result.closing_log.most_common(3):
        print(f"  log while closing x{n}: {text}")


def load_text(load: tuple[float, float, float]) -> str:
    return " ".join(f"{x:.2f}" for x in load)


def kind_summary(stats: Stats) -> str:
    parts = []
    for kind in ("choice", "panel", "select", "lobby"):
        values = [1000 * x for x in stats.latencies.get(kind, [])]
        if values:
            parts.append(
                f"{kind} n={len(values)} p50 {percentile(values, 50):.1f}"
                f" p99 {percentile(values, 99):.1f} ms"
            )
    return " | ".join(parts) or "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 100, 500])
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    print_header(args.seconds)
    results = []
    for tables in args.tables:
        result = measure_in_new_loop(tables, args.seconds)
        print_row(result)
        results.append(result)
    for result in results:
        print_details(result)


if __name__ == "__main__":
    main()
