"""Ratings move the right way, rate only what the rule says, and the stored ones
are what replaying the records gives."""

from __future__ import annotations

from bot.storage import GameOutcome, GameRecord, RecordSeat, Skill
from bot.storage.ratings import places, rate, rated_seats, replay


def record(*seats: RecordSeat, outcome: GameOutcome = GameOutcome.FINISHED) -> GameRecord:
    return GameRecord(
        table_id=1,
        guild_id=5,
        channel_id=6,
        game="complots",
        options_json="{}",
        outcome=outcome,
        ended_at=100.0,
        steps=30,
        seats=list(seats),
    )


def person(seat: int, *, winner: bool = False, **fields: object) -> RecordSeat:
    return RecordSeat(seat=seat, user_id=100 + seat, name=f"p{seat}", winner=winner, **fields)


def computer(seat: int) -> RecordSeat:
    return RecordSeat(seat=seat, user_id=-1 - seat, name="🤖 Ada", computer="normal")


def test_the_winner_goes_up_and_the_losers_down() -> None:
    after = rate(record(person(0), person(1, winner=True), person(2)), {})
    start = Skill()
    assert after[101].mu > start.mu > after[100].mu == after[102].mu
    assert all(skill.sigma < start.sigma for skill in after.values()), "more certain"
    assert (after[101].games, after[101].wins, after[100].wins) == (1, 1, 0)


def test_shared_winners_share_first_place() -> None:
    after = rate(record(person(0, winner=True), person(1, winner=True), person(2)), {})
    assert after[100] == after[101]
    assert after[100].mu > Skill().mu > after[102].mu


def test_losers_are_placed_by_score_and_the_removed_last() -> None:
    seats = [
        person(0, winner=True, score=40),
        person(1, score=10),
        person(2, score=30),
        person(3, removed=True, score=50),
    ]
    order = sorted(range(4), key=lambda i: places(seats)[i])
    assert order == [0, 2, 1, 3]
    after = rate(record(*seats), {})
    assert after[100].mu > after[102].mu > after[101].mu > after[103].mu


def test_computers_are_not_rated_and_one_person_alone_moves_nothing() -> None:
    mixed = record(person(0, winner=True), computer(1), person(2))
    assert [s.user_id for s in rated_seats(mixed)] == [100, 102]
    assert set(rate(mixed, {})) == {100, 102}
    assert rate(record(person(0, winner=True), computer(1), computer(2)), {}) == {}
    assert rate(record(person(0, winner=True), person(1, removed=True)), {}) == {}


def test_a_game_a_moderator_ended_rates_nobody() -> None:
    assert rate(record(person(0), person(1), outcome=GameOutcome.ENDED), {}) == {}


def test_ratings_start_from_the_previous_ones() -> None:
    strong = Skill(mu=35.0, sigma=2.0, games=40, wins=30)
    after = rate(record(person(0, winner=True), person(1)), {100: strong})
    assert after[100].games == 41 and after[100].wins == 31
    assert 35.0 < after[100].mu < 35.5, "an expected win moves a sure rating little"
    assert replay([record(person(0, winner=True), person(1))] * 2)[100].games == 2
