"""The console over the service's newer calls: rating changes at the end, who played the
last move, copied notes, player names for board images, a sweep before each command."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

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
