"""Discord's size limits, and the one place that cuts our text to fit them.

Every presenter builds its embeds, components and messages freely; what goes
to Discord passes through here (``fit_embed``, ``cut``, ``cut_tail``,
``field_values``), so no game has its own truncation rule.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

CONTENT = 2000
"""A message's text."""
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
EMBED_TOTAL = 6000
"""Title, description, field names and values and footer together."""
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
OPTION_LABEL = 100
OPTION_DESCRIPTION = 100
PLACEHOLDER = 150
ACTION_ROWS = 5
ROW_WIDTH = 5
COMMAND_DESCRIPTION = 100
ELLIPSIS = "…"
BLANK = "\u200b"
"""A zero-width space: Discord refuses empty field names and values."""


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, its end replaced by "…" when too long."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)] + ELLIPSIS


def cut_tail(text: str, limit: int) -> str:
    """The end of ``text`` within ``limit`` characters (the latest lines matter most)."""
    if len(text) <= limit:
        return text
    return ELLIPSIS + text[-(limit - 1) :]


def field_values(lines: Iterable[str], limit: int = FIELD_VALUE) -> list[str]:
    """Lines grouped into field values of at most ``limit`` characters, a line never
    split unless it alone is too long (then cut)."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        line = cut(line, limit)
        if current and len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks or [BLANK]


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """The embed cut to every limit: each part to its own, then fields dropped from
    the end (with a "…" field) while the whole is over ``EMBED_TOTAL``."""
    if embed.title:
        embed.title = cut(embed.title, EMBED_TITLE)
    if embed.description:
        embed.description = cut(embed.description, EMBED_DESCRIPTION)
    if embed.footer.text:
        embed.set_footer(text=cut(embed.footer.text, FOOTER), icon_url=embed.footer.icon_url)
    if embed.fields:
        fields = [
            (cut(f.name or BLANK, FIELD_NAME), cut(f.value or BLANK, FIELD_VALUE), bool(f.inline))
            for f in embed.fields
        ][:EMBED_FIELDS]
        embed.clear_fields()
        for name, value, inline in fields:
            embed.add_field(name=name, value=value, inline=inline)
    while len(embed) > EMBED_TOTAL and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
        if len(embed) + len(BLANK) + len(ELLIPSIS) <= EMBED_TOTAL:
            embed.add_field(name=BLANK, value=ELLIPSIS, inline=False)
            break
    if len(embed) > EMBED_TOTAL and embed.description:
        over = len(embed) - EMBED_TOTAL
        embed.description = cut(embed.description, len(embed.description) - over)
    return embed
