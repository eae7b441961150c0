"""What a game's ``ai.py`` imports: its tests assert it reaches neither the engine
nor the state (a policy must decide from the view alone)."""

from __future__ import annotations

import ast
from pathlib import Path

GAMES_FOLDER = Path(__file__).parents[2] / "games"


def imports_of(game: str) -> set[str]:
    """Every module (relative ones with their leading dots) and every imported name."""
    tree = ast.parse((GAMES_FOLDER / game / "ai.py").read_text())
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add("." * node.level + (node.module or ""))
            imported.update(alias.name for alias in node.names)
    return imported


def assert_view_only(game: str, forbidden_names: set[str]) -> None:
    """No engine module, not the game's package (which holds ``GAME``), none of the names."""
    imported = imports_of(game)
    assert not {name for name in imported if name.endswith("engine")}, imported
    assert f"games.{game}" not in imported and "." not in imported, "the package holds GAME"
    assert not forbidden_names & imported, forbidden_names & imported
