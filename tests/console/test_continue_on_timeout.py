"""The console's ``/continue`` takes ``on_timeout:`` (and ``level:`` with ``computer``) as
``/challenge`` does: the same values, read in every form, refused in the same words."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from bot.console import ShiftedClock, open_console
from storage import MemoryRepository
from tests.console.test_messages import after
from tests.service.conftest import SetClock

FOUR = ('[Game "alquerque-grande"]\n[Options \'{"mode": "fast", "players": 4}\']\n\n'
        "1. c3-d4 2. e3xc3\n")
TEAMS = FOUR.replace('"fast"', '"teams"')


async def _run(lines: list[str]) -> tuple[str, object]:
    out = io.StringIO()
    console = open_console(MemoryRepository(), out, clock=ShiftedClock(SetClock()),
                           rng=random.Random(1))
    for line in lines:
        out.write(f"> {line}\n")
        await console.handle(line)
    return out.getvalue(), console


@pytest.mark.parametrize("written", ["on_timeout:skip", "on_timeout=skip", "ON_TIMEOUT:Skip"])
async def test_continue_with_skip(tmp_path: Path, written: str) -> None:
    (tmp_path / "four.txt").write_text(FOUR)
    asked = f"/continue #1 @bob @carol @dave {written}"
    out, console = await _run(["as alice", f"/import {tmp_path / 'four.txt'}", asked])
    assert after(out, asked).splitlines()[-1].startswith("created #2 Alquerque grande")
    m = await console.service.get_match(2)  # type: ignore[attr-defined]
    assert m.on_timeout == "skip" and m.continued_from == 1


async def test_continue_with_the_computer_at_a_level(tmp_path: Path) -> None:
    (tmp_path / "four.txt").write_text(FOUR)
    asked = "/continue #1 @bob @carol @dave on_timeout:computer level:2"
    out, console = await _run(["as alice", f"/import {tmp_path / 'four.txt'}", asked])
    assert "created #2" in after(out, asked)
    m = await console.service.get_match(2)  # type: ignore[attr-defined]
    assert m.on_timeout == "computer"


@pytest.mark.parametrize(("record", "written", "said"), [
    (FOUR, "on_timeout:later", "! on_timeout must be end, skip or computer"),
    (TEAMS, "on_timeout:computer", "! on_timeout:computer is for four-player games without "
     "teams (teams keep their rules)"),
    (FOUR, "on_timeout:computer level:9", "! the computer plays at levels 1 (beginner) to "
     "8 (strongest)"),
    (FOUR, "on_timeout:computer level:x", "! level: a number from 1 (beginner) to 8 "
     "(strongest)"),
    (FOUR, "on_timeout:skip level:3", "! a level is for the computer that plays a late "
     "player's seat: it goes with on_timeout:computer"),
])
async def test_on_timeout_is_refused_in_the_words_of_challenge(
        tmp_path: Path, record: str, written: str, said: str) -> None:
    (tmp_path / "four.txt").write_text(record)
    asked = f"/continue #1 @bob @carol @dave {written}"
    out, _console = await _run(["as alice", f"/import {tmp_path / 'four.txt'}", asked])
    assert after(out, asked).strip() == said


async def test_the_usage_names_it() -> None:
    out, _console = await _run(["as alice", "/continue", "/help"])
    assert after(out, "/continue").strip() == (
        "! /continue #N @PLAYER [seat:COLOUR] [days:N | clock:CONTROL] "
        "[on_timeout:end|skip|computer [level:N]]")
    assert "[on_timeout:end|skip|computer [level:N]]" in after(out, "/help")
