"""Slash commands in the player's language.

Discord shows a command's name, description, options and choices in the
client's language when the registered command carries ``name_localizations``
and ``description_localizations``; discord.py asks the tree's ``Translator``
for each of them when it syncs. The cogs write their commands in plain English:
that is Discord's default text, and the names Discord sends back in
interactions (which is how they are routed), whatever the user's language.

The key of a string follows from where it sits, so a command's definition names
no key:

    command.<command>[.<subcommand>].name / .description
    command.<command>[.<subcommand>].option.<option>.name / .description
    command.<command>[.<subcommand>].option.<option>.choice.<value>.name

Their English is in ``bot/ui/locales/en/commands.py``, their translations in the
platform's catalogues (``bot/ui/locales/{it,fr}.po``).
"""

from __future__ import annotations

import logging
from typing import Any

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation, TranslationContextTypes, locale_str

from .i18n import TRANSLATED, has, t, translations

log = logging.getLogger("bot.i18n")

PREFIX = "command"
NAME_LOCATIONS = (
    TranslationContextLocation.command_name,
    TranslationContextLocation.group_name,
    TranslationContextLocation.parameter_name,
    TranslationContextLocation.choice_name,
)
"""Where a string is a name (elsewhere it is a description)."""


class CatalogueTranslator(app_commands.Translator):
    """Italian and French from the catalogues; None (Discord shows the English
    default) for every other locale and for a string the catalogues lack."""

    def __init__(self, tree: app_commands.CommandTree[Any]) -> None:
        self.tree = tree

    async def translate(
        self, string: locale_str, locale: Locale, context: TranslationContextTypes
    ) -> str | None:
        if locale.value not in TRANSLATED:
            return None
        key = key_of(context, self.tree)
        if key is None or not _english_matches(key, string.message):
            return None
        translated = translations(locale.value).get(key)
        return translated if isinstance(translated, str) else None


def _english_matches(key: str, english: str) -> bool:
    """A translation translates the English of the strings: a command whose English
    changed keeps its default text until the strings and catalogues follow."""
    if not has(key):
        log.error("slash command text %r has no key %r in the English strings", english, key)
        return False
    if t(key) != english:
        log.error("the English of %r is %r in the strings, %r in the command", key, t(key), english)
        return False
    return True


def key_of(context: TranslationContextTypes, tree: app_commands.CommandTree[Any]) -> str | None:
    """The strings' key of the command text that ``context`` points at."""
    data = context.data
    part = "name" if context.location in NAME_LOCATIONS else "description"
    if isinstance(data, app_commands.Command | app_commands.Group):
        return f"{command_key(data.qualified_name)}.{part}"
    if isinstance(data, app_commands.Parameter):
        return f"{option_key(data)}.{part}"
    if isinstance(data, app_commands.Choice):
        return choice_key(data, tree)
    return None  # context menus (the bot has none)


def command_key(qualified_name: str) -> str:
    """``mod end`` -> ``command.mod.end``."""
    return ".".join((PREFIX, *qualified_name.split()))


def option_key(parameter: app_commands.Parameter) -> str:
    return f"{command_key(parameter.command.qualified_name)}.option.{parameter.name}"


def choice_key(choice: app_commands.Choice[Any], tree: app_commands.CommandTree[Any]) -> str | None:
    """discord.py tells only the choice itself: its option is the one of the tree
    that holds this very object."""
    for command in tree.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        for parameter in command.parameters:
            if any(known is choice for known in parameter.choices):
                return f"{option_key(parameter)}.choice.{choice.value}.name"
    log.error("choice %r belongs to no command of the tree", choice)
    return None
