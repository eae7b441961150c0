"""Fixtures for end-to-end tests of our bot against the fake Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.e2e.fake_discord import DiscordLogGuard, FakeDiscord

from .harness import World, build_world


@pytest.fixture(autouse=True)
def bot_log_guard() -> Iterator[DiscordLogGuard]:
    """Our own loggers ("bot.*") must not log errors either."""
    guard = DiscordLogGuard("bot")
    guard.install()
    try:
        yield guard
    finally:
        guard.uninstall()
    guard.check()


BACKENDS = ("sqlite", "postgres")


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest) -> str | None:
    """Where the bot keeps its tables: every end-to-end test runs on the embedded
    SQLite file and on a real PostgreSQL server."""
    if request.param == "postgres":
        dsn: str = request.getfixturevalue("postgres_dsn")
        return dsn
    return None


@pytest.fixture
async def world(
    fake_discord: FakeDiscord, tmp_path: Path, database_url: str | None
) -> AsyncIterator[World]:
    yield build_world(fake_discord, tmp_path, database_url=database_url)
