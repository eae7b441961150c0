"""Every game reads right in every language: seeded random playouts of each game at
each table size, rendered in English, Italian and French at many points (the table
message, every seat's hand, the panels, event and private lines, the end, the
lobby), checked for missing texts and leftover placeholders, Discord's limits
(nothing cut), English game terms left in Italian or French, cards with the wrong
article, French spacing, and counts that agree with their noun."""

from __future__ import annotations

import ast
import logging
import random
import re
import string
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from importlib import import_module
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app import game_extension
from bot.storage.models import PlayerResult
from bot.ui import i18n
from bot.ui.i18n import Plural, Text, english_strings, t, translations
from bot.ui.limits import (
    BUTTON_LABEL,
    CONTENT,
    ELLIPSIS,
    EMBED_DESCRIPTION,
    EMBED_TITLE,
    FIELD_VALUE,
    OPTION_DESCRIPTION,
    OPTION_LABEL,
    PLACEHOLDER,
)
from bot.ui.presenter import (
    AnyPresenter,
    Panel,
    TableContext,
    finished_items,
    hand_button,
    lobby_embed,
    lobby_items,
)
from bot.ui.standings import stats_embed
from cogs.mascarade.characters import parse_characters
from games.ai import RANDOM, Level
from games.base import Event, GameState, Model
from games.bloody_inn import BloodyInnOptions
from games.bloody_inn.models import Length
from games.complots import GAME as COMPLOTS
from games.complots import ActionKind, ComplotsOptions, Variant
from games.complots import Character as Role
from games.complots.models import ActionBlocked, ActionDeclared
from games.entry import SeatStats, Step
from games.mascarade import Character, MascaradeOptions
from games.registry import GAMES, policy_for
from tests.bot.ui.test_i18n import ROOT, keys_in
from tests.cogs.contexts import table_context
from tests.cogs.payloads import check_embed, check_items, check_panel
from tests.games.mascarade.conformance import random_custom_set

LOCALES = ("en", "it", "fr")
NAMES = [
    "Ada",
    "Bruno",
    "Carla",
    "Dario",
    "Elsa",
    "Furio",
    "Gaia",
    "Ivo",
    "Lara",
    "Mirko",
    "Nadia",
    "Otto",
    "Pia",
]
"""Player names that no game term or English word can be mistaken for."""
TABLE_ID = 4242
PLAYOUTS_PER_GAME = 8
"""Playouts of each game, spread over its table sizes (one at least for each)."""
TABLE_EVERY = 4
"""The table message and the prompted seats' hands and panels are read at every n-th
step, and at each step that asks something not asked before."""
EVERY_SEAT_EVERY = 10
"""Every seat's hand is read at every n-th step (and at the end)."""
PRESENTERS: dict[str, AnyPresenter] = {
    name: import_module(game_extension(name)).PRESENTER for name in GAMES
}
TABLE_SIZES = [
    (name, players)
    for name, game in GAMES.items()
    for players in range(game.min_players, game.max_players + 1)
]


# --- what a reader sees ---------------------------------------------------------------------


@dataclass
class Reading:
    """Every text one locale showed during a playout, and what was wrong with it."""

    game: str
    locale: str
    texts: list[tuple[str, str]] = field(default_factory=list)
    """(where, text) pairs."""
    problems: list[str] = field(default_factory=list)

    def add(self, where: str, *texts: str | None) -> None:
        self.texts.extend((where, text) for text in texts if text)

    def problem(self, where: str, what: str) -> None:
        self.problems.append(f"{self.game}/{self.locale} {where}: {what}")

    def uncut(self, where: str, text: str | None, limit: int) -> None:
        """``text`` fits ``limit`` without having been cut to it (a cut text ends
        with "…" at exactly the limit)."""
        if text is None:
            return
        if len(text) > limit:
            self.problem(where, f"{len(text)} characters > {limit}: {text!r}")
        elif len(text) == limit and text.endswith(ELLIPSIS):
            self.problem(where, f"cut to {limit} characters: {text!r}")
        self.add(where, text)

    def embed(self, where: str, embed: discord.Embed) -> None:
        check_embed(embed)
        data = embed.to_dict()
        self.uncut(f"{where} title", data.get("title"), EMBED_TITLE)
        self.uncut(f"{where} description", data.get("description"), EMBED_DESCRIPTION)
        for item in data.get("fields", []):
            if item["value"] == ELLIPSIS:
                self.problem(where, "fields dropped: the embed is over 6000 characters")
            self.add(f"{where} field", item["name"])
            self.uncut(f"{where} field {item['name']!r}", item["value"], FIELD_VALUE)
        self.add(f"{where} footer", data.get("footer", {}).get("text"))

    def items(self, where: str, items: Sequence[discord.ui.Item[Any]]) -> list[dict[str, Any]]:
        flat = check_items(list(items)) if items else []
        for component in flat:
            self.uncut(f"{where} button", component.get("label"), BUTTON_LABEL)
            self.uncut(f"{where} placeholder", component.get("placeholder"), PLACEHOLDER)
            for option in component.get("options", []):
                self.uncut(f"{where} option", option["label"], OPTION_LABEL)
                self.uncut(f"{where} option help", option.get("description"), OPTION_DESCRIPTION)
        return flat

    def panel(self, where: str, panel: Panel) -> list[dict[str, Any]]:
        check_panel(panel)
        if not panel.content.startswith(ELLIPSIS):  # news cut at its start on purpose
            self.uncut(f"{where} content", panel.content, CONTENT)
        else:
            self.add(f"{where} content", panel.content)
        if panel.embed is not None:
            self.embed(where, panel.embed)
        return self.items(where, panel.items)

    def lines(self, where: str, lines: Sequence[str]) -> None:
        for line in lines:
            self.uncut(where, line, CONTENT)


def panel_codes(flat: list[dict[str, Any]]) -> list[str]:
    """The panels the table message's buttons open (``ui.panel.<code>``)."""
    codes = [c["custom_id"].split(":")[-1] for c in flat]
    return [code.removeprefix("ui.panel.") for code in codes if code.startswith("ui.panel.")]


class Table:
    """One playout's table, read in one locale."""

    def __init__(self, name: str, reading: Reading) -> None:
        self.name = name
        self.presenter = PRESENTERS[name]
        self.reading = reading

    def context(self, state: GameState, step: int, recent: list[Event]) -> TableContext:
        ctx = table_context(self.name, state, names=NAMES, table_id=TABLE_ID, version=step + 1)
        ctx.snapshot.recent = recent[-40:]
        return replace(ctx, locale=self.reading.locale)

    def lines(self, moment: Moment) -> None:
        """The channel's lines and each seat's private lines of one step, and what
        the chooser is answered."""
        ctx = self.context(moment.state, moment.step, [])
        presenter, reading, where = self.presenter, self.reading, f"step {moment.step}"
        reading.lines(f"{where} log", presenter.event_lines(ctx, moment.events))
        for seat in range(moment.state.seats):
            lines = presenter.private_lines(ctx, seat, moment.events)
            reading.lines(f"{where} dm {seat}", lines)
        if moment.choice is not None:
            after = presenter.after_choice(ctx, moment.seat, moment.choice, moment.events)
            if after is not None:
                reading.panel(f"{where} after {moment.seat}", after)

    def stats(self, counters: list[SeatStats]) -> None:
        """Each seat's /stats with the game's own statistics of the playout."""
        result = PlayerResult(table_id=TABLE_ID, game=self.name, ended_at=0.0, winner=False)
        for seat, totals in enumerate(counters):
            embed = stats_embed(
                seat + 1, None, [result], {}, self.reading.locale, {self.name: totals}
            )
            self.reading.embed(f"stats {seat}", embed)

    def table(self, moment: Moment, recent: list[Event]) -> None:
        """The table message, and the hands and panels of the seats it asks (of
        every seat at ``moment.every_seat``)."""
        state = moment.state
        ctx = self.context(state, moment.step, recent)
        presenter, reading, where = self.presenter, self.reading, f"step {moment.step}"
        reading.embed(f"{where} table", presenter.table_embed(ctx))
        finished = presenter.finished(ctx)
        items = finished_items(ctx) if finished else [*presenter.table_items(ctx), hand_button(ctx)]
        flat = reading.items(f"{where} table", items)
        asked = set(GAMES[self.name].awaiting(state))
        for seat in range(state.seats):
            if moment.every_seat or seat in asked:
                reading.panel(f"{where} hand {seat}", presenter.hand(ctx, seat))
            if seat in asked:
                for code in panel_codes(flat):
                    reading.panel(f"{where} panel {code} {seat}", presenter.panel(ctx, seat, code))

    def lobby(self, state: GameState) -> None:
        ctx = self.context(state, 0, [])
        seats = ctx.snapshot.seats
        seats[-1] = seats[-1].model_copy(update={"computer": Level.NORMAL.value, "user_id": -1})
        if len(seats) > 1:
            seats[0] = seats[0].model_copy(update={"computer": Level.EASY.value, "user_id": -2})
        self.reading.embed("lobby", lobby_embed(ctx, self.presenter))
        self.reading.items("lobby", lobby_items(ctx))


# --- the playouts ---------------------------------------------------------------------------


def table_options(name: str, players: int, index: int, rng: random.Random) -> Model:
    """Each game's options, varied from one playout to the next."""
    odd = bool(index % 2)
    if name == "complots":
        return ComplotsOptions(variant=Variant.INQUISITOR if odd else Variant.AMBASSADOR)
    if name == "mascarade" and players >= 4 and odd:
        return MascaradeOptions(characters=random_custom_set(players, rng))
    if name == "bloody_inn":
        return BloodyInnOptions(length=Length.LONG if odd else Length.SHORT, unlimited_wealth=odd)
    return GAMES[name].options_model()


@dataclass
class Moment:
    """One step of a playout: the state, the events that led to it, who chose what
    (None: the deal, a timeout or a removal) and how much of it to read."""

    state: GameState
    events: list[Event]
    step: int
    seat: int
    choice: Any
    table: bool = False
    every_seat: bool = False


def situation(name: str, state: GameState) -> tuple[str, ...]:
    """What a state asks, as kinds of choices (and the game's stage, if it has one)."""
    kinds = {type(c).__name__ for p in GAMES[name].prompts(state) for c in p.choices}
    return (str(getattr(state, "stage", "")), *sorted(kinds))


def moments(name: str, players: int, index: int) -> Iterator[Moment]:
    """One playout, each step marked with what to read of it."""
    seen: set[tuple[str, ...]] = set()
    for step, (state, events, seat, choice) in enumerate(playout(name, players, index)):
        finished = GAMES[name].result(state) is not None
        asks = situation(name, state)
        table = finished or step % TABLE_EVERY == 0 or asks not in seen
        seen.add(asks)
        every_seat = finished or step % EVERY_SEAT_EVERY == 0
        yield Moment(state, events, step, seat, choice, table, every_seat)


def playout(
    name: str, players: int, index: int
) -> Iterator[tuple[GameState, list[Event], int, Any]]:
    """One seeded game to its end: each state with the events that led to it, the
    seat that chose and its choice (None: the deal, a timeout or a removal)."""
    game = GAMES[name]
    seed = 1000 * players + index
    rng = random.Random(seed)
    policy = RANDOM if index % 2 else policy_for(name, Level.NORMAL)
    state = game.setup(players, table_options(name, players, index, rng), seed)
    yield state, [], -1, None
    removal = rng.randrange(20, 80) if players > 2 else -1
    step = 0
    while game.result(state) is None:
        step += 1
        if step == removal:
            seat = rng.choice(game.awaiting(state))
            state, events = game.forfeit(state, seat)
            yield state, events, -1, None
            continue
        if step % 53 == 0:
            state, events = game.timeout(state)
            yield state, events, -1, None
            continue
        seat = rng.choice(game.awaiting(state))
        choice = policy.choose(game.view(state, seat), random.Random(f"{seed}:{step}"))
        state, events = game.apply(state, seat, choice)
        yield state, events, seat, choice


def read_playouts(name: str, players: int) -> dict[str, Reading]:
    """The playouts of one table size, read in every language."""
    readings = {lang: Reading(name, lang) for lang in LOCALES}
    tables = [Table(name, readings[lang]) for lang in LOCALES]
    sizes = GAMES[name].max_players - GAMES[name].min_players + 1
    for index in range(players, players + max(1, PLAYOUTS_PER_GAME // sizes)):
        recent: list[Event] = []
        steps: list[Step] = []
        before: GameState | None = None
        for moment in moments(name, players, index):
            recent += [e for e in moment.events if e.public]
            if before is not None:
                steps.append((before, moment.events))
            before = moment.state
            for table in tables:
                if moment.step == 0:
                    table.lobby(moment.state)
                table.lines(moment)
                if moment.table:
                    table.table(moment, recent)
        if (stats := GAMES.entry(name).stats) is not None:
            counters = stats(steps, players)
            for table in tables:
                table.stats(counters)
    return readings


# --- what is wrong in a text ------------------------------------------------------------------

PLACEHOLDER_LEFT = re.compile(r"[{}]")
PYTHON_VALUES = re.compile(r"\b(?:None|True|False)\b")
HEDGED_PLURAL = re.compile(r"\w\((?:s|es|i|e)\)")
"""``cheque(s)``, ``annex(es)``: a count whose noun does not agree with it."""
STRAY_SPACE = re.compile(r"\S {2,}\S| +$| [,.)]", re.MULTILINE)
"""Two spaces between words, a space at the end of a line or before "," "." ")":
the trace of an empty argument."""
NOT_WORDS = re.compile(r"```.*?```|<[^<>\s]+>", re.DOTALL)
"""Code blocks and Discord's markup (mentions, timestamps): no words in them."""
FRENCH_SPACE = re.compile(r"(?:^|[^\s\u202f])[:;!?»]|«(?!\u202f)| [:;!?»]")
"""French puts a narrow no-break space (U+202F) before : ; ! ? » and after «."""
UNCONTRACTED = {
    "it": re.compile(r"\b(?:di|a|da|su|in) (?:(?:il|lo|la|i|gli|le) |l')(?:\*\*)?[A-ZÀ-Ý]"),
    "fr": re.compile(r"\b(?:de|à) (?:le|les) (?:\*\*)?[A-ZÀ-Ý]"),
}
"""An article glued to a preposition it contracts with: "di il Re" (del), "de le Roi" (du)."""
ARTICLE = re.compile(r"(?<![\w'])(?:il |lo |la |i |gli |le |les |l')(?:\*\*)?$")
ENGLISH_WORDS = ("the", "and", "with", "your", "you", "from", "is", "of", "cards", "coins")
"""Plain English that has no business in an Italian or French text."""
EXTRA_TERMS: dict[str, list[str]] = {
    "complots": ["Court", "Assassination", "Murder", "Challenge", "Block", "influence"],
    "mascarade": ["Courthouse", "courthouse", "bank", "Swap", "Announce"],
    "bloody_inn": [
        "Entrance",
        "Exit",
        "cheque",
        "cheques",
        "annex",
        "annexes",
        "corpse",
        "corpses",
        "accomplice",
    ],
    "conspiracy": [
        "Lord",
        "Lords",
        "Location",
        "Locations",
        "pearl",
        "pearls",
        "silver",
        "gold",
        "chamber",
    ],
}
"""Game terms besides the names of cards, characters, actions and annexes."""
TERM_KEYS = re.compile(r"\.(?:card|type|action|annex|colour)\.[a-z0-9_]+$")
"""Keys whose English is a game term (a card, a guest type, an action...)."""


def english_terms(name: str, lang: str) -> set[str]:
    """The game's English terms that ``lang`` names otherwise: a term its own
    translation keeps (French "Assassin", "Baron") is not one."""
    english = english_strings()
    translated = translations(lang)
    terms: set[str] = set()
    for key, text in english.items():
        if not key.startswith(f"{name}.") or not TERM_KEYS.search(key) or ".pic." in key:
            continue
        assert isinstance(text, str), key
        if not whole_word(text).search(str(translated.get(key, ""))):
            terms.add(text)
    return terms | set(EXTRA_TERMS[name]) | set(ENGLISH_WORDS)


def whole_word(*terms: str) -> re.Pattern[str]:
    """Any of ``terms`` as a whole word (the longest first)."""
    words = "|".join(re.escape(term) for term in sorted(terms, key=len, reverse=True))
    return re.compile(rf"(?<![\w'])(?:{words})(?![\w'])")


def with_article(name: str, lang: str) -> dict[str, str]:
    """The game's card names in ``lang``, each with its definite article ("Regina":
    "la Regina"), from its ``card_the`` texts."""
    forms = {}
    for key in english_strings():
        if key.startswith(f"{name}.card_the."):
            card = key.removeprefix(f"{name}.card_the.")
            forms[t(f"{name}.card.{card}", lang)] = t(key, lang)
    return forms


def wrong_articles(text: str, forms: dict[str, str]) -> list[str]:
    """Card names whose article in ``text`` is not theirs ("le Reine", "il Regina")."""
    wrong = []
    for found in whole_word(*forms).finditer(text) if forms else ():
        article = ARTICLE.search(text[max(0, found.start() - 6) : found.start()])
        if (
            article
            and f"{article.group().replace('**', '')}{found.group()}" != forms[found.group()]
        ):
            wrong.append(f"{article.group()}{found.group()}")
    return wrong


def text_problems(
    text: str, lang: str, terms: re.Pattern[str] | None, forms: dict[str, str]
) -> list[str]:
    """What is wrong in one text shown in ``lang``: ``terms`` are the English words
    it must not contain, ``forms`` its card names with their articles."""
    found = []
    if PLACEHOLDER_LEFT.search(text):
        found.append("a placeholder left")
    if PYTHON_VALUES.search(text):
        found.append("a Python value")
    if HEDGED_PLURAL.search(text):
        found.append("a hedged plural")
    if STRAY_SPACE.search(NOT_WORDS.sub("X", text)):
        found.append("a stray space")
    if lang == "fr" and FRENCH_SPACE.search(NOT_WORDS.sub("X", text)):
        found.append("French spacing")
    if lang in UNCONTRACTED and UNCONTRACTED[lang].search(text):
        found.append("an article not contracted")
    found += [f"wrong article {w!r}" for w in wrong_articles(text, forms)]
    if terms is not None:
        found += [f"English {term!r}" for term in sorted(set(terms.findall(text)))]
    return found


def problems_of(reading: Reading) -> list[str]:
    """What is wrong in a reading: its texts' problems, and the limits it broke."""
    problems = list(reading.problems)
    lang = reading.locale
    terms = None if lang == "en" else whole_word(*english_terms(reading.game, lang))
    forms = {} if lang == "en" else with_article(reading.game, lang)
    seen: set[str] = set()
    for where, text in reading.texts:
        if text in seen:
            continue
        seen.add(text)
        if found := text_problems(text, lang, terms, forms):
            problems.append(f"{reading.game}/{lang} {where}: {', '.join(found)}: {text!r}")
    return problems


# --- the tests ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), TABLE_SIZES)
def test_every_language_reads_right_through_whole_games(
    name: str, players: int, caplog: pytest.LogCaptureFixture
) -> None:
    """No text missing (the lookup logs it), every payload within Discord's limits
    uncut, and no text with a problem of ``text_problems``, in any language."""
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        readings = read_playouts(name, players)
    missing = [r.getMessage() for r in caplog.records if r.name == "bot.i18n"]
    assert missing == []
    problems = [p for reading in readings.values() for p in problems_of(reading)]
    assert problems == [], "\n".join(problems[:40]) + f"\n({len(problems)} problems)"
    assert all(len(reading.texts) > 100 for reading in readings.values())


def test_the_checks_find_what_they_look_for() -> None:
    """Each check of the playouts above catches its kind of mistake."""
    terms = whole_word("Captain", "the")
    forms = {"Regina": "la Regina", "Évêque": "l'Évêque"}
    mistakes = [
        ("it", "Tieni: {card}", "a placeholder left"),
        ("it", "Carte: None", "a Python value"),
        ("fr", "Payer avec 2 chèque(s)", "a hedged plural"),
        ("it", "**Ada**: Reddito ", "a stray space"),
        ("it", "Ada  ruba", "a stray space"),
        ("fr", "Ta carte : Roi", "French spacing"),
        ("fr", "C'est moi!", "French spacing"),
        ("it", "il potere di il Re", "an article not contracted"),
        ("fr", "le pouvoir de le Roi", "an article not contracted"),
        ("it", "Sono il Regina", "wrong article 'il Regina'"),
        ("fr", "C'est moi le Évêque\u202f!", "wrong article 'le Évêque'"),
        ("it", "Blocca come Captain", "English 'Captain'"),
        ("it", "Prendi the Duchessa", "English 'the'"),
    ]
    for lang, text, problem in mistakes:
        assert problem in text_problems(text, lang, terms, forms), text
    fine = (
        "Sono la Regina",
        "C'est moi l'Évêque\u202f!",
        "Ta carte\u202f: <t:1:R>",
        "```\nA   1\n```",
    )
    assert [text_problems(text, "fr", terms, forms) for text in fine] == [[]] * len(fine)


def complots_line(lang: str, event: Event) -> str:
    """The public line of a Complots event, at a table of three."""
    state = COMPLOTS.setup(3, ComplotsOptions(), 1)
    ctx = replace(table_context("complots", state, names=NAMES, table_id=1, version=1), locale=lang)
    (line,) = PRESENTERS["complots"].event_lines(ctx, [event])
    return line


@pytest.mark.parametrize(
    ("lang", "steal", "income", "block"),
    [
        (
            "en",
            "**Ada** claims the Captain: Steal from **Bruno**",
            "**Ada**: Income",
            "**Carla** blocks **Ada** with the Ambassador.",
        ),
        (
            "it",
            "**Ada** annuncia il Capitano e ruba a **Bruno**",
            "**Ada** prende il Reddito",
            "**Carla** blocca **Ada** con l'Ambasciatore.",
        ),
        (
            "fr",
            "**Ada** annonce le Capitaine et vole **Bruno**",
            "**Ada** prend le Revenu",
            "**Carla** contre **Ada** avec l'Ambassadeur.",
        ),
    ],
)
def test_a_complots_action_reads_as_a_sentence_in_each_language(
    lang: str, steal: str, income: str, block: str
) -> None:
    """Not "Ada: Rubare Bruno": each action is a sentence of its own, and a claimed
    character comes with its article ("il Capitano", "l'Ambassadeur")."""
    declared = ActionDeclared(
        actor=0, action=ActionKind.STEAL, target=1, claim=Role.CAPTAIN, paid=0
    )
    assert complots_line(lang, declared) == steal
    income_event = ActionDeclared(
        actor=0, action=ActionKind.INCOME, target=None, claim=None, paid=0
    )
    assert complots_line(lang, income_event) == income
    blocked = ActionBlocked(actor=0, blocker=2, character=Role.AMBASSADOR)
    assert complots_line(lang, blocked) == block


@pytest.mark.parametrize(
    ("lang", "typed"),
    [
        ("it", "il Giudice, la Regina, il vescovo, re, STREGA, Ladro"),
        ("fr", "le Juge, la Reine, l\u2019Évêque, roi, SORCIÈRE, le voleur"),
        ("fr", "Juge, Reine, Eveque, Roi, Sorciere, Voleur"),
        ("en", "the Judge, Queen, the bishop, King, WITCH, thief"),
    ],
)
def test_mascarade_takes_character_names_as_people_type_them(lang: str, typed: str) -> None:
    """Accents or none, an article or none, any case: in English or the user's language."""
    assert set(parse_characters(typed, lang)) == {
        Character.JUDGE,
        Character.QUEEN,
        Character.BISHOP,
        Character.KING,
        Character.WITCH,
        Character.THIEF,
    }


def plural_keys() -> list[str]:
    """Every counted text (the platform's and the games')."""
    return sorted(k for k, v in english_strings().items() if isinstance(v, Plural))


def counted(key: str, lang: str, count: int) -> str:
    """The text of ``key`` for ``count``, its other arguments filled, the count "#"."""
    english = english_strings()[key]
    assert isinstance(english, Plural)
    fields = {f for _, f, _, _ in string.Formatter().parse(english.other) if f} - {"count"}
    text = t(key, lang, count=count, **dict.fromkeys(fields, "X"))
    return re.sub(rf"(?<!\d){count}(?!\d)", "#", text, count=1)


@pytest.mark.parametrize("lang", LOCALES)
def test_counts_agree_with_their_nouns(lang: str) -> None:
    """0, 1, 2 and 21 of every counted text: French says "0 pièce, 1 pièce, 2 pièces",
    English and Italian "0 coins, 1 coin" / "0 monete, 1 moneta". A text whose forms
    are all the same in a language ("{count} finished") only needs 0, 2 and 21 alike."""
    keys = plural_keys()
    assert len(keys) >= 20
    wrong = []
    for key in keys:
        zero, one, two, many = (counted(key, lang, n) for n in (0, 1, 2, 21))
        singular_zero = zero == one if lang == "fr" else zero == two
        forms = english_strings()[key] if lang == "en" else translations(lang).get(key, ())
        inflected = len(set(forms)) > 1
        if not (singular_zero and two == many and (one != two or not inflected)):
            wrong.append(f"{key}: {zero!r} {one!r} {two!r} {many!r}")
    assert wrong == []


@pytest.mark.parametrize(
    ("lang", "cards", "cheques"),
    [
        ("en", ["0 cards", "1 card", "2 cards", "21 cards"], ["0 cheques", "1 cheque"]),
        ("it", ["0 carte", "1 carta", "2 carte", "21 carte"], ["0 assegni", "1 assegno"]),
        ("fr", ["0 carte", "1 carte", "2 cartes", "21 cartes"], ["0 chèque", "1 chèque"]),
    ],
)
def test_cards_and_cheques_are_counted_the_languages_way(
    lang: str, cards: list[str], cheques: list[str]
) -> None:
    assert [t("bloody_inn.count.cards", lang, count=n) for n in (0, 1, 2, 21)] == cards
    assert [t("bloody_inn.count.cheques", lang, count=n) for n in (0, 1)] == cheques


def test_a_missing_text_is_caught(caplog: pytest.LogCaptureFixture) -> None:
    """The playouts' check for missing texts sees what the lookup logs."""
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        assert t("complots.no_such_text", "it") == "complots.no_such_text"
    assert [r.getMessage() for r in caplog.records if r.name == "bot.i18n"] == [
        "missing translation key 'complots.no_such_text'"
    ]


# --- no text is left unused -------------------------------------------------------------------


def keys_named_in_code() -> set[str]:
    """Keys the code names literally, outside the English strings themselves."""
    return {
        key
        for folder in ("bot", "cogs")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path.name != "strings.py" and "locales" not in path.parts
        for key in keys_in(path)
    }


@dataclass
class CodeWords:
    """The string literals of a game's cog (not its strings), and the fixed starts of
    its f-strings (``f"now.{stage}"`` starts ``now.``): what its keys are built of."""

    literals: set[str] = field(default_factory=set)
    starts: set[str] = field(default_factory=set)


def code_words(name: str) -> CodeWords:
    """The words of game ``name``'s cog and rules."""
    return words_in(
        [*(ROOT / "cogs" / name).rglob("*.py"), *(ROOT / "games" / name).rglob("*.py")], name
    )


def words_in(paths: list[Path], name: str) -> CodeWords:
    words = CodeWords()
    for path in sorted(paths):
        if path.name == "strings.py":  # the texts themselves
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                words.literals.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values:
                first = node.values[0]
                start = str(first.value) if isinstance(first, ast.Constant) else ""
                if start.endswith(".") and start != f"{name}.":  # a family, not the game
                    words.starts.add(start)
    return words


def test_every_platform_text_is_used() -> None:
    """The platform's texts (not its slash commands': the translator's tests hold
    those to the command tree) are each named or built by the platform's code."""
    paths = [
        *(ROOT / "bot").rglob("*.py"),
        *(ROOT / "cogs").rglob("*.py"),
        ROOT / "games" / "base.py",
    ]
    words = words_in([p for p in paths if "locales" not in p.parts], "")
    unused = sorted(
        key
        for key in i18n.area_strings(i18n.CORE)
        if not key.startswith("command.")
        and key not in words.literals
        and not any(key.startswith(start) for start in words.starts)
    )
    assert not unused, f"{len(unused)} platform texts nothing shows: {unused}"


def event_types(name: str) -> set[str]:
    """The ``type`` of every event the game's engine emits."""
    found: set[str] = set()
    stack: list[type[Event]] = [Event]
    while stack:
        model = stack.pop()
        stack.extend(model.__subclasses__())
        kind = model.model_fields.get("type")
        if model.__module__.startswith(f"games.{name}.") and kind and kind.default:
            found.add(str(kind.default))
    return found


def built_by_code(key: str, name: str, words: CodeWords, events: set[str]) -> bool:
    """Whether the game's code builds ``key``: named whole or relative to the game
    (``self.text(ctx, "now.turn")``, a picture's ``self.text("title")``), from a
    family its f-strings name (``f"annex.{annex}"``), or an event's line
    (``<game>.log.<event type>``)."""
    rest = key.removeprefix(f"{name}.")
    parts = [key, rest]
    parts += [rest.removeprefix(p) for p in ("pic.", "picture.") if rest.startswith(p)]
    for part in parts:
        if part in words.literals or any(part.startswith(s) for s in words.starts):
            return True
    kind, _, event = rest.partition(".")
    return kind in ("log", "dm") and event.split(".")[0] in events


class Asked(dict[str, Text]):
    """The English texts, noting each key a text is asked for."""

    def __init__(self, strings: dict[str, Text]) -> None:
        super().__init__(strings)
        self.asked: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.add(key)
        return super().get(key, default)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_text_of_a_game_is_used(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each English text of the game is asked for by its playouts (read in every
    language), or named or built by its code (``built_by_code``): a text nothing
    shows is a text the translators should not have to keep."""
    asked = Asked(english_strings())
    monkeypatch.setitem(i18n._loaded, i18n.DEFAULT_LOCALE, asked)
    game = GAMES[name]
    for players in range(game.min_players, game.max_players + 1):
        read_playouts(name, players)
    words, events = code_words(name), event_types(name)
    unused = sorted(
        key
        for key in set(i18n.area_strings(name)) - asked.asked - keys_named_in_code()
        if not built_by_code(key, name, words, events)
    )
    assert not unused, f"{len(unused)} texts of {name} nothing shows: {unused}"
