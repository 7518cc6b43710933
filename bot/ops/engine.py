"""The computer player's searches, measured: a ``MovePicker`` around another one that
counts the searches under way (``tablero_computer_games_thinking``), those waiting for a
worker (``tablero_engine_queue_depth``) and times each (``tablero_engine_search_seconds``).

>>> import asyncio, rules
>>> class Instant:
...     async def pick(self, position, seat, level, *, seed):
...         return "c3-d4"
...     async def weigh(self, moves):
...         return []
>>> metrics = Metrics()
>>> picker = MeasuredPicker(Instant(), metrics, workers=1)
>>> asyncio.run(picker.pick(rules.variant("damas").start(), 0, 3, seed=1))
'c3-d4'
>>> b"tablero_engine_search_seconds_count 1.0" in metrics.scrape()
True
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Sequence
from typing import Any, TypeVar

from bot.ops.metrics import Metrics
from rules import Position
from service.ports import MovePicker, MoveWeighing, WeighingBudget

T = TypeVar("T")


class MeasuredPicker:
    """``picker`` (whose pool has ``workers`` processes), measured into ``metrics``."""

    def __init__(self, picker: MovePicker, metrics: Metrics, workers: int = 1) -> None:
        self.picker = picker
        self.metrics = metrics
        self.workers = max(1, workers)
        self.searching = 0  # picks and weighings under way (running or waiting)
        self.picking = 0  # picks: games whose computer is thinking

    @property
    def weigh_nodes(self) -> int | None:
        """The measured picker's node budget a weighing search, where it tells it."""
        return self.picker.weigh_nodes if isinstance(self.picker, WeighingBudget) else None

    def _gauges(self) -> None:
        self.metrics.engine_waiting.set(max(0, self.searching - self.workers))
        self.metrics.computer_turns.set(self.picking)

    async def _measured(self, work: Awaitable[T], *, pick: bool) -> T:
        self.searching += 1
        self.picking += pick
        self._gauges()
        started = time.perf_counter()
        try:
            return await work
        finally:
            self.metrics.engine_seconds.observe(time.perf_counter() - started)
            self.searching -= 1
            self.picking -= pick
            self._gauges()

    async def pick(self, position: Position[Any], seat: int, level: int, *, seed: int) -> str:
        return await self._measured(self.picker.pick(position, seat, level, seed=seed),
                                    pick=True)

    async def weigh(self, moves: Sequence[tuple[Position[Any], str]]
                    ) -> list[MoveWeighing | None]:
        return await self._measured(self.picker.weigh(moves), pick=False)
