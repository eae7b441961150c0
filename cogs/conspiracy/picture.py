"""The picture of a Conspiracy table: the shared table on top (decks, discard
piles, face-up Locations, what the active player holds), then every chamber as
its 15-place pyramid (first row at the bottom, rows offset like bricks).

Drawn from the spectator view only (the presenter's ``self.view(ctx, None)``): nothing in it
depends on the decks' order. Readable on a phone: 1000 px wide, big numbers,
and every Lord prints its colour's initial, so colour is never the only cue.
Text keeps its accents; what the font cannot draw in a player's name (emoji,
CJK...) is left out (``bot.ui.pictures.drawable_name``).

``draw`` runs in a worker thread (the renderer's ``asyncio.to_thread``): it
shares nothing mutable but a per-thread font cache.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.ui.i18n import t
from bot.ui.pictures import Font, drawable_name, font
from games.conspiracy.cards import ADJACENT, COLOURS, LOCATIONS, POSITIONS, Colour, Key, LocationId
from games.conspiracy.models import ChamberPlace, ConspiracyView, LordFace, PlayerView, Stage

WIDTH = 1000
MARGIN = 16
GAP = 12

BACKGROUND = (30, 31, 34)
PANEL = (43, 45, 49)
PANEL_EDGE = (66, 68, 75)
TEXT = (236, 237, 240)
MUTED = (156, 160, 168)
DARK = (24, 24, 27)
ACCENT = (88, 101, 242)
GOLD = (241, 196, 15)
SILVER = (200, 202, 208)
KEY_GOLD = (226, 172, 36)
PARCHMENT = (236, 223, 190)
PARCHMENT_TEXT = (58, 44, 20)
EMPTY_FILL = (36, 37, 41)
EMPTY_EDGE = (84, 86, 94)
DECK_FILL = (52, 58, 92)

FILL: dict[Colour, tuple[int, int, int]] = {
    # Okabe-Ito hues (told apart by most colour-blind readers), plus the initials.
    Colour.YELLOW: (240, 228, 66),
    Colour.RED: (213, 94, 0),
    Colour.GREEN: (0, 158, 115),
    Colour.BLUE: (0, 114, 178),
    Colour.PURPLE: (160, 100, 200),
}

CARD_W, CARD_H, CARD_GAP = 84, 66, 5
PYRAMID_W = 5 * CARD_W + 4 * CARD_GAP
PYRAMID_H = 5 * CARD_H + 4 * CARD_GAP
PANEL_W = (WIDTH - 2 * MARGIN - GAP) // 2
CHIP_W, CHIP_H = (WIDTH - 2 * MARGIN - 4 * 10) // 5, 60
LINE = 24

Rgb = tuple[int, int, int]


def ink_on(fill: Rgb) -> Rgb:
    red, green, blue = fill
    return DARK if 0.299 * red + 0.587 * green + 0.114 * blue > 140 else (255, 255, 255)


def lighter(fill: Rgb, amount: float = 0.35) -> Rgb:
    red, green, blue = fill
    return (
        int(red + (255 - red) * amount),
        int(green + (255 - green) * amount),
        int(blue + (255 - blue) * amount),
    )


def coalition_places(chamber: Sequence[ChamberPlace]) -> set[int]:
    """The places (1-15) of the largest same-colour group(s) (the scored coalition)."""
    colours = [place.colour for place in chamber]
    seen = [False] * len(colours)
    groups: list[list[int]] = []
    for start, colour in enumerate(colours):
        if seen[start]:
            continue
        seen[start] = True
        stack, group = [start], []
        while stack:
            here = stack.pop()
            group.append(here)
            for there in ADJACENT[here]:
                if there < len(colours) and not seen[there] and colours[there] is colour:
                    seen[there] = True
                    stack.append(there)
        groups.append(group)
    best = max((len(g) for g in groups), default=0)
    if best < 2:
        return set()
    return {index + 1 for g in groups if len(g) == best for index in g}


@dataclass
class Picture:
    view: ConspiracyView
    names: list[str]
    locale: str | None

    def __post_init__(self) -> None:
        players = len(self.view.players)
        names = self.names + [""] * (players - len(self.names))
        self.names = [
            drawable_name(name, t("table.unnamed", self.locale, number=seat + 1))
            for seat, name in enumerate(names)
        ]
        self.over = self.view.stage is Stage.OVER
        self.location_lines = max([1, *(len(p.locations) for p in self.view.players)])

    def text(self, key: str, **args: object) -> str:
        return t(f"conspiracy.picture.{key}", self.locale, **args)

    def key_initial(self, key: Key) -> str:
        return self.text(f"key.{key.value}")

    # --- layout ------------------------------------------------------------------

    def png(self) -> bytes:
        height = self.layout(None)
        image = Image.new("RGB", (WIDTH, height), BACKGROUND)
        self.layout(ImageDraw.Draw(image))
        out = io.BytesIO()
        # An adaptive palette: the picture has few colours, and a palette PNG is a
        # third of the size and quicker to encode than RGB (measured).
        image.quantize(256, method=Image.Quantize.FASTOCTREE).save(out, format="PNG")
        return out.getvalue()

    def layout(self, draw: ImageDraw.ImageDraw | None) -> int:
        """Draws everything (or only measures, with ``draw`` None); the height used."""
        y = MARGIN
        if draw:
            self.header(draw, y)
        y += 50
        if draw:
            self.decks_and_piles(draw, y)
        y += 140 + GAP
        y = self.holding(draw, y)
        y = self.face_up(draw, y)
        columns = 2
        panel_h = self.panel_height()
        for seat in range(len(self.view.players)):
            row, column = divmod(seat, columns)
            if draw:
                x = MARGIN + column * (PANEL_W + GAP)
                self.chamber(draw, x, y + row * (panel_h + GAP), seat)
        rows = (len(self.view.players) + columns - 1) // columns
        return y + rows * (panel_h + GAP) - GAP + MARGIN

    def panel_height(self) -> int:
        return 56 + PYRAMID_H + 10 + LINE + 6 + self.location_lines * LINE + 12

    # --- the shared table ----------------------------------------------------------

    def header(self, draw: ImageDraw.ImageDraw, y: int) -> None:
        view = self.view
        draw.text((MARGIN, y), self.text("title"), font=font(34), fill=GOLD)
        if self.over:
            winners = " & ".join(self.names[seat] for seat in view.winners)
            status = self.text("over_winner", winners=winners) if winners else self.text("over")
        else:
            player = self.names[view.turn]
            key = "final_round" if view.ender is not None else "turn"
            status = self.text(key, turn=view.turn_number, player=player)
        status = self.fit(status, font(26), WIDTH - 2 * MARGIN - 260)
        draw.text((WIDTH - MARGIN, y + 6), status, font=font(26), fill=TEXT, anchor="ra")

    def decks_and_piles(self, draw: ImageDraw.ImageDraw, y: int) -> None:
        view = self.view
        for index, (label, count) in enumerate(
            (
                (self.text("lords_deck"), view.deck_size),
                (self.text("location_deck"), view.location_deck_size),
            )
        ):
            x = MARGIN + index * 122
            draw.rounded_rectangle((x, y, x + 112, y + 140), 10, fill=DECK_FILL, outline=TEXT)
            draw.rounded_rectangle((x + 6, y + 6, x + 106, y + 134), 7, outline=(120, 128, 180))
            draw.text(
                (x + 56, y + 28),
                self.fit(label, font(17), 100),
                font=font(17),
                fill=TEXT,
                anchor="mm",
            )
            draw.text((x + 56, y + 84), str(count), font=font(52), fill=TEXT, anchor="mm")
        x0 = MARGIN + 244
        width = (WIDTH - MARGIN - x0 - 4 * 10) // 5
        for index, colour in enumerate(COLOURS):
            self.pile(draw, x0 + index * (width + 10), y, width, colour, view.piles[colour])

    def pile(
        self,
        draw: ImageDraw.ImageDraw,
        x: int,
        y: int,
        width: int,
        colour: Colour,
        pile: Sequence[LordFace],
    ) -> None:
        fill = FILL[colour]
        ink = ink_on(fill)
        draw.rounded_rectangle((x, y, x + width, y + 140), 10, fill=PANEL, outline=fill, width=2)
        draw.rounded_rectangle((x, y, x + width, y + 38), 10, fill=fill)
        draw.rectangle((x, y + 28, x + width, y + 38), fill=fill)
        initial = t(f"conspiracy.initial.{colour.value}", self.locale)
        name = t(f"conspiracy.colour.{colour.value}", self.locale)
        draw.text((x + 8, y + 19), initial, font=font(26), fill=ink, anchor="lm")
        draw.text(
            (x + 32, y + 21),
            self.fit(name, font(18), width - 70),
            font=font(18),
            fill=ink,
            anchor="lm",
        )
        draw.text((x + width - 8, y + 19), str(len(pile)), font=font(28), fill=ink, anchor="rm")
        if not pile:
            draw.text(
                (x + width // 2, y + 90), self.text("empty"), font=font(20), fill=MUTED, anchor="mm"
            )
            return
        # The whole pile is open: mini cards, the top (most recent) one first.
        mini_w, mini_h, per_row = (width - 8 - 3 * 4) // 4, 30, 4
        for index, lord in enumerate(reversed(pile)):
            row, column = divmod(index, per_row)
            left = x + 4 + column * (mini_w + 4)
            top = y + 44 + row * (mini_h + 4)
            draw.rounded_rectangle(
                (left, top, left + mini_w, top + mini_h),
                5,
                fill=lighter(fill) if index else fill,
                outline=TEXT if index == 0 else None,
                width=2,
            )
            draw.text(
                (left + mini_w // 2, top + mini_h // 2 + 1),
                str(lord.influence),
                font=font(22),
                fill=ink_on(fill),
                anchor="mm",
            )

    def holding(self, draw: ImageDraw.ImageDraw | None, y: int) -> int:
        """What the active player is choosing from: revealed Lords, Lords to place,
        revealed Locations."""
        view = self.view
        strips: list[tuple[str, list[LordFace] | list[LocationId]]] = []
        if view.revealed:
            strips.append((self.text("revealed"), view.revealed))
        elif view.pending:
            strips.append((self.text("to_place"), view.pending))
        if view.revealed_locations:
            strips.append((self.text("revealed_locations"), view.revealed_locations))
        for label, items in strips:
            if draw:
                who = self.names[view.turn]
                draw.text(
                    (MARGIN, y),
                    self.fit(f"{who}: {label}", font(20), WIDTH - 2 * MARGIN),
                    font=font(20),
                    fill=MUTED,
                )
            y += 28
            lords = [item for item in items if isinstance(item, LordFace)]
            places = [item for item in items if isinstance(item, LocationId)]
            per_row = (WIDTH - 2 * MARGIN + 8) // (CARD_W + 8)
            for index, lord in enumerate(lords):
                row, column = divmod(index, per_row)
                if draw:
                    x = MARGIN + column * (CARD_W + 8)
                    top = y + row * (CARD_H + 8)
                    self.card(draw, x, top, lord.colour, lord.influence, None, None)
            for index, location in enumerate(places):
                row, column = divmod(index, 5)
                if draw:
                    x = MARGIN + column * (CHIP_W + 10)
                    self.location_chip(draw, x, y + row * (CHIP_H + 8), location)
            if lords:
                y += (len(lords) + per_row - 1) // per_row * (CARD_H + 8) + GAP - 8
            else:
                y += (len(places) + 4) // 5 * (CHIP_H + 8) + GAP - 8
        return y

    def face_up(self, draw: ImageDraw.ImageDraw | None, y: int) -> int:
        face_up = self.view.face_up
        if draw:
            draw.text((MARGIN, y), self.text("face_up"), font=font(20), fill=MUTED)
            if not face_up:
                draw.text((MARGIN + 230, y), self.text("no_face_up"), font=font(20), fill=MUTED)
        y += 28
        if not face_up:
            return y + 4
        for index, location in enumerate(face_up):
            row, column = divmod(index, 5)
            if draw:
                self.location_chip(
                    draw, MARGIN + column * (CHIP_W + 10), y + row * (CHIP_H + 8), location
                )
        rows = (len(face_up) + 4) // 5
        return y + rows * (CHIP_H + 8) + GAP - 8

    def location_chip(
        self, draw: ImageDraw.ImageDraw, x: int, y: int, location: LocationId
    ) -> None:
        draw.rounded_rectangle(
            (x, y, x + CHIP_W, y + CHIP_H), 8, fill=PARCHMENT, outline=(150, 130, 90), width=2
        )
        number = f"#{LOCATIONS[location].number}"
        draw.text((x + 6, y + CHIP_H // 2), number, font=font(24), fill=PARCHMENT_TEXT, anchor="lm")
        name = t(f"conspiracy.location.{location.value}", self.locale)
        lines = self.wrap(name, font(18), CHIP_W - 62, 2)
        top = y + CHIP_H // 2 - len(lines) * 11
        for index, line in enumerate(lines):
            draw.text((x + 56, top + index * 22), line, font=font(18), fill=PARCHMENT_TEXT)

    # --- chambers ----------------------------------------------------------------------

    def chamber(self, draw: ImageDraw.ImageDraw, x: int, y: int, seat: int) -> None:
        view = self.view
        player = view.players[seat]
        score = view.scores[seat]
        height = self.panel_height()
        active = not self.over and view.turn == seat and not player.removed
        winner = self.over and seat in view.winners
        edge, width = PANEL_EDGE, 1
        if winner:
            edge, width = GOLD, 5
        elif active:
            edge, width = ACCENT, 5
        draw.rounded_rectangle(
            (x, y, x + PANEL_W, y + height), 14, fill=PANEL, outline=edge, width=width
        )
        # Header: name, badge, score.
        points = self.text("points", points=score.total)
        points_w = int(font(30).getlength(points))
        badge = ""
        if winner:
            badge = self.text("winner")
        elif player.removed:
            badge = self.text("removed")
        elif active:
            badge = self.text("to_play")
        badge_w = int(font(16).getlength(badge)) + 16 if badge else 0
        name = self.fit(self.names[seat], font(30), PANEL_W - 40 - points_w - badge_w)
        draw.text((x + 14, y + 10), name, font=font(30), fill=TEXT)
        if badge:
            left = x + 14 + int(font(30).getlength(name)) + 10
            colour = GOLD if winner else (ACCENT if active else (120, 50, 50))
            draw.rounded_rectangle((left, y + 16, left + badge_w, y + 40), 6, fill=colour)
            draw.text(
                (left + badge_w // 2, y + 28),
                badge,
                font=font(16),
                fill=ink_on(colour),
                anchor="mm",
            )
        draw.text(
            (x + PANEL_W - 14, y + 10),
            points,
            font=font(30),
            fill=GOLD if winner else TEXT,
            anchor="ra",
        )
        self.corners(draw, x, y + 56, player)
        self.pyramid(draw, x + (PANEL_W - PYRAMID_W) // 2, y + 56, player, active)
        # Below the pyramid: the score as it stands, then the Locations.
        line_y = y + 56 + PYRAMID_H + 10
        breakdown = self.text(
            "breakdown",
            lords=score.lords_total,
            locations=score.locations_total,
            size=score.coalition_size,
            master=score.pearl_master,
        )
        draw.text(
            (x + 14, line_y), self.fit(breakdown, font(19), PANEL_W - 28), font=font(19), fill=MUTED
        )
        line_y += LINE + 6
        if not score.locations:
            draw.text((x + 14, line_y), self.text("no_locations"), font=font(19), fill=MUTED)
        for index, located in enumerate(score.locations):
            ref = t(
                "conspiracy.location_ref",
                self.locale,
                number=LOCATIONS[located.location].number,
                name=t(f"conspiracy.location.{located.location.value}", self.locale),
            )
            value = str(located.points)
            top = line_y + index * LINE
            draw.text(
                (x + 14, top), self.fit(ref, font(19), PANEL_W - 80), font=font(19), fill=PARCHMENT
            )
            draw.text((x + PANEL_W - 14, top), value, font=font(20), fill=PARCHMENT, anchor="ra")

    def corners(self, draw: ImageDraw.ImageDraw, x: int, y: int, player: PlayerView) -> None:
        """Pearls and keys in the pyramid's top-left corner, Lords and the Pearl
        Master in its top-right corner (the top rows are narrow)."""
        left = x + 16
        draw.text((left, y), self.text("pearls"), font=font(16), fill=MUTED)
        draw.ellipse((left, y + 26, left + 28, y + 54), fill=(245, 245, 250), outline=MUTED)
        draw.ellipse((left + 7, y + 32, left + 13, y + 38), fill=(255, 255, 255))
        draw.text((left + 36, y + 40), str(player.pearls), font=font(36), fill=TEXT, anchor="lm")
        draw.text((left, y + 66), self.text("keys"), font=font(16), fill=MUTED)
        for index, (key, fill, count) in enumerate(
            ((Key.SILVER, SILVER, player.silver), (Key.GOLD, KEY_GOLD, player.gold))
        ):
            cx = left + 12 + index * 56
            draw.ellipse((cx - 12, y + 88, cx + 12, y + 112), fill=fill)
            draw.text((cx, y + 100), self.key_initial(key), font=font(16), fill=DARK, anchor="mm")
            draw.text((cx + 16, y + 100), str(count), font=font(26), fill=TEXT, anchor="lm")
        right = x + PANEL_W - 16
        draw.text((right, y), self.text("lords"), font=font(16), fill=MUTED, anchor="ra")
        draw.text(
            (right, y + 20), f"{len(player.chamber)}/15", font=font(34), fill=TEXT, anchor="ra"
        )
        if player.pearl_master:
            label = self.text("pearl_master")
            width = int(font(16).getlength(label)) + 16
            draw.rounded_rectangle((right - width, y + 88, right, y + 112), 6, fill=GOLD)
            draw.text((right - width // 2, y + 100), label, font=font(16), fill=DARK, anchor="mm")

    def pyramid(
        self, draw: ImageDraw.ImageDraw, left: int, top: int, player: PlayerView, active: bool
    ) -> None:
        view = self.view
        placed = {place.place: place for place in player.chamber}
        group = coalition_places(player.chamber)
        marked: set[int] = set()
        if active and view.swap_first is not None:
            marked.add(view.swap_first)
        if active and view.location_place is not None:
            marked.add(view.location_place)
        for index, (row, half) in enumerate(POSITIONS):
            place = index + 1
            x = left + half * (CARD_W + CARD_GAP) // 2
            y = top + (4 - row) * (CARD_H + CARD_GAP)
            lord = placed.get(place)
            if lord is None:
                draw.rounded_rectangle(
                    (x, y, x + CARD_W, y + CARD_H), 8, fill=EMPTY_FILL, outline=EMPTY_EDGE, width=2
                )
                draw.text(
                    (x + CARD_W // 2, y + CARD_H // 2),
                    str(place),
                    font=font(22),
                    fill=EMPTY_EDGE,
                    anchor="mm",
                )
                continue
            self.card(
                draw,
                x,
                y,
                lord.colour,
                lord.influence,
                lord.key,
                lord.location,
                grouped=place in group,
                marked=place in marked,
            )

    def card(
        self,
        draw: ImageDraw.ImageDraw,
        x: int,
        y: int,
        colour: Colour,
        influence: int,
        key: Key | None,
        location: LocationId | None,
        *,
        grouped: bool = False,
        marked: bool = False,
    ) -> None:
        fill = FILL[colour]
        ink = ink_on(fill)
        outline, width = DARK, 1
        if grouped:
            outline, width = (255, 255, 255), 3
        if marked:
            outline, width = ACCENT, 5
        draw.rounded_rectangle(
            (x, y, x + CARD_W, y + CARD_H), 8, fill=fill, outline=outline, width=width
        )
        initial = t(f"conspiracy.initial.{colour.value}", self.locale)
        draw.text((x + 7, y + 4), initial, font=font(22), fill=ink)
        body = CARD_H - (18 if location else 0)
        draw.text(
            (x + CARD_W // 2 + 4, y + body // 2 + 3),
            str(influence),
            font=font(40),
            fill=ink,
            anchor="mm",
        )
        if key is not None:
            cx, cy = x + CARD_W - 15, y + 15
            key_fill = SILVER if key is Key.SILVER else KEY_GOLD
            draw.ellipse((cx - 11, cy - 11, cx + 11, cy + 11), fill=key_fill, outline=DARK)
            draw.text(
                (cx, cy + 1),
                self.key_initial(key),
                font=font(15),
                fill=DARK,
                anchor="mm",
            )
        if location is not None:
            draw.rounded_rectangle(
                (x + 3, y + CARD_H - 20, x + CARD_W - 3, y + CARD_H - 3), 4, fill=PARCHMENT
            )
            draw.text(
                (x + CARD_W // 2, y + CARD_H - 11),
                f"#{LOCATIONS[location].number}",
                font=font(16),
                fill=PARCHMENT_TEXT,
                anchor="mm",
            )

    # --- text helpers ----------------------------------------------------------------

    @staticmethod
    def fit(text: str, face: Font, width: int) -> str:
        if face.getlength(text) <= width:
            return text
        while text and face.getlength(text + "…") > width:
            text = text[:-1]
        return text.rstrip() + "…"

    def wrap(self, text: str, face: Font, width: int, lines: int) -> list[str]:
        out: list[str] = []
        for word in text.split():
            if out and face.getlength(f"{out[-1]} {word}") <= width:
                out[-1] = f"{out[-1]} {word}"
            else:
                out.append(word)
        if len(out) > lines:
            out = [*out[: lines - 1], " ".join(out[lines - 1 :])]
        return [self.fit(line, face, width) for line in out]


def draw(view: ConspiracyView, names: Sequence[str], locale: str | None = None) -> bytes:
    """The table's PNG from the spectator view and the players' names."""
    return Picture(view, list(names), locale).png()
