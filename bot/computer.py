"""The computer player's adapter: the engine in a process pool, behind the service's
``MovePicker`` Protocol, so a search never blocks the event loop.

Each pick runs :func:`engine.choose_move` in a worker process with the per-move time
budget (default 2 s at the top level; weaker levels stop sooner on their node budgets).
A worker that crashes, or a pick that overruns its budget by more than ``grace``
seconds, is retried once on a fresh pool; if that fails too, the move of a one-ply
search in this process (milliseconds) is played: the best move found so far, never no
move at all.

>>> import asyncio, rules
>>> picker = PoolMovePicker(workers=1, seconds=0.2)
>>> v = rules.variant("damas")
>>> text = asyncio.run(picker.pick(v.start(), 0, 3, seed=1))
>>> v.parse_move(v.start(), text) in v.start().legal_moves()
True
>>> picker.close()
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import engine
from rules import Position

log = logging.getLogger(__name__)


def _pick(position: Position[Any], seat: int, level: int, seed: int,
          seconds: float) -> str:
    """Runs in a worker: the engine's canonical move text."""
    return engine.choose_move(position, level, seed=seed, seconds=seconds, seat=seat).text


ANALYSIS_NODES = 400
"""The node budget of each position's evaluation in an analysis (a few ms each)."""


def _scores(positions: Sequence[Position[Any]], nodes: int) -> list[int | None]:
    """Runs in a worker (or inline): each position's score for its seat to move."""
    out: list[int | None] = []
    for p in positions:
        if p.outcome() is not None or len(p.to_move) != 1 or p.in_setup:
            out.append(None)
            continue
        out.append(engine.choose_move(p, 8, nodes=nodes, seconds=5.0, fairy=False).score)
    return out


class PoolMovePicker:
    """``MovePicker`` over a pool of ``workers`` processes (spawned, so a worker never
    inherits the event loop or open sockets)."""

    def __init__(self, *, workers: int = 2, seconds: float = engine.DEFAULT_SECONDS,
                 grace: float = 5.0) -> None:
        self.workers = workers
        self.seconds = seconds
        self.grace = grace
        self._pool: Executor | None = None
        self.failures = 0
        """Picks that fell back to the one-ply move (for logs and tests)."""

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def _reset(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def pick(self, position: Position[Any], seat: int, level: int, *,
                   seed: int) -> str:
        """The canonical text of the move (or Querni arrangement) ``level`` plays for
        ``seat``; engine errors about the position itself (a finished game, a seat not
        to move) propagate as :class:`engine.EngineError`."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            try:
                future = loop.run_in_executor(self._executor(), _pick, position, seat, level,
                                              seed, self.seconds)
                return await asyncio.wait_for(future, self.seconds + self.grace)
            except engine.EngineError:
                raise
            except (BrokenProcessPool, TimeoutError, OSError) as e:
                log.warning("engine pick failed (attempt %d): %r", attempt, e)
                self._reset()
        self.failures += 1
        return engine.choose_move(position, level, seed=seed, seat=seat, nodes=1,
                                  seconds=0.5, fairy=False).text

    async def scores(self, positions: Sequence[Position[Any]]) -> list[int | None]:
        """Evaluations for ``analysis``, in one worker call."""
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._executor(), _scores, list(positions),
                                      ANALYSIS_NODES)
        return await asyncio.wait_for(future, self.grace + 0.05 * len(positions) + 5.0)

    def close(self) -> None:
        self._reset()


class InlineMovePicker:
    """``MovePicker`` running the engine in this process, on node budgets (scripted
    consoles, tests): the event loop waits for each search, so never use it in the bot."""

    def __init__(self, *, seconds: float = 1.0, nodes: int | None = 400,
                 fairy: bool = False) -> None:
        self.seconds = seconds
        self.nodes = nodes
        self.fairy = fairy
        self.picks = 0

    async def pick(self, position: Position[Any], seat: int, level: int, *,
                   seed: int) -> str:
        self.picks += 1
        return engine.choose_move(position, level, seed=seed, seconds=self.seconds,
                                  seat=seat, nodes=self.nodes, fairy=self.fairy).text

    async def scores(self, positions: Sequence[Position[Any]]) -> list[int | None]:
        return _scores(positions, self.nodes or ANALYSIS_NODES)
