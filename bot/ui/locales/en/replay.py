"""English of replays: the /history select and the replay message."""

from bot.ui.i18n import Text

STRINGS: dict[str, Text] = {
    "replay.choose": "Replay a game",
    "replay.option": "#{table} · {game}",
    "replay.title": "Replay of {game} · table #{table}",
    "replay.step": "Step {step} of {steps}",
    "replay.dealt": "The cards are dealt.",
    "replay.timeout": "⏰ Time ran out: the waiting choices were made by default.",
    "replay.ended": "A moderator ended the game here.",
    "replay.quiet": "Nothing anyone could see happened.",
    "replay.private_line": "🔒 {player}: {line}",
    "replay.hand": "🃏 {player}",
    "replay.unavailable": "There is no replay of that table: only games that are over have one.",
    "replay.mismatch": "This game's replay could not be rebuilt (the problem was logged). Sorry!",
}
