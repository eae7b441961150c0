"""Drive Mascarade tables through the fake Discord the way players do: the
buttons of the table message, the ephemeral panels they open, the private
answers; and check after every step that no public payload leaks a card."""

from __future__ import annotations

import random
from typing import Any

from bot.app import GameMasterBot
from bot.storage.models import TableStatus
from bot.ui.codec import encode
from bot.ui.i18n import t
from bot.ui.locales.en.core import STRINGS as CORE
from games.base import Seat
from games.mascarade import GAME, MascaradeState
from games.mascarade.models import (
    Announce,
    ChooseCard,
    ChoosePlayer,
    Contest,
    Decide,
    Guess,
    Look,
    MascaradeChoice,
    Pass,
    Swap,
)
from tests.e2e.fake_discord.components import components_of, labels
from tests.e2e.fake_discord.models import FakeUser, InteractionRecord, StoredMessage
from tests.games.mascarade.conformance import scramble_unknown

from .harness import Table, World, private_answer, redraw, table_update
from .harness import accepted as updated_table

REFUSALS = frozenset(v for k, v in CORE.items() if k.startswith("refusal.") and "{" not in v)
PRIVATE_PHRASES = (
    "you look at",
    "you see ",
    "you really swapped",
    "you only pretended",
    "Nobody will know",
    "Under the table:",
    "What you know",
    "Your card:",
    "maybe moved",
)
"""Wording of private answers (CardSeen, SwapDecided, the Decide panel, My hand)."""
PUBLIC_BUTTON_CHOICES = (Contest, Pass, ChooseCard, ChoosePlayer, Guess)


def ids_and_labels(items: list[Any]) -> list[tuple[str, str | None]]:
    return [(i.item.custom_id, getattr(i.item, "label", None)) for i in items]


class MascaradeTable(Table):
    """A Mascarade table of a running bot, played by clicks."""

    @classmethod
    async def open(
        cls, world: World, bot: GameMasterBot, players: int = 5, **options: Any
    ) -> MascaradeTable:
        fake = world.fake
        creator = world.players[0]
        record = await fake.slash(creator, world.channel, "mascarade", **options)
        await record.wait_response()
        assert record.ephemeral and "is open below" in record.content, record.content
        found = await bot.tables.table_in_channel(world.channel.id)
        assert found is not None
        table = cls(world, bot, found.id)
        await table.settle()
        for user in world.players[1:players]:
            await (await table.click_label(user, "Join")).wait_response()
        start = await table.click_label(creator, "Start")
        assert "My hand" in labels(await table_update(start)), "the answer shows the game"
        await table.settle()
        await table.assert_public_message_hides_secrets()
        return table

    async def user_of(self, seat: Seat) -> FakeUser:
        return self.world.user((await self.seat_users())[seat])

    async def mascarade(self) -> MascaradeState:
        state = await self.state()
        assert isinstance(state, MascaradeState)
        return state

    # --- playing -------------------------------------------------------------------------------

    async def play(self, seat: Seat, choice: Any) -> InteractionRecord:
        """Make ``seat`` take ``choice`` through the UI, as a player would. Returns the
        interaction whose answer the player saw last (a panel, a private answer)."""
        user = await self.user_of(seat)
        state = await self.mascarade()
        code = encode(choice)
        if isinstance(choice, PUBLIC_BUTTON_CHOICES) or (
            isinstance(choice, Look) and state.hand_size == 1
        ):
            record = await self.click_code(user, code)
        elif isinstance(choice, Decide):
            panel = await self.click_code(user, "ui.panel.decide")
            record = await self.click_in_panel(user, panel, code)
        else:
            kinds: dict[type[Any], str] = {Swap: "swap", Look: "look", Announce: "announce"}
            kind = kinds[type(choice)]
            panel = await self.click_code(user, f"ui.panel.{kind}")
            record = await self.select_in_panel(user, panel, code)
        await self.accepted(record)
        return record

    async def swap(self, seat: Seat, swap: Swap, really: bool) -> InteractionRecord:
        """A whole swap in one ephemeral panel: the target, then swap or not."""
        user = await self.user_of(seat)
        panel = await self.click_code(user, "ui.panel.swap")
        chosen = await self.select_in_panel(user, panel, encode(swap))
        await self.accepted(chosen)
        assert chosen.response_type == 7, "the panel itself turns into the secret question"
        assert "Swap them or not?" in chosen.content
        decided = await self.click_in_panel(user, chosen, encode(Decide(swap=really)))
        await self.accepted(decided)
        return decided

    async def accepted(self, record: InteractionRecord) -> None:
        """The choice was taken: a public button by updating the table message (then
        any private answer follows it, see ``private_answer``), a choice in a panel by
        turning it into what follows; no answer the player sees is a refusal."""
        await record.wait_response()
        await self.settle()  # the follow-ups of a click on the table message are sent
        if updated_table(record):
            answers = list(record.followups)
        else:
            assert record.response_type in (4, 6, 7), f"no answer: {record.callbacks}"
            assert record.ephemeral, "answers to a choice are private"
            answers = [record.message, *record.followups]
        for answer in answers:
            assert answer.ephemeral_to == record.user.id, "answers to a choice are private"
            assert answer.content not in REFUSALS, f"the choice was refused: {answer.content}"
        await self.assert_public_message_hides_secrets()

    async def click_in_panel(
        self, user: FakeUser, panel: InteractionRecord, code: str
    ) -> InteractionRecord:
        message = await private_answer(panel)
        assert message.ephemeral, "secret choices are offered in an ephemeral panel"
        matches = [
            c["custom_id"]
            for c in components_of(message)
            if str(c.get("custom_id", "")).split(":")[-1] == code
        ]
        assert matches, f"no button {code!r} in the panel: {components_of(message)}"
        return await self.fake.click(user, message, matches[0])

    async def announce_round(
        self,
        seat: Seat,
        character: Any,
        contesters: dict[Seat, int] | None = None,
        slot: int = 0,
    ) -> None:
        """``seat`` announces, then everyone asked answers in turn (``contesters``
        contest with the given slot, the others stay silent)."""
        await self.play(seat, Announce(slot=slot, character=character))
        await self.contest_round(contesters or {})

    async def contest_round(self, contesters: dict[Seat, int]) -> None:
        while (state := await self.mascarade()).stage.value == "contest":
            (asked,) = GAME.awaiting(state)
            answer: MascaradeChoice = (
                Contest(slot=contesters[asked]) if asked in contesters else Pass()
            )
            await self.play(asked, answer)

    async def play_randomly(self, rng: random.Random, max_steps: int = 600) -> None:
        for _ in range(max_steps):
            state = await self.mascarade()
            if GAME.result(state) is not None:
                return
            (prompt,) = GAME.prompts(state)
            await self.play(prompt.player, rng.choice(prompt.choices))
        raise AssertionError("the game did not end")

    # --- the leak check ----------------------------------------------------------------------

    async def assert_public_message_hides_secrets(self) -> None:
        """The table message on the wire equals its rendering from the true state
        AND from a state where every card the spectators have no fresh memory of is
        scrambled (and every seat's knowledge is noise): it cannot depend on them.
        No public payload carries the wording of a private answer."""
        snapshot = await self.bot.tables.snapshot(self.id)
        public = self.fake.public_text()
        for phrase in PRIVATE_PHRASES:
            assert phrase not in public, f"private wording in public: {phrase!r}"
        if snapshot.state is None or snapshot.table.status is not TableStatus.RUNNING:
            return
        renderer = self.bot.renderer
        true_embed, true_items = renderer.table_message(renderer.context(snapshot))
        state = snapshot.state
        assert isinstance(state, MascaradeState)
        for salt in range(3):
            rng = random.Random(f"{snapshot.version}.{salt}")
            snapshot.state = scramble_unknown(state, None, rng)
            fake_embed, fake_items = renderer.table_message(renderer.context(snapshot))
            assert true_embed.to_dict() == fake_embed.to_dict(), "the table embed shows a secret"
            assert ids_and_labels(true_items) == ids_and_labels(fake_items), (
                "the table's components depend on a secret"
            )
        wire = await self.message()
        assert wire.embeds[0]["description"] == true_embed.description
        assert wire.embeds[0]["fields"] == true_embed.to_dict()["fields"]
        shown = [(c.get("custom_id"), c.get("label")) for c in components_of(wire)]
        assert shown == ids_and_labels(true_items)

    # --- reading -------------------------------------------------------------------------------

    def channel_text(self) -> str:
        return "\n".join(m.content for m in self.fake.channel_messages(self.world.channel))

    def private_text(self, user: FakeUser) -> str:
        return "\n".join(m.content + str(m.embeds) for m in self.fake.private_to(user))

    async def embed_text(self) -> str:
        return str((await self.message()).embeds[0])

    async def wire(self) -> StoredMessage:
        return await self.message()


async def rig(table: MascaradeTable, state: MascaradeState) -> None:
    """Test setup: replace the dealt game of a running table in the database
    (cards, coins, turn, knowledge), keeping its version; redraw the message."""
    table.world.replace_state(table.id, state)
    await redraw(table.bot, table.id)
    await table.assert_public_message_hides_secrets()


def refusal(key: str) -> str:
    return t(f"refusal.{key}", None)
