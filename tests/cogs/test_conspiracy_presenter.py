"""Conspiracy's table message, panels and event lines, without Discord: every
prompt's choices are reachable within Discord's limits, nothing depends on the
decks' order, every event reads as a line."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import discord

from bot.ui.codec import choice_models, decode, encode
from bot.ui.components import GameButton, GameSelect, view_of
from bot.ui.i18n import has
from bot.ui.presenter import hand_button
from cogs.conspiracy import PRESENTER
from games.conspiracy import GAME, ConspiracyOptions, ConspiracyState
from games.conspiracy.cards import COLOURS, INFLUENCES, LocationId
from games.conspiracy.models import ConspiracyEvent, Stage, SwapPick, TakeLocation
from tests.cogs import payloads

from .conspiracy_states import (
    context,
    full_chambers,
    full_swap,
    many_face_up,
    random_game,
    shuffled_decks,
)

MODELS = choice_models(GAME.choice_types)
GAMES = 45
"""About 3,500 states over 2, 3 and 4 players."""


def all_states() -> Iterator[ConspiracyState]:
    for seed in range(GAMES):
        yield from random_game(seed, 2 + seed % 3)
    yield many_face_up()
    yield full_chambers()
    yield full_swap()


def custom_id(item: discord.ui.Item[Any]) -> str:
    assert isinstance(item, GameButton | GameSelect)
    inner = item.item
    assert isinstance(inner, discord.ui.Button | discord.ui.Select)
    value = inner.custom_id
    assert value is not None
    return value


def buttons(items: list[discord.ui.Item[Any]]) -> list[GameButton]:
    assert all(isinstance(item, GameButton) for item in items)
    return [item for item in items if isinstance(item, GameButton)]


def check_embed(embed: discord.Embed) -> None:
    payloads.check_embed(embed)
    texts = [embed.title, embed.description, embed.footer.text]
    texts.extend(text for field in embed.fields for text in (field.name, field.value))
    for text in texts:
        assert text is None or ("{" not in text and "conspiracy." not in text), text


def check_button(item: discord.ui.Item[Any]) -> str:
    assert isinstance(item, GameButton)
    payloads.check_items([item])
    return item.code


def check_select(item: discord.ui.Item[Any]) -> list[str]:
    assert isinstance(item, GameSelect)
    (select,) = payloads.check_items([item])
    return [option["value"] for option in select["options"]]


def test_every_choice_is_offered_within_discords_limits() -> None:
    ctx_stages: set[Stage] = set()
    panels = 0
    for count, state in enumerate(all_states()):
        ctx = context(state)
        check_embed(PRESENTER.table_embed(ctx))
        items = PRESENTER.table_items(ctx)
        view_of([*items, hand_button(ctx)])  # raises when the rows overflow
        assert len(view_of([*items, hand_button(ctx)]).children) <= 25
        rows = {item.row for item in items}
        assert rows <= {0, 1, 2, 3}, "row 4 is the platform's (My hand)"
        codes = [check_button(item) for item in items]
        assert len(set(codes)) == len(codes), "duplicate custom_ids"
        prompts = GAME.prompts(state)
        if not prompts:
            assert not items
            continue
        prompt = prompts[0]
        ctx_stages.add(state.stage)
        offered = {code for code in codes if not code.startswith("ui.")}
        if "ui.panel.choose" in codes:
            panels += 1
            panel = PRESENTER.panel(ctx, prompt.player, "choose")
            assert len(panel.content) <= 2000
            (select,) = panel.items
            offered |= set(check_select(select))
        wanted = {encode(choice) for choice in prompt.choices}
        assert offered == wanted, f"state {count}: {offered ^ wanted}"
        for code in offered:
            assert decode(code, GAME.choice_adapter, MODELS) in prompt.choices
        hand = PRESENTER.hand(ctx, prompt.player)
        assert hand.embed is not None
        check_embed(hand.embed)
        for item in hand.items:
            assert set(check_select(item)) == wanted
        other = (prompt.player + 1) % state.seats
        assert PRESENTER.hand(ctx, other).items == []
        assert PRESENTER.panel(ctx, other, "choose").items == []
    assert count > 3000
    assert ctx_stages == {
        Stage.RECRUIT,
        Stage.KEEP,
        Stage.ORDER,
        Stage.LOCATION,
        Stage.LOCATION_KEEP,
        Stage.SWAP_FIRST,
        Stage.SWAP_SECOND,
    }
    assert panels > 0


def test_the_table_message_never_depends_on_the_decks_order() -> None:
    for number, state in enumerate(all_states()):
        if number % 7:
            continue
        other = shuffled_decks(state, number)
        true_ctx, other_ctx = context(state), context(other)
        assert (
            PRESENTER.table_embed(true_ctx).to_dict() == PRESENTER.table_embed(other_ctx).to_dict()
        )
        true_items = [custom_id(i) for i in PRESENTER.table_items(true_ctx)]
        assert true_items == [custom_id(i) for i in PRESENTER.table_items(other_ctx)]


def test_many_locations_go_to_a_select_with_their_help() -> None:
    state = many_face_up()
    ctx = context(state)
    codes = [check_button(item) for item in PRESENTER.table_items(ctx)]
    assert codes == [
        "ui.panel.choose",
        "reveal_locations.1",
        "reveal_locations.2",
        "reveal_locations.3",
    ]
    (select,) = PRESENTER.panel(ctx, 0, "choose").items
    assert isinstance(select, GameSelect)
    options = {o.value: o for o in select.item.options}
    top = options[encode(TakeLocation(location=LocationId.TOP_LORD))]
    assert top.label == "#9 3 pts, top Lord only"
    assert top.description is not None and "top Lord" in top.description
    assert PRESENTER.panel(ctx, 1, "choose").content.startswith("You are not being asked")


def test_fifteen_places_to_swap_fit_in_four_rows() -> None:
    state = full_swap()
    items = buttons(PRESENTER.table_items(context(state)))
    assert len(items) == 16 and all(not i.code.startswith("ui.") for i in items)
    rows: dict[int | None, list[str]] = {}
    for item in items:
        rows.setdefault(item.row, []).append(item.code.removeprefix("swap_pick."))
    assert rows == {
        0: ["skip_swap", "15", "13", "14"],
        1: ["10", "11", "12"],
        2: ["6", "7", "8", "9"],
        3: ["1", "2", "3", "4", "5"],
    }


def test_swap_buttons_read_like_the_pyramid() -> None:
    for state in all_states():
        if state.stage is not Stage.SWAP_FIRST:
            continue
        items = buttons(PRESENTER.table_items(context(state)))
        labels = [i.item.label for i in items]
        assert "Skip the swap" in (labels[0], labels[-1])
        picks = [i.code for i in items if i.code.startswith("swap_pick")]
        places = [int(code.split(".")[1]) for code in picks]
        rows = [
            0 if p <= 5 else 1 if p <= 9 else 2 if p <= 12 else 3 if p <= 14 else 4 for p in places
        ]
        assert rows == sorted(rows, reverse=True), "the top of the pyramid first"
        prompt = GAME.prompts(state)[0]
        assert {encode(c) for c in prompt.choices if isinstance(c, SwapPick)} == set(picks)
        return
    raise AssertionError("no swap in the random games")


def test_the_final_message_has_the_score_table_and_the_winner() -> None:
    state = full_chambers()
    ctx = context(state)
    embed = PRESENTER.table_embed(ctx)
    fields = {field.name: field.value or "" for field in embed.fields}
    table = fields["Final score"]
    assert table.startswith("```") and "TOTAL" in table
    for label in ("Y yellow", "R red", "Lords", "Locations", "Coalition", "Pearl M."):
        assert label in table
    scores = GAME.view(state, None).scores
    total_line = next(line for line in table.splitlines() if line.startswith("TOTAL"))
    assert total_line.split()[1:] == [str(s.total) for s in scores]
    assert "🏆" in fields["Result"]
    assert PRESENTER.table_items(ctx) == []


def test_names_in_the_score_table_are_plain_and_cannot_close_its_code_block() -> None:
    state = full_chambers()
    names = ["```@everyone", "a*b_c`"]
    embed = PRESENTER.table_embed(context(state, names=names))
    fields = {field.name: field.value or "" for field in embed.fields}
    table = fields["Final score"]
    assert table.count("`") == 6, "only the code block's own fences"
    head = table.splitlines()[1]
    assert head.split() == ["'''@eve…", "a*b_c'"], "plain (no markdown escapes), cut"
    assert "**a\\*b\\_c\\`** wins" in fields["Result"], "escaped outside the code block"


def test_every_event_reads_as_a_line() -> None:
    seen: set[str] = set()
    for seed in range(GAMES):
        state = GAME.setup(2 + seed % 3, ConspiracyOptions(), seed)
        rng = random.Random(seed)
        while GAME.result(state) is None:
            prompt = rng.choice(GAME.prompts(state))
            if rng.random() < 0.01:
                state, events = GAME.forfeit(state, prompt.player)
            else:
                state, events = GAME.apply(state, prompt.player, rng.choice(prompt.choices))
            ctx = context(state)
            lines = PRESENTER.event_lines(ctx, events)
            assert len(lines) == len([e for e in events if e.public])
            for line in lines:
                assert "{" not in line and "conspiracy." not in line, line
            seen.update(str(vars(e)["type"]) for e in events)
            assert PRESENTER.private_lines(ctx, 0, events) == []
    union, _ = get_args(ConspiracyEvent)
    every_type = {str(model.model_fields["type"].default) for model in get_args(union)}
    assert len(every_type) == 26
    missing = every_type - seen - {"turn_skipped", "no_location_left"}
    assert not missing, f"event types never met: {missing}"
    for kind in every_type:
        assert has(f"conspiracy.log.{kind}"), kind


def test_every_text_the_cog_asks_for_exists() -> None:
    source = "\n".join(path.read_text() for path in Path("cogs/conspiracy").glob("*.py"))
    keys = set(re.findall(r'"(conspiracy\.[a-z0-9_.]*[a-z0-9_])"', source))
    # the presenter's keys without the game's name: ``self.text(ctx, "now.keep")``, and
    # the refined event keys of ``event_key`` (under ``log.``)
    presenter = Path("cogs/conspiracy/presenter.py").read_text()
    before, _, rest = presenter.partition("def event_key(")
    event_keys, _, after = rest.partition("\n    def ")
    dotted = r'"(?!conspiracy\.)([a-z0-9_]+(?:\.[a-z0-9_]+)+)"'
    game_keys = re.findall(dotted, before + after)
    game_keys += re.findall(r'self\.text\(\s*ctx,\s*"([a-z0-9_.]+)"', presenter)
    keys |= {f"conspiracy.{key}" for key in game_keys}
    refined = re.findall(dotted, event_keys)
    assert len(refined) == 4
    keys |= {f"conspiracy.log.{key}" for key in refined}
    assert len(keys) > 60
    for colour in COLOURS:
        keys |= {f"conspiracy.colour.{colour.value}", f"conspiracy.initial.{colour.value}"}
    for location in LocationId:
        keys |= {
            f"conspiracy.location.{location.value}",
            f"conspiracy.location_help.{location.value}",
        }
    keys |= {f"conspiracy.power.{influence}" for influence in INFLUENCES}
    for picture_key in re.findall(r'self\.text\(\s*"([a-z_]+)"', source):
        keys.add(f"conspiracy.picture.{picture_key}")
    missing = sorted(key for key in keys if not has(key))
    assert not missing, missing


def test_options_summary() -> None:
    assert PRESENTER.options_summary('{"first_player": null}', None) == (
        "First player: drawn at random"
    )
    assert PRESENTER.options_summary('{"first_player": 1}', None) == "First player: seat 2"
