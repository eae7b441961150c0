"""``python -m games play``: a game in the terminal against computer players."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from games.__main__ import main
from games.registry import GAMES


def run(*argv: str, typed: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out, into=io.StringIO(typed))
    return code, out.getvalue()


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_computers_play_every_game_to_its_end(game: str, level: str) -> None:
    code, out = run("play", game, "--players", "3", "--watch", "--level", level, "--seed", "4")
    assert code == 0
    assert out.splitlines()[-1].startswith("Game over: seat ")
    assert "> seat 1 (" in out, "every computer move is printed"


def test_a_solo_game_can_be_lost() -> None:
    outcomes = set()
    for seed in range(6):
        code, out = run(
            "play", "bloody_inn", "--players=1", "--watch", "--level=random", f"--seed={seed}"
        )
        assert code == 0
        outcomes.add(out.splitlines()[-1].split(" (")[0])
    assert outcomes == {"Game over: nobody won"}, "a random innkeeper alone loses"


def test_a_person_sees_its_view_and_numbered_choices_and_can_quit() -> None:
    code, out = run("play", "complots", "--players", "3", "--seed", "1", typed="x\n9\n1\nq\n")
    assert code == 1 and out.endswith("Bye.\n")
    assert "--- what you see ---" in out
    assert "hidden: [" in out, "the person's own face-down cards are shown to it"
    assert "Your reaction (" in out and "  1. challenge\n" in out
    assert out.count("Please type a number from 1 to") == 2, "x and 9 are refused"
    assert "> you: challenge" in out


def test_end_of_input_stops_the_game_politely() -> None:
    code, out = run("play", "mascarade", "--players", "4", "--seed", "2", typed="1\n" * 3)
    assert code == 1 and out.endswith("Bye.\n")


def test_bad_arguments_are_explained() -> None:
    with pytest.raises(SystemExit):
        run("play", "complots", "--players", "9")
    with pytest.raises(SystemExit):
        run("play", "complots", "--players", "3", "--seat", "4")


def test_it_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games", "play", "conspiracy", "--players=2", "--watch", "--seed=5"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Game over:" in done.stdout
