"""Names people typed (display names, nicknames), made safe to show.

A name is hostile until it passes through here: it may hold mentions
(``<@id>``, ``@everyone``), links, markdown, control or zero-width characters,
or be far too long. ``plain_name`` cleans it for places that render no
markdown (button and select labels, pictures, code blocks); ``markdown_name``
also escapes it for message text and embeds, where it can neither ping, nor
link, nor format anything.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

NAME_LENGTH = 32
"""Discord's longest display name; longer (or stored) names are cut to it."""
_INVISIBLE = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
"""Control, format (zero-width, bidi overrides), private-use, unassigned, separators."""
_SPACES = re.compile(r"\s+")
_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
"""Every ASCII punctuation character: Discord's markdown lets a backslash escape
each one, which also breaks mentions (``\\<@1>``), links (``https\\:\\/\\/``),
headings, quotes, lists, masked links and emoji or timestamp tags."""


@lru_cache(maxsize=4096)  # every table render names every seat: names are few and reused
def plain_name(raw: str, limit: int = NAME_LENGTH) -> str:
    """One line of visible characters, at most ``limit`` long ("…" when cut);
    empty when nothing visible is left."""
    visible = "".join(
        " " if ch.isspace() else ch
        for ch in unicodedata.normalize("NFC", raw)
        if ch.isspace() or unicodedata.category(ch) not in _INVISIBLE
    )
    text = _SPACES.sub(" ", visible).strip()
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


def escape_markdown(text: str) -> str:
    """``text`` shown literally in Discord message text and embeds."""
    return _PUNCTUATION.sub(r"\\\1", text)


@lru_cache(maxsize=4096)
def markdown_name(raw: str, limit: int = NAME_LENGTH) -> str:
    """A name for message text and embeds: cleaned, cut, then escaped."""
    return escape_markdown(plain_name(raw, limit))
