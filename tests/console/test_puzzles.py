"""/puzzle in the console (issue 44): puzzles mined from the console's finished games, solved
move by move, failed with the refutation, the leaderboard, the daily puzzle printed by the
sweep, and clear refusals (one's own game, bad input)."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from PIL import Image

import rules
from bot.computer import InlineMovePicker
from bot.console import open_console
from storage import MemoryRepository
from tests.service.puzzle_games import ALQUERQUE, DAMAS, SeededTactic
from tests.service.test_puzzles import ScriptedMiner, tactic_at


def session(lines: list[str], boards: Path | None = None) -> str:
    async def run() -> str:
        out = io.StringIO()
        miner = ScriptedMiner(lambda p: tactic_at(DAMAS)(p) or tactic_at(ALQUERQUE)(p))
        console = open_console(MemoryRepository(), out, boards_dir=boards, miner=miner,
                               picker=InlineMovePicker(nodes=200))
        for line in lines:
            out.write(f"> {line}\n")
            await console.handle(line)
        return out.getvalue()
    return asyncio.run(run())


def game(tactic: SeededTactic, white: str, black: str) -> list[str]:
    """``white`` challenges ``black`` and they play ``tactic``'s game, the shot too; then
    the side to move resigns."""
    first = rules.variant(tactic.game).seat_name(0).lower()
    lines = [f"as {white}", f"/challenge @{black} {tactic.game} seat:{first}", f"as {black}",
             "/accept"]
    players = [white, black]
    for n, move in enumerate((*tactic.moves, tactic.line[0])):
        lines += [f"as {players[n % 2]}", f"/move {move}"]
    lines += [f"as {players[(len(tactic.moves) + 1) % 2]}", "/resign"]
    return lines


def after(text: str, command: str, since: str = "") -> str:
    """What the console printed for ``command`` (its first occurrence after the last
    line ``since``)."""
    start = text.rfind(f"> {since}\n") if since else 0
    return text[start:].split(f"> {command}\n", 1)[1].split("\n> ", 1)[0]


def test_a_puzzle_solved_and_one_failed_and_the_leaderboard(tmp_path: Path) -> None:
    text = session([*game(DAMAS, "alice", "bob"), *game(ALQUERQUE, "alice", "bob"),
                    "/puzzle mine", "as carol", "/puzzle", "/puzzle moves c2",
                    "/puzzle answer c2xf5xc8", "/puzzle next", "/puzzle answer e5-e4",
                    "/puzzle leaderboard", "as alice", "/puzzle", "/puzzle answer",
                    "/puzzle sideways"], tmp_path)
    assert "finished games searched for puzzles" in after(text, "/puzzle mine")
    shown = after(text, "/puzzle", since="as carol")
    assert "Puzzle #1 · Spanish draughts · difficulty 3/5 · rating 0.0" in shown
    assert "Black to move and win material" in shown
    assert "From match #1 (alice and bob), move 40." in shown
    assert "Find the move: /puzzle answer." in shown  # bare, as the console names commands
    picture = tmp_path / "puzzle1.png"
    assert f"puzzle image: {picture}" in shown
    with Image.open(picture) as img:
        assert img.format == "PNG" and img.width > 200
    assert "c2xf5xc8" in after(text, "/puzzle moves c2")
    solved = after(text, "/puzzle answer c2xf5xc8")
    assert "✓ c2xf5xc8 (7x18x31): solved!" in solved
    assert "Puzzle rating 0.0 → " in solved and "streak 1." in solved
    failed = after(text, "/puzzle answer e5-e4")
    assert "✗ e5-e4 is not it." in failed and "It is met by e3xe5." in failed
    assert "The solution: c3-d3 e3xc3 c4xc2xa2xa4." in failed
    assert "streak 0." in failed
    board = after(text, "/puzzle leaderboard")
    assert board.startswith("1. carol: ") and "solved 1, failed 1 · best streak 1" in board
    # both puzzles come from alice's games: none for her
    assert "! you have tried every puzzle this server has for you" in after(
        text, "/puzzle", since="as alice")
    assert "! /puzzle answer MOVE" in text and "! /puzzle [next [#N]" in text
    assert "Traceback" not in text


def test_never_ones_own_game_and_the_daily_puzzle() -> None:
    text = session([*game(DAMAS, "alice", "bob"), "/puzzle mine", "as alice", "/puzzle",
                    "/puzzle next #1", "/puzzle next #99", "/puzzle answer c2xf5xc8",
                    "/puzzle daily on", "/sweep", "/sweep", "/sweep +1"])
    assert "! you have tried every puzzle this server has for you" in after(
        text, "/puzzle", since="as alice")
    assert "! puzzle #1 comes from your own game" in text
    assert "! there is no puzzle #99 here" in text
    assert "! you have no puzzle open" in text
    assert "Daily puzzle on: one a day, the first at the next sweep." in text
    daily = ("* the daily puzzle, #1 (Spanish draughts): Black to move and win material. "
             "Solve it with /puzzle next #1")
    assert daily in after(text, "/sweep") and text.count(daily) == 1  # not at each sweep
    assert "Traceback" not in text
