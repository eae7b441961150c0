"""Drive Conspiracy tables through the fake Discord the way players do: the
/conspiracy command, buttons on the table message, the ephemeral select panel
for long lists of Locations."""

from __future__ import annotations

import io
import random
from typing import Any

from PIL import Image

from bot.app import GameMasterBot
from bot.storage.models import TableStatus
from bot.ui.codec import encode
from games.base import Seat
from games.conspiracy import GAME, ConspiracyState
from games.conspiracy.models import ConspiracyChoice
from tests.e2e.fake_discord.components import components_of
from tests.e2e.fake_discord.models import InteractionRecord, StoredMessage

from .harness import Table, World, redraw

PANEL = "ui.panel.choose"


def codes_on(message: StoredMessage) -> list[str]:
    return [str(c["custom_id"]).split(":")[-1] for c in components_of(message) if c["custom_id"]]


def picture_of(message: StoredMessage) -> Image.Image:
    """The table message's PNG attachment, opened (and checked) with Pillow."""
    (attachment,) = message.attachments
    assert attachment.filename == "table.png"
    assert message.embeds[0]["image"]["url"] == attachment.url, "the embed shows the picture"
    picture = Image.open(io.BytesIO(attachment.data))
    assert picture.format == "PNG"
    picture.load()
    return picture


def deck_shuffled(state: ConspiracyState, seed: int) -> ConspiracyState:
    other = state.model_copy(deep=True)
    rng = random.Random(seed)
    rng.shuffle(other.deck)
    rng.shuffle(other.location_deck)
    return other


class ConspiracyTable(Table):
    """One Conspiracy table of a running bot, played by clicks."""

    steps = 0
    picture_checks = 0

    @classmethod
    async def open(
        cls, world: World, bot: GameMasterBot, players: int = 2, **options: Any
    ) -> ConspiracyTable:
        """The first player opens a table with /conspiracy, the others join, it starts."""
        fake = world.fake
        creator = world.players[0]
        record = await fake.slash(creator, world.channel, "conspiracy", **options)
        await record.wait_response()
        assert record.ephemeral
        found = await bot.tables.table_in_channel(world.channel.id)
        assert found is not None and found.game == "conspiracy"
        table = cls(world, bot, found.id)
        await table.settle()
        for user in world.players[1:players]:
            await (await table.click_label(user, "Join")).wait_response()
        await (await table.click_label(creator, "Start")).wait_response()
        await table.settle()
        return table

    async def user_of(self, seat: Seat) -> Any:
        return self.world.user((await self.seat_users())[seat])

    async def play(self, seat: Seat, choice: Any) -> InteractionRecord:
        """``seat`` takes ``choice`` as a player would: its button on the table
        message, or the select of the "Choose a Location" panel."""
        user = await self.user_of(seat)
        code = encode(choice)
        message = await self.message()
        if code in codes_on(message):
            record = await self.click_code(user, code)
        else:
            assert PANEL in codes_on(message), f"{code} is not offered: {codes_on(message)}"
            panel = await self.click_code(user, PANEL)
            record = await self.select_in_panel(user, panel, code)
        await record.wait_response()
        assert record.response_type in (6, 7), f"the click was refused: {record.callbacks}"
        await self.settle()
        self.steps += 1
        await self.assert_public_message_hides_secrets()
        return record

    async def assert_public_message_hides_secrets(self) -> None:
        """The table message on the wire equals its rendering from the true state
        AND from a state whose decks were shuffled (the only secret of the game);
        now and then the picture too (drawing takes tens of milliseconds)."""
        snapshot = await self.bot.tables.snapshot(self.id)
        if snapshot.state is None or snapshot.table.status is not TableStatus.RUNNING:
            return
        assert isinstance(snapshot.state, ConspiracyState)
        renderer = self.bot.renderer
        presenter = renderer.presenter(snapshot)
        true_ctx = renderer.context(snapshot)
        true_embed, true_items = renderer.table_message(true_ctx)
        state = snapshot.state
        snapshot.state = deck_shuffled(state, snapshot.version or 0)
        other_ctx = renderer.context(snapshot)
        other_embed, other_items = renderer.table_message(other_ctx)
        assert true_embed.to_dict() == other_embed.to_dict(), "the table embed shows a deck"
        assert [i.to_component_dict() for i in true_items] == [
            i.to_component_dict() for i in other_items
        ], "table components depend on a deck"
        if self.steps % 10 == 1:
            self.picture_checks += 1
            other_png = presenter.table_image(other_ctx)
            snapshot.state = state
            assert presenter.table_image(true_ctx) == other_png, "the picture shows a deck"
        wire = await self.message()
        assert wire.embeds[0]["description"] == true_embed.description
        wire_ids = [c.get("custom_id") for c in components_of(wire)]
        assert wire_ids == [i.to_component_dict()["custom_id"] for i in true_items]

    async def random_choice(self, rng: random.Random) -> tuple[Seat, ConspiracyChoice]:
        state = await self.state()
        prompt = rng.choice(GAME.prompts(state))
        choice: ConspiracyChoice = rng.choice(prompt.choices)
        return prompt.player, choice

    async def play_randomly(
        self, rng: random.Random, max_steps: int = 400, *, stop_after: int | None = None
    ) -> None:
        """Random legal choices through the UI until the game is over (or for
        ``stop_after`` steps)."""
        for step in range(max_steps):
            if GAME.result(await self.state()) is not None:
                return
            if stop_after is not None and step >= stop_after:
                return
            await self.play(*await self.random_choice(rng))
        raise AssertionError("the game did not end")


async def rig(table: ConspiracyTable, state: ConspiracyState) -> None:
    """Test setup: replace the state of a running table in the database, keeping
    its version, then redraw the table message."""
    table.world.replace_state(table.id, state)
    await redraw(table.bot, table.id)
