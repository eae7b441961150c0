"""What a game's ``ai.py`` imports: its tests assert it reaches neither the engine
nor the state (a policy must decide from the view alone). The same check keeps a
game's ``sampler.py`` (the HARD search's deal of hidden cards) away from the engine:
it builds states of its own from the view, never reads the real one."""

from __future__ import annotations

import ast
from pathlib import Path

GAMES_FOLDER = Path(__file__).parents[2] / "games"


def imports_of(game: str, module: str = "ai") -> set[str]:
    """Every module (relative ones with their leading dots) and every imported name."""
    tree = ast.parse((GAMES_FOLDER / game / f"{module}.py").read_text())
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add("." * node.level + (node.module or ""))
            imported.update(alias.name for alias in node.names)
    return imported


def assert_view_only(game: str, forbidden_names: set[str], module: str = "ai") -> None:
    """No engine module, not the game's package (which holds ``GAME``), none of the names."""
    imported = imports_of(game, module)
    assert not {name for name in imported if name.endswith("engine")}, imported
    assert f"games.{game}" not in imported and "." not in imported, "the package holds GAME"
    assert not forbidden_names & imported, forbidden_names & imported
