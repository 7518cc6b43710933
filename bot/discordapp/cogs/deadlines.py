"""The deadline sweep: reminders and timeouts, on a discord.py task loop."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands, tasks

from bot.service import MatchService

log = logging.getLogger("tablero.discord")


class DeadlinesCog(commands.Cog, name="Deadlines"):
    """Runs ``service.sweep`` every ``seconds`` once the client is ready."""

    def __init__(self, service: MatchService, client: discord.Client, seconds: float) -> None:
        self.service = service
        self.client = client
        self.sweeps = 0
        self._loop = tasks.loop(seconds=seconds)(self.sweep_once)
        self._loop.before_loop(self._until_ready)

    async def cog_load(self) -> None:
        self._loop.start()

    async def cog_unload(self) -> None:
        self._loop.cancel()

    async def _until_ready(self) -> None:
        await self.client.wait_until_ready()

    async def sweep_once(self) -> None:
        """Act on due deadlines. A failure is logged; the loop keeps running."""
        self.sweeps += 1
        try:
            await self.service.sweep()
        except Exception:
            log.exception("deadline sweep failed; retrying at the next tick")
