"""`python -m bot` as a real process when Discord cannot be reached at start-up:
one line per attempt on stderr, no traceback, exit code 1 (0 on SIGTERM)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

import pytest

from .test_process import run_to_exit


def closed_port() -> int:
    """A local port nobody listens on: bound, then closed again."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def offline_env(path: Path, api_base: str, **extra: str) -> dict[str, str]:
    prefixes = ("DISCORD_", "DATABASE_", "CONNECT_", "LOG_LEVEL")
    env = {k: v for k, v in os.environ.items() if not k.startswith(prefixes)}
    env.update(
        DISCORD_TOKEN="a-token",
        DISCORD_API_BASE=api_base,
        DATABASE_PATH=str(path / "tables.sqlite3"),
        LOG_LEVEL="WARNING",
        CONNECT_BACKOFF="0",
    )
    env.update(extra)
    return env


async def test_refused_connection_is_one_clear_line(tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{closed_port()}/api/v10"
    code, stderr = await run_to_exit(offline_env(tmp_path, base, CONNECT_ATTEMPTS="1"), tmp_path)
    assert "Traceback" not in stderr
    assert stderr.strip().splitlines() == [f"Cannot reach Discord at {base}: connection refused."]
    assert code == 1


async def test_each_attempt_is_one_line_then_it_gives_up(tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{closed_port()}/api/v10"
    env = offline_env(tmp_path, base, CONNECT_ATTEMPTS="3", CONNECT_BACKOFF="0.05")
    code, stderr = await run_to_exit(env, tmp_path)
    assert "Traceback" not in stderr
    line = f"Cannot reach Discord at {base}: connection refused"
    assert stderr.strip().splitlines() == [
        f"{line}; trying again in 0.05 s (1/3).",
        f"{line}; trying again in 0.1 s (2/3).",
        f"{line}.",
    ]
    assert code == 1


async def test_unknown_host_is_one_clear_line(tmp_path: Path) -> None:
    base = "http://gamemaster.invalid/api/v10"  # .invalid never resolves (RFC 6761)
    code, stderr = await run_to_exit(offline_env(tmp_path, base, CONNECT_ATTEMPTS="1"), tmp_path)
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"Cannot reach Discord at {base}: unknown host gamemaster.invalid")
    assert code == 1


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
async def test_sigterm_between_attempts_stops_at_once(tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{closed_port()}/api/v10"
    env = offline_env(tmp_path, base, CONNECT_ATTEMPTS="5", CONNECT_BACKOFF="60")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", env=env, cwd=tmp_path, stderr=asyncio.subprocess.PIPE
    )
    try:
        assert process.stderr is not None
        first = await asyncio.wait_for(process.stderr.readline(), timeout=30)
        assert first.decode().rstrip() == (
            f"Cannot reach Discord at {base}: connection refused; trying again in 60 s (1/5)."
        )
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), timeout=10) == 0
        assert await process.stderr.read() == b""
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
