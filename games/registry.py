"""Every game the bot offers, registered once under its ``Game.name``.

A game is a package of ``games/`` that exports ``ENTRY``: its rules engine and
its computer players (``GameEntry``). Registering it is one line below. The
bot, the benches, ``python -m games`` and the conformance tests iterate this
registry; nothing else lists the games. The Discord side of a game is the
package ``cogs/<name>`` (``bot.app`` loads it for every registered game).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from games import bloody_inn, complots, conspiracy, mascarade
from games.ai import Level, Policy
from games.entry import AnyGame, GameEntry


class Registry(Mapping[str, AnyGame]):
    """The registered engines by name, in registration order; ``entry(name)`` adds
    the computer players."""

    def __init__(self, *entries: GameEntry) -> None:
        self._entries: dict[str, GameEntry] = {}
        for entry in entries:
            if entry.name in self._entries:
                raise ValueError(f"the game {entry.name!r} is registered twice")
            self._entries[entry.name] = entry

    def __getitem__(self, name: str) -> AnyGame:
        return self._entries[name].game

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def entry(self, name: str) -> GameEntry:
        return self._entries[name]

    def policy(self, name: str, level: Level) -> Policy[Any, Any]:
        return self._entries[name].policy(level)


GAMES = Registry(complots.ENTRY, mascarade.ENTRY, bloody_inn.ENTRY, conspiracy.ENTRY)


def policy_for(game: str, level: Level) -> Policy[Any, Any]:
    """The computer player of one registered game at one level."""
    return GAMES.policy(game, level)
