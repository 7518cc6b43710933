"""A player's comforts in SQL (``SqlRepository``: SQLite and PostgreSQL): conditional moves
(/premove), private notes, follows and the daily digest's schedule — each through the
repository's write transaction and read helpers, as the explorer, seasons and tournaments are.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from service.records import ConditionalLine, Follow, OutboxEntry
from storage.times import epoch as _ts
from storage.times import moment as _dt


class SqlComforts:
    """Conditional moves, notes, follows and digests (``ComfortsStore``, ``DigestStore``)."""

    _exec: Callable[..., Awaitable[Any]]
    _transaction: Callable[[Callable[[], Awaitable[Any]]], Awaitable[Any]]
    _all: Callable[..., Awaitable[list[Any]]]
    _write_entries: Callable[[Sequence[OutboxEntry]], Awaitable[None]]

    async def add_conditional_lines(self, match_id: int, user_id: int, start_ply: int,
                                    lines: Sequence[Sequence[str]], now: datetime
                                    ) -> list[ConditionalLine]:
        async def body() -> list[ConditionalLine]:
            out = []
            for moves in lines:
                cur = await self._exec(
                    "INSERT INTO conditional_moves (match_id, user_id, start_ply, moves, "
                    "created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
                    (match_id, user_id, start_ply, json.dumps(list(moves)), _ts(now)))
                new_id = int((await cur.fetchone())[0])
                out.append(ConditionalLine(new_id, match_id, user_id, start_ply,
                                           tuple(moves), now))
            return out
        result: list[ConditionalLine] = await self._transaction(body)
        return result

    async def conditional_lines(self, match_id: int) -> list[ConditionalLine]:
        rows = await self._all(
            "SELECT id, match_id, user_id, start_ply, moves, created_at FROM "
            "conditional_moves WHERE match_id = ? ORDER BY id", (match_id,))
        out = []
        for id_, mid, uid, start, moves, created in rows:
            when = _dt(created)
            assert when is not None
            out.append(ConditionalLine(int(id_), int(mid), int(uid), int(start),
                                       tuple(map(str, json.loads(moves))), when))
        return out

    async def delete_conditional_lines(self, match_id: int, user_id: int | None = None,
                                       ids: Sequence[int] | None = None) -> int:
        async def body() -> int:
            sql = "DELETE FROM conditional_moves WHERE match_id = ?"
            params: list[Any] = [match_id]
            if user_id is not None:
                sql += " AND user_id = ?"
                params.append(user_id)
            if ids is not None:
                if not ids:
                    return 0
                sql += f" AND id IN ({', '.join('?' * len(ids))})"
                params += list(ids)
            cur = await self._exec(sql + " RETURNING id", params)
            return len(list(await cur.fetchall()))
        result: int = await self._transaction(body)
        return result

    async def matches_with_conditionals(self) -> list[int]:
        rows = await self._all(
            "SELECT DISTINCT c.match_id FROM conditional_moves AS c JOIN matches AS m ON "
            "m.id = c.match_id WHERE m.status <> 'active' OR (m.ply > c.start_ply AND "
            "(m.ply - c.start_ply) % 2 = 1) ORDER BY c.match_id")
        return [int(r[0]) for r in rows]

    async def set_note(self, match_id: int, user_id: int, text: str | None,
                       now: datetime) -> None:
        async def body() -> None:
            if text is None:
                await self._exec("DELETE FROM match_notes WHERE match_id = ? AND "
                                 "user_id = ?", (match_id, user_id))
                return
            await self._exec(
                "INSERT INTO match_notes (match_id, user_id, body, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (match_id, user_id) DO UPDATE SET "
                "body = excluded.body, updated_at = excluded.updated_at",
                (match_id, user_id, text, _ts(now)))
        await self._transaction(body)

    async def note_of(self, match_id: int, user_id: int) -> str | None:
        rows = await self._all("SELECT body FROM match_notes WHERE match_id = ? AND "
                               "user_id = ?", (match_id, user_id))
        return str(rows[0][0]) if rows else None

    async def add_follow(self, follow: Follow) -> bool:
        async def body() -> bool:
            cur = await self._exec(
                "INSERT INTO follows (user_id, guild_id, match_id, player_id) "
                "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                (follow.user_id, follow.guild_id, follow.match_id, follow.player_id))
            return await cur.fetchone() is not None
        result: bool = await self._transaction(body)
        return result

    async def remove_follow(self, follow: Follow) -> bool:
        async def body() -> bool:
            column = "match_id" if follow.match_id is not None else "player_id"
            cur = await self._exec(
                f"DELETE FROM follows WHERE user_id = ? AND guild_id = ? AND {column} = ? "
                "RETURNING id", (follow.user_id, follow.guild_id,
                                 follow.match_id if follow.match_id is not None
                                 else follow.player_id))
            return await cur.fetchone() is not None
        result: bool = await self._transaction(body)
        return result

    async def follows_of(self, user_id: int, guild_id: int) -> list[Follow]:
        rows = await self._all("SELECT match_id, player_id FROM follows WHERE user_id = ? "
                               "AND guild_id = ? ORDER BY id", (user_id, guild_id))
        return [Follow(user_id, guild_id, m, p) for m, p in rows]

    async def set_digest(self, user_id: int, guild_id: int,
                         next_at: datetime | None) -> None:
        async def body() -> None:
            if next_at is None:
                await self._exec("DELETE FROM digests WHERE user_id = ? AND guild_id = ?",
                                 (user_id, guild_id))
            else:
                await self._exec(
                    "INSERT INTO digests (user_id, guild_id, next_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (user_id, guild_id) DO UPDATE SET next_at = excluded.next_at",
                    (user_id, guild_id, _ts(next_at)))
        await self._transaction(body)

    async def digest_of(self, user_id: int, guild_id: int) -> datetime | None:
        rows = await self._all("SELECT next_at FROM digests WHERE user_id = ? AND "
                               "guild_id = ?", (user_id, guild_id))
        return _dt(rows[0][0]) if rows else None

    async def due_digests(self, now: datetime, limit: int = 100
                          ) -> list[tuple[int, int, datetime]]:
        rows = await self._all("SELECT user_id, guild_id, next_at FROM digests WHERE "
                               "next_at <= ? ORDER BY next_at, user_id, guild_id LIMIT ?",
                               (_ts(now), limit))
        return [(int(u), int(g), datetime.fromtimestamp(t, UTC)) for u, g, t in rows]

    async def advance_digest(self, user_id: int, guild_id: int, was: datetime,
                             next_at: datetime, entries: Sequence[OutboxEntry]) -> bool:
        async def body() -> bool:
            cur = await self._exec(
                "UPDATE digests SET next_at = ? WHERE user_id = ? AND guild_id = ? AND "
                "next_at = ? RETURNING user_id", (_ts(next_at), user_id, guild_id, _ts(was)))
            if await cur.fetchone() is None:
                return False  # another process sent it, or he turned it off
            await self._write_entries(entries)
            return True
        result: bool = await self._transaction(body)
        return result
