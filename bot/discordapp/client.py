"""The Discord client: minimal intents, the command tree, persistent buttons, the cogs.

The bot reads no message content and listens to no messages: everything happens through
slash commands, a user context-menu command and buttons. It needs only the ``guilds``
intent (the channel and thread cache used for permission checks and posting). It runs
on ``AutoShardedBot``: one process, as many shards as Discord recommends, and nothing
here assumes a single one.

The client knows no cog and no service: ``bot.discordapp.app.create_bot`` builds those
and hands the cogs over; the client adds them in ``setup_hook``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discordapp import errors
from bot.discordapp.components import (
    ContinueOpponents,
    ContinueSeat,
    ExplorerBack,
    ExplorerStep,
    GamePick,
    LeaderboardButton,
    MatchButton,
    StepButton,
    TournamentButton,
)
from bot.discordapp.mentions import CommandIds
from bot.discordapp.names import MemberNames
from bot.discordapp.permissions import GUILD_INSTALL, IN_SERVERS
from bot.discordapp.sync import IdsRefresh, SyncState, sync_at_start
from bot.discordapp.translator import CatalogueTranslator
from bot.ops.metrics import Metrics
from bot.ops.server import Operations
from locales.i18n import _, negotiate, render
from service.errors import StorageError

log = logging.getLogger("tablero.discord")


def intents() -> discord.Intents:
    """The gateway intents Tablero uses: guilds only (no members, no message content)."""
    chosen = discord.Intents.none()
    chosen.guilds = True
    return chosen


STOPPING = _("Tablero is restarting; try again in a minute.")

COMPONENT_EVENTS = frozenset({"match_button", "leaderboard_page", "game_pick",
                              "tournament_button", "explorer_step", "explorer_back"})
"""The events the persistent components dispatch (``components``)."""


class TableroTree(app_commands.CommandTree[discord.Client]):
    """Ignores bots; every command error becomes an ephemeral message (``errors``)."""

    async def interaction_check(self, interaction: discord.Interaction[discord.Client],
                                /) -> bool:
        if interaction.user.bot:
            return False
        if isinstance(self.client, TableroBot) and self.client.stopping:
            # no new work while stopping: the person is told, nothing is started
            if interaction.type is discord.InteractionType.application_command:
                await interaction.response.send_message(
                    render(STOPPING, negotiate(str(interaction.locale))), ephemeral=True)
            return False
        return True

    async def on_error(self, interaction: discord.Interaction[discord.Client],
                       error: app_commands.AppCommandError, /) -> None:
        if isinstance(error, app_commands.CommandSignatureMismatch
                      | app_commands.CommandNotFound):
            log.info("interaction %s for a stale command (%s): commands being updated",
                     interaction.id, error)
            if interaction.type is discord.InteractionType.autocomplete:
                if not interaction.response.is_done():
                    with contextlib.suppress(discord.HTTPException):
                        await interaction.response.autocomplete([])
                return
        await errors.reply_error(interaction, error)


class TableroBot(commands.AutoShardedBot):
    """Tablero on Discord: the connection, the command tree and the cogs it is given."""

    def __init__(self, *, sync_state: SyncState | None = None, auto_sync: bool = True,
                 shard_count: int | None = None, metrics: Metrics | None = None,
                 **options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,  # no prefix commands: slash only
            help_command=None,
            tree_cls=TableroTree,
            allowed_installs=GUILD_INSTALL,
            allowed_contexts=IN_SERVERS,
            intents=intents(),
            shard_count=shard_count,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False,
                                                     users=True, replied_user=False),
            **options)
        self.names = MemberNames(self)
        self.metrics = metrics
        """Where interactions are counted and timed (``errors.replying``)."""
        self.ops: Operations | None = None
        """Metrics and readiness (``create_bot``): what ``/metrics`` and ``/readyz`` serve."""
        self._shards_ready: set[int] = set()
        self._shards_down: set[int] = set()
        self.sync_state = sync_state
        self.auto_sync = auto_sync
        self.command_ids = CommandIds()
        """The commands' ids, learnt at the start-up sync: texts in a server name commands
        by their mentions (``mentions``)."""
        self.ids_refresh = IdsRefresh(self, self.tree, sync_state, self.command_ids)
        """Fetches the ids again while the bot runs (at each tick of the deadline sweep,
        ``create_bot`` wires it): a ``tablero sync`` meanwhile may have changed them."""
        self._cogs_to_add: list[commands.Cog] = []
        self.stopping = False
        self._refusals: set[asyncio.Task[Any]] = set()
        self.locales: Callable[[int, str | None], Awaitable[object]] | None = None
        """Where each user's Discord locale goes when he acts (``MatchService.
        remember_locale``): what reaches him later by DM is written in it."""

    def add_cogs_at_setup(self, cogs: Iterable[commands.Cog]) -> None:
        """The cogs ``setup_hook`` adds (before the commands are synced)."""
        self._cogs_to_add.extend(cogs)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(MatchButton, LeaderboardButton, GamePick, TournamentButton,
                               StepButton, ExplorerStep, ExplorerBack, ContinueSeat,
                               ContinueOpponents)
        await self.tree.set_translator(CatalogueTranslator())  # the command tree's languages
        await self.names.book.load()
        for cog in self._cogs_to_add:
            await self.add_cog(cog)
        if self.auto_sync:
            try:
                await sync_at_start(self, self.tree, self.sync_state, self.command_ids)
            except discord.HTTPException:
                log.exception("automatic command sync failed; run `tablero sync` later")
        self.ids_refresh.started()

    async def close(self) -> None:
        """Stop gracefully: no new commands or clicks, the cogs unloaded (pending deliveries
        flushed for up to ``DeliveriesCog.seconds``, the sweep stopped), then the
        connection closed. The database is closed by whoever opened it, afterwards."""
        if not self.stopping:
            log.info("stopping: no new work; flushing pending deliveries")
        self.stopping = True
        await super().close()

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """While stopping, a click on a persistent component starts no new work: the
        person is told to try again (commands are refused by the tree's check)."""
        if self.stopping and event_name in COMPONENT_EVENTS:
            interaction = args[0]
            if isinstance(interaction, discord.Interaction):
                task = asyncio.get_running_loop().create_task(
                    interaction.response.send_message(
                        render(STOPPING, negotiate(str(interaction.locale))), ephemeral=True))
                self._refusals.add(task)
                task.add_done_callback(self._refusals.discard)
            return
        super().dispatch(event_name, *args, **kwargs)

    async def on_interaction(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Remember who people are: the bot has no member intent, so the names of those
        who use its commands and buttons (and the caches) name players on boards; and
        the language they read, for the DMs that reach them with no interaction. The
        people its options name are remembered too (``MemberNames.seen_in``)."""
        await self.names.seen_in(interaction)
        if self.locales is not None and not interaction.user.bot:
            try:
                await self.locales(interaction.user.id, str(interaction.locale))
            except StorageError as e:  # the repository logs the outage, once
                log.debug("could not store the locale of user %s: %s", interaction.user.id,
                          e.message)
            except Exception:  # a language is a preference: never fail an interaction
                log.exception("could not store the locale of user %s", interaction.user.id)

    # ------------------------------------------------------------------ readiness

    async def on_shard_ready(self, shard_id: int) -> None:
        self._shards_ready.add(shard_id)
        self._shards_down.discard(shard_id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        self._shards_down.discard(shard_id)

    async def on_shard_connect(self, shard_id: int) -> None:
        self._shards_down.discard(shard_id)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        self._shards_down.add(shard_id)

    def shard_states(self) -> dict[int, str | None]:
        """Each shard this process holds: None when connected and ready, else why not
        (what ``/readyz`` names)."""
        count = self.shard_count
        held = self.shard_ids if self.shard_ids is not None else range(count or 0)
        if not held:
            return {0: "not connected to Discord yet"}
        states: dict[int, str | None] = {}
        for shard in held:
            if self.is_closed():
                states[shard] = "closed (the bot is stopping)"
            elif shard in self._shards_down:
                states[shard] = "disconnected from the gateway"
            elif shard not in self._shards_ready:
                states[shard] = "not ready yet"
            else:
                states[shard] = None
        return states

    async def on_ready(self) -> None:
        user = self.user
        log.info("connected as %s (id %s) to %d servers on %d shards", user,
                 user.id if user else "?", len(self.guilds), self.shard_count or 1)


def default_sync_state(database: Path) -> SyncState:
    """The sync-state file next to the database file."""
    return SyncState(database.with_name(database.name + ".commands.json"))
