"""How standings read: /stats, /leaderboard and /history, as embeds in the
reader's language. Players appear as mentions (an embed's mention shows the
member's name and pings nobody); computers by their escaped names. Nothing here
comes from a running game: records are written when a game is over."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import discord

from bot.storage.models import GameOutcome, GameRecord, PlayerResult, RecordSeat, Standing

from .i18n import decimal, percent, t
from .limits import fit_embed
from .names import markdown_name


@dataclass(frozen=True)
class Summary:
    """What a player's finished games add up to."""

    games: int
    wins: int
    best_streak: int
    favourite: str | None
    favourite_games: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def summary(results: Sequence[PlayerResult]) -> Summary:
    """``results`` oldest first."""
    streak = best = 0
    for result in results:
        streak = streak + 1 if result.winner else 0
        best = max(best, streak)
    played = Counter(result.game for result in results)
    favourite, count = played.most_common(1)[0] if played else (None, 0)
    return Summary(len(results), sum(r.winner for r in results), best, favourite, count)


def game_title(game: str, locale: str | None) -> str:
    return t(f"{game}.title", locale)


def stats_embed(
    user_id: int,
    game: str | None,
    results: Sequence[PlayerResult],
    standings: dict[str, Standing],
    locale: str | None,
    counters: Mapping[str, Mapping[str, int]] | None = None,
) -> discord.Embed:
    """``standings``: the player's place in each game it is rated in; ``counters``:
    its totals of each game's own statistics (``GameEntry.stats``), by game."""
    if game is None:
        about = t("standings.stats_of", locale, user=user_id)
    else:
        about = t("standings.stats_of_game", locale, user=user_id, game=game_title(game, locale))
    embed = discord.Embed(title=t("standings.stats_title", locale), description=about)
    if not results:
        embed.description = t("standings.no_games", locale, user=user_id)
        return embed
    done = summary(results)
    rate = percent(done.win_rate, locale)
    embed.add_field(
        name=t("standings.games", locale),
        value=t("standings.games_value", locale, count=done.games),
    )
    embed.add_field(
        name=t("standings.wins", locale),
        value=t("standings.wins_value", locale, wins=done.wins, rate=rate),
    )
    embed.add_field(
        name=t("standings.streak", locale),
        value=t("standings.streak_value", locale, count=done.best_streak),
    )
    if game is None and done.favourite is not None:
        favourite = game_title(done.favourite, locale)
        value = t("standings.favourite_value", locale, game=favourite, count=done.favourite_games)
        embed.add_field(name=t("standings.favourite", locale), value=value)
    ratings = _ratings(standings, locale)
    embed.add_field(name=t("standings.ratings", locale), value=ratings, inline=False)
    for name, totals in sorted((counters or {}).items()):
        if totals:
            value = t(f"{name}.stats.value", locale, **totals)
            embed.add_field(name=t(f"{name}.stats.title", locale), value=value, inline=False)
    return fit_embed(embed)


def _ratings(standings: dict[str, Standing], locale: str | None) -> str:
    lines = [
        t(
            "standings.rating_line",
            locale,
            game=game_title(game, locale),
            rating=decimal(standing.skill.ordinal, locale),
            uncertainty=decimal(3 * standing.skill.sigma, locale),
            rank=standing.rank,
        )
        for game, standing in sorted(standings.items())
    ]
    return "\n".join(lines) or t("standings.unrated", locale)


def leaderboard_embed(
    game: str, board: Sequence[Standing], mine: Standing | None, locale: str | None
) -> discord.Embed:
    title = game_title(game, locale)
    lines = [
        t(
            "standings.board_line",
            locale,
            rank=standing.rank,
            user=standing.user_id,
            rating=decimal(standing.skill.ordinal, locale),
            count=standing.skill.games,
        )
        for standing in board
    ]
    embed = discord.Embed(
        title=t("standings.board_title", locale, game=title),
        description="\n".join(lines) or t("standings.board_empty", locale, game=title),
    )
    if board and all(standing.user_id != (mine.user_id if mine else None) for standing in board):
        if mine is None:
            you = t("standings.board_you_unrated", locale, game=title)
        else:
            rating = decimal(mine.skill.ordinal, locale)
            you = t("standings.board_you", locale, rank=mine.rank, rating=rating)
        embed.description = f"{embed.description}\n\n{you}"
    embed.set_footer(text=t("standings.board_footer", locale))
    return fit_embed(embed)


def history_embed(records: Sequence[GameRecord], locale: str | None) -> discord.Embed:
    lines = [_history_line(record, locale) for record in records]
    return fit_embed(
        discord.Embed(
            title=t("standings.history_title", locale),
            description="\n".join(lines) or t("standings.history_empty", locale),
        )
    )


def _history_line(record: GameRecord, locale: str | None) -> str:
    winners = [seat for seat in record.seats if seat.winner]
    if record.outcome is GameOutcome.ENDED:
        outcome = t("standings.ended", locale)
    elif winners:
        outcome = t("standings.won_by", locale, winners=", ".join(map(_who, winners)))
    else:
        outcome = t("standings.nobody_won", locale)
    return t(
        "standings.history_line",
        locale,
        game=game_title(record.game, locale),
        table=record.table_id,
        players=", ".join(_who(seat) for seat in record.seats),
        outcome=outcome,
        when=f"<t:{int(record.ended_at)}:R>",
    )


def _who(seat: RecordSeat) -> str:
    """A person's mention (its current name, pinging nobody in an embed); a
    computer's name, escaped."""
    return markdown_name(seat.name) if seat.computer is not None else f"<@{seat.user_id}>"
