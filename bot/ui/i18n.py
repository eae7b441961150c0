"""The one lookup for user-facing text: ``t(key, locale, **args)``.

The platform's own strings live in ``bot/ui/locales/<lang>/`` as flat
``STRINGS`` dicts; each game brings its own when its presenter is built
(``register_strings``: every key starts with the game's name, so no game can
shadow another's or the platform's). A key missing in a locale falls back to
English; a key missing in English is a bug, reported loudly by the tests.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from importlib import import_module
from types import ModuleType

log = logging.getLogger("bot.i18n")

DEFAULT_LOCALE = "en"
_loaded: dict[str, dict[str, str]] = {}
_registered: dict[str, dict[str, Mapping[str, str]]] = {}
"""Per locale, per namespace (a game's name), the strings a game registered."""


def _strings(locale: str) -> dict[str, str]:
    if locale not in _loaded:
        try:
            module: ModuleType = import_module(f"bot.ui.locales.{locale}")
            _loaded[locale] = dict(module.STRINGS)
        except ModuleNotFoundError:
            _loaded[locale] = {}
        for strings in _registered.get(locale, {}).values():
            _loaded[locale].update(strings)
    return _loaded[locale]


def register_strings(namespace: str, strings: Mapping[str, str], locale: str = "en") -> None:
    """Add a game's strings (keys ``<namespace>.…``); registering again replaces them."""
    wrong = [key for key in strings if not key.startswith(f"{namespace}.")]
    if wrong:
        raise ValueError(f"keys of {namespace!r} outside its namespace: {wrong[:5]}")
    platform = _strings(locale).keys() - _namespaced_keys(locale)
    if clash := platform & strings.keys():
        raise ValueError(f"keys of {namespace!r} shadow the platform's: {sorted(clash)[:5]}")
    _registered.setdefault(locale, {})[namespace] = dict(strings)
    _loaded.pop(locale, None)


def _namespaced_keys(locale: str) -> set[str]:
    return {key for strings in _registered.get(locale, {}).values() for key in strings}


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


def english_strings() -> dict[str, str]:
    """Every English string known now (the platform's and the registered games')."""
    return dict(_strings(DEFAULT_LOCALE))
