"""The texts a drawn board uses, in every language: the font must draw each letter."""

from __future__ import annotations

from collections.abc import Iterator

from bot.ui.i18n import TRANSLATED, english_strings, translations
from bot.ui.pictures import has_glyph


def picture_texts(prefixes: tuple[str, ...]) -> Iterator[tuple[str, str, str]]:
    """(language, key, text) of every text whose key starts with one of
    ``prefixes``, in English and its translations (each plural form)."""
    for lang in ("en", *TRANSLATED):
        found = english_strings() if lang == "en" else translations(lang)
        for key, text in found.items():
            if key.startswith(prefixes):
                for form in [text] if isinstance(text, str) else text:
                    yield lang, key, form


def missing_letters(prefixes: tuple[str, ...], accented: str) -> set[tuple[str, str, str]]:
    """Letters of those texts the font cannot draw (checking first that French
    texts with ``accented`` were found, so the check reads real translations)."""
    texts = list(picture_texts(prefixes))
    assert {lang for lang, _, _ in texts} == {"en", *TRANSLATED}
    assert any(accented in text for lang, _, text in texts if lang == "fr")
    return {(lang, key, c) for lang, key, text in texts for c in text if not has_glyph(c)}
