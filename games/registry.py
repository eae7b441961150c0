"""Every game the bot offers, by name."""

from __future__ import annotations

from typing import Any

from games.base import Game
from games.bloody_inn import GAME as BLOODY_INN
from games.complots import GAME as COMPLOTS
from games.conspiracy import GAME as CONSPIRACY
from games.mascarade import GAME as MASCARADE

GAMES: dict[str, Game[Any, Any, Any, Any]] = {
    game.name: game for game in (COMPLOTS, MASCARADE, BLOODY_INN, CONSPIRACY)
}
