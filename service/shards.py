"""Which guilds a process serves when Discord's shards are spread over several processes.

Discord routes a guild's events to shard ``(guild_id >> 22) % shard_count``; a process
given some shards runs the deadline sweep and delivers the outbox only for the guilds of
those shards, so every reminder, timeout and message is acted on by exactly one process.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from service.errors import StorageError
from service.ports import Clock, Repository

log = logging.getLogger(__name__)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord gives ``guild_id`` among ``shard_count`` (DMs: guild 0, shard 0).

    >>> shard_of(81384788765712384, 4), shard_of(0, 4)
    (2, 0)
    >>> shard_of(5 << 22, 4)
    1
    """
    if shard_count < 1:
        raise ValueError(f"a shard count is at least 1, not {shard_count}")
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class ShardSet:
    """The shards one process runs: ``ids`` among ``count`` (``ids`` None: all of them).

    >>> ShardSet(2, (1,)).owns(3 << 22), ShardSet(2, (1,)).owns(2 << 22), ShardSet().owns(7)
    (True, False, True)
    """

    count: int = 1
    ids: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"a shard count is at least 1, not {self.count}")
        if self.ids is not None:
            if not self.ids:
                raise ValueError("a process runs at least one shard")
            bad = [i for i in self.ids if not 0 <= i < self.count]
            if bad:
                raise ValueError(f"shard ids {bad} are not below the shard count {self.count}")
            if len(set(self.ids)) != len(self.ids):
                raise ValueError(f"shard ids repeat: {list(self.ids)}")

    @property
    def shard_ids(self) -> tuple[int, ...]:
        """Every shard this process runs."""
        return self.ids if self.ids is not None else tuple(range(self.count))

    @property
    def everything(self) -> bool:
        """Whether this process serves every guild (one process, or all the shards)."""
        return len(self.shard_ids) == self.count

    def owns(self, guild_id: int) -> bool:
        """Whether ``guild_id`` is this process's to act on."""
        return self.everything or shard_of(guild_id, self.count) in self.shard_ids


ALL_SHARDS = ShardSet()
"""One process serving every guild (the default)."""


LEASE_STALE = timedelta(seconds=90)
"""A shard whose lease was not renewed for this long is free (its process died)."""


class ShardsTaken(ValueError):
    """Another live process runs some of these shards (or counts shards differently)."""

    def __init__(self, shards: ShardSet, taken: Sequence[int]) -> None:
        super().__init__(
            f"shards {list(taken)} of {shards.count} are run by another live process "
            f"(it renewed its lease in the database within {LEASE_STALE.seconds} s), or it "
            f"runs a different SHARD_COUNT: refusing to start, or both would act twice. "
            f"Give each process its own SHARD_IDS and the same SHARD_COUNT (a process "
            f"that died frees its shards after {LEASE_STALE.seconds} s).")
        self.shards = shards
        self.taken = tuple(taken)


class ShardLease:
    """This process's hold on its shards in the shared database: ``acquire`` at start
    (``ShardsTaken`` if another live process has one of them), ``renew`` every
    ``LEASE_STALE / 3`` while running, ``release`` at a clean stop."""

    def __init__(self, repository: Repository, shards: ShardSet, clock: Clock, *,
                 owner: str | None = None, stale: timedelta = LEASE_STALE) -> None:
        self.repository = repository
        self.shards = shards
        self.clock = clock
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.stale = stale

    @property
    def every(self) -> float:
        """Seconds between renewals."""
        return self.stale.total_seconds() / 3

    async def acquire(self) -> None:
        """Take (or renew) the lease of every shard of this process, or raise."""
        taken = await self.repository.lease_shards(self.shards.shard_ids, self.shards.count,
                                                   self.owner, self.clock.now(), self.stale)
        if taken:
            raise ShardsTaken(self.shards, taken)

    renew = acquire

    async def release(self) -> None:
        await self.repository.release_shards(self.owner)

    async def keep(self, lost: Callable[[ShardsTaken], Awaitable[None]]) -> None:
        """Renew every ``every`` seconds until cancelled. If another process took one of
        the shards (this one stalled past ``stale``), await ``lost(error)`` and stop: the
        caller must stop acting. A failed renewal (the database unreachable) is retried."""
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.renew()
            except ShardsTaken as e:
                await lost(e)
                return
            except StorageError as e:  # the outage is the repository's to log, once
                log.debug("could not renew the shard lease (%s); retrying", e.message)
            except Exception:
                log.exception("could not renew the shard lease; retrying")
