"""The Mascarade presenter over thousands of random states: everything fits
Discord's limits, the public table message never depends on a card the
spectators have no fresh memory of, and private wording stays private."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.tables import Refusal
from bot.ui.i18n import has, t
from bot.ui.presenter import TableContext, hand_button
from cogs.mascarade import PRESENTER, parse_characters
from cogs.mascarade.presenter import PANELS
from games.base import Event, Seat
from games.mascarade import GAME, Character, MascaradeOptions, MascaradeState
from games.mascarade.models import (
    EVENT_ADAPTER,
    CardSeen,
    Decide,
    Look,
    Stage,
    Swap,
    SwapDecided,
)
from tests.cogs.contexts import table_context
from tests.cogs.payloads import check_embed, check_harmless, check_items, check_panel
from tests.games.mascarade.conformance import random_custom_set, scramble_unknown
from tests.games.mascarade.helpers import JUDGE, KING, QUEEN, rigged

TABLE_ID = 123456789
LONG_NAMES = [f"{chr(97 + i)}" * 29 + f"'{i:02d}" for i in range(13)]
"""32 characters (Discord's longest display name), all different."""
SHORT_NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace"]
SHORT_NAMES += ["heidi", "ivan", "judy", "kim", "leo", "max"]
COUNTED: list[int] = []
PRIVATE_WORDING = ("you look at", "you see", "you really swapped", "you only pretended")


def context(
    state: MascaradeState,
    *,
    names: list[str] = SHORT_NAMES,
    version: int = 98765,
    away: frozenset[Seat] = frozenset(),
) -> TableContext:
    return table_context(
        "mascarade", state, names=names, table_id=TABLE_ID, version=version, away=away
    )


# --- Discord's limits ---------------------------------------------------------------------


def public_rendering(ctx: TableContext) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    embed = PRESENTER.table_embed(ctx)
    check_embed(embed)
    items = PRESENTER.table_items(ctx)
    flat = check_items([*items, hand_button(ctx)])
    return dict(embed.to_dict()), flat


def random_states(seed: int, players: int, games: int) -> list[tuple[MascaradeState, list[Event]]]:
    """Every state of a few random games (with timeouts and removals), with the
    events that led to it."""
    rng = random.Random(seed)
    out: list[tuple[MascaradeState, list[Event]]] = []
    for game in range(games):
        custom = random_custom_set(players, rng) if players >= 4 and game % 2 else None
        state = GAME.setup(players, MascaradeOptions(characters=custom), rng.getrandbits(32))
        events: list[Event] = []
        out.append((state, events))
        while GAME.result(state) is None:
            roll = rng.random()
            if roll < 0.03:
                state, events = GAME.timeout(state)
            elif roll < 0.033:
                playing = [s for s in range(state.seats) if state.in_play[s]]
                state, events = GAME.forfeit(state, rng.choice(playing))
            else:
                (prompt,) = GAME.prompts(state)
                state, events = GAME.apply(state, prompt.player, rng.choice(prompt.choices))
            out.append((state, events))
    return out


@pytest.mark.parametrize("players", range(2, 14))
def test_everything_fits_discord_and_hides_unknown_cards(players: int) -> None:
    rng = random.Random(players)
    states = random_states(players, players, games=4)
    assert len(states) > 150
    COUNTED.append(len(states))
    for index, (state, events) in enumerate(states):
        names = LONG_NAMES if index % 2 else SHORT_NAMES
        away = frozenset({index % players})
        ctx = context(state, names=names, away=away)
        embed, flat = public_rendering(ctx)
        for line in PRESENTER.event_lines(ctx, events):
            assert 0 < len(line) <= 2000
            assert not any(w in line for w in PRIVATE_WORDING), line
        for seat in range(players):
            for line in PRESENTER.private_lines(ctx, seat, events):
                assert len(line) <= 2000
        if GAME.result(state) is not None:
            assert "🏆" in str(embed)
            continue
        # The table message from a state whose unknown cards are scrambled is the same.
        twin = scramble_unknown(state, None, rng)
        assert public_rendering(context(twin, names=names, away=away)) == (embed, flat), (
            "the public table message depends on a card the table does not know"
        )
        (prompt,) = GAME.prompts(state)
        seat = prompt.player
        check_panel(PRESENTER.hand(ctx, seat))
        check_panel(PRESENTER.hand(ctx, rng.randrange(players)))
        for code in PANELS:
            check_panel(PRESENTER.panel(ctx, seat, code))
        after = PRESENTER.after_choice(ctx, seat, prompt.choices[0], events)
        if after is not None:
            check_panel(after)
        check_the_prompt_is_reachable(ctx, seat, prompt.choices, flat)


def test_thousands_of_states_were_checked() -> None:
    """Runs after the parametrized test above (file order)."""
    assert sum(COUNTED) >= 2000 or len(COUNTED) < 12


def check_the_prompt_is_reachable(
    ctx: TableContext, seat: Seat, choices: tuple[Any, ...], public: list[dict[str, Any]]
) -> None:
    """Every legal choice is offered: a public button, or in the panel its button opens."""
    from bot.ui.codec import encode

    offered = {c["custom_id"].split(":")[-1] for c in public}
    for code in list(offered):
        if code.startswith("ui.panel."):
            panel = PRESENTER.panel(ctx, seat, code.removeprefix("ui.panel."))
            for c in check_items(panel.items) if panel.items else []:
                offered.update(o["value"] for o in c.get("options", []))
                offered.add(c["custom_id"].split(":")[-1])
    missing = [c for c in choices if encode(c) not in offered]
    assert not missing, f"choices offered nowhere: {missing}"


# --- what is shown when ------------------------------------------------------------------------


def test_the_opening_deal_is_face_up_then_hidden() -> None:
    state = GAME.setup(5, MascaradeOptions(first_player=0), 11)
    dealt = [c.value.capitalize() for c in state.cards]
    description = PRESENTER.table_embed(context(state)).description or ""
    for name in dealt:
        assert f"**{name}**" in description, "the opening deal is shown face up"
    state, _ = GAME.apply(state, 0, Swap(slot=0, target=1, target_slot=0))
    description = PRESENTER.table_embed(context(state)).description or ""
    assert not any(f"**{name}**" in description for name in dealt)
    state, _ = GAME.apply(state, 0, Decide(swap=True))
    description = PRESENTER.table_embed(context(state)).description or ""
    assert not any(f"**{name}**" in description for name in dealt), "hidden afterwards"
    assert description.count("🂠") == 6


def test_the_end_turns_every_card_over_and_names_the_winner() -> None:
    state = rigged([KING, QUEEN, JUDGE, *[Character.BISHOP, Character.WITCH]], coins=[12] + [6] * 4)
    from games.mascarade.models import Announce, Pass

    state, _ = GAME.apply(state, 0, Announce(slot=0, character=KING))
    for seat in (1, 2, 3, 4):
        state, events = GAME.apply(state, seat, Pass())
    ctx = context(state)
    embed = PRESENTER.table_embed(ctx)
    assert "🏆 **alice** wins" in str(embed.to_dict())
    for name in ("King", "Queen", "Judge", "Bishop", "Witch"):
        assert f"**{name}**" in (embed.description or "")
    assert any(
        "wins the game (13 coins or more)" in line for line in PRESENTER.event_lines(ctx, events)
    )
    assert PRESENTER.table_items(ctx) == []


def test_my_hand_tells_fresh_stale_and_unknown_memories() -> None:
    state = rigged([KING, QUEEN, JUDGE, Character.BISHOP, Character.WITCH])
    state, _ = GAME.apply(state, 0, Look(slot=0))
    hand = PRESENTER.hand(context(state), 0)
    assert hand.embed is not None
    text = str(hand.embed.to_dict())
    assert "Your card: **King**" in text and "bob's card: unknown" in text
    state, _ = GAME.apply(state, 1, Swap(slot=0, target=0, target_slot=0))
    hand = PRESENTER.hand(context(state), 0)
    assert not hand.items, "only the swapper is asked"
    own = PRESENTER.hand(context(state), 1)
    assert [i.item.label for i in own.items] == ["Swap them", "Don't swap"]  # type: ignore[attr-defined]
    state, _ = GAME.apply(state, 1, Decide(swap=False))
    assert hand.embed is not None
    text = str(PRESENTER.hand(context(state), 0).embed.to_dict())  # type: ignore[union-attr]
    assert "Your card: King? (maybe moved" in text


def test_private_events_read_only_in_private() -> None:
    state = rigged([KING, QUEEN, JUDGE, Character.BISHOP, Character.WITCH])
    state, events = GAME.apply(state, 0, Look(slot=0))
    ctx = context(state)
    assert any(isinstance(e, CardSeen) for e in events)
    public = "\n".join(PRESENTER.event_lines(ctx, events))
    assert "alice** looks at their card" in public and "King" not in public
    assert PRESENTER.private_lines(ctx, 0, events) == [
        f"#{TABLE_ID} · 👁️ you look at your card: **King**."
    ]
    assert PRESENTER.private_lines(ctx, 1, events) == []
    after = PRESENTER.after_choice(ctx, 0, Look(slot=0), events)
    assert after is not None and "**King**" in after.content
    state, _ = GAME.apply(
        state,
        1,
        Swap(slot=0, target=None, target_slot=0)
        if state.centre_size
        else Swap(slot=0, target=2, target_slot=0),
    )
    state, events = GAME.apply(state, 1, Decide(swap=True))
    assert any(isinstance(e, SwapDecided) for e in events)
    public = "\n".join(PRESENTER.event_lines(context(state), events))
    assert "swapped" not in public.replace("Swapped or not?", "")
    assert "really swapped" in "\n".join(PRESENTER.private_lines(context(state), 1, events))


# --- options ------------------------------------------------------------------------------


def test_a_custom_set_is_parsed_and_checked_by_the_engine() -> None:
    cards = parse_characters("Judge, bishop, the King ,Queen; Thief, Cheat", None)
    assert cards == (
        JUDGE,
        Character.BISHOP,
        KING,
        QUEEN,
        Character.THIEF,
        Character.CHEAT,
    )
    summary = PRESENTER.options_summary(MascaradeOptions(characters=cards).model_dump_json(), None)
    assert "Thief" in summary and "4-6 players" in summary
    assert "official" in PRESENTER.options_summary(MascaradeOptions().model_dump_json(), None)
    with pytest.raises(Refusal) as unknown:
        parse_characters("Judge, Jester, King", None)
    assert "Jester" in str(unknown.value.params["reason"])
    with pytest.raises(Refusal) as hostile:
        parse_characters("Judge, <@123456789012345678> [x](https://evil.example)", None)
    check_harmless([str(hostile.value.params["reason"])])
    with pytest.raises(Refusal) as no_judge:
        parse_characters("Bishop, King, Queen, Thief, Cheat, Witch", None)
    assert "Judge must always be in" in str(no_judge.value.params["reason"])
    with pytest.raises(Refusal) as in_italian:
        parse_characters("Vescovo, Re, regina, Ladro, Baro, Strega", "it")
    assert "Il Giudice deve essere sempre in gioco." in str(in_italian.value.params["reason"])
    with pytest.raises(Refusal) as one_peasant:
        parse_characters("Judge, King, Queen, Peasant, Witch, Cheat, Bishop, Fool", None)
    assert "Peasants always come as a pair" in str(one_peasant.value.params["reason"])
    text = t("refusal.invalid_options", None, **one_peasant.value.params)
    assert text.startswith("These options do not make a playable game")


# --- texts --------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
LITERAL = re.compile(r'"(mascarade\.[a-z0-9_.]*[a-z0-9_])"')
OWN = re.compile(r'\btext\(\s*ctx,\s*"([a-z0-9_.]*[a-z0-9_])"')
"""A key of the presenter's ``self.text(ctx, "<key>", ...)``: ``mascarade.<key>``."""


def test_every_literal_key_and_every_variant_has_english_text() -> None:
    keys = set()
    for path in (ROOT / "cogs" / "mascarade").rglob("*.py"):
        if path.name == "strings.py":
            continue  # the texts themselves: the keys the code uses are checked
        code = path.read_text()
        keys.update(LITERAL.findall(code))
        keys.update(f"mascarade.{key}" for key in OWN.findall(code))
    assert len(keys) > 40
    assert [k for k in keys if not has(k)] == []
    for character in Character:
        assert has(f"mascarade.card.{character.value}")
    for stage in (Stage.BISHOP, Stage.WITCH, Stage.SPY, Stage.FOOL_FIRST, Stage.INQUISITOR):
        assert has(f"mascarade.now.{stage.value}")
    for slot in range(3):
        assert has(f"mascarade.slot.{slot}")
    for code in ("swap", "look", "announce"):
        assert has(f"mascarade.panel.{code}") and has(f"mascarade.panel.{code}_placeholder")
    silent = {"swap_decided", "card_seen"}  # private: DM texts only
    for variant in EVENT_ADAPTER.json_schema()["discriminator"]["mapping"]:
        if variant in silent:
            assert any(k.startswith(f"mascarade.dm.{variant}") for k in _all_keys())
        else:
            assert any(k.startswith(f"mascarade.log.{variant}") for k in _all_keys()), variant


def _all_keys() -> list[str]:
    from cogs.mascarade.strings import STRINGS

    return list(STRINGS)
