"""Games that draw their table get a PNG attached to the table message,
re-uploaded only when the picture changes."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from bot.ui.presenter import TableContext
from cogs.complots import ComplotsPresenter
from games.complots import GAME, ActionKind, ComplotsState
from games.complots.models import Act, Pass
from tests.games.complots.helpers import AM, CA, CO, A, D

from .harness import Table, World, rig


class DrawnComplots(ComplotsPresenter):
    """Complots with a (test) picture of the turn number."""

    draws_picture = True

    def table_image(self, ctx: TableContext) -> bytes | None:
        state = ctx.snapshot.state
        assert isinstance(state, ComplotsState)
        image = Image.new("RGB", (120, 40), "white")
        ImageDraw.Draw(image).text((5, 10), f"turn {state.turn_number}", fill="black")
        out = io.BytesIO()
        image.save(out, format="PNG")
        return out.getvalue()


async def test_the_picture_is_attached_and_redrawn_only_when_it_changes(world: World) -> None:
    async with world.fake.running(world.bot()) as bot:
        bot.presenters["complots"] = DrawnComplots(GAME)
        table = await Table.open(world, bot)
        await rig(table, [[D, CA], [CO, AM], [A, D], [CA, CO]], turn=0)
        message = await table.message()
        first = message.attachments[0]
        assert message.embeds[0]["image"]["url"] == first.url, "the embed shows the attachment"
        with Image.open(io.BytesIO(first.data)) as picture:
            assert picture.format == "PNG" and picture.size == (120, 40)

        await table.play(0, Act(action=ActionKind.TAX))
        await table.play(1, Pass())
        message = await table.message()
        assert [a.id for a in message.attachments] == [first.id], "same picture: not re-sent"

        for seat in (2, 3):
            await table.play(seat, Pass())
        message = await table.message()
        assert len(message.attachments) == 1 and message.attachments[0].id != first.id
        assert message.embeds[0]["image"]["url"] == message.attachments[0].url
