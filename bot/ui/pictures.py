"""Drawing helpers shared by the games that draw their table with Pillow."""

from __future__ import annotations

import threading
import unicodedata

from PIL import ImageFont

Font = ImageFont.FreeTypeFont
_local = threading.local()


def font(size: int) -> Font:
    """Pillow's bundled font at ``size`` (cached per thread: FreeType faces are not
    safe to share between threads, and pictures are drawn in worker threads)."""
    cache: dict[int, Font] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = {}
        _local.fonts = cache
    found = cache.get(size)
    if found is None:
        loaded = ImageFont.load_default(size=size)
        assert isinstance(loaded, ImageFont.FreeTypeFont), "Pillow without FreeType"
        found = cache[size] = loaded
    return found


def ascii_text(text: str) -> str:
    """The bundled font draws ASCII only: fold accents, drop the rest."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(folded.split())
