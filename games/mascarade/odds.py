"""Who is likely to win an unfinished game of Mascarade: a fitted estimate.

HARD's simulations stop after ``horizon`` choices and score the unfinished game
(``MascaradeSampler.estimate``). The old score, a softmax of the coins (scale 2),
is worse than a coin at six players: coins say little while the cards move. This
one is a conditional logit (a softmax over the players) of a few features of each
player in the sampled state, its card included (a simulation's state is whole),
fitted on NORMAL self-play (bench/mascarade_fit.py plays, fits and prints; its
docstring has the held-out figures). One set of coefficients per fitted player
count; a table of another size uses the nearest fitted one. Hands of two or three
cards (2 and 3 players) keep the coin softmax: the features read one card a seat.

With it, HARD against remembering NORMALs at 0.2 s of CPU (bench.ai, seed 1) won
45.0 % (38.3-51.9) of 200 games at 4 players (39.0 % of 100 before) and 16.5 %
(12.0-22.3) of 200 at 6 (its first 60: 21.7 %, as before): no better than NORMAL
there, where a decision got a median of 13 simulations. Trusting the estimate
sooner (simulations cut six choices after the turn being decided, some 70 of them
a decision: games.mascarade ``AFTER_TURN``), HARD won 29.0 % (23.2-35.6) of the
same 200 games at 6 players.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import Seat
from games.search import softmax

from .cards import BANK_GAINS, BISHOP_TAKES, CHEAT_COINS, WIDOW_TARGET, WINNING_COINS, Character
from .models import MascaradeState

FEATURES = ("coins", "gain", "cheat_ready", "win_now", "knows", "knows_gain", "wait", "richest")
"""Per player: its coins; what its card's power would bring it now (coins); it holds
the Cheat with 10+ coins; its card would win now; it knows its card (a fresh
memory); that knowledge times the gain; how far its turn is (share of a round, 0
for the player to move); it is (one of) the richest."""

ROBBING_GAIN = 2.0
"""The Thief's and the Inquisitor's rough gain (two neighbours' coin, a likely miss)."""

REMOVED = -1e3
"""A removed player's logit: no chance."""

COEFFICIENTS: dict[int, tuple[float, ...]] = {
    4: (0.45244, 0.30887, 0.82681, 0.94841, 1.1638, -0.26782, -0.9592, -0.36804),
    6: (0.23166, 0.10177, 0.71547, 1.1081, 0.27381, -0.031814, -0.55544, -0.58738),
    10: (0.25603, 0.07366, 0.73988, 1.5366, 0.099955, 0.16893, -0.64789, -0.68082),
}
"""Fitted by bench/mascarade_fit.py, per player count (FEATURES order)."""


def power_gain(state: MascaradeState, seat: Seat, character: Character) -> float:
    """Coins the seat's use of the power would bring it now (roughly)."""
    mine = state.coins[seat]
    others = [c for s, c in enumerate(state.coins) if s != seat and state.in_play[s]]
    richest = max(others, default=0)
    if character in BANK_GAINS:
        return float(BANK_GAINS[character])
    if character is Character.WIDOW:
        return float(max(0, WIDOW_TARGET - mine))
    if character is Character.JUDGE:
        return float(state.courthouse)
    if character is Character.BISHOP:
        return float(min(BISHOP_TAKES, richest))
    if character is Character.WITCH:
        return float(max(0, richest - mine))
    if character in (Character.THIEF, Character.INQUISITOR):
        return ROBBING_GAIN
    return 0.0


def features(state: MascaradeState, seat: Seat) -> tuple[float, ...]:
    """The seat's FEATURES (its first card: one a seat from 4 players on)."""
    place = seat * state.hand_size
    card = state.cards[place]
    coins = float(state.coins[seat])
    gain = power_gain(state, seat, card)
    cheat = float(card is Character.CHEAT and coins >= CHEAT_COINS)
    win = float(bool(cheat) or coins + gain >= WINNING_COINS)
    memory = state.knowledge[seat]
    knows = float(memory.seen[place] is card and not memory.stale[place])
    wait = ((seat - state.turn) % state.seats) / state.seats
    richest = float(coins >= max(state.coins))
    return (coins, gain, cheat, win, knows, knows * gain, wait, richest)


def coefficients_for(players: int) -> tuple[float, ...] | None:
    """The fitted coefficients of the nearest fitted player count (None below 4)."""
    if players < min(COEFFICIENTS, default=4) or not COEFFICIENTS:
        return None
    return COEFFICIENTS[min(COEFFICIENTS, key=lambda n: (abs(n - players), n))]


def win_chances(state: MascaradeState, coefficients: Sequence[float]) -> list[float]:
    """Every seat's chance to win, by the fitted logit."""
    logits = [
        sum(c * x for c, x in zip(coefficients, features(state, seat), strict=True))
        if state.in_play[seat]
        else REMOVED
        for seat in range(state.seats)
    ]
    return softmax(logits)
