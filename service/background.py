"""The writes that follow a match's end in the background, at a stop.

When a match ends, two writes follow it outside the move's transaction (subscribers, off
the move's reply): its count in the opening explorer (``Explorer.follows``) and its game's
fingerprint (``Importer.game_follows``). A graceful stop (SIGTERM or SIGINT of the bot,
the console's end, the web process's stop) waits for them before the database closes:
:func:`drain` gives them :data:`STOP_GRACE` seconds in all, then cancels what is left and
says how many in one log line, never a trace.

Nothing is lost even then, nor after a crash: a count left undone is made at the next
start (the explorer's first sweep counts the finished matches not counted yet:
``Explorer.sweep_explorer``), a fingerprint left undone at the server's next ``/import``
or by ``tablero db fingerprints``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

STOP_GRACE = 5.0
"""Seconds a stop waits at most for the background writes of the matches that just ended.
Each is one short transaction (milliseconds; a count is one INSERT of at most 40 rows), so
five seconds take a backlog of hundreds even on a slow PostgreSQL; and it fits in the
stop's budget: the bot's delivery flush takes 10 s at most, and the systemd units give
a stop 30 s (``TimeoutStopSec``) before they kill it."""


class Writes:
    """Writes that follow events in the background, off the reply and the transaction
    that raised them (a match's explorer count, its fingerprint): started, waited for
    (tests, the console), and named to a stop that waits for them (:func:`drain`)."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background (it handles its own failures)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def under_way(self) -> set[asyncio.Task[None]]:
        """The writes not finished yet."""
        return set(self._tasks)

    async def idle(self) -> None:
        """Wait until every write started so far (and any it started) is finished."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


@dataclass(frozen=True, slots=True)
class Drained:
    """What a stop found under way: explorer counts and fingerprints, waited for (done)
    and cancelled when the grace ran out (left)."""

    counts_done: int = 0
    keys_done: int = 0
    counts_left: int = 0
    keys_left: int = 0


class Background:
    """The service's part that stops its background work (``MatchService.stop_background``):
    ``stops`` end the work that the next run takes up again (the puzzle mining, the
    explorer's catch-up); ``counts`` and ``keys`` name the writes to wait for."""

    def __init__(self, stops: Sequence[Callable[[], Awaitable[None]]],
                 counts: Callable[[], set[asyncio.Task[None]]],
                 keys: Callable[[], set[asyncio.Task[None]]]) -> None:
        self._stops = tuple(stops)
        self._counts = counts
        self._keys = keys

    async def stop_background(self, seconds: float = STOP_GRACE) -> Drained:
        """Stop what the next run takes up, then :func:`drain` the writes under way."""
        for stop in self._stops:
            await stop()
        return await drain(self._counts, self._keys, seconds)


async def drain(counts: Callable[[], set[asyncio.Task[None]]],
                keys: Callable[[], set[asyncio.Task[None]]],
                seconds: float = STOP_GRACE) -> Drained:
    """Wait up to ``seconds`` in all for the tasks ``counts()`` and ``keys()`` name (asked
    again after each wait: a task may start another while it runs), cancel what is left;
    log one line when there was any."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    seen_counts: set[asyncio.Task[None]] = set()
    seen_keys: set[asyncio.Task[None]] = set()
    while True:
        now_counts, now_keys = counts(), keys()
        seen_counts |= now_counts
        seen_keys |= now_keys
        pending = {t for t in now_counts | now_keys if not t.done()}
        remaining = deadline - loop.time()
        if not pending or remaining <= 0:
            break
        await asyncio.wait(pending, timeout=remaining)
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.gather(*pending, return_exceptions=True)
    done = Drained(counts_done=len(seen_counts - pending), keys_done=len(seen_keys - pending),
                   counts_left=len(seen_counts & pending), keys_left=len(seen_keys & pending))
    if pending:
        log.warning("stopping with %d explorer count(s) and %d fingerprint(s) still being "
                    "written after %.0f s: cancelled (the counts are made at the next start, "
                    "the fingerprints at the server's next /import or by tablero db "
                    "fingerprints); %d count(s) and %d fingerprint(s) were written",
                    done.counts_left, done.keys_left, seconds, done.counts_done,
                    done.keys_done)
    elif seen_counts or seen_keys:
        log.info("stopping: waited for %d explorer count(s) and %d fingerprint(s) of the "
                 "matches that just ended", done.counts_done, done.keys_done)
    return done
