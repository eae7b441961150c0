"""The storage backends the contract suite runs on, and their fixtures.

``repo`` is an open repository with a fresh, empty store, once per backend:
SQLite with its units of work on its database thread, SQLite on the event loop,
and PostgreSQL on a real server that the test session starts itself
(``tests/postgres.py``, its fixtures in ``tests/conftest.py``). ``backend`` opens
more repositories on the same store (a restart, a second process)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Repository
from tests.bot.storage.support import Backend, FakeClock

BACKENDS = ("sqlite-thread", "sqlite-loop", "postgres")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    name: str = request.param
    path = tmp_path / "data" / "bot.sqlite3"
    if name == "postgres":
        return Backend(name, path, dsn=request.getfixturevalue("postgres_dsn"))
    return Backend(name, path)


@pytest.fixture
async def repo(backend: Backend) -> AsyncIterator[Repository]:
    """An open repository on an empty store, its clock a second later at each call."""
    repository = backend.repository(clock=FakeClock())
    await repository.open()
    yield repository
    await repository.close()
