"""The web pages served in the bot's process (``tablero run`` with ``TABLERO_WEB_PORT``):
over the bot's own match service, so a move played on the web is announced in the
match's thread at once, as a move typed in Discord is. Started with the cogs, stopped
when the bot stops."""

from __future__ import annotations

import logging

from discord.ext import commands

from bot.ops.metrics import Metrics
from bot.web.app import WebApp, WebServer
from bot.web.links import WebLinks
from service import MatchService

log = logging.getLogger("tablero.discord")


class WebPagesUnavailable(Exception):
    """The pages' address cannot be had: ``tablero run`` stops as it starts, in one line
    (its words are the command line's, ``bot.discordapp.cli``)."""

    def __init__(self, host: str, port: int, reason: str) -> None:
        super().__init__(host, port, reason)
        self.host, self.port, self.reason = host, port, reason


class WebPagesCog(commands.Cog, name="WebPages"):
    """Serves the web pages on ``host``:``port`` while the bot runs. An address that
    cannot be had (the port taken) stops the bot as it starts (``WebPagesUnavailable``),
    as a taken metrics port does: asked for pages it cannot serve, it would run on with
    none, and a restart that met the port of the process still stopping would keep none
    until the next restart."""

    def __init__(self, service: MatchService, links: WebLinks, host: str, port: int,
                 metrics: Metrics | None = None) -> None:
        # its requests are counted with the bot's (/metrics stays on the metrics port)
        self.server = WebServer(WebApp(service, links.signer, metrics=metrics), host, port)
        self.serving = False

    async def cog_load(self) -> None:
        try:
            await self.server.start()
        except OSError as e:
            raise WebPagesUnavailable(self.server.host, self.server.port,
                                      str(e.strerror or e)) from None
        self.serving = True
        log.info("web pages served on http://%s:%s/", self.server.host, self.server.port)

    async def cog_unload(self) -> None:
        self.serving = False
        await self.server.stop()
