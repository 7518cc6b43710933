"""Posts already handed to the notifier are delivered before the bot disconnects."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from discord.ext import commands

log = logging.getLogger("tablero.discord")

DRAIN_SECONDS = 10.0
"""How long a stopping bot waits for pending deliveries before it closes anyway."""


class DeliveriesCog(commands.Cog, name="Deliveries"):
    """On shutdown (the bot removes its cogs before it closes its connection), waits for
    ``drain`` (the notifier's deliveries still under way) up to ``seconds``."""

    def __init__(self, drain: Callable[[], Awaitable[None]],
                 seconds: float = DRAIN_SECONDS) -> None:
        self._drain = drain
        self.seconds = seconds

    async def cog_unload(self) -> None:
        try:
            await asyncio.wait_for(self._drain(), self.seconds)
        except TimeoutError:
            log.warning("stopping with deliveries still pending after %.0f s", self.seconds)
