"""A step slower than the answer budget is answered first, then told."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.ui import controller
from tests.games.complots.helpers import AM, CA, CO, A, D

from .harness import Table, World, rig, shown_version, table_update


async def test_a_slow_step_is_deferred_then_a_refusal_follows(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = world.fake
    async with fake.running(world.bot()) as bot:
        table = await Table.open(world, bot)
        await rig(table, [[D, CA], [CO, AM], [A, D], [CA, CO]], turn=0)
        monkeypatch.setattr(controller, "ANSWER_BUDGET", 0.02)
        act = bot.tables.act

        async def slow_act(*args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(0.3)
            return await act(*args, **kwargs)

        monkeypatch.setattr(bot.tables, "act", slow_act)

        accepted = await table.click_code(world.players[0], "act.income.-")
        await accepted.wait_response()
        assert accepted.response_type == 6 and accepted.latency is not None
        assert accepted.latency < 0.3, "answered before the step finished"
        await fake.wait_for(lambda: bot.tables._cache[table.id].version == 1, 5, "the step")
        update = await table_update(accepted)
        assert shown_version(update) == 1, "then its answer's edit shows the step"
        await table.settle()  # the table message shows bob's turn now

        refused = await table.click_code(world.players[0], "act.income.-")
        await refused.wait_response()
        assert refused.response_type == 6
        [notice] = await refused.wait_followups(1)
        assert notice.ephemeral and "not being asked" in notice.content
    assert (await table.state()).players[0].coins == 3, "one step, applied once"
