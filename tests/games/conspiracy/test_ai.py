"""Conspiracy computer players: what they import, how they play, how well. (All-computer
games and view-only decisions: the conformance suite, tests/games/conformance.)"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games.ai import RANDOM, Level, Policy
from games.base import Seat
from games.conspiracy import GAME, Colour, ConspiracyOptions, ConspiracyState, LocationId, ai
from games.conspiracy.ai import (
    PEARL_MASTER_POINTS,
    POLICIES,
    Board,
    NormalPolicy,
    Weights,
    coalition_value,
    context_of,
    expected_best,
    expected_best_of,
    expected_bests,
    locations_total,
)
from games.conspiracy.models import (
    ConspiracyChoice,
    ConspiracyView,
    KeepLord,
    LordsSwapped,
    PlaceNext,
    RevealLords,
    SkipSwap,
    Stage,
    SwapPick,
    TakeLocation,
    TakePile,
)
from games.conspiracy.scoring import score_all
from tests.games.conspiracy.helpers import largest_coalition
from tests.games.playouts import hero_share

from ..ai_imports import assert_view_only
from .helpers import Table, rigged

R, G, B, Y = Colour.RED, Colour.GREEN, Colour.BLUE, Colour.YELLOW
L = LocationId
EASY = POLICIES[Level.EASY]
NORMAL = POLICIES[Level.NORMAL]


# --- what a policy may see -------------------------------------------------------------


def prompted_states(players: int, seed: int, every: int) -> list[ConspiracyState]:
    """Every ``every``-th state of a random game (all of them prompt someone)."""
    state = GAME.setup(players, ConspiracyOptions(), seed)
    rng = random.Random(seed)
    found: list[ConspiracyState] = []
    while GAME.result(state) is None:
        if state.step % every == 0:
            found.append(state)
        prompt = GAME.prompts(state)[0]
        state, _ = GAME.apply(state, prompt.player, rng.choice(prompt.choices))
    return found


def test_the_policies_import_neither_the_engine_nor_the_state() -> None:
    assert_view_only("conspiracy", {"ConspiracyState", "GAME", "Conspiracy"})


# --- how they play -----------------------------------------------------------------------


def view_of(table: Table, seat: Seat = 0) -> ConspiracyView:
    return GAME.view(table.state, seat)


def choice_of(policy: Policy[Any, Any], table: Table, seat: Seat = 0) -> ConspiracyChoice:
    choice: ConspiracyChoice = policy.choose(view_of(table, seat), random.Random(1))
    return choice


JOINING_CHAMBER = ["r6", "r4", "b3", "r4", "r3", "b4", "r0"]
"""Red groups {1, 2, 7} and {4, 5}: a red Lord on place 8 (touching 3, 4, 7, 9) joins them."""


def test_normal_keeps_the_lord_that_joins_its_coalition() -> None:
    table = Table(rigged([JOINING_CHAMBER, []], deck_top=["r3", "y6"]))
    table.do(0, RevealLords(count=2))
    assert choice_of(NORMAL, table) == KeepLord(colour=R, influence=3)
    table.do(0, KeepLord(colour=R, influence=3))
    assert largest_coalition(tuple(p.colour for p in view_of(table).players[0].chamber)) == 6


def test_easy_keeps_the_most_influential_lord() -> None:
    """EASY counts influence only: it does not see the coalition the red Lord makes."""
    table = Table(rigged([JOINING_CHAMBER, []], deck_top=["r3", "y6"]))
    table.do(0, RevealLords(count=2))
    assert choice_of(EASY, table) == KeepLord(colour=Y, influence=6)


def test_normal_keeps_the_key_that_completes_a_pair() -> None:
    """A second silver key takes a Location now; the other Lord adds 2 pearls that do
    not win the Pearl Master."""
    table = Table(
        rigged(
            [["g6", "b4", "b3"], []],
            deck_top=["g1", "g3"],
            keys=[(1, 0), (0, 0)],
            face_up=[L.POINTS_7],
            pearls=[0, 5],
            pearl_master=1,
        )
    )
    table.do(0, RevealLords(count=2))
    assert choice_of(NORMAL, table) == KeepLord(colour=G, influence=1)


def test_normal_takes_the_location_worth_most_on_its_chamber() -> None:
    """The red-count Location is worth 1 + 9 here, more than the 7-point one."""
    chamber = ["r6", "r4", "r3", "r4", "r3", "r1", "r1", "r0"]
    table = Table(
        rigged(
            [chamber, []],
            deck_top=["r1"],
            keys=[(1, 0), (0, 0)],
            face_up=[L.POINTS_7, L.COUNT_RED],
        )
    )
    table.do(0, RevealLords(count=1))
    assert table.state.stage is Stage.LOCATION
    assert table.default() == TakeLocation(location=L.POINTS_7)
    assert choice_of(NORMAL, table) == TakeLocation(location=L.COUNT_RED)


def test_normal_takes_pearls_that_win_the_pearl_master_on_its_last_turn() -> None:
    """3 pearls (3 points + the Pearl Master's 5) beat 1 pearl and 5 points."""
    state = rigged(
        [["y6", "b4", "b3"], ["g3"]],
        deck_top=["y1"],
        keys=[(1, 0), (0, 0)],
        face_up=[L.PEARL_1, L.PEARLS_3],
        pearls=[1, 3],
        pearl_master=1,
        owned=[[], [(L.POINTS_7, 1), (L.PEARLS_2, 1), (L.LOCATIONS, 1), (L.PEARL_PAIRS, 1)]],
    )
    state.ender, state.last_turns = 1, []
    table = Table(state)
    table.do(0, RevealLords(count=1))
    assert choice_of(NORMAL, table) == TakeLocation(location=L.PEARLS_3)
    table.do(0, TakeLocation(location=L.PEARLS_3))
    assert table.state.pearl_master == 0


def test_normal_takes_a_pile_that_grows_its_coalition_and_draws_instead_of_junk() -> None:
    chamber = ["r6", "r4", "r3"]
    table = Table(rigged([chamber, []], piles={R: ["r4", "r3"], B: ["b0"]}))
    assert choice_of(NORMAL, table) == TakePile(colour=R)
    junk = Table(rigged([chamber, []], piles={B: ["b0"]}))
    assert isinstance(choice_of(NORMAL, junk), RevealLords)


def test_normal_takes_a_pile_its_next_opponent_wants() -> None:
    """Seat 1's green group touches its next places: NORMAL takes the green pile from it,
    where a player blind to the opponent would rather reveal."""
    table = Table(
        rigged([["r6", "r4", "r3", "g6"], ["g0", "g4", "g1", "g1"]], piles={G: ["g3", "g4"]})
    )
    assert choice_of(NORMAL, table) == TakePile(colour=G)
    blind = NormalPolicy(Weights(deny=0.0))
    assert isinstance(choice_of(blind, table), RevealLords)


def test_normal_places_the_key_first_when_the_chamber_overflows() -> None:
    """One place left for two yellow Lords: the silver key (a Location) goes in, not the
    3 (yellow's best is 6 already, and 2 pearls do not win the Pearl Master)."""
    chamber = ["r1", "r1", "r2", "r2", "r3", "r3", "r4", "y4", "y6", "y2", "b3", "b3", "b4", "b4"]
    table = Table(
        rigged(
            [chamber, []],
            piles={Y: ["y3", "y1"]},
            keys=[(1, 0), (0, 0)],
            pearls=[0, 9],
            pearl_master=1,
            face_up=[L.POINTS_7],
        )
    )
    table.do(0, TakePile(colour=Y))
    assert table.state.stage is Stage.ORDER
    assert table.default() == PlaceNext(colour=Y, influence=3)
    assert choice_of(NORMAL, table) == PlaceNext(colour=Y, influence=1)


def play_swap(policy: Policy[Any, Any], table: Table) -> None:
    while table.state.stage in (Stage.SWAP_FIRST, Stage.SWAP_SECOND):
        table.do(0, choice_of(policy, table))


def test_normal_swaps_two_lords_to_make_a_bigger_coalition() -> None:
    table = Table(rigged([["r6", "b4", "r3", "b3", "r4"], []], deck_top=["b0"]))
    table.do(0, RevealLords(count=1))
    assert table.state.stage is Stage.SWAP_FIRST
    assert isinstance(choice_of(NORMAL, table), SwapPick)
    play_swap(NORMAL, table)
    assert table.of_type(LordsSwapped)
    assert score_all(table.state)[0].coalition_size == 3


def test_normal_skips_a_swap_that_gains_nothing() -> None:
    """Only the yellow 3 and the blue 0 may move (key Lords may not), and moving them
    joins nothing."""
    table = Table(rigged([["y3", "r1", "b1", "b2", "r2"], []], deck_top=["b0"]))
    table.do(0, RevealLords(count=1))
    assert table.state.stage is Stage.SWAP_FIRST
    assert choice_of(NORMAL, table) == SkipSwap()


def test_room_to_grow_counts_while_the_game_lasts() -> None:
    """Two groups of 2: the one touching free places is worth more, until the last turn."""
    open_group = (R, R, B, Y, B)  # places 1-2 touch free places 6 and 7
    shut_group = (B, Y, B, R, R)  # places 4-5 touch 8 and 9, the same number...
    view = view_of(Table(rigged([["r6"], []])))
    ctx = context_of(view, 0, Weights())
    assert coalition_value(ctx, open_group) == coalition_value(ctx, shut_group)
    boxed = (R, R, B, Y, B, B, Y)  # ...but 6 and 7 are taken now: red is boxed in
    grown = (R, R, B, Y, B, R, Y)
    assert coalition_value(ctx, grown) > coalition_value(ctx, boxed)
    ctx.horizon = 0.0
    assert coalition_value(ctx, (R, R, B, Y, B)) == 6.0


def test_the_chamber_is_scored_as_the_game_scores_it() -> None:
    """NORMAL's own count (from the view: faces, not Lord ids) is the engine's score."""
    for seed in range(6):
        for state in prompted_states(3, seed, every=5):
            view = GAME.view(state, None)
            for player, score in zip(view.players, view.scores, strict=True):
                board = Board.of(player)
                master = PEARL_MASTER_POINTS if player.pearl_master else 0
                counted = (
                    board.influence_points()
                    + locations_total(board)
                    + 3 * largest_coalition(board.colours)
                    + master
                )
                assert counted == score.total


def test_expected_best_of_a_blind_reveal() -> None:
    assert expected_best([1.0, 2.0, 3.0], 1) == pytest.approx(2.0)
    assert expected_best([1.0, 2.0, 3.0], 2) == pytest.approx((2 + 3 + 3) / 3)
    assert expected_best([1.0, 2.0, 3.0], 3) == pytest.approx(3.0)
    assert expected_best([], 2) == 0.0


def test_the_expected_bests_of_several_counts_are_each_count_s_own() -> None:
    copies: Counter[float] = Counter({4.5: 2, 1.0: 3, -2.0: 1, 7.25: 1})
    counts = (1, 2, 3, 9)
    assert expected_bests(copies, counts) == [expected_best_of(copies, n) for n in counts]


def forget_everything() -> None:
    for memo in (ai.PROSPECTS, ai.SINGLES, ai.GROUPS, ai.REVEALS, ai.LOCATION_REVEALS):
        memo.clear()


def normal_values(view: ConspiracyView) -> list[float]:
    """NORMAL's value of every choice, its deny included (2 players: the threat)."""
    assert view.prompt is not None and view.viewer is not None
    normal = NormalPolicy()
    ctx = context_of(view, view.viewer, normal.weights)
    return [normal.value(ctx, choice) for choice in view.prompt.choices]


@pytest.mark.parametrize("players", [2, 3])
def test_what_normal_remembers_does_not_change_its_values(players: int) -> None:
    """The memos (reveals, piles, Locations, by everything they depend on) give the
    values computed afresh, after a whole game of remembering."""
    forget_everything()
    states = prompted_states(players, seed=9, every=1)
    views = [GAME.view(state, GAME.awaiting(state)[0]) for state in states]
    remembered = [normal_values(view) for view in views]
    afresh = []
    for view in views:
        forget_everything()
        afresh.append(normal_values(view))
    assert remembered == afresh
    assert any(len(values) > 3 for values in afresh), "recruits with piles were valued"


# --- how well -----------------------------------------------------------------------------


def hero_wins(hero: Policy[Any, Any], others: Policy[Any, Any], players: int, games: int) -> float:
    """The hero's share of wins (a shared win counts its share), rotating its seat."""
    return hero_share(GAME, hero, others, players, games, 10_000)


@pytest.mark.slow
def test_normal_beats_random_and_easy() -> None:
    """Three players, fixed seeds (fair share 1/3). Measured on exactly these games;
    every bound is 3.5 binomial sd or more below."""
    assert hero_wins(NORMAL, RANDOM, 3, 40) >= 0.8  # measured 1.0 (0.98 over 120 games)
    assert hero_wins(EASY, RANDOM, 3, 120) >= 0.4  # measured 0.567 (sd 0.045)
    assert hero_wins(NORMAL, EASY, 3, 40) >= 0.75  # measured 1.0 (EASY among EASY: 0.3)
