"""Drive our bot through the fake Discord the way players do: slash commands,
buttons on the table message, ephemeral selects."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.app import GameMasterBot
from bot.config import Settings
from bot.storage.models import TableStatus
from bot.ui.codec import encode
from games.base import Seat
from games.complots import ComplotsState
from games.complots.models import Act, Block, Challenge, Pass
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord.components import components_of
from tests.e2e.fake_discord.models import (
    FakeChannel,
    FakeGuild,
    FakeUser,
    InteractionRecord,
    StoredMessage,
)
from tests.games.complots.test_properties import scramble_unknown

MANAGE_GUILD = 0x20
PUBLIC_CHOICES = (Challenge, Block, Pass)


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

    def bot(self, **settings: Any) -> GameMasterBot:
        values: dict[str, Any] = {
            "discord_token": self.fake.token,
            "database_path": self.path / "tables.sqlite3",
            "render_interval": 0.0,
            **settings,
        }
        deals = random.Random(self.seed)
        return GameMasterBot(
            Settings(_env_file=None, **values),
            seeds=lambda: deals.getrandbits(63),
            guild_ready_timeout=0.01,
        )

    def user(self, user_id: int) -> FakeUser:
        everyone = [*self.players, self.moderator, self.outsider]
        return next(u for u in everyone if u.id == user_id)


def _ids(items: list[Any]) -> list[str]:
    return [item.item.custom_id if hasattr(item, "item") else item.custom_id for item in items]


def build_world(fake: FakeDiscord, path: Path, players: int = 4) -> World:
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
    return World(fake, path, guild, channel, users, moderator, outsider)


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
        await self.bot.renderer.drain()

    async def message(self) -> StoredMessage:
        table = await self.bot.repo.get_table(self.id)
        assert table is not None and table.message_id is not None
        return self.fake.message(table.message_id)

    async def click_label(self, user: FakeUser, label: str) -> InteractionRecord:
        return await self.fake.click(user, await self.message(), label=label)

    async def click_code(self, user: FakeUser, code: str) -> InteractionRecord:
        message = await self.message()
        matches = [
            c["custom_id"]
            for c in components_of(message)
            if str(c.get("custom_id", "")).split(":")[-1] == code
        ]
        assert matches, f"no button {code!r} on the table message: {components_of(message)}"
        return await self.fake.click(user, message, matches[0])

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
        code = encode(choice)
        if isinstance(choice, PUBLIC_CHOICES) or (
            isinstance(choice, Act) and choice.target is None
        ):
            record = await self.click_code(user, code)
        elif isinstance(choice, Act):
            panel = await self.click_code(user, f"ui.panel.target.{choice.action.value}")
            record = await self.select_in_panel(user, panel, code)
        else:
            panel = await self.click_code(user, "ui.panel.choose")
            record = await self.select_in_panel(user, panel, code)
        await record.wait_response()
        assert record.response_type in (6, 7), f"the click was refused: {record.callbacks}"
        await self.settle()
        await self.assert_public_message_hides_secrets()
        return record

    async def assert_public_message_hides_secrets(self) -> None:
        """Leak check: the table message on the wire equals its rendering from the
        true state AND from a state whose face-down cards (hands, Court, draws)
        were shuffled: so it cannot depend on any of them. Event lines are public
        events only; DM-only wording never appears in public."""
        snapshot = await self.bot.tables.snapshot(self.id)
        if snapshot.state is None or snapshot.table.status is not TableStatus.RUNNING:
            return
        renderer = self.bot.renderer
        true_embed, true_items = renderer.table_message(renderer.context(snapshot))
        assert isinstance(snapshot.state, ComplotsState)
        snapshot.state = scramble_unknown(snapshot.state, None, random.Random(snapshot.version))
        fake_embed, fake_items = renderer.table_message(renderer.context(snapshot))
        assert true_embed.to_dict() == fake_embed.to_dict(), "the table embed shows a secret"
        assert _ids(true_items) == _ids(fake_items), "table components depend on a secret"
        wire = await self.message()
        assert wire.embeds[0]["description"] == true_embed.description
        assert [c.get("custom_id") for c in components_of(wire)] == _ids(true_items)
        public = self.fake.public_text()
        for private_phrase in ("you drew", "your cards are now", "shows you", "Face down:"):
            assert private_phrase not in public, f"private wording in public: {private_phrase}"

    async def select_in_panel(
        self, user: FakeUser, panel: InteractionRecord, value: str
    ) -> InteractionRecord:
        await panel.wait_response()
        assert panel.ephemeral, "private choices are offered in an ephemeral panel"
        select = next(c for c in components_of(panel.message) if c.get("type") == 3)
        values = [o["value"] for o in select["options"]]
        assert value in values, f"{value} not offered: {values}"
        return await self.fake.select(user, panel.message, select["custom_id"], [value])

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
    import aiosqlite

    from tests.games.complots.helpers import rigged

    state = rigged(hands, **kwargs)
    async with aiosqlite.connect(table.world.path / "tables.sqlite3") as db:
        await db.execute(
            "UPDATE states SET state_json = ? WHERE table_id = ?",
            (state.model_dump_json(), table.id),
        )
        await db.commit()
    table.bot.tables.forget(table.id)
    await table.bot.renderer.refresh(table.id)
    await table.settle()
