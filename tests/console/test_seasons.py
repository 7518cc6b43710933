"""Seasons from the console: set a schedule, play a rated game, the sweep after the
month's end prints the season's final board, and ``/leaderboard GAME season:N`` shows it."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console import run_console


async def test_a_monthly_season_from_the_console(tmp_path: Path) -> None:
    script = "\n".join([
        "as ana", "/season", "/season weekly", "/season monthly",
        "/challenge @bo xiangqi seat:red", "as bo", "/accept", "as ana", "/move h3-e3",
        "as bo", "/move h8-e8", "/resign",
        "/leaderboard xiangqi season:1", "/leaderboard xiangqi season:x",
        "/sweep +40",  # past the month's end, whatever today is
        "/season", "/leaderboard xiangqi season:2",
    ]) + "\n"
    out = io.StringIO()
    code = await run_console(tmp_path / "t.db", stdin=io.StringIO(script), stdout=out, seed=4)
    assert code == 0
    text = out.getvalue()
    assert "Seasons: off." in text
    assert "! /season [monthly|quarterly|manual|off|reset]" in text
    assert "Season 1 (since" not in text and "Season 1 (" in text
    assert "has started; the all-time leaderboards go on." in text
    board = text[text.index("Xiangqi leaderboard"):]
    assert board.splitlines()[1].split()[:2] == ["1.", "ana"]
    assert "! a season is given by its number" in text
    over = text[text.index("* Season 1 ("):]
    assert over.splitlines()[0].endswith("is over: final leaderboards")
    assert over.splitlines()[1] == "  Xiangqi:" and over.splitlines()[2].split()[1] == "ana"
    assert "Seasons: monthly." in text and "  Season 2 (" in text
    assert "no rated results on Xiangqi yet" in text  # season 2 starts afresh
