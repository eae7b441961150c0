"""Events to lines of text, the same way for every game.

A public event ``e`` reads as the text of ``<game>.log.<e.type>`` (a private
one as ``<game>.dm.<e.type>``); a game may refine the key with a variant
(``action_declared.claim``). The text's arguments are the event's fields:
seats become player names, other values go through the game's formatter
(card and action names). Events without a text are not shown.
"""

from __future__ import annotations

from collections.abc import Callable

from games.base import Event

from .i18n import has, t
from .presenter import TableContext

SEAT_FIELDS = frozenset(
    {
        "seat",
        "actor",
        "target",
        "claimant",
        "challenger",
        "blocker",
        "thief",
        "victim",
        "inquisitor",
        "winner",
        "owner",
    }
)

Formatter = Callable[[object, str | None], str]


def event_text(
    ctx: TableContext,
    key: str,
    event: Event,
    formatter: Formatter,
) -> str | None:
    """The text of ``key`` for ``event``, or None when there is no such text."""
    if not has(key):
        return None
    args: dict[str, object] = {}
    for name in type(event).model_fields:
        if name in ("audience", "type"):
            continue
        value = getattr(event, name)
        if name in SEAT_FIELDS and isinstance(value, int):
            args[name] = ctx.name(value)
        elif value is None:
            args[name] = ""
        else:
            args[name] = formatter(value, ctx.locale)
    return t(key, ctx.locale, **args)
