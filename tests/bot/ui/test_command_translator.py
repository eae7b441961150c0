"""Slash commands in Italian and French: every command, option and choice of the
bot's tree carries its `it` and `fr` name and description, within Discord's
limits, and the English defaults (what Discord routes by) stay as they are."""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from discord import Locale, app_commands
from discord.app_commands import TranslationContext, TranslationContextLocation, locale_str

from bot.app import GameMasterBot, extensions
from bot.config import Settings
from bot.ui.command_translator import CatalogueTranslator, key_of
from bot.ui.locales.en.commands import STRINGS

Payload = dict[str, Any]
LANGUAGES = {"it", "fr"}
COMMANDS = {
    "bloody_inn",
    "complots",
    "conspiracy",
    "hand",
    "history",
    "leaderboard",
    "mascarade",
    "mod",
    "stats",
    "table",
}
MOD = {"end", "language", "remove", "role", "tables", "timeouts"}
SUBCOMMAND_TYPES = (1, 2)


@pytest.fixture
async def tree(tmp_path: Path) -> AsyncIterator[app_commands.CommandTree[Any]]:
    """The bot's command tree, every extension loaded (no Discord needed)."""
    bot = GameMasterBot(Settings(_env_file=None, database_path=tmp_path / "t.sqlite3"))
    for extension in extensions():
        await bot.load_extension(extension)
    yield bot.tree


@pytest.fixture
async def payloads(tree: app_commands.CommandTree[Any]) -> list[Payload]:
    """What ``tree.sync`` sends Discord, built with the bot's translator."""
    translator = CatalogueTranslator(tree)
    return [
        await command.get_translated_payload(tree, translator) for command in tree.get_commands()
    ]


def items(payload: Payload, path: str) -> Iterator[tuple[str, Payload]]:
    """A command and every subcommand and option below it, with its /path."""
    yield path, payload
    for option in payload.get("options") or []:
        yield from items(option, f"{path} {option['name']}")


def everything(payloads: list[Payload]) -> Iterator[tuple[str, Payload]]:
    for payload in payloads:
        yield from items(payload, f"/{payload['name']}")


def siblings(payloads: list[Payload]) -> Iterator[tuple[str, list[Payload]]]:
    """Each group of names Discord wants unique: the commands, then the options (or
    subcommands) of each command and subcommand."""
    yield "/", payloads
    for path, item in everything(payloads):
        if item.get("options"):
            yield path, item["options"]


def is_discord_name(name: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase (our
    names are in Latin script: letters and digits of any language, - and _)."""
    allowed = all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)
    return allowed and 1 <= len(name) <= 32 and name == name.lower()


def test_the_discord_name_check_refuses_what_discord_refuses() -> None:
    assert is_discord_name("premier_arrivé_premier_servi") and is_discord_name("rôle")
    for wrong in ("tempo turno", "Mano", "a" * 33, "", "mod!"):
        assert not is_discord_name(wrong), wrong


def test_every_command_option_and_choice_speaks_italian_and_french(
    payloads: list[Payload],
) -> None:
    problems = [
        problem for path, item in everything(payloads) for problem in problems_of(path, item)
    ]
    assert not problems, "\n".join(problems)


def problems_of(path: str, item: Payload) -> Iterator[str]:
    names: dict[str, str] = item.get("name_localizations") or {}
    descriptions: dict[str, str] = item.get("description_localizations") or {}
    if set(names) != LANGUAGES or set(descriptions) != LANGUAGES:
        yield f"{path}: localised in {names} / {descriptions}"
    for lang, name in names.items():
        if not is_discord_name(name):
            yield f"{path}: {lang} name {name!r}"
    for lang, description in descriptions.items():
        if not 1 <= len(description) <= 100:
            yield f"{path}: {lang} description of {len(description)} characters"
    for choice in item.get("choices") or []:
        labels: dict[str, str] = choice.get("name_localizations") or {}
        if set(labels) != LANGUAGES or not all(1 <= len(label) <= 100 for label in labels.values()):
            yield f"{path}: choice {choice['name']!r} labelled {labels}"


def test_names_are_unique_within_their_group_in_each_language(payloads: list[Payload]) -> None:
    for path, group in siblings(payloads):
        for lang in LANGUAGES:
            names = [item["name_localizations"][lang] for item in group]
            assert len(names) == len(set(names)), f"{path} in {lang}: {sorted(names)}"
            labels = [
                choice["name_localizations"][lang]
                for item in group
                for choice in item.get("choices") or []
            ]
            assert len(labels) == len(set(labels)), f"{path} choices in {lang}: {labels}"


def test_players_find_the_commands_under_words_of_their_language(payloads: list[Payload]) -> None:
    seen = dict(everything(payloads))
    assert seen["/hand"]["name_localizations"] == {"it": "mano", "fr": "main"}
    assert seen["/bloody_inn"]["name_localizations"]["fr"] == "auberge_sanglante"
    assert seen["/complots"]["name_localizations"] == {"it": "complots", "fr": "complots"}
    assert seen["/mod end"]["name_localizations"] == {"it": "termina", "fr": "terminer"}
    assert seen["/complots"]["description_localizations"] == {
        "it": "Apri un tavolo di Complots in questo canale",
        "fr": "Ouvre une table de Complots dans ce salon",
    }
    variants = {c["value"]: c["name_localizations"] for c in seen["/complots variant"]["choices"]}
    assert variants["inquisitor"] == {"it": "Inquisitore", "fr": "Inquisiteur"}


def test_the_english_defaults_stay_what_discord_routes_by(payloads: list[Payload]) -> None:
    assert {payload["name"] for payload in payloads} == COMMANDS
    mod = next(payload for payload in payloads if payload["name"] == "mod")
    assert {sub["name"] for sub in mod["options"]} == MOD
    for path, item in everything(payloads):
        assert item["name"].isascii() and is_discord_name(item["name"]), path


async def test_the_english_strings_are_the_commands_own_word_for_word(
    tree: app_commands.CommandTree[Any],
) -> None:
    """Each text of the tree has its key, with the very English the command shows,
    and no key is left over from a command that is gone."""
    shown: dict[str | None, str] = {}

    class Recorder(app_commands.Translator):
        async def translate(
            self, string: locale_str, locale: Locale, context: app_commands.TranslationContextTypes
        ) -> str | None:
            shown[key_of(context, tree)] = string.message
            return None

    for command in tree.get_commands():
        await command.get_translated_payload(tree, Recorder())
    assert shown == STRINGS


def _hand_description(command: app_commands.Command[Any, ..., Any]) -> Any:
    return TranslationContext(TranslationContextLocation.command_description, command)


async def test_other_locales_keep_the_english(tree: app_commands.CommandTree[Any]) -> None:
    translator = CatalogueTranslator(tree)
    hand = tree.get_command("hand")
    assert isinstance(hand, app_commands.Command)
    english = locale_str(hand.description)
    context = _hand_description(hand)
    assert await translator.translate(english, Locale.italian, context) == (
        "Guarda le tue carte segrete al tavolo di questo canale"
    )
    for locale in (Locale.american_english, Locale.british_english, Locale.german):
        assert await translator.translate(english, locale, context) is None


async def test_a_command_whose_english_changed_keeps_its_english(
    tree: app_commands.CommandTree[Any], caplog: pytest.LogCaptureFixture
) -> None:
    """A stale translation would describe what the command no longer does: the new
    English shows everywhere until the strings and catalogues follow, and the log says so."""
    translator = CatalogueTranslator(tree)
    hand = tree.get_command("hand")
    assert isinstance(hand, app_commands.Command)
    changed = locale_str("Show your cards and your coins")
    with caplog.at_level(logging.ERROR, "bot.i18n"):
        assert await translator.translate(changed, Locale.french, _hand_description(hand)) is None
    assert "command.hand.description" in caplog.text
