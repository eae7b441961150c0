"""``python -m bot.play``: a game in the terminal, in the bot's sentences and languages."""

from __future__ import annotations

import io
import logging
import random
import re
import subprocess
import sys

import pytest

from bot.play import main, plain_text
from bot.ui.i18n import LANGUAGES, t
from games.__main__ import main as raw_main
from games.registry import GAMES

RAW_FIELD = re.compile(r"\b[a-z_]+=\S")
"""``key=value``: the developer view's dumps."""
CHOICE_LINE = re.compile(r"^  (\d+)\. (.*)$")
CODE = re.compile(r"^[a-z_]+(\.[a-z0-9_+\-]+)+$")
"""A choice's code (``act.steal.2``): what a choice without words would show."""


def run(*argv: str, typed: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out, into=io.StringIO(typed))
    return code, out.getvalue()


def game_over_words(lang: str) -> str:
    """The start of the last line ("Game over", "Partita finita", "Partie terminée")."""
    return t("terminal.nobody", lang).split(":")[0].rstrip("\u202f ")


def assert_reads_cleanly(out: str) -> None:
    lines = out.splitlines()
    assert not [line for line in lines if RAW_FIELD.search(line)], "no raw event dump"
    assert not [line for line in lines if "**" in line or "\\" in line or "~~" in line]
    assert not [line for line in lines if re.search(r"[{}]", line)], "every text is formatted"
    labels = [m[2] for line in lines if (m := CHOICE_LINE.match(line))]
    assert not [label for label in labels if CODE.match(label)], "every choice has words"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_watched_game_reads_as_sentences_to_its_end(
    game: str, lang: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="bot.i18n"):
        code, out = run(game, "--players", "3", "--watch", "--seed", "4", "--lang", lang)
    assert code == 0
    assert not caplog.records, "no missing translation key"
    assert_reads_cleanly(out)
    lines = out.splitlines()
    computer = t("terminal.computer", lang, number=1)
    assert f"1. {computer}" in lines[1], "seats are numbered from 1, in the language"
    assert sum(line.startswith("  · ") for line in lines) > 10, "the channel's lines"
    assert lines[-1].startswith(game_over_words(lang))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_sentences_tell_the_same_game_as_the_raw_view(game: str) -> None:
    _, out = run(game, "--players", "4", "--watch", "--seed", "9")
    raw = io.StringIO()
    raw_main(["play", game, "--players", "4", "--watch", "--seed", "9"], out=raw)
    raw_end = raw.getvalue().splitlines()[-1]  # "Game over: seat 2 (normal), ... won"
    raw_winners = [int(n) for n in re.findall(r"seat (\d+)", raw_end)]
    winners = [t("terminal.computer", "en", number=n) for n in raw_winners]
    if winners:
        assert out.splitlines()[-1].startswith(f"Game over: {', '.join(winners)} win")
    else:
        assert out.splitlines()[-1] == "Game over: nobody wins."


def test_a_person_chooses_by_number_and_sees_what_only_it_may_see() -> None:
    # Seed 3: seat 1 (you) opens the game, with 2 coins.
    code, out = run("complots", "--players", "3", "--seed", "3", typed="x\n0\n4\nq\n")
    assert code == 1 and out.endswith("Bye.\n")
    assert "Seats: 1. Player 1 (you) · 2. Computer 2 · 3. Computer 3" in out
    assert "What only you see:\n  Face down: " in out
    assert "\n=== Complots ===\n▶ Player 1 🪙 2 " in out, "the table, as its message reads"
    assert f"  1. {t('complots.action.income', 'en')}\n" in out
    panel_choice = re.search(r"^  4\. .+ → Computer 2$", out, re.MULTILINE)
    assert panel_choice, "a choice in a panel is named with the button opening it"
    assert out.count("Please type a number from 1 to 6.") == 2, "x and 0 are refused"
    assert "? 4\n  · Player 1 " in out, "the channel's line tells the person's move"


def test_the_person_may_play_under_its_own_name_at_its_own_seat() -> None:
    _, out = run(
        "complots", "--players", "3", "--seed", "3", "--seat", "2", "--name", "Ann", typed="q\n"
    )
    assert "Seats: 1. Computer 1 · 2. Ann (you) · 3. Computer 3" in out
    assert re.search(r"^[▪▶] Ann 🪙 2 ", out, re.MULTILINE), "the table names the person"


def test_a_person_plays_in_french() -> None:
    code, out = run("complots", "--players", "3", "--seed", "3", "--lang", "fr", typed="9\n1\nq\n")
    assert code == 1 and out.endswith("Au revoir.\n")
    assert "Places\u202f: 1. Joueur 1 (toi) · 2. Ordinateur 2 · 3. Ordinateur 3" in out
    assert "Tape un nombre de 1 à 6." in out
    assert f"  1. {t('complots.action.income', 'fr')}\n" in out
    assert "? 1\n  · Joueur 1 " in out, "the channel's line tells the person's move"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_person_answering_at_random_plays_every_game_to_its_end(game: str) -> None:
    rng = random.Random(game)
    typed = "".join(f"{rng.randint(1, 9)}\n" for _ in range(4000))
    code, out = run(game, "--players", "3", "--seed", "2", "--level", "easy", typed=typed)
    assert code == 0, "the game ended before the answers did"
    assert_reads_cleanly(out)
    if game == "mascarade":  # the first turns swap, and the swapper alone knows how
        assert "  🔒 " in out, "the person is told its own secrets"


def test_end_of_input_stops_the_game_politely() -> None:
    code, out = run("mascarade", "--players", "4", "--seed", "2", "--lang", "it", typed="1\n")
    assert code == 1 and out.endswith("Ciao.\n")


def test_bad_arguments_are_explained() -> None:
    with pytest.raises(SystemExit):
        run("complots", "--lang", "de")
    with pytest.raises(SystemExit):
        run("complots", "--players", "3", "--seat", "4")


def test_markdown_reads_as_plain_text() -> None:
    assert plain_text("**Ann** takes *one* coin · ") == "Ann takes one coin"
    assert plain_text("a\\*b\\_c \\*\\*d") == "a*b_c **d", "escapes are undone, not read"
    assert plain_text("~~Duke~~") == "".join(f"{ch}\u0336" for ch in "Duke")
    assert plain_text("ends <t:1700000000:R>") == "ends"
    assert plain_text("score:\n```\n**a**  1\n```") == "score:\n**a**  1", "code stays as is"
    assert plain_text("snake_case and __init__") == "snake_case and init"


def test_it_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.play", "conspiracy", "--players=2", "--watch", "--seed=5"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Game over:" in done.stdout.splitlines()[-1]
