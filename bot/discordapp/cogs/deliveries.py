"""Posts already handed to the notifier are delivered before the bot disconnects."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from discord.ext import commands


class DeliveriesCog(commands.Cog, name="Deliveries"):
    """On shutdown (the bot removes its cogs before it closes its connection), waits for
    ``drain``: the notifier's deliveries still under way."""

    def __init__(self, drain: Callable[[], Awaitable[None]]) -> None:
        self._drain = drain

    async def cog_unload(self) -> None:
        await self._drain()
