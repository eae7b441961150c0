"""bench.mascarade_ends plays the games of tests.games.playouts, and reads their ends."""

from __future__ import annotations

from bench.mascarade_ends import ending, play
from games.ai import Level
from games.mascarade import GAME
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
