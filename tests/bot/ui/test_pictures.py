"""The pictures' font: it draws accented letters as themselves (not folded to ASCII,
not as boxes), and what it cannot draw in a player's name is left out."""

from __future__ import annotations

import unicodedata
from concurrent.futures import ThreadPoolExecutor

from PIL import Image, ImageDraw

from bot.ui.pictures import FONT_FILE, drawable, drawable_name, font, has_glyph

ACCENTED = "à é è ç ô ù ï À É È Ç Ô Ù Ï œ Œ « » \u2019 … ß ñ ł ğ"


def folded(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def pixels(text: str) -> bytes:
    image = Image.new("L", (900, 60))
    ImageDraw.Draw(image).text((4, 4), text, font=font(28), fill=255)
    return image.tobytes()


def test_the_font_ships_inside_the_package_with_its_licence() -> None:
    assert FONT_FILE.is_file()
    assert (FONT_FILE.parent / "LICENSE").read_text().count("Permission is hereby granted") == 2
    assert font(20).getname() == ("DejaVu Sans", "Condensed")


def test_accented_letters_draw_as_themselves() -> None:
    assert pixels(ACCENTED) != pixels(folded(ACCENTED)), "accents are drawn, not folded"
    missing = [char for char in ACCENTED if not char.isspace() and not has_glyph(char)]
    assert missing == []
    assert drawable(ACCENTED) == ACCENTED


def test_a_letter_typed_with_a_combining_accent_draws_its_accented_glyph() -> None:
    decomposed = unicodedata.normalize("NFD", "Zoë Çà")
    assert len(decomposed) == 9
    assert drawable(decomposed) == "Zoë Çà"


def test_what_the_font_lacks_is_left_out_rather_than_drawn_as_a_box() -> None:
    for char in ("日", "本", "🎲", "🙂", "🤖", "\U0010fffe"):
        assert not has_glyph(char), repr(char)
    assert drawable("dave 🎲") == "dave "
    assert pixels(drawable("a🎲b")) == pixels("ab")
    assert pixels("a🎲b") != pixels("ab"), "Pillow alone would draw a box"


def test_a_name_is_one_line_of_drawable_characters_or_the_fallback() -> None:
    assert drawable_name("  Bérénice\n🎲 la  Grande ", "Player 2") == "Bérénice la Grande"
    assert drawable_name("Ελένη Жанна", "Player 1") == "Ελένη Жанна"
    assert drawable_name("日本 🙂", "Joueur 3") == "Joueur 3"
    assert drawable_name("", "Giocatore 4") == "Giocatore 4"


def test_each_thread_has_its_own_faces_and_they_draw_alike() -> None:
    assert font(20) is font(20)
    with ThreadPoolExecutor(2) as pool:
        theirs = pool.submit(font, 20).result()
        their_pixels = pool.submit(pixels, ACCENTED).result()
    assert theirs is not font(20)
    assert their_pixels == pixels(ACCENTED)
