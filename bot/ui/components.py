"""Persistent components: they work after a restart because the bot registers
their templates (``DynamicItem``) and every click is routed by its custom_id.

custom_id: ``gm:<table>:<version>:<code>`` for buttons, ``gs:<table>:<version>:<code>``
for selects (the chosen values are codes too). ``code`` is either a choice code
(bot.ui.codec) or a UI operation starting with ``ui.`` (hand, lobby, panels).
No custom_id ever carries a secret.

A custom_id is a claim, not a proof: a modified client can send any. The
templates take numbers of at most 19 ASCII digits (anything else names no table:
the bot refuses it as not its own), and the controller checks that a click comes
from its table's place before it counts.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol, cast

import discord

from .limits import BUTTON_LABEL, PLACEHOLDER, SELECT_OPTIONS, cut

if TYPE_CHECKING:
    from collections.abc import Sequence

_CODE = r"[a-z0-9_.+\-]+"
_NUMBER = r"[0-9]{1,19}"
"""At most 19 ASCII digits (``\\d`` would take other scripts' digits, which ``int``
reads): every id and version SQLite can store (up to 2**63 - 1) and no absurdly long
number; the controller refuses the 19-digit ones beyond."""


class ClickHandler(Protocol):
    async def on_click(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, code: str
    ) -> None: ...

    async def on_select(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        code: str,
        values: list[str],
    ) -> None: ...


def _handler(interaction: discord.Interaction[Any]) -> ClickHandler:
    handler: ClickHandler = interaction.client.clicks
    return handler


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"gm:(?P<table>{_NUMBER}):(?P<version>{_NUMBER}):(?P<code>{_CODE})",
):
    def __init__(
        self,
        table_id: int,
        version: int,
        code: str,
        *,
        label: str = "\u200b",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        custom_id = f"gm:{table_id}:{version}:{code}"
        super().__init__(
            discord.ui.Button(
                label=cut(label, BUTTON_LABEL),
                style=style,
                emoji=emoji,
                custom_id=custom_id,
                disabled=disabled,
                row=row,
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
    ) -> GameButton:
        return cls(int(match["table"]), int(match["version"]), match["code"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction).on_click(interaction, self.table_id, self.version, self.code)


class GameSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"gs:(?P<table>{_NUMBER}):(?P<version>{_NUMBER}):(?P<code>{_CODE})",
):
    def __init__(
        self,
        table_id: int,
        version: int,
        code: str,
        options: Sequence[discord.SelectOption] = (),
        *,
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"gs:{table_id}:{version}:{code}",
                options=list(options)[:SELECT_OPTIONS]
                or [discord.SelectOption(label="-", value="-")],
                placeholder=cut(placeholder, PLACEHOLDER) if placeholder else None,
                min_values=min_values,
                max_values=max_values,
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
    ) -> GameSelect:
        return cls(int(match["table"]), int(match["version"]), match["code"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data = cast("dict[str, Any]", interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        await _handler(interaction).on_select(
            interaction, self.table_id, self.version, self.code, values
        )


def table_named(custom_id: str) -> int | None:
    """The table a custom_id of ours names, or None when it is not one of ours."""
    for item in (GameButton, GameSelect):
        if match := item.__discord_ui_compiled_template__.fullmatch(custom_id):
            return int(match["table"])
    return None


def view_of(items: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    """A non-stored view holding these items (they are routed by template, not by view)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def _no_option() -> discord.SelectOption:
    """Discord refuses a select without options."""
    return discord.SelectOption(label="-", value="-")
