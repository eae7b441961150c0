"""The Conspiracy table picture: a PNG of a sensible size, public only."""

from __future__ import annotations

import dataclasses
import io
import itertools

import pytest
from PIL import Image

from bot.ui.i18n import TRANSLATED
from cogs.conspiracy import PRESENTER
from cogs.conspiracy.picture import WIDTH, Picture, coalition_places, draw
from games.conspiracy import GAME, ConspiracyState
from games.conspiracy.cards import Key
from games.conspiracy.models import Stage
from games.conspiracy.scoring import coalition
from tests.cogs.picture_texts import missing_letters

from .conspiracy_states import (
    context,
    full_chambers,
    many_face_up,
    random_game,
    shuffled_decks,
)


def png_of(
    state: ConspiracyState, locale: str | None = None, names: list[str] | None = None
) -> bytes:
    png = PRESENTER.table_image(dataclasses.replace(context(state, names=names), locale=locale))
    assert png is not None
    return png


def check_png(png: bytes, players: int) -> None:
    with Image.open(io.BytesIO(png)) as picture:
        assert picture.format == "PNG"
        picture.verify()
    with Image.open(io.BytesIO(png)) as picture:
        width, height = picture.size
        assert width == WIDTH
        rows = (players + 1) // 2
        assert 600 + 450 * (rows - 1) < height < 1400 + 700 * (rows - 1), (players, height)
        picture.load()
        assert len(picture.getcolors(maxcolors=1 << 16) or []) > 8, "a picture, not a blank"
    assert len(png) < 500_000


def moments(players: int, seed: int) -> dict[str, ConspiracyState]:
    states = list(random_game(seed, players, forfeits=0))
    middle = states[len(states) // 2]
    busy = next(
        (s for s in states if s.stage in (Stage.KEEP, Stage.ORDER, Stage.LOCATION_KEEP)),
        middle,
    )
    return {"start": states[0], "middle": middle, "busy": busy, "end": states[-1]}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_valid_png_of_a_sensible_size_at_every_moment(players: int) -> None:
    for name, state in moments(players, seed=players * 7).items():
        png = png_of(state)
        check_png(png, players)
        assert png == png_of(state), f"{name}: the same table draws the same bytes"


def test_rigged_moments_draw() -> None:
    for state in (many_face_up(), full_chambers()):
        check_png(png_of(state), state.seats)


def test_the_picture_never_depends_on_the_decks_order() -> None:
    states = [
        *itertools.islice(random_game(3, 2), 0, None, 9),
        *itertools.islice(random_game(4, 4), 0, None, 23),
        many_face_up(),
    ]
    for number, state in enumerate(states):
        other = shuffled_decks(state, number)
        assert other.deck != state.deck or len(state.deck) < 2
        assert png_of(state) == png_of(other), f"state {number}: the picture shows the deck"


def test_the_picture_draws_from_the_spectator_view_only() -> None:
    """``draw`` takes a view: the presenter gives it the spectator's."""
    state = many_face_up()
    view = GAME.view(state, None)
    assert draw(view, ["alice", "Bérénice"]) == png_of(state)


def test_names_keep_their_accents_and_lose_what_the_font_cannot_draw() -> None:
    view = GAME.view(many_face_up(), None)
    names = ["Bérénice", "🎲🎲", "山田 太郎", "dave 🎲"]
    assert Picture(view, names, None).names == ["Bérénice", "Player 2", "Player 3", "dave"]
    assert Picture(view, names, "it").names == ["Bérénice", "Giocatore 2", "Giocatore 3", "dave"]
    check_png(png_of(many_face_up(), "fr", names), len(view.players))


def test_the_coalition_outline_matches_the_scored_group() -> None:
    for state in itertools.islice(random_game(11, 3, forfeits=0), 0, None, 5):
        view = GAME.view(state, None)
        for seat, player in enumerate(state.players):
            size, _ = coalition(player.lords)
            places = coalition_places(view.players[seat].chamber)
            assert (not places and size < 2) or len(places) % size == 0


PICTURE_KEYS = (
    "conspiracy.picture.",
    "conspiracy.initial.",
    "conspiracy.colour.",
    "conspiracy.location.",
    "conspiracy.location_ref",
    "table.unnamed",
)
"""The catalogue entries the picture draws."""


def test_the_font_has_every_letter_of_the_picture_texts() -> None:
    assert missing_letters(PICTURE_KEYS, "À") == set()


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_picture_in_italian_and_french_at_every_moment(locale: str) -> None:
    states = [*moments(4, seed=5).values(), many_face_up(), full_chambers()]
    for state in states:
        png = png_of(state, locale)
        check_png(png, state.seats)
        assert png != png_of(state), "the words are the table's language"


def test_key_tokens_print_the_initial_of_the_key_in_the_tables_language() -> None:
    view = GAME.view(full_chambers(), None)
    initials = {
        locale: [Picture(view, [], locale).key_initial(key) for key in (Key.SILVER, Key.GOLD)]
        for locale in (None, "it", "fr")
    }
    assert initials == {None: ["S", "G"], "it": ["A", "O"], "fr": ["A", "O"]}


def test_the_picture_keeps_the_accents_of_its_words_and_names() -> None:
    state = many_face_up()
    french = Picture(GAME.view(state, None), ["Élodie", "bob"], "fr")
    assert french.text("to_place") == "À PLACER"
    assert french.names[:2] == ["Élodie", "bob"]
    accented = png_of(state, "fr", ["Élodie", "Bérénice", "carol", "dave"])
    assert accented != png_of(state, "fr", ["Elodie", "Berenice", "carol", "dave"])
