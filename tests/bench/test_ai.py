"""bench.ai's opponents (the forgetful NORMAL, the NORMAL of HARD's first goals), and
its cells shared among processes."""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import bench.ai
from bench.ai import (
    Forgetful,
    Part,
    SimulationCount,
    Timed,
    counting,
    hard_policy,
    opponent,
    play_cell,
)
from bench.ledger import Cell, Ledger, fingerprint
from games import complots
from games.ai import Level, Policy
from games.base import Event, Prompt
from games.mascarade import GAME
from games.registry import policy_for
from games.search import SearchPolicy
from tests.bench.test_ledger import CELL
from tests.games.complots.test_hard import STEP, overruns, short_of_time
from tests.games.playouts import play_out


def twin(rng: random.Random) -> random.Random:
    copy = random.Random()
    copy.setstate(rng.getstate())
    return copy


class Compared(Policy[Any, Any]):
    """Plays the forgetful NORMAL, and counts where it differs from NORMAL given
    the seat's history, and from NORMAL given none."""

    level = Level.NORMAL

    def __init__(self) -> None:
        self.normal = policy_for("mascarade", Level.NORMAL)
        self.forgetful = opponent("mascarade", "forgetful")
        self.unlike_remembering = self.unlike_viewonly = 0

    def choose(self, view: Any, rng: random.Random, history: Sequence[Event] = ()) -> Any:
        remembering = self.normal.choose(view, twin(rng), history)
        viewonly = self.normal.choose(view, twin(rng), ())
        forgot = self.forgetful.choose(view, rng, history)
        self.unlike_remembering += forgot != remembering
        self.unlike_viewonly += forgot != viewonly
        return forgot

    def decide(self, view: Any, prompt: Prompt[Any], rng: random.Random) -> Any:
        raise AssertionError("choose plays")


def test_the_forgetful_normal_decides_from_the_view_alone() -> None:
    seats = Compared()
    play_out(GAME, [seats] * 6, seed=3)
    assert seats.unlike_viewonly == 0
    assert seats.unlike_remembering > 0, "given its history, NORMAL decides otherwise"


def test_a_search_plays_forgetful_seats_as_themselves_in_its_simulations() -> None:
    hard = policy_for("mascarade", Level.HARD)
    assert isinstance(hard, SearchPolicy)
    forgetful = opponent("mascarade", "forgetful")
    assert isinstance(forgetful, Forgetful) and not forgetful.remembers
    assert hard.facing({1: forgetful}).seated == {1: forgetful}
    assert hard.facing({1: policy_for("mascarade", Level.NORMAL)}).seated == {}


def a_cell() -> Cell:
    """A cell as ``bench.ai --hard --hero normal --game complots --players 2 --against
    easy --clock cpu`` names it."""
    return CELL.model_copy(update={"seed": 1, "code": fingerprint("complots")})


def shares(ledger: Ledger, cell: Cell) -> dict[int, float]:
    return {index: game.share for index, game in ledger.games.get(cell, {}).items()}


def test_parts_of_a_cell_fill_one_ledger_as_one_process_would(tmp_path: Path) -> None:
    cell = a_cell()
    normal, easy = policy_for("complots", Level.NORMAL), policy_for("complots", Level.EASY)
    alone = Ledger(tmp_path / "alone.jsonl")
    play_cell(cell, Timed(normal), Timed(easy), 6, alone)
    shared_path = tmp_path / "shared.jsonl"
    # Both processes read the file before either writes: both write the cell's line.
    first, second = Ledger(shared_path), Ledger(shared_path)
    play_cell(cell, Timed(normal), Timed(easy), 6, first, Part(0, 2))
    assert sorted(shares(Ledger(shared_path), cell)) == [0, 2, 4]
    play_cell(cell, Timed(normal), Timed(easy), 6, second, Part(1, 2))
    shared = Ledger(shared_path)
    assert shares(shared, cell) == shares(alone, cell)
    assert len(shares(alone, cell)) == 6
    assert shared.tally(cell).games == 6
    assert shared.tally(cell).wins == alone.tally(cell).wins


def test_jobs_share_the_missing_games_and_report_the_whole_cell(tmp_path: Path) -> None:
    ledger = tmp_path / "hard.jsonl"
    cell = a_cell()
    normal, easy = policy_for("complots", Level.NORMAL), policy_for("complots", Level.EASY)
    play_cell(cell, Timed(normal), Timed(easy), 2, Ledger(ledger))
    command = [sys.executable, "-m", "bench.ai", "--hard", "--hero", "normal"]
    command += ["--game", "complots", "--players", "2", "--against", "easy", "--games", "5"]
    command += ["--clock", "cpu", "--jobs", "2", "--ledger", str(ledger)]
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=300, check=True, cwd=root
    )
    assert "2 processes" in done.stdout
    assert "of 5 games" in done.stdout
    filled = Ledger(ledger)
    assert sorted(shares(filled, cell)) == [0, 1, 2, 3, 4]
    alone = Ledger(tmp_path / "alone.jsonl")
    play_cell(cell, Timed(normal), Timed(easy), 5, alone)
    assert shares(filled, cell) == shares(alone, cell)


def test_a_shared_run_reports_the_cells_it_played_when_the_code_changes_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The closing lines name the cells as planned when the run began: a game's code
    edited while the processes play must not turn them to the new code's empty cell."""
    fingerprints = iter(["before", "edited", "edited", "edited"])
    monkeypatch.setattr(bench.ai, "fingerprint", lambda name: next(fingerprints))
    monkeypatch.setattr(bench.ai, "ProcessPoolExecutor", ThreadPoolExecutor)
    ledger = tmp_path / "hard.jsonl"
    args = argparse.Namespace(
        game=["complots"],
        players=[2],
        against=["easy"],
        hero="normal",
        budget=0.2,
        clock="cpu",
        simulations=None,
        seed=1,
        games=3,
        jobs=2,
        ledger=ledger,
    )
    bench.ai.shared_cells(args)
    closing = capsys.readouterr().out.strip().splitlines()[-1]
    assert "of 3 games" in closing, closing
    played = Ledger(ledger)
    cell = a_cell().model_copy(update={"code": "before"})
    assert sorted(shares(played, cell)) == [0, 1, 2]
    assert not shares(played, cell.model_copy(update={"code": "edited"}))


@dataclass
class Recording(Timed):
    """Timed, keeping the choices too."""

    choices: list[Any] = field(default_factory=list)

    def choose(self, view: Any, rng: random.Random, history: Sequence[Event] = ()) -> Any:
        choice = super().choose(view, rng, history)
        self.choices.append(choice)
        return choice


def test_a_counted_search_plays_the_same_games_and_records_its_simulations(
    tmp_path: Path,
) -> None:
    cell = a_cell().model_copy(update={"hero": "hard", "simulations": 30, "budget": 100.0})
    easy = policy_for("complots", Level.EASY)
    search = hard_policy("complots", 100.0, simulations=30, clock="cpu")
    uncounted = Recording(search)
    plain = play_cell(cell, uncounted, Timed(easy), 3, Ledger(tmp_path / "plain.jsonl"))
    player, count = counting(search)
    assert count is not None
    hero = Recording(player, count=count)
    ledger = Ledger(tmp_path / "counted.jsonl")
    counted = play_cell(cell, hero, Timed(easy), 3, ledger)
    assert hero.choices == uncounted.choices, "counting changes no decision"
    assert shares(ledger, cell) == shares(Ledger(tmp_path / "plain.jsonl"), cell)
    assert plain.counted == 0, "an uncounted hero records no simulations"
    assert counted.counted == 3
    assert 0 < counted.searched <= len(hero.seconds)
    assert counted.simulations == count.simulations
    per_search = counted.simulations_per_search
    assert per_search is not None and per_search >= 30, "at least 30 a searched decision"
    assert counting(easy) == (easy, None)


def test_counting_a_search_that_copies_itself_changes_no_decision(tmp_path: Path) -> None:
    """Mascarade's search copies itself for each decision (its simulations then play
    the others from their memories at four players): counted, its simulations are
    still the copy's, so the games are the ones it plays uncounted."""
    cell = a_cell().model_copy(
        update={
            "game": "mascarade",
            "players": 4,
            "hero": "hard",
            "simulations": 8,
            "budget": 100.0,
        }
    )
    normal = policy_for("mascarade", Level.NORMAL)
    search = hard_policy("mascarade", 100.0, simulations=8, clock="cpu")
    uncounted = Recording(search)
    play_cell(cell, uncounted, Timed(normal), 2, Ledger(tmp_path / "plain.jsonl"))
    player, count = counting(search)
    assert count is not None
    hero = Recording(player, count=count)
    play_cell(cell, hero, Timed(normal), 2, Ledger(tmp_path / "counted.jsonl"))
    assert hero.choices == uncounted.choices
    assert count.simulations >= 8 * count.searched > 0


def test_a_counted_search_still_stops_at_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting passes each simulation's deadline on: a counted Complots HARD at 4
    players stops at it as the uncounted one does, so the bench measures the stop."""
    player, count = counting(short_of_time(complots.HARD))
    assert count is not None
    found = overruns(player, 4, monkeypatch)
    assert max(found) <= STEP + 1e-9
    assert count.simulations >= len(found)


class SearchesEveryOther(Policy[Any, Any]):
    """Runs three simulations at every other decision (the others had one choice)."""

    level = Level.HARD

    def __init__(self, count: SimulationCount) -> None:
        self.count = count
        self.decisions = 0

    def choose(self, view: Any, rng: random.Random, history: Sequence[Event] = ()) -> Any:
        self.decisions += 1
        if self.decisions % 2:
            self.count.simulations += 3
        return None

    def decide(self, view: Any, prompt: Prompt[Any], rng: random.Random) -> Any:
        raise AssertionError("choose plays")


def test_only_decisions_that_ran_simulations_count_as_searched() -> None:
    count = SimulationCount()
    hero = Timed(SearchesEveryOther(count), count=count)
    for _ in range(5):
        hero.choose(None, random.Random(1))
    assert (count.simulations, count.searched, len(hero.seconds)) == (9, 3, 5)
