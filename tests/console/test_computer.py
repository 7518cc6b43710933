"""The console plays the computer: ``/challenge @computer GAME level:N`` and ``/fill``,
the same service path as Discord (the in-process picker keeps the test fast)."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import pytest

from bot.computer import InlineMovePicker
from bot.console import open_console
from storage import MemoryRepository


def session(lines: list[str]) -> str:
    async def run() -> str:
        out = io.StringIO()
        console = open_console(MemoryRepository(), out, picker=InlineMovePicker(nodes=150))
        for line in lines:
            out.write(f"> {line}\n")
            await console.handle(line)
        return out.getvalue()
    return asyncio.run(run())


def test_challenge_the_computer_and_it_answers() -> None:
    text = session(["as alice", "/challenge @computer xiangqi level:6 seat:black",
                    "/board", "/stats"])
    assert "Tablero level 6" in text
    assert "(casual" in text
    assert "Tablero level 6 played" in text  # Red moved first, on its own
    assert "alice to move" in text


def test_the_computer_answers_a_move_before_the_next_prompt() -> None:
    text = session(["as alice", "/challenge @computer alquerque level:2 seat:white",
                    "/move d3-c3", "/games"])
    after_move = text.split("> /move d3-c3", 1)[1].split("> /games", 1)[0]
    assert "Tablero level 2 played" in after_move


def test_level_is_checked_and_only_for_the_computer() -> None:
    text = session(["as alice", "/challenge @computer damas level:9",
                    "/challenge @bob damas level:3"])
    assert "levels 1 (beginner) to 8" in text
    assert "level: is for games against the computer" in text


def test_fill_a_lobby_with_computer_players() -> None:
    text = session(["as alice", "/challenge alquerque-grande players:4 mode:slow",
                    "as bob", "/join", "as carol", "/fill #1 level:3", "as alice",
                    "/fill level:3"])
    assert "only the player who opened the lobby" in text
    filled = text.split("filled: ", 1)[1].splitlines()[0]
    # two computers at one level: numbered, so the seats tell them apart
    assert ": Tablero level 3" in filled and ": Tablero 2 level 3" in filled, filled
    assert "(casual" in filled


def test_hint_against_the_computer() -> None:
    text = session(["as alice", "/challenge @computer damas level:2 seat:white", "/hint"])
    assert "hint: " in text and "; 2 hints left in this game" in text


def test_three_hints_a_game_and_stats_count_the_games_with_hints() -> None:
    """Issue 38, item 18: the fourth hint in a game is refused; /stats says in how many
    games against the computer hints were taken."""
    text = session(["as alice", "/challenge @computer damas level:2 seat:white", "/hint",
                    "/hint", "/hint", "/hint", "/move d3-c4", "/resign", "/stats"])
    assert "; 0 hints left in this game" in text
    assert "! you have taken your 3 hints in this game" in text
    assert "against the computer (casual): 0W 1L 0D" in text
    assert "  hints taken in 1 of them" in text


def test_analysis_of_a_finished_game_against_the_computer() -> None:
    text = session(["as alice", "/challenge @computer alquerque level:8 seat:white",
                    "/move d3-c3", "/resign", "/analysis"])
    tail = text.split("> /analysis", 1)[1]
    # Alquerque has stones, no pawns: its moves' cost is counted in stones
    assert "  move " in tail or "#1: No move lost a stone's worth or more." in tail
    assert "pawn" not in tail


def test_analysis_is_drawn_into_the_boards_folder(tmp_path: Path) -> None:
    """With a boards folder the console writes the analysis's sheet (the boards after
    the marked moves) and the replay with them framed in red, and says where."""
    from PIL import Image

    from tests.service.conftest import finishing_game

    moves = finishing_game("alquerque", {}, 5)
    assert moves

    async def run() -> str:
        out = io.StringIO()
        console = open_console(MemoryRepository(), out, picker=InlineMovePicker(nodes=150),
                               boards_dir=tmp_path)
        for line in ["as alice", "/challenge @bob alquerque seat:white casual",
                     "as bob", "/accept"]:
            await console.handle(line)
        for i, move in enumerate(moves):
            await console.handle("as " + ("alice", "bob")[i % 2])
            await console.handle(f"/move {move}")
        out.truncate(0)
        await console.handle("/analysis #1")
        return out.getvalue()

    text = asyncio.run(run())
    marked = [line for line in text.splitlines() if line.startswith("  move ")]
    assert 1 <= len(marked) <= 3, text
    sheet, replay = tmp_path / "match1-analysis.png", tmp_path / "match1-analysis.gif"
    assert f"analysis image: {sheet}" in text and str(replay) in text
    graph = tmp_path / "match1-analysis-graph.png"  # issue 42: the evaluation graph
    assert f"analysis graph (the evaluation after every move): {graph}" in text
    assert Image.open(graph).size == (800, 460)
    assert Image.open(sheet).width > Image.open(replay).width  # boards side by side
    gif = Image.open(replay)
    assert gif.n_frames == len(moves) + 1


def test_the_console_searches_with_the_engine_settings(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``TABLERO_ENGINE_SECONDS`` / ``TABLERO_ENGINE_WORKERS`` reach the console's pool,
    as they reach the bot's, and its computer answers through that pool."""
    import bot.computer
    from bot.__main__ import console_main
    from bot.settings import load_settings

    made: list[bot.computer.PoolMovePicker] = []

    class Recorded(bot.computer.PoolMovePicker):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            made.append(self)

    monkeypatch.setattr(bot.computer, "PoolMovePicker", Recorded)
    monkeypatch.setenv("TABLERO_ENGINE_SECONDS", "0.3")
    monkeypatch.setenv("TABLERO_ENGINE_WORKERS", "3")
    monkeypatch.setenv("TABLERO_DB", str(tmp_path / "t.db"))
    monkeypatch.setattr("sys.stdin", io.StringIO(
        "as alice\n/challenge @computer damas level:2 seat:black\n/board\n"))
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    assert console_main(load_settings(None)) == 0
    assert [(p.seconds, p.workers) for p in made] == [(0.3, 3)]
    assert "Tablero level 2 played" in out.getvalue()


def test_a_four_player_lobby_with_the_computer_asks_nobody_to_accept() -> None:
    """The computer of a four-player lobby is in at once: the announcement is the open
    lobby's, never "alice challenges Tablero level 5 ...: /accept or /decline"."""
    text = session(["as alice", "/challenge @computer alquerque-grande players:4"])
    said = text.split("> /challenge @computer alquerque-grande players:4\n", 1)[1]
    assert said.splitlines()[:2] == [
        "* alice challenges anyone (open challenge) to Alquerque grande · 4 players · teams "
        "(match #1): /accept or /decline",
        "* Tablero level 5 joined lobby #1 (2/4)"]
    assert "challenges Tablero" not in said


def test_a_rematch_against_the_computer_begins_at_once_colours_swapped() -> None:
    """A new player's trip: after losing to the computer, ``/rematch`` plays it again at
    once, at the same level, colours swapped (it was "the computer does not take
    rematches"); asked again, from the rematch or the old match, the answer names it."""
    text = session(["as alice", "/challenge @computer alquerque level:2 seat:white",
                    "/move d3-c3", "/resign", "/rematch", "/rematch", "/rematch #1",
                    "/games"])
    first, again, old, games = (part.split("\n", 1)[1] for part in
                                text.split("> /resign\n", 1)[1].split("> ")[1:])
    assert "rematch begins: #2 Alquerque (casual, 3d/move) - White: Tablero level 2; " \
        "Black: alice" in first
    assert "* #2: Tablero level 2 played " in first  # the computer opened it at once
    assert again.strip() == "! a rematch of match #1 is already under way: match #2"
    assert old.strip() == "! a rematch of match #1 is already under way: match #2"
    assert "#2 Alquerque (casual, 3d/move) - White: Tablero level 2; Black: alice - " \
        "move 2, alice to move" in games
