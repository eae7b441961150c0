"""English: the terminal game (``python -m bot.play``), around the games' own texts."""

from bot.ui.i18n import Plural, Text

STRINGS: dict[str, Text] = {
    "terminal.you": "you",
    "terminal.computer": "Computer {number}",
    "terminal.opening": Plural(
        "{game}: {count} player, seed {seed}.", "{game}: {count} players, seed {seed}."
    ),
    "terminal.seats": "Seats: {seats}",
    "terminal.hand": "What only you see:",
    "terminal.field": "{name}: {value}",
    "terminal.choices": "Your choice:",
    "terminal.ask": "Choice number (v: see the table again, q: quit)?",
    "terminal.retry": "Please type a number from 1 to {count}.",
    "terminal.winners": Plural("Game over: {winners} wins.", "Game over: {winners} win."),
    "terminal.nobody": "Game over: nobody wins.",
    "terminal.bye": "Bye.",
}
