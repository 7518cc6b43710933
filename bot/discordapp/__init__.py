"""Tablero on Discord: the discord.py adapter over the match service.

>>> from bot.discordapp.permissions import REQUIRED_PERMISSIONS
>>> REQUIRED_PERMISSIONS.embed_links
True

``create_bot(repository, clock)`` (``bot.discordapp.app``) wires the client, its notifier,
a :class:`service.MatchService` and the cogs, in that order. Inside the package,
imports point one way (an import-linter contract in pyproject.toml): the wiring, then the
cogs, the client and the notifier side by side, then the parts they share.
"""

from __future__ import annotations

from bot.discordapp.app import create_bot
from bot.discordapp.client import TableroBot, default_sync_state, intents
from bot.discordapp.permissions import REQUIRED_PERMISSIONS, invite_url
from bot.discordapp.sync import SyncState, sync_commands, tree_hash

__all__ = [
    "REQUIRED_PERMISSIONS",
    "SyncState",
    "TableroBot",
    "create_bot",
    "default_sync_state",
    "intents",
    "invite_url",
    "sync_commands",
    "tree_hash",
]
