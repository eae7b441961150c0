"""bench.mascarade_ends plays the games of tests.games.playouts, and reads their ends."""

from __future__ import annotations

from bench.mascarade_ends import Seer, ending, play
from games.ai import Level
from games.base import Event, GameState, Seat
from games.mascarade import GAME, Character, MascaradeState
from games.mascarade.ai import POLICIES
from tests.games.playouts import play_out


def test_it_plays_the_same_game_as_the_playouts_and_records_its_last_claim() -> None:
    normal = POLICIES[Level.NORMAL]
    for seed in (1, 2):
        game = play([normal] * 5, seed, hero=0)
        assert game.winners == play_out(GAME, [normal] * 5, seed).result.winners
        assert game.winners and game.claims
        character, held, contested, won = ending(game)
        claim = game.last
        assert claim.character == character
        assert (won == "claimant won") == (claim.claimant in game.winners)
        assert (contested == "contested") == bool(claim.contesters)
        assert held in ("true", "bluff")


def test_the_seer_decides_from_the_cards_of_the_state_it_decides_in() -> None:
    """Its cards at each of its decisions are the real ones then (as a watch of the
    same game sees them), not those of the deal or of a step behind."""
    players, seed, hero = 6, 3, 2
    seer = Seer()
    seats = [POLICIES[Level.NORMAL]] * players
    seats[hero] = seer
    real: list[list[Character]] = []

    def watch(
        before: GameState, seat: Seat, choice: object, events: list[Event], after: GameState
    ) -> None:
        if seat == hero:
            assert isinstance(before, MascaradeState)
            real.append(list(before.cards))

    play(seats, seed, hero, also=watch)
    assert len(real) > 3 and seer.seen == real
    assert any(cards != real[0] for cards in real)
