"""Keeps the translation catalogues in step with the English:
``python -m bot.ui.catalogues``.

For every area (the platform, each game) it writes ``locales/messages.pot``, the
template translators start from, and brings each ``<language>.po`` of
``bot.ui.i18n.TRANSLATED`` up to date: a new key gets an empty entry, an entry
whose English changed keeps its translation marked fuzzy (not used until a
translator checks it), an entry whose key is gone is dropped. Entries follow
the order of the English.
"""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from importlib import import_module
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import write_po

from .i18n import TRANSLATED, Plural, Text, area_strings, areas, plural_forms, read_catalogue

PROJECT = "gamemaster"
TEMPLATE = "messages.pot"


def load_every_area() -> None:
    """Import every game's presenter: each registers its strings and catalogues."""
    from bot.app import extensions

    for extension in extensions():
        import_module(extension)


def template(strings: dict[str, Text]) -> Catalog:
    catalogue = Catalog(project=PROJECT, creation_date=_fixed_date(), fuzzy=False)
    for key, english in strings.items():
        catalogue.add(_msgid(english), context=key)
    return catalogue


def _msgid(english: Text) -> str | tuple[str, str]:
    return (english.one, english.other) if isinstance(english, Plural) else english


def _fixed_date() -> datetime:
    """A constant date: a catalogue rewritten with nothing new is the same file."""
    return datetime(2026, 1, 1, tzinfo=UTC)


def updated(old: Catalog | None, strings: dict[str, Text], lang: str) -> Catalog:
    """``lang``'s catalogue for ``strings``, keeping what ``old`` translated."""
    catalogue = Catalog(locale=lang, project=PROJECT, creation_date=_fixed_date(), fuzzy=False)
    catalogue.revision_date = _fixed_date()
    count, expression = plural_forms(lang) if old is None else _declared_plurals(old)
    catalogue.mime_headers = [("Plural-Forms", f"nplurals={count}; plural={expression};")]
    previous = {m.context: m for m in old or [] if m.context}
    for key, english in strings.items():
        msgid = _msgid(english)
        kept = previous.get(key)
        flags: set[str] = set()
        string: str | tuple[str, ...] = _empty(msgid, count)
        if kept is not None and kept.string and _has_text(kept.string):
            string = _shaped(kept.string, msgid, count)
            if kept.id != msgid or kept.fuzzy:
                flags.add("fuzzy")
        catalogue[msgid] = Message(msgid, string, context=key, flags=flags)
    return catalogue


def _declared_plurals(catalogue: Catalog) -> tuple[int, str]:
    """The plural forms a catalogue's header declares (the translator's, kept)."""
    return int(catalogue.num_plurals), str(catalogue.plural_expr)


def _empty(msgid: str | tuple[str, str], count: int) -> str | tuple[str, ...]:
    return ("",) * count if isinstance(msgid, tuple) else ""


def _has_text(string: object) -> bool:
    return any(string) if isinstance(string, tuple | list) else bool(string)


def _shaped(
    string: str | tuple[str, ...] | list[str], msgid: str | tuple[str, str], count: int
) -> str | tuple[str, ...]:
    """A kept translation in the shape its English now has (plural or not), with
    ``count`` plural forms."""
    forms = list(string) if isinstance(string, tuple | list) else [string]
    if not isinstance(msgid, tuple):
        return forms[0]
    return tuple((forms + [forms[-1]] * count)[:count])


def render(catalogue: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalogue, width=0, omit_header=False, include_previous=False)
    return _GENERATED_BY.sub(b"", out.getvalue())


_GENERATED_BY = re.compile(rb'^"Generated-By: [^"]*"\n', re.MULTILINE)
"""Babel's version in the header: left out, so a newer Babel rewrites no catalogue."""


def update_area(area: str, folder: Path) -> list[Path]:
    """Rewrite one area's template and catalogues; the files that changed."""
    strings = area_strings(area)
    folder.mkdir(parents=True, exist_ok=True)
    changed = []
    files = {folder / TEMPLATE: render(template(strings))}
    for lang in TRANSLATED:
        path = folder / f"{lang}.po"
        old = read_catalogue(path, lang) if path.exists() else None
        files[path] = render(updated(old, strings, lang))
    for path, content in files.items():
        if not path.exists() or path.read_bytes() != content:
            path.write_bytes(content)
            changed.append(path)
    return changed


def main() -> None:
    load_every_area()
    for area, folder in areas().items():
        for path in update_area(area, folder):
            print(f"updated {path}")


if __name__ == "__main__":
    main()
