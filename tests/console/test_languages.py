"""The console speaks the language it is given (issue 14): ``tablero console --lang de``,
else ``TABLERO_LANG``, else English; an unknown language is refused. Moves are typed the
same in every language."""

from __future__ import annotations

import asyncio
import io
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.__main__ import language
from bot.console import ShiftedClock, console_locale, open_console
from storage import MemoryRepository
from tests.console.test_hostile_input import LINE, SETUP
from tests.discordapp.languages import MARK, speak_pseudo, words_left
from tests.service.conftest import SetClock, finishing_game

ROOT = Path(__file__).resolve().parents[2]


async def play(lines: list[str], locale: str | None) -> list[str]:
    out = io.StringIO()
    console = open_console(MemoryRepository(), out, clock=ShiftedClock(SetClock()),
                           rng=random.Random(1), locale=locale)
    for line in lines:
        await console.handle(line)
    return out.getvalue().splitlines()


def a_whole_game() -> list[str]:
    moves = finishing_game("alquerque", {}, seed=2)
    assert moves
    lines = ["as alice", "/challenge @bob alquerque seat:white", "as bob", "/accept",
             "/games", "/board", "as alice", "/draw offer", "as bob", "/draw decline",
             "/moves", "/settings days:4", "/rules alquerque", "/notify dm"]
    for i, m in enumerate(moves):
        lines += [f"as {('alice', 'bob')[i % 2]}", f"/move {m}"]
    return [*lines, "/history", "/leaderboard alquerque", "/stats", "/help", "/nonsense",
            "/move z9-z10"]


async def test_every_line_of_a_game_is_in_the_consoles_language(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``--lang de`` (here a pseudo-German marking every message), every line the
    console prints that has words went through the catalogue; the same moves are read."""
    speak_pseudo(monkeypatch, "de")
    printed = await play(a_whole_game(), "de")
    names = ("alice", "bob", "Tablero", "Alquerque")
    left = [line for line in printed if words_left(line, names) and MARK not in line
            and not line.endswith("⟧")  # the last line of a message on several
            and not line.startswith(("[", "10 ", " ", "1.")) and "|" not in line]
    # text boards, the exported record (a file format) and the rules' notation lines
    # are the same in every language
    assert not left, left
    assert any("won" in line and MARK in line for line in printed)


async def test_english_is_the_default_and_the_same_moves_are_read_everywhere() -> None:
    english = await play(a_whole_game(), None)
    german = await play(a_whole_game(), "de")
    assert sum("played" in line for line in english) >= 26
    # the game went the same way: the same board lines (notation) in both
    assert [x for x in english if x.startswith(" 5 ")] == [x for x in german if
                                                          x.startswith(" 5 ")]


def test_the_language_comes_from_the_flag_else_tablero_lang(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLERO_LANG", "sv_SE")
    assert console_locale(None) == "sv-SE"
    assert console_locale("zh-TW") == "zh-TW"
    monkeypatch.delenv("TABLERO_LANG")
    assert console_locale(None) == "en-US"


@pytest.mark.parametrize(("given", "chosen"), [("de", "de"), ("es", "es-ES"),
                                                ("es-419", "es-419"), ("zh_CN", "zh-CN"),
                                                ("en-GB", "en-GB"), ("EN", "en-US")])
def test_lang_accepts_the_languages_tablero_speaks(given: str, chosen: str) -> None:
    assert language(given) == chosen


def test_an_unknown_language_is_refused_by_the_command_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bot", "console", "--lang", "fr",
                           "--db", str(tmp_path / "t.db")], cwd=ROOT, input="",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "does not speak 'fr'" in done.stderr and "zh-TW" in done.stderr


def test_tablero_console_lang_runs_in_that_language(tmp_path: Path) -> None:
    """The real command line: ``tablero console --lang de`` on a script prints the
    German catalogue's words (English where a message is not translated yet: the
    catalogue falls back message by message)."""
    script = "as alice\n/challenge @bob xiangqi\nas bob\n/accept\n/move h8-e8\n"
    done = subprocess.run([sys.executable, "-m", "bot", "console", "--lang", "de",
                           "--db", str(tmp_path / "t.db")], cwd=ROOT, input=script,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    from locales.i18n import _
    expected = _("you are {name}", name="alice").render("de")
    assert expected in done.stdout


async def test_refused_options_list_their_choices_with_the_languages_or() -> None:
    """A refused option value or name lists what is allowed as alternatives ("a oder
    b"), not an English comma list."""
    printed = await play(["as alice", "/challenge @bob querni setup:banana",
                          "/challenge @bob querni colour:red"], "de")
    refusals = [line for line in printed if line.startswith("!")]
    assert len(refusals) == 2, printed
    assert "random oder choose" in refusals[0], refusals
    assert " oder " in refusals[1] and "setup" in refusals[1], refusals


async def test_options_the_rules_refuse_together_are_said_in_the_consoles_language() -> None:
    """``players:2 mode:teams`` passes each option's own check but the rules refuse the
    pair (``check_options``): the reason is the rules' coded one, in German."""
    printed = await play(["as alice",
                          "/challenge @bob alquerque-grande players:2 mode:teams"], "de")
    refusal = [line for line in printed if line.startswith("!")]
    assert refusal == ["! Alquerque grande: einen Modus gibt es nur mit 4 Spielern "
                       "(ein Spiel zu zweit hat keinen Modus)"], printed


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(LINE, min_size=1, max_size=6))
@example(lines=["/challenge @bob alquerque-grande players:2 mode:teams", "/move z9",
                "/challenge @bob querni setup:x", "/settings days:99"])
def test_every_refusal_of_hostile_input_went_through_the_catalogue(lines: list[str]) -> None:
    """Random commands with random ids, options and values (the hostile-input test's
    lines) in a pseudo-language: every refusal the console prints (``!``) has words from
    the catalogue, none is English built outside it (before: a pair of options the rules
    refuse together was quoted in English)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        speak_pseudo(monkeypatch, "de")
        printed = asyncio.run(play([*SETUP, *lines], "de"))
    refusals = [line for line in printed if line.startswith("!")]
    assert all(MARK in line for line in refusals), [r for r in refusals if MARK not in r]


async def test_a_german_console_names_the_consoles_english_commands() -> None:
    """The service's refusal is Discord's too, where a German reader's names ``/ziehen``;
    the console's commands are English, and so are the names it gives them."""
    said = await play(["as alice", "/challenge @bob xiangqi", "as bob", "/accept",
                       "as alice", "/setup 1 2 3"], "de")
    assert said[-1].startswith("! ") and said[-1].endswith("/move"), said[-1]
    assert "Aufstellungsphase" in said[-1] and "/ziehen" not in said[-1]
