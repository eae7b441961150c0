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

A change shown to leave a cell's decisions as they were carries the cell to the new
code (``carry``) by reference, not by copy: the new cell's line names the cell whose
games it also counts, ``{"id": ..., "cell": {...}, "from": "<old cell id>"}``. Until
2026-11-30 a carry copied every game (the ledger had grown to 319,774 lines, most of
them copies; 74,050 once compacted); ``compact`` turns such copies into references.
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
    """The file of played games, a line per game: read whole, or only some cells'."""

    def __init__(
        self, path: Path, lines: Iterable[str] | None = None, only: Iterable[Cell] | None = None
    ) -> None:
        """The file's ledger (or, with ``lines``, the ledger those lines would make).

        With ``only``, the games of those cells alone, and of the cells they count by
        reference (a ``partial`` ledger, for a process that plays those cells: it
        records games and reads their tallies). A process holding the whole ledger
        (over a million objects) spent some 0.25 s in each full garbage collection,
        inside whichever decision it interrupted: the 10-player cells' decisions of
        twice the budget."""
        self.path = path
        self.wanted = None if only is None else {cell.id for cell in only}
        self._load(self._lines() if lines is None else lines)

    @property
    def partial(self) -> bool:
        """Whether only some cells' games were read (``only``)."""
        return self.wanted is not None

    def _load(self, lines: Iterable[str]) -> None:
        if self.wanted is not None:
            lines = list(lines)
            self.wanted = counted_from(self.wanted, lines)
        self.tallies: dict[Cell, Tally] = {}
        self.cells: dict[str, Cell] = {}
        """The cells the file names, by id."""
        self.games: dict[Cell, dict[int, Played]] = {}
        """Each cell's games by index (a carried cell's include its source's records,
        whose ``cell`` is the source)."""
        for line in lines:
            self._read(line)

    def _lines(self) -> Iterator[str]:
        if self.path.exists():
            yield from (line for line in self.path.read_text().splitlines() if line.strip())

    def _read(self, line: str) -> None:
        if not is_game(line):
            read = json.loads(line)
            cell = Cell.model_validate(read["cell"])
            self.cells[cell.id] = cell
            if "from" in read and self._wants(cell.id):
                self._refer(cell, self.cells[read["from"]])
            return
        if not self._wants(game_cell(line)):
            return
        fields = json.loads(line)
        self._count(played_of(self.cells[fields[0]], fields))

    def _count(self, game: Played, cell: Cell | None = None) -> int:
        """Counts a game in its cell (or in ``cell``, which refers to the game's own);
        1 if the cell lacked its index, else 0."""
        cell = cell or game.cell
        games = self.games.setdefault(cell, {})
        if game.index in games:
            return 0
        games[game.index] = game
        tally = self.tallies.get(cell)
        if tally is None:  # not setdefault: a Tally built for every game was most of a load
            tally = self.tallies[cell] = Tally(cell=cell)
        tally.add(game)
        return 1

    def _refer(self, cell: Cell, source: Cell) -> int:
        """Counts the source's games (so far) in the cell; how many it lacked. The
        cell holds the source's own records (a copy of each for every carry was
        three quarters of a load of the whole file)."""
        self.cells[cell.id] = cell
        return sum(
            self._count(played, cell) for played in list(self.games.get(source, {}).values())
        )

    def _wants(self, cell_id: str) -> bool:
        return self.wanted is None or cell_id in self.wanted

    def tally(self, cell: Cell) -> Tally:
        return self.tallies.get(cell) or Tally(cell=cell)

    def record(self, game: Played) -> None:
        """Adds a finished game, to the file at once (after its cell, the first time)."""
        lines = []
        cell_id = game.cell.id
        if cell_id not in self.cells:
            lines.append(cell_record(game.cell))
            self.cells[cell_id] = game.cell
        lines.append(game_record(game))
        self._append(lines)
        self._count(game)

    def current(self, codes: dict[str, str]) -> list[Tally]:
        """The tallies of cells whose code is each game's code today."""
        return [t for t in self.tallies.values() if codes.get(t.cell.game) == t.cell.code]

    def carry(self, old: str, new: str, keep: Callable[[Cell], bool]) -> int:
        """Counts the games of every cell of code ``old`` that ``keep`` accepts in the
        same cell of code ``new`` (one line naming its source: ``refer``); returns how
        many games the new cells gained. Only for a change shown to leave those cells'
        decisions as they were (replayed games identical, or a diff that cannot reach
        them): the ledger cannot tell."""
        self._whole("carry to")
        carried = 0
        for source in [c for c in self.tallies if c.code == old and keep(c)]:
            cell = source.model_copy(update={"code": new})
            if set(self.games[source]) <= set(self.games.get(cell, {})):
                continue
            carried += self._refer(cell, source)
            self._append([reference_record(cell, source)])
        return carried

    def _append(self, lines: list[str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a") as file:
            file.write("".join(line + "\n" for line in lines))

    def compact(self) -> int:
        """Turns the games a carry copied (before carries referred) into one line
        naming the cell they were copied from; returns how many lines went. A cell's
        source is a cell of the same conditions and another code, named earlier in the
        file, all of whose games the cell holds identically (the one with the most of
        them, so a chain of carries stays a chain). Nothing is written unless the file
        then reads back to every cell's tally as before."""
        self._whole("compact")
        lines = list(self._lines())
        named = [line_cell(line) for line in lines]
        first = {cell_id: n for n, cell_id in reversed(list(enumerate(named)))}
        rows = self._rows(lines)
        conditions = {i: self.cells[i].model_copy(update={"code": ""}) for i in first}
        sources: dict[str, str] = {}
        for cell_id in sorted(first, key=first.__getitem__):
            mine = rows.get(cell_id, {})
            candidates = [
                other
                for other, theirs in rows.items()
                if other != cell_id
                and conditions[other] == conditions[cell_id]
                and first[other] < first[cell_id]
                and all(mine.get(index) == row for index, row in theirs.items())
            ]
            if candidates:
                sources[cell_id] = max(candidates, key=lambda other: len(rows[other]))
        compacted = compacted_lines(lines, named, sources, rows, self.cells)
        before = {cell: tally.model_dump() for cell, tally in self.tallies.items()}
        after = Ledger(self.path, compacted).tallies
        if {cell: tally.model_dump() for cell, tally in after.items()} != before:
            raise ValueError("the compacted ledger would not read back the same tallies")
        self.path.write_text("".join(line + "\n" for line in compacted))
        self._load(compacted)
        return len(lines) - len(compacted)

    def _whole(self, rewrite: str) -> None:
        """Refuses to rewrite the file from a ``partial`` ledger (it lacks cells)."""
        if self.partial:
            raise ValueError(f"cannot {rewrite} the file from a partial ledger")

    @staticmethod
    def _rows(lines: list[str]) -> dict[str, dict[int, list[Any]]]:
        """Each cell's game lines by index, without the cell's id (the first of a
        repeated index: the one counted)."""
        rows: dict[str, dict[int, list[Any]]] = {}
        for line in lines:
            if is_game(line):
                fields = json.loads(line)
                rows.setdefault(fields[0], {}).setdefault(fields[1], fields[1:])
        return rows

    def prune(self, codes: dict[str, str]) -> int:
        """Drops the games (and the cells) whose code is no longer the game's, but for
        the cells today's carry games from; returns how many games were dropped."""
        self._whole("prune")
        today = {i for i, cell in self.cells.items() if codes.get(cell.game) == cell.code}
        lines = list(self._lines())
        kept_ids = counted_from(today, lines)
        kept = [line for line in lines if line_cell(line) in kept_ids]
        self.path.write_text("".join(line + "\n" for line in kept))
        self._load(kept)
        return sum(1 for line in lines if is_game(line) and line_cell(line) not in kept_ids)


def cell_record(cell: Cell) -> str:
    return json.dumps({"id": cell.id, "cell": cell.model_dump()}, separators=(",", ":"))


def reference_record(cell: Cell, source: Cell) -> str:
    """The line of a cell that also counts the games of ``source`` (``carry``)."""
    record = {"id": cell.id, "cell": cell.model_dump(), "from": source.id}
    return json.dumps(record, separators=(",", ":"))


def compacted_lines(
    lines: list[str],
    named: list[str],
    sources: dict[str, str],
    rows: dict[str, dict[int, list[Any]]],
    cells: dict[str, Cell],
) -> list[str]:
    """The file's lines with each cell of ``sources`` referring to its source, and
    without the games its source holds. The reference goes where the cell was first
    named, or after the source's last game if that came later (a reference counts the
    games read before it); the cell is then named plainly where it was first named.
    ``named``: each line's cell id."""
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for n, cell_id in enumerate(named):
        first.setdefault(cell_id, n)
        last[cell_id] = n
    refer_at: dict[str, int] = {}
    for cell_id in sorted(sources, key=first.__getitem__):
        origin = sources[cell_id]
        refer_at[cell_id] = max(first[cell_id], last[origin], refer_at.get(origin, -1))
        last[cell_id] = max(last[cell_id], refer_at[cell_id])
    after: dict[int, list[str]] = {}
    for cell_id, n in refer_at.items():
        if n != first[cell_id]:
            after.setdefault(n, []).append(
                reference_record(cells[cell_id], cells[sources[cell_id]])
            )
    kept: list[str] = []
    for n, (line, cell_id) in enumerate(zip(lines, named, strict=True)):
        source = sources.get(cell_id)
        if source is None:
            kept.append(line)
        elif n == first[cell_id]:
            referred_here = refer_at[cell_id] == n
            kept.append(reference_record(cells[cell_id], cells[source]) if referred_here else line)
        elif is_game(line) and json.loads(line)[1] not in rows[source]:
            kept.append(line)
        kept.extend(after.get(n, []))
    return kept


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


def game_cell(line: str) -> str:
    """The id of the cell a game line belongs to, without parsing the line (it starts
    ``["<id>",``)."""
    return line[2 : line.index('"', 2)]


def counted_from(wanted: set[str], lines: Iterable[str]) -> set[str]:
    """The cells ``wanted`` and every cell whose games they count by reference,
    directly or along a chain of carries."""
    sources: dict[str, str] = {}
    for line in lines:
        if not is_game(line) and '"from"' in line:
            read = json.loads(line)
            sources[read["id"]] = read["from"]
    closed = set(wanted)
    for cell_id in wanted:
        while cell_id in sources and sources[cell_id] not in closed:
            cell_id = sources[cell_id]
            closed.add(cell_id)
    return closed


def line_cell(line: str) -> str:
    """The id of the cell a line is or belongs to."""
    return game_cell(line) if is_game(line) else str(json.loads(line)["id"])
