"""The one lookup for user-facing text: ``t(key, locale, **args)``.

**English is the source.** The platform's English strings live in
``bot/ui/locales/en/`` as flat ``STRINGS`` dicts; each game brings its own when
its presenter is built (``register_strings``: every key starts with the game's
name, so no game can shadow another's or the platform's). A value is a
``str.format`` template, or a ``Plural`` whose form is chosen by the ``count``
argument.

**Translations are gettext catalogues**, the format translators' tools read
(Poedit, Weblate, Lokalize): one ``<language>.po`` per area, in the ``locales``
folder next to its English (``bot/ui/locales/it.po`` for the platform,
``cogs/<game>/locales/it.po`` for a game). Each entry's ``msgctxt`` is the key,
its ``msgid`` the English it translates (``msgid_plural`` for a ``Plural``), its
``msgstr`` the translation, with as many plural forms as the language has.
Babel reads them at run time, the first time a language is asked for (no
compile step; English never loads them). ``python -m bot.ui.i18n`` rewrites
every catalogue from the current English, keeping the translations (an entry
whose English changed is marked fuzzy, and a fuzzy entry is not used).

A key missing in a language falls back to English; a key missing in English is
a bug, reported loudly by the tests. The ``count`` argument is written the
language's way (``1,000``, ``1.000``, ``1 000``); other numbers (ids) as they are.
"""

from __future__ import annotations

import gettext
import logging
from collections.abc import Callable, Iterator, Mapping
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple

from bot.languages import AUTONYMS as AUTONYMS
from bot.languages import DEFAULT_LOCALE as DEFAULT_LOCALE
from bot.languages import LANGUAGES as LANGUAGES
from bot.languages import TRANSLATED as TRANSLATED
from bot.languages import language_of as language_of
from games.base import Phrase

from . import po

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

log = logging.getLogger("bot.i18n")

CORE = "core"
"""The platform's own area (its strings have no game's name in front)."""
CORE_CATALOGUES = Path(__file__).parent / "locales"


class Plural(NamedTuple):
    """An English text with a singular and a plural form, chosen by ``count``."""

    one: str
    other: str


Text = str | Plural
Translation = str | tuple[str, ...]
"""A translated text: one template, or one per plural form of its language."""

_loaded: dict[str, dict[str, Text]] = {}
_registered: dict[str, Mapping[str, Text]] = {}
"""Per namespace (a game's name), the English strings a game registered."""
_catalogue_folders: dict[str, Path] = {CORE: CORE_CATALOGUES}
"""Per area, the folder of its ``<language>.po`` catalogues."""
_translations: dict[str, dict[str, Translation]] = {}
_plural_rules: dict[str, Callable[[int], int]] = {}
_plural_forms: dict[str, tuple[int, str]] = {}


def _english() -> dict[str, Text]:
    if DEFAULT_LOCALE not in _loaded:
        module: ModuleType = import_module("bot.ui.locales.en")
        strings: dict[str, Text] = dict(module.STRINGS)
        for registered in _registered.values():
            strings.update(registered)
        _loaded[DEFAULT_LOCALE] = strings
    return _loaded[DEFAULT_LOCALE]


def register_strings(
    namespace: str, strings: Mapping[str, Text], catalogues: Path | None = None
) -> None:
    """Add a game's English strings (keys ``<namespace>.…``), and the folder of its
    translations (``catalogues``); registering again replaces them."""
    wrong = [key for key in strings if not key.startswith(f"{namespace}.")]
    if wrong:
        raise ValueError(f"keys of {namespace!r} outside its namespace: {wrong[:5]}")
    platform = _platform_keys()
    if clash := platform & strings.keys():
        raise ValueError(f"keys of {namespace!r} shadow the platform's: {sorted(clash)[:5]}")
    _registered[namespace] = dict(strings)
    if catalogues is not None:
        _catalogue_folders[namespace] = catalogues
    _loaded.clear()
    _translations.clear()


def forget_strings(namespace: str) -> None:
    """Undo ``register_strings`` (a test's own namespace)."""
    _registered.pop(namespace, None)
    _catalogue_folders.pop(namespace, None)
    _loaded.clear()
    _translations.clear()


def _platform_keys() -> set[str]:
    module: ModuleType = import_module("bot.ui.locales.en")
    return set(module.STRINGS)


def t(key: str, locale: str | None = None, /, **args: object) -> str:
    """The text of ``key`` in ``locale`` (e.g. Discord's "fr"), formatted with ``args``."""
    lang = language_of(locale)
    english = _english().get(key)
    if english is None:
        log.error("missing translation key %r", key)
        return key
    template = _template(key, lang, english, args.get("count"))
    if not args:
        return template
    if "count" in args:
        args["count"] = _counted(args["count"], lang)
    for name, value in args.items():
        if isinstance(value, Phrase | list):
            args[name] = _worded(value, lang)
    return template.format(**args)


def _worded(value: object, lang: str) -> object:
    """A ``Phrase`` argument in words (a list of them joined by commas)."""
    if isinstance(value, Phrase):
        return t(value.key, lang, **value.params)
    if isinstance(value, list) and all(isinstance(item, Phrase) for item in value):
        return ", ".join(str(_worded(item, lang)) for item in value)
    return value


def _template(key: str, lang: str, english: Text, count: object) -> str:
    translated = translations(lang).get(key) if lang != DEFAULT_LOCALE else None
    if translated is None:
        if isinstance(english, Plural):
            return english.one if count == 1 else english.other
        return english
    if isinstance(translated, tuple):
        index = _plural_rule(lang)(count if isinstance(count, int) else 0)
        return translated[min(index, len(translated) - 1)]
    return translated


def decimal(value: float, locale: str | None, digits: int = 1) -> str:
    """A number with ``digits`` decimals as ``locale``'s language writes it."""
    from babel.numbers import format_decimal

    pattern = "#,##0." + "0" * digits if digits else "#,##0"
    return str(format_decimal(value, format=pattern, locale=language_of(locale)))


def percent(value: float, locale: str | None) -> str:
    """A share (0.5 -> "50 %" in French, "50%" in English and Italian)."""
    from babel.numbers import format_percent

    return str(format_percent(value, locale=language_of(locale)))


def _counted(value: object, lang: str) -> object:
    """A count as the language writes it (only big ones differ: digit grouping)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 1000:
        from babel.numbers import format_decimal

        return format_decimal(value, locale=lang)
    return value


def has(key: str) -> bool:
    return key in _english()


def english_strings() -> dict[str, Text]:
    """Every English string known now (the platform's and the registered games')."""
    return dict(_english())


# --- catalogues ----------------------------------------------------------------------


def areas() -> dict[str, Path]:
    """Every area with translations: the platform and each registered game."""
    return dict(_catalogue_folders)


def area_strings(area: str) -> dict[str, Text]:
    """The English strings of one area."""
    if area == CORE:
        module: ModuleType = import_module("bot.ui.locales.en")
        return dict(module.STRINGS)
    return dict(_registered[area])


def translations(lang: str) -> dict[str, Translation]:
    """Every usable translation of ``lang`` (neither fuzzy nor empty), by key."""
    if lang not in _translations:
        found: dict[str, Translation] = {}
        for folder in _catalogue_folders.values():
            path = folder / f"{lang}.po"
            if path.exists():
                found.update(_usable(po.read(path), lang))
        _translations[lang] = found
    return _translations[lang]


def read_catalogue(path: Path, lang: str) -> Catalog:
    from babel.messages.pofile import read_po

    with path.open("rb") as file:
        return read_po(file, locale=lang)


def _usable(catalogue: po.Catalogue, lang: str) -> Iterator[tuple[str, Translation]]:
    """Its entries with a key, neither fuzzy nor empty: one template, or (a plural
    entry) one per plural form its header declares (else ``lang``'s), as Babel
    reads them."""
    count = (catalogue.plural_forms or plural_forms(lang))[0]
    for entry in catalogue.entries:
        key = entry.context
        if not key or entry.fuzzy:
            continue
        if entry.plural is not None:
            forms = tuple(entry.forms.get(index, "") for index in range(count))
            if all(forms):
                yield key, forms
        elif text := entry.forms.get(0, ""):
            yield key, text


def _plural_rule(lang: str) -> Callable[[int], int]:
    if lang not in _plural_rules:
        _plural_rules[lang] = gettext.c2py(plural_forms(lang)[1])
    return _plural_rules[lang]


def plural_forms(lang: str) -> tuple[int, str]:
    """``lang``'s plural forms as its catalogues declare them (gettext's ``nplurals``
    and ``plural`` expression), read from the platform's catalogue header.

    The translation owns them, as in gettext: a newer CLDR (Babel 2.19 added a
    "many" form to French and Italian) changes neither the catalogues nor which form
    a count picks. A language without a catalogue yet takes Babel's."""
    if lang not in _plural_forms:
        path = CORE_CATALOGUES / f"{lang}.po"
        declared = po.read(path).plural_forms if path.exists() else None
        _plural_forms[lang] = declared or _babel_plural_forms(lang)
    return _plural_forms[lang]


def _babel_plural_forms(lang: str) -> tuple[int, str]:
    from babel.messages.plurals import get_plural

    rule = get_plural(lang)
    return int(rule.num_plurals), str(rule.plural_expr)
