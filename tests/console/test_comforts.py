"""The comforts in the console, across a restart (two sessions on one database):
conditional moves, takeback, notes, follows and rematch."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console import run_console


async def session(db: Path, text: str) -> str:
    out = io.StringIO()
    code = await run_console(db, stdin=io.StringIO(text), stdout=out, seed=3)
    assert code == 0
    return out.getvalue()


async def test_comforts_in_the_console_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    first = await session(db, """
as alice
/challenge @bob xiangqi seat:red casual
as carol
/follow #1
as bob
/accept
as alice
/move h3-e3
/premove h10-g8 b1-b5
/premove h10-g8 b1-c3 b10-c8 h1-g3; c7-c6 h1-g3
/note Centre cannon, then horses.
as bob
/premove list
""")
    assert "! line 1, move 2 (your move b1-b5) cannot be played there" in first
    assert "line 1: h10-g8 → b1-c3, b10-c8 → h1-g3" in first
    assert "line 2: c7-c6 → h1-g3" in first
    assert "to carol (following): alice played" in first
    assert first.endswith("no conditional moves in #1\n")  # Alice's lines are hers
    second = await session(db, """
as bob
/move h10-g8
/premove list
as alice
/premove list
/note
/history
as bob
/note
/takeback
as alice
/takeback
as bob
/takeback accept
/resign
/rematch
as alice
/accept
/games
""")
    assert "alice's conditional move" in second and "answers at once" in second
    assert "line 1: b10-c8 → h1-g3" in second
    assert "your note on #1: Centre cannon, then horses." in second
    assert "Your private note (only you see it): Centre cannon, then horses." in second
    assert "! only the players of match #1 keep notes" not in second
    assert "no note on #1" in second  # Bob's own note: none; Alice's is not his
    assert "! only the last move can be taken back" in second  # Bob's move was answered
    assert "alice asks to take back" in second
    assert "bob agreed" in second and "taken back" in second
    assert "bob asks alice for a rematch of #1" in second
