"""/explorer in the console (issue 44): the moves played next in finished games with their
counts and scores, a picture with arrows, and clear refusals."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from PIL import Image

from bot.console import open_console
from storage import MemoryRepository


def session(lines: list[str], boards: Path | None = None) -> str:
    async def run() -> str:
        out = io.StringIO()
        console = open_console(MemoryRepository(), out, boards_dir=boards)
        for line in lines:
            out.write(f"> {line}\n")
            await console.handle(line)
        return out.getvalue()
    return asyncio.run(run())


GAMES = ["as alice", "/challenge @bob xiangqi seat:red", "as bob", "/accept", "as alice",
         "/move h3-e3", "as bob", "/move h10-g8", "/resign",
         "as alice", "/challenge @bob xiangqi seat:red", "as bob", "/accept", "as alice",
         "/move h3-e3", "as bob", "/move b10-c8", "as alice", "/resign"]


def test_the_explorer_lists_the_moves_played_next(tmp_path: Path) -> None:
    text = session([*GAMES, "/explorer xiangqi", "/explorer game:xiangqi line:h3-e3",
                    "/explorer xiangqi h3-e3 h10-g8"], tmp_path)
    start = text.split("> /explorer xiangqi\n", 1)[1].split("> ", 1)[0]
    assert "Opening explorer, Xiangqi, from the start (all games)" in start
    assert "2 games went on from here:" in start
    assert "h3-e3 (C2.5): 2 games, its player won 1, drew 0, lost 1 (50%) · average " \
        "rating 2.3" in start  # alice's ratings as each game was counted: 3.4, then 1.1
    assert "Average rating: of those who played the move in rated games, as /leaderboard " \
        "rates players (the skill estimate minus 3× its uncertainty" in start  # what it is
    after = text.split("line:h3-e3\n", 1)[1].split("> ", 1)[0]
    assert "after h3-e3" in after
    assert "b10-c8 (H2+3): 1 game, its player won 1, drew 0, lost 0 (100%)" in after
    assert "h10-g8 (H8+7): 1 game, its player won 0, drew 0, lost 1 (0%)" in after
    assert "No finished game of this server went on from here." in text
    picture = tmp_path / "explorer.png"
    assert f"explorer image: {picture}" in text
    with Image.open(picture) as img:
        assert img.format == "PNG" and img.width > 200


def test_the_explorer_refuses_bad_requests_in_words() -> None:
    text = session(["as alice", "/explorer", "/explorer chess", "/explorer xiangqi h3-e9",
                    "/explorer alquerque-grande players:3", "/explorer damas games:some"])
    assert "! /explorer GAME [option:value ...]" in text
    assert "! there is no game called 'chess'" in text
    assert "! move 1 of the line (h3-e9) cannot be played" in text
    assert "! the explorer has no alquerque-grande with those options" in text
    assert "! the games are one of: all, played, imported" in text
    assert "Traceback" not in text


RECORDS = Path(__file__).parents[1] / "rules" / "records"


def test_import_a_record_file_then_read_it(tmp_path: Path) -> None:
    wxf = RECORDS / "liu-dianzhong-liu-dahua-1997.wxf"
    finished = tmp_path / "finished.pdn"
    finished.write_text('[White "Ana"]\n[Black "Luis"]\n1. 9-13 24-20 0-1\n')
    text = session(["as alice", f"/import {wxf}", "/history #1", f"/import {finished}",
                    "/explorer damas games:imported", "/explorer damas games:played"])
    assert "imported #1 (Xiangqi): 20 moves" in text
    assert "players: Red: Liu Dianzhong and Black: Liu Dahua" in text
    assert "see it with /history #1, /analysis #1" in text
    assert "C2.5" in text.split("> /history #1", 1)[1]
    assert "imported #2 (Spanish draughts): 2 moves" in text
    imported = text.split("games:imported\n", 1)[1].split("> ", 1)[0]
    assert "h3-g4 (9-13): 1 game, its player won 0, drew 0, lost 1 (0%)" in imported
    # the Xiangqi record was not over: the answer says why such a game is not counted
    assert "Only finished imported games are counted: an imported game that was not " \
        "over is not. 1 game went on from here:" in imported
    played = text.split("games:played\n", 1)[1]
    assert "No finished game of this server went on from here." in played
    assert "Only finished imported" not in played


def test_import_refuses_bad_files_in_words(tmp_path: Path) -> None:
    big = tmp_path / "big.pgn"
    big.write_bytes(b" " * (64 * 1024 + 10))
    gb = tmp_path / "gb.pgn"
    gb.write_bytes('[Game "Chinese Chess"]\n[Red "胡荣华"]\n1. C2.5'.encode("gb2312"))
    illegal = tmp_path / "illegal.pgn"
    illegal.write_text('[Game "Chinese Chess"]\n1. C2.5 H8+7 2. C5+9\n')
    text = session(["as alice", "/import", f"/import {tmp_path / 'none.pgn'}",
                    f"/import {big}", f"/import {gb}", f"/import {illegal}", "/games"])
    assert "! /import PATH [game:KEY]" in text
    assert "! cannot read" in text and "No such file or directory" in text
    assert "! the record is too large (65 KB): at most 64 KB are read" in text
    assert "! the record is not UTF-8 text (byte 30 is not)" in text
    assert "! the record cannot be imported: move 3 (C5+9) cannot be played" in text
    assert "imported #" not in text and "Traceback" not in text


def test_imported_players_are_named_after_a_restart(tmp_path: Path) -> None:
    """The console names an imported game's players as the record did, marked imported,
    also in a later session over the same database."""
    async def run() -> str:
        from storage import SqliteRepository
        out = io.StringIO()
        for lines in (["as alice", f"/import {RECORDS / 'liu-dianzhong-liu-dahua-1997.wxf'}"],
                      ["as bob", "/history #1", "/board #1"]):
            repo = await SqliteRepository.open(tmp_path / "t.db")
            console = open_console(repo, out)
            for line in lines:
                out.write(f"> {line}\n")
                await console.handle(line)
            await repo.close()
        return out.getvalue()
    text = asyncio.run(run())
    later = text.split("> /history #1\n", 1)[1]
    assert "Liu Dianzhong (imported)" in later and "Liu Dahua (imported)" in later
    assert "user" not in later.split("> /board", 1)[0]


def test_continue_an_imported_game_in_the_console() -> None:
    wxf = RECORDS / "liu-dianzhong-liu-dahua-1997.wxf"
    text = session(["as alice", f"/import {wxf}", "/continue", "/continue #1",
                    "/continue #1 @bob seat:green", "/continue #1 @bob", "as bob", "/decline",
                    "as alice", "/continue match:1 opponent:bob days:2", "as bob", "/accept",
                    "/continue #2 @alice"])
    assert "go on with it against someone: /continue #1 @PLAYER" in text
    assert text.count("! /continue #N @PLAYER [seat:COLOUR] [days:N | clock:CONTROL]") == 2
    assert "! there is no seat 'green' (seats: red, black, or random)" in text
    assert "* alice asks bob to continue imported game #1 (Xiangqi) from its last " \
        "position, after 20 moves: match #2 (/accept or /decline)" in text
    accepted = text.split("> /accept\n", 1)[1]
    assert "#3 Xiangqi" in accepted and "Red: alice" in accepted
    assert "! match #2 is not an imported game" in text
    assert "Traceback" not in text
