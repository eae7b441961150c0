"""The languages the bot speaks, and which one a Discord locale means. Below the
UI (the table service validates a table's language with it); the texts
themselves are ``bot.ui.i18n``'s."""

from __future__ import annotations

DEFAULT_LOCALE = "en"
LANGUAGES = ("en", "it", "fr")
"""The languages the bot speaks (Discord locales ``it``, ``fr``, ``en-US``...)."""
TRANSLATED = ("it", "fr")
AUTONYMS = {"en": "English", "it": "Italiano", "fr": "Français"}
"""Each language in its own words (a language menu lists them so)."""


def language_of(locale: str | None) -> str:
    """The bot's language for a Discord locale (``it``, ``fr``, ``en-GB``...)."""
    lang = (locale or DEFAULT_LOCALE).split("-")[0].lower()
    return lang if lang in LANGUAGES else DEFAULT_LOCALE
