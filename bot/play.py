"""Play a game in the terminal against computer players, in the bot's words.

    python -m bot.play complots --players 4                 # you are seat 1
    python -m bot.play mascarade --players 6 --watch --lang it
    python -m bot.play bloody_inn --players 2 --level easy --seed 7 --lang fr

The game reads as it does on Discord: the lines the channel gets, what the bot
tells you alone, your hand, the table message and your choices (the labels of
the buttons and menus you would click there), numbered. Every word comes from
the games' presenters and the catalogues (``--lang en|it|fr``), with Discord's
markdown turned into plain text. ``python -m games play`` plays the same game
from the same seed as raw data (views and events), for debugging the rules:
``games`` cannot import the bot's words, so the two front ends share the loop
(``games.terminal``) and differ in how the game reads.

The presenters show a table (``TableContext``): here it lives in memory only,
and its seats are named "You" and "Computer 2", ... (numbered from 1, as the bot
numbers seats).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import import_module
from itertools import groupby
from typing import TextIO

import discord

from bot.app import game_extension
from bot.storage.models import SeatRecord, TableRecord, TableStatus, Timeouts
from bot.tables import Snapshot
from bot.ui.codec import encode
from bot.ui.components import GameButton, GameSelect
from bot.ui.i18n import DEFAULT_LOCALE, LANGUAGES, t
from bot.ui.presenter import AnyPresenter, Item, Panel, TableContext
from games.ai import Level
from games.base import Choice, Event, GameState, Result, Seat
from games.entry import AnyGame
from games.terminal import Terminal, add_game_arguments, setup_from

TABLE_ID = 1
PERSON_ID = 1
"""The person's user id; computers have negative ones, as at the bot's tables."""
PANEL = "ui.panel."
SHOW_AGAIN = "v"

# --- Discord markdown as terminal text ------------------------------------------------------

_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
_STRIKE = re.compile(r"~~(.+?)~~")
_SPOILER = re.compile(r"\|\|(.+?)\|\|")
_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|(?<!\w)_(?!\s)(.+?)(?<!\s)_(?!\w)")
_CODE = re.compile(r"`([^`]+)`")
_TIMESTAMP = re.compile(r"<t:-?\d+(?::[tTdDfFR])?>")
_LINE_START = re.compile(r"^(?:#{1,3} |-# |>>> |> )")
_DANGLING_DOT = re.compile(r"\s+·\s*$")
"""What an empty countdown leaves at the end of a line (``... · {when}``)."""
STRUCK = "\u0336"
"""Combining long stroke overlay: struck-through text without markup."""


def plain_text(markdown: str) -> str:
    """Discord message text as a terminal shows it: no markup (bold and italics
    dropped, struck-through text struck with a combining stroke), escapes undone,
    code blocks kept as they are, timestamps dropped."""
    blocks = markdown.split("```")
    lines: list[str] = []
    for number, block in enumerate(blocks):
        block_lines = block.strip("\n").splitlines()
        if number % 2:  # inside a code block: verbatim
            lines.extend(block_lines)
        else:
            lines.extend(_plain_line(line) for line in block_lines)
    return "\n".join(lines)


def _plain_line(line: str) -> str:
    escaped: list[str] = []

    def hide(match: re.Match[str]) -> str:
        escaped.append(match[1])
        return f"\uffff{len(escaped) - 1}\ufffe"

    text = _ESCAPED.sub(hide, line)
    text = _TIMESTAMP.sub("", text)
    text = _LINE_START.sub("", text)
    text = _CODE.sub(r"\1", text)
    text = _STRIKE.sub(lambda m: "".join(ch + STRUCK for ch in m[1]), text)
    text = _SPOILER.sub(r"\1", text)
    text = _BOLD.sub(lambda m: m[1] or m[2], text)
    text = _ITALIC.sub(lambda m: m[1] or m[2], text)
    text = _DANGLING_DOT.sub("", text).rstrip()
    return re.sub("\uffff(\\d+)\ufffe", lambda m: escaped[int(m[1])], text)


# --- the table the presenters show ------------------------------------------------------------


def presenter_of(game: AnyGame) -> AnyPresenter:
    """The game's presenter, from its cog (as the bot loads it)."""
    presenter: AnyPresenter = import_module(game_extension(game.name)).PRESENTER
    return presenter


def seat_names(players: int, me: Seat | None, locale: str, my_name: str | None = None) -> list[str]:
    """The seats' names: the person's own (default "Player <seat number>": the
    lines speak of each seat in the third person), the others' "Computer <seat
    number>"."""
    return [
        (my_name or t("table.unnamed", locale, number=seat + 1))
        if seat == me
        else t("terminal.computer", locale, number=seat + 1)
        for seat in range(players)
    ]


def snapshot_of(
    game: AnyGame,
    state: GameState,
    names: Sequence[str],
    *,
    me: Seat | None,
    level: str,
    seed: int,
    locale: str,
) -> Snapshot:
    """A running table in memory holding ``state``."""
    now = time.time()
    table = TableRecord(
        id=TABLE_ID,
        guild_id=0,
        channel_id=0,
        game=game.name,
        status=TableStatus.RUNNING,
        creator_id=PERSON_ID,
        options_json=game.options_model().model_dump_json(),
        timeouts=Timeouts(turn=0, reaction=0, choice=0),
        seed=seed,
        created_at=now,
        updated_at=now,
        takeover=False,
        language=locale,
    )
    seats = [
        SeatRecord(
            table_id=TABLE_ID,
            seat=seat,
            user_id=PERSON_ID if seat == me else -(seat + 1),
            name=name,
            computer=None if seat == me else level,
            locale=locale,
        )
        for seat, name in enumerate(names)
    ]
    return Snapshot(table=table, seats=seats, state=state, version=state.step)


# --- the person's choices, as the bot offers them -----------------------------------------------


@dataclass
class Menu:
    """The choices the person is offered, in the order the bot shows them, each with
    the words of the button or menu option it would click, and the question asked."""

    question: str
    choices: list[Choice]
    labels: list[str]


@dataclass
class _Label:
    text: str
    panel: int | None
    """The panel holding it (an index in ``_Walk.panels``); None: the table message."""
    from_menu: bool
    """A menu option's words (with its help) read better than a button's short label."""


@dataclass
class _Walk:
    """What the person can reach from the table message and its hand: each choice's
    label (by its code), and the panels opened on the way, with the label of the
    button that opened each."""

    labels: dict[str, _Label] = field(default_factory=dict)
    panels: list[tuple[str, Panel]] = field(default_factory=list)
    opened: set[str] = field(default_factory=set)

    def add(self, code: str, label: _Label) -> None:
        known = self.labels.get(code)
        if known is None or (label.from_menu and not known.from_menu):
            self.labels[code] = label


def menu_of(presenter: AnyPresenter, ctx: TableContext, seat: Seat) -> Menu:
    """The seat's open prompt as its buttons and menus read. A choice in a panel that
    holds only some of the choices is named with the button opening that panel;
    the question is the one of My hand, else of the panel holding every choice."""
    view = presenter.view(ctx, seat)
    assert view.prompt is not None, "the seat is asked something"
    hand = presenter.hand(ctx, seat)
    walk = _Walk()
    _visit(presenter, ctx, seat, presenter.table_items(ctx), None, walk)
    _visit(presenter, ctx, seat, hand.items, None, walk)
    offered = {encode(choice): choice for choice in view.prompt.choices}
    labels = {code: walk.labels.get(code) for code in offered}
    codes = [code for code in walk.labels if code in offered]
    codes += [code for code in offered if code not in walk.labels]  # never, tests show
    panels = {label.panel if label else None for label in labels.values()}
    words = [_words(labels[code], code, walk, prefixed=len(panels) > 1) for code in codes]
    question = hand.content
    if not question and len(panels) == 1 and (only := panels.pop()) is not None:
        question = walk.panels[only][1].content
    return Menu(question, [offered[code] for code in codes], words)


def _visit(
    presenter: AnyPresenter,
    ctx: TableContext,
    seat: Seat,
    items: Sequence[Item],
    panel: int | None,
    walk: _Walk,
) -> None:
    for item in items:
        if isinstance(item, GameSelect):
            for option in item.item.options:
                walk.add(option.value, _Label(_option_words(option), panel, from_menu=True))
        elif isinstance(item, GameButton) and item.code.startswith(PANEL):
            code = item.code.removeprefix(PANEL)
            if code not in walk.opened:
                walk.opened.add(code)
                opened = presenter.panel(ctx, seat, code)
                walk.panels.append((_button_words(item), opened))
                _visit(presenter, ctx, seat, opened.items, len(walk.panels) - 1, walk)
        elif isinstance(item, GameButton) and not item.code.startswith("ui."):
            walk.add(item.code, _Label(_button_words(item), panel, from_menu=False))


def _button_words(button: GameButton) -> str:
    label = button.item.label or ""
    return f"{button.item.emoji} {label}" if button.item.emoji else label


def _option_words(option: discord.SelectOption) -> str:
    words = f"{option.emoji} {option.label}" if option.emoji else option.label
    return f"{words} — {option.description}" if option.description else words


def _words(label: _Label | None, code: str, walk: _Walk, *, prefixed: bool) -> str:
    if label is None:
        return code
    if prefixed and label.panel is not None:
        return plain_text(f"{walk.panels[label.panel][0]} → {label.text}")
    return plain_text(label.text)


# --- the game in sentences -----------------------------------------------------------------------


class SentenceTerminal(Terminal):
    """The game as the bot tells it (see the module's docstring)."""

    def __init__(
        self,
        game: AnyGame,
        players: int,
        *,
        me: Seat | None,
        level: Level,
        seed: int,
        out: TextIO,
        into: TextIO,
        locale: str = DEFAULT_LOCALE,
        my_name: str | None = None,
    ) -> None:
        super().__init__(game, players, me=me, level=level, seed=seed, out=out, into=into)
        self.locale = locale
        self.presenter = presenter_of(game)
        self.names = seat_names(players, self.me, locale, my_name)
        self.table_shown = False
        """Whether the table was shown since a computer last moved."""

    @property
    def ctx(self) -> TableContext:
        """The table as it is now."""
        snapshot = snapshot_of(
            self.game,
            self.state,
            self.names,
            me=self.me,
            level=self.policy.level.value,
            seed=self.seed,
            locale=self.locale,
        )
        return TableContext(snapshot, self.locale)

    def tell(self, markdown: str, indent: str = "") -> None:
        for line in plain_text(markdown).splitlines():
            self.say(f"{indent}{line}" if line.strip() else "")

    def opening(self) -> None:
        count = self.state.seats
        title = self.presenter.title(self.locale)
        self.say(t("terminal.opening", self.locale, game=title, count=count, seed=self.seed))
        ctx = self.ctx
        seats = " · ".join(
            f"{seat + 1}. {ctx.plain_name(seat)}"
            + (f" ({t('terminal.you', self.locale)})" if seat == self.me else "")
            for seat in range(count)
        )
        self.say(t("terminal.seats", self.locale, seats=seats))
        if self.me is not None:
            self.show_hand()

    def moved(self, seat: Seat, choice: Choice, events: list[Event]) -> None:
        """The channel's lines, and what the person alone learnt (🔒), in the order
        it happened."""
        ctx = self.ctx
        for public, run in groupby(events, key=lambda event: event.public):
            if public:
                for line in self.presenter.event_lines(ctx, list(run)):
                    self.tell(line, "  · ")
            elif self.me is not None:
                for line in self.presenter.private_texts(ctx, self.me, list(run)):
                    self.tell(line, "  🔒 ")
        if seat != self.me:
            self.table_shown = False

    def ask(self) -> Choice | None:
        """The person's choice by number: the table (when others moved since it was
        shown), its hand, the question and the labels of the buttons it would click."""
        assert self.me is not None
        menu = menu_of(self.presenter, self.ctx, self.me)
        if not self.table_shown:
            self.show_table()
        self.show_hand()
        while True:
            if menu.question:
                self.tell(menu.question)
            self.say(t("terminal.choices", self.locale))
            for number, label in enumerate(menu.labels, start=1):
                self.tell(label, f"  {number}. ")
            answer = self.read_answer(t("terminal.ask", self.locale))
            if answer is None:
                return None
            if answer.isdigit() and 1 <= int(answer) <= len(menu.choices):
                return menu.choices[int(answer) - 1]
            if answer == SHOW_AGAIN:
                self.show_table()
                self.show_hand()
            else:
                self.say(t("terminal.retry", self.locale, count=len(menu.choices)))

    def show_table(self) -> None:
        """The table message: its text and fields."""
        body = self.presenter.table_body(self.ctx)
        self.table_shown = True
        self.say()
        self.say(f"=== {self.presenter.title(self.locale)} ===")
        self.tell(body.description)
        for item in body.fields:
            self.show_field(item.name, item.value)
        footer = body.footer or t("table.footer", self.locale, table=TABLE_ID)
        self.tell(footer)

    def show_hand(self) -> None:
        """What the person alone sees (the My hand panel, without its buttons)."""
        assert self.me is not None
        embed = self.presenter.hand(self.ctx, self.me).embed
        if embed is None:
            return
        self.say()
        self.say(t("terminal.hand", self.locale))
        self.tell(embed.description or "", "  ")
        for embed_field in embed.fields:
            self.show_field(embed_field.name or "", embed_field.value or "", "  ")
        if embed.footer.text:
            self.tell(embed.footer.text, "  ")

    def show_field(self, name: str, value: str, indent: str = "") -> None:
        lines = plain_text(value).splitlines()
        if name.strip("\u200b") and len(lines) == 1:
            field = t("terminal.field", self.locale, name=plain_text(name), value=lines[0])
            self.say(f"{indent}{field}")
            return
        if name.strip("\u200b"):
            heading = t("terminal.field", self.locale, name=plain_text(name), value="")
            self.say(f"{indent}{heading.rstrip()}")
        for line in lines:
            self.say(f"{indent}  {line}" if line.strip() else "")

    def game_over(self, result: Result) -> None:
        self.show_table()
        ctx = self.ctx
        winners = ", ".join(ctx.plain_name(seat) for seat in result.winners)
        if winners:
            line = t("terminal.winners", self.locale, winners=winners, count=len(result.winners))
        else:
            line = t("terminal.nobody", self.locale)
        self.say(line)

    def goodbye(self) -> None:
        self.say(t("terminal.bye", self.locale))


def main(
    argv: list[str] | None = None, *, out: TextIO = sys.stdout, into: TextIO = sys.stdin
) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.play", description=__doc__.splitlines()[0])
    add_game_arguments(parser)
    parser.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LOCALE, help="language")
    parser.add_argument("--name", help='your name in the lines (default: "Player <seat>")')
    args = parser.parse_args(argv)
    setup = setup_from(parser, args)
    terminal = SentenceTerminal(
        setup.game,
        setup.players,
        locale=args.lang,
        my_name=args.name,
        me=setup.me,
        level=setup.level,
        seed=setup.seed,
        out=out,
        into=into,
    )
    return terminal.play()


if __name__ == "__main__":
    sys.exit(main())
