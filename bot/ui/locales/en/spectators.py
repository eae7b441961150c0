"""English of spectators: the Watch button and its panel, and the lobby's option
that hides the live table from non-players until the game ends.

What "hidden" hides, while the game runs: the table message shows the players'
names (with the computer mark) and who is asked something now with its
deadline, nothing else (no card, coin, line, board, nor the game's buttons);
the channel gets no line of the game (platform notices still come: a computer
taking over an away player, its return, a moderator's end); /table log and
Watch answer non-players with a polite line. Players play from their own watch
panel (the whole table and its buttons, privately) and My hand; their DMs are
unchanged. Once the game is over (or ended by a moderator) everything shows:
the final table, its board, the last step's lines and the log."""

from bot.ui.i18n import Text

STRINGS: dict[str, Text] = {
    "watch.button": "Watch",
    "watch.refresh": "Refresh",
    "watch.header": "Table #{table} as spectators see it, privately. Refresh shows it as it is now.",
    "watch.header_over": "Table #{table} is over: its final table.",
    "watch.hidden_refused": (
        "This table is hidden from non-players until its game ends: come back then "
        "to see the final table."
    ),
    "watch.hidden_title": "Hidden table",
    "watch.hidden_description": (
        "This game is hidden from non-players until it ends. Players: open the table "
        "with Watch, and your cards with My hand."
    ),
    "watch.players": "Players",
    "watch.turn": "Asked now",
    "watch.nobody": "Nobody",
    "watch.log_hidden": "This table is hidden until its game ends: its log shows then.",
    "lobby.hidden.on": "🙈 Hidden: only players see the live table; everyone sees it once it ends.",
    "lobby.hidden.off": "👀 Public: anyone can watch the live table.",
    "lobby.set_hidden.on": "Hide from non-players",
    "lobby.set_hidden.off": "Show to everyone",
}
