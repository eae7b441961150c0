"""Test-wide settings: hypothesis profiles (CI runs derandomized, reproducible), and
the throwaway PostgreSQL server every test that needs one shares (one per xdist
worker, started on first use)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests.postgres import PostgresServer, running_server

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev", deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL server per test session (per xdist worker)."""
    with running_server() as server:
        yield server


@pytest.fixture
async def postgres_dsn(postgres_server: PostgresServer) -> str:
    """The session's PostgreSQL database at the current schema version, emptied."""
    return await postgres_server.store()


@pytest.fixture
async def empty_postgres_dsn(postgres_server: PostgresServer) -> AsyncIterator[str]:
    """A new database without any table, dropped after the test."""
    dsn = await postgres_server.new_database(migrated=False)
    yield dsn
    await postgres_server.drop_database(dsn)
