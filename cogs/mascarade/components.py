"""Mascarade's own persistent components, for choices whose answer is private.

The platform answers a choice silently (public buttons) or with a fixed "Done."
(selects). Some Mascarade choices teach the chooser something at once: a Look
(the card), a Spy's card (both cards), a swap (the secret "swap or not?" that
follows). These components apply the choice through the same table service,
then answer the chooser ephemerally with what it learnt, or turn its ephemeral
panel into the next private question (see ``clicks.py``).

custom_id: ``mq:<table>:<version>:<choice code>`` (a button on the public table
message: its code is a public choice), ``mp:…`` (a button in an ephemeral
panel), ``mqs:<table>:<version>:<panel>`` (a select in an ephemeral panel; the
chosen value is the choice code). Like the platform's, they carry no secret.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, cast

import discord

CODE = r"[a-z0-9_.+\-]+"
BUTTON_TEMPLATE = rf"(?P<kind>mq|mp):(?P<table>\d+):(?P<version>\d+):(?P<code>{CODE})"
SELECT_TEMPLATE = rf"mqs:(?P<table>\d+):(?P<version>\d+):(?P<code>{CODE})"


class MascaradeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    def __init__(
        self,
        table_id: int,
        version: int,
        code: str,
        *,
        private: bool = False,
        label: str = "\u200b",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
    ) -> None:
        kind = "mp" if private else "mq"
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=style,
                emoji=emoji,
                custom_id=f"{kind}:{table_id}:{version}:{code}",
                row=row,
            )
        )
        self.table_id = table_id
        self.version = version
        self.code = code
        self.private = private

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> MascaradeButton:
        return cls(
            int(match["table"]), int(match["version"]), match["code"], private=match["kind"] == "mp"
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from .clicks import answer_choice

        await answer_choice(
            interaction, self.table_id, self.version, self.code, private=self.private
        )


class MascaradeSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    def __init__(
        self,
        table_id: int,
        version: int,
        code: str,
        options: Sequence[discord.SelectOption] = (),
        *,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"mqs:{table_id}:{version}:{code}",
                options=list(options)[:25] or [discord.SelectOption(label="-", value="-")],
                placeholder=placeholder[:150] if placeholder else None,
            )
        )
        self.table_id = table_id
        self.version = version
        self.code = code

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> MascaradeSelect:
        return cls(int(match["table"]), int(match["version"]), match["code"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from .clicks import answer_select

        data = cast("dict[str, Any]", interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        await answer_select(interaction, self.table_id, self.version, values)
