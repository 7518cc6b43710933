"""Adding a game is one plug-in (issue 37, README "Adding a game"): tic-tac-toe, declared
in one file (``tests/plugin_game/tictactoe.py``) and registered for the length of each
test, is played through the service from the console (two people, and a person against
the computer), drawn by the renderer, exported by ``/history`` and listed by ``/games``
and ``/rules`` — with no change anywhere else."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

import rules
import rules.core
from bot.console import run_console
from engine import choose_move
from tests.plugin_game.tictactoe import KEY, TICTACTOE, reachable_positions


@pytest.fixture
def tictactoe(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tic-tac-toe in the rules registry for one test (the registry is the game's only
    door; nothing else is told)."""
    monkeypatch.setitem(rules.core._VARIANTS, KEY, TICTACTOE)
    assert rules.variant(KEY) is TICTACTOE
    yield


async def _console(tmp_path: Path, script: str) -> str:
    out = io.StringIO()
    code = await run_console(tmp_path / "t.db", boards_dir=tmp_path / "boards",
                             stdin=io.StringIO(script), stdout=out, seed=1,
                             engine_seconds=0.5)
    assert code == 0, out.getvalue()
    return out.getvalue()


def test_the_rules_are_whole() -> None:
    assert reachable_positions() == 5478  # the known count of tic-tac-toe positions


async def test_two_people_play_it_through_the_console(tictactoe: None, tmp_path: Path
                                                      ) -> None:
    out = await _console(tmp_path, """as alice
/games list
/rules tictactoe
/challenge @bob tictactoe seat:white
as bob
/accept
as alice
/move b2
as bob
/move b2
/move a1
as alice
/move c1
as bob
/move a3
as alice
/move a2
as bob
/move c2
as alice
/move b1
as bob
/move b3
as alice
/move c3
/history #1
""")
    assert "tictactoe" in out and "Tic-tac-toe" in out
    assert "three in a row wins" in out  # its summary, from the variant
    # its refusal, through the service (a game's own sentences need words in locales/
    # rules_words.py; without them the reader is told plainly that the rules refuse)
    assert "! the rules do not allow that" in out
    assert "draw" in out.lower()
    assert "export" in out and "b2" in out.split("export", 1)[1]
    boards = sorted((tmp_path / "boards").glob("*.png"))
    assert boards, "the renderer drew its boards"
    assert boards[-1].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


async def test_a_person_plays_the_computer_at_it(tictactoe: None, tmp_path: Path) -> None:
    out = await _console(tmp_path, """as alice
/challenge @computer tictactoe level:8 seat:white
/move a1
/move b1
/move c3
/move a3
/move c2
/board
""")
    assert "Tablero" in out
    assert "is over" in out or "won" in out or "draw" in out.lower()


def test_the_engine_never_loses_a_line_it_can_hold(tictactoe: None) -> None:
    p = TICTACTOE.start()
    p = p.play(TICTACTOE.parse_move(p, "a1"))
    choice = choose_move(p, 8, seed=0, seconds=1.0)
    assert TICTACTOE.format_move(p, choice.move) == "b2"  # the only reply that draws
