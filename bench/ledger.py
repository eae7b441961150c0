"""A ledger of tournament games: every finished game of a cell, one JSON line each.

A cell of ``bench.ai --hard`` (one game, table size, hero and opponents' levels,
budget and clock) at 1,000 games costs hours of a core, more than one run can give.
With a ledger, a run brings each cell up to the number of games asked and appends
every game as it ends: an interrupted run loses at most the game in play, and the
next run (another day, another machine) goes on from the next game. Game ``i`` of a
cell is always the same deal and seating (seed ``seed + i``, hero at ``i mod n``),
so the games of several runs add up to one tournament.

A cell is tied to the code its players run (``fingerprint``): a change to what the
game's package or the shared AI code does starts the cell afresh (docstrings and
comments do not count), and the old games stay in the file, ignored, until
``prune`` drops them.

The file holds two kinds of lines. A cell's first game is preceded by the cell once,
as an object: ``{"id": "5c1f...", "cell": {...}}``, its id a hash of the cell (the
same on every machine, so files of several runs merge). A game is an array:
``[cell id, index, share, {time bucket: decisions}, longest ms]``, about 60 bytes
where a game with its cell spelt out took 300; since 2026-11-29 a game whose hero
searches ends with ``simulations, searched``: the simulations its search ran and its
decisions that ran any (earlier games have neither: their cells say so).
"""

from __future__ import annotations

import ast
import hashlib
import json
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

ROOT = Path(__file__).resolve().parent.parent

SHARED_CODE = ("games/ai.py", "games/base.py", "games/search.py")
"""The code every game's computer players run besides their own package."""

BUCKET_MS = 5
"""Decision times are kept as counts per bucket of this many milliseconds."""


def fingerprint(game: str, root: Path = ROOT) -> str:
    """A short hash of the code a game's computer players run: a change to it makes
    the ledger's earlier games of that game another player's. Only what the code
    does counts: its syntax tree without docstrings, so a comment, a docstring or
    a layout change keeps the games."""
    digest = hashlib.sha256()
    files = sorted((root / "games" / game).glob("*.py")) + [root / p for p in SHARED_CODE]
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(behaviour(path.read_text()).encode())
    return digest.hexdigest()[:12]


DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
"""The nodes whose bodies hold docstrings."""


def behaviour(source: str) -> str:
    """The source's syntax tree without its bare string statements (docstrings,
    attribute docstrings), which do nothing when run."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, DOCUMENTED):
            kept = [statement for statement in node.body if not is_bare_string(statement)]
            node.body = kept or [ast.Pass()]
    return ast.dump(tree)


def is_bare_string(statement: ast.AST) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


class Cell(BaseModel):
    """What makes games comparable: one tournament's conditions."""

    model_config = ConfigDict(frozen=True)

    game: str
    players: int
    hero: str
    against: str
    budget: float
    clock: str
    simulations: int | None
    seed: int
    code: str

    @property
    def id(self) -> str:
        """A short hash of the cell: its games' lines name it by this."""
        return hashlib.sha256(self.model_dump_json().encode()).hexdigest()[:10]


class Played(BaseModel):
    """One finished game of a cell."""

    cell: Cell
    index: int
    """The game's number in its cell: seed ``cell.seed + index``, hero's seat
    ``index mod players``."""
    share: float
    """The hero's share of the win (1/k of a win shared by k)."""
    times: dict[int, int]
    """The hero's decisions of this game by duration: bucket ``b`` counts those of
    ``b * BUCKET_MS`` to ``(b + 1) * BUCKET_MS`` milliseconds."""
    longest_ms: float
    simulations: int | None = None
    """The simulations the hero's search ran in the game (None: not counted, a hero
    that does not search or a game recorded before they were)."""
    searched: int = 0
    """The hero's decisions that ran simulations (one legal choice runs none)."""


def wilson(rate: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """A rate's 95 % confidence interval over ``games`` (Wilson's: sound at small
    samples and at rates near 0 or 1, where the normal approximation shrinks to
    nothing)."""
    if not games:
        return 0.0, 1.0
    spread = z * z / games
    centre = (rate + spread / 2) / (1 + spread)
    half = z * math.sqrt(rate * (1 - rate) / games + spread / (4 * games)) / (1 + spread)
    return max(0.0, centre - half), min(1.0, centre + half)


def bucketed(seconds: Iterable[float]) -> dict[int, int]:
    counts: dict[int, int] = defaultdict(int)
    for value in seconds:
        counts[int(value * 1000 // BUCKET_MS)] += 1
    return dict(counts)


class Tally(BaseModel):
    """A cell's games so far."""

    cell: Cell
    games: int = 0
    wins: float = 0.0
    times: dict[int, int] = {}
    longest_ms: float = 0.0
    played: set[int] = set()
    simulations: int = 0
    searched: int = 0
    counted: int = 0
    """Games whose simulations were counted (``Played.simulations``)."""

    def add(self, game: Played) -> None:
        if game.index in self.played:
            return
        self.played.add(game.index)
        self.games += 1
        self.wins += game.share
        for bucket, count in game.times.items():
            self.times[bucket] = self.times.get(bucket, 0) + count
        self.longest_ms = max(self.longest_ms, game.longest_ms)
        if game.simulations is not None:
            self.counted += 1
            self.simulations += game.simulations
            self.searched += game.searched

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.rate, self.games)

    def missing(self, games: int) -> list[int]:
        """The indexes of the cell's first ``games`` games not yet played."""
        return [index for index in range(games) if index not in self.played]

    @property
    def simulations_per_search(self) -> float | None:
        """The mean simulations of a decision that ran any, over the counted games."""
        return self.simulations / self.searched if self.searched else None

    @property
    def decisions(self) -> int:
        return sum(self.times.values())

    def quantile_ms(self, q: float) -> float:
        """The upper end of the bucket holding the ``q`` quantile of decision times."""
        rank = q * (self.decisions - 1)
        seen = 0
        for bucket in sorted(self.times):
            seen += self.times[bucket]
            if seen > rank:
                return float((bucket + 1) * BUCKET_MS)
        return 0.0

    def over_ms(self, limit_ms: float) -> int:
        """Decisions that may have taken longer than ``limit_ms`` (their bucket
        reaches past it)."""
        return sum(n for b, n in self.times.items() if (b + 1) * BUCKET_MS > limit_ms)


class Ledger:
    """The file of played games, read whole (it is small: a line per game)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tallies: dict[Cell, Tally] = {}
        self.cells: dict[str, Cell] = {}
        """The cells the file names, by id."""
        for line in self._lines():
            self._read(line)

    def _lines(self) -> Iterator[str]:
        if self.path.exists():
            yield from (line for line in self.path.read_text().splitlines() if line.strip())

    def _read(self, line: str) -> None:
        if not is_game(line):
            cell = Cell.model_validate(json.loads(line)["cell"])
            self.cells[cell.id] = cell
            return
        fields = json.loads(line)
        self._count(played_of(self.cells[fields[0]], fields))

    def _count(self, game: Played) -> None:
        self.tallies.setdefault(game.cell, Tally(cell=game.cell)).add(game)

    def tally(self, cell: Cell) -> Tally:
        return self.tallies.get(cell) or Tally(cell=cell)

    def record(self, game: Played) -> None:
        """Adds a finished game, to the file at once (after its cell, the first time)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lines = []
        cell_id = game.cell.id
        if cell_id not in self.cells:
            lines.append(cell_record(game.cell))
            self.cells[cell_id] = game.cell
        lines.append(game_record(game))
        with self.path.open("a") as file:
            file.write("".join(line + "\n" for line in lines))
        self._count(game)

    def current(self, codes: dict[str, str]) -> list[Tally]:
        """The tallies of cells whose code is each game's code today."""
        return [t for t in self.tallies.values() if codes.get(t.cell.game) == t.cell.code]

    def carry(self, old: str, new: str, keep: Callable[[Cell], bool]) -> int:
        """Copies the games of every cell of code ``old`` that ``keep`` accepts to
        the same cell of code ``new``; returns how many games were copied. Only for
        a change shown to leave those cells' decisions as they were (replayed games
        identical, or a diff that cannot reach them): the ledger cannot tell."""
        copied = 0
        for tally in [t for t in self.tallies.values() if t.cell.code == old]:
            if not keep(tally.cell):
                continue
            cell = tally.cell.model_copy(update={"code": new})
            have = self.tally(cell).played
            for played in self._games_of(tally.cell):
                if played.index not in have:
                    self.record(played.model_copy(update={"cell": cell}))
                    copied += 1
        return copied

    def _games_of(self, cell: Cell) -> list[Played]:
        """The cell's games as the file holds them, in order."""
        games = []
        for line in self._lines():
            if is_game(line) and line_cell(line) == cell.id:
                games.append(played_of(cell, json.loads(line)))
        return games

    def prune(self, codes: dict[str, str]) -> int:
        """Drops the games (and the cells) whose code is no longer the game's; returns
        how many games were dropped."""
        kept_ids = {i for i, cell in self.cells.items() if codes.get(cell.game) == cell.code}
        lines = list(self._lines())
        kept = [line for line in lines if line_cell(line) in kept_ids]
        self.path.write_text("".join(line + "\n" for line in kept))
        dropped = sum(1 for line in lines if is_game(line) and line_cell(line) not in kept_ids)
        self.cells = {i: c for i, c in self.cells.items() if i in kept_ids}
        self.tallies = {c: t for c, t in self.tallies.items() if c.id in kept_ids}
        return dropped


def cell_record(cell: Cell) -> str:
    return json.dumps({"id": cell.id, "cell": cell.model_dump()}, separators=(",", ":"))


def game_record(game: Played) -> str:
    fields = [game.cell.id, game.index, game.share, game.times, round(game.longest_ms, 2)]
    if game.simulations is not None:
        fields += [game.simulations, game.searched]
    return json.dumps(fields, separators=(",", ":"))


def played_of(cell: Cell, fields: list[Any]) -> Played:
    """A game line's fields (``game_record``), with or without its simulations."""
    _, index, share, times, longest_ms, *counted = fields
    simulations, searched = counted or (None, 0)
    return Played(
        cell=cell,
        index=index,
        share=share,
        times=times,
        longest_ms=longest_ms,
        simulations=simulations,
        searched=searched,
    )


def is_game(line: str) -> bool:
    """Whether a line is a game (an array), not a cell (an object)."""
    return line.startswith("[")


def line_cell(line: str) -> str:
    """The id of the cell a line is or belongs to."""
    read = json.loads(line)
    return str(read["id"] if isinstance(read, dict) else read[0])
