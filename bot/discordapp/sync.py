"""Command registration without burning Discord's daily quota.

Discord allows about 200 command creations a day, so the bot does not sync on every start.
``tablero sync`` syncs on request; at start-up the bot syncs by itself only when the hash
of its command tree differs from the one stored after the last sync (for that application
and scope). The hash is of the exact JSON payload discord.py would send.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger("tablero.discord")


def tree_payload(tree: app_commands.CommandTree[Any],
                 guild: discord.abc.Snowflake | None = None) -> list[dict[str, Any]]:
    """What ``tree.sync(guild=...)`` would upload: global commands, or a guild's."""
    commands = tree.get_commands(guild=guild)
    return [c.to_dict(tree) for c in commands]


def tree_hash(tree: app_commands.CommandTree[Any],
              guild: discord.abc.Snowflake | None = None) -> str:
    """A stable digest of the command payload (order and key order do not matter)."""
    payload = sorted(tree_payload(tree, guild),
                     key=lambda c: (c.get("type", 1), c.get("name", "")))
    blob = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


class SyncState:
    """The hash of the last synced tree per application and scope, in a small JSON file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    @staticmethod
    def _key(application_id: int, guild_id: int | None) -> str:
        return f"{application_id}:{guild_id or 'global'}"

    def stored(self, application_id: int, guild_id: int | None = None) -> str | None:
        return self._read().get(self._key(application_id, guild_id))

    def remember(self, application_id: int, digest: str, guild_id: int | None = None) -> None:
        data = self._read()
        data[self._key(application_id, guild_id)] = digest
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True))
        tmp.replace(self.path)


async def sync_commands(client: discord.Client, tree: app_commands.CommandTree[Any],
                        state: SyncState | None, *, guild_id: int | None = None,
                        force: bool = False) -> bool:
    """Sync the tree when forced or when it changed since the last sync; True if it synced.

    With ``guild_id`` the global commands are copied to that server (instant, for testing
    a change in one server) and synced there.
    """
    assert client.application_id is not None
    guild = discord.Object(id=guild_id) if guild_id else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    digest = tree_hash(tree, guild)
    if not force and state is not None and state.stored(client.application_id,
                                                        guild_id) == digest:
        log.info("command tree unchanged (%s); not syncing", digest[:12])
        return False
    synced = await tree.sync(guild=guild)
    log.info("synced %d commands%s", len(synced), f" to server {guild_id}" if guild_id else "")
    if state is not None:
        state.remember(client.application_id, digest, guild_id)
    return True
