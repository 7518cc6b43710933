"""The console's replay stepper (issue 42): ``/board #N ply:K`` shows the board after K
plies of the record, as text and (with ``--boards``) as a PNG; out of range, or not a
number, it says what it takes."""

from __future__ import annotations

import io
import random
from pathlib import Path

from bot.boards import load_renderer
from bot.console import ShiftedClock, open_console
from storage import MemoryRepository
from tests.service.conftest import SetClock


async def play(lines: str, boards: Path | None = None) -> str:
    out = io.StringIO()
    console = open_console(MemoryRepository(), out, clock=ShiftedClock(SetClock()),
                           rng=random.Random(1), renderer=load_renderer(), boards_dir=boards)
    for line in lines.strip().splitlines():
        out.write(f"> {line}\n")
        await console.handle(line)
    return out.getvalue()


def after(out: str, command: str) -> str:
    return out.rsplit(f"> {command}\n", 1)[1].split("\n> ", 1)[0]


GAME = """
as alice
/challenge @bob xiangqi seat:red
as bob
/accept
as alice
/move h3-e3
as bob
/move h8-e8
as alice
/resign
"""


async def test_board_at_a_ply_in_every_form_with_its_picture(tmp_path: Path) -> None:
    out = await play(GAME + "/board #1 ply:0\n/board #1 ply=2\n/board #1 1\n/board #1 ply:3\n",
                     tmp_path)
    start = after(out, "/board #1 ply:0")
    assert start.startswith("#1, the start position (ply 0 of 3)")
    assert "10   r   n   b   a   k" in start  # the text board, from the top
    second = after(out, "/board #1 ply=2")
    assert second.startswith("#1, ply 2 of 3: bob played h8-e8 (C8.5)")
    assert "[c]" in second  # the moved cannon is marked in the text board
    assert "Black (bob) to move" not in second and "Red (alice) to move" in second
    image = tmp_path / "match1-ply2.png"
    assert f"board image: {image}" in second
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert after(out, "/board #1 1").startswith("#1, ply 1 of 3: alice played h3-e3 (C2.5)")
    last = after(out, "/board #1 ply:3")
    assert last.startswith("#1, ply 3 of 3: Red resigns")
    assert (tmp_path / "match1-ply3.png").exists()


async def test_board_at_a_ply_refuses_what_is_not_one() -> None:
    out = await play(GAME + "/board #1 ply:7\n/board #1 ply:-1\n/board #1 ply:two\n"
                     "/board #1 ply:1 2\n/board #9 ply:1\n")
    assert after(out, "/board #1 ply:7").startswith(
        "! match #1 has plies 0 to 3; there is no ply 7")
    for line in ("/board #1 ply:-1", "/board #1 ply:two"):
        said = after(out, line)
        assert said.startswith("! /board [#N] [ply:K]: K is a number of plies"), said
    assert "ply:1 2" not in after(out, "/board #1 ply:1 2")
    assert after(out, "/board #1 ply:1 2").startswith("! /board [#N] [ply:K]")
    assert after(out, "/board #9 ply:1").startswith("! there is no match #9")
