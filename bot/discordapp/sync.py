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

A bot that runs while ``tablero sync`` (another process) changes its commands fetches
their ids again (:class:`IdsRefresh`), so its texts' mentions name commands that exist.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
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
    # tree changed (measured: reading and hashing the eight, 2.7 MB, costs 2.2-2.7 ms of
    # CPU once a start, so they are read again rather than sharing the digests
    # locales.i18n.compiled works out for its cache, a digest of other bytes besides)
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

    def stamp(self) -> tuple[int, int, int] | None:
        """What changes whenever the file is written again (each write replaces it):
        a ``tablero sync`` run beside the running bot shows here (None: no file)."""
        try:
            found = self.path.stat()
        except OSError:
            return None
        return found.st_mtime_ns, found.st_ino, found.st_size

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


REFRESH_SECONDS = 3600.0
"""How often the running bot fetches its commands' ids again (``IdsRefresh``)."""

RETRY_SECONDS = 300.0
"""How soon a refresh that failed is tried again."""


class IdsRefresh:
    """The running bot's commands' ids kept true to Discord (``known``, which the
    texts' mentions read): fetched again, scope by scope, now and then (``tick``, at
    each tick of the deadline sweep, every minute).

    ``tablero sync`` runs in another process: it may move the commands to a
    development server or back to the global scope (clearing the other), or create them
    anew (new ids), and the bot that runs would go on mentioning commands that no longer
    exist, which Discord shows as a dead mention. So the bot fetches its ids again:

    * at the first tick after the sync-state file changed (``SyncState.stamp``: the
      command writes it beside the database the bot runs on): within a minute of a
      ``tablero sync`` on the same machine, at the cost of a look at a file per tick;
    * else every ``every`` seconds (an hour): the backstop for a sync whose state file
      the bot does not see (another machine) or for commands changed by hand, a few
      reads an hour (one per scope), which cost no command creation and no quota.

    A scope fetched is the global one, every server whose copies the bot knows, and
    every development server the sync-state file names. A scope answered without
    commands (or refused: the bot is no longer in that server) is forgotten, so its
    server's texts mention the global commands again, or name them by name. A fetch that
    fails otherwise (Discord or the network down) keeps what was known, never drops to
    no ids, is logged in a line without a trace, and is tried again after
    ``RETRY_SECONDS``."""

    def __init__(self, client: discord.Client, tree: app_commands.CommandTree[Any],
                 state: SyncState | None, known: CommandIds, *,
                 every: float = REFRESH_SECONDS,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.client = client
        self.tree = tree
        self.state = state
        self.known = known
        self.every = every
        self.monotonic = monotonic
        self.refreshes = 0
        self._stamp: tuple[int, int, int] | None = None
        self._next = 0.0

    def started(self) -> None:
        """The ids were just learnt (the start-up sync, or its fetch): the next refresh
        is due in ``every`` seconds, or once the sync-state file changes again; in
        ``RETRY_SECONDS`` when none was learnt (that sync or fetch failed)."""
        self._stamp = self.state.stamp() if self.state is not None else None
        self._due(bool(self.known.scopes()))

    async def tick(self) -> None:
        """Refresh when the sync-state file changed since the last look, or when the
        last refresh is ``every`` seconds old (see the class)."""
        stamp = self.state.stamp() if self.state is not None else None
        if stamp == self._stamp and self.monotonic() < self._next:
            return
        self._stamp = stamp
        await self.refresh()

    async def refresh(self) -> bool:
        """Fetch the ids of every scope now (see the class); True if every fetch was
        answered. The next refresh is due in ``every`` seconds, or in
        ``RETRY_SECONDS`` after a failure."""
        application_id = self.client.application_id
        if application_id is None:  # not logged in yet: the start-up sync comes first
            return False
        self.refreshes += 1
        scopes: list[int | None] = [None, *self.known.scopes()]
        if self.state is not None:
            scopes += self.state.guilds(application_id)
        before = {scope: self.known.of_scope(scope) for scope in self.known.scopes()}
        answered = True
        for guild_id in dict.fromkeys(scopes):  # each once, global first
            answered = await self._fetch(guild_id) and answered
        after = {scope: self.known.of_scope(scope) for scope in self.known.scopes()}
        if after != before:
            log.info("the commands' ids changed (a sync elsewhere): now known %s",
                     ", ".join("globally" if scope is None else f"in server {scope}"
                               for scope in after) or "nowhere")
        self._due(answered)
        return answered

    def _due(self, answered: bool) -> None:
        """The next refresh: in ``every`` seconds, or sooner after a failure."""
        self._next = self.monotonic() + (self.every if answered else
                                         min(self.every, RETRY_SECONDS))

    async def _fetch(self, guild_id: int | None) -> bool:
        """Learn the ids of one scope again (see the class); False if it failed."""
        try:
            commands = await self.tree.fetch_commands(
                guild=discord.Object(id=guild_id) if guild_id else None)
        except discord.HTTPException as e:
            if guild_id is not None and isinstance(e, discord.Forbidden | discord.NotFound):
                log.info("no commands in server %s any more: %s", guild_id, e)  # left it
                self.known.forget(guild_id)
                return True
            error: Exception = e
        except (aiohttp.ClientError, OSError, TimeoutError) as e:
            error = e
        else:
            self.known.learn(commands, guild_id)
            return True
        log.warning("could not fetch the commands' ids%s again; keeping those known: %s",
                    f" of server {guild_id}" if guild_id else "",
                    str(error) or type(error).__name__)
        return False
