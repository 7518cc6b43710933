"""Readiness that knows the game: whether this process keeps Tablero's promises now.

``/readyz`` is ready only when every condition holds; each one that fails is named with
its reason (``bot.ops.server``):

* ``database``: the database answers a read within a few seconds, and (for the bot)
  takes writes: a full or read-only database still reads, but refuses every move;
* ``shards``: every shard this process holds is connected to Discord and ready;
* ``sweep``: the last deadline sweep finished within three sweep intervals (else clocks
  run out unseen: reminders and timeouts wait);
* ``outbox``: the oldest undelivered outbox entry is younger than a limit (else
  messages people must read are stuck).

Times come from the service's clock (the virtual one in tests), durations of waits from
the event loop. Every check sets the gauges ``tablero_ready``,
``tablero_ready_condition{condition}`` and the outbox's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol, runtime_checkable

from bot.ops.metrics import Metrics
from service.errors import StorageError
from service.ports import Clock
from service.records import OutboxEntry

log = logging.getLogger("tablero.ops")

SWEEPS_MISSED = 3
"""The sweep is stalled when none finished within this many sweep intervals."""

CHECK_SECONDS = 5.0
"""A condition that has not answered within this many seconds fails ("no answer")."""

OUTBOX_LOOKED_AT = 10_000
"""Undelivered entries read at most for the backlog (as many as the relay's poll)."""


def span(seconds: float) -> str:
    """A duration for an operator: ``45 s``, ``12 min``, ``3 h 5 min``, ``2 d 4 h``.

    >>> span(45), span(720), span(11_100), span(187_200)
    ('45 s', '12 min', '3 h 5 min', '2 d 4 h')
    """
    seconds = max(0, round(seconds))
    if seconds < 120:
        return f"{seconds} s"
    minutes = seconds // 60
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    days, hours = divmod(hours, 24)
    return f"{days} d {hours} h" if hours else f"{days} d"


class Condition(Protocol):
    """One readiness condition: its name, and why it fails now (None: it holds)."""

    name: str

    async def failure(self) -> str | None: ...


@dataclass(frozen=True)
class Verdict:
    """The outcome of one readiness check: each condition's name and its failure."""

    results: tuple[tuple[str, str | None], ...]

    @property
    def ready(self) -> bool:
        return all(reason is None for _, reason in self.results)

    @property
    def failures(self) -> list[tuple[str, str]]:
        return [(name, reason) for name, reason in self.results if reason is not None]

    def text(self) -> str:
        """The body of ``/readyz``: ``ready`` or ``not ready``, then a line per
        condition (``sweep: the last deadline sweep finished 4 min ago ...``)."""
        lines = ["ready" if self.ready else "not ready"]
        lines += [f"{name}: {reason or 'ok'}" for name, reason in self.results]
        return "\n".join(lines) + "\n"


class WritesWatch(Protocol):
    """What a repository knows that a read cannot tell: that its writes are refused while
    reads still answer (a full disk, a read-only file system or server)."""

    @property
    def refusing_writes(self) -> str | None: ...


@runtime_checkable
class WatchedStore(Protocol):
    """A repository that reports its outages (``storage``'s SQL ones: their outage log)."""

    outage: WritesWatch


class DatabaseAnswers:
    """The database answers ``probe`` (a cheap read through the core's port) and, when
    ``writes`` is given, takes writes (a full or read-only database reads on)."""

    name = "database"

    def __init__(self, probe: Callable[[], Awaitable[object]],
                 writes: WritesWatch | None = None) -> None:
        self.probe = probe
        self.writes = writes

    async def failure(self) -> str | None:
        try:
            await self.probe()
        except StorageError as e:
            return f"{type(e).__name__}: {e.cause or e.message}"
        return self.writes.refusing_writes if self.writes is not None else None


class ShardsReady:
    """Every shard this process holds is connected and ready: ``states`` maps each held
    shard to None (ready) or why not (``disconnected``, ``not ready yet``)."""

    name = "shards"

    def __init__(self, states: Callable[[], Mapping[int, str | None]],
                 metrics: Metrics | None = None) -> None:
        self.states = states
        self.metrics = metrics

    async def failure(self) -> str | None:
        states = self.states()
        if self.metrics is not None:
            for shard, why in states.items():
                self.metrics.shard_ready.labels(shard=str(shard)).set(why is None)
        down = [f"shard {shard} {why}" for shard, why in sorted(states.items())
                if why is not None]
        if not states:
            return "no shard is held"
        return ", ".join(down) or None


class SweepWatch:
    """When the deadline sweep last finished (the adapter's loop reports to it), and
    the metrics of each sweep."""

    def __init__(self, clock: Clock, interval: float, metrics: Metrics | None = None
                 ) -> None:
        self.clock = clock
        self.interval = interval
        self.metrics = metrics
        self.started_at = clock.now()
        self.last_success: datetime | None = None

    def ended(self, outcome: str, seconds: float | None = None) -> None:
        """A sweep ended: ``ok``, ``unavailable`` (the database), ``failed`` or
        ``skipped`` (disconnected, or backing off)."""
        finished = None
        if outcome == "ok":
            self.last_success = self.clock.now()
            finished = self.last_success.timestamp()
        if self.metrics is not None:
            self.metrics.swept(outcome, seconds, finished)


class SweepRecent:
    """The last deadline sweep finished within ``SWEEPS_MISSED`` sweep intervals (since
    the start when none has yet)."""

    name = "sweep"

    def __init__(self, watch: SweepWatch) -> None:
        self.watch = watch

    async def failure(self) -> str | None:
        w = self.watch
        limit = timedelta(seconds=SWEEPS_MISSED * w.interval)
        now = w.clock.now()
        if w.last_success is None:
            if now - w.started_at <= limit:
                return None
            since = span((now - w.started_at).total_seconds())
            return (f"no deadline sweep has finished since the start {since} ago "
                    f"(expected every {span(w.interval)})")
        late = now - w.last_success
        if late <= limit:
            return None
        return (f"the last deadline sweep finished {span(late.total_seconds())} ago "
                f"(expected every {span(w.interval)})")


class OutboxFresh:
    """The oldest undelivered entry this process delivers is younger than ``max_age``;
    sets the backlog gauges as it looks."""

    name = "outbox"

    def __init__(self, pending: Callable[[int], Awaitable[Sequence[OutboxEntry]]],
                 accepts: Callable[[OutboxEntry], bool], clock: Clock, max_age: timedelta,
                 metrics: Metrics | None = None) -> None:
        self.pending = pending
        self.accepts = accepts
        self.clock = clock
        self.max_age = max_age
        self.metrics = metrics

    async def failure(self) -> str | None:
        entries = [e for e in await self.pending(OUTBOX_LOOKED_AT) if self.accepts(e)]
        oldest = min((e.created_at for e in entries), default=None)
        age = 0.0 if oldest is None else max(0.0, (self.clock.now() - oldest).total_seconds())
        if self.metrics is not None:
            self.metrics.outbox_backlog.set(len(entries))
            self.metrics.outbox_oldest_age.set(age)
        if age <= self.max_age.total_seconds():
            return None
        return (f"the oldest undelivered message waits for {span(age)} (limit "
                f"{span(self.max_age.total_seconds())}; {len(entries)} waiting)")


class Readiness:
    """The conditions, checked together (``check``), each within ``CHECK_SECONDS``."""

    def __init__(self, conditions: Sequence[Condition], metrics: Metrics | None = None,
                 timeout: float = CHECK_SECONDS) -> None:
        self.conditions = list(conditions)
        self.metrics = metrics
        self.timeout = timeout

    async def _one(self, condition: Condition) -> str | None:
        try:
            return await asyncio.wait_for(condition.failure(), self.timeout)
        except TimeoutError:
            return f"no answer within {self.timeout:g} s"
        except StorageError as e:  # a condition that reads the database met an outage
            return f"cannot be checked: the database failed ({type(e).__name__})"
        except Exception as e:  # a broken check is a failing one, said, never a trace
            log.exception("readiness condition %s failed to run", condition.name)
            return f"cannot be checked ({type(e).__name__})"

    async def check(self) -> Verdict:
        reasons = await asyncio.gather(*(self._one(c) for c in self.conditions))
        verdict = Verdict(tuple((c.name, r) for c, r in zip(self.conditions, reasons,
                                                             strict=True)))
        if self.metrics is not None:
            for name, reason in verdict.results:
                self.metrics.condition.labels(condition=name).set(reason is None)
            self.metrics.ready.set(verdict.ready)
        return verdict
