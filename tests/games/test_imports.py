"""``games`` is pure rules: it imports nothing of Discord, of the bot or of its cogs
(arrows only point down: ``cogs -> bot -> games``)."""

from __future__ import annotations

import ast
from pathlib import Path

GAMES_FOLDER = Path(__file__).parents[2] / "games"
FORBIDDEN = {"discord", "bot", "cogs", "aiosqlite", "asyncio", "aiohttp"}


def top_level_imports(path: Path) -> set[str]:
    """The first part of every absolute module ``path`` imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_the_scan_sees_imports() -> None:
    assert "pydantic" in top_level_imports(GAMES_FOLDER / "base.py")
    assert {"argparse", "games"} <= top_level_imports(GAMES_FOLDER / "terminal.py")


def test_games_import_nothing_of_discord_the_bot_or_its_cogs() -> None:
    files = sorted(GAMES_FOLDER.rglob("*.py"))
    assert len(files) > 20
    wrong = {
        str(path.relative_to(GAMES_FOLDER)): sorted(found)
        for path in files
        if (found := top_level_imports(path) & FORBIDDEN)
    }
    assert not wrong
