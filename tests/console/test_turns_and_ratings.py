"""The console over the service's newer calls: rating changes at the end, who played the
last move, copied notes, player names for board images, a sweep before each command."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

from bot.computer import InlineMovePicker
from bot.console import ShiftedClock, open_console, run_console, user_id
from rules import MoveMarks, Position
from storage import MemoryRepository
from tests.service.conftest import SetClock


async def session(tmp_path: Path, text: str, **kwargs: object) -> str:
    out = io.StringIO()
    code = await run_console(tmp_path / "s.db", stdin=io.StringIO(text), stdout=out,
                             seed=3, **kwargs)  # type: ignore[arg-type]
    assert code == 0
    return out.getvalue()


async def test_the_result_shows_rating_changes_and_turns_name_the_mover(
        tmp_path: Path) -> None:
    out = await session(tmp_path, """as alice
/challenge @bob xiangqi seat:red
as bob
/accept
as alice
/move h3-e3 (C2.5)
as bob
/move h8-e8 (C2.5)
/move h8-e8
/resign
/leaderboard xiangqi
""")
    assert "* #1: alice played h3-e3 (C2.5) - bob to move" in out
    assert "'(C2.5)' after it is not its note: it is written h8-e8 (C8.5)" in out
    assert "* #1: bob played h8-e8 (C8.5) - alice to move" in out
    board = dict(re.findall(r"^\s+\d\. (\w+)\s+(-?\d+\.\d)", out, re.MULTILINE))
    assert set(board) == {"alice", "bob"}
    for name in ("alice", "bob"):
        line = next(x for x in out.splitlines() if x.startswith(f"  rating {name} "))
        before, after, delta = re.findall(r"-?\d+\.\d|[+-]\d+\.\d", line)[:3]
        assert before == "0.0" and after == board[name]  # the number /leaderboard shows
        assert float(delta) == round(float(after) - float(before), 1)
    assert out.index("is over: alice won") < out.index("  rating alice")


async def test_boards_name_the_players(tmp_path: Path) -> None:
    seen: list[Sequence[str] | None] = []

    class Recording:
        def render(self, position: Position, *, last_move: MoveMarks | None = None,
                   perspective: int | None = None,
                   names: Sequence[str] | None = None,
                   result: str | None = None, locale: str = "en-US") -> Recording.Drawn:
            seen.append(names)
            return Recording.Drawn()

        class Drawn:
            png = b"\x89PNG fake"
            alt_text = "a board"

    await session(tmp_path, "as alice\n/challenge @bob xiangqi seat:red\nas bob\n/accept\n",
                  boards_dir=tmp_path / "boards", renderer=Recording())
    assert seen == [["alice", "bob"]]


async def test_every_command_runs_the_deadline_sweep_first() -> None:
    out = io.StringIO()
    console = open_console(MemoryRepository(), out, clock=ShiftedClock(SetClock()),
                           rng=random.Random(1))
    for line in ("as alice", "/challenge @bob xiangqi days:1 seat:red", "as bob",
                 "/accept", "as alice", "/move h3-e3", "as bob", "/move h8-e8"):
        await console.handle(line)
    console.clock.offset += timedelta(hours=12, minutes=1)
    mark = len(out.getvalue())
    await console.handle("/games")  # alice's reminder goes out before the list
    text = out.getvalue()[mark:]
    assert text.index("* reminder #1: alice") < text.index("#1 Xiangqi")
    console.clock.offset += timedelta(days=1)
    mark = len(out.getvalue())
    await console.handle("/board")
    text = out.getvalue()[mark:]
    assert text.startswith("* #1 is over: bob won (opponent ran out of time)")
    m = await console.service.get_match(1)
    assert m.is_over and m.result is not None and m.result.winners == (user_id("bob"),)


def _after(out: str, command: str) -> str:
    """What the console answered to the last ``command`` (up to the next prompt)."""
    return out.rsplit(f"> {command}\n", 1)[1].split("\n> ", 1)[0]


async def test_board_lists_the_seats_with_their_ratings_while_the_match_is_live(
        tmp_path: Path) -> None:
    """``/board`` lists the seats as Discord's board and turn post do: the mover marked,
    each player's rating on the ladder (casual games too), "no rating yet", the
    computer not rated; once the match is over, and at earlier plies of a finished game,
    the players without numbers (those are today's, not the game's)."""
    lines = """as alice
/challenge @bob xiangqi seat:red
as bob
/accept
as alice
/move h3-e3
as bob
/move h8-e8
/resign
as alice
/challenge @bob xiangqi seat:red casual
as bob
/accept
as alice
/move h3-e3
/board #2
/board #2 ply:1
/challenge @carol xiangqi seat:red
as carol
/accept
/board #3
/board #1
/board #1 ply:1
/challenge @computer xiangqi seat:black level:1
/board #4
"""
    out = io.StringIO()
    console = open_console(MemoryRepository(), out, clock=ShiftedClock(SetClock()),
                           rng=random.Random(1), picker=InlineMovePicker(nodes=50))
    for line in lines.splitlines():
        out.write(f"> {line}\n")
        await console.handle(line)
    text = out.getvalue()
    ladder = dict(re.findall(r"^  rating (\w+) 0\.0\? → (-?\d+\.\d)\?", text, re.MULTILINE))
    alice, bob = ladder["alice"], ladder["bob"]
    assert float(alice) > 0 > float(bob)  # bob resigned the rated game
    casual = _after(text, "/board #2")
    assert casual.endswith(f"\n  Red: alice · rating {alice}?\n▶ Black: bob · rating {bob}?")
    stepped = _after(text, "/board #2 ply:1")  # a live match's earlier ply: today's numbers
    assert f"▶ Black: bob · rating {bob}?" in stepped
    newcomer = _after(text, "/board #3")
    assert f"▶ Red: alice · rating {alice}?\n  Black: carol · no rating yet" in newcomer
    over = _after(text, "/board #1")
    assert "game over" in over and over.endswith("\n  Red: alice\n  Black: bob (out)")
    earlier = _after(text, "/board #1 ply:1")  # shown as if it went on: still no numbers
    # as it stood at ply 1: Black to move, not out yet (he resigned later)
    assert earlier.endswith("\n  Red: alice\n▶ Black: bob")
    computer = _after(text, "/board #4")
    assert "  Red: Tablero level 1 · not rated (computer)\n" in computer
    assert "Black: carol · no rating yet" in computer
