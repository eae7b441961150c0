"""The tournament ledger: games add up across runs, tied to the code that played them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bench import ledger as ledger_module
from bench.ai import Timed, play_cell
from bench.ledger import (
    BUCKET_MS,
    SHARED_CODE,
    Cell,
    Ledger,
    Played,
    Tally,
    behaviour,
    bucketed,
    fingerprint,
)
from games.ai import Level
from games.registry import GAMES, policy_for
from tests.games.playouts import hero_share

CELL = Cell(
    game="complots",
    players=2,
    hero="normal",
    against="easy",
    budget=0.2,
    clock="cpu",
    simulations=None,
    seed=7,
    code="abc",
)


def game(index: int, share: float, cell: Cell = CELL) -> Played:
    return Played(cell=cell, index=index, share=share, times={2: 3}, longest_ms=14.0)


def test_a_run_goes_on_from_the_games_the_ledger_lacks(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    first = Ledger(path)
    for index in (0, 1, 3):
        first.record(game(index, share=index % 2))
    again = Ledger(path)
    assert again.tally(CELL).missing(6) == [2, 4, 5]
    assert again.tally(CELL).games == 3 and again.tally(CELL).wins == 2.0


def test_played_games_match_one_uninterrupted_tournament(tmp_path: Path) -> None:
    """Four games in two runs of a ledger score what four games in one run score."""
    ledger = Ledger(tmp_path / "ledger.jsonl")

    def players() -> tuple[Timed, Timed]:
        normal, easy = (policy_for("complots", level) for level in (Level.NORMAL, Level.EASY))
        return Timed(normal), Timed(easy)

    play_cell(CELL, *players(), games=2, ledger=ledger)
    tally = play_cell(CELL, *players(), games=4, ledger=Ledger(ledger.path))
    assert len(ledger.path.read_text().splitlines()) == 1 + 4, "the cell once, then its games"
    hero, others = players()
    assert tally.wins / 4 == hero_share(GAMES["complots"], hero, others, 2, 4, CELL.seed)
    assert tally.decisions == len(hero.seconds)


def test_the_file_names_each_cell_once_and_reads_back_what_was_recorded(
    tmp_path: Path,
) -> None:
    other = CELL.model_copy(update={"players": 3})
    ledger = Ledger(tmp_path / "ledger.jsonl")
    for index in range(3):
        ledger.record(game(index, share=index / 2))
        ledger.record(game(index, share=1.0, cell=other))
    lines = ledger.path.read_text().splitlines()
    assert len(lines) == 2 + 6
    assert sum(line.startswith("{") for line in lines) == 2
    assert all(len(line) < 60 for line in lines if line.startswith("["))
    again = Ledger(ledger.path)
    assert again.tallies == ledger.tallies
    assert again.tally(CELL).wins == 1.5 and again.tally(other).wins == 3.0
    again.record(game(3, share=0.0))
    assert len(again.path.read_text().splitlines()) == 2 + 7, "a known cell is not named again"


def test_a_game_counted_twice_counts_once() -> None:
    tally = Tally(cell=CELL)
    tally.add(game(0, 1.0))
    tally.add(game(0, 1.0))
    assert tally.games == 1 and tally.decisions == 3


def test_cells_of_other_code_are_left_out_and_pruned(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "ledger.jsonl")
    old = CELL.model_copy(update={"code": "old"})
    ledger.record(game(0, 1.0))
    ledger.record(game(0, 0.0, old))
    assert [t.cell for t in ledger.current({"complots": "abc"})] == [CELL]
    ledger.record(game(1, 0.0, old))
    assert ledger.prune({"complots": "abc"}) == 2
    assert list(Ledger(ledger.path).tallies) == [CELL]
    assert len(ledger.path.read_text().splitlines()) == 2, "the old cell's line went too"


def test_the_fingerprint_follows_the_game_s_code_and_the_shared_code(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    skipped = shutil.ignore_patterns("__pycache__")
    shutil.copytree(root / "games", tmp_path / "games", ignore=skipped)
    before = {name: fingerprint(name, tmp_path) for name in ("complots", "mascarade")}
    assert before["complots"] == fingerprint("complots", root)
    with (tmp_path / "games/complots/ai.py").open("a") as file:
        file.write("\nCHANGED = 1\n")
    assert fingerprint("complots", tmp_path) != before["complots"]
    assert fingerprint("mascarade", tmp_path) == before["mascarade"]
    with (tmp_path / "games/search.py").open("a") as file:
        file.write("\nCHANGED = 1\n")
    assert fingerprint("mascarade", tmp_path) != before["mascarade"]


def test_the_fingerprint_ignores_docstrings_comments_and_layout(tmp_path: Path) -> None:
    (tmp_path / "games/toy").mkdir(parents=True)
    for shared in SHARED_CODE:
        (tmp_path / shared).write_text("")
    code = tmp_path / "games/toy/ai.py"
    code.write_text('def play(x):\n    """Plays."""\n    return x + 1\n')
    before = fingerprint("toy", tmp_path)
    code.write_text(
        '"""A toy."""\n\n\ndef play(x):  # the move\n    """Plays well."""\n\n    return (x + 1)\n'
    )
    assert fingerprint("toy", tmp_path) == before
    code.write_text('def play(x):\n    """Plays."""\n    return x + 2\n')
    assert fingerprint("toy", tmp_path) != before


def test_a_body_of_only_a_docstring_still_parses_as_code() -> None:
    assert behaviour('class A:\n    """Doc."""\n') == behaviour("class A:\n    pass\n")
    assert behaviour("X = 'not a docstring'\n") != behaviour("X = 'changed'\n")


def test_decision_times_are_counted_by_bucket() -> None:
    seconds = [0.001] * 99 + [0.5]
    tally = Tally(cell=CELL)
    tally.add(Played(cell=CELL, index=0, share=0, times=bucketed(seconds), longest_ms=500))
    assert tally.decisions == 100
    assert tally.quantile_ms(0.5) == BUCKET_MS
    assert tally.quantile_ms(1.0) == 500 + BUCKET_MS
    assert tally.over_ms(400) == 1


def test_the_interval_holds_the_rate_and_stays_open_at_the_extremes() -> None:
    tally = Tally(cell=CELL)
    for index in range(10):
        tally.add(game(index, 1.0))
    low, high = tally.interval()
    assert high == 1.0 and 0.6 < low < 0.8, "ten wins of ten do not prove a rate of 1"
    for index in range(10, 1000):
        tally.add(game(index, index % 2))
    low, high = tally.interval()
    assert low < tally.rate < high and high - low < 0.07


def test_cells_shown_unchanged_are_carried_to_the_new_code_once(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "ledger.jsonl")
    other = CELL.model_copy(update={"against": "normal"})
    ledger.record(game(0, 1.0))
    ledger.record(game(3, 0.5))
    ledger.record(game(0, 0.0, other))
    assert ledger.carry("abc", "new", lambda cell: cell.against == "easy") == 2
    assert ledger.carry("abc", "new", lambda cell: cell.against == "easy") == 0, "once"
    read = Ledger(ledger.path)
    carried = read.tally(CELL.model_copy(update={"code": "new"}))
    assert (carried.games, carried.wins, carried.played) == (2, 1.5, {0, 3})
    assert carried.times == {2: 6} and carried.longest_ms == 14.0
    assert read.tally(CELL).games == 2, "the old cell stays until pruned"
    assert not read.tally(other.model_copy(update={"code": "new"})).games, "not chosen"


def test_a_game_s_simulations_are_kept_and_summed_and_older_lines_still_read(
    tmp_path: Path,
) -> None:
    ledger = Ledger(tmp_path / "ledger.jsonl")
    ledger.record(game(0, 1.0))
    ledger.record(game(1, 0.0).model_copy(update={"simulations": 120, "searched": 4}))
    ledger.record(game(2, 0.5).model_copy(update={"simulations": 30, "searched": 2}))
    lines = ledger.path.read_text().splitlines()
    assert lines[1].endswith("14.0]"), "a game without a count is written as before"
    assert lines[2].endswith("14.0,120,4]")
    read = Ledger(ledger.path).tally(CELL)
    assert (read.counted, read.simulations, read.searched) == (2, 150, 6)
    assert read.simulations_per_search == 25.0
    assert Tally(cell=CELL).simulations_per_search is None
    assert ledger.carry("abc", "new", lambda cell: True) == 3
    carried = Ledger(ledger.path).tally(CELL.model_copy(update={"code": "new"}))
    assert (carried.counted, carried.simulations, carried.searched) == (2, 150, 6)


def test_a_carry_names_its_source_in_one_line_and_later_games_add_to_it(
    tmp_path: Path,
) -> None:
    ledger = Ledger(tmp_path / "ledger.jsonl")
    for index in range(3):
        ledger.record(game(index, 1.0 if index else 0.0))
    assert ledger.carry("abc", "new", lambda cell: True) == 3
    lines = ledger.path.read_text().splitlines()
    assert len(lines) == 5, "one line for the carried cell, not a copy of each game"
    new = CELL.model_copy(update={"code": "new"})
    assert json.loads(lines[-1]) == {"id": new.id, "cell": new.model_dump(), "from": CELL.id}
    ledger.record(game(3, 1.0, new))
    ledger.record(game(1, 0.0, new))  # already counted from its source: counts once
    read = Ledger(ledger.path).tally(new)
    assert (read.games, read.wins, read.played) == (4, 3.0, {0, 1, 2, 3})
    assert len(ledger.path.read_text().splitlines()) == 7, "the new cell is not named again"


def carried_twice(path: Path) -> tuple[Ledger, Cell]:
    """A game of CELL, carried to code "second", which plays a game of its own and is
    carried to "third": the ledger, and the cell of "third" (2 games, 1.5 won)."""
    ledger = Ledger(path)
    ledger.record(game(0, 1.0))
    ledger.carry("abc", "second", lambda cell: True)
    ledger.record(game(1, 0.5, CELL.model_copy(update={"code": "second"})))
    ledger.carry("second", "third", lambda cell: True)
    return ledger, CELL.model_copy(update={"code": "third"})


def test_carries_chain_and_pruning_keeps_the_cells_today_s_count_games_from(
    tmp_path: Path,
) -> None:
    ledger, third = carried_twice(tmp_path / "ledger.jsonl")
    assert Ledger(ledger.path).tally(third).wins == 1.5
    other = CELL.model_copy(update={"code": "other", "players": 3})
    ledger.record(game(0, 1.0, other))
    assert ledger.prune({"complots": "third"}) == 1, "only the cell nobody counts from"
    read = Ledger(ledger.path)
    assert (read.tally(third).games, read.tally(third).wins) == (2, 1.5)
    assert other not in read.tallies


def copied_ledger(path: Path) -> Ledger:
    """A ledger written the old way: a carry copied every game to the new cell, and
    the new cell then played one game of its own."""
    new = CELL.model_copy(update={"code": "new"})
    ledger = Ledger(path)
    for index in range(3):
        ledger.record(game(index, index / 2))
    for index in range(3):
        ledger.record(game(index, index / 2, new))
    ledger.record(game(3, 1.0, new))
    ledger.record(game(0, 0.0, CELL.model_copy(update={"code": "elsewhere", "seed": 8})))
    return ledger


def test_compacting_turns_copied_games_into_a_reference_and_keeps_every_tally(
    tmp_path: Path,
) -> None:
    ledger = copied_ledger(tmp_path / "ledger.jsonl")
    before = {cell: tally.model_dump() for cell, tally in ledger.tallies.items()}
    assert ledger.compact() == 3, "the three copies"
    lines = ledger.path.read_text().splitlines()
    assert json.loads(lines[4])["from"] == CELL.id, "named where the copy was"
    assert [json.loads(line)[1] for line in lines if line.startswith("[")] == [0, 1, 2, 3, 0]
    read = Ledger(ledger.path)
    assert {cell: tally.model_dump() for cell, tally in read.tallies.items()} == before
    assert read.compact() == 0, "nothing left to compact"


def test_a_cell_whose_games_differ_from_every_other_is_not_compacted(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "ledger.jsonl")
    new = CELL.model_copy(update={"code": "new"})
    ledger.record(game(0, 1.0))
    ledger.record(game(0, 0.0, new))  # another result: played again, not copied
    text = ledger.path.read_text()
    assert ledger.compact() == 0
    assert ledger.path.read_text() == text


def test_a_source_with_games_after_its_copy_is_referred_to_after_them(tmp_path: Path) -> None:
    """A reference counts the games read before it: where the source got games after
    its copy was first named, the reference goes after them."""
    ledger = Ledger(tmp_path / "ledger.jsonl")
    new = CELL.model_copy(update={"code": "new"})
    ledger.record(game(0, 1.0))
    ledger.record(game(0, 1.0, new))
    ledger.record(game(1, 0.5))
    ledger.record(game(1, 0.5, new))
    before = Ledger(ledger.path).tally(new).model_dump()
    assert ledger.compact() == 1
    lines = ledger.path.read_text().splitlines()
    assert json.loads(lines[-1])["from"] == CELL.id
    assert Ledger(ledger.path).tally(new).model_dump() == before


def test_compacting_writes_nothing_that_would_read_back_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ledger = copied_ledger(tmp_path / "ledger.jsonl")
    text = ledger.path.read_text()
    monkeypatch.setattr(ledger_module, "compacted_lines", lambda lines, *_: lines[:-1])
    with pytest.raises(ValueError, match="same tallies"):
        ledger.compact()
    assert ledger.path.read_text() == text


def test_a_partial_ledger_holds_only_its_cells_and_the_games_they_count_by_reference(
    tmp_path: Path,
) -> None:
    """A process that plays some cells reads only their games (a whole ledger in
    memory made its garbage collections long), carried ones included."""
    ledger, third = carried_twice(tmp_path / "ledger.jsonl")
    other = CELL.model_copy(update={"players": 3})
    ledger.record(game(0, 0.0, other))
    whole = Ledger(ledger.path)
    partial = Ledger(ledger.path, only=[third])
    assert partial.partial and not whole.partial
    assert partial.tally(third).model_dump() == whole.tally(third).model_dump()
    assert (partial.tally(third).games, partial.tally(third).wins) == (2, 1.5)
    assert other not in partial.tallies and other in whole.tallies
    assert set(partial.cells) == set(whole.cells), "every cell stays named"


def test_a_partial_ledger_records_games_the_whole_ledger_reads(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "ledger.jsonl")
    other = CELL.model_copy(update={"players": 3})
    ledger.record(game(0, 1.0))
    ledger.record(game(0, 0.0, other))
    partial = Ledger(ledger.path, only=[other])
    partial.record(game(1, 1.0, other))
    partial.record(game(1, 0.0, CELL))
    lines = ledger.path.read_text().splitlines()
    assert len(lines) == 6, "no cell named twice"
    whole = Ledger(ledger.path)
    assert (whole.tally(other).games, whole.tally(other).wins) == (2, 1.0)
    assert (whole.tally(CELL).games, whole.tally(CELL).wins) == (2, 1.0)


@pytest.mark.parametrize("rewrite", ["compact", "prune", "carry"])
def test_a_partial_ledger_does_not_rewrite_the_file(tmp_path: Path, rewrite: str) -> None:
    ledger = Ledger(tmp_path / "ledger.jsonl")
    ledger.record(game(0, 1.0))
    ledger.record(game(0, 1.0, CELL.model_copy(update={"players": 3})))
    before = ledger.path.read_text()
    partial = Ledger(ledger.path, only=[CELL])
    with pytest.raises(ValueError, match="partial ledger"):
        if rewrite == "compact":
            partial.compact()
        elif rewrite == "prune":
            partial.prune({"complots": "new"})
        else:
            partial.carry("abc", "new", lambda cell: True)
    assert ledger.path.read_text() == before
