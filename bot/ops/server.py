"""``/healthz``, ``/readyz`` and ``/metrics`` over HTTP (aiohttp).

``/healthz`` answers 200 while the process and its event loop live (nothing is read).
``/readyz`` runs the readiness check: 200 ``ready`` or 503 ``not ready``, a line per
condition naming why it fails. ``/metrics`` runs the same check (so the outbox and
readiness gauges are current) and answers Prometheus' text format. ``tablero run`` serves
them on ``TABLERO_METRICS_PORT``; ``tablero web`` beside its pages, or on that port.
"""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from bot.ops.health import Readiness
from bot.ops.metrics import CONTENT_TYPE, Metrics

HEADERS = {"Cache-Control": "no-store"}


@dataclass
class Operations:
    """One process's metrics and readiness: what its endpoints serve."""

    metrics: Metrics
    readiness: Readiness

    async def healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok\n", headers=HEADERS)

    async def readyz(self, request: web.Request) -> web.Response:
        verdict = await self.readiness.check()
        return web.Response(text=verdict.text(), status=200 if verdict.ready else 503,
                            headers=HEADERS)

    async def metrics_page(self, request: web.Request) -> web.Response:
        await self.readiness.check()
        return web.Response(body=self.metrics.scrape(), headers={
            **HEADERS, "Content-Type": CONTENT_TYPE})

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/healthz", self.healthz), web.get("/readyz", self.readyz),
                web.get("/metrics", self.metrics_page)]

    def application(self) -> web.Application:
        app = web.Application()
        app.add_routes(self.routes())
        return app


class OpsServer:
    """The endpoints on their own address (``port`` 0: a free one, see ``port``)."""

    def __init__(self, ops: Operations, host: str = "127.0.0.1", port: int = 0) -> None:
        self.ops = ops
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> int:
        """Listen; the port bound (the one asked for, or the free one given)."""
        self._runner = web.AppRunner(self.ops.application(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
