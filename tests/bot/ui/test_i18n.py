"""Every user-facing key the code asks for exists in English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.ui.i18n import has, t
from games.complots import ActionKind, Character
from games.registry import GAMES

ROOT = Path(__file__).resolve().parents[3]
PREFIXES = "|".join(["refusal", "lobby", "table", "admin", *GAMES])
FILE_NAME = re.compile(r"\.(png|jpg|json|py)$")
LITERAL_KEY = re.compile(rf'"((?:{PREFIXES})\.[a-z0-9_.]*[a-z0-9_])"|Refusal\(\s*"([a-z_]+)"')


def keys_in_code() -> set[str]:
    keys: set[str] = set()
    for folder in ("bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for match in LITERAL_KEY.finditer(path.read_text()):
                literal, refusal = match.groups()
                if literal and FILE_NAME.search(literal):
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
    assert t("lobby.join", "fr") == "Join", "a missing locale falls back to English"
