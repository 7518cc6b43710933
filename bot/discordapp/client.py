"""The Discord client: minimal intents, the command tree, persistent buttons, the sweep.

The bot reads no message content and listens to no messages: everything happens through
slash commands, a user context-menu command and buttons. It needs only the ``guilds``
intent (the channel and thread cache used for permission checks and posting).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import tasks

from bot.discordapp import errors
from bot.discordapp.components import LeaderboardButton, MatchButton
from bot.discordapp.sync import SyncState, sync_commands
from bot.service.ports import BoardRenderer

log = logging.getLogger("tablero.discord")


def intents() -> discord.Intents:
    """The gateway intents Tablero uses: guilds only (no members, no message content)."""
    chosen = discord.Intents.none()
    chosen.guilds = True
    return chosen


class TableroTree(app_commands.CommandTree["TableroBot"]):
    """Ignores bots and turns every command error into an ephemeral message."""

    async def interaction_check(self, interaction: discord.Interaction[TableroBot], /) -> bool:
        return not interaction.user.bot

    async def on_error(self, interaction: discord.Interaction[TableroBot],
                       error: app_commands.AppCommandError, /) -> None:
        original: BaseException = error
        if isinstance(error, app_commands.CommandInvokeError):
            original = error.original
        elif isinstance(error, app_commands.MissingPermissions):
            names = ", ".join(f"**{n.replace('_', ' ').title().replace('Guild', 'Server')}**"
                              for n in error.missing_permissions)
            original = errors.AdapterError(
                f"You need the {names} permission to do that here.")
        elif isinstance(error, app_commands.NoPrivateMessage):
            original = errors.AdapterError("Use this in a server channel, not in DMs.")
        elif isinstance(error, app_commands.TransformerError):
            original = errors.AdapterError(f"I couldn't understand `{error.value}`: "
                                           "pick one of the suggested values.")
        elif isinstance(error, app_commands.CheckFailure):
            original = errors.AdapterError("You can't use this command here.")
        await errors.reply_error(interaction, original)


class TableroBot(discord.Client):
    """Tablero on Discord. ``service`` is the match service; ``handlers`` answers commands."""

    def __init__(self, service: Any, *, renderer: BoardRenderer | None = None,
                 sync_state: SyncState | None = None,
                 auto_sync: bool = True, sweep_seconds: float = 60.0,
                 background: bool = True, **options: Any) -> None:
        super().__init__(
            intents=intents(),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False,
                                                     users=True, replied_user=False),
            **options)
        # Imported here: the handlers module builds the command tree and imports this one.
        from bot.discordapp.commands import register_commands
        from bot.discordapp.handlers import Handlers
        from bot.discordapp.notifier import DiscordNotifier

        self.service = service
        self.tree = TableroTree(self)
        self.handlers = Handlers(self)
        self.notifier = DiscordNotifier(self, renderer=renderer, names=self.display_name)
        self.sync_state = sync_state
        self.auto_sync = auto_sync
        self.sweep_seconds = sweep_seconds
        self.background = background
        self.sweep_runs = 0
        self.known_names: dict[int, str] = {}
        register_commands(self.tree, self.handlers)
        self._sweep = tasks.loop(seconds=sweep_seconds)(self._sweep_once)
        self._sweep.before_loop(self._before_sweep)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(MatchButton, LeaderboardButton)
        if not self.background:
            return  # `tablero sync`: log in, sync, leave
        if self.auto_sync:
            try:
                await sync_commands(self, self.tree, self.sync_state)
            except discord.HTTPException:
                log.exception("automatic command sync failed; run `tablero sync` later")
        self._sweep.start()

    def display_name(self, guild_id: int, user_id: int) -> str:
        """The service's ``NameResolver``: a member's name from the caches, "" if unknown
        (the board then shows the seat's colour). Never fetches, never fails."""
        guild = self.get_guild(guild_id)
        member = guild.get_member(user_id) if guild is not None else None
        user = member or self.get_user(user_id)
        if user is not None:
            return user.display_name
        return self.known_names.get(user_id, "")

    async def close(self) -> None:
        self._sweep.cancel()
        await self.notifier.drain()
        await super().close()

    async def _before_sweep(self) -> None:
        await self.wait_until_ready()

    async def _sweep_once(self) -> None:
        """Act on due deadlines. A failure is logged; the loop keeps running."""
        self.sweep_runs += 1
        try:
            await self.service.sweep()
        except Exception:
            log.exception("deadline sweep failed; retrying at the next tick")

    async def on_interaction(self, interaction: discord.Interaction[TableroBot]) -> None:
        """Remember who people are: the bot has no member intent, so the names of those
        who use its commands and buttons (and the caches) name players on boards."""
        self.known_names[interaction.user.id] = interaction.user.display_name

    async def on_ready(self) -> None:
        user = self.user
        log.info("connected as %s (id %s) to %d servers", user, user.id if user else "?",
                 len(self.guilds))


def default_sync_state(database: Path) -> SyncState:
    """The sync-state file next to the database file."""
    return SyncState(database.with_name(database.name + ".commands.json"))
