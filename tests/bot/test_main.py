"""The process entry point's choices."""

from __future__ import annotations

import asyncio

import uvloop

from bot.__main__ import event_loop_factory


def test_the_bot_runs_on_uvloop_where_it_is_installed() -> None:
    factory = event_loop_factory()
    assert factory is uvloop.new_event_loop
    loop = factory()
    try:
        assert isinstance(loop, asyncio.AbstractEventLoop)
    finally:
        loop.close()
