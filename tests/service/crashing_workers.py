"""Tasks for :class:`bot.computer.PoolMovePicker`'s workers that crash or hang, for the
fallback tests (tests/service/test_computer.py).

Their own small module: a spawned worker imports the module of the task it unpickles,
and the test module imports the Discord app and the service (measured: 0.9 s of CPU a
worker, ten workers in that module's tests; this module, without the tasks that search:
0.1 s). Those that search import the engine's worker code when they run."""

from __future__ import annotations

import os
import time
from typing import Any

from rules import Position


def search_then_crash(position: Position[Any], seat: int, level: int, seed: int,
                      seconds: float, progress_path: str) -> str:
    """A worker that finds its move and dies before answering."""
    from bot.computer import search_in_worker  # here: see the module's doc

    search_in_worker(position, seat, level, seed, seconds, progress_path)
    os._exit(3)


def crash_at_depth_3(position: Position[Any], seat: int, level: int, seed: int,
                     seconds: float, progress_path: str) -> str:
    """A worker that dies in the middle of its search, after depth 3."""
    import engine  # here: see the module's doc
    from bot.computer import progress_keeper

    keep = progress_keeper(progress_path)

    def progress(text: str, depth: int, final: bool) -> None:
        keep(text, depth, final)
        if depth == 3:
            os._exit(3)
    engine.choose_move(position, 8, seed=seed, nodes=6_000, seconds=60, seat=seat,
                       fairy=False, progress=progress)
    raise AssertionError("not reached")


def crash_at_once(position: Position[Any], seat: int, level: int, seed: int,
                  seconds: float, progress_path: str) -> str:
    os._exit(3)


def hang(position: Position[Any], seat: int, level: int, seed: int, seconds: float,
         progress_path: str) -> str:
    time.sleep(600)
    raise AssertionError("not reached")
