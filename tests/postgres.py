"""A throwaway PostgreSQL server for the tests: its own cluster in a temporary
folder, on a free localhost port, started once per test session (per xdist
worker) and stopped at its end. The contract tests share one database, emptied
for each test; a test that needs a database of its own gets a new one.

The server binaries come from Debian's ``postgresql`` package (``scripts/install``
installs it), the newest of ``/usr/lib/postgresql/*/bin``, else from ``PATH``.
Missing binaries are an error, never a skip. ``initdb`` refuses to run as root:
as root, the cluster belongs to the ``postgres`` system user and its programs run
as that user (``runuser``).
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncpg

from bot.storage.postgres_schema import migrate

SUPERUSER = "postgres"
SYSTEM_USER = "postgres"
"""Who runs the server when the tests run as root."""
DEBIAN_VERSIONS = Path("/usr/lib/postgresql")
STORE = "gamemaster"
"""The database the contract tests share, one after the other (emptied for each)."""
SERVER_OPTIONS = (
    "-c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off"
    " -c full_page_writes=off -c max_connections=200"
)
"""Speed over durability: the cluster is thrown away after the tests."""


class ServerMissing(RuntimeError):
    """No PostgreSQL server binaries on this machine."""


def server_binaries() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``: Debian's newest, else PATH's."""
    debian = [path for path in DEBIAN_VERSIONS.glob("*/bin") if (path / "initdb").is_file()]
    if debian:
        return max(debian, key=lambda folder: _version_key(folder.parent.name))
    initdb = shutil.which("initdb")
    if initdb is not None and shutil.which("pg_ctl") is not None:
        return Path(initdb).parent
    raise ServerMissing(
        "PostgreSQL server binaries (initdb, pg_ctl) not found in /usr/lib/postgresql/*/bin"
        " or PATH: run scripts/install (it installs Debian's postgresql package)"
    )


def _version_key(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in name.split(".") if part.isdigit())


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class PostgresServer:
    """A running cluster: connect as the superuser, without a password."""

    def __init__(self, root: Path, binaries: Path) -> None:
        self.root = root
        self.data = root / "data"
        self.binaries = binaries
        self.port = 0
        self._names = itertools.count()
        self._store_ready = False

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _run(self, program: str, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.binaries / program), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", SYSTEM_USER, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
        return done

    def init(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.root, SYSTEM_USER, SYSTEM_USER)
        self._run(
            "initdb",
            "--pgdata",
            str(self.data),
            "--username",
            SUPERUSER,
            "--auth",
            "trust",
            "--encoding",
            "UTF8",
            "--locale",
            "C",
            "--no-sync",
        )

    def start(self, attempts: int = 3) -> None:
        """On a free port (another one if something took it meanwhile)."""
        for attempt in range(attempts):
            self.port = _free_port()
            try:
                self._run(
                    "pg_ctl",
                    "start",
                    "--pgdata",
                    str(self.data),
                    "--log",
                    str(self.root / "server.log"),
                    "--wait",
                    "--timeout",
                    "60",
                    "--options",
                    f"-p {self.port} -k {self.root} {SERVER_OPTIONS}",
                )
                return
            except RuntimeError:
                if attempt == attempts - 1:
                    raise RuntimeError(f"the server did not start:\n{self.log()}") from None

    def stop(self) -> None:
        self._run("pg_ctl", "stop", "--pgdata", str(self.data), "--mode", "immediate", "--wait")

    def log(self) -> str:
        path = self.root / "server.log"
        return path.read_text(errors="replace") if path.exists() else ""

    async def store(self) -> str:
        """The DSN of this session's database at the current schema version, emptied:
        no rows, ids counting from 1 again (much faster than a new database)."""
        if self._store_ready:
            await self._on(STORE, _empty)
        else:
            await self._create(STORE)
            await self._on(STORE, migrate)
            self._store_ready = True
        return self.dsn(STORE)

    async def new_database(self, *, migrated: bool = True) -> str:
        """The DSN of a new database of its own: at the current schema version, or
        without any table (``migrated=False``)."""
        name = f"test_{next(self._names)}"
        await self._create(name)
        if migrated:
            await self._on(name, migrate)
        return self.dsn(name)

    async def _on(
        self, database: str, work: Callable[[asyncpg.Connection], Awaitable[object]]
    ) -> None:
        """``work`` on a connection of its own to ``database``."""
        db = await asyncpg.connect(self.dsn(database))
        try:
            await work(db)
        finally:
            await db.close()

    async def _create(self, name: str) -> None:
        admin = await asyncpg.connect(self.dsn())
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        finally:
            await admin.close()

    async def drop_database(self, dsn: str) -> None:
        name = dsn.rsplit("/", 1)[1]
        admin = await asyncpg.connect(self.dsn())
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


async def _empty(db: asyncpg.Connection) -> None:
    """Deletes every row but the schema's version and restarts the id sequences."""
    async with db.transaction():
        # Foreign keys unchecked, so the order of the deletes does not matter.
        await db.execute("SET LOCAL session_replication_role = replica")
        tables = await db.fetch(
            "SELECT tablename FROM pg_tables"
            " WHERE schemaname = 'public' AND tablename <> 'schema_version'"
        )
        for table in tables:
            await db.execute(f'DELETE FROM "{table["tablename"]}"')
        sequences = await db.fetch(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'"
        )
        for sequence in sequences:
            await db.execute(f'ALTER SEQUENCE "{sequence["sequencename"]}" RESTART')


@contextmanager
def running_server() -> Iterator[PostgresServer]:
    """A new cluster, started; stopped and deleted when the block ends."""
    binaries = server_binaries()
    server = PostgresServer(Path(tempfile.mkdtemp(prefix="gamemaster-pg-")), binaries)
    try:
        server.init()
        server.start()
        try:
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(server.root, ignore_errors=True)
