"""The posts an adapter changes later (``posted_messages``): a question asked with buttons,
closed once answered (``service.settled``), in SQL (``SqlRepository``: SQLite and
PostgreSQL), through the repository's write transaction and read helpers."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from service.records import PostedMessage


class SqlPosts:
    """Where each match's question posts are (part of ``OutboxStore``)."""

    _exec: Callable[..., Awaitable[Any]]
    _transaction: Callable[[Callable[[], Awaitable[Any]]], Awaitable[Any]]
    _all: Callable[..., Awaitable[list[Any]]]

    async def remember_post(self, match_id: int, kind: str, post: PostedMessage) -> None:
        async def body() -> None:
            await self._exec(
                "INSERT INTO posted_messages (match_id, kind, channel_id, message_id, "
                "locale, content) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, kind) "
                "DO UPDATE SET channel_id = excluded.channel_id, message_id = "
                "excluded.message_id, locale = excluded.locale, content = excluded.content",
                (match_id, kind, post.channel_id, post.message_id, post.locale,
                 post.content))
        await self._transaction(body)

    async def post_of(self, match_id: int, kind: str) -> PostedMessage | None:
        rows = await self._all("SELECT channel_id, message_id, locale, content FROM "
                               "posted_messages WHERE match_id = ? AND kind = ?",
                               (match_id, kind))
        if not rows:
            return None
        channel, message, locale, content = rows[0]
        return PostedMessage(int(channel), int(message), str(locale), str(content))

    async def forget_post(self, match_id: int, kind: str) -> None:
        async def body() -> None:
            await self._exec("DELETE FROM posted_messages WHERE match_id = ? AND kind = ?",
                             (match_id, kind))
        await self._transaction(body)
