"""Drawing helpers shared by the games that draw their table with Pillow.

The pictures are drawn with DejaVu Sans Condensed, shipped in ``fonts/`` with
its licence: it has every letter of our English, Italian and French texts and
of players' names in Latin, Greek or Cyrillic script. Pillow's own font
(``ImageFont.load_default(size)``, Aileron) is not enough: as of Pillow 13 it
has ASCII and a few signs only, not even "é". The condensed cut is about as
wide as Aileron, for which the layouts were made; DejaVu Sans is 8 % wider.

A character the font lacks (most emoji, CJK and other scripts) would draw as an
empty box: ``drawable`` leaves it out instead, and a player's name with nothing
drawable left is shown by its seat ("Player 2"), see ``drawable_name``.
"""

from __future__ import annotations

import functools
import threading
import unicodedata
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont
FONT_FILE = Path(__file__).parent / "fonts" / "DejaVuSansCondensed.ttf"
_local = threading.local()

_PROBE_SIZE = 20
_NO_GLYPH = "\U0010fffe"
"""A noncharacter: no font maps it, so it draws the font's "missing glyph" box."""


def font(size: int) -> Font:
    """The pictures' font at ``size`` (cached per thread: FreeType faces are not
    safe to share between threads, and pictures are drawn in worker threads)."""
    cache: dict[int, Font] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = {}
        _local.fonts = cache
    found = cache.get(size)
    if found is None:
        found = cache[size] = ImageFont.truetype(FONT_FILE, size)
    return found


def _ink(text: str) -> bytes:
    """The pixels ``text`` draws at the probe size."""
    image = Image.new("L", (3 * _PROBE_SIZE, 2 * _PROBE_SIZE))
    ImageDraw.Draw(image).text((4, 4), text, font=font(_PROBE_SIZE), fill=255)
    return image.tobytes()


@functools.cache
def has_glyph(char: str) -> bool:
    """Whether the font draws ``char`` (rather than its "missing glyph" box)."""
    return _ink(char) != _ink(_NO_GLYPH)


def drawable(text: str) -> str:
    """``text`` without the characters the font lacks (composed first, so that
    a letter typed as letter + accent finds its accented glyph)."""
    return "".join(char for char in unicodedata.normalize("NFC", text) if has_glyph(char))


def drawable_name(name: str, fallback: str) -> str:
    """A player's name as a picture draws it: one line, without the characters
    the font lacks; ``fallback`` (the seat's "Player N") when nothing is left."""
    return " ".join(drawable(name).split()) or fallback
