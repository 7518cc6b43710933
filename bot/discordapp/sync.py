"""Command registration without burning Discord's daily quota.

Discord allows about 200 command creations a day, so the bot does not sync on every start.
``tablero sync`` syncs on request; at start-up the bot syncs by itself only when the hash
of its command tree differs from the one stored after the last sync (for that application
and scope). The hash is of the exact JSON payload discord.py would send.

Development in one server without duplicates: Discord shows a server both the global
commands and that server's own, so the same command registered in both scopes appears
twice. :func:`publish` therefore keeps one scope at a time: syncing to a development
server copies the commands there and removes the global registration; syncing globally
removes the copies made in development servers (the sync-state file remembers which).
The start-up sync follows the scope last chosen. ``tablero sync --clear`` removes the
commands of one scope.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.discordapp.mentions import CommandIds
from locales.i18n import LOCALES, catalogue_path

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
    digest = hashlib.sha256(blob.encode())
    # the localizations come from the catalogues at sync time: a translation changed is a
    # tree changed
    for locale in LOCALES:
        path = catalogue_path(locale)
        digest.update(path.read_bytes() if path.is_file() else b"-")
    return digest.hexdigest()


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

    def guilds(self, application_id: int) -> list[int]:
        """The servers the commands were last synced to one by one (development)."""
        prefix = f"{application_id}:"
        return sorted(int(k[len(prefix):]) for k in self._read()
                      if k.startswith(prefix) and k[len(prefix):].isdigit())

    def remember(self, application_id: int, digest: str, guild_id: int | None = None) -> None:
        data = self._read()
        data[self._key(application_id, guild_id)] = digest
        self._write(data)

    def forget(self, application_id: int, guild_id: int | None = None) -> None:
        data = self._read()
        if data.pop(self._key(application_id, guild_id), None) is not None:
            self._write(data)

    def _write(self, data: dict[str, str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True))
        tmp.replace(self.path)


async def sync_commands(client: discord.Client, tree: app_commands.CommandTree[Any],
                        state: SyncState | None, *, guild_id: int | None = None,
                        force: bool = False, known: CommandIds | None = None) -> bool:
    """Sync the tree when forced or when it changed since the last sync; True if it synced.

    With ``guild_id`` the global commands are copied to that server (instant, for testing
    a change in one server) and synced there. ``known`` learns the commands' ids (for
    the mentions texts name them by, ``mentions``): from the sync's answer, or fetched
    when the tree is unchanged (a read, which costs no command creation).
    """
    assert client.application_id is not None
    guild = discord.Object(id=guild_id) if guild_id else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    digest = tree_hash(tree, guild)
    if not force and state is not None and state.stored(client.application_id,
                                                        guild_id) == digest:
        log.info("command tree unchanged (%s); not syncing", digest[:12])
        if known is not None:
            try:
                known.learn(await tree.fetch_commands(guild=guild), guild_id)
            except discord.HTTPException as e:  # texts name the commands by name then
                log.warning("could not fetch the commands' ids%s: %s",
                            f" of server {guild_id}" if guild_id else "", e)
        return False
    synced = await tree.sync(guild=guild)
    log.info("synced %d commands%s", len(synced), f" to server {guild_id}" if guild_id else "")
    if known is not None:
        known.learn(synced, guild_id)
    if state is not None:
        state.remember(client.application_id, digest, guild_id)
    return True


async def clear_commands(client: discord.Client, state: SyncState | None, *,
                         guild_id: int | None = None) -> None:
    """Remove every command of this application globally, or in one server."""
    application_id = client.application_id
    assert application_id is not None
    if guild_id is None:
        await client.http.bulk_upsert_global_commands(application_id, payload=[])
    else:
        await client.http.bulk_upsert_guild_commands(application_id, guild_id, payload=[])
    log.info("cleared the commands %s", f"of server {guild_id}" if guild_id else "globally")
    if state is not None:
        state.forget(application_id, guild_id)


async def publish(client: discord.Client, tree: app_commands.CommandTree[Any],
                  state: SyncState | None, *, guild_id: int | None = None,
                  force: bool = False) -> bool:
    """Sync into one scope and clear the other, so no server sees a command twice (see
    the module docstring): in ``guild_id`` and not globally, or globally and in no
    development server. True if the tree was synced."""
    application_id = client.application_id
    assert application_id is not None
    synced = await sync_commands(client, tree, state, guild_id=guild_id, force=force)
    if guild_id is not None:
        await clear_commands(client, state)
    else:
        for dev_guild in state.guilds(application_id) if state is not None else []:
            await clear_commands(client, state, guild_id=dev_guild)
    return synced


async def sync_at_start(client: discord.Client, tree: app_commands.CommandTree[Any],
                        state: SyncState | None, known: CommandIds | None = None) -> None:
    """The start-up sync, when the tree changed: to the development servers the commands
    were last synced to, else globally. ``known`` learns the ids of the commands of that
    scope, synced or not (``sync_commands``)."""
    assert client.application_id is not None
    dev_guilds = state.guilds(client.application_id) if state is not None else []
    if state is not None and dev_guilds and state.stored(client.application_id) is None:
        for guild_id in dev_guilds:
            await sync_commands(client, tree, state, guild_id=guild_id, known=known)
        return
    await sync_commands(client, tree, state, known=known)
