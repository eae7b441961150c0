"""A scheduler for tests that drive the table service by hand: no deadline fires."""

from __future__ import annotations

from bot.storage.models import Deadline


class NoScheduler:
    def arm(self, deadline: Deadline) -> None:
        pass

    def disarm(self, table_id: int) -> None:
        pass
