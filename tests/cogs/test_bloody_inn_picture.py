"""The picture of the inn: a valid PNG of a phone-readable size for every kind
of moment, drawn from the spectator view only (identical bytes whatever the
hands and the Entrance under its top card)."""

from __future__ import annotations

import dataclasses
import io
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

from bot.ui.i18n import TRANSLATED
from cogs.bloody_inn import PRESENTER
from cogs.bloody_inn.picture import Picture, draw, initials
from games.bloody_inn import GAME, BloodyInnOptions, BloodyInnState, Length
from games.bloody_inn.cards import GuestType
from games.bloody_inn.models import Stage
from tests.cogs.picture_texts import missing_letters
from tests.games.bloody_inn.conformance import scramble_unknown

from .test_bloody_inn_states import LONG_NAMES, SHORT_NAMES, context, mid_game, random_game


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        image.load()
        return image.size


def picture(
    state: BloodyInnState, names: list[str] | None = None, locale: str | None = None
) -> bytes:
    ctx = dataclasses.replace(context(state, names=names or SHORT_NAMES), locale=locale)
    png = PRESENTER.table_image(ctx)
    assert png is not None
    return png


def test_start_middle_and_end_are_valid_pngs_of_a_readable_size() -> None:
    assert PRESENTER.draws_picture
    games = {players: random_game(players, 40 + players, boost=True) for players in (1, 2, 4)}
    moments = [mid_game()]
    for states in games.values():
        moments += [states[0], states[len(states) // 2], states[-1]]
    assert moments[-1].stage is Stage.OVER
    sizes = []
    for state in moments:
        data = picture(state)
        width, height = png_size(data)
        assert width == 1000 and 600 <= height <= 2000
        assert len(data) < 200_000
        sizes.append(height)
    assert min(sizes) < max(sizes), "the picture grows with the players"


def test_mid_game_shows_annexes_and_corpses_of_every_player() -> None:
    state = mid_game()
    view = GAME.view(state, None)
    assert any(p.corpses for p in view.players)
    assert any(len(a.corpses) for p in view.players for a in p.annexes)
    small = picture(state)
    more = state.model_copy(deep=True)
    more.players[1].corpses.append(more.entrance.pop(0))
    assert picture(more) != small, "an unburied corpse changes the picture"


def test_the_picture_never_depends_on_hands_or_the_entrance_order() -> None:
    rng = random.Random(8)
    states = [mid_game()]
    for players in (1, 2, 3, 4):
        game = random_game(players, 70 + players, boost=players % 2 == 0)
        states += game[:: max(1, len(game) // 12)]
    changed = 0
    for state in states:
        scrambled = scramble_unknown(state, None, rng)
        changed += [p.hand for p in scrambled.players] != [p.hand for p in state.players]
        assert picture(scrambled) == picture(state)
    assert changed > len(states) // 2, "the scrambles did change hands"


def test_two_states_differing_only_in_hands_draw_identical_bytes() -> None:
    state = mid_game()
    other = state.model_copy(deep=True)
    # alice's three accomplices swap places with three cards under the Entrance's top.
    hand = other.players[0].hand
    other.players[0].hand, other.entrance[:3] = other.entrance[:3], hand
    other.entrance[:-1] = list(reversed(other.entrance[:-1]))
    assert other.players[0].hand != state.players[0].hand
    assert other.entrance[-1] == state.entrance[-1]
    assert picture(other) == picture(state)


def test_long_and_foreign_names_and_shared_initials() -> None:
    state = random_game(4, 5)[40]
    assert png_size(picture(state, LONG_NAMES))[0] == 1000
    png_size(picture(state, ["Ève", "Élodie", "日本", "🙂"]))
    assert initials(["alice", "anna", "bob", "carol"]) == ["Al", "An", "B", "C"]
    assert initials(["ann", "ann", "bob", "x"]) == ["1", "2", "3", "4"]
    assert Picture(GAME.view(state, None), ["日本", "b", "c", "d"]).names[0] == "Player 1"
    french = Picture(GAME.view(state, None), ["日本", "Zoë 🎲", "Ève", "d"], "fr")
    assert french.names == ["Joueur 1", "Zoë", "Ève", "d"]
    assert french.tags == ["J", "Z", "È", "D"]


def test_drawing_in_several_threads_at_once_gives_the_same_bytes() -> None:
    states = random_game(2, 9)[::10][:8]
    views = [GAME.view(s, None) for s in states]
    alone = [draw(v, ["alice", "bob"]) for v in views]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda v: draw(v, ["alice", "bob"]), views))
    assert together == alone


def test_options_change_nothing_but_what_they_change() -> None:
    short = GAME.setup(2, BloodyInnOptions(length=Length.SHORT), 3)
    long = GAME.setup(2, BloodyInnOptions(length=Length.LONG), 3)
    assert picture(short) != picture(long), "the Entrance size differs"


PICTURE_KEYS = ("bloody_inn.pic.", "bloody_inn.card.", "bloody_inn.annex.", "table.unnamed")
"""The catalogue entries the picture draws."""


def test_the_font_has_every_letter_of_the_picture_texts() -> None:
    assert missing_letters(PICTURE_KEYS, "É") == set()


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_picture_in_italian_and_french_at_every_kind_of_moment(locale: str) -> None:
    moments = [mid_game()]
    for players in (1, 2, 4):
        states = random_game(players, 60 + players, boost=True)
        moments += [states[0], states[len(states) // 2], states[-1]]
    for state in moments:
        data = picture(state, locale=locale)
        assert png_size(data) == png_size(picture(state)), "the layout is the same"
        assert data != picture(state), "the words are the table's language"


def test_the_picture_keeps_the_accents_of_its_words_and_names() -> None:
    state = mid_game()
    french = Picture(GAME.view(state, None), ["Élodie", "bob", "carol", "dave"], "fr")
    assert french.text("entrance") == "ENTRÉE"
    assert french.type_word(GuestType.MERCHANT) == "COMMERÇANT"
    assert french.names[0] == "Élodie"
    accented = picture(state, ["Élodie", "Bérénice", "carol", "dave"], "fr")
    assert accented != picture(state, ["Elodie", "Berenice", "carol", "dave"], "fr")
