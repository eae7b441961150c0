"""The one lookup for user-facing text: ``t(key, locale, **args)``.

Strings live in ``bot/ui/locales/<lang>.py`` as a flat ``STRINGS`` dict. A
missing key in a locale falls back to English; a key missing in English is a
bug, reported loudly in tests by ``missing_keys``.
"""

from __future__ import annotations

import logging
from importlib import import_module
from types import ModuleType

log = logging.getLogger("bot.i18n")

DEFAULT_LOCALE = "en"
_loaded: dict[str, dict[str, str]] = {}


def _strings(locale: str) -> dict[str, str]:
    if locale not in _loaded:
        try:
            module: ModuleType = import_module(f"bot.ui.locales.{locale}")
            _loaded[locale] = dict(module.STRINGS)
        except ModuleNotFoundError:
            _loaded[locale] = {}
    return _loaded[locale]


def t(key: str, locale: str | None = None, /, **args: object) -> str:
    """The text of ``key`` in ``locale`` (e.g. Discord's "fr"), formatted with ``args``."""
    lang = (locale or DEFAULT_LOCALE).split("-")[0]
    template = _strings(lang).get(key) or _strings(DEFAULT_LOCALE).get(key)
    if template is None:
        log.error("missing translation key %r", key)
        return key
    return template.format(**args) if args else template


def has(key: str) -> bool:
    return key in _strings(DEFAULT_LOCALE)
