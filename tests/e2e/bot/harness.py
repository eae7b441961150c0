"""Drive our bot through the fake Discord the way players do: slash commands,
buttons on the table message, ephemeral selects."""

from __future__ import annotations

import asyncio
import logging
import random
import re
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from bot.app import GameMasterBot, create_bot
from bot.config import Settings
from bot.storage.models import TableStatus
from bot.ui.codec import encode
from games.base import GameState, Seat
from games.complots import ComplotsState
from games.complots.models import Act, Block, Challenge, Pass
from tests.e2e.fake_discord import DiscordLogGuard, FakeDiscord
from tests.e2e.fake_discord.components import components_of
from tests.e2e.fake_discord.models import (
    JSON,
    FakeChannel,
    FakeGuild,
    FakeUser,
    InteractionRecord,
    StoredMessage,
)
from tests.games.complots.conformance import scramble_unknown

MANAGE_GUILD = 0x20
PUBLIC_CHOICES = (Challenge, Block, Pass)
"""With any Act that has no target, the Complots choices that have a button of their
own on the table message; the others are picked in the select of a private panel."""
CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 6, 7
"""Interaction response types (a deferred update and an update edit the clicked message)."""
SELECT = 3
FIXED_VERSION_CODES = (
    "ui.join",
    "ui.leave",
    "ui.start",
    "ui.cancel",
    "ui.computer.",
    "ui.takeover.",
    "ui.hand",
    "ui.rematch",
    "ui.log",
    "ui.watch",
    "ui.hidden.",
)
"""Buttons always bound to version 0 (lobby, My hand, finished table), whatever the state."""


@dataclass
class World:
    fake: FakeDiscord
    path: Path
    guild: FakeGuild
    channel: FakeChannel
    players: list[FakeUser]
    moderator: FakeUser
    outsider: FakeUser
    closed_dms: set[int] = field(default_factory=set)
    seed: int = 20261122
    """Deals are drawn from this seed, so a failing game replays exactly."""
    database_url: str | None = None
    """The bot's PostgreSQL database (None: its SQLite file in ``path``)."""

    def write(self, sql: str, *params: object) -> None:
        """Test setup: one statement on the bot's database, bypassing the bot."""
        self.read(sql, *params)

    def read(self, sql: str, *params: object) -> list[tuple[Any, ...]]:
        """One statement on the bot's database as the bot left it (``?`` marks the
        parameters, whichever the backend)."""
        if self.database_url is None:
            with closing(sqlite3.connect(self.path / "tables.sqlite3")) as db, db:
                return db.execute(sql, params).fetchall()
        return on_postgres(self.database_url, sql, params)

    def replace_state(self, table_id: int, state: GameState) -> None:
        """Test setup: the table's stored state becomes ``state``, keeping its version.
        Its action log no longer rebuilds it, so the bot will find the game cannot be
        replayed for its statistics (and log that): expected of this table alone."""
        self.write(
            "UPDATE states SET state_json = ? WHERE table_id = ?", state.model_dump_json(), table_id
        )
        for handler in logging.getLogger("bot").handlers:
            if isinstance(handler, DiscordLogGuard):  # the bot_log_guard of the test
                handler.allow(rf"no statistics for table {table_id}: ")

    def bot(self, **settings: Any) -> GameMasterBot:
        values: dict[str, Any] = {
            "discord_token": self.fake.token,
            "database_path": self.path / "tables.sqlite3",
            "database_url": self.database_url,
            "render_interval": 0.0,
            "log_interval": 0.0,
            "channel_log": "all",  # the scenario tests read the game's lines in the channel
            **settings,
        }
        deals = random.Random(self.seed)
        return create_bot(
            Settings(_env_file=None, **values),
            seeds=lambda: deals.getrandbits(63),
            guild_ready_timeout=0.01,
        )

    def user(self, user_id: int) -> FakeUser:
        everyone = [*self.players, self.moderator, self.outsider]
        return next(u for u in everyone if u.id == user_id)


def on_postgres(dsn: str, sql: str, params: tuple[object, ...]) -> list[tuple[Any, ...]]:
    """One statement on a PostgreSQL database, from synchronous test code (its own
    event loop, in a thread of its own)."""
    numbered = iter(range(1, len(params) + 1))
    statement = re.sub(r"\?", lambda _: f"${next(numbered)}", sql)

    async def run() -> list[tuple[Any, ...]]:
        db = await asyncpg.connect(dsn)
        try:
            return [tuple(row) for row in await db.fetch(statement, *params)]
        finally:
            await db.close()

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, run()).result()


def _ids(items: list[Any]) -> list[str]:
    return [item.item.custom_id if hasattr(item, "item") else item.custom_id for item in items]


def build_world(
    fake: FakeDiscord, path: Path, players: int = 4, database_url: str | None = None
) -> World:
    guild = fake.add_guild("Game night")
    channel = fake.add_channel(guild, "complots")
    names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"][:players]
    users = [fake.add_user(name) for name in names]
    for user in users:
        fake.add_member(guild, user)
    moderator = fake.add_user("mod")
    fake.add_member(guild, moderator, permissions=MANAGE_GUILD)
    outsider = fake.add_user("outsider")
    fake.add_member(guild, outsider)
    return World(fake, path, guild, channel, users, moderator, outsider, database_url=database_url)


def buttons_on(message: StoredMessage) -> dict[str, str]:
    """code -> custom_id of the enabled buttons of our bot on ``message`` (custom_id
    ``gm:<table>:<version>:<code>``)."""
    shown = {}
    for component in components_of(message):
        custom_id = str(component.get("custom_id") or "")
        if custom_id.startswith("gm:") and not component.get("disabled"):
            shown[custom_id.split(":", 3)[3]] = custom_id
    return shown


@dataclass(frozen=True)
class Clicks:
    """How a player makes one choice: click ``custom_id`` on the table message; for a
    private choice, then pick ``value`` in the select of the panel that click opens."""

    custom_id: str
    value: str | None = None


def clicks_for(buttons: dict[str, str], choice: Any) -> Clicks | None:
    """The clicks that make the Complots ``choice``, given the table message's
    ``buttons_on``; None while the message does not show the button (yet)."""
    code = encode(choice)
    if isinstance(choice, PUBLIC_CHOICES) or (isinstance(choice, Act) and choice.target is None):
        button, value = code, None
    elif isinstance(choice, Act):
        button, value = f"ui.panel.target.{choice.action.value}", code
    else:
        button, value = "ui.panel.choose", code
    custom_id = buttons.get(button)
    return None if custom_id is None else Clicks(custom_id, value)


def panel_select(panel: StoredMessage) -> tuple[str, list[str]]:
    """The custom_id of the select on a private panel, and the values it offers."""
    select = next(c for c in components_of(panel) if c.get("type") == SELECT)
    return select["custom_id"], [o["value"] for o in select["options"]]


def refusal(record: InteractionRecord) -> str | None:
    """The line the bot refused a click or select with, or None if it accepted it (or
    has not answered). It accepts by updating the clicked message (7: the table
    message, or the clicked panel; 6 when deferred), or by opening a panel with
    components; it refuses with an ephemeral line alone (``Controller.refuse``, a
    panel that does not fit)."""
    response = record.response
    if response is None or response.type != CHANNEL_MESSAGE or not response.ephemeral:
        return None
    return None if components_of(record.message) else record.message.content


def accepted(record: InteractionRecord) -> bool:
    """The bot took a click on a public message (the table message): it answered by
    updating that message to the table as it now is (7), or, when the work outlasted
    its answer budget, by a deferred update (6) then an edit of that message. A
    refusal is an ephemeral message instead; a click in a panel edits the panel."""
    response = record.response
    source = record.source_message
    return (
        response is not None
        and response.type in (DEFERRED_UPDATE, UPDATE_MESSAGE)
        and source is not None
        and not source.ephemeral
    )


async def private_answer(record: InteractionRecord) -> StoredMessage:
    """What the bot told the clicker alone (waited for): its ephemeral response (a
    refusal, a panel, a slash command's answer, the clicked panel turned into what
    follows) or, when the click was accepted by updating the table message, the
    ephemeral follow-up after that update (Join's welcome, Leave's goodbye, a
    game's private answer or next panel)."""
    await record.wait_response()
    if accepted(record):
        message = (await record.wait_followups(1))[0]
    else:
        await record.wait_settled()
        deferred = record.response_type == DEFERRED_UPDATE and record.followups
        message = record.followups[0] if deferred else record.message
    assert message.ephemeral_to == record.user.id, (
        f"not a private answer to {record.user.name}: {record.callbacks}"
    )
    return message


async def answer_text(record: InteractionRecord) -> str:
    """The text of ``private_answer``."""
    return (await private_answer(record)).content


async def table_update(record: InteractionRecord) -> JSON:
    """The table message as the accepted answer to a click on it showed it: the
    update's own payload (7), or, after a deferred update (6), the version of the
    message the edit of the original response made."""
    await record.wait_response()
    assert accepted(record), f"the click was not accepted: {record.callbacks}"
    response = record.response
    assert response is not None
    if response.type == UPDATE_MESSAGE:
        return response.data
    await record.wait_settled()
    assert record.source_message is not None
    return record.source_message.history[record.source_version]


def shown_version(message: StoredMessage | JSON) -> int:
    """The state version a table message's buttons and selects are bound to (its
    choices and panel buttons; Join, My hand, Log and the like always carry 0)."""
    versions = {
        int(custom_id.split(":")[2])
        for component in components_of(message)
        if (custom_id := str(component.get("custom_id") or "")).startswith(("gm:", "gs:"))
        and not custom_id.split(":", 3)[3].startswith(FIXED_VERSION_CODES)
    }
    assert len(versions) == 1, f"no one version on the message: {components_of(message)}"
    return versions.pop()


async def settle(bot: GameMasterBot, timeout: float = 5.0) -> None:
    """Until the bot is done with the clicks on table messages it answered (their
    follow-ups sent: such a click holds its table's message until then) and its
    renderer has nothing left to do."""
    await bot.renderer.drain(timeout)


class Table:
    """One table of a running bot, played by clicks."""

    def __init__(self, world: World, bot: GameMasterBot, table_id: int) -> None:
        self.world = world
        self.fake = world.fake
        self.bot = bot
        self.id = table_id

    @classmethod
    async def open(
        cls, world: World, bot: GameMasterBot, players: int = 4, **options: Any
    ) -> Table:
        """The first player opens a Complots table, the others join, it starts."""
        fake = world.fake
        creator = world.players[0]
        record = await fake.slash(creator, world.channel, "complots", **options)
        await record.wait_response()
        found = await bot.tables.table_in_channel(world.channel.id)
        assert found is not None
        table = cls(world, bot, found.id)
        await table.settle()
        for user in world.players[1:players]:
            await (await table.click_label(user, "Join")).wait_response()
        await (await table.click_label(creator, "Start")).wait_response()
        await table.settle()
        return table

    async def settle(self) -> None:
        await settle(self.bot)

    async def message(self) -> StoredMessage:
        table = await self.bot.repo.get_table(self.id)
        assert table is not None and table.message_id is not None
        return self.fake.message(table.message_id)

    async def click_label(self, user: FakeUser, label: str) -> InteractionRecord:
        return await self.fake.click(user, await self.message(), label=label)

    async def click_code(self, user: FakeUser, code: str) -> InteractionRecord:
        message = await self.message()
        custom_id = buttons_on(message).get(code)
        assert custom_id, f"no button {code!r} on the table message: {components_of(message)}"
        return await self.fake.click(user, message, custom_id)

    async def state(self) -> Any:
        snapshot = await self.bot.tables.snapshot(self.id)
        return snapshot.state

    async def status(self) -> TableStatus:
        return (await self.bot.tables.snapshot(self.id)).table.status

    def player(self, seat: Seat, seats_users: list[int]) -> FakeUser:
        return self.world.user(seats_users[seat])

    async def seat_users(self) -> list[int]:
        return [s.user_id for s in (await self.bot.tables.snapshot(self.id)).seats]

    async def play(self, seat: Seat, choice: Any) -> InteractionRecord:
        """Make ``seat`` take ``choice`` through the UI, as a player would."""
        user = self.world.user((await self.seat_users())[seat])
        message = await self.message()
        clicks = clicks_for(buttons_on(message), choice)
        assert clicks is not None, f"no button for {encode(choice)}: {message.components}"
        record = await self.fake.click(user, message, clicks.custom_id)
        if clicks.value is not None:
            record = await self.select_in_panel(user, record, clicks.value)
        await record.wait_response()
        assert record.response_type in (6, 7), f"the click was refused: {record.callbacks}"
        await self.settle()
        await self.assert_public_message_hides_secrets()
        return record

    async def assert_public_message_hides_secrets(self) -> None:
        """Leak check: the table message on the wire equals its rendering from the
        true state AND from a state whose face-down cards (hands, Court, draws)
        were shuffled: so it cannot depend on any of them. Event lines are public
        events only; DM-only wording never appears in public. Computers may move
        meanwhile: the check is of a moment the table held still (its version the
        same before the renderer settled and after the message was read)."""
        for _ in range(100):
            held = (await self.bot.tables.snapshot(self.id)).version
            await self.settle()
            if await self._message_hides_secrets_at(held):
                break
        else:
            raise AssertionError("the table never held still for the leak check")
        public = self.fake.public_text()
        for private_phrase in ("you drew", "your cards are now", "shows you", "Face down:"):
            assert private_phrase not in public, f"private wording in public: {private_phrase}"

    async def _message_hides_secrets_at(self, version: int | None) -> bool:
        """The table message's check at ``version``; False (nothing checked) if the
        table moved on before, or while, the message was read."""
        snapshot = await self.bot.tables.snapshot(self.id)
        if snapshot.version != version:
            return False
        if snapshot.state is None or snapshot.table.status is not TableStatus.RUNNING:
            return True
        renderer = self.bot.renderer
        true_embed, true_items = renderer.table_message(renderer.context(snapshot))
        assert isinstance(snapshot.state, ComplotsState)
        snapshot.state = scramble_unknown(snapshot.state, None, random.Random(snapshot.version))
        fake_embed, fake_items = renderer.table_message(renderer.context(snapshot))
        assert true_embed.to_dict() == fake_embed.to_dict(), "the table embed shows a secret"
        assert _ids(true_items) == _ids(fake_items), "table components depend on a secret"
        wire = await self.message()
        if (await self.bot.tables.snapshot(self.id)).version != version:
            return False
        assert wire.embeds[0]["description"] == true_embed.description
        assert [c.get("custom_id") for c in components_of(wire)] == _ids(true_items)
        return True

    async def select_in_panel(
        self, user: FakeUser, panel: InteractionRecord, value: str
    ) -> InteractionRecord:
        message = await private_answer(panel)
        assert message.ephemeral, "private choices are offered in an ephemeral panel"
        select, values = panel_select(message)
        assert value in values, f"{value} not offered: {values}"
        return await self.fake.select(user, message, select, [value])

    async def play_randomly(self, rng: random.Random, max_steps: int = 400) -> None:
        """Random legal choices through the UI until the game is over."""
        game = self.bot.tables.game("complots")
        for _ in range(max_steps):
            state = await self.state()
            if game.result(state) is not None:
                return
            prompt = rng.choice(game.prompts(state))
            await self.play(prompt.player, rng.choice(prompt.choices))
        raise AssertionError("the game did not end")


async def rig(table: Table, hands: list[list[Any]], **kwargs: Any) -> None:
    """Test setup: replace the dealt hands (and coins, turn) of a running table in
    the database, keeping its version, then redraw the table message."""
    from tests.games.complots.helpers import rigged

    state = rigged(hands, **kwargs)
    table.world.replace_state(table.id, state)
    await redraw(table.bot, table.id)


async def redraw(bot: GameMasterBot, table_id: int) -> None:
    """Test setup, after a table's stored state was replaced behind the bot's back
    (keeping its version): the bot drops its copy and redraws the table message."""
    await settle(bot)
    bot.tables.forget(table_id)
    await bot.renderer.refresh(table_id)
    await settle(bot)
