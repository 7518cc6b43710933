"""The console end to end: scripted sessions through ``python -m bot`` and in-process."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from bot.boards import load_renderer
from bot.console import ShiftedClock, run_console, user_id
from tests.service.conftest import finishing_game

ROOT = Path(__file__).resolve().parents[2]


SHORT_GAME = 40
"""Plies at most of the scripted match: each is a line the console process handles
(saved to SQLite), so the first decisive game of any length (112 plies) made the test
three times as long; a short checkmate is the same match from challenge to result."""


def decisive_xiangqi_game() -> tuple[list[str], int, str]:
    """A seeded random xiangqi game that ends with a winner within ``SHORT_GAME`` plies:
    moves, winning seat, reason in words."""
    v = rules.variant("xiangqi")
    for seed in range(60):
        moves = finishing_game("xiangqi", {}, seed, max_plies=SHORT_GAME)
        if not moves:
            continue
        p = v.start()
        for m in moves:
            p = p.play(v.parse_move(p, m))
        outcome = p.outcome()
        if outcome is not None and outcome.winners:
            (winner,) = outcome.winners
            return moves, winner, outcome.reason_text
    raise AssertionError("no decisive game among the seeds")


def script_for(moves: list[str]) -> str:
    lines = ["as alice", "/challenge @bob xiangqi days:3 seat:red", "as bob", "/accept"]
    for i, m in enumerate(moves):
        lines += [f"as {('alice', 'bob')[i % 2]}", f"/move {m}"]
    lines += ["/leaderboard xiangqi", "/games", "/history #1"]
    return "\n".join(lines) + "\n"


def run_cli(args: list[str], stdin: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    return subprocess.run([sys.executable, "-m", "bot", *args], input=stdin, cwd=cwd,
                          capture_output=True, text=True, timeout=120, env=environment)


def test_a_scripted_match_from_challenge_to_result(tmp_path: Path) -> None:
    moves, winner, reason = decisive_xiangqi_game()
    db = tmp_path / "play.db"
    run = run_cli(["console", "--db", str(db), "--seed", "1"], script_for(moves), tmp_path)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "! " not in out.replace("> ", ""), out[-2000:]  # no command was refused
    name = ("alice", "bob")[winner]
    assert f"* #1 is over: {name} won ({reason})" in out
    board = out[out.index("Xiangqi leaderboard"):]
    assert board.splitlines()[1].split()[1] == name  # the winner tops the ladder
    assert "START{" in out and "FINAL FEN" in out  # the WXF export
    assert f"played {moves[0]}" in out
    assert " 1   R   N   B   A   K   A   B   N   R" in out  # a text board was drawn
    # the database is the truth: reopening it shows the finished match
    again = run_cli(["console", "--db", str(db)], "as bob\n/games\n/history #1\n", tmp_path)
    assert again.returncode == 0 and "no live matches" in again.stdout
    assert f"{name} won ({reason})" in again.stdout


def test_run_without_a_token_starts_the_console(tmp_path: Path) -> None:
    run = run_cli(["run"], "as alice\n/help\n", tmp_path, DISCORD_TOKEN="",
                  TABLERO_DB=str(tmp_path / "run.db"))
    assert run.returncode == 0, run.stderr
    first = run.stdout.splitlines()[0]
    assert first.startswith("No DISCORD_TOKEN set: starting the local console")
    assert "/challenge" in run.stdout and (tmp_path / "run.db").exists()


async def session(tmp_path: Path, text: str, clock: ShiftedClock | None = None) -> str:
    out = io.StringIO()
    code = await run_console(tmp_path / "s.db", stdin=io.StringIO(text), stdout=out,
                             clock=clock, seed=3)
    assert code == 0
    return out.getvalue()


async def test_console_draws_errors_and_deadlines(tmp_path: Path) -> None:
    clock = ShiftedClock()
    out = await session(tmp_path, """
/move h3-e3
as alice
/move h3-e3
/challenge @bob xiangqi days:2 seat:red
/challenge @bob chess
as bob
/accept
/move h10-g8
/frobnicate
as alice
/moves h3
/move h3-e3
/draw offer
as bob
/draw decline
/draw maybe
as eve
/resign #1
as alice
/sweep +1.5
/sweep +1
/games
""", clock)
    assert "! say who you are first: as NAME" in out
    assert "! which match? add #<number> (see /games)" in out
    assert "! there is no game called 'chess'" in out
    assert "! it is not your turn: alice (Red) to move" in out
    assert "! unknown command '/frobnicate'" in out
    assert "h3xh10 (C2+7)" in out.split("> /moves h3")[1].splitlines()[1].split(", ")[0]
    assert "* #1: alice offers a draw" in out and "* #1: bob declined the draw" in out
    assert "! /draw offer, /draw accept or /draw decline" in out
    assert "! you are not playing in match #1" in out
    assert "* reminder #1: bob, your move is due in 12 hours (by " in out
    assert "* #1 is over: aborted" in out  # one ply only: aborted, unrated
    assert "no live matches" in out


async def test_console_lobby_and_querni_setup(tmp_path: Path) -> None:
    out = await session(tmp_path, """
as alice
/challenge alquerque-grande players:4 mode:teams seat:white
as bob
/join seat:black
as carol
/join
as dave
/join
/board
as erin
/challenge @frank querni setup:choose casual
as frank
/accept
/setup 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1
/board
as erin
/setup 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
/moves r
/move r1-3
/history
""")
    assert "* bob joined lobby #1 (2/4)" in out
    assert "White: alice (with bob); Turquoise:" in out and "Black: bob (with alice)" in out
    assert "* #2: frank submitted an arrangement" in out
    assert "the board appears once both arrangements are in" in out
    assert "played r1-3" in out
    assert "! " not in out.replace("> ", "")


def test_user_ids_are_stable_and_distinct() -> None:
    assert user_id("Alice") == user_id("@alice") != user_id("bob")


def test_console_run_function_exits_at_end_of_input(tmp_path: Path) -> None:
    out = asyncio.run(session(tmp_path, "as alice\nquit\n/help\n"))
    assert "you are alice" in out and "/challenge" not in out


async def test_boards_are_written_as_png_files(tmp_path: Path) -> None:
    renderer = load_renderer()
    assert renderer is not None  # the render package is part of this checkout
    boards = tmp_path / "boards"
    out = io.StringIO()
    script = ("as alice\n/challenge @bob xiangqi seat:red\nas bob\n/accept\n"
              "as alice\n/move h3-e3\n/board\n")
    code = await run_console(tmp_path / "png.db", boards_dir=boards, stdin=io.StringIO(script),
                             stdout=out, seed=1)
    assert code == 0
    paths = [line.split(": ", 1)[1] for line in out.getvalue().splitlines()
             if line.startswith("board image: ")]
    assert [Path(p).name for p in paths] == ["match1-ply0.png", "match1-ply1.png",
                                             "match1-ply1.png"]
    for p in paths:
        assert Path(p).read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


async def test_the_service_renders_through_the_injected_renderer(tmp_path: Path) -> None:
    from service import MatchService, NullNotifier
    from storage import MemoryRepository
    from tests.service.conftest import SetClock, start_match

    renderer = load_renderer()
    assert renderer is not None
    s = MatchService(MemoryRepository(), NullNotifier(), SetClock(), renderer=renderer)
    m = await start_match(s)
    await s.move(m.id, m.to_move[0], "h3-e3")
    image = await s.board_image(m.id, perspective=0)
    assert image is not None and image.png.startswith(b"\x89PNG")
    assert "Black to move" in image.alt and "h3-e3" in image.alt
    plain = MatchService(MemoryRepository(), NullNotifier(), SetClock())
    m = await start_match(plain)
    assert await plain.board_image(m.id) is None


def test_run_with_a_token_but_no_adapter_says_so(tmp_path: Path) -> None:
    import importlib.util
    if importlib.util.find_spec("bot.discordapp") is not None:
        return  # the Discord adapter is merged: tablero run belongs to it
    run = run_cli(["run"], "", tmp_path, DISCORD_TOKEN="not-a-real-token",
                  TABLERO_DB=str(tmp_path / "t.db"))
    assert run.returncode == 2
    assert "Discord adapter is not part of this checkout" in run.stderr
    assert "not-a-real-token" not in run.stdout + run.stderr


LINES = st.one_of(
    st.text(max_size=80),
    st.builds(lambda c, rest: f"/{c} {rest}",
              st.sampled_from(["challenge", "accept", "join", "decline", "cancel", "move",
                               "moves", "setup", "board", "games", "open", "resign", "draw",
                               "leaderboard", "stats", "history", "settings", "notify",
                               "sweep", "help", "games-list", "as"]),
              st.text(max_size=60)),
)


@settings(max_examples=80, deadline=None)
@given(lines=st.lists(LINES, min_size=1, max_size=6))
def test_the_console_survives_any_input(lines: list[str]) -> None:
    """No line escapes as an exception (handle raises only what it failed to answer),
    and the console still answers afterwards."""
    async def go() -> str:
        from bot.console import open_console
        from storage import MemoryRepository

        out = io.StringIO()
        console = open_console(MemoryRepository(), out)
        for line in ["as alice", "/challenge @bob xiangqi", "as bob", "/accept", *lines]:
            if not await console.handle(line):
                break
        before = len(out.getvalue())
        assert await console.handle("as carol")
        return out.getvalue()[before:]
    assert asyncio.run(go()).strip() == "you are carol"


async def test_closing_the_console_for_three_days_times_nobody_out(tmp_path: Path) -> None:
    from tests.service.conftest import SetClock

    base = SetClock()
    first = await session(tmp_path, """
as alice
/challenge @bob xiangqi days:1 seat:red
as bob
/accept
as alice
/move h3-e3
""", ShiftedClock(base))
    assert "bob (Black) to move" in first or "bob to move" in first, first
    base.advance(days=3)  # the console stays closed three days: bob's day runs out unseen
    again = await session(tmp_path, "as bob\n/games\n/move h8-e8\n", ShiftedClock(base))
    assert "* #1: Tablero was offline for 3 days; all clocks were extended" in again
    assert "is over" not in again and "! " not in again.replace("> ", ""), again
    assert "bob played h8-e8" in again
    # reopened at once: no gap, no notice; /sweep +DAYS moves time on purpose and
    # extends nothing: bob's clock then runs out as it should
    later = await session(tmp_path, "as alice\n/sweep +2\n", ShiftedClock(base))
    assert "offline" not in later
    assert "* #1 is over:" in later and "won (opponent ran out of time)" in later, later
    assert "rating alice 0.0? → -" in later  # alice, to move, ran out of time
