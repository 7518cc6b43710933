"""The outbox on Discord: delivered from the start (what a restart left undelivered),
polled for what is overdue, flushed on shutdown; and the ephemeral word to a user whose
DMs turned out to be closed."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

import discord
from discord.ext import commands, tasks

from bot.discordapp.dispatcher import DMS_CLOSED_NOTICE, DeliveryOptions, Routes
from bot.discordapp.errors import command_ids
from bot.discordapp.mentions import mentioning
from locales.i18n import negotiate, render
from service.backoff import Backoff
from service.deliveries import DeliveryFacts
from service.errors import StorageError
from service.outbox import OutboxRelay

log = logging.getLogger("tablero.discord")

DRAIN_SECONDS = 10.0
"""How long a stopping bot waits for pending deliveries before it closes anyway."""

LONGEST_WAIT = 300.0
"""Seconds the poll waits at most between tries while the database is unavailable."""


class Outbox(Protocol):
    """What the cog drives of the notifier (``DiscordNotifier``)."""

    @property
    def options(self) -> DeliveryOptions: ...

    @property
    def routes(self) -> Routes: ...

    @property
    def relay(self) -> OutboxRelay: ...

    @property
    def facts(self) -> DeliveryFacts: ...


class DeliveriesCog(commands.Cog, name="Deliveries"):
    """With the ``notifier``: once the client is ready, ``recover`` (entries stored
    before this start), then a ``poll`` every ``options.poll_seconds``. On shutdown (the
    bot removes its cogs before it closes its connection) ``drain`` (the notifier's
    ``flush``) runs for up to ``seconds``; what is left is delivered at the next start."""

    def __init__(self, drain: Callable[[], Awaitable[object]],
                 seconds: float = DRAIN_SECONDS, *, notifier: Outbox | None = None,
                 client: discord.Client | None = None) -> None:
        self._drain = drain
        self.seconds = seconds
        self.notifier = notifier
        self.client = client
        self.recovered = False
        seconds = notifier.options.poll_seconds if notifier else 60.0
        self.backoff = Backoff(seconds, LONGEST_WAIT)
        self._loop = tasks.loop(seconds=seconds)(self.poll_once)
        self._loop.before_loop(self._until_ready)

    async def cog_load(self) -> None:
        if self.notifier is not None:
            self._loop.start()

    async def cog_unload(self) -> None:
        self._loop.cancel()
        try:
            await asyncio.wait_for(self._drain(), self.seconds)
        except TimeoutError:
            log.warning("stopping with deliveries still pending after %.0f s", self.seconds)

    async def _until_ready(self) -> None:
        if self.client is not None:
            await self.client.wait_until_ready()

    async def poll_once(self) -> None:
        """Deliver what waits; a failure is logged and the next tick tries again (while
        the database is unavailable, a later tick: the poll backs off, quietly)."""
        if self.notifier is None or not self.backoff.due():
            return
        try:
            if not self.recovered:
                self.notifier.routes.untold |= set(
                    await self.notifier.facts.dms_closed_untold())
                waiting = await self.notifier.relay.recover()
                self.recovered = True
                if waiting:
                    log.info("delivering %d notifications stored before this start",
                             waiting)
            else:
                await self.notifier.relay.poll()
        except StorageError as e:  # the repository logs the outage, once
            log.debug("outbox poll waits %.0f s for the database: %s", self.backoff.failed(),
                      e.message)
        except Exception:
            log.exception("outbox poll failed; retrying at the next tick")
        else:
            self.backoff.succeeded()

    @commands.Cog.listener()
    async def on_app_command_completion(self, interaction: discord.Interaction,
                                        command: object) -> None:
        """Tell a user, ephemerally and once, after the answer to his command, that a DM
        to him was refused (50007). Known from memory: no read on the command's path."""
        if self.notifier is None:
            return
        user = interaction.user.id
        routes = self.notifier.routes
        if user not in routes.untold:
            return
        routes.untold.discard(user)
        with mentioning(command_ids(interaction), interaction.guild_id):  # a reply in a server
            notice = render(DMS_CLOSED_NOTICE, negotiate(str(interaction.locale)))
        try:
            if interaction.response.is_done():
                await interaction.followup.send(notice, ephemeral=True)
            else:
                await interaction.response.send_message(notice, ephemeral=True)
            await self.notifier.facts.dms_closed_told(user)
        except StorageError as e:  # the repository logs the outage, once
            log.debug("could not store that user %s was told: %s", user, e.message)
        except Exception:
            log.exception("could not tell user %s that his DMs are closed", user)
