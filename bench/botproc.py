"""The real bot as its own process (``python -m bot``) against a FakeDiscord that runs
in the bench's process, and what the benches read of it: CPU seconds, RSS, its log,
and what it stores (read-only: straight from its SQLite file, or from its PostgreSQL
database through the bot's own repository).

Used by bench.discord_latency, bench.restore and bench.memory; not a bench itself.
"""

from __future__ import annotations

import asyncio
import compileall
import contextlib
import math
import os
import re
import signal
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

import asyncpg

from bot.config import Settings
from bot.storage import Repository, repository_for
from games.base import GameState
from games.registry import GAMES
from tests.e2e.fake_discord import FakeDiscord, InteractionRecord, RequestRecord, StoredMessage

T = TypeVar("T")

ROOT = Path(__file__).resolve().parent.parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")
"""REST paths outside Discord's global rate limit: interaction callbacks and the
interaction webhooks (follow-ups, edits of an interaction's messages)."""


PACKAGES = ("bot", "games", "cogs")


def compile_bytecode() -> None:
    """Write the project's bytecode (``__pycache__``), as installing the package does
    (pip compiles what it installs; the Docker image has it). In a checkout with
    ``PYTHONDONTWRITEBYTECODE`` set, every boot would otherwise compile the bot from
    source (about 0.4 s on the 2-core development machine), which no deployment pays."""
    for package in PACKAGES:
        compileall.compile_dir(ROOT / package, quiet=1)


def load_text(load: tuple[float, float, float] | None = None) -> str:
    """The machine's load average (1, 5, 15 min) as text; now when not given."""
    return " ".join(f"{x:.2f}" for x in (load or os.getloadavg()))


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile of ``values`` (NaN when empty)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


# --- the bot process ----------------------------------------------------------------------


def bot_env(fake: FakeDiscord, database: Path, **extra: str) -> dict[str, str]:
    """The environment of a bot process pointed at ``fake`` and ``database``."""
    ours = ("DISCORD_", "DATABASE_", "SHARD_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(ours)}
    env.update(
        DISCORD_TOKEN=fake.token,
        DISCORD_API_BASE=f"{fake.url}/api/v10",
        DISCORD_GATEWAY_URL=fake.gateway.url,
        DATABASE_PATH=str(database),
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


@dataclass
class BotProcess:
    """A running ``python -m bot``; its stderr goes to ``log_path``."""

    process: asyncio.subprocess.Process
    log_path: Path
    spawned_at: float
    """``time.monotonic()`` just before the process was spawned."""

    @property
    def pid(self) -> int:
        return self.process.pid

    def cpu_seconds(self) -> float:
        """User + system CPU seconds of the process (all its threads) so far."""
        stat = Path(f"/proc/{self.pid}/stat").read_text()
        fields = stat.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime

    def rss_kib(self) -> int:
        """Resident set size (VmRSS) in KiB."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def alive(self) -> bool:
        return self.process.returncode is None

    def log_counts(self) -> Counter[str]:
        """WARNING and ERROR lines of its log by message (numbers as N), and tracebacks."""
        counts: Counter[str] = Counter()
        with contextlib.suppress(FileNotFoundError):
            for line in self.log_path.read_text(errors="replace").splitlines():
                match = re.match(r"\S+ \S+ (WARNING|ERROR|CRITICAL) (.*)", line)
                if match:
                    text = f"{match[1]} {match[2]}"
                elif line.startswith("Traceback"):
                    continue
                elif re.match(r"\w+(\.\w+)*(Error|Exception|Failure)\b", line):
                    text = f"exception {line}"
                else:
                    continue
                counts[re.sub(r"\d{3,}", "N", text)[:160]] += 1
        return counts

    async def stop(self, timeout: float = 10.0) -> int:
        """SIGTERM (a clean stop), then SIGKILL after ``timeout`` s; the exit code."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), timeout)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        assert self.process.returncode is not None
        return self.process.returncode


@asynccontextmanager
async def bot_process(
    fake: FakeDiscord,
    folder: Path,
    database: Path,
    env: dict[str, str] | None = None,
    *,
    connect_timeout: float = 120.0,
    poll: float = 0.005,
    profile: Path | None = None,
) -> AsyncIterator[BotProcess]:
    """Start ``python -m bot`` and wait until it identified on the fake's gateway
    (its ``setup_hook`` is done: discord.py runs it before connecting; READY and
    the guilds follow at once, in order, so any interaction sent from now on
    reaches a ready client). Stopped (SIGTERM, then SIGKILL) on exit. ``profile``:
    run under cProfile, which writes there when the bot stops."""
    identified = fake.gateway.identifies
    log_path = folder / f"bot-{len(list(folder.glob('bot-*.log')))}.log"
    with log_path.open("wb") as log:
        spawned_at = time.monotonic()
        profiler = [] if profile is None else ["-m", "cProfile", "-o", str(profile)]
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            *profiler,
            "-m",
            "bot",
            env=bot_env(fake, database, **(env or {})),
            cwd=ROOT,
            stdout=log,
            stderr=log,
        )
    bot = BotProcess(process, log_path, spawned_at)
    try:
        await wait_until(
            lambda: fake.gateway.identifies > identified or not bot.alive(),
            connect_timeout,
            "the bot to identify",
            poll,
        )
        if not bot.alive():
            raise RuntimeError(f"the bot exited ({process.returncode}):\n{tail(log_path)}")
        yield bot
    finally:
        await bot.stop()


def tail(path: Path, lines: int = 15) -> str:
    with contextlib.suppress(FileNotFoundError):
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    return ""


async def wait_until(condition: Any, timeout: float, what: str, step: float = 0.005) -> None:
    """Poll ``condition()`` every ``step`` s (a cheap poll: the fake's own ``wait_for``
    wakes every waiter on every change, which costs more at scale)."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise TimeoutError(f"no {what} within {timeout:g} s")
        await asyncio.sleep(step)


# --- the fake's side ------------------------------------------------------------------------


class Watched(list[T]):
    """A list that wakes its waiter when it grows (the fake only appends to these) and
    remembers when (``time.monotonic()``) each item came."""

    def __init__(self, items: Iterable[T] = ()) -> None:
        super().__init__(items)
        self.times: list[float] = [float("nan")] * len(self)
        self._grew = asyncio.Event()

    def append(self, item: T) -> None:
        super().append(item)
        self.times.append(time.monotonic())
        self._grew.set()

    async def longer_than(self, length: int, timeout: float) -> bool:
        """Wait until more than ``length`` items are in; False after ``timeout`` s."""
        end = time.monotonic() + timeout
        while len(self) <= length:
            remaining = end - time.monotonic()
            if remaining <= 0:
                return False
            self._grew.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._grew.wait(), remaining)
        return True


def watched_history(message: StoredMessage) -> Watched[dict[str, Any]]:
    """The message's history as a Watched list (versions stored from now on are timed)."""
    if not isinstance(message.history, Watched):
        message.history = Watched(message.history)
    return message.history


class TimedRequests(list[RequestRecord]):
    """``fake.rest.requests`` that remembers when (monotonic) each request came in."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[float] = []

    def append(self, item: RequestRecord) -> None:
        super().append(item)
        self.times.append(time.monotonic())


def time_requests(fake: FakeDiscord) -> TimedRequests:
    if not isinstance(fake.rest.requests, TimedRequests):
        timed = TimedRequests()
        timed.extend(fake.rest.requests)
        timed.times.extend([float("nan")] * len(fake.rest.requests))
        fake.rest.requests = timed
    return fake.rest.requests


def rate_limited(records: Iterable[RequestRecord]) -> list[RequestRecord]:
    """The requests that count against Discord's global rate limit."""
    return [r for r in records if not r.path.startswith(EXEMPT_PREFIXES)]


def request_kinds(fake: FakeDiscord, records: Iterable[RequestRecord]) -> Counter[str]:
    """What the rate-limited requests were: message edits, channel posts, DMs..."""
    dms = {c.id for c in fake.store.dm_channels.values()}
    kinds: Counter[str] = Counter()
    for record in rate_limited(records):
        match = re.fullmatch(r"/channels/(\d+)/messages(/\d+)?", record.path)
        if match and record.method == "PATCH":
            kinds["edit message"] += 1
        elif match and record.method == "POST":
            kinds["DM" if int(match[1]) in dms else "channel post"] += 1
        elif record.path == "/users/@me/channels":
            kinds["open DM"] += 1
        else:
            route = re.sub(r"/\d+", "/N", record.path)
            kinds[f"{record.method} {route}"] += 1
    return kinds


def shown_versions(payload: dict[str, Any], table_id: int) -> tuple[int, bool]:
    """The highest state version the components of a table message ``payload`` are
    bound to (``gm:<table>:<version>:<code>``; -1 if none), and whether it shows the
    finished table (its Rematch button)."""
    highest, finished = -1, False
    stack = list(payload.get("components") or [])
    while stack:
        component = stack.pop()
        stack.extend(component.get("components") or [])
        if "component" in component:
            stack.append(component["component"])
        custom_id = str(component.get("custom_id") or "")
        parts = custom_id.split(":", 3)
        if len(parts) != 4 or parts[0] not in ("gm", "gs") or parts[1] != str(table_id):
            continue
        if parts[3] == "ui.rematch":
            finished = True
        elif not parts[3].startswith("ui.") or parts[3].startswith("ui.panel."):
            highest = max(highest, int(parts[2]))
    return highest, finished


# --- what the bot stored --------------------------------------------------------------------


@dataclass
class TableView:
    """One table as the bot's database holds it now."""

    id: int
    status: str
    message_id: int | None
    creator_id: int
    version: int | None
    state: GameState | None
    seat_users: list[int] = field(default_factory=list)


class Oracle:
    """Read-only, synchronous reads of the bot's SQLite file (WAL: never blocks the
    bot). Every statement is read to its end, so no read transaction stays open."""

    def __init__(self, path: Path, game: str = "complots") -> None:
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA busy_timeout = 5000")
        self.states = ParsedStates(game)

    def close(self) -> None:
        self.db.close()

    def rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        return self.db.execute(sql, params).fetchall()

    def table(self, table_id: int) -> TableView | None:
        found = self.rows(
            "SELECT t.status, t.message_id, t.creator_id, s.version, s.state_json"
            " FROM tables t LEFT JOIN states s ON s.table_id = t.id WHERE t.id = ?",
            (table_id,),
        )
        if not found:
            return None
        status, message_id, creator_id, version, state_json = found[0]
        state = self.states.parsed(table_id, version, state_json)
        seats = self.rows("SELECT user_id FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
        return TableView(
            table_id, status, message_id, creator_id, version, state, [u for (u,) in seats]
        )

    def open_table_in_channel(self, channel_id: int) -> int | None:
        found = self.rows(
            "SELECT id FROM tables WHERE channel_id = ? AND status IN ('lobby', 'running')",
            (channel_id,),
        )
        return int(found[0][0]) if found else None

    def owed(self) -> tuple[int, int]:
        """(running tables whose message is behind their state, undelivered outbox entries)."""
        behind = self.rows(
            "SELECT count(*) FROM tables t JOIN states s ON s.table_id = t.id"
            " WHERE t.status = 'running'"
            " AND (t.rendered_version IS NULL OR t.rendered_version < s.version)"
        )[0][0]
        undelivered = self.rows("SELECT count(*) FROM outbox WHERE delivered_at IS NULL")[0][0]
        return int(behind), int(undelivered)

    def forget(self, table_id: int) -> None:
        self.states.forget(table_id)


class ParsedStates:
    """Each table's state parsed once per version."""

    def __init__(self, game: str) -> None:
        self.game = GAMES[game]
        self._states: dict[int, tuple[int, GameState]] = {}

    def parsed(
        self, table_id: int, version: int | None, state_json: str | None
    ) -> GameState | None:
        if state_json is None or version is None:
            return None
        cached = self._states.get(table_id)
        if cached is None or cached[0] != version:
            cached = (version, self.game.state_model.model_validate_json(state_json))
            self._states[table_id] = cached
        return cached[1]

    def forget(self, table_id: int) -> None:
        self._states.pop(table_id, None)


ACTIONS_BETWEEN = "SELECT count(*) FROM actions WHERE created_at BETWEEN {} AND {}"
OWED_RENDERS = (
    "SELECT count(*) FROM tables t JOIN states s ON s.table_id = t.id"
    " WHERE t.status = 'running'"
    " AND (t.rendered_version IS NULL OR t.rendered_version < s.version)"
)
OWED_DELIVERIES = "SELECT count(*) FROM outbox WHERE delivered_at IS NULL"


class DatabaseReader(Protocol):
    """What the benches read of the bot's database (not timed), whichever the backend."""

    async def table(self, table_id: int) -> TableView | None: ...

    async def open_table_in_channel(self, channel_id: int) -> int | None: ...

    async def owed(self) -> tuple[int, int]:
        """(running tables whose message is behind their state, undelivered outbox
        entries)."""
        ...

    async def actions_between(self, began: float, ended: float) -> int:
        """Action records written from ``began`` to ``ended`` (``time.time()``)."""
        ...

    async def close(self) -> None: ...


class SqliteReader:
    """The Oracle's reads as a DatabaseReader: awaited, but never waiting (SQLite in
    WAL mode never blocks a reader), so they cost what the Oracle's calls cost."""

    def __init__(self, path: Path) -> None:
        self.oracle = Oracle(path)

    async def table(self, table_id: int) -> TableView | None:
        return self.oracle.table(table_id)

    async def open_table_in_channel(self, channel_id: int) -> int | None:
        return self.oracle.open_table_in_channel(channel_id)

    async def owed(self) -> tuple[int, int]:
        return self.oracle.owed()

    async def actions_between(self, began: float, ended: float) -> int:
        return int(self.oracle.rows(ACTIONS_BETWEEN.format("?", "?"), (began, ended))[0][0])

    async def close(self) -> None:
        self.oracle.close()


class PostgresReader:
    """Reads of the bot's PostgreSQL database through the repository its settings
    name (``repository_for``: the bot's own queries, every guild); the counts the
    repository contract has no method for (``owed``, ``actions_between``) on a
    connection of their own. Nothing here writes (opening the repository checks the
    schema version, as every bot process does)."""

    def __init__(self, repo: Repository, counts: asyncpg.Connection, game: str) -> None:
        self.repo = repo
        self.counts = counts
        self.states = ParsedStates(game)

    @classmethod
    async def open(cls, dsn: str, game: str = "complots") -> PostgresReader:
        repo = repository_for(Settings(_env_file=None, database_url=dsn))
        await repo.open()
        try:
            counts = await asyncpg.connect(dsn)
        except BaseException:
            await repo.close()
            raise
        return cls(repo, counts, game)

    async def table(self, table_id: int) -> TableView | None:
        table = await self.repo.get_table(table_id)
        if table is None:
            return None
        stored = await self.repo.load_state(table_id)
        seats = await self.repo.seats(table_id)
        version = None if stored is None else stored.version
        state_json = None if stored is None else stored.state_json
        return TableView(
            table_id,
            table.status.value,
            table.message_id,
            table.creator_id,
            version,
            self.states.parsed(table_id, version, state_json),
            [seat.user_id for seat in seats],
        )

    async def open_table_in_channel(self, channel_id: int) -> int | None:
        table = await self.repo.open_table_in_channel(channel_id)
        return None if table is None else table.id

    async def owed(self) -> tuple[int, int]:
        behind = await self.counts.fetchval(OWED_RENDERS)
        undelivered = await self.counts.fetchval(OWED_DELIVERIES)
        return int(behind), int(undelivered)

    async def actions_between(self, began: float, ended: float) -> int:
        return int(await self.counts.fetchval(ACTIONS_BETWEEN.format("$1", "$2"), began, ended))

    async def close(self) -> None:
        await self.counts.close()
        await self.repo.close()


async def open_reader(database: Path, dsn: str | None) -> DatabaseReader:
    """The reader of the bot's database: PostgreSQL at ``dsn`` when given, else the
    SQLite file at ``database``."""
    if dsn is None:
        return SqliteReader(database)
    return await PostgresReader.open(dsn)


def server_cpu_seconds(data: Path) -> float:
    """User + system CPU seconds of a PostgreSQL server so far: its postmaster (with
    the children it reaped: backends of closed connections) and its live children
    (backends, background workers)."""
    postmaster = int((data / "postmaster.pid").read_text().split()[0])
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue  # gone meanwhile: its time went to its parent's reaped children
        pid, parent = int(stat.parent.name), int(fields[1])
        if pid == postmaster:  # utime, stime, and its reaped children's cutime, cstime
            total += sum(int(x) for x in fields[11:15]) / CLOCK_TICKS
        elif parent == postmaster:
            total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return total


PANEL_TIMEOUT = 5.0


async def panel_of(opened: InteractionRecord) -> StoredMessage | None:
    """The private panel a click opened: its answer (4), or the follow-up of a silent
    update of the table message (6: the click became the one whose interaction
    edits the table message)."""
    if opened.response_type == 4:
        return opened.message
    with contextlib.suppress(TimeoutError):
        return (await asyncio.wait_for(opened.wait_followups(1), PANEL_TIMEOUT))[0]
    return None
