"""The Bloody Inn presenter over thousands of random states: everything fits
Discord's limits, every legal choice (and nothing else) is offered, the public
table message never depends on a secret, and private wording stays private."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.ui.codec import encode
from bot.ui.components import GameButton, GameSelect
from bot.ui.i18n import has, t
from bot.ui.presenter import TableContext, hand_button
from cogs.bloody_inn import PRESENTER, picture
from cogs.bloody_inn.presenter import PANEL_CODE, is_private
from games.base import Event
from games.bloody_inn import GAME, ActionKind, BloodyInnOptions, BloodyInnState, Card, Length
from games.bloody_inn.cards import GuestType, spec
from games.bloody_inn.models import (
    Act,
    Cancel,
    Done,
    GameWon,
    HandChanged,
    Pass,
    Pay,
    PayUndertaker,
    Stage,
    TargetRoom,
)
from tests.cogs.payloads import check_embed, check_items
from tests.games.bloody_inn.conformance import random_step, scramble_unknown
from tests.games.bloody_inn.helpers import C, annex, rigged

from .test_bloody_inn_states import LONG_NAMES, SHORT_NAMES, context, many_states, mid_game

ROOT = Path(__file__).resolve().parents[2]
SILENT_EVENTS = {"turn_started", "action_started", "first_player_passed", "hand_changed"}
"""Events with no public line (the table message shows them, or they are private)."""
PRIVATE_WORDING = ("your accomplices now", "your hand")


@pytest.fixture(scope="module")
def states() -> list[BloodyInnState]:
    return many_states(3000, seed=11)


def _inner(item: discord.ui.Item[Any]) -> Any:
    return getattr(item, "item", item)


def offered(ctx: TableContext, seat: int) -> tuple[list[str], list[str]]:
    """The codes the table message's buttons and the seat's panel offer."""
    table = [str(_inner(i).custom_id).split(":", 3)[-1] for i in PRESENTER.table_items(ctx)]
    panel = PRESENTER.panel(ctx, seat, PANEL_CODE)
    codes = []
    for item in panel.items:
        if isinstance(item, GameSelect):
            codes += [o.value for o in item.item.options]
        else:
            assert isinstance(item, GameButton)
            codes.append(item.code)
    return table, codes


def test_everything_fits_discords_limits_and_every_legal_choice_is_offered(
    states: list[BloodyInnState],
) -> None:
    assert len(states) >= 3000
    rng = random.Random(5)
    stages = set()
    for index, state in enumerate(states):
        names = LONG_NAMES if index % 2 else SHORT_NAMES
        ctx = context(state, names=names, away=frozenset({0}) if index % 7 == 0 else frozenset())
        check_embed(PRESENTER.table_embed(ctx))
        items = PRESENTER.table_items(ctx)
        check_items([*items, hand_button(ctx)])
        awaiting = GAME.awaiting(state)
        stages.add(state.stage)
        for seat in range(state.seats):
            panel = PRESENTER.panel(ctx, seat, PANEL_CODE)
            assert len(panel.content) <= 2000
            if seat not in awaiting:
                assert not panel.items and panel.content == t("refusal.not_prompted")
                continue
            check_items(panel.items)
            prompt = GAME.prompt_for(state, seat)
            assert prompt is not None
            legal = {encode(c) for c in prompt.choices}
            table, codes = offered(ctx, seat)
            assert sorted(codes) == sorted(legal), "the panel offers every legal choice, only"
            choices = [c for c in table if not c.startswith("ui.")]
            assert set(choices) <= legal, "the table offers legal choices only"
            if not is_private(GAME.view(state, None)) and len(prompt.choices) <= 23:
                assert set(choices) == legal, "public choices are buttons on the table"
            for code in codes:
                assert len(code) <= 100
        seat = rng.randrange(state.seats)
        hand = PRESENTER.hand(ctx, seat)
        assert hand.embed is not None
        check_embed(hand.embed)
    assert stages >= {
        Stage.WELCOME,
        Stage.ACTION,
        Stage.TARGET,
        Stage.PAY,
        Stage.UNDERTAKER,
        Stage.OVER,
    }


def test_the_public_table_message_does_not_depend_on_secrets(
    states: list[BloodyInnState],
) -> None:
    rng = random.Random(3)
    for state in states[::3]:
        ctx = context(state)
        embed = PRESENTER.table_embed(ctx).to_dict()
        items = [(_inner(i).custom_id, _inner(i).label) for i in PRESENTER.table_items(ctx)]
        scrambled = context(scramble_unknown(state, None, rng))
        assert PRESENTER.table_embed(scrambled).to_dict() == embed
        assert [
            (_inner(i).custom_id, _inner(i).label) for i in PRESENTER.table_items(scrambled)
        ] == items


def test_private_prompts_are_only_a_your_turn_button_on_the_table() -> None:
    state = rigged(
        2, hands=[[C.PEASANT, C.COUNT, C.MECHANIC, C.BARON], []], rooms={1: C.DUKE}, turn=0
    )
    ctx = context(state)
    labels = [_inner(i).label for i in PRESENTER.table_items(ctx)]
    assert labels == ["Your turn…"], "the action prompt would reveal the hand (Build)"
    table, codes = offered(ctx, 0)
    assert "act.build" in codes and "act.bribe" in codes and "pass.0" in codes
    state, _ = GAME.apply(state, 0, Act(action=ActionKind.BRIBE))
    ctx = context(state)
    table, _ = offered(ctx, 0)
    assert "room.1" in table and "cancel" in table, "Bribe targets are public buttons"
    state, _ = GAME.apply(state, 0, TargetRoom(room=1))
    assert state.stage is Stage.PAY
    ctx = context(state)
    table, codes = offered(ctx, 0)
    assert table == ["ui.panel.turn", "cancel"]
    assert set(codes) == {"pay.mechanic", "pay.baron", "pay.count", "pay.peasant", "cancel"}
    panel = PRESENTER.panel(ctx, 0, PANEL_CODE)
    select = next(i for i in panel.items if isinstance(i, GameSelect))
    described = {o.value: (o.label, o.description) for o in select.item.options}
    assert described["pay.peasant"] == (
        "Play Peasant (Peasant, rank 0)",
        "goes back to the bistro",
    )
    assert described["pay.count"][1] == "no aptitude: goes to the Exit stack"
    assert "3 needed" in panel.content and "Duke" in panel.content
    for card in (Card.MECHANIC, Card.COUNT, Card.PEASANT):
        state, _ = GAME.apply(state, 0, Pay(card=card))
    assert state.stage is Stage.ACTION and state.queue[0] == 1


def test_done_appears_once_the_discounted_minimum_is_paid() -> None:
    from tests.games.bloody_inn.helpers import annex

    state = rigged(
        2,
        hands=[[C.PEASANT, C.PEASANT, C.BARON], []],
        rooms={1: C.COUNT},
        annexes={0: [annex(C.REPRESENTATIVE)]},
        turn=0,
    )
    state, _ = GAME.apply(state, 0, Act(action=ActionKind.BRIBE))
    state, _ = GAME.apply(state, 0, TargetRoom(room=1))
    ctx = context(state)
    _, codes = offered(ctx, 0)
    assert "done" not in codes and "cancel" in codes
    assert "1-2 needed" in PRESENTER.panel(ctx, 0, PANEL_CODE).content
    state, _ = GAME.apply(state, 0, Pay(card=Card.PEASANT))
    ctx = context(state)
    _, codes = offered(ctx, 0)
    assert "done" in codes
    panel = PRESENTER.panel(ctx, 0, PANEL_CODE)
    assert "Played so far: Peasant" in panel.content
    buttons = [i for i in panel.items if isinstance(i, GameButton)]
    assert [b.item.label for b in buttons] == ["Done: pay no more", "Cancel the Bribe"]
    assert GAME.apply(state, 0, Done())[0].stage is Stage.ACTION
    assert GAME.apply(state, 0, Cancel())[0].players[0].hand.count(Card.PEASANT) == 2


def test_the_embed_tells_the_action_in_progress_and_the_standings() -> None:
    ctx = context(mid_game(), names=["alice", "bob", "carol", "dave"])
    embed = PRESENTER.table_embed(ctx)
    assert embed.description is not None
    assert "**Round 1** · season 2" in embed.description
    assert "**alice** prepares a **Bribe**" in embed.description
    assert "<t:1900000000:R>" in embed.description, "a live countdown"
    footer = embed.footer.text or ""
    assert footer.startswith("Standings: carol 130 F · alice 43 F · dave 10 F · bob 7 F")
    rooms = next(f.value for f in embed.fields if f.name == "Rooms") or ""
    assert "**1** 🔑 alice · 🛎️ bob: **Duke (Noble, rank 3)**" in rooms
    assert "**7** ⬜ white key: empty" in rooms


def test_the_final_embed_shows_scores_and_winners() -> None:
    found = {"won": False, "solo": False, "lost": False}
    rng = random.Random(1)
    for seed in range(60):
        players = 1 + seed % 3
        options = BloodyInnOptions(length=Length.LONG if seed % 2 else Length.SHORT)
        state = GAME.setup(players, options, seed)
        while GAME.result(state) is None:
            state, _ = random_step(state, GAME.prompts(state), rng)
        embed = PRESENTER.table_embed(context(state))
        text = (embed.description or "") + str([f.value for f in embed.fields])
        assert embed.fields[0].name == "Final score"
        if state.solo_lost:
            found["lost"] = True
            assert "💀" in text
        elif not state.winners:
            assert "without a winner" in text, "everybody was removed"
        elif players == 1:
            found["solo"] = True
            assert "ends the solo game with" in text
        else:
            found["won"] = True
            assert "🏆" in text and ("wins with" in text or "share the win" in text)
    assert found["won"] and found["lost"], found
    # A careful innkeeper (who only takes the timeout's choices) ends a solo game.
    state = GAME.setup(1, BloodyInnOptions(length=Length.LONG), 4)
    while GAME.result(state) is None:
        state, _ = GAME.timeout(state)
    embed = PRESENTER.table_embed(context(state))
    assert "🏆 **alice** ends the solo game with" in (embed.description or "")
    line = PRESENTER.event_text(
        context(state), GameWon(winner=0, score=151, shared=False, solo_rank="wicked"), "log"
    )
    assert line == "🏆 **alice** ends the solo game with 151 F: a **wicked** innkeeper."


def test_my_hand_lists_rank_aptitude_and_annex() -> None:
    state = rigged(2, hands=[[C.PEASANT, C.PEASANT, C.ABBOT, C.MAJOR], []], turn=1)
    hand = PRESENTER.hand(context(state), 0)
    assert hand.embed is not None and hand.embed.description is not None
    text = hand.embed.description
    assert "**Peasant** \u00d72 · Peasant (yellow), rank 0 · no aptitude" in text
    assert "**Abbot** · Religious (purple), rank 2 · Bury aptitude" in text
    assert "annex **Cellar**: Bury costs you 1 accomplice fewer (optional)." in text
    assert "**Major** · Police (grey), rank 3 · Kill aptitude" in text
    assert not hand.items, "not prompted: nothing to choose"
    other = PRESENTER.hand(context(state), 1)
    assert other.embed is not None and "Abbot" not in (other.embed.description or "")
    assert other.items, "the prompted player's hand carries its panel"


def test_event_lines_for_every_event_and_private_ones_stay_private() -> None:
    seen: set[str] = set()
    rng = random.Random(2)
    for seed in range(40):
        players = 1 + seed % 4
        state = GAME.setup(players, BloodyInnOptions(), seed)
        events: list[Event] = []
        while GAME.result(state) is None:
            state, new = random_step(state, GAME.prompts(state), rng)
            events += new
        ctx = context(state)
        public = PRESENTER.event_lines(ctx, events)
        assert all(0 < len(line) <= 2000 for line in public)
        text = "\n".join(public)
        for phrase in PRIVATE_WORDING:
            assert phrase not in text
        for event in events:
            kind = str(vars(event)["type"])
            seen.add(kind)
            line = PRESENTER.event_text(ctx, event, "log" if event.public else "dm")
            if kind in SILENT_EVENTS and event.public:
                assert line is None
            else:
                assert line, f"no text for {event}"
            if isinstance(event, HandChanged):
                mine = PRESENTER.private_lines(ctx, event.seat, [event])
                assert mine and "your accomplices now" in mine[0]
                for other in range(players):
                    if other != event.seat:
                        assert not PRESENTER.private_lines(ctx, other, [event])
    assert {"round_started", "traveller_welcomed", "bribed", "killed", "buried", "built"} <= seen
    assert {"wages_paid", "travellers_left", "final_score", "hand_changed"} <= seen


def test_every_event_type_has_a_text() -> None:
    for kind in _event_types():
        if kind in SILENT_EVENTS:
            continue
        assert any(has(k) for k in (f"bloody_inn.log.{kind}", f"bloody_inn.log.{kind}.rooms")), kind


def _event_types() -> list[str]:
    from typing import get_args

    from games.bloody_inn.models import BloodyInnEvent

    union = get_args(BloodyInnEvent)[0]
    return [str(model.model_fields["type"].default) for model in get_args(union)]


def test_the_morning_is_summed_up_under_a_header() -> None:
    state = rigged(2, hands=[[C.PEASANT], [C.PEASANT]], rooms={1: C.MAJOR}, queue=[1], money=[5, 5])
    state, events = GAME.apply(state, 1, GAME.legal_actions(state, 1)[-1])
    lines = PRESENTER.event_lines(context(state), events)
    assert "🌅 **Morning**" in lines
    assert lines.index("🌅 **Morning**") < next(
        i for i, line in enumerate(lines) if "travellers leave" in line
    )


LITERAL = re.compile(r'"(bloody_inn\.[a-z0-9_.]*[a-z0-9_])"')
TEXT_CALL = re.compile(r'\btext\(\s*ctx,\s*"([a-z0-9_.]*[a-z0-9_])"')
"""``self.text(ctx, "key")``: the key ``bloody_inn.key``."""


def test_every_text_key_exists_in_english() -> None:
    keys: set[str] = set()
    for path in sorted((ROOT / "cogs" / "bloody_inn").glob("*.py")):
        source = path.read_text()
        keys |= set(LITERAL.findall(source))
        keys |= {f"bloody_inn.{key}" for key in TEXT_CALL.findall(source)}
    for card in Card:
        keys.add(f"bloody_inn.card.{card.value}")
        data = spec(card)
        if data.annex:
            keys |= {f"bloody_inn.annex.{data.annex}", f"bloody_inn.effect.{data.annex}"}
    for kind in GuestType:
        keys |= {f"bloody_inn.{p}.{kind.value}" for p in ("type", "colour", "pic.type", "pic.abbr")}
    for action in ActionKind:
        keys |= {
            f"bloody_inn.{p}.{action.value}"
            for p in ("action", "choice.act", "choice.act_help", "pic.action")
        }
    for rank in ("worrying", "dangerous", "wicked", "demonic"):
        keys.add(f"bloody_inn.solo_rank.{rank}")
    assert len(keys) > 200
    missing = sorted(k for k in keys if not has(k))
    assert not missing


def test_options_summary() -> None:
    options = BloodyInnOptions(length=Length.LONG, unlimited_wealth=True)
    assert PRESENTER.options_summary(options.model_dump_json(), None) == (
        "Long game · unlimited wealth"
    )
    options = BloodyInnOptions(first_come_first_served=True)
    assert PRESENTER.options_summary(options.model_dump_json(), None) == (
        "Short game · first come, first served"
    )


def test_after_a_choice_the_panel_asks_the_next_question() -> None:
    state = rigged(
        2, hands=[[C.PEASANT, C.COUNT, C.MECHANIC, C.BARON], []], rooms={1: C.DUKE}, turn=0
    )
    state, events = GAME.apply(state, 0, Act(action=ActionKind.BRIBE))
    panel = PRESENTER.after_choice(context(state), 0, Act(action=ActionKind.BRIBE), events)
    assert panel is not None and panel.content.startswith("**Bribe**: choose the target.")
    # The target, chosen in the panel or on the table message: paying is private.
    state, events = GAME.apply(state, 0, TargetRoom(room=1))
    panel = PRESENTER.after_choice(context(state), 0, TargetRoom(room=1), events)
    assert panel is not None and "play your accomplices" in panel.content
    assert any(isinstance(i, GameSelect) for i in panel.items)
    for card in (Card.MECHANIC, Card.COUNT):
        state, events = GAME.apply(state, 0, Pay(card=card))
        panel = PRESENTER.after_choice(context(state), 0, Pay(card=card), events)
        assert panel is not None and "Played so far" in panel.content
    state, events = GAME.apply(state, 0, Pay(card=Card.PEASANT))
    done = PRESENTER.after_choice(context(state), 0, Pay(card=Card.PEASANT), events)
    assert done is not None and done.content.startswith("✅ Done.") and not done.items
    assert "💰 **alice** bribes Duke (Noble, rank 3) (room 1)." in done.content
    assert "your accomplices now: Baron (Noble, rank 0), Duke (Noble, rank 3)" in done.content


def test_a_public_choice_leading_to_a_public_moment_is_answered_silently() -> None:
    state = rigged(2, rooms={}, welcome=True, keys={1: 0, 2: 1, 3: None, 4: None, 5: None})
    assert state.stage is Stage.WELCOME
    prompt = GAME.prompts(state)[0]
    choice = prompt.choices[0]
    state, events = GAME.apply(state, prompt.player, choice)
    assert state.stage is Stage.WELCOME
    assert PRESENTER.after_choice(context(state), prompt.player, choice, events) is None


def test_names_are_escaped_in_text_and_plain_in_labels() -> None:
    state = rigged(2, rooms={}, welcome=True, keys={1: 0, 2: 1, 3: None, 4: None, 5: None})
    ctx = context(state, names=["*alice*", "bob_"])
    labels = [_inner(i).label for i in PRESENTER.table_items(ctx)]
    assert "Room 1 · *alice*" in labels and "Room 2 · bob_" in labels
    panel = PRESENTER.panel(ctx, 0, PANEL_CODE)
    select = next(i for i in panel.items if isinstance(i, GameSelect))
    assert "Room 2 · bob_" in [o.label for o in select.item.options]
    embed = PRESENTER.table_embed(ctx)
    assert "🛏️ **\\*alice\\*** welcomes" in (embed.description or "")
    rooms = next(f.value for f in embed.fields if f.name == "Rooms") or ""
    assert "**1** 🔑 \\*alice\\*: empty" in rooms and "**2** 🔑 bob\\_: empty" in rooms
    assert (embed.footer.text or "").startswith("Standings: \\*alice\\* 15 F · bob\\_ 15 F")


# --- paying the police's undertaker -----------------------------------------------------


def undertaker_state(
    money: tuple[int, int] = (40, 5), cheques: tuple[int, int] = (1, 0), **more: Any
) -> BloodyInnState:
    """alice (40 F, a cheque, a Baron's corpse, her room 1 occupied) meets the police
    in room 4 when bob passes the Night's last action."""
    state = rigged(
        2,
        hands=[[], [C.PEASANT]],
        rooms={1: C.MONK, 4: C.PEACEKEEPER},
        corpses=more.pop("corpses", {0: [C.BARON]}),
        money=list(money),
        cheques=list(cheques),
        queue=[1],
        **more,
    )
    state, _ = GAME.apply(state, 1, Pass())
    assert state.stage is Stage.UNDERTAKER
    return state


def test_the_undertaker_asks_in_a_private_panel_what_each_way_leaves() -> None:
    """The 40 F example: the table message says who is asked (only "Your turn…"
    there); alice's panel tells the fee, the Morning, and what each way leaves."""
    state = undertaker_state()
    ctx = context(state)
    assert [_inner(i).label for i in PRESENTER.table_items(ctx)] == ["Your turn…"]
    description = PRESENTER.table_embed(ctx).description or ""
    assert "Police investigation: **alice** owes the undertaker 10 F" in description
    assert "; then" not in description
    panel = PRESENTER.panel(ctx, 0, PANEL_CODE)
    assert panel.content.startswith(
        "⚰️ **Police investigation**: the undertaker wants **10 F** for your unburied"
        " corpse: Baron (Noble, rank 0)."
    )
    assert "your rooms pay you 1 F on the track (it holds at most 40 F" in panel.content
    assert "the track pays first, then cheques" in panel.content
    assert "Greenhouse" not in panel.content
    select = next(i for i in panel.items if isinstance(i, GameSelect))
    described = {o.value: (o.label, o.description) for o in select.item.options}
    assert described == {
        "undertaker.0": ("Pay 10 F from the track", "Leaves you 30 F on the track + 1 cheque"),
        "undertaker.1": (
            "Pay with 1 cheque",
            "Leaves you 40 F + 0 cheques; 1 F of this morning's income lost over 40 F",
        ),
    }
    assert PRESENTER.panel(ctx, 1, PANEL_CODE).content == t("refusal.not_prompted")
    hand = PRESENTER.hand(ctx, 0)
    assert hand.content == panel.content.split("\n💰")[0], "My hand shows the question"
    assert [o.value for i in hand.items if isinstance(i, GameSelect) for o in i.item.options] == [
        "undertaker.0",
        "undertaker.1",
    ]
    state, events = GAME.apply(state, 0, PayUndertaker(cheques=0))
    done = PRESENTER.after_choice(context(state), 0, PayUndertaker(cheques=0), events)
    assert done is not None and done.content.startswith("✅ Done.")
    assert "⚰️ **alice** pays the undertaker for Baron (Noble, rank 0): 10 F and 0" in done.content


def test_the_undertakers_panel_mixes_cash_and_cheques_and_names_the_greenhouse() -> None:
    state = undertaker_state(
        (25, 5),
        (3, 0),
        corpses={0: [C.BARON, C.MONK, C.NOVICE]},
        annexes={0: [annex(C.PRINCE)]},
    )
    panel = PRESENTER.panel(context(state), 0, PANEL_CODE)
    assert "Your Greenhouse pays 3 F at the end for each cheque you still hold." in panel.content
    select = next(i for i in panel.items if isinstance(i, GameSelect))
    assert [(o.value, o.label) for o in select.item.options] == [
        ("undertaker.1", "Pay 20 F from the track + 1 cheque"),
        ("undertaker.2", "Pay 10 F from the track + 2 cheques"),
        ("undertaker.3", "Pay with 3 cheques"),
    ]


def test_with_unlimited_wealth_the_undertakers_panel_loses_nothing_over_40_f() -> None:
    state = undertaker_state(options=BloodyInnOptions(unlimited_wealth=True))
    panel = PRESENTER.panel(context(state), 0, PANEL_CODE)
    assert "your rooms pay you 1 F, then 0 F of wages" in panel.content
    assert "at most 40 F" not in panel.content
    select = next(i for i in panel.items if isinstance(i, GameSelect))
    assert [o.description for o in select.item.options] == [
        "Leaves you 30 F on the track + 1 cheque",
        "Leaves you 40 F on the track + 0 cheques",
    ]


def test_the_table_message_names_who_pays_the_undertaker_now_and_next() -> None:
    state = rigged(
        3,
        hands=[[], [], []],
        rooms={4: C.MAJOR},
        corpses={0: [C.BARON], 1: [C.MONK], 2: [C.NOVICE]},
        money=[20, 30, 40],
        cheques=[1, 1, 1],
        queue=[2],
    )
    state, _ = GAME.apply(state, 2, Pass())
    ctx = context(state)
    description = PRESENTER.table_embed(ctx).description or ""
    assert "**alice** owes the undertaker 10 F and chooses how to pay" in description
    assert "; then bob, carol · " in description
    assert (
        picture.Picture(GAME.view(state, None), ["alice", "bob", "carol"]).phase()
        == "Police: alice pays the undertaker"
    )
