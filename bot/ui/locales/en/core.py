"""English: refusals, lobby, table and moderator texts shared by all games."""

STRINGS: dict[str, str] = {
    # refusals (ephemeral answers to clicks and commands that change nothing)
    "refusal.stale": "That moment has passed: the table has moved on.",
    "refusal.not_prompted": "You are not being asked anything right now: wait for your turn.",
    "refusal.not_allowed": "That choice is not allowed right now.",
    "refusal.not_seated": "You are not playing at this table.",
    "refusal.no_table": "That table no longer exists.",
    "refusal.not_running": "That game is not running.",
    "refusal.not_lobby": "That table has already started or closed.",
    "refusal.not_open": "That table is already closed.",
    "refusal.not_finished": "That game is not over yet.",
    "refusal.channel_busy": "This channel already has an open table (#{table}). Finish or cancel it first.",
    "refusal.already_seated": "You are already seated at this table.",
    "refusal.table_full": "This table is full.",
    "refusal.creator_only": "Only the table's creator or a moderator can do that.",
    "refusal.creator_cannot_leave": "You created this table: cancel it instead of leaving.",
    "refusal.too_few_players": "At least {minimum} players are needed to start.",
    "refusal.invalid_options": "These options do not make a playable game: {reason}",
    "refusal.no_such_seat": "There is no such player at that table.",
    "refusal.no_table_here": "There is no open table in this channel.",
    "refusal.moderators_only": "Only moderators (Manage Server, or the moderator role) can do that.",
    "refusal.error": "Something went wrong on our side; nothing was changed. Please try again.",
    # lobby
    "lobby.description": "{creator} opened a table. Join with the button; the creator starts.",
    "lobby.seats": "Players ({count}, {minimum}-{maximum})",
    "lobby.options": "Options",
    "lobby.footer": "Table #{table}",
    "lobby.join": "Join",
    "lobby.leave": "Leave",
    "lobby.start": "Start",
    "lobby.cancel": "Cancel",
    "lobby.cancelled": "This table was closed.",
    "lobby.joined": "You joined the table. Your cards will come by DM, and always with My hand.",
    "lobby.joined_no_dm": (
        "You joined the table, but I cannot send you DMs. Use the **My hand** button"
        " (or /hand) to see your cards during the game."
    ),
    "lobby.joined_dm": "You joined a table. I will send your secret cards here.",
    "lobby.left": "You left the table.",
    "lobby.opened": "Table #{table} is open below.",
    # table
    "table.my_hand": "My hand",
    "table.rematch": "Rematch",
    "table.log_button": "Log",
    "table.log_title": "Table #{table}: what happened",
    "table.log_empty": "Nothing has happened yet.",
    "table.away": "away",
    "table.choice_done": "Done.",
    "table.dm_closed": "{user}: I cannot DM you. Use the **My hand** button to see your cards.",
    "table.ended_by_moderator": "A moderator ended table #{table}.",
    # admin
    "admin.tables_title": "Open tables",
    "admin.no_tables": "There is no open table in this server.",
    "admin.table_line": "#{table} · {game} · <#{channel}> · {status} · {players} players",
    "admin.ended": "Table #{table} is ended.",
    "admin.removed": "{player} was removed from table #{table}.",
    "admin.timeouts_set": "Default times for new tables: turn {turn}s, reactions {reaction}s, choices {choice}s.",
    "admin.role_set": "Moderator role: {role}.",
    "admin.role_cleared": "The moderator role is cleared: Manage Server is needed.",
    # complots
}
