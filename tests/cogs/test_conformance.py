"""Every registered game's presenter, over states of seeded random games, with
hostile player names: what it hands Discord fits every limit, no name can ping,
link or format, every button and option is a legal choice of someone asked,
and the public table message and picture do not depend on any secret.

Game knowledge comes from each game's conformance hooks
(``tests/games/<game>/conformance.py``), as for the engine suite."""

from __future__ import annotations

import random
from dataclasses import dataclass
from importlib import import_module
from typing import Any

import pytest

from bot.app import game_extension
from bot.ui.codec import BadCode, choice_models, decode
from bot.ui.components import view_of
from bot.ui.i18n import t
from bot.ui.presenter import RECENT_LINES, AnyPresenter, TableContext, hand_button
from games.base import Choice, Event, GameState, Seat
from games.entry import AnyGame
from games.registry import GAMES
from tests.cogs.contexts import table_context
from tests.cogs.payloads import (
    HOSTILE_NAMES,
    check_embed,
    check_harmless,
    check_items,
    check_panel,
    texts_of,
)
from tests.games.conformance.support import hooks_of

SAMPLES_PER_GAME = 24
"""States looked at per player count (spread over one game, its end included)."""
PICTURES_PER_GAME = 2
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def presenter_of(name: str) -> AnyPresenter:
    presenter: AnyPresenter = import_module(game_extension(name)).PRESENTER
    return presenter


@dataclass
class Moment:
    state: GameState
    events: list[Event]


def play(game: AnyGame, players: int, seed: int) -> list[Moment]:
    """Every state of one random game (timeouts and removals included), with the
    events of the step that led to it."""
    rng = random.Random(seed)
    options = hooks_of(game.name).random_options(players, rng)
    state = game.setup(players, options, seed)
    moments = [Moment(state, [])]
    while game.result(state) is None:
        roll = rng.random()
        if roll < 0.03:
            state, events = game.timeout(state)
        elif roll < 0.035 and len(game.awaiting(state)) == 1:
            state, events = game.forfeit(state, game.awaiting(state)[0])
        else:
            prompt = rng.choice(game.prompts(state))
            state, events = game.apply(state, prompt.player, rng.choice(prompt.choices))
        moments.append(Moment(state, events))
    return moments


def sample(moments: list[Moment], count: int) -> list[Moment]:
    step = max(1, len(moments) // count)
    return [*moments[::step], moments[-1]]


def context(name: str, state: GameState) -> TableContext:
    names = [HOSTILE_NAMES[i % len(HOSTILE_NAMES)] for i in range(state.seats)]
    return table_context(name, state, names=names, table_id=4242, version=77)


def decoded(game: AnyGame, code: str) -> Choice | None:
    try:
        choice: Choice = decode(code, game.choice_adapter, choice_models(game.choice_types))
    except BadCode:
        return None
    return choice


def code_of(component: dict[str, Any]) -> str:
    return str(component["custom_id"]).split(":", 3)[3]


def player_counts(game: AnyGame) -> list[int]:
    return sorted({game.min_players, game.typical_players, game.max_players})


CASES = [(name, players) for name in GAMES for players in player_counts(GAMES[name])]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_payload_fits_discord_and_every_choice_is_legal(name: str, players: int) -> None:
    game, presenter = GAMES[name], presenter_of(name)
    for moment in sample(play(game, players, seed=players), SAMPLES_PER_GAME):
        ctx = context(name, moment.state)
        ctx.snapshot.recent = [e for e in moment.events if e.public]  # "what just happened"
        public = check_public_message(game, presenter, ctx)
        lines = presenter.event_lines(ctx, moment.events)
        check_lines(lines)
        for seat in range(moment.state.seats):
            check_private(game, presenter, ctx, seat, moment.events, public)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_table_message_shows_the_latest_public_lines_in_order(name: str) -> None:
    """ "What just happened": the latest lines, the newest last, as many as there are
    up to RECENT_LINES, each a line of the recent events as the channel gets them."""
    game, presenter = GAMES[name], presenter_of(name)
    moments = play(game, game.typical_players, seed=11)
    public = [e for moment in moments for e in moment.events if e.public]
    full = 0
    for end in range(0, len(public), max(1, len(public) // 40)):
        ctx = context(name, moments[-1].state)
        ctx.snapshot.recent = recent = public[max(0, end - 24) : end]
        every = presenter.event_lines(ctx, recent)
        fields = [f for f in presenter.table_embed(ctx).fields if f.name == t("table.recent")]
        if not every:
            assert not fields
            continue
        (field,) = fields
        shown = str(field.value).split("\n")
        assert len(shown) == min(RECENT_LINES, len(every))
        assert shown[-1] == every[-1], "the newest line is not last"
        assert all(line in every for line in shown)
        full += len(shown) == RECENT_LINES
    assert full > 5


def check_public_message(
    game: AnyGame, presenter: AnyPresenter, ctx: TableContext
) -> list[dict[str, Any]]:
    """The table message: within limits, harmless; its choice buttons are choices
    of prompted seats; returns its components."""
    embed = presenter.table_embed(ctx)
    check_embed(embed)
    check_harmless(texts_of(embed))
    flat = check_items([*presenter.table_items(ctx), hand_button(ctx)])
    offered = {c for p in game.prompts(ctx.snapshot.state) for c in p.choices}
    for component in flat:
        code = code_of(component)
        if code.startswith("ui."):
            continue
        assert decoded(game, code) in offered, f"button {code} is nobody's legal choice"
    return flat


def check_lines(lines: list[str]) -> None:
    for line in lines:
        assert 0 < len(line) <= 2000
        assert "{" not in line and "}" not in line, f"a placeholder is left in {line!r}"
    check_harmless(lines)


def check_private(
    game: AnyGame,
    presenter: AnyPresenter,
    ctx: TableContext,
    seat: Seat,
    events: list[Event],
    public: list[dict[str, Any]],
) -> None:
    """My hand, DM lines and every panel the table message opens for this seat."""
    hand = presenter.hand(ctx, seat)
    check_panel(hand)
    check_harmless(texts_of(hand.embed, hand.content))
    check_lines(presenter.private_lines(ctx, seat, events))
    prompt = game.prompt_for(ctx.snapshot.state, seat)
    legal = set(prompt.choices) if prompt is not None else set()
    panels = {code_of(c).removeprefix("ui.panel.") for c in public if "ui.panel." in code_of(c)}
    for code in sorted(panels):
        panel = presenter.panel(ctx, seat, code)
        check_harmless(texts_of(panel.embed, panel.content))
        for component in check_panel(panel):
            values = [o["value"] for o in component.get("options", [])] or [code_of(component)]
            for value in values:
                if value.startswith("ui."):
                    continue
                assert decoded(game, value) in legal, f"panel {code} offers {value} to {seat}"


@pytest.mark.parametrize("name", list(GAMES))
def test_the_public_table_does_not_depend_on_a_secret(name: str) -> None:
    """The table message and picture of a running game are the same when every card
    a spectator cannot know is shuffled."""
    game, presenter = GAMES[name], presenter_of(name)
    scramble = hooks_of(name).scramble_unknown
    rng = random.Random(7)
    pictures = 0
    for players in player_counts(game):
        for moment in sample(play(game, players, seed=100 + players), SAMPLES_PER_GAME):
            if game.result(moment.state) is not None:
                continue
            true_ctx = context(name, moment.state)
            fake_ctx = context(name, scramble(moment.state, None, rng))
            assert public_payload(presenter, true_ctx) == public_payload(presenter, fake_ctx)
            if presenter.draws_picture and pictures < PICTURES_PER_GAME * len(CASES):
                pictures += 1
                png = presenter.table_image(true_ctx)
                assert png is not None and png.startswith(PNG_SIGNATURE)
                assert png == presenter.table_image(fake_ctx), "the picture shows a secret"


def public_payload(presenter: AnyPresenter, ctx: TableContext) -> tuple[object, list[object]]:
    items = view_of(presenter.table_items(ctx)).to_components()
    return presenter.table_embed(ctx).to_dict(), list(items)
