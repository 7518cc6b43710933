"""How background work waits for a database that failed: the deadline sweep and the
outbox poll skip their ticks while an outage lasts, waiting twice as long after each
failure (up to ``most`` seconds), and run at the first tick after that; the first success
ends the wait.

>>> now = [0.0]
>>> wait = Backoff(60.0, 300.0, monotonic=lambda: now[0])
>>> wait.due(), wait.failed(), wait.due()
(True, 60.0, False)
>>> now[0] = 60.0
>>> wait.due(), wait.failed(), wait.failed(), wait.failed(), wait.failed()
(True, 120.0, 240.0, 300.0, 300.0)
>>> wait.succeeded()
>>> wait.due(), wait.failures
(True, 0)
"""

from __future__ import annotations

import time
from collections.abc import Callable


class Backoff:
    """When to try again after ``failures`` failures in a row: ``first`` seconds after
    the first, doubling, at most ``most``."""

    def __init__(self, first: float, most: float = 300.0, *,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.first = first
        self.most = max(first, most)
        self.monotonic = monotonic
        self.failures = 0
        self._next = 0.0

    def due(self) -> bool:
        """Whether to try now (half a tick early counts: ticks come every ``first``
        seconds, and the failed attempt took some of them)."""
        return self.failures == 0 or self.monotonic() + self.first / 2 >= self._next

    def failed(self) -> float:
        """Another failure: returns the seconds to wait before the next try."""
        delay = min(self.most, self.first * 2.0 ** self.failures)
        self.failures += 1
        self._next = self.monotonic() + delay
        return delay

    def succeeded(self) -> None:
        self.failures = 0
