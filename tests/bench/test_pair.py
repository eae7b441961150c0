"""Reading a screen: a scratch run against the ledger's cell, game by game."""

from __future__ import annotations

from pathlib import Path

from bench.ledger import Cell, Ledger, Played
from bench.pair import compare

BASE = Cell(
    game="mascarade",
    players=2,
    hero="hard",
    against="normal",
    budget=0.2,
    clock="cpu",
    simulations=None,
    seed=1,
    code="old",
)


def played(cell: Cell, index: int, share: float) -> Played:
    return Played(cell=cell, index=index, share=share, times={1: 1}, longest_ms=9.0)


def test_a_screen_is_paired_with_the_same_deals_of_the_cell_it_carries_to(
    tmp_path: Path,
) -> None:
    ledger = Ledger(tmp_path / "ledger.jsonl")
    for index, share in enumerate([1.0, 0.0, 0.0, 1.0, 0.0, 0.5]):
        ledger.record(played(BASE, index, share))
    ledger.carry("old", "today", lambda cell: True)
    scratch = Ledger(tmp_path / "scratch.jsonl")
    moved = BASE.model_copy(update={"seed": 3, "code": "variant"})
    for index, share in enumerate([1.0, 0.0, 1.0, 1.0, 0.0]):
        scratch.record(played(moved, index, share))  # games 2-6 of the cell's deals
    [line] = compare(scratch, Ledger(ledger.path), "today")
    # shared: its games 0-3 against the cell's 2-5 (0, 1, 0, 0.5); game 4 has no pair
    assert "4 games shared with today: 75.0% against 37.5%" in line, line
    assert "(3 won by this run alone, 1 by the cell alone)" in line, line


def test_a_screen_that_seats_the_hero_elsewhere_is_refused(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "ledger.jsonl")
    ledger.record(played(BASE, 0, 1.0))
    scratch = Ledger(tmp_path / "scratch.jsonl")
    scratch.record(played(BASE.model_copy(update={"seed": 2, "code": "variant"}), 0, 1.0))
    [line] = compare(scratch, ledger, "old")
    assert "seats the hero elsewhere" in line
    [missing] = compare(scratch, ledger, "another")
    assert "no cell of code another" in missing
