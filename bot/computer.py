"""The computer player's adapter: the engine in a process pool, behind the service's
``MovePicker`` Protocol, so a search never blocks the event loop.

Each pick runs :func:`engine.choose_move` in a worker process with the per-move time
budget (default 2 s at the top level; weaker levels stop sooner on their node budgets).
The worker writes the best move found so far to a small file after every completed
iteration of its search. A worker that crashes, or a pick that overruns its budget by
more than ``grace`` seconds, is retried once on a fresh pool (the stuck workers are
stopped); if that fails too, the best move either attempt had found is played (the
deepest; their final choice if one got that far), and only when neither found any, the
move of a one-ply search in this process (milliseconds): never no move at all.

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
import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import engine
from engine.puzzles import NODES as PUZZLE_NODES
from engine.puzzles import mine_positions
from rules import Position, RulesError
from service.ports import FoundPuzzle, MoveWeighing

log = logging.getLogger(__name__)

Task = Callable[[Position[Any], int, int, int, float, str], str]
"""What a worker runs for a pick: ``(position, seat, level, seed, seconds,
progress_path) -> move text``."""


def progress_keeper(progress_path: str) -> engine.Progress:
    """An :data:`engine.Progress` that keeps the best move so far in ``progress_path``
    as ``final depth text``, replaced whole (a reader never sees half a line)."""
    def keep(text: str, depth: int, final: bool) -> None:
        temporary = f"{progress_path}.tmp"
        with open(temporary, "w", encoding="utf-8") as f:
            f.write(f"{int(final)} {depth} {text}")
        os.replace(temporary, progress_path)
    return keep


def search_in_worker(position: Position[Any], seat: int, level: int, seed: int,
                     seconds: float, progress_path: str) -> str:
    """The default :data:`Task`: the engine's canonical move text, its progress kept in
    ``progress_path``."""
    return engine.choose_move(position, level, seed=seed, seconds=seconds, seat=seat,
                              progress=progress_keeper(progress_path)).text


def _progress(path: Path) -> tuple[bool, int, str] | None:
    """What a worker left in ``path``: (final, depth, text), or None."""
    try:
        final, depth, text = path.read_text(encoding="utf-8").split(" ", 2)
        return final == "1", int(depth), text
    except (OSError, ValueError):
        return None


def _moves(plies: int | None, seats: int) -> int | None:
    """Plies to a forced end (signed, see :func:`engine.search.forced_plies`) as moves
    of the side that ends it: the mover wins on his ``ceil(plies / seats)``-th move."""
    if plies is None:
        return None
    moves = -(-abs(plies) // max(1, seats))
    return moves if plies > 0 else -moves


def _weigh(moves: Sequence[tuple[Position[Any], str]],
           nodes: int) -> list[MoveWeighing | None]:
    """Runs in a worker (or inline): each move's weighing for its mover."""
    out: list[MoveWeighing | None] = []
    for position, text in moves:
        v = position.variant
        try:
            weighing = engine.weigh_move(position, v.parse_move(position, text), nodes=nodes)
        except (engine.EngineError, RulesError):
            out.append(None)
            continue
        best = weighing.best_move
        seats = position.seat_count - len(position.out_seats())
        out.append(MoveWeighing(
            weighing.best, weighing.played,
            text if best is None else v.format_move(position, best),
            _moves(weighing.best_end, seats), _moves(weighing.played_end, seats)))
    return out


def _find_puzzles(positions: Sequence[Position[Any]], nodes: int) -> list[FoundPuzzle | None]:
    """Runs in a worker (or inline): the puzzle in each position (``engine.puzzles``),
    its solution as canonical texts."""
    out: list[FoundPuzzle | None] = []
    for position, tactic in zip(positions, mine_positions(positions, nodes=nodes),
                                strict=True):
        if tactic is None:
            out.append(None)
            continue
        v, p, line = position.variant, position, []
        for move in tactic.line:
            line.append(v.format_move(p, move))
            p = p.play(move)
        out.append(FoundPuzzle(tuple(line), tactic.kind, tactic.difficulty,
                               tactic.score - tactic.second))
    return out


PUZZLE_SECONDS = 60.0
"""How long the miner's call for a few positions may take before it counts as stuck."""


class PoolMovePicker:
    """``MovePicker`` over a pool of ``workers`` processes (spawned, so a worker never
    inherits the event loop or open sockets). ``task`` is what a worker runs (tests
    hand in one that crashes)."""

    def __init__(self, *, workers: int = 2, seconds: float = engine.DEFAULT_SECONDS,
                 grace: float = 5.0, task: Task = search_in_worker) -> None:
        self.workers = workers
        self.seconds = seconds
        self.grace = grace
        self.task = task
        self._pool: ProcessPoolExecutor | None = None
        self._folder: Path | None = None
        self.failures = 0
        """Picks whose two attempts both failed (for logs and tests)."""
        self.last_fallback: str | None = None
        """How the last failed pick chose: ``'progress'`` (the best move found so far)
        or ``'one_ply'``."""

    @property
    def weigh_nodes(self) -> int | None:
        """The node budget of each weighing search (``service.ports.WeighingBudget``)."""
        return engine.ANALYSIS_NODES

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def _progress_path(self) -> Path:
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="tablero-engine-"))
        return self._folder / f"{uuid.uuid4().hex}.move"

    def _reset(self) -> None:
        """A fresh pool for the next pick. The old pool's workers are stopped: one is
        stuck in a search or died, and a stuck one would hold a core for good. Other
        picks still running there fail as a broken pool and try again on the new one."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # The executor has no public way to stop its workers before Python 3.14
        # (terminate_workers); its worker table is read, never changed.
        workers = list(pool._processes.values())
        pool.shutdown(wait=False, cancel_futures=False)  # cancelling would cancel others
        for worker in workers:
            if worker.is_alive():
                worker.kill()

    async def pick(self, position: Position[Any], seat: int, level: int, *,
                   seed: int) -> str:
        """The canonical text of the move (or Querni arrangement) ``level`` plays for
        ``seat``; engine errors about the position itself (a finished game, a seat not
        to move) propagate as :class:`engine.EngineError`."""
        loop = asyncio.get_running_loop()
        paths: list[Path] = []
        try:
            for attempt in (1, 2):
                path = self._progress_path()
                paths.append(path)
                try:
                    future = loop.run_in_executor(self._executor(), self.task, position,
                                                  seat, level, seed, self.seconds, str(path))
                    return await asyncio.wait_for(future, self.seconds + self.grace)
                except engine.EngineError:
                    raise
                except (BrokenProcessPool, TimeoutError, OSError) as e:
                    log.warning("engine pick failed (attempt %d): %r", attempt, e)
                    self._reset()
            self.failures += 1
            found = self._found_so_far(position, paths)
            if found is not None:
                self.last_fallback = "progress"
                return found
            self.last_fallback = "one_ply"
            # here on the event loop: milliseconds only (level 1's quick arrangement in a
            # set-up, not the top levels' long one)
            return engine.choose_move(position, 1 if position.in_setup else level,
                                      seed=seed, seat=seat, nodes=1, seconds=0.5,
                                      fairy=False).text
        finally:
            for path in paths:
                for leftover in (path, path.with_name(path.name + ".tmp")):
                    leftover.unlink(missing_ok=True)

    @staticmethod
    def _found_so_far(position: Position[Any], paths: Sequence[Path]) -> str | None:
        """The best move the failed attempts left: a final choice first, else the
        deepest; only a legal move of ``position`` (a worker's file is not trusted)."""
        if position.in_setup:
            return None  # an arrangement is chosen whole, never "so far"
        left = [found for found in map(_progress, paths) if found is not None]
        for _final, _depth, text in sorted(left, reverse=True):
            try:
                move = position.variant.parse_move(position, text)
            except (RulesError, ValueError):
                continue
            if move in position.legal_moves():
                return text
        return None

    async def weigh(self, moves: Sequence[tuple[Position[Any], str]]
                    ) -> list[MoveWeighing | None]:
        """Weighings for ``analysis``, in one worker call."""
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._executor(), _weigh, list(moves),
                                      engine.ANALYSIS_NODES)
        return await asyncio.wait_for(future, self.grace + 0.1 * len(moves) + 5.0)

    async def find_puzzles(self, positions: Sequence[Position[Any]]
                           ) -> list[FoundPuzzle | None]:
        """The ``PuzzleMiner`` port, in the same pool: a few positions per call, so the
        computer's moves wait for one such call at most. A stuck call stops the pool's
        workers (a fresh pool serves the next pick) and fails: the sweep mines the game
        again later."""
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._executor(), _find_puzzles, list(positions),
                                      PUZZLE_NODES)
        try:
            return await asyncio.wait_for(future, PUZZLE_SECONDS * max(1, len(positions)))
        except (BrokenProcessPool, TimeoutError):
            self._reset()
            raise

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        folder, self._folder = self._folder, None
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


class InlineMovePicker:
    """``MovePicker`` running the engine in this process, on node budgets (scripted
    consoles, tests): the event loop waits for each search, so never use it in the bot."""

    def __init__(self, *, seconds: float = 1.0, nodes: int | None = 400,
                 fairy: bool = False, puzzle_nodes: int = PUZZLE_NODES) -> None:
        self.puzzle_nodes = puzzle_nodes
        self.seconds = seconds
        self.nodes = nodes
        self.fairy = fairy
        self.picks = 0

    @property
    def weigh_nodes(self) -> int | None:
        """The node budget of each weighing search (``service.ports.WeighingBudget``)."""
        return self.nodes or engine.ANALYSIS_NODES

    async def pick(self, position: Position[Any], seat: int, level: int, *,
                   seed: int) -> str:
        self.picks += 1
        return engine.choose_move(position, level, seed=seed, seconds=self.seconds,
                                  seat=seat, nodes=self.nodes, fairy=self.fairy).text

    async def weigh(self, moves: Sequence[tuple[Position[Any], str]]
                    ) -> list[MoveWeighing | None]:
        return _weigh(moves, self.nodes or engine.ANALYSIS_NODES)

    async def find_puzzles(self, positions: Sequence[Position[Any]]
                           ) -> list[FoundPuzzle | None]:
        return _find_puzzles(positions, self.puzzle_nodes)
