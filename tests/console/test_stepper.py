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
    assert start.startswith("#1 · Start position (2 moves played)\n")
    assert "10   r   n   b   a   k" in start  # the text board, from the top
    second = after(out, "/board #1 ply=2")
    assert second.startswith("#1 · After move 2 of 2: bob played h8-e8 (C8.5)\n")
    assert "[c]" in second  # the moved cannon is marked in the text board
    assert "Black (bob) to move" not in second and "Red (alice) to move" in second
    image = tmp_path / "match1-ply2.png"
    assert f"board image: {image}" in second
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert after(out, "/board #1 1").startswith(
        "#1 · After move 1 of 2: alice played h3-e3 (C2.5)\n")
    last = after(out, "/board #1 ply:3")
    assert last.startswith("#1 · After move 2 of 2: Red resigns\n")  # ply 3: no move
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


def test_a_ply_of_a_continued_game_s_record_names_the_record_players(tmp_path: Path) -> None:
    """``/continue`` of an imported game, stepped back into the record: "White: bob" was
    said of Ana's seat while the line said "Ana (imported) played"; from the
    continuation on, the seats are today's."""
    from tests.console.test_explorer import session

    record = tmp_path / "record.txt"
    record.write_text('[Game "alquerque-grande"]\n[Options \'{"mode": "slow", "players": 4}\']'
                      '\n[White "Ana"]\n[Turquoise "Tomás"]\n[Black "Bea"]\n[Red "Rui"]\n\n'
                      '1. c3-d4 2. {Turquoise is skipped} 3. e5xc3\n', encoding="utf-8")
    out = session(["as alice", f"/import {record}", "/continue #1 @bob @carol", "as bob",
                   "/accept", "as carol", "/accept", "/board #2 ply:1", "/board #2 ply:3"])
    then = after(out, "/board #2 ply:1")
    assert then.startswith("#2 · After move 1 of 2: Ana (imported) played c3-d4\n")
    assert then.endswith("  White: Ana (imported)\n▶ Turquoise: Tomás (imported)\n"
                         "  Black: Bea (imported)\n  Red: Rui (imported)")
    now = after(out, "/board #2 ply:3").rstrip("\n")  # the last command's
    assert now.startswith("#2 · After move 2 of 2: Bea (imported) played e5xc3\n")
    assert now.endswith("  White: bob · no rating yet\n"
                        "  Turquoise: Tomás (imported) (skipped since move 2) (out)\n"
                        "  Black: carol · no rating yet\n▶ Red: alice · no rating yet")


async def test_a_querni_set_up_ply_says_why_its_board_is_bare() -> None:
    """No stone is on a Querni board until both arrangements are in (RULES §5): the
    stepper at a set-up ply says who still arranges and why, never an empty grid alone;
    once play began, its first board stands and marks no move."""
    arranged = " ".join(str(n) for n in range(1, 17))
    out = await play(f"""
as alice
/challenge @bob querni setup:choose seat:blue
as bob
/accept
/setup {arranged}
/board #1 ply:1
as alice
/setup {arranged}
/board #1 ply:0
/board #1 ply:1
/board #1 ply:2
""")
    note = "no stone is on the board until both arrangements are in"
    during = out.split("> /board #1 ply:1\n", 1)[1].split("\n> ", 1)[0]
    assert during.startswith("#1 · Set-up, before the first move: bob handed in an arrangement, "
                             "hidden until both are in\n")
    assert f"\nalice (Blue) to arrange their stones; {note}\n" in during
    assert " .   .   . " not in during  # no bare grid
    start = after(out, "/board #1 ply:0")
    assert f"alice (Blue) and bob (Pink) to arrange their stones; {note}" in start
    assert " .   .   . " not in start
    first = after(out, "/board #1 ply:1")
    assert first.startswith("#1 · Set-up, before the first move: bob arranged their stones: 1 2 3")
    assert f"\nalice (Blue) to arrange their stones; {note}\n" in first
    played = after(out, "/board #1 ply:2")
    assert note not in played and "to arrange" not in played
    assert " 1b " in played and "[" not in played  # the stones stand; no move marked
