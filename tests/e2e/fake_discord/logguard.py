"""Fail tests on errors discord.py only logs (a missing payload field often ends here)."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

import pytest

SUSPICIOUS_WARNING = re.compile(r"pars|unknown|exception|error|fail|traceback", re.IGNORECASE)


class DiscordLogGuard(logging.Handler):
    """Collects `discord.*` log records; `check()` fails on ERROR+ or suspicious warnings."""

    def __init__(self, logger_name: str = "discord") -> None:
        super().__init__(level=logging.WARNING)
        self.logger = logging.getLogger(logger_name)
        self.records: list[logging.LogRecord] = []
        self._allowed: list[re.Pattern[str]] = []
        self._saved_level = self.logger.level
        self.listeners: list[Callable[[], None]] = []

    def install(self) -> None:
        self._saved_level = self.logger.level
        if self.logger.getEffectiveLevel() > logging.WARNING:
            self.logger.setLevel(logging.WARNING)
        self.logger.addHandler(self)

    def uninstall(self) -> None:
        self.logger.removeHandler(self)
        self.logger.setLevel(self._saved_level)

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        for listener in self.listeners:
            listener()

    def allow(self, pattern: str) -> None:
        """Accept records whose message (or exception text) matches `pattern`."""
        self._allowed.append(re.compile(pattern, re.IGNORECASE | re.DOTALL))

    def problems(self) -> list[logging.LogRecord]:
        return [r for r in self.records if _is_problem(r) and not self._is_allowed(r)]

    def forget(self) -> None:
        """Drop what was recorded so far (after a test asserted on it)."""
        self.records.clear()

    def check(self) -> None:
        problems = self.problems()
        if problems:
            self.forget()
            report = "\n\n".join(_format(r) for r in problems)
            pytest.fail(f"discord.py logged {len(problems)} problem(s):\n{report}", pytrace=False)

    def _is_allowed(self, record: logging.LogRecord) -> bool:
        text = _format(record)
        return any(p.search(text) for p in self._allowed)


def _is_problem(record: logging.LogRecord) -> bool:
    if record.levelno >= logging.ERROR:
        return True
    return record.levelno >= logging.WARNING and bool(
        SUSPICIOUS_WARNING.search(record.getMessage())
    )


def _format(record: logging.LogRecord) -> str:
    text = f"{record.levelname} {record.name}: {record.getMessage()}"
    if record.exc_info and record.exc_info[1] is not None:
        text += "\n" + logging.Formatter().formatException(record.exc_info)
    return text
