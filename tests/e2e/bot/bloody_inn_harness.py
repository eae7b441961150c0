"""Drive The Bloody Inn through the fake Discord the way players do: buttons on
the table message for public choices, the private action panel ("Your turn…",
then its select and Done / Cancel buttons, which turn the panel into the next
question) for everything else."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

from PIL import Image

from bot.app import GameMasterBot
from bot.storage.models import TableStatus
from bot.ui.codec import encode
from games.base import Seat
from games.bloody_inn import GAME, BloodyInnState
from games.bloody_inn.models import BloodyInnChoice
from tests.e2e.fake_discord.components import components_of
from tests.e2e.fake_discord.models import FakeUser, InteractionRecord, StoredMessage
from tests.games.bloody_inn.conformance import random_choice, scramble_unknown

from .harness import World, accepted, private_answer, redraw, settle

PANEL_BUTTON = "ui.panel.turn"
PRIVATE_WORDING = ("your accomplices now", "Your accomplices", "your hand:", "Played so far")
"""Words of DMs and of the private panel, never in a public message."""


def _code(custom_id: str) -> str:
    return custom_id.split(":", 3)[-1]


def _version(custom_id: str) -> int:
    return int(custom_id.split(":")[2])


class InnTable:
    """One Bloody Inn table of a running bot, played by clicks."""

    def __init__(self, world: World, bot: GameMasterBot, table_id: int) -> None:
        self.world = world
        self.fake = world.fake
        self.bot = bot
        self.id = table_id
        self.panels: dict[int, StoredMessage] = {}
        """Per user, the private panel last opened (it follows the player's steps)."""
        self.steps = 0
        self.picture_checks = 0

    @classmethod
    async def open(
        cls, world: World, bot: GameMasterBot, players: int = 2, **options: Any
    ) -> InnTable:
        """The first player opens a table, the others join, it starts."""
        fake = world.fake
        creator = world.players[0]
        record = await fake.slash(creator, world.channel, "bloody_inn", **options)
        await record.wait_response()
        found = await bot.tables.table_in_channel(world.channel.id)
        assert found is not None
        table = cls(world, bot, found.id)
        await table.settle()
        message = await table.message()
        for user in world.players[1:players]:
            await (await fake.click(user, message, label="Join")).wait_response()
        await (await fake.click(creator, message, label="Start")).wait_response()
        await table.settle()
        return table

    def restarted(self, bot: GameMasterBot) -> InnTable:
        """The same table seen by a new bot (open panels stay in the fake)."""
        table = InnTable(self.world, bot, self.id)
        table.panels = self.panels
        table.steps = self.steps
        return table

    async def settle(self) -> None:
        await settle(self.bot)

    async def rig(self, state: BloodyInnState) -> None:
        """Test setup: replace the running game in the database (keeping the table's
        version), then redraw the table message."""
        self.world.replace_state(self.id, state)
        await redraw(self.bot, self.id)
        await self.assert_public_message_hides_secrets()

    async def message(self) -> StoredMessage:
        table = await self.bot.repo.get_table(self.id)
        assert table is not None and table.message_id is not None
        return self.fake.message(table.message_id)

    async def state(self) -> BloodyInnState:
        snapshot = await self.bot.tables.snapshot(self.id)
        assert isinstance(snapshot.state, BloodyInnState)
        return snapshot.state

    async def status(self) -> TableStatus:
        return (await self.bot.tables.snapshot(self.id)).table.status

    async def user_of(self, seat: Seat) -> FakeUser:
        seats = (await self.bot.tables.snapshot(self.id)).seats
        return self.world.user(seats[seat].user_id)

    async def table_codes(self) -> dict[str, str]:
        """The codes of the table message's buttons, with their custom_ids."""
        message = await self.message()
        return {
            _code(str(c["custom_id"])): str(c["custom_id"])
            for c in components_of(message)
            if c.get("custom_id")
        }

    # --- playing ---------------------------------------------------------------------

    async def play(
        self, seat: Seat, choice: BloodyInnChoice, *, via_panel: bool = False
    ) -> InteractionRecord:
        """``seat`` takes ``choice`` through the UI: a public choice by its button on
        the table message (or through the panel with ``via_panel``), a private one
        in the player's panel (opening it with "Your turn…" when none is current)."""
        user = await self.user_of(seat)
        code = encode(choice)
        public = await self.table_codes()
        if code in public and not via_panel:
            record = await self.fake.click(user, await self.message(), public[code])
        else:
            record = await self.choose_in_panel(user, code)
        await self.took(user, record)
        await self.settle()
        self.steps += 1
        await self.assert_public_message_hides_secrets()
        return record

    async def took(self, user: FakeUser, record: InteractionRecord) -> None:
        """The choice was applied: a choice in the panel by turning the panel into
        what follows (7); a public button by updating the table message (7; 6 when
        deferred), then, when the player's next decision is not all on the table
        message (it needs the hand), by opening the player's panel for it (an
        ephemeral follow-up), else silently."""
        await record.wait_response()
        await self.settle()  # the follow-ups of a click on the table message are sent
        if not accepted(record):
            assert record.response_type in (6, 7) and record.ephemeral, (
                f"the choice was refused: {record.callbacks}"
            )
            return
        seat = (await self.bot.tables.snapshot(self.id)).seat_of(user.id)
        assert seat is not None
        prompt = GAME.prompt_for(await self.state(), seat.seat)
        codes = await self.table_codes()
        if prompt is None or all(encode(choice) in codes for choice in prompt.choices):
            assert not record.followups, f"not silent: {[m.content for m in record.followups]}"
            return
        panel = await private_answer(record)
        ids = [str(c.get("custom_id", "")) for c in components_of(panel)]
        assert ids, f"a panel, not a refusal: {panel.content}"
        self.panels[user.id] = panel

    async def panel(self, user: FakeUser) -> StoredMessage:
        """The user's current private panel: the last one if it shows this moment's
        components, else a new one from the table's "Your turn…" button."""
        version = (await self.bot.tables.snapshot(self.id)).version or 0
        last = self.panels.get(user.id)
        if last is not None:
            ids = [str(c.get("custom_id", "")) for c in components_of(last)]
            if ids and all(_version(i) == version for i in ids):
                return last
        codes = await self.table_codes()
        opened = await self.fake.click(user, await self.message(), codes[PANEL_BUTTON])
        panel = await private_answer(opened)
        assert panel.ephemeral, "the action panel is ephemeral"
        self.panels[user.id] = panel
        return panel

    async def choose_in_panel(self, user: FakeUser, code: str) -> InteractionRecord:
        panel = await self.panel(user)
        for component in components_of(panel):
            custom_id = str(component.get("custom_id", ""))
            if component.get("type") == 3:
                values = [o["value"] for o in component["options"]]
                if code in values:
                    return await self.fake.select(user, panel, custom_id, [code])
            elif _code(custom_id) == code:
                return await self.fake.click(user, panel, custom_id)
        raise AssertionError(f"{code} not offered in the panel: {components_of(panel)}")

    async def play_randomly(
        self,
        rng: random.Random,
        *,
        max_steps: int = 600,
        until: Callable[[BloodyInnState], bool] | None = None,
    ) -> None:
        """Random legal choices through the UI until the game is over (or ``until``)."""
        for _ in range(max_steps):
            state = await self.state()
            if GAME.result(state) is not None or (until is not None and until(state)):
                return
            prompt = GAME.prompts(state)[0]
            choice = random_choice(prompt, rng)
            await self.play(prompt.player, choice, via_panel=rng.random() < 0.2)
        raise AssertionError("the game did not end")

    # --- checks ------------------------------------------------------------------------

    async def assert_public_message_hides_secrets(self, *, picture: bool = False) -> None:
        """Leak check: the table message on the wire equals its rendering from the
        true state AND from a state whose secrets (hands, accomplices being played,
        the Entrance under its top card, the travellers removed unseen) were
        scrambled. With ``picture`` (and every tenth step) the picture too.
        DM-only wording never appears in public."""
        snapshot = await self.bot.tables.snapshot(self.id)
        if snapshot.state is None or snapshot.table.status is not TableStatus.RUNNING:
            return
        renderer = self.bot.renderer
        presenter = renderer.presenter(snapshot)
        ctx = renderer.context(snapshot)
        true_embed, true_items = renderer.table_message(ctx)
        true_png = presenter.table_image(ctx) if picture or self.steps % 10 == 0 else None
        state = snapshot.state
        assert isinstance(state, BloodyInnState)
        snapshot.state = scramble_unknown(state, None, random.Random(snapshot.version))
        ctx = renderer.context(snapshot)
        fake_embed, fake_items = renderer.table_message(ctx)
        assert true_embed.to_dict() == fake_embed.to_dict(), "the table embed shows a secret"
        assert _items(true_items) == _items(fake_items), "table components depend on a secret"
        if true_png is not None:
            self.picture_checks += 1
            assert presenter.table_image(ctx) == true_png, "the picture depends on a secret"
        wire = await self.message()
        assert wire.embeds[0]["description"] == true_embed.description
        assert [c.get("custom_id") for c in components_of(wire)] == [
            i[0] for i in _items(true_items)
        ]
        public = self.fake.public_text()
        for phrase in PRIVATE_WORDING:
            assert phrase not in public, f"private wording in public: {phrase}"

    async def assert_picture_attached(self) -> tuple[int, int]:
        """The table message carries the PNG of the inn; its size."""
        message = await self.message()
        assert len(message.attachments) == 1
        attachment = message.attachments[0]
        assert attachment.filename == "table.png"
        assert message.embeds[0]["image"]["url"] == attachment.url
        with Image.open(io.BytesIO(attachment.data)) as image:
            assert image.format == "PNG"
            image.load()
            return image.size


def _items(items: list[Any]) -> list[tuple[str, str | None]]:
    out = []
    for item in items:
        inner = getattr(item, "item", item)
        out.append((str(inner.custom_id), getattr(inner, "label", None)))
    return out
