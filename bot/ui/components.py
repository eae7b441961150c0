"""Persistent components: they work after a restart because every click is routed
by its custom_id alone (``bot.app``'s ``on_interaction``), never by a view that
discord.py keeps: the views the bot sends are stopped before they go, so discord.py
neither stores them (no timeout task per panel) nor routes their clicks itself
(no view rebuilt from the message on each click).

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
from typing import TYPE_CHECKING, Any

import discord

from .limits import BUTTON_LABEL, PLACEHOLDER, SELECT_OPTIONS, cut

if TYPE_CHECKING:
    from collections.abc import Sequence

_CODE = r"[a-z0-9_.+\-]+"
_NUMBER = r"[0-9]{1,19}"
"""At most 19 ASCII digits (``\\d`` would take other scripts' digits, which ``int``
reads): every id and version SQLite can store (up to 2**63 - 1) and no absurdly long
number; the controller refuses the 19-digit ones beyond."""


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
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                row=row,
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


BUTTON_ID: re.Pattern[str] = GameButton.__discord_ui_compiled_template__
SELECT_ID: re.Pattern[str] = GameSelect.__discord_ui_compiled_template__


def table_named(custom_id: str) -> int | None:
    """The table a custom_id of ours names, or None when it is not one of ours."""
    for template in (BUTTON_ID, SELECT_ID):
        if match := template.fullmatch(custom_id):
            return int(match["table"])
    return None


class SentOnce(discord.ui.View):
    """A view for one message: stopped, so discord.py sends its components and
    forgets it (their clicks are routed by custom_id), and it lets go of its items
    once their components are made. A view and its items refer to each other: kept,
    each sent view would be garbage for the cyclic collector (tens of thousands of
    objects a minute on a busy bot, freed by full collections that pause the loop).
    """

    def to_components(self) -> list[dict[str, Any]]:
        components = super().to_components()
        self.clear_items()
        return components


def view_of(items: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    """A view holding these items, to send once (``SentOnce``)."""
    view = SentOnce(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


def _no_option() -> discord.SelectOption:
    """Discord refuses a select without options."""
    return discord.SelectOption(label="-", value="-")
