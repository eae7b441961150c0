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


@pytest.fixture
async def world(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[World]:
    yield build_world(fake_discord, tmp_path)
