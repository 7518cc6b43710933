"""Display names seen per server, kept across restarts (issue 20 §2).

Boards, exports and messages name players through the service's ``NameResolver`` (a
cheap, synchronous lookup). Platforms only know a name while a user is around (Discord's
caches, the console's ``as alice``), so the names seen are stored with the matches and
read back at start: after a restart the console and the bot still say "alice", not a
seat colour or ``user4123768104``.

>>> import asyncio
>>> book = NameBook()
>>> asyncio.run(book.seen(1, 42, "alice"))
>>> book(1, 42), book(2, 42)
('alice', '')
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Protocol, runtime_checkable

from service.errors import StorageError
from service.inputs import without_invalid

log = logging.getLogger(__name__)

MAX_NAME = 32
"""Discord's limit on a display name; longer ones are cut (they are decoration)."""


def clean_name(name: str) -> str:
    """``name`` as it is kept: no control or invalid characters, runs of spaces as one,
    at most :data:`MAX_NAME` characters ("" when nothing is left).

    >>> clean_name("  bob   the great "), len(clean_name("x" * 40))
    ('bob the great', 32)
    """
    return " ".join(without_invalid(name).split())[:MAX_NAME]


@runtime_checkable
class NameStore(Protocol):
    """Where names are kept (``storage.SqliteRepository`` and ``MemoryRepository``)."""

    async def remember_name(self, guild_id: int, user_id: int, name: str,
                            seen_at: datetime) -> None: ...

    async def known_names(self, guild_id: int | None = None
                          ) -> list[tuple[int, int, str]]: ...


class NameBook:
    """The names seen, by (server, user), in memory and in a ``NameStore``."""

    def __init__(self, store: object | None = None) -> None:
        self.store = store if isinstance(store, NameStore) else None
        self._names: dict[tuple[int, int], str] = {}

    async def load(self, guild_id: int | None = None) -> None:
        """Read the stored names (of one server, or all)."""
        if self.store is not None:
            for guild, user, name in await self.store.known_names(guild_id):
                self._names[guild, user] = name

    def __call__(self, guild_id: int, user_id: int) -> str:
        """The ``NameResolver``: the name seen last, "" if none."""
        return self._names.get((guild_id, user_id), "")

    def in_guild(self, guild_id: int) -> dict[int, str]:
        """Every name seen in one server, by user."""
        return {u: n for (g, u), n in self._names.items() if g == guild_id}

    async def seen(self, guild_id: int, user_id: int, name: str) -> None:
        """Note that ``user_id`` goes by ``name`` in ``guild_id``; stored when it changed.
        A failure to store is logged, never raised: a name is decoration."""
        name = clean_name(name)
        if not name or self._names.get((guild_id, user_id)) == name:
            return
        self._names[guild_id, user_id] = name
        if self.store is None:
            return
        try:
            await self.store.remember_name(guild_id, user_id, name, datetime.now(UTC))
        except StorageError as e:  # an outage, logged by the repository, once
            log.debug("could not store the name of user %s: %s", user_id, e.message)
        except Exception:
            log.exception("could not store the name of user %s", user_id)
