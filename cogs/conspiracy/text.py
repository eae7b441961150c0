"""Words for Conspiracy's cards, shared by the table message, the panels and the picture."""

from __future__ import annotations

from collections.abc import Iterable

from bot.ui.i18n import t
from games.conspiracy.cards import LOCATIONS, Colour, LocationId
from games.conspiracy.models import LordFace

EMOJI: dict[Colour, str] = {
    Colour.YELLOW: "🟨",
    Colour.RED: "🟥",
    Colour.GREEN: "🟩",
    Colour.BLUE: "🟦",
    Colour.PURPLE: "🟪",
}


def colour_name(colour: Colour, locale: str | None) -> str:
    return t(f"conspiracy.colour.{colour.value}", locale)


def initial(colour: Colour, locale: str | None) -> str:
    return t(f"conspiracy.initial.{colour.value}", locale)


def lord(colour: Colour, influence: int, locale: str | None) -> str:
    """``🟥 red 3``: the colour square, its name and the influence."""
    return t(
        "conspiracy.lord",
        locale,
        emoji=EMOJI[colour],
        colour=colour_name(colour, locale),
        influence=influence,
    )


def lords(faces: Iterable[LordFace], locale: str | None) -> str:
    return ", ".join(lord(f.colour, f.influence, locale) for f in faces) or "-"


def short_lord(colour: Colour, influence: int, locale: str | None) -> str:
    """``🟥R3``: compact, still readable without the colour."""
    return f"{EMOJI[colour]}{initial(colour, locale)}{influence}"


def power(influence: int, locale: str | None) -> str:
    return t(f"conspiracy.power.{influence}", locale)


def location_name(location: LocationId, locale: str | None) -> str:
    return t(f"conspiracy.location.{location.value}", locale)


def location_help(location: LocationId, locale: str | None) -> str:
    return t(f"conspiracy.location_help.{location.value}", locale)


def location_ref(location: LocationId, locale: str | None) -> str:
    """``#11 3 pts, recall the Lords``: the number printed on the picture, and the name."""
    return t(
        "conspiracy.location_ref",
        locale,
        number=LOCATIONS[location].number,
        name=location_name(location, locale),
    )


def locations(items: Iterable[LocationId], locale: str | None) -> str:
    return ", ".join(f"**{location_ref(loc, locale)}**" for loc in items) or "-"
