"""What the operator reads of a database outage: one log line when the database goes, one
when it is back, however many requests failed between them.

Each repository holds one :class:`OutageLog` and reports to it around every driver call:
``failed`` with the typed error it raises instead of the driver's, ``succeeded`` after a
statement or transaction went through, with the moment it started (``now()``). Only a
request that started after the last failure ends an outage: one already under way when the
server went down may still finish, and must not make the log say "back" between two
failures of the same restart. A database that is full or read-only still reads: only a
write that goes through again ends such an outage. Everything else that meets the outage (a sweep, a
delivery, a player's request) stays quiet about it: the player reads a sentence, the log
reads these two lines.

>>> import logging
>>> from service.errors import DatabaseUnreachable
>>> t = [0.0]
>>> watch = OutageLog("t.db", monotonic=lambda: t[0])
>>> earlier = watch.now()
>>> t[0] = 1.0
>>> watch.failed(DatabaseUnreachable("t.db", "disk I/O error"))
>>> watch.failed(DatabaseUnreachable("t.db", "disk I/O error"))
>>> watch.succeeded(earlier, write=False)  # under way before the failure: says nothing
>>> watch.down, watch.refused
(True, 2)
>>> t[0] = 2.0
>>> watch.succeeded(watch.now(), write=False)
>>> watch.down
False
>>> watch.failed(DatabaseFull("t.db", "database or disk is full"))
>>> t[0] = 3.0
>>> watch.succeeded(watch.now(), write=False)  # a read: the disk is still full
>>> watch.down, watch.refusing_writes
(True, 'DatabaseFull: database or disk is full (reads answer, every change is refused)')
>>> watch.succeeded(watch.now(), write=True)
>>> watch.down, watch.refusing_writes
(False, None)
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable

from service.errors import DatabaseFull, DatabaseReadOnly, StorageUnavailable

log = logging.getLogger("tablero.storage")


class OutageLog:
    """Whether ``database`` is down, since when, and how many requests it refused."""

    def __init__(self, database: str, monotonic: Callable[[], float] = time.monotonic
                 ) -> None:
        self.database = database
        self.monotonic = monotonic
        self.down = False
        self.refused = 0
        self.outages = 0
        self.refusals: Counter[str] = Counter()
        """Every refused request since the repository opened, by the kind of error
        (the operator's metrics read it)."""
        self._since = 0.0
        self._last_failure = 0.0
        self._writes_only = False  # full or read-only: reads still go through
        self._cause = ""

    def now(self) -> float:
        """When a request starts (what ``succeeded`` is given)."""
        return float(self.monotonic())

    def failed(self, error: StorageUnavailable) -> None:
        """A request failed with ``error``: the first failure of an outage is logged."""
        self.refused += 1
        self.refusals[type(error).__name__] += 1
        self._last_failure = self.monotonic()
        if self.down:
            return
        self._writes_only = isinstance(error, DatabaseFull | DatabaseReadOnly)
        self._cause = f"{type(error).__name__}: {error.cause or 'no detail'}"
        self.down = True
        self.outages += 1
        self._since = self.monotonic()
        log.warning("the database %s is unavailable (%s: %s); requests are refused and "
                    "background work waits until it is back", self.database,
                    type(error).__name__, error.cause or "no detail")

    @property
    def refusing_writes(self) -> str | None:
        """Why writes are refused while reads still answer (a full or read-only database,
        until a write goes through again); None otherwise. A read cannot tell this, so
        the operator's readiness asks it too."""
        if self.down and self._writes_only:
            return f"{self._cause} (reads answer, every change is refused)"
        return None

    def succeeded(self, started: float, *, write: bool) -> None:
        """A request that began at ``started`` went through (``write``: a transaction):
        the end of an outage is logged."""
        if not self.down or started < self._last_failure or \
                (self._writes_only and not write):
            return
        self.down = False
        log.warning("the database %s is back after %.0f s (%d requests refused meanwhile)",
                    self.database, self.monotonic() - self._since, self.refused)
        self.refused = 0
