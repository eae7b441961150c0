"""What standings add up to and how they read."""

from __future__ import annotations

from bot.storage.models import GameOutcome, GameRecord, PlayerResult, RecordSeat
from bot.ui.standings import history_embed, summary


def result(game: str, winner: bool, at: float) -> PlayerResult:
    return PlayerResult(table_id=int(at), game=game, ended_at=at, winner=winner)


def test_a_summary_counts_wins_the_best_streak_and_the_favourite_game() -> None:
    wins = [True, True, False, True, True, True, False]
    games = ["complots", "mascarade", "complots", "complots", "conspiracy", "complots", "mascarade"]
    done = summary([result(g, w, i) for i, (g, w) in enumerate(zip(games, wins, strict=True))])
    assert (done.games, done.wins, done.best_streak) == (7, 5, 3)
    assert (done.favourite, done.favourite_games) == ("complots", 4)
    assert summary([]).win_rate == 0.0 and summary([]).favourite is None


def test_history_names_computers_escaped_and_people_by_mention() -> None:
    record = GameRecord(
        table_id=12,
        guild_id=1,
        channel_id=2,
        game="complots",
        options_json="{}",
        outcome=GameOutcome.FINISHED,
        ended_at=1_800_000_000,
        steps=20,
        seats=[
            RecordSeat(seat=0, user_id=5, name="@everyone **x**", winner=True),
            RecordSeat(seat=1, user_id=-1, name="🤖 *Ada*", computer="easy"),
        ],
    )
    text = history_embed([record], "it").description or ""
    assert "<@5>" in text and "@everyone" not in text, "a person by its mention only"
    assert "🤖 \\*Ada\\*" in text, "a computer's name, escaped"
    assert "<t:1800000000:R>" in text and "vinta da <@5>" in text
