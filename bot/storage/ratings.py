"""Ratings: how a finished game moves its players' skill (per guild and game).

A Weng-Lin Bayesian rating (``openskill``'s Plackett-Luce model, free-for-all
games of any number of players): each player has a skill ``mu`` and an
uncertainty ``sigma``; rankings and leaderboards use the conservative
``ordinal`` (``mu - 3 sigma``), so one lucky game does not top a board.

Which games count, and how (the documented rule):

- only games played to their end (a moderator's end rates nobody);
- only people are rated: computer seats are left out, and a game counts when at
  least two people played it to its end (a person against computers alone
  moves no rating);
- places: the winners share first place; the others follow by the game's score
  where it has one (higher is better), else share the next place; a player a
  moderator removed (or who forfeited) is last, after everyone who finished.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

from .models import GameOutcome, GameRecord, RecordSeat, Skill

MODEL = PlackettLuce(mu=Skill().mu, sigma=Skill().sigma)


def rated_seats(record: GameRecord) -> list[RecordSeat]:
    """The seats whose players' ratings ``record`` moves (see the module's rule)."""
    if record.outcome is not GameOutcome.FINISHED:
        return []
    people = [s for s in record.seats if s.computer is None and s.user_id >= 0]
    if sum(not s.removed for s in people) < 2:
        return []
    return people


def places(seats: Sequence[RecordSeat]) -> list[int]:
    """Each seat's place (1 = first; equal places tie)."""
    return [_place_key(seat) for seat in seats]


def _place_key(seat: RecordSeat) -> int:
    """Smaller is better: winners, then the others by score, then the removed."""
    if seat.removed:
        return 3_000_000
    if seat.winner:
        return 0
    return 2_000_000 - (seat.score if seat.score is not None else 0)


def rate(record: GameRecord, before: Mapping[int, Skill]) -> dict[int, Skill]:
    """The new skills of the rated players of ``record`` (by user id), from their
    skills ``before`` it (a player not in ``before`` starts at the default)."""
    seats = rated_seats(record)
    if not seats:
        return {}
    skills = [before.get(seat.user_id, Skill()) for seat in seats]
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    rated = MODEL.rate(teams, ranks=[float(place) for place in places(seats)])
    return {
        seat.user_id: Skill(
            mu=team[0].mu,
            sigma=team[0].sigma,
            games=skill.games + 1,
            wins=skill.wins + seat.winner,
        )
        for seat, skill, team in zip(seats, skills, rated, strict=True)
    }


def replay(records: Sequence[GameRecord]) -> dict[int, Skill]:
    """Every player's skill after ``records`` (one guild's game, in the order they
    ended): what the stored ratings must equal."""
    skills: dict[int, Skill] = {}
    for record in records:
        skills.update(rate(record, skills))
    return skills
