"""The run-time catalogue reader (bot.ui.po) reads what Babel reads: every catalogue
of the bot, and what translators' tools may write (wrapped lines, escapes, flags,
comments, obsolete and previous entries, plural forms)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.app import game_extension
from bot.ui import po
from bot.ui.i18n import TRANSLATED, Translation, _usable, areas, read_catalogue
from games.registry import GAMES

for _name in GAMES:  # a game's presenter registers its catalogues when built
    import_module(game_extension(_name))


def babel_usable(catalogue: Catalog) -> dict[str, Translation]:
    """What the bot used before: Babel's whole catalogue, filtered the same way."""
    found: dict[str, Translation] = {}
    for message in catalogue:
        if not message.context or message.fuzzy:
            continue
        if isinstance(message.string, tuple | list):
            forms = tuple(str(form) for form in message.string)
            if all(forms):
                found[message.context] = forms
        elif message.string:
            found[message.context] = str(message.string)
    return found


def catalogues() -> Iterator[tuple[str, Path]]:
    for folder in areas().values():
        for lang in TRANSLATED:
            yield lang, folder / f"{lang}.po"


@pytest.mark.parametrize(("lang", "path"), list(catalogues()), ids=str)
def test_every_catalogue_reads_as_babel_reads_it(lang: str, path: Path) -> None:
    lean = dict(_usable(po.read(path), lang))
    assert lean == babel_usable(read_catalogue(path, lang))
    assert len(lean) > 20, "a catalogue of the bot has translations"


TRICKY = r"""# Translators' comment.
msgid ""
msgstr ""
"Project-Id-Version: gamemaster\n"
"Language: it\n"
"Plural-Forms: nplurals=3; plural=(n == 1 ? 0 : n == 2 ? 1 : 2);\n"

#. An extracted comment
#: somewhere.py:12
msgctxt "wrapped"
msgid ""
"A long English text "
"on two lines"
msgstr ""
"Un lungo testo "
"su due righe"

msgctxt "escapes"
msgid "Say \"hi\"\tthen\\now\nbye"
msgstr "Di' \"ciao\"\tpoi\\ora\narrivederci"

#, python-format, fuzzy
msgctxt "fuzzy.one"
msgid "Old"
msgstr "Vecchio"

#, python-format
msgctxt "not.fuzzy"
msgid "Kept"
msgstr "Tenuto"
msgctxt "no.blank.line.before"
msgid "Next"
msgstr "Prossimo"

#| msgctxt "previous"
#| msgid "Before"
msgctxt "after.previous"
msgid "After"
msgstr "Dopo"

msgctxt "plural.three"
msgid "{count} coin"
msgid_plural "{count} coins"
msgstr[0] "{count} moneta"
msgstr[1] "{count} monete (due)"
msgstr[2] "{count} monete"

msgctxt "plural.missing.form"
msgid "{count} card"
msgid_plural "{count} cards"
msgstr[0] "{count} carta"
msgstr[1] "{count} carte"

msgctxt "plural.single.form"
msgid "{count} day"
msgid_plural "{count} days"
msgstr[0] "{count} giorni"

msgctxt "empty"
msgid "Not yet"
msgstr ""

msgid "No context"
msgstr "Senza contesto"

#~ msgctxt "obsolete"
#~ msgid "Gone"
#~ msgstr "Andato"
"""


def test_what_translators_tools_write_reads_as_babel_reads_it() -> None:
    lean = po.parse(TRICKY)
    babel = read_po(io.BytesIO(TRICKY.encode()), locale="it")
    assert lean.plural_forms == (3, "(n == 1 ? 0 : n == 2 ? 1 : 2)")
    assert lean.plural_forms == (babel.num_plurals, babel.plural_expr)
    usable = dict(_usable(lean, "fr"))
    assert usable == babel_usable(babel)
    assert usable["wrapped"] == "Un lungo testo su due righe"
    assert usable["escapes"] == 'Di\' "ciao"\tpoi\\ora\narrivederci'
    assert usable["plural.three"] == ("{count} moneta", "{count} monete (due)", "{count} monete")
    missing = {"fuzzy.one", "empty", "obsolete", "plural.missing.form", "plural.single.form"}
    assert missing.isdisjoint(usable)
    assert {"not.fuzzy", "no.blank.line.before", "after.previous"} <= usable.keys()


def test_a_catalogue_without_plural_forms_in_its_header() -> None:
    assert po.parse('msgctxt "k"\nmsgid "a"\nmsgstr "b"\n').plural_forms is None
