"""Tablero on Discord: the discord.py adapter over the match service.

>>> from bot.discordapp.permissions import REQUIRED_PERMISSIONS
>>> REQUIRED_PERMISSIONS.embed_links
True

``create_bot(repository, clock)`` wires a :class:`TableroBot`, its notifier and a
:class:`bot.service.MatchService` together (the service needs the notifier, the notifier
posts through the bot).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.discordapp.client import TableroBot, default_sync_state, intents
from bot.discordapp.permissions import REQUIRED_PERMISSIONS, invite_url
from bot.discordapp.sync import SyncState, sync_commands, tree_hash
from bot.service import MatchService


def create_bot(repository: Any, clock: Any, *, renderer: Any = None,
               sync_state: SyncState | None = None, database: Path | None = None,
               auto_sync: bool = True, sweep_seconds: float = 60.0,
               rng: Any = None) -> TableroBot:
    """A ready-to-start bot over ``repository`` (any ``bot.service.Repository``)."""
    if sync_state is None and database is not None:
        sync_state = default_sync_state(database)
    bot = TableroBot(None, renderer=renderer, sync_state=sync_state, auto_sync=auto_sync,
                     sweep_seconds=sweep_seconds)
    bot.service = MatchService(repository, bot.notifier, clock, renderer=renderer, rng=rng,
                               names=bot.display_name, rooms=bot.notifier)
    return bot


__all__ = [
    "REQUIRED_PERMISSIONS",
    "SyncState",
    "TableroBot",
    "create_bot",
    "intents",
    "invite_url",
    "sync_commands",
    "tree_hash",
]
