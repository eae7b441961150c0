"""Compare a run with a ledger's cell on the same games: how a screen is read.

    .venv/bin/python -m bench.pair SCRATCH.jsonl [--ledger bench/results/hard.jsonl]
        [--code CODE]

A screen plays a variant's games into a scratch ledger (``bench.ai --hard --ledger
SCRATCH.jsonl --seed S ...``). Game ``i`` of a cell is seed ``seed + i`` with the
hero at seat ``i mod n`` (bench.ledger), so the scratch cell's game ``i`` is the same
deal and seat as game ``S - seed + i`` of the ledger's cell of the same conditions
(``S - seed`` a multiple of the players, else the hero sits elsewhere: refused). For
each scratch cell this prints both win rates over the games they share and the games
won by one alone: two variants on the same games differ by far less noise than two
rates of independent games. The ledger's cell is the one of today's code unless
``--code`` names another (its games, carried ones included, as the ledger counts
them). Nothing is written.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bench.ai import codes
from bench.ledger import Cell, Ledger, Played

LEDGER = Path(__file__).resolve().parent / "results" / "hard.jsonl"


def pairs(
    scratch: dict[int, Played], base: dict[int, Played], offset: int
) -> list[tuple[float, float]]:
    """Each shared game's two shares (scratch, base)."""
    return [
        (played.share, base[index + offset].share)
        for index, played in sorted(scratch.items())
        if index + offset in base
    ]


def comparison(cell: Cell, base: Cell, shares: list[tuple[float, float]]) -> str:
    games = len(shares)
    if not games:
        return f"{describe(cell)}: no game shared with {base.code}"
    mine = sum(a for a, _ in shares) / games
    theirs = sum(b for _, b in shares) / games
    alone = sum(a > b for a, b in shares), sum(b > a for a, b in shares)
    return (
        f"{describe(cell)}: {games} games shared with {base.code}: {mine:.1%} against"
        f" {theirs:.1%} ({alone[0]} won by this run alone, {alone[1]} by the cell alone)"
    )


def describe(cell: Cell) -> str:
    return (
        f"{cell.game} {cell.players} players, {cell.hero} vs {cell.against},"
        f" seed {cell.seed}, code {cell.code}"
    )


def compare(scratch: Ledger, ledger: Ledger, code: str | None) -> list[str]:
    lines = []
    for cell, games in scratch.games.items():
        wanted = code or codes()[cell.game]
        bases = [
            other
            for other in ledger.games
            if other.model_copy(update={"seed": cell.seed, "code": cell.code}) == cell
            and other.code == wanted
        ]
        if not bases:
            lines.append(f"{describe(cell)}: no cell of code {wanted} in the ledger")
            continue
        for base in bases:
            offset = cell.seed - base.seed
            if offset % cell.players:
                lines.append(
                    f"{describe(cell)}: seed {cell.seed} seats the hero elsewhere than"
                    f" seed {base.seed} does (their difference is not a multiple of"
                    f" {cell.players})"
                )
                continue
            lines.append(comparison(cell, base, pairs(games, ledger.games[base], offset)))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scratch", type=Path)
    parser.add_argument("--ledger", type=Path, default=LEDGER)
    parser.add_argument("--code", help="the ledger's cells of this code (default: today's)")
    args = parser.parse_args()
    for line in compare(Ledger(args.scratch), Ledger(args.ledger), args.code):
        print(line)


if __name__ == "__main__":
    main()
