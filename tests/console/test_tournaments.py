"""A tournament run from the console: create, join, start, play, standings (text, CSV
and the table image)."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console import run_console


async def test_a_round_robin_from_the_console(tmp_path: Path) -> None:
    boards = tmp_path / "boards"
    script = "\n".join([
        "as ana", "/tournament create xiangqi rr name:Friday casual",
        "/tournament create alquerque-grande rr players:4",
        "/tournament join #1", "as bo", "/tournament join", "as cy", "/tournament join",
        "/tournament start",  # not the organiser
        "as ana", "/tournament start #1", "/tournament pairings", "/tournament mine",
        # the round: whoever plays resigns the first game he is in
        "/resign #1", "/tournament standings", "/tournament standings csv",
        "/tournaments", "/tournament dance",
    ]) + "\n"
    out = io.StringIO()
    code = await run_console(tmp_path / "t.db", boards_dir=boards, stdin=io.StringIO(script),
                             stdout=out, seed=4)
    assert code == 0
    text = out.getvalue()
    assert "created tournament #1 Friday: round robin, 3 days per move, vacation allowed, " \
        "casual, 0 players, registration" in text
    assert "! tournaments are for two-player games: Alquerque grande for 4 players" in text
    assert "! only the organiser (or a server manager) can do that" in text
    assert "Friday: round robin, 3 rounds, 3 days per move, vacation allowed, casual, " \
        "3 players, running, round 1" in text
    assert "match #1" in text and "rests" in text
    assert "Friday - Xiangqi · round robin · 3 days per move · round " in text
    assert "place,player,player_id,points" in text
    assert "! /tournament has no 'dance': /tournament create|join|leave|start|cancel|remove|" \
        "standings|pairings|mine" in text
    image = next(line.split(": ", 1)[1] for line in text.splitlines()
                 if line.startswith("standings image: "))
    assert Path(image).read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


async def test_the_console_prints_the_standings_after_each_game_and_the_final_ones(
        tmp_path: Path) -> None:
    boards = tmp_path / "boards"
    lines = ["as ana", "/tournament create xiangqi rr name:Trio", "/tournament join",
             "as bo", "/tournament join", "as cy", "/tournament join",
             "as ana", "/tournament start"]
    for match in (1, 2, 3):  # whoever plays in it resigns it (the others are refused)
        lines += [f"as {who}\n/resign #{match}" for who in ("ana", "bo", "cy")]
    out = io.StringIO()
    code = await run_console(tmp_path / "t.db", boards_dir=boards,
                             stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out, seed=4)
    assert code == 0
    text = out.getvalue()
    for match in (1, 2, 3):
        assert f"* tournament #1: standings after match #{match}" in text
        assert (boards / f"tournament1-m{match}.png").read_bytes().startswith(b"\x89PNG")
    over = text.index("* tournament #1 is over: winner ")
    assert "Trio - Xiangqi · round robin · 3 days per move · final standings after 3 " \
        "rounds" in text[over:]
    assert (boards / "tournament1-final.png").read_bytes().startswith(b"\x89PNG")


async def test_a_tournament_with_a_bank_control_from_the_console(tmp_path: Path) -> None:
    script = "\n".join([
        "as ana", "/tournament create xiangqi rr name:Bank clock:3d+1d/2d",
        "/tournament create xiangqi rr name:Bank clock:3d+1d/10d claim:maybe",
        "/tournament create xiangqi rr name:Bank clock:3d+1d/10d claim:yes",
        "/tournament join", "as bo", "/tournament join", "as ana", "/tournament start",
        "/games",
    ]) + "\n"
    out = io.StringIO()
    assert await run_console(tmp_path / "t.db", stdin=io.StringIO(script), stdout=out,
                             seed=4) == 0
    text = out.getvalue()
    assert "! the cap (2 days) must be at least the starting bank (3 days)" in text
    assert "! claim must be yes or no, not 'maybe'" in text
    assert "created tournament #1 Bank: round robin, 3 days + 1 day per move, at most " \
        "10 days banked, claim win on time, vacation allowed, rated, 0 players, " \
        "registration" in text
    assert "rated, 3 days + 1 day per move, at most 10 days banked, claim win on time" \
        in text[text.index("> /games"):]
