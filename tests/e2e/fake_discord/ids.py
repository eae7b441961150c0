"""Snowflake ids and timestamps shaped like Discord's."""

from __future__ import annotations

import datetime
import itertools
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class Snowflakes:
    """Hands out unique, increasing snowflakes (their timestamp part is real)."""

    def __init__(self) -> None:
        now_ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        self._counter = itertools.count((now_ms << 22) + 1)

    def next(self) -> int:
        return next(self._counter)


def iso_now() -> str:
    """The current time as Discord writes timestamps (ISO 8601, UTC)."""
    return datetime.datetime.now(datetime.UTC).isoformat()
