"""Every user-facing key the code asks for exists in English, and games' strings
stay in their own namespace."""

from __future__ import annotations

import re
from importlib import import_module
from pathlib import Path

import pytest

from bot.app import game_extension
from bot.ui.i18n import has, register_strings, t
from games.complots import ActionKind, Character
from games.registry import GAMES

for _name in GAMES:  # a game's presenter registers its strings when built
    import_module(game_extension(_name))

ROOT = Path(__file__).resolve().parents[3]
PREFIXES = "|".join(["refusal", "lobby", "table", "admin", "terminal", *GAMES])
FILE_NAME = re.compile(r"\.(png|jpg|json|py)$")
LITERAL_KEY = re.compile(rf'"((?:{PREFIXES})\.[a-z0-9_.]*[a-z0-9_])"|Refusal\(\s*"([a-z_]+)"')
GAME_KEY = re.compile(r'self\.text\(\s*ctx,\s*"([a-z0-9_.]*[a-z0-9_])"')
"""A presenter's own key, relative to its game (``self.text(ctx, "now.turn")``)."""


def keys_in_code() -> set[str]:
    keys: set[str] = set()
    for folder in ("bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            keys |= keys_in(path)
    return keys


def keys_in(path: Path) -> set[str]:
    code = path.read_text()
    relative = path.relative_to(ROOT / "cogs").parts if path.is_relative_to(ROOT / "cogs") else ()
    game = relative[0] if len(relative) > 1 and relative[0] in GAMES else None
    keys: set[str] = set()
    taken: set[int] = set()
    for match in GAME_KEY.finditer(code) if game else ():
        keys.add(f"{game}.{match[1]}")
        taken.add(match.start(1) - 1)
    for match in LITERAL_KEY.finditer(code):
        literal, refusal = match.groups()
        if match.start() in taken or (literal and FILE_NAME.search(literal)):
            continue
        keys.add(literal or f"refusal.{refusal}")
    return keys


def test_the_scan_finds_keys() -> None:
    found = keys_in_code()
    assert {"refusal.stale", "lobby.join", "complots.now.turn"} <= found
    assert len(found) > 80


@pytest.mark.parametrize("key", sorted(keys_in_code()))
def test_key_exists_in_english(key: str) -> None:
    assert has(key), f"missing English text for {key!r}"


def test_every_card_and_action_has_a_name() -> None:
    for character in Character:
        assert has(f"complots.card.{character.value}")
    for action in ActionKind:
        assert has(f"complots.action.{action.value}")


def test_formatting_and_fallback() -> None:
    assert t("refusal.too_few_players", "en-US", minimum=3) == (
        "At least 3 players are needed to start."
    )
    assert t("lobby.join", "de") == "Join", "a language the bot does not speak gets English"
    assert t("lobby.join", "fr") == "Rejoindre"
    assert t("lobby.join", "it") == "Partecipa"


def test_a_game_cannot_register_keys_outside_its_namespace() -> None:
    with pytest.raises(ValueError, match="outside its namespace"):
        register_strings("mascarade", {"complots.title": "Not mine"})
    with pytest.raises(ValueError, match="shadow the platform"):
        register_strings("refusal", {"refusal.stale": "Mine now"})
    assert t("refusal.stale").startswith("That moment has passed")
