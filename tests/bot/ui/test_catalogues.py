"""The translation catalogues: in step with the English, placeholders intact, plural
forms chosen the language's way, and complete where a translation is done."""

from __future__ import annotations

import shutil
import string
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path

import pytest

from bot.app import game_extension
from bot.ui.catalogues import TEMPLATE, render, update_area, updated
from bot.ui.i18n import (
    CORE,
    TRANSLATED,
    Plural,
    Text,
    area_strings,
    areas,
    forget_strings,
    plural_forms,
    read_catalogue,
    register_strings,
    t,
)
from games.registry import GAMES

for _name in GAMES:  # a game's presenter registers its strings and catalogues when built
    import_module(game_extension(_name))

AREAS = sorted(areas())
COMPLETE = set(AREAS)
"""Areas whose translation is done (all of them): every entry translated, none fuzzy."""


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def test_every_game_has_catalogues() -> None:
    assert set(AREAS) == {CORE, *GAMES}
    for area, folder in areas().items():
        for name in (TEMPLATE, *(f"{lang}.po" for lang in TRANSLATED)):
            assert (folder / name).is_file(), f"{area}: no {name} in {folder}"


@pytest.mark.parametrize("area", AREAS)
def test_catalogues_are_in_step_with_the_english(area: str, tmp_path: Path) -> None:
    """Every key has an entry with its current English, and no entry is left over:
    ``python -m bot.ui.catalogues`` would change nothing."""
    copy = tmp_path / "locales"
    shutil.copytree(areas()[area], copy)
    assert update_area(area, copy) == [], "run: python -m bot.ui.catalogues"


@pytest.mark.parametrize("area", AREAS)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders(area: str, lang: str) -> None:
    english = area_strings(area)
    for message in read_catalogue(areas()[area] / f"{lang}.po", lang):
        if not message.context:
            continue
        source = english[message.context]
        if isinstance(source, Plural):
            wanted = placeholders(source.other)
            for form in message.string or ():
                assert not form or placeholders(form) <= wanted, (message.context, form)
        elif isinstance(message.string, str) and message.string:
            assert placeholders(message.string) == placeholders(source), (
                message.context,
                message.string,
            )


@pytest.mark.parametrize("area", sorted(COMPLETE))
@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_finished_translation_stays_complete(area: str, lang: str) -> None:
    missing = [
        m.context
        for m in read_catalogue(areas()[area] / f"{lang}.po", lang)
        if m.context
        and (m.fuzzy or not all(m.string if isinstance(m.string, tuple) else [m.string]))
    ]
    assert missing == []


@pytest.fixture
def counted(tmp_path: Path) -> Iterator[None]:
    """A namespace of its own with a plural text, translated in both languages, an
    entry whose English changed since (fuzzy) and one not translated yet."""
    strings: dict[str, Text] = {
        "counted.coins": Plural("{count} coin", "{count} coins"),
        "counted.changed": "New English",
        "counted.later": "Not translated yet",
    }
    register_strings("counted", strings, tmp_path)
    translated = {
        "it": {"counted.coins": ("{count} moneta", "{count} monete")},
        "fr": {"counted.coins": ("{count} pièce", "{count} pièces")},
    }
    for lang, texts in translated.items():
        catalogue = updated(None, strings, lang)
        for message in catalogue:
            if message.context in texts:
                message.string = texts[message.context]
            elif message.context == "counted.changed":
                message.string = "Traduzione" if lang == "it" else "Traduction"
        (tmp_path / f"{lang}.po").write_bytes(render(catalogue))
    old = read_catalogue(tmp_path / "it.po", "it")
    for message in old:  # the English of "changed" moved on since it was translated
        if message.context == "counted.changed":
            message.id = "Old English"
    (tmp_path / "it.po").write_bytes(render(updated(old, strings, "it")))
    yield
    forget_strings("counted")


@pytest.mark.usefixtures("counted")
def test_plural_forms_follow_each_language() -> None:
    coins = {
        lang: [t("counted.coins", lang, count=n) for n in (0, 1, 2, 21)]
        for lang in ("en", "it", "fr")
    }
    assert coins["en"] == ["0 coins", "1 coin", "2 coins", "21 coins"]
    assert coins["it"] == ["0 monete", "1 moneta", "2 monete", "21 monete"]
    assert coins["fr"] == ["0 pièce", "1 pièce", "2 pièces", "21 pièces"]
    assert t("counted.coins", "fr", count=1500) == "1\u202f500 pièces"
    assert t("counted.coins", "it", count=1500) == "1.500 monete"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_catalogue_of_a_language_declares_its_plural_forms(lang: str) -> None:
    """A count picks its form by the rule of the platform's catalogue: every area of
    the language must declare that same rule, with that many forms in each entry."""
    count, expression = plural_forms(lang)
    for area, folder in areas().items():
        catalogue = read_catalogue(folder / f"{lang}.po", lang)
        assert (catalogue.num_plurals, catalogue.plural_expr) == (count, expression), area
        for message in catalogue:
            if isinstance(message.string, tuple | list):
                assert len(message.string) == count, (area, message.context)


def test_a_catalogue_keeps_the_plural_forms_its_translator_declared(tmp_path: Path) -> None:
    """Not the installed Babel's: a newer CLDR must not reshape translated catalogues."""
    strings: dict[str, Text] = {"counted.coins": Plural("{count} coin", "{count} coins")}
    old = updated(None, strings, "it")
    old.mime_headers = [("Plural-Forms", "nplurals=3; plural=(n == 1 ? 0 : n == 2 ? 1 : 2);")]
    for message in old:
        if message.context == "counted.coins":
            message.string = ("{count} moneta", "{count} monete (2)", "{count} monete")
    (tmp_path / "it.po").write_bytes(render(old))
    again = updated(read_catalogue(tmp_path / "it.po", "it"), strings, "it")
    assert again.num_plurals == 3
    assert again.plural_expr == "(n == 1 ? 0 : n == 2 ? 1 : 2)"
    (coins,) = [message for message in again if message.context == "counted.coins"]
    assert coins.string == ("{count} moneta", "{count} monete (2)", "{count} monete")
    assert b"Generated-By" not in render(again), "Babel's version would rewrite every file"


@pytest.mark.usefixtures("counted")
def test_fuzzy_and_empty_entries_fall_back_to_english() -> None:
    assert t("counted.changed", "fr") == "Traduction"
    assert t("counted.changed", "it") == "New English", "a fuzzy entry is not used"
    assert t("counted.later", "it") == "Not translated yet"
