"""How the table message shows a move made away from it (in a private panel): through
the interaction of a click on the table message (Discord does not count those edits
against the bot's global rate limit), or by REST when no click can edit it any more."""

from __future__ import annotations

import asyncio

from bot.app import GameMasterBot
from games.complots import ActionKind
from games.complots.models import Act, Keep, Pass
from tests.e2e.fake_discord.models import InteractionRecord
from tests.e2e.fake_discord.rest import RequestRecord
from tests.games.complots.helpers import AM, CA, CO, D

from .harness import (
    Table,
    World,
    accepted,
    buttons_on,
    clicks_for,
    panel_select,
    private_answer,
    rig,
    shown_version,
)

STEAL = Act(action=ActionKind.STEAL, target=1)
CHANNEL_MESSAGE, DEFERRED_UPDATE = 4, 6


def table_edits(table: Table, since: int, message_id: int) -> list[str]:
    """How the bot edited the table message in its requests from ``since`` on: "rest"
    (a channel message edit, under the global limit) or "click" (an edit of an
    interaction's original response that is the table message)."""
    fake = table.fake
    edits = []
    for request in fake.rest.requests[since:]:
        if request.method != "PATCH" or request.status != 200:
            continue
        if request.path.endswith(f"/messages/{message_id}") and "/channels/" in request.path:
            edits.append("rest")
        elif request.path.endswith("/messages/@original"):
            opener = _interaction_of(table, request)
            if opener.source_message is not None and opener.source_message.id == message_id:
                edits.append("click")
    return edits


def _interaction_of(table: Table, request: RequestRecord) -> InteractionRecord:
    token = request.path.split("/webhooks/", 1)[1].split("/")[1]
    return next(r for r in table.fake.store.interactions.values() if r.token == token)


async def steal_ready(world: World, bot: GameMasterBot) -> Table:
    """A two-player table where alice may steal from bob (her turn)."""
    table = await Table.open(world, bot, players=2)
    await rig(table, [[D, CA], [CO, AM]], turn=0)
    return table


async def shows_latest(table: Table) -> bool:
    """The table message shows the table's latest state version."""
    latest = (await table.bot.tables.snapshot(table.id)).version
    return shown_version(await table.message()) == latest


async def open_steal_panel(table: Table) -> InteractionRecord:
    """alice (seat 0, her turn) clicks Steal on the table message."""
    clicks = clicks_for(buttons_on(await table.message()), STEAL)
    assert clicks is not None and clicks.value is not None, "Steal opens a target panel"
    return await table.fake.click(table.world.players[0], await table.message(), clicks.custom_id)


async def steal_in_panel(table: Table, opener: InteractionRecord) -> None:
    panel = await private_answer(opener)
    assert panel.ephemeral, "the target panel is private"
    select, values = panel_select(panel)
    record = await table.fake.select(table.world.players[0], panel, select, [values[0]])
    await record.wait_response()
    await table.settle()


async def test_after_a_restart_the_panel_opener_carries_the_moves_edit(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()) as bot:
        table = await steal_ready(world, bot)
    async with fake.running(world.bot()) as bot:  # no click on the table message since
        table = Table(world, bot, table.id)
        await table.settle()
        message = await table.message()
        before = shown_version(message)

        opener = await open_steal_panel(table)
        await opener.wait_response()
        assert opener.response_type == DEFERRED_UPDATE, "the table message stays as it is"
        assert accepted(opener)
        since = len(fake.rest.requests)
        await steal_in_panel(table, opener)

        assert table_edits(table, since, message.id) == ["click"]
        assert await shows_latest(table)
        assert shown_version(await table.message()) > before
        assert "Steal" in str((await table.message()).embeds)


async def test_a_panel_opens_at_once_while_a_recent_click_can_edit(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()) as bot:
        table = await steal_ready(world, bot)  # its Start was such a click
        message = await table.message()

        opener = await open_steal_panel(table)
        await opener.wait_response()
        assert opener.response_type == CHANNEL_MESSAGE and opener.ephemeral
        since = len(fake.rest.requests)
        await steal_in_panel(table, opener)

        assert table_edits(table, since, message.id) == ["click"]
        assert await shows_latest(table)


async def test_an_expired_click_leaves_the_edit_to_rest(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()) as bot:
        table = await steal_ready(world, bot)
        message = await table.message()
        fake.store.token_lifetime = 0.0  # Discord forgot every interaction's token

        opener = await open_steal_panel(table)
        await opener.wait_response()
        since = len(fake.rest.requests)
        await steal_in_panel(table, opener)

        refused = [r for r in fake.rest.requests[since:] if r.status == 401]
        assert refused and all(r.path.endswith("/messages/@original") for r in refused)
        assert table_edits(table, since, message.id) == ["rest"]
        assert await shows_latest(table)


async def test_no_click_edits_the_table_message_once_it_is_too_old(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()) as bot:
        bot.renderer.carrier_lifetime = 0.0  # every click is past its 14 minutes at once
        table = await steal_ready(world, bot)
        message = await table.message()

        opener = await open_steal_panel(table)
        await opener.wait_response()
        assert opener.response_type == DEFERRED_UPDATE, "a new click is needed: this one"
        since = len(fake.rest.requests)
        await steal_in_panel(table, opener)

        assert table_edits(table, since, message.id) == ["rest"]
        assert not any(r.status >= 400 for r in fake.rest.requests[since:])
        assert await shows_latest(table)


async def test_a_move_shows_while_a_dm_of_the_table_waits(world: World) -> None:
    """The table message does not wait behind the table's outbox: with the DM owed
    by an exchange held at Discord's door, the exchange's private choice still shows
    on the table message; the DMs go out in order once the door opens."""
    fake = world.fake
    alice, bob = world.players[:2]
    async with fake.running(world.bot()) as bot:
        table = await Table.open(world, bot, players=2)
        await rig(table, [[AM, D], [CO, CO]], turn=0)
        await table.play(0, Act(action=ActionKind.EXCHANGE))
        alice_dms = fake.store.dm_channels[alice.id].id
        door = fake.rest.gate("POST", f"/channels/{alice_dms}/messages", before=True)

        message_id = (await table.message()).id
        passing = clicks_for(buttons_on(await table.message()), Pass())
        assert passing is not None
        passed = await fake.click(bob, await table.message(), passing.custom_id)
        await passed.wait_response()
        await asyncio.wait_for(door.reached.wait(), 5.0)  # "you drew ..." is held
        state = await table.state()
        assert state.pending is not None
        keep = Keep(cards=tuple(sorted(state.pending.drawn)))
        clicks = clicks_for(buttons_on(await table.message()), keep)
        assert clicks is not None and clicks.value is not None
        opened = await fake.click(alice, await table.message(), clicks.custom_id)
        panel = await private_answer(opened)
        select, _ = panel_select(panel)
        kept = await fake.select(alice, panel, select, [clicks.value])
        await kept.wait_response()
        version = (await table.bot.tables.snapshot(table.id)).version
        await fake.wait_for(
            lambda: shown_version(fake.message(message_id)) == version,
            what="the table message showing the exchange",
        )

        door.release.set()
        await table.settle()
        dms = [m.content for m in fake.dms(alice)]
        drew = next(i for i, text in enumerate(dms) if "you drew" in text)
        assert any("your cards are now" in text for text in dms[drew:]), dms
