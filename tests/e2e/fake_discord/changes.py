"""Waiting for the fake's recorded state to satisfy a condition (no fixed sleeps)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class ClientCrashed(RuntimeError):
    """A discord.py client attached to the fake stopped with an exception."""


class Changes:
    """Wakes waiters whenever the fake's state changes; remembers client crashes."""

    def __init__(self) -> None:
        self._event = asyncio.Event()
        self.crashes: list[BaseException] = []
        self.describe: Callable[[], str] = lambda: ""

    def notify(self) -> None:
        event, self._event = self._event, asyncio.Event()
        event.set()

    def crashed(self, error: BaseException) -> None:
        self.crashes.append(error)
        self.notify()

    def raise_crash(self) -> None:
        if self.crashes:
            raise ClientCrashed(f"the bot's client stopped: {self.crashes[0]!r}") from self.crashes[
                0
            ]

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float, what: str) -> T:
        """Return predicate()'s first truthy value; re-checked after every change."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            self.raise_crash()
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(
                    f"timed out after {timeout}s waiting for {what}{self.describe()}"
                )
            event = self._event
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)
