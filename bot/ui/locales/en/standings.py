"""English of the standings: /stats, /leaderboard and /history."""

from bot.ui.i18n import Plural, Text

STRINGS: dict[str, Text] = {
    "standings.stats_title": "Player statistics",
    "standings.stats_of": "<@{user}> in this server",
    "standings.stats_of_game": "<@{user}> at {game} in this server",
    "standings.no_games": "<@{user}> has not finished a game here yet.",
    "standings.games": "Games",
    "standings.games_value": Plural("{count} finished", "{count} finished"),
    "standings.wins": "Wins",
    "standings.wins_value": "{wins} ({rate})",
    "standings.streak": "Best streak",
    "standings.streak_value": Plural("{count} win in a row", "{count} wins in a row"),
    "standings.favourite": "Favourite game",
    "standings.favourite_value": Plural("{game} ({count} game)", "{game} ({count} games)"),
    "standings.ratings": "Ratings",
    "standings.rating_line": "{game}: **{rating}** ± {uncertainty} · #{rank}",
    "standings.unrated": "Not rated yet: ratings count games with at least two people.",
    "standings.board_title": "Leaderboard · {game}",
    "standings.board_line": Plural(
        "**{rank}.** <@{user}> · {rating} ({count} game)",
        "**{rank}.** <@{user}> · {rating} ({count} games)",
    ),
    "standings.board_empty": "Nobody is rated at {game} in this server yet.",
    "standings.board_you": "You: #{rank} · {rating}",
    "standings.board_you_unrated": "You are not rated at {game} yet.",
    "standings.board_footer": (
        "Rated by skill minus three times its uncertainty: a few lucky games do not top the board."
    ),
    "standings.history_title": "Recent games",
    "standings.history_empty": "No game has ended in this server yet.",
    "standings.history_line": "**{game}** #{table} · {players} · {outcome} · {when}",
    "standings.won_by": "won by {winners}",
    "standings.nobody_won": "nobody won",
    "standings.ended": "ended by a moderator",
}
