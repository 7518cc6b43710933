"""The end of a console script (or ``quit``) with the puzzle miner still at work: the
sweep before each command starts mining a finished game in the background, and the
console stops it before the engine's pool and the database close under it (it went on,
and its next query printed "puzzle mining failed" with a trace about a closed database
after the script's last line)."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

import bot.computer
from bot.console import run_console
from service.puzzles import Puzzles


class StuckPool:
    """In place of the engine's pool: a puzzle search that never ends by itself, which
    says whether it was still searching when the pool was closed."""

    made: ClassVar[list[StuckPool]] = []
    searching_now: ClassVar[asyncio.Event | None] = None
    """Set once a search is under way."""

    def __init__(self, *, workers: int = 1, seconds: float = 2.0) -> None:
        self.searching = False
        self.stopped = False
        self.closed_while_searching: bool | None = None
        StuckPool.made.append(self)

    async def find_puzzles(self, positions: Sequence[Any]) -> list[None]:
        self.searching = True
        if StuckPool.searching_now is not None:
            StuckPool.searching_now.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.stopped = True
            raise
        finally:
            self.searching = False
        return []

    def close(self) -> None:
        self.closed_while_searching = self.searching


async def test_the_miner_is_stopped_before_the_pool_and_the_database_close(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(bot.computer, "PoolMovePicker", StuckPool)
    StuckPool.made.clear()
    StuckPool.searching_now = asyncio.Event()
    stop_mining = Puzzles.stop_mining

    async def once_searching(self: Puzzles) -> None:
        # the script's end comes only once the miner is searching (on a loaded machine
        # the background task had not reached its search yet, and the test saw nothing
        # to stop); a miner that never starts fails here
        assert StuckPool.searching_now is not None
        await asyncio.wait_for(StuckPool.searching_now.wait(), 30)
        await stop_mining(self)
    monkeypatch.setattr(Puzzles, "stop_mining", once_searching)
    script = ("as alice\n/challenge @bob alquerque seat:white\nas bob\n/accept\n"
              "as alice\n/move d2-c3\nas bob\n/move b4xd2\nas alice\n/resign\n/games\n")
    out = io.StringIO()
    with caplog.at_level(logging.WARNING):
        assert await run_console(tmp_path / "t.db", stdin=io.StringIO(script),
                                 stdout=out, seed=1) == 0
    assert "bob won" in out.getvalue()  # a finished game, which the sweep began to mine
    (pool,) = StuckPool.made
    assert pool.stopped  # the search under way was stopped at the end of the script
    assert pool.closed_while_searching is False  # before its pool closed
    assert "puzzle mining failed" not in caplog.text
