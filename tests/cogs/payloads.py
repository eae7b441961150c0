"""Checks of what the bot hands Discord: every limit Discord enforces, and no text
that could ping, link or format what the bot did not mean."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.ui.components import view_of
from bot.ui.presenter import Panel

HOSTILE_NAMES = (
    "<@123456789012345678>",
    "<@&111111111111111111> role",
    "@everyone @here",
    "[free nitro](https://evil.example/x)",
    "https://evil.example/join",
    "**bold** __under__ ~~gone~~ ||spoiler|| `code`",
    "# Heading",
    "> quoted\n- listed",
    "\u200b\u200d\u202eevil\u2066",
    "back\\slash\\",
    "<t:1:R> <#123456789012345678> </mod end:1>",
    "W" * 120,
)
"""Display names people could choose to hurt a table: mentions, links, markdown,
invisible and bidi characters, far too long."""

_PING = re.compile(r"(?<!\\)<(?:@[!&]?|#)\d+>|(?<!\\)@(?:everyone|here)\b")
_LINK = re.compile(r"(?<!\\)\b(?:https?|discord)://|\]\(")
_MARKUP = re.compile(r"(?<!\\)(?:\*\*|__|~~|\|\||`)(?:bold|under|gone|spoiler|code)")


def check_embed(embed: discord.Embed) -> None:
    data = embed.to_dict()
    assert len(data.get("title", "")) <= 256
    assert len(data.get("description", "")) <= 4096
    fields = data.get("fields", [])
    assert len(fields) <= 25
    for f in fields:
        assert 0 < len(f["name"]) <= 256
        assert 0 < len(f["value"]) <= 1024
    assert len(data.get("footer", {}).get("text", "")) <= 2048
    assert len(embed) <= 6000


def check_items(items: list[discord.ui.Item[Any]]) -> list[dict[str, Any]]:
    """Components as Discord gets them: ≤5 rows of ≤5 buttons (or one select),
    labels ≤80, custom_ids ≤100, ≤25 options of ≤100 characters; the flat list."""
    rows = view_of(items).to_components()
    assert len(rows) <= 5
    flat: list[dict[str, Any]] = []
    for row in rows:
        children = row["components"]
        assert 1 <= len(children) <= 5
        if any(c["type"] == 3 for c in children):
            assert len(children) == 1, "a select fills its row"
        for c in children:
            assert len(c["custom_id"]) <= 100
            if c["type"] == 2:
                assert 0 < len(c.get("label") or "") <= 80
            else:
                options = c["options"]
                assert 1 <= len(options) <= 25
                assert len({o["value"] for o in options}) == len(options)
                for o in options:
                    assert 0 < len(o["label"]) <= 100 and len(o["value"]) <= 100
                    assert len(o.get("description") or "") <= 100
                assert len(c.get("placeholder") or "") <= 150
            flat.append(c)
    ids = [c["custom_id"] for c in flat]
    assert len(set(ids)) == len(ids), "custom_ids are unique in a message"
    return flat


def check_panel(panel: Panel) -> list[dict[str, Any]]:
    assert len(panel.content) <= 2000
    assert panel.content or panel.embed is not None, "a panel says something"
    if panel.embed is not None:
        check_embed(panel.embed)
    return check_items(panel.items) if panel.items else []


def texts_of(embed: discord.Embed | None = None, *lines: str) -> list[str]:
    """Every piece of text Discord renders as markdown in this payload."""
    texts = list(lines)
    if embed is not None:
        data = embed.to_dict()
        texts += [data.get("title", ""), data.get("description", "")]
        texts += [f"{f['name']}\n{f['value']}" for f in data.get("fields", [])]
    return texts


def check_harmless(texts: list[str]) -> None:
    """No mention that could ping or render, no link, no markup a name smuggled in."""
    for text in texts:
        assert not _PING.search(text), f"a mention in {text!r}"
        assert not _LINK.search(text), f"a link in {text!r}"
        assert not _MARKUP.search(text), f"markup from a name in {text!r}"
