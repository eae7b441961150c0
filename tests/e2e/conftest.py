"""Fixtures for end-to-end tests against the fake Discord.

- `fake_discord`: a started FakeDiscord (stopped, and checked healthy, after the test).
- `discord_log_guard` (autouse): the test fails if discord.py logged an error, or a
  warning that smells of a parse failure / unknown item / exception. Expected ones
  can be accepted with `discord_log_guard.allow(regex)`.
- `discord.http.Route.BASE` and the default gateway URL are restored after each test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Generator, Iterator

import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from tests.e2e.fake_discord import DiscordLogGuard, FakeDiscord

GUARD = pytest.StashKey[DiscordLogGuard]()


@pytest.fixture(autouse=True)
def discord_log_guard(request: pytest.FixtureRequest) -> Iterator[DiscordLogGuard]:
    guard = DiscordLogGuard()
    guard.install()
    request.node.stash[GUARD] = guard
    try:
        yield guard
    finally:
        guard.uninstall()
    guard.check()


@pytest.fixture(autouse=True)
def restore_discord_urls() -> Iterator[None]:
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    yield
    Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved


@pytest.fixture
async def fake_discord(discord_log_guard: DiscordLogGuard) -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    discord_log_guard.listeners.append(fake.notify)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
    fake.assert_healthy()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """Fail the test itself (not only its teardown) when discord.py logged a problem."""
    result = yield
    guard = item.stash.get(GUARD, None)
    if guard is not None:
        guard.check()
    return result
