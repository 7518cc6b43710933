"""Whom each person blocks (``BlockStore``: ``service.blocks``), in memory and in SQL
(``SqlRepository`` and ``MemoryRepository`` inherit them): one row per blocker and
blocked user, for every server (a block is the blocker's, not a server's). Blocking
someone also drops the blocked user's follows of the blocker, in the same transaction.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from datetime import datetime
from typing import Any

from service.records import Follow
from storage.times import epoch


class MemoryBlocks:
    """The blocks in a dict (``MemoryRepository``)."""

    _follows: list[Follow]

    def __init__(self) -> None:
        super().__init__()
        self._blocks: dict[tuple[int, int], datetime] = {}  # (blocker, blocked) -> since

    async def add_block(self, user_id: int, blocked_id: int, now: datetime) -> bool:
        if (user_id, blocked_id) in self._blocks:
            return False
        self._blocks[user_id, blocked_id] = now
        self._follows[:] = [f for f in self._follows
                            if not (f.user_id == blocked_id and f.player_id == user_id)]
        return True

    async def remove_block(self, user_id: int, blocked_id: int) -> bool:
        return self._blocks.pop((user_id, blocked_id), None) is not None

    async def blocked_by(self, user_id: int) -> list[int]:
        return [b for (u, b), _ in sorted(self._blocks.items(), key=lambda kv: kv[1])
                if u == user_id]

    async def blockers_of(self, blocked_id: int, among: Collection[int]) -> list[int]:
        return sorted(u for u in set(among) if (u, blocked_id) in self._blocks)


class SqlBlocks:
    """The blocks in SQL (``SqlRepository``: SQLite and PostgreSQL), through the
    repository's write transaction and read helpers."""

    _exec: Callable[..., Awaitable[Any]]
    _transaction: Callable[[Callable[[], Awaitable[Any]]], Awaitable[Any]]
    _all: Callable[..., Awaitable[list[Any]]]

    async def add_block(self, user_id: int, blocked_id: int, now: datetime) -> bool:
        async def body() -> bool:
            cur = await self._exec(
                "INSERT INTO blocks (user_id, blocked_id, created_at) VALUES (?, ?, ?) "
                "ON CONFLICT DO NOTHING RETURNING user_id", (user_id, blocked_id, epoch(now)))
            if await cur.fetchone() is None:
                return False
            await self._exec("DELETE FROM follows WHERE user_id = ? AND player_id = ?",
                             (blocked_id, user_id))
            return True
        result: bool = await self._transaction(body)
        return result

    async def remove_block(self, user_id: int, blocked_id: int) -> bool:
        async def body() -> bool:
            cur = await self._exec("DELETE FROM blocks WHERE user_id = ? AND blocked_id = ? "
                                   "RETURNING user_id", (user_id, blocked_id))
            return await cur.fetchone() is not None
        result: bool = await self._transaction(body)
        return result

    async def blocked_by(self, user_id: int) -> list[int]:
        rows = await self._all("SELECT blocked_id FROM blocks WHERE user_id = ? "
                               "ORDER BY created_at, blocked_id", (user_id,))
        return [int(r[0]) for r in rows]

    async def blockers_of(self, blocked_id: int, among: Collection[int]) -> list[int]:
        users = sorted(set(among))
        if not users:
            return []
        rows = await self._all(
            f"SELECT user_id FROM blocks WHERE blocked_id = ? AND user_id IN "
            f"({', '.join('?' * len(users))}) ORDER BY user_id", (blocked_id, *users))
        return [int(r[0]) for r in rows]
