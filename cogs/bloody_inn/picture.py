"""The picture of the inn: the Entrance, the bistro and the Exit stack on top,
then the eight rooms (keys, room-service tokens, guests), then every
innkeeper's wealth (track and cheques), annexes (with their buried corpses) and
unburied corpses.

Drawn from the spectator view only (``view(ctx, None)``): no hand, and
nothing under the Entrance's top card. Readable on a phone: 1000 px wide, large
text. Colour is never the only cue: every card prints its type's name or
abbreviation and its rank, every key and token its owner's initial.
Text keeps its accents; what the font cannot draw in a player's name (emoji,
CJK...) is left out (``bot.ui.pictures.drawable_name``).

``draw`` runs in a worker thread (the renderer's ``asyncio.to_thread``): it
shares nothing mutable but a per-thread font cache.
"""

from __future__ import annotations

import io
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from bot.ui.i18n import t
from bot.ui.pictures import drawable_name, font
from games.bloody_inn import BloodyInnView, Card
from games.bloody_inn.cards import DEPOT_CAPACITY, WEALTH_CAP, GuestType, spec
from games.bloody_inn.models import Annex, PlayerView, Room, Stage

WIDTH = 1000
MARGIN = 16
GAP = 10

Rgb = tuple[int, int, int]

BACKGROUND: Rgb = (34, 27, 27)
PANEL: Rgb = (52, 42, 41)
PANEL_EDGE: Rgb = (92, 76, 72)
TEXT: Rgb = (240, 234, 226)
MUTED: Rgb = (170, 160, 150)
DARK: Rgb = (22, 20, 20)
GOLD: Rgb = (240, 190, 60)
BLOOD: Rgb = (200, 30, 40)
CLOSED: Rgb = (40, 36, 36)
EMPTY_EDGE: Rgb = (110, 96, 92)
TRACK: Rgb = (72, 62, 60)
CHEQUE: Rgb = (214, 226, 196)
CORPSE: Rgb = (18, 18, 18)
DEPOT: Rgb = (150, 120, 90)
WHITE: Rgb = (250, 250, 250)

TYPE_FILL: dict[GuestType, Rgb] = {
    # Okabe-Ito hues (told apart by most colour-blind readers), plus the type's name.
    GuestType.MERCHANT: (0, 114, 178),
    GuestType.ARTISAN: (213, 94, 0),
    GuestType.RELIGIOUS: (170, 110, 200),
    GuestType.NOBLE: (0, 158, 115),
    GuestType.POLICE: (140, 140, 140),
    GuestType.PEASANT: (240, 228, 66),
}
TYPE_ORDER = tuple(TYPE_FILL)
PLAYER_FILL: tuple[Rgb, ...] = (
    (230, 159, 0),  # orange
    (86, 180, 233),  # sky blue
    (204, 121, 167),  # pink
    (190, 220, 70),  # lime
)

ROOM_COLUMNS = 4
ROOM_W = (WIDTH - 2 * MARGIN - (ROOM_COLUMNS - 1) * GAP) // ROOM_COLUMNS
ROOM_H = 178
CHIP_W, CHIP_H = 130, 92
CHIP_GAP = 8
CHIPS_PER_ROW = (WIDTH - 2 * MARGIN - 20 + CHIP_GAP) // (CHIP_W + CHIP_GAP)


def initials(names: Sequence[str]) -> list[str]:
    """A short, distinct tag per player: the first letter, two when two players
    share it, else the seat number."""
    firsts = [(name[:1] or "?").upper() for name in names]
    tags = []
    for seat, name in enumerate(names):
        tag = firsts[seat]
        if firsts.count(tag) > 1:
            tag = (name[:1].upper() + name[1:2].lower()) if len(name) > 1 else str(seat + 1)
        tags.append(tag)
    if len(set(tags)) < len(tags):
        tags = [str(seat + 1) for seat in range(len(names))]
    return tags


def ink_on(fill: Rgb) -> Rgb:
    red, green, blue = fill
    return DARK if 0.299 * red + 0.587 * green + 0.114 * blue > 140 else WHITE


def fit(text: str, size: int, width: int) -> str:
    """``text`` cut (with "…") to fit ``width`` pixels at ``size``."""
    face = font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


_palette_lock = threading.Lock()
_palette: list[Image.Image] = []


def palette() -> Image.Image:
    """A fixed 256-colour palette: every colour of the picture and the shades its
    anti-aliased text makes on every background (built once, from a swatch)."""
    with _palette_lock:
        if not _palette:
            backgrounds = [
                BACKGROUND,
                PANEL,
                CLOSED,
                TRACK,
                CORPSE,
                DEPOT,
                CHEQUE,
                GOLD,
                WHITE,
                *TYPE_FILL.values(),
                *PLAYER_FILL,
            ]
            inks = [TEXT, MUTED, DARK, WHITE, GOLD, BLOOD, CHEQUE, PANEL_EDGE, EMPTY_EDGE]
            swatch = Image.new("RGB", (60 * len(inks), 40 * len(backgrounds)))
            pen = ImageDraw.Draw(swatch)
            for row, back in enumerate(backgrounds):
                pen.rectangle((0, row * 40, swatch.width, row * 40 + 40), fill=back)
                for column, ink in enumerate(inks):
                    pen.text((column * 60 + 2, row * 40 + 4), "Ag8", font=font(24), fill=ink)
                    pen.line(
                        (column * 60 + 44, row * 40 + 4, column * 60 + 58, row * 40 + 36),
                        fill=ink,
                        width=3,
                    )
            _palette.append(swatch.quantize(256, method=Image.Quantize.FASTOCTREE))
        return _palette[0]


@dataclass
class Picture:
    view: BloodyInnView
    names: list[str]
    locale: str | None = None
    tags: list[str] = field(init=False)

    def __post_init__(self) -> None:
        players = len(self.view.players)
        names = self.names[:players] + [""] * (players - len(self.names))
        self.names = [
            drawable_name(name, t("table.unnamed", self.locale, number=seat + 1))
            for seat, name in enumerate(names)
        ]
        self.tags = initials(self.names)
        pending = self.view.pending
        self.targets = set(pending.rooms) if pending is not None else set()

    def text(self, key: str, **args: object) -> str:
        return t(f"bloody_inn.pic.{key}", self.locale, **args)

    def type_word(self, kind: GuestType, short: bool = False) -> str:
        return self.text(f"abbr.{kind.value}") if short else self.text(f"type.{kind.value}")

    def card_word(self, card: Card) -> str:
        return t(f"bloody_inn.card.{card.value}", self.locale)

    # --- the whole picture ----------------------------------------------------------

    def png(self) -> bytes:
        height = self.layout(None)
        image = Image.new("RGB", (WIDTH, height), BACKGROUND)
        self.layout(ImageDraw.Draw(image))
        out = io.BytesIO()
        # Few colours: a palette PNG is smaller and quicker to encode than RGB, and
        # mapping to a fixed palette is ten times quicker than an adaptive one.
        image.quantize(palette=palette(), dither=Image.Dither.NONE).save(
            out, format="PNG", compress_level=3
        )
        return out.getvalue()

    def layout(self, draw: ImageDraw.ImageDraw | None) -> int:
        """Draws everything (or only measures, with ``draw`` None); the height used."""
        y = MARGIN
        if draw:
            self.header(draw, y)
        y += 74
        if draw:
            self.stacks(draw, y)
        y += 112 + GAP
        for index, room in enumerate(self.view.rooms):
            row, column = divmod(index, ROOM_COLUMNS)
            if draw:
                x = MARGIN + column * (ROOM_W + GAP)
                self.room(draw, x, y + row * (ROOM_H + GAP), index + 1, room)
        rows = (len(self.view.rooms) + ROOM_COLUMNS - 1) // ROOM_COLUMNS
        y += rows * (ROOM_H + GAP) + 4
        for player in self.view.players:
            y = self.player(draw, y, player) + GAP
        if draw:
            self.legend(draw, y)
        return y + 30 + MARGIN

    # --- header and stacks --------------------------------------------------------------

    def header(self, draw: ImageDraw.ImageDraw, y: int) -> None:
        view = self.view
        draw.text((MARGIN, y), self.text("title"), font=font(36), fill=BLOOD)
        status = self.text("round", round=view.round, season=view.season)
        if view.final_round and view.stage is not Stage.OVER:
            status += "  " + self.text("final_round")
        draw.text((WIDTH - MARGIN, y + 2), status, font=font(26), fill=GOLD, anchor="ra")
        draw.text(
            (WIDTH - MARGIN, y + 36),
            fit(self.phase(), 22, WIDTH - 2 * MARGIN - 320),
            font=font(22),
            fill=TEXT,
            anchor="ra",
        )

    def phase(self) -> str:
        view = self.view
        stage = view.stage
        if stage is Stage.OVER:
            if view.solo_lost:
                return self.text("solo_lost")
            winners = " & ".join(self.names[s] for s in view.winners or [])
            return self.text("winner", names=winners) if winners else self.text("over")
        who = self.names[view.awaiting[0]] if view.awaiting else ""
        if stage is Stage.WELCOME:
            return self.text("evening", player=who)
        if stage is Stage.DISMISS:
            return self.text("morning", player=who)
        if stage is Stage.UNDERTAKER:
            return self.text("undertaker", player=who)
        nth = view.action_round or 1
        pending = view.pending
        if pending is not None:
            action = self.text(f"action.{pending.action.value}")
            return self.text("night_action", player=who, nth=nth, action=action)
        return self.text("night", player=who, nth=nth)

    def stacks(self, draw: ImageDraw.ImageDraw, y: int) -> None:
        view = self.view
        h = 112
        # Entrance: its size and its (public) top card.
        x, w = MARGIN, 250
        self.box(draw, x, y, w, h)
        draw.text((x + 12, y + 8), self.text("entrance"), font=font(20), fill=MUTED)
        draw.text((x + 12, y + 34), str(view.entrance_size), font=font(44), fill=TEXT)
        if view.entrance_top is not None:
            self.mini_card(draw, x + 100, y + 30, 138, view.entrance_top, self.text("top"))
        # The traveller being welcomed (Evening).
        x += w + GAP
        w = 190
        self.box(draw, x, y, w, h)
        draw.text((x + 12, y + 8), self.text("arriving"), font=font(20), fill=MUTED)
        if view.drawn is not None:
            self.mini_card(draw, x + 12, y + 34, w - 24, view.drawn, None)
        else:
            draw.text((x + 12, y + 44), "-", font=font(30), fill=MUTED)
        # The bistro's peasants.
        x += w + GAP
        w = 170
        self.box(draw, x, y, w, h)
        draw.text((x + 12, y + 8), self.text("bistro"), font=font(20), fill=MUTED)
        draw.text((x + 12, y + 34), str(view.bistro), font=font(44), fill=TEXT)
        draw.text((x + 70, y + 52), self.text("peasants"), font=font(20), fill=TEXT)
        for i in range(min(view.bistro, 8)):
            cx = x + 20 + i * 18
            draw.ellipse((cx - 7, y + 88, cx + 7, y + 102), fill=TYPE_FILL[GuestType.PEASANT])
        # The Exit stack, counted by colour (with the type's abbreviation).
        x += w + GAP
        w = WIDTH - MARGIN - x
        self.box(draw, x, y, w, h)
        draw.text(
            (x + 12, y + 8),
            self.text("exit", count=len(view.exit)),
            font=font(20),
            fill=MUTED,
        )
        counts = Counter(spec(card).type for card in view.exit)
        cell_w = (w - 24) // 3
        for i, kind in enumerate(TYPE_ORDER):
            row, column = divmod(i, 3)
            cx, cy = x + 12 + column * cell_w, y + 38 + row * 36
            fill = TYPE_FILL[kind]
            draw.rounded_rectangle((cx, cy, cx + 50, cy + 30), radius=5, fill=fill)
            draw.text(
                (cx + 25, cy + 15),
                self.type_word(kind, short=True),
                font=font(16),
                fill=ink_on(fill),
                anchor="mm",
            )
            draw.text((cx + 58, cy + 15), str(counts[kind]), font=font(24), fill=TEXT, anchor="lm")

    def mini_card(
        self, draw: ImageDraw.ImageDraw, x: int, y: int, w: int, card: Card, note: str | None
    ) -> None:
        data = spec(card)
        fill = TYPE_FILL[data.type]
        ink = ink_on(fill)
        draw.rounded_rectangle((x, y, x + w, y + 72), radius=8, fill=fill, outline=DARK)
        head = self.type_word(data.type, short=True) + (f"  {note}" if note else "")
        draw.text((x + 8, y + 5), fit(head, 16, w - 40), font=font(16), fill=ink)
        draw.text((x + w - 8, y + 3), str(data.rank), font=font(26), fill=ink, anchor="ra")
        draw.text((x + 8, y + 34), fit(self.card_word(card), 20, w - 14), font=font(20), fill=ink)

    @staticmethod
    def box(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int) -> None:
        draw.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=PANEL, outline=PANEL_EDGE)

    # --- rooms -------------------------------------------------------------------------

    def room(self, draw: ImageDraw.ImageDraw, x: int, y: int, number: int, room: Room) -> None:
        if not room.open:
            draw.rounded_rectangle(
                (x, y, x + ROOM_W, y + ROOM_H), radius=10, fill=CLOSED, outline=PANEL_EDGE
            )
            draw.text((x + 12, y + 10), self.text("room", room=number), font=font(22), fill=MUTED)
            draw.text(
                (x + ROOM_W // 2, y + ROOM_H // 2 + 10),
                self.text("closed"),
                font=font(22),
                fill=MUTED,
                anchor="mm",
            )
            return
        self.box(draw, x, y, ROOM_W, ROOM_H)
        draw.text((x + 12, y + 10), self.text("room", room=number), font=font(24), fill=TEXT)
        # The key: the owner's colour and initial, or a white key.
        kx, ky = x + ROOM_W - 28, y + 24
        if room.owner is None:
            draw.ellipse((kx - 17, ky - 17, kx + 17, ky + 17), fill=WHITE, outline=DARK, width=2)
            draw.text((kx, ky), "-", font=font(20), fill=DARK, anchor="mm")
            key_text = self.text("white_key")
        else:
            self.badge(draw, kx, ky, room.owner, 17)
            key_text = self.text("key_of", player=self.names[room.owner])
        draw.text((x + 12, y + 42), fit(key_text, 17, ROOM_W - 24), font=font(17), fill=MUTED)
        if room.service is not None:
            sx, sy = x + ROOM_W - 28, y + 60
            fill = PLAYER_FILL[room.service % len(PLAYER_FILL)]
            draw.rectangle((sx - 14, sy - 10, sx + 14, sy + 10), fill=fill, outline=DARK)
            draw.text(
                (sx, sy), self.tags[room.service][:2], font=font(16), fill=ink_on(fill), anchor="mm"
            )
            draw.text(
                (x + 12, y + 62),
                fit(self.text("service_of", player=self.names[room.service]), 17, ROOM_W - 60),
                font=font(17),
                fill=GOLD,
            )
        cy = y + 88
        if room.guest is None:
            draw.rounded_rectangle(
                (x + 10, cy, x + ROOM_W - 10, y + ROOM_H - 10),
                radius=8,
                outline=EMPTY_EDGE,
                width=2,
            )
            draw.text(
                (x + ROOM_W // 2, (cy + y + ROOM_H - 10) // 2),
                self.text("empty"),
                font=font(20),
                fill=MUTED,
                anchor="mm",
            )
            return
        data = spec(room.guest)
        fill = TYPE_FILL[data.type]
        ink = ink_on(fill)
        target = number in self.targets
        draw.rounded_rectangle(
            (x + 10, cy, x + ROOM_W - 10, y + ROOM_H - 10),
            radius=8,
            fill=fill,
            outline=BLOOD if target else DARK,
            width=5 if target else 1,
        )
        draw.text((x + 20, cy + 6), self.type_word(data.type), font=font(17), fill=ink)
        draw.text((x + ROOM_W - 20, cy + 2), str(data.rank), font=font(34), fill=ink, anchor="ra")
        name = fit(self.card_word(room.guest), 24, ROOM_W - 40)
        draw.text((x + 20, cy + 42), name, font=font(24), fill=ink)
        if target:
            label = self.text("target")
            draw.rectangle(
                (x + 10, cy - 14, x + 18 + font(16).getlength(label) + 8, cy + 6), fill=BLOOD
            )
            draw.text((x + 18, cy - 12), label, font=font(16), fill=WHITE)

    def badge(self, draw: ImageDraw.ImageDraw, cx: int, cy: int, seat: int, r: int) -> None:
        fill = PLAYER_FILL[seat % len(PLAYER_FILL)]
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=DARK, width=2)
        draw.text((cx, cy), self.tags[seat][:2], font=font(r + 3), fill=ink_on(fill), anchor="mm")

    # --- innkeepers ------------------------------------------------------------------------

    def chips(self, player: PlayerView) -> int:
        return len(player.annexes) + len(player.corpses)

    def player(self, draw: ImageDraw.ImageDraw | None, y: int, player: PlayerView) -> int:
        """One innkeeper's panel; returns its bottom."""
        rows = max(1, (self.chips(player) + CHIPS_PER_ROW - 1) // CHIPS_PER_ROW)
        h = 104 + rows * (CHIP_H + CHIP_GAP) + 4
        if draw is None:
            return y + h
        view = self.view
        seat = player.seat
        x = MARGIN
        edge = GOLD if seat in view.awaiting else PANEL_EDGE
        draw.rounded_rectangle(
            (x, y, WIDTH - MARGIN, y + h), radius=12, fill=PANEL, outline=edge, width=3
        )
        self.badge(draw, x + 30, y + 28, seat, 18)
        name = self.names[seat]
        draw.text((x + 58, y + 12), fit(name, 28, 330), font=font(28), fill=TEXT)
        notes = [self.text("hand", count=player.hand_size)]
        if view.first_player == seat and view.stage is not Stage.OVER:
            notes.append(self.text("first_player"))
        if not player.active:
            notes.append(self.text("removed"))
        draw.text((x + 58, y + 46), "  |  ".join(notes), font=font(18), fill=MUTED)
        total = player.money + 10 * player.cheques
        draw.text(
            (WIDTH - MARGIN - 14, y + 8),
            self.text("total", total=total),
            font=font(30),
            fill=GOLD,
            anchor="ra",
        )
        self.wealth(draw, x + 420, y + 50, player)
        cy = y + 100
        chips: list[tuple[Annex | None, Card | None]] = [(a, None) for a in player.annexes]
        chips += [(None, c) for c in player.corpses]
        for index, (annex, corpse) in enumerate(chips):
            row, column = divmod(index, CHIPS_PER_ROW)
            cx = x + 14 + column * (CHIP_W + CHIP_GAP)
            chip_y = cy + row * (CHIP_H + CHIP_GAP)
            if annex is not None:
                self.annex_chip(draw, cx, chip_y, annex)
            elif corpse is not None:
                self.corpse_chip(draw, cx, chip_y, corpse)
        return y + h

    def wealth(self, draw: ImageDraw.ImageDraw, x: int, y: int, player: PlayerView) -> None:
        """The 0-40 F track (filled to the money, ticks every 5 F) and the cheques."""
        w, h = 300, 26
        draw.rounded_rectangle((x, y, x + w, y + h), radius=6, fill=TRACK)
        filled = int(w * min(player.money, WEALTH_CAP) / WEALTH_CAP)
        if filled:
            draw.rounded_rectangle((x, y, x + filled, y + h), radius=6, fill=GOLD)
        for tick in range(5, WEALTH_CAP, 5):
            tx = x + w * tick // WEALTH_CAP
            draw.line((tx, y + h - 7, tx, y + h), fill=DARK, width=2)
        draw.text(
            (x + w + 10, y + h // 2),
            self.text("money", money=player.money),
            font=font(24),
            fill=TEXT,
            anchor="lm",
        )
        # Cheques: one slip each (at most eight drawn, then the count).
        cx = x
        cy = y - 34
        shown = min(player.cheques, 6)
        for _ in range(shown):
            draw.rectangle((cx, cy, cx + 34, cy + 24), fill=CHEQUE, outline=DARK)
            draw.text((cx + 17, cy + 12), "10", font=font(16), fill=DARK, anchor="mm")
            cx += 38
        label = self.text("cheques", count=player.cheques)
        draw.text((cx + 4, cy + 12), label, font=font(18), fill=CHEQUE, anchor="lm")

    def annex_chip(self, draw: ImageDraw.ImageDraw, x: int, y: int, annex: Annex) -> None:
        if annex.card is None:
            fill, capacity = DEPOT, DEPOT_CAPACITY
            head, name = self.text("depot_head"), self.text("depot")
        else:
            data = spec(annex.card)
            fill, capacity = TYPE_FILL[data.type], data.capacity
            head = self.type_word(data.type, short=True)
            name = t(f"bloody_inn.annex.{data.annex}", self.locale)
        ink = ink_on(fill)
        draw.rounded_rectangle((x, y, x + CHIP_W, y + CHIP_H), radius=8, fill=fill, outline=DARK)
        draw.text((x + 8, y + 4), head, font=font(15), fill=ink)
        draw.text(
            (x + CHIP_W - 8, y + 4),
            f"{len(annex.corpses)}/{capacity}",
            font=font(16),
            fill=ink,
            anchor="ra",
        )
        self.wrapped(draw, x + 8, y + 24, CHIP_W - 14, name, 17, ink, lines=2)
        # The corpses buried here: a dark slot each, with the corpse's rank.
        for i in range(capacity):
            sx = x + 8 + i * 30
            sy = y + CHIP_H - 26
            if i < len(annex.corpses):
                # A buried corpse: a dark slot crossed in red.
                draw.rectangle((sx, sy, sx + 26, sy + 20), fill=CORPSE, outline=DARK)
                draw.line((sx + 6, sy + 4, sx + 20, sy + 16), fill=BLOOD, width=3)
                draw.line((sx + 20, sy + 4, sx + 6, sy + 16), fill=BLOOD, width=3)
            else:
                draw.rectangle((sx, sy, sx + 26, sy + 20), outline=ink, width=1)

    def corpse_chip(self, draw: ImageDraw.ImageDraw, x: int, y: int, card: Card) -> None:
        data = spec(card)
        draw.rounded_rectangle(
            (x, y, x + CHIP_W, y + CHIP_H), radius=8, fill=CORPSE, outline=BLOOD, width=3
        )
        # A cross over the corner says "dead" without relying on colour.
        draw.line((x + 8, y + 8, x + 26, y + 26), fill=BLOOD, width=4)
        draw.line((x + 26, y + 8, x + 8, y + 26), fill=BLOOD, width=4)
        label, room = self.text("corpse"), CHIP_W - 34 - 26  # clear of the rank
        size = 16 if font(16).getlength(label) <= room else 13
        draw.text((x + 34, y + 6 + 16 - size), fit(label, size, room), font=font(size), fill=WHITE)
        draw.text((x + CHIP_W - 8, y + 4), str(data.rank), font=font(24), fill=WHITE, anchor="ra")
        fill = TYPE_FILL[data.type]
        draw.rectangle((x + 8, y + 34, x + 44, y + 54), fill=fill)
        draw.text(
            (x + 26, y + 44),
            self.type_word(data.type, short=True),
            font=font(13),
            fill=ink_on(fill),
            anchor="mm",
        )
        draw.text(
            (x + 8, y + 62), fit(self.card_word(card), 17, CHIP_W - 14), font=font(17), fill=WHITE
        )

    def wrapped(
        self,
        draw: ImageDraw.ImageDraw,
        x: int,
        y: int,
        width: int,
        text: str,
        size: int,
        fill: Rgb,
        *,
        lines: int,
    ) -> None:
        words = text.split()
        rows: list[str] = []
        face = font(size)
        while words and len(rows) < lines:
            row = words.pop(0)
            while words and face.getlength(f"{row} {words[0]}") <= width:
                row = f"{row} {words.pop(0)}"
            rows.append(row)
        if words and rows:
            rows[-1] = fit(rows[-1] + " " + " ".join(words), size, width)
        for i, row in enumerate(rows):
            draw.text((x, y + i * (size + 2)), fit(row, size, width), font=face, fill=fill)

    def legend(self, draw: ImageDraw.ImageDraw, y: int) -> None:
        parts = [
            f"{self.type_word(kind, short=True)} = {self.type_word(kind)}" for kind in TYPE_ORDER
        ]
        parts.append(self.text("rank_legend"))
        draw.text(
            (MARGIN, y + 4),
            fit("   ".join(parts), 16, WIDTH - 2 * MARGIN),
            font=font(16),
            fill=MUTED,
        )


def draw(view: BloodyInnView, names: list[str], locale: str | None = None) -> bytes:
    """The PNG of the inn seen by a spectator (``view`` must be the spectator's)."""
    return Picture(view, list(names), locale).png()
